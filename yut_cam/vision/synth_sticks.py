"""Half-cylinder yut sticks for the synthetic scene generator (:mod:`yut_cam.vision.synth`).

A stick is rendered from two albedo sprites in stick-local coordinates (length along the
columns, width along the rows) at the canvas resolution: the flat split face (배: light
wood with grain, optionally the 빽도 mark near one end) and the rounded back (등: darker
wood or paint with the burned/painted pattern).  Lighting is applied when the sprite is
drawn: the flat face is lit like the mat, the back gets cylinder shading across its width
from the light direction.  Poses are averaged for motion blur; each stick casts a soft
shadow away from the light.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from yut_cam.vision.synth_textures import fbm, wood_grain

F32 = NDArray[np.float32]
BGR = tuple[int, int, int]

PATTERNS = ("x_marks", "bands", "x_bands", "dots", "chevrons")
MARKS = ("dot", "stripe", "glyph", "ring")


@dataclass(frozen=True)
class StickLook:
    """How the four sticks of one set look (shared by all four)."""

    length_cm: float
    width_cm: float
    wood: BGR
    back: BGR
    pattern: str
    pattern_color: BGR
    mark: str
    mark_color: BGR
    mark_inset: float = 0.9  # the mark's centre from its tip, in stick widths


@dataclass(frozen=True)
class Light:
    """A directional light: azimuth in the world plane, elevation above it."""

    azimuth_deg: float
    elevation_deg: float
    ambient: float
    shadow: float

    def vector(self) -> tuple[float, float, float]:
        az, el = math.radians(self.azimuth_deg), math.radians(self.elevation_deg)
        return (math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el))


@dataclass(frozen=True)
class Pose:
    """Where a stick is, in world centimetres; ``roll`` < 1 narrows it (turning in the air)."""

    x: float
    y: float
    angle_deg: float
    face: str
    lift_cm: float = 0.0
    roll: float = 1.0


class StickSprites:
    """The two albedo sprites and the alpha of one stick at ``ppc`` pixels per centimetre."""

    def __init__(self, look: StickLook, marked: bool, ppc: float, rng: np.random.Generator) -> None:
        self.ppc = ppc
        ss = 2  # supersampling for clean edges and strokes
        L = look.length_cm * ppc * ss
        W = look.width_cm * ppc * ss
        pad = int(math.ceil(2 * ss))
        h, w = int(math.ceil(W)) + 2 * pad, int(math.ceil(L)) + 2 * pad
        self.pad = pad / ss
        self.length_px = L / ss
        self.width_px = W / ss
        alpha = np.zeros((h, w), np.float32)
        r = max(1, int(0.12 * W))
        x0, y0, x1, y1 = pad, pad, pad + int(round(L)) - 1, pad + int(round(W)) - 1
        cv2.rectangle(alpha, (x0 + r, y0), (x1 - r, y1), 1.0, -1)
        cv2.rectangle(alpha, (x0, y0 + r), (x1, y1 - r), 1.0, -1)
        for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
            cv2.circle(alpha, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
        grain = wood_grain(rng, h, w, ppc * ss)
        blot = fbm(rng, (h, w), max(2.0, 3.0 * ppc * ss), 2)
        wood = np.asarray(look.wood, np.float32)
        belly = wood[None, None, :] * (1.0 + 0.10 * grain + 0.05 * blot)[..., None]
        # the split face is a little darker at the long edges and the cut ends
        yy = (np.arange(h, dtype=np.float32)[:, None] - (y0 + y1) / 2) / max(W / 2, 1.0)
        xx = (np.arange(w, dtype=np.float32)[None, :] - (x0 + x1) / 2) / max(L / 2, 1.0)
        rim = np.clip((np.abs(yy) - 0.82) / 0.18, 0, 1) * 0.18 + np.clip((np.abs(xx) - 0.96) / 0.04, 0, 1) * 0.2
        belly = belly * (1.0 - rim)[..., None]
        backc = np.asarray(look.back, np.float32)
        back = backc[None, None, :] * (1.0 + 0.06 * grain + 0.08 * blot)[..., None]
        pat = np.zeros((h, w), np.float32)
        _draw_pattern(pat, look.pattern, x0, y0, x1, y1, rng)
        pat = np.asarray(cv2.GaussianBlur(pat, (0, 0), 0.6 * ss), np.float32) * np.float32(rng.uniform(0.8, 1.0))
        pc = np.asarray(look.pattern_color, np.float32)
        back = back * (1 - pat[..., None]) + pc[None, None, :] * pat[..., None]
        if marked:
            mk = np.zeros((h, w), np.float32)
            _draw_mark(mk, look.mark, look.mark_inset, x0, y0, x1, y1)
            mk = np.asarray(cv2.GaussianBlur(mk, (0, 0), 0.4 * ss), np.float32)
            mc = np.asarray(look.mark_color, np.float32)
            belly = belly * (1 - mk[..., None]) + mc[None, None, :] * mk[..., None]
        size = (int(round(w / ss)), int(round(h / ss)))
        self.alpha: F32 = np.asarray(cv2.resize(alpha, size, interpolation=cv2.INTER_AREA), np.float32)
        self.belly: F32 = np.asarray(cv2.resize(belly.astype(np.float32), size, interpolation=cv2.INTER_AREA), np.float32)
        self.back: F32 = np.asarray(cv2.resize(back.astype(np.float32), size, interpolation=cv2.INTER_AREA), np.float32)
        hh = self.alpha.shape[0]
        self.rows = (np.arange(hh, dtype=np.float32) + 0.5 - hh / 2) / np.float32(self.width_px / 2)


def _draw_pattern(img: F32, pattern: str, x0: int, y0: int, x1: int, y1: int,
                  rng: np.random.Generator) -> None:
    L, W = x1 - x0, y1 - y0
    t = max(1, int(round(W * float(rng.uniform(0.09, 0.15)))))
    n = int(rng.integers(3, 5))
    xs = [x0 + int(L * (i + 0.5) / n) for i in range(n)]
    if pattern in ("x_marks", "x_bands"):
        centres = xs if pattern == "x_marks" else xs[1:-1] or [x0 + L // 2]
        half = int(W * 0.55)
        for cx in centres:
            cv2.line(img, (cx - half, y0 + 1), (cx + half, y1 - 1), 1.0, t, cv2.LINE_AA)
            cv2.line(img, (cx - half, y1 - 1), (cx + half, y0 + 1), 1.0, t, cv2.LINE_AA)
    if pattern in ("bands", "x_bands"):
        bw = max(2, int(W * float(rng.uniform(0.2, 0.35))))
        spots = [x0 + int(L * f) for f in ((0.12, 0.88) if pattern == "x_bands" else (0.12, 0.37, 0.63, 0.88))]
        for cx in spots:
            cv2.rectangle(img, (cx - bw // 2, y0), (cx + bw // 2, y1), 1.0, -1)
    if pattern == "dots":
        for cx in xs:
            cv2.circle(img, (cx, (y0 + y1) // 2), max(2, int(W * 0.22)), 1.0, -1, cv2.LINE_AA)
    if pattern == "chevrons":
        half = int(W * 0.45)
        for cx in xs:
            pts = np.array([[cx - half, y0 + 1], [cx + half, (y0 + y1) // 2], [cx - half, y1 - 1]], np.int32)
            cv2.polylines(img, [pts], False, 1.0, t, cv2.LINE_AA)


def _draw_mark(img: F32, mark: str, inset: float, x0: int, y0: int, x1: int, y1: int) -> None:
    W = y1 - y0
    cy = (y0 + y1) // 2
    cx = x0 + int(W * inset)
    if mark == "dot":
        cv2.circle(img, (cx, cy), max(2, int(W * 0.36)), 1.0, -1, cv2.LINE_AA)
    elif mark == "ring":
        cv2.circle(img, (cx, cy), max(2, int(W * 0.34)), 1.0, max(2, int(W * 0.18)), cv2.LINE_AA)
    elif mark == "stripe":
        bw = max(2, int(W * 0.4))
        cv2.rectangle(img, (cx - bw // 2, y0), (cx + bw // 2, y1), 1.0, -1)
    else:  # a small painted character, strokes like ㅃ
        s = max(3, int(W * 0.34))
        t = max(2, int(W * 0.12))
        for dx in (-s // 2 - 1, s // 2 + 1):
            bx = cx + dx
            cv2.line(img, (bx - s // 3, cy - s), (bx - s // 3, cy + s), 1.0, t, cv2.LINE_AA)
            cv2.line(img, (bx + s // 3, cy - s), (bx + s // 3, cy + s), 1.0, t, cv2.LINE_AA)
            cv2.line(img, (bx - s // 3, cy), (bx + s // 3, cy), 1.0, t, cv2.LINE_AA)
            cv2.line(img, (bx - s // 3, cy + s), (bx + s // 3, cy + s), 1.0, t, cv2.LINE_AA)


def _affine(sp: StickSprites, pose: Pose, origin: tuple[float, float], ppc: float,
            cam_height_cm: float) -> NDArray[np.float64]:
    s = cam_height_cm / max(cam_height_cm - pose.lift_cm, 1.0)
    a = math.radians(pose.angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    A = rot @ np.diag([s, s * max(pose.roll, 0.05)])
    h, w = sp.alpha.shape
    c_src = np.array([w / 2.0, h / 2.0])
    c_dst = np.array([(pose.x - origin[0]) * ppc, (pose.y - origin[1]) * ppc])
    t = c_dst - A @ c_src
    return np.hstack([A, t[:, None]])


def _roi(M: NDArray[np.float64], shape: tuple[int, int], canvas: tuple[int, int],
         grow: float) -> tuple[int, int, int, int] | None:
    h, w = shape
    pts = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float64) @ M.T
    x0 = max(0, int(math.floor(pts[:, 0].min() - grow)))
    y0 = max(0, int(math.floor(pts[:, 1].min() - grow)))
    x1 = min(canvas[1], int(math.ceil(pts[:, 0].max() + grow)))
    y1 = min(canvas[0], int(math.ceil(pts[:, 1].max() + grow)))
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def draw_stick(canvas: F32, sp: StickSprites, poses: Sequence[Pose], light: Light,
               origin: tuple[float, float], ppc: float, cam_height_cm: float = 220.0) -> None:
    """Composite one stick (shadow first, then the body) into ``canvas`` in place.

    Several poses are averaged (motion blur within one frame)."""
    if not poses:
        return
    lv = light.vector()
    flat = light.ambient + (1 - light.ambient) * lv[2]
    mats = [_affine(sp, p, origin, ppc, cam_height_cm) for p in poses]
    # soft shadow, displaced away from the light
    tan_el = max(math.tan(math.radians(light.elevation_deg)), 0.25)
    shadow_sum: F32 | None = None
    box = None
    blur = 0.0
    for p, M in zip(poses, mats):
        hgt = p.lift_cm + 0.5 * sp.width_px / ppc
        d = np.array([-lv[0], -lv[1]]) / math.hypot(lv[0], lv[1]) * hgt / tan_el * ppc
        Ms = M.copy()
        Ms[:, 2] += d
        blur = max(blur, (0.35 + 0.12 * hgt) * ppc)
        r = _roi(Ms, sp.alpha.shape, canvas.shape[:2], 3 * blur + 2)
        if r is None:
            continue
        box = r if box is None else (min(box[0], r[0]), min(box[1], r[1]), max(box[2], r[2]), max(box[3], r[3]))
    if box is not None:
        x0, y0, x1, y1 = box
        shadow_sum = np.zeros((y1 - y0, x1 - x0), np.float32)
        for p, M in zip(poses, mats):
            hgt = p.lift_cm + 0.5 * sp.width_px / ppc
            d = np.array([-lv[0], -lv[1]]) / math.hypot(lv[0], lv[1]) * hgt / tan_el * ppc
            Ms = M.copy()
            Ms[:, 2] += d - np.array([x0, y0])
            shadow_sum += cv2.warpAffine(sp.alpha, Ms, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        sh = cv2.GaussianBlur(shadow_sum / np.float32(len(poses)), (0, 0), blur)
        canvas[y0:y1, x0:x1] *= (1.0 - light.shadow * sh)[..., None]
    # the body
    box = None
    for M in mats:
        r = _roi(M, sp.alpha.shape, canvas.shape[:2], 2)
        if r is not None:
            box = r if box is None else (min(box[0], r[0]), min(box[1], r[1]), max(box[2], r[2]), max(box[3], r[3]))
    if box is None:
        return
    x0, y0, x1, y1 = box
    acc = np.zeros((y1 - y0, x1 - x0, 4), np.float32)
    for p, M in zip(poses, mats):
        a = math.radians(p.angle_deg)
        # light in stick-local coordinates (x along the stick, y across it)
        ly = -math.sin(a) * lv[0] + math.cos(a) * lv[1]
        if p.face == "배":
            albedo = sp.belly * np.float32(1.0)
        else:
            t = np.clip(sp.rows, -0.999, 0.999)
            nz = np.sqrt(1 - t * t)
            dot = np.maximum(0.0, ly * t + lv[2] * nz)
            spec = 0.25 * np.maximum(0.0, (ly * t + (lv[2] + 1) * nz) / math.sqrt(ly * ly + (lv[2] + 1) ** 2)) ** 24
            prof = (light.ambient + (1 - light.ambient) * dot) / flat * (0.75 + 0.25 * nz) + spec
            albedo = sp.back * prof.astype(np.float32)[:, None, None]
        rgba = np.dstack([albedo * sp.alpha[..., None], sp.alpha]).astype(np.float32)
        Mr = M.copy()
        Mr[:, 2] -= np.array([x0, y0])
        acc += cv2.warpAffine(rgba, Mr, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    acc /= np.float32(len(poses))
    roi = canvas[y0:y1, x0:x1]
    roi *= (1.0 - acc[..., 3])[..., None]
    roi += acc[..., :3]


def stick_corners(pose: Pose, look: StickLook) -> NDArray[np.float64]:
    """The four corners (world cm) of a stick lying at ``pose``."""
    a = math.radians(pose.angle_deg)
    d = np.array([math.cos(a), math.sin(a)]) * look.length_cm / 2
    n = np.array([-math.sin(a), math.cos(a)]) * look.width_cm / 2
    c = np.array([pose.x, pose.y])
    return np.array([c - d - n, c + d - n, c + d + n, c - d + n])
