"""Foreign-scene benchmark: ``python -m bench.foreign_scenes [--n-styles 40] [--throws 15]``.

An independent renderer (numpy + cv2 only, seeded), written without the product's own
generator, to check the throw reader on scenes it was never tuned to.  The ground is a
plane seen by a pinhole camera (height, tilt, roll and yaw of its own, focal length set so
the 멍석 fills part of the frame): everything on the ground is painted top-down into a
world texture (cm -> px) and carried into the picture by the camera's homography.

* 멍석: woven straw strips (rows of fibres, twine cords, over/under cells) or felt/linen
  noise, in straw, reddish or greenish colours, with a patterned border band (part of the mat).
* Floor: tiles with grout, concrete, planks, or speckled vinyl.
* Sticks: half-cylinders 17-19 cm x 3 cm with rounded ends. 배 = pale wood with fine grain,
  knots and a dark chamfer; 등 = bark brown shaded by the cylinder normal under the key
  light (with a specular sheen) and a painted pattern (three X, dots, bands or chevrons).
  One stick carries the 빽도 mark on its 배 (red disc, black X, ring, or a glyph-like blob).
* Light: one key direction (cast shadow offset from every stick, soft penumbra, contact
  shade), ambient, a broad falloff, white balance, vignetting, blur, noise, JPEG 70-95.
* Cases: clean, touching (side by side, T, crossing), edge (a stick over the mat boundary,
  still on it), 낙 (one stick wholly off the mat).

For every style the three calibration pictures (empty; 배 up apart; 등 up apart) come from
the same camera and light. The bench calibrates once per style (finding the mat itself;
if that fails, again with the mat's corners as a referee taps them, each off by a tap's
error). The referee then looks at the outline found, as the console draws it over the empty
picture: when the calibration warns that the mat's edge is unsure, or the line strays off the
mat's true edge by more than its own width (``OUTLINE_SEEN``), they calibrate again with the
taps (recorded as ``tapped``); else they confirm it as the mat's edge (``confirmed``,
:func:`yut_cam.vision.learning.confirm_outline`). When calibration warns that the 빽도 mark
was not learned, or shows faintly or small, and says to retake the 배 picture with the mark
in plain view, the referee does, up to ``BELLY_RETAKES`` times, and keeps the calibration
whose mark warns least (:func:`retake_belly`; the sticks laid again on a generator of their
own, so the throws that follow are the same; ``--belly-retakes 0``: never, as before session
49). The bench then reads every throw and prints a table per case. As in a match, the referee confirms each
throw and the reader learns the venue's sticks from it (:mod:`yut_cam.vision.learning`):
the bench confirms the true result after scoring the reading (``--no-learn``: every throw
is read with the calibration alone). Timings are not measured.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
U8 = npt.NDArray[np.uint8]
CASES = ("clean", "touching", "edge", "낙")
BY_BELLIES = {0: "모", 1: "도", 2: "개", 3: "걸", 4: "윷"}
LOCAL_RES = 12.0  # px per cm of the stick textures
# the console draws the found outline over the empty picture with a line this share of the
# picture's width (web/static/console.calibrate.js: 1.2 units of width / 300): the referee
# sees an outline that strays further than that from the mat's edge (a border band left
# outside it, a corner cut), and taps the outline instead of confirming it
OUTLINE_SEEN = 1.2 / 300


@dataclass(frozen=True)
class Stick:
    """Where one stick lies on the ground (cm, world) and which face is up."""
    index: int
    x: float
    y: float
    angle: float  # radians, direction of the stick's length
    belly_up: bool


@dataclass(frozen=True)
class Truth:
    result: str
    case: str
    faces: str  # e.g. "배등등배" in stick order (stick 0 carries the mark)


def _rng_color(rng: np.random.Generator, base: tuple[float, float, float], spread: float) -> F32:
    c = np.asarray(base, np.float32) / 255.0
    out: F32 = np.clip(c * (1.0 + rng.uniform(-spread, spread, 3)).astype(np.float32), 0.02, 1.0).astype(np.float32)
    return out


def _noise(rng: np.random.Generator, shape: tuple[int, int], sigma: tuple[float, float]) -> F32:
    """Smooth noise of unit spread, blurred with (sigma_x, sigma_y) in px."""
    n = rng.standard_normal(shape).astype(np.float32)
    b = np.asarray(cv2.GaussianBlur(n, (0, 0), sigmaX=max(0.3, sigma[0]), sigmaY=max(0.3, sigma[1])), np.float32)
    return np.asarray(b / max(float(b.std()), 1e-6), np.float32)


def _stick_textures(rng: np.random.Generator, length: float, width: float, design: dict[str, Any],
                    marked: bool) -> tuple[F32, F32, F32, F32]:
    """Colour of 배 and 등 (before light) and the outline alpha, in the stick's own frame
    (columns along the length, LOCAL_RES px/cm), plus v (across, -1..1) per row."""
    w, h = int(round((length + 0.4) * LOCAL_RES)), int(round((width + 0.4) * LOCAL_RES))
    uu, vv = np.meshgrid((np.arange(w, dtype=np.float32) + 0.5) / LOCAL_RES - (length + 0.4) / 2,
                         (np.arange(h, dtype=np.float32) + 0.5) / LOCAL_RES - (width + 0.4) / 2)
    r_end = design["end_radius"]
    # rounded-rectangle signed distance (cm)
    qx = np.abs(uu) - (length / 2 - r_end)
    qy = np.abs(vv) - (width / 2 - r_end)
    d = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0) - r_end
    alpha = np.clip(0.5 - d * LOCAL_RES, 0, 1).astype(np.float32)
    # 배: pale wood, fine wavy grain along the length, knots, darker chamfer
    wood = design["wood"] * (1.0 + rng.uniform(-0.05, 0.05, 3)).astype(np.float32)
    wave = 0.25 * np.sin(uu * rng.uniform(0.2, 0.5) + rng.uniform(0, 6.3)) + 0.08 * _noise(rng, (h, w), (30, 3))
    grain = (0.5 + 0.5 * np.sin(2 * np.pi * (vv * design["grain_freq"] + wave))) ** 3
    tone = 1.0 - design["grain_depth"] * grain + 0.03 * _noise(rng, (h, w), (20, 2))
    for _ in range(int(rng.integers(0, 3))):
        ku, kv = rng.uniform(-length / 2 + 2, length / 2 - 2), rng.uniform(-width / 3, width / 3)
        ka, kb = rng.uniform(0.3, 0.7), rng.uniform(0.2, 0.4)
        rr = np.hypot((uu - ku) / ka, (vv - kv) / kb)
        tone = tone * (1.0 - 0.45 * np.exp(-rr ** 2 * 1.5) - 0.12 * np.exp(-((rr - 1.6) ** 2) * 4))
    rim = np.clip((np.abs(vv) - (width / 2 - 0.18)) / 0.18, 0, 1)
    tone = tone * (1.0 - 0.35 * rim)
    belly = (wood[None, None, :] * tone[..., None]).astype(np.float32)
    if marked:
        layer = np.zeros((h, w), np.uint8)
        end = 1 if rng.random() < 0.5 else -1
        cu = int(round(w / 2 + end * (length / 2 - design["mark_at"]) * LOCAL_RES))
        cv_ = h // 2
        rad = int(round(0.75 * LOCAL_RES))
        kind = design["mark"]
        if kind == "red disc":
            cv2.circle(layer, (cu, cv_), rad, 255, -1, cv2.LINE_AA)
        elif kind == "ring":
            cv2.circle(layer, (cu, cv_), rad, 255, max(2, rad // 3), cv2.LINE_AA)
        elif kind == "black X":
            t = max(2, int(0.25 * LOCAL_RES))
            cv2.line(layer, (cu - rad, cv_ - rad), (cu + rad, cv_ + rad), 255, t, cv2.LINE_AA)
            cv2.line(layer, (cu - rad, cv_ + rad), (cu + rad, cv_ - rad), 255, t, cv2.LINE_AA)
        else:  # glyph-like blob: a few brush strokes
            t = max(2, int(0.22 * LOCAL_RES))
            cv2.line(layer, (cu - rad, cv_ - rad), (cu - rad, cv_ + rad), 255, t, cv2.LINE_AA)
            cv2.line(layer, (cu - rad, cv_), (cu + rad // 3, cv_), 255, t, cv2.LINE_AA)
            cv2.line(layer, (cu + rad // 2, cv_ - rad), (cu + rad // 2, cv_ + rad), 255, t, cv2.LINE_AA)
            cv2.line(layer, (cu + rad, cv_ - rad), (cu + rad, cv_ + rad), 255, t, cv2.LINE_AA)
        a = (layer.astype(np.float32) / 255.0 * rng.uniform(0.8, 0.95))[..., None]
        belly = belly * (1 - a) + design["mark_colour"][None, None, :] * a
    # 등: bark streaks along the length and a painted pattern
    bark = design["bark"] * (1.0 + rng.uniform(-0.06, 0.06, 3)).astype(np.float32)
    streak = 1.0 + 0.12 * _noise(rng, (h, w), (40, 1.2)) + 0.05 * _noise(rng, (h, w), (4, 4))
    back = (bark[None, None, :] * streak[..., None]).astype(np.float32)
    paint = np.zeros((h, w), np.uint8)
    t = max(2, int(design["paint_width"] * LOCAL_RES))
    kind = design["pattern"]
    half = int(0.33 * width * LOCAL_RES)
    spots = [w / 2 + k * length * LOCAL_RES / 4 for k in (-1, 0, 1)]
    if kind == "three X":
        for c in spots:
            ci = int(c)
            cv2.line(paint, (ci - half, h // 2 - half), (ci + half, h // 2 + half), 255, t, cv2.LINE_AA)
            cv2.line(paint, (ci - half, h // 2 + half), (ci + half, h // 2 - half), 255, t, cv2.LINE_AA)
    elif kind == "dots":
        for k in range(5):
            ci = int(w / 2 + (k - 2) * length * LOCAL_RES / 6)
            cv2.circle(paint, (ci, h // 2), int(0.4 * LOCAL_RES), 255, -1, cv2.LINE_AA)
    elif kind == "bands":
        for c in spots:
            cv2.line(paint, (int(c), 0), (int(c), h), 255, t * 2, cv2.LINE_AA)
    else:  # chevrons
        for c in spots:
            ci = int(c)
            cv2.line(paint, (ci - half, h // 2 - half), (ci, h // 2), 255, t, cv2.LINE_AA)
            cv2.line(paint, (ci, h // 2), (ci - half, h // 2 + half), 255, t, cv2.LINE_AA)
    wear = np.clip(0.85 + 0.2 * _noise(rng, (h, w), (2, 2)), 0, 1)
    a = (paint.astype(np.float32) / 255.0 * wear)[..., None]
    back = back * (1 - a) + design["paint"][None, None, :] * a
    vcol = np.clip(vv[:, :1] / (width / 2), -1, 1).astype(np.float32)
    return belly.astype(np.float32), back.astype(np.float32), alpha, vcol


class Style:
    """One venue: mat, floor, sticks, camera and light, all drawn from ``seed``."""

    def __init__(self, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.seed = seed
        self.rng = rng
        self.mat_w, self.mat_h = float(rng.uniform(135, 165)), float(rng.uniform(135, 170))
        self.band = float(rng.uniform(4, 10)) if rng.random() < 0.75 else 0.0
        self.mat_yaw = float(rng.uniform(-0.06, 0.06))
        # camera
        four_three = rng.random() < 0.3
        self.size = (1296, 972) if four_three else (1280, 720)
        self._camera(rng)
        # light
        az = rng.uniform(0, 2 * math.pi)
        el = rng.uniform(math.radians(35), math.radians(75))
        self.light = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)], np.float32)
        key, ambient = float(rng.uniform(0.45, 0.7)), float(rng.uniform(0.3, 0.5))
        norm = float(rng.uniform(0.85, 1.0)) / (ambient + key * float(self.light[2]))
        self.key, self.ambient = key * norm, ambient * norm
        self.shadow_strength = float(rng.uniform(0.25, 0.55))
        self.penumbra = float(rng.uniform(0.15, 0.6))  # cm
        warm = float(rng.uniform(-0.1, 0.1))  # white balance: warm (tungsten) .. cool (daylight LED)
        self.wb = np.array([1 - warm, 1 + rng.uniform(-0.03, 0.03), 1 + warm], np.float32)
        self.vignette = float(rng.uniform(0.0, 0.35))
        self.blur = float(rng.uniform(0.3, 1.1))
        self.noise = float(rng.uniform(1.0, 4.5))
        self.jpeg = int(rng.integers(70, 96))
        self.exposure = float(rng.uniform(0.9, 1.15))
        # sticks
        design: dict[str, Any] = {
            "end_radius": float(rng.uniform(0.5, 1.3)),
            "wood": _rng_color(rng, [(150, 195, 222), (135, 180, 205), (170, 205, 225)][int(rng.integers(3))], 0.06),
            "grain_freq": float(rng.uniform(2.5, 5.0)), "grain_depth": float(rng.uniform(0.06, 0.16)),
            "bark": _rng_color(rng, [(45, 75, 115), (35, 55, 85), (60, 95, 135), (40, 60, 70)][int(rng.integers(4))], 0.1),
            "pattern": ["three X", "dots", "bands", "chevrons"][int(rng.integers(4))],
            "paint": _rng_color(rng, [(20, 20, 22), (25, 25, 110), (70, 35, 25)][int(rng.integers(3))], 0.1),
            "paint_width": float(rng.uniform(0.2, 0.35)),
            "mark": ["red disc", "black X", "ring", "glyph"][int(rng.integers(4))],
            "mark_at": float(rng.uniform(1.6, 2.6)),
        }
        design["mark_colour"] = (_rng_color(rng, (30, 30, 190), 0.1) if design["mark"] in ("red disc", "ring")
                                 else _rng_color(rng, (25, 25, 25), 0.1))
        self.design = design
        base_len, self.width = float(rng.uniform(17, 19)), float(rng.uniform(2.8, 3.2))
        self.lengths = [base_len + float(rng.uniform(-0.25, 0.25)) for _ in range(4)]
        self.textures = [_stick_textures(rng, self.lengths[i], self.width, design, i == 0) for i in range(4)]
        self.ground = self._ground(rng)

    # -- camera -------------------------------------------------------------------------
    def _camera(self, rng: np.random.Generator) -> None:
        W, H = self.size
        for _ in range(200):
            height = rng.uniform(170, 280)
            fill = rng.uniform(0.55, 0.8)
            extent = max(self.mat_w, self.mat_h) if H / W > 0.7 else self.mat_h
            f = fill * H * height / extent
            yaw = rng.uniform(-0.15, 0.15) + (math.pi / 2 if rng.random() < 0.2 else 0.0)
            tx, ty = rng.uniform(-0.14, 0.14, 2)
            cx, cy = rng.uniform(-10, 10, 2)
            K = np.array([[f, 0, W / 2 + rng.uniform(-8, 8)], [0, f, H / 2 + rng.uniform(-8, 8)], [0, 0, 1]])
            R0 = np.array([[1, 0, 0], [0, -1, 0], [0, 0, -1]], float)
            cz, sz = math.cos(yaw), math.sin(yaw)
            Rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
            Rx = np.array([[1, 0, 0], [0, math.cos(tx), -math.sin(tx)], [0, math.sin(tx), math.cos(tx)]])
            Ry = np.array([[math.cos(ty), 0, math.sin(ty)], [0, 1, 0], [-math.sin(ty), 0, math.cos(ty)]])
            R = Rx @ Ry @ R0 @ Rz
            # camera centre over the mat centre shifted back along the tilt so the mat stays in view
            C = np.array([cx, cy, height])
            t = -R @ C
            Hm = K @ np.column_stack([R[:, 0], R[:, 1], t])
            # move the principal ray to the mat centre: shift so the mat centre projects near centre
            centre = Hm @ np.array([0.0, 0.0, 1.0])
            shift = np.array([[1, 0, W / 2 - centre[0] / centre[2] + rng.uniform(-30, 30)],
                              [0, 1, H / 2 - centre[1] / centre[2] + rng.uniform(-20, 20)], [0, 0, 1]])
            Hm = shift @ Hm
            self.world_to_image = Hm / Hm[2, 2]
            outer = self.mat_corners(outer=True)
            img = self.project(outer)
            if img[:, 0].min() > 0.06 * W and img[:, 0].max() < 0.94 * W and img[:, 1].min() > 0.06 * H \
                    and img[:, 1].max() < 0.94 * H:
                return
        raise RuntimeError(f"style {self.seed}: no camera keeps the mat in view")

    def project(self, pts: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        p = np.column_stack([pts, np.ones(len(pts))]) @ self.world_to_image.T
        return np.asarray(p[:, :2] / p[:, 2:3], np.float64)

    def mat_corners(self, outer: bool = True) -> npt.NDArray[np.float64]:
        b = 0.0 if outer else self.band
        hw, hh = self.mat_w / 2 - b, self.mat_h / 2 - b
        c, s = math.cos(self.mat_yaw), math.sin(self.mat_yaw)
        pts = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], float)
        return np.asarray(pts @ np.array([[c, s], [-s, c]]), np.float64)

    def to_mat(self, x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> tuple[Any, Any]:
        c, s = math.cos(self.mat_yaw), math.sin(self.mat_yaw)
        return x * c + y * s, -x * s + y * c

    # -- ground texture -----------------------------------------------------------------
    def _ground(self, rng: np.random.Generator) -> F32:
        W, H = self.size
        inv = np.linalg.inv(self.world_to_image)
        corners = np.array([[0, 0, 1], [W, 0, 1], [W, H, 1], [0, H, 1]], float) @ inv.T
        corners = corners[:, :2] / corners[:, 2:3]
        x0, y0 = corners.min(axis=0) - 5
        x1, y1 = corners.max(axis=0) + 5
        dens = float(np.linalg.norm(self.project(np.array([[0.0, 0.0], [1.0, 0.0]]))[1]
                                    - self.project(np.array([[0.0, 0.0]]))[0]))
        s = min(1.6 * dens, 2400 / max(x1 - x0, y1 - y0))
        self.tex_scale, self.tex_origin = float(s), (float(x0), float(y0))
        tw, th = int(math.ceil((x1 - x0) * s)), int(math.ceil((y1 - y0) * s))
        xs = x0 + (np.arange(tw, dtype=np.float32) + 0.5) / s
        ys = y0 + (np.arange(th, dtype=np.float32) + 0.5) / s
        X, Y = np.meshgrid(xs, ys)
        mu, mv = self.to_mat(X, Y)
        floor = self._floor(rng, X, Y, s)
        mat = self._mat(rng, mu, mv, s)
        m = np.clip(0.5 - (np.maximum(np.abs(mu) - self.mat_w / 2, np.abs(mv) - self.mat_h / 2)) * s, 0, 1)
        img = floor * (1 - m[..., None]) + mat * m[..., None]
        # broad light falloff across the scene
        gx, gy = rng.uniform(-0.0012, 0.0012, 2)
        fall = 1.0 + gx * X + gy * Y - rng.uniform(0, 0.15) * ((X / 150) ** 2 + (Y / 150) ** 2)
        lit = self.ambient + self.key * float(self.light[2])
        return np.asarray(img * (fall * lit)[..., None], np.float32)

    def _floor(self, rng: np.random.Generator, X: F32, Y: F32, s: float) -> F32:
        kind = int(rng.integers(4))
        shape = X.shape
        if kind == 0:  # tiles with grout
            size = rng.uniform(30, 60)
            base = _rng_color(rng, [(170, 170, 165), (150, 175, 190), (90, 90, 95)][int(rng.integers(3))], 0.1)
            ti, tj = np.floor(X / size).astype(int), np.floor(Y / size).astype(int)
            per = 1.0 + 0.06 * np.sin(ti * 12.9898 + tj * 78.233) * 2
            grout = (np.minimum(np.mod(X, size), np.mod(Y, size)) < 0.6).astype(np.float32)
            tone = per * (1 + 0.03 * _noise(rng, shape, (3, 3))) * (1 - 0.35 * grout)
        elif kind == 1:  # concrete
            base = _rng_color(rng, (128, 130, 132), 0.12)
            tone = 1 + 0.045 * _noise(rng, shape, (25 * s / 4, 25 * s / 4)) + 0.04 * _noise(rng, shape, (1, 1))
        elif kind == 2:  # planks
            pw = rng.uniform(9, 16)
            base = _rng_color(rng, [(60, 100, 150), (90, 130, 170)][int(rng.integers(2))], 0.1)
            row = np.floor(Y / pw).astype(int)
            per = 1 + 0.1 * np.sin(row * 7.31)
            seam = (np.mod(Y, pw) < 0.4) | (np.mod(X + row * 37.0, 120) < 0.4)
            tone = per * (1 + 0.06 * _noise(rng, shape, (40, 1.5))) * (1 - 0.4 * seam)
        else:  # speckled vinyl
            base = _rng_color(rng, [(120, 140, 90), (150, 150, 150), (90, 110, 140)][int(rng.integers(3))], 0.1)
            tone = 1 + 0.05 * _noise(rng, shape, (0.7, 0.7)) + 0.03 * _noise(rng, shape, (30, 30))
        return np.asarray(base[None, None, :] * tone[..., None], np.float32)

    def _mat(self, rng: np.random.Generator, mu: F32, mv: F32, s: float) -> F32:
        shape = mu.shape
        base = _rng_color(rng, [(95, 165, 200), (80, 110, 170), (100, 160, 150), (110, 175, 190)][int(rng.integers(4))], 0.08)
        if rng.random() < 0.65:  # woven straw: rows of strips, twine cords, over/under cells
            rowh, cord = rng.uniform(0.8, 1.5), rng.uniform(2.0, 4.0)
            row = np.floor(mv / rowh).astype(int)
            col = np.floor(mu / cord).astype(int)
            per_row = 1 + 0.07 * np.sin(row * 12.7 + 3.1) + 0.04 * np.sin(row * 4.3)
            fib = _noise(rng, shape, (6 * s / 4, 0.5))
            over = np.where((row + col) % 2 == 0, 1.04, 0.96)
            rim = np.abs(np.mod(mv, rowh) / rowh - 0.5) * 2
            cordline = np.exp(-((np.mod(mu, cord) - cord / 2) ** 2) / 0.04)
            tone = per_row * over * (1 + 0.07 * fib) * (1 - 0.12 * rim ** 4) * (1 - 0.18 * cordline)
        else:  # felt / linen
            tone = 1 + 0.05 * _noise(rng, shape, (0.6, 0.6)) + 0.04 * _noise(rng, shape, (15, 15))
            tone = tone * (1 + 0.03 * np.sin(mu * s * 1.3) * np.sin(mv * s * 1.3))
        mat = base[None, None, :] * tone[..., None]
        if self.band > 0:
            band_col = _rng_color(rng, [(30, 30, 120), (90, 45, 25), (25, 25, 30), (40, 70, 100)][int(rng.integers(4))], 0.1)
            pattern = int(rng.integers(3))
            dist = np.minimum(self.mat_w / 2 - np.abs(mu), self.mat_h / 2 - np.abs(mv))
            along = np.where(np.abs(mu) / self.mat_w > np.abs(mv) / self.mat_h, mv, mu)
            if pattern == 0:
                pat = (np.abs(dist - self.band / 2) < self.band / 8).astype(np.float32)
            elif pattern == 1:
                pat = (np.abs(np.mod(along, 6.0) - 3.0) - (dist / self.band) * 3.0 < 0.5).astype(np.float32)
            else:
                pat = np.zeros(shape, np.float32)
            bc = band_col[None, None, :] * (1 + 0.05 * _noise(rng, shape, (1, 1)))[..., None]
            bc = bc * (1 - pat[..., None]) + np.float32(0.85) * pat[..., None] * base[None, None, :]
            inb = np.clip((self.band - dist) * s + 0.5, 0, 1)[..., None]
            mat = mat * (1 - inb) + bc * inb
        return np.asarray(mat, np.float32)

    # -- rendering ------------------------------------------------------------------------
    def render(self, sticks: list[Stick], rng: np.random.Generator) -> U8:
        img = self.ground.copy()
        s, (x0, y0) = self.tex_scale, self.tex_origin
        for st in sticks:
            belly, back, alpha, vcol = self.textures[st.index]
            colour = belly if st.belly_up else back
            ca, sa = math.cos(st.angle), math.sin(st.angle)
            # light in the stick's frame (u along, v across)
            lu = float(self.light[0] * ca + self.light[1] * sa)
            lv = float(-self.light[0] * sa + self.light[1] * ca)
            lz = float(self.light[2])
            if st.belly_up:
                shade = np.full(vcol.shape, self.ambient + self.key * lz, np.float32)
            else:
                nz = np.sqrt(np.clip(1 - vcol ** 2, 0.0, 1.0))
                ndl = np.clip(vcol * lv + nz * lz, 0, 1)
                hv = np.array([lu, lv, lz + 1.0]) / np.linalg.norm([lu, lv, lz + 1.0])
                spec = 0.12 * np.clip(vcol * hv[1] + nz * hv[2], 0, 1) ** 30
                shade = (self.ambient + self.key * ndl + spec).astype(np.float32)
            lit = colour * shade[..., None]
            ph, pw = alpha.shape
            # local px -> texture px
            k = s / LOCAL_RES
            cx, cy = (st.x - x0) * s, (st.y - y0) * s
            M = np.array([[k * ca, -k * sa, 0.0], [k * sa, k * ca, 0.0]])
            M[:, 2] = [cx, cy] - M[:, :2] @ np.array([pw / 2, ph / 2])
            r = int(math.ceil(max(pw, ph) * k / 2 + 4 * s))
            bx0, by0 = max(0, int(cx) - r), max(0, int(cy) - r)
            bx1, by1 = min(img.shape[1], int(cx) + r), min(img.shape[0], int(cy) + r)
            if bx1 <= bx0 or by1 <= by0:
                continue
            Mr = M.copy()
            Mr[:, 2] -= [bx0, by0]
            size = (bx1 - bx0, by1 - by0)
            a = cv2.warpAffine(alpha, Mr, size, flags=cv2.INTER_AREA)
            c = cv2.warpAffine(lit, Mr, size, flags=cv2.INTER_AREA)
            roi = img[by0:by1, bx0:bx1]
            # cast shadow: footprint moved away from the light by height / tan(elevation)
            hgt = self.width / 2
            horiz = max(1e-3, math.hypot(float(self.light[0]), float(self.light[1])))
            off = hgt * horiz / lz * s
            dx, dy = -float(self.light[0]) / horiz * off, -float(self.light[1]) / horiz * off
            sh = cv2.warpAffine(a, np.array([[1, 0, dx], [0, 1, dy]], np.float64), size)
            sh = cv2.GaussianBlur(sh, (0, 0), max(0.4, self.penumbra * s))
            contact = cv2.GaussianBlur(a, (0, 0), max(0.5, 0.35 * s))
            dark = 1 - self.shadow_strength * sh - 0.15 * contact
            roi[:] = roi * np.clip(dark, 0, 1)[..., None]
            roi[:] = roi * (1 - a[..., None]) + c * a[..., None]
        return self._camera_image(img, rng)

    def _camera_image(self, tex: F32, rng: np.random.Generator) -> U8:
        W, H = self.size
        s, (x0, y0) = self.tex_scale, self.tex_origin
        A = np.array([[1 / s, 0, x0], [0, 1 / s, y0], [0, 0, 1]])
        Hm = self.world_to_image @ A
        pre = cv2.GaussianBlur(tex, (0, 0), 0.6)
        img = cv2.warpPerspective(pre, Hm, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        rr = ((xx - W / 2) ** 2 + (yy - H / 2) ** 2) / ((W / 2) ** 2 + (H / 2) ** 2)
        vig = 1 - self.vignette * rr
        expo = self.exposure * float(rng.uniform(0.97, 1.03))
        img = img * (vig * expo)[..., None] * self.wb[None, None, :]
        img = cv2.GaussianBlur(img, (0, 0), self.blur)
        img = img * 255 + rng.normal(0, self.noise, img.shape).astype(np.float32)
        out = np.clip(img, 0, 255).astype(np.uint8)
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg])
        assert ok
        return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)

    def mat_polygon_image(self) -> list[tuple[float, float]]:
        return [(float(x), float(y)) for x, y in self.project(self.mat_corners(outer=True))]

    def taps(self) -> list[tuple[float, float]]:
        """Where this venue's referee taps the mat's four corners on the empty picture (the same
        taps each time), each off by the tap's error (``bench.held_out_scenes.TAP_ERROR``)."""
        rng = np.random.default_rng(self.seed + 13)
        from bench.held_out_scenes import TAP_ERROR
        uv = self.project(self.mat_corners(outer=True))
        uv = uv + rng.normal(0.0, TAP_ERROR * self.size[0], uv.shape)
        return [(float(x), float(y)) for x, y in uv]


# -- throws ----------------------------------------------------------------------------------
def _seg_dist(a: Stick, la: float, b: Stick, lb: float) -> float:
    """Shortest distance between the centre lines of two sticks (cm)."""
    def ends(st: Stick, ln: float) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        d = np.array([math.cos(st.angle), math.sin(st.angle)]) * ln / 2
        c = np.array([st.x, st.y])
        return c - d, c + d
    p1, p2 = ends(a, la)
    q1, q2 = ends(b, lb)
    best = float("inf")
    for t in np.linspace(0, 1, 41):
        p = p1 + (p2 - p1) * t
        d = q2 - q1
        u = float(np.clip(np.dot(p - q1, d) / max(float(np.dot(d, d)), 1e-9), 0, 1))
        best = min(best, float(np.linalg.norm(p - (q1 + d * u))))
    return best


class Thrower:
    """Places the sticks of one throw (or a calibration picture) on a style's ground."""

    def __init__(self, style: Style) -> None:
        self.st = style

    def points(self, s: Stick) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        ln, w = self.st.lengths[s.index], self.st.width
        uu, vv = np.meshgrid(np.linspace(-ln / 2, ln / 2, 25), np.linspace(-w / 2, w / 2, 5))
        ca, sa = math.cos(s.angle), math.sin(s.angle)
        x = s.x + uu.ravel() * ca - vv.ravel() * sa
        y = s.y + uu.ravel() * sa + vv.ravel() * ca
        return self.st.to_mat(x, y)

    def depth(self, s: Stick) -> tuple[float, float]:
        """(least, greatest) signed depth of the stick's points inside the mat (cm, <0 outside)."""
        mu, mv = self.points(s)
        d = np.minimum(self.st.mat_w / 2 - np.abs(mu), self.st.mat_h / 2 - np.abs(mv))
        return float(d.min()), float(d.max())

    def in_view(self, s: Stick, margin: float = 12.0) -> bool:
        mu, mv = self.points(s)
        c, sn = math.cos(self.st.mat_yaw), math.sin(self.st.mat_yaw)
        x, y = mu * c - mv * sn, mu * sn + mv * c
        p = self.st.project(np.column_stack([x, y]))
        W, H = self.st.size
        return bool(p[:, 0].min() > margin and p[:, 1].min() > margin and p[:, 0].max() < W - margin
                    and p[:, 1].max() < H - margin)

    def gap(self, a: Stick, b: Stick) -> float:
        return _seg_dist(a, self.st.lengths[a.index], b, self.st.lengths[b.index]) - self.st.width

    def free(self, rng: np.random.Generator, index: int, belly: bool, placed: list[Stick], min_gap: float,
             inset: float = 3.0) -> Stick:
        c, s = math.cos(self.st.mat_yaw), math.sin(self.st.mat_yaw)
        for _ in range(500):
            mu = rng.uniform(-self.st.mat_w / 2 + inset, self.st.mat_w / 2 - inset)
            mv = rng.uniform(-self.st.mat_h / 2 + inset, self.st.mat_h / 2 - inset)
            cand = Stick(index, mu * c - mv * s, mu * s + mv * c, float(rng.uniform(0, 2 * math.pi)), belly)
            if self.depth(cand)[0] >= inset and all(self.gap(cand, o) >= min_gap for o in placed):
                return cand
        raise RuntimeError(f"style {self.st.seed}: cannot place stick {index}")

    def calibration(self, rng: np.random.Generator, belly: bool) -> list[Stick]:
        placed: list[Stick] = []
        for i in range(4):
            placed.append(self.free(rng, i, belly, placed, min_gap=5.0, inset=max(8.0, self.st.band + 4)))
        return placed

    def throw(self, rng: np.random.Generator, case: str) -> tuple[list[Stick], Truth]:
        for _ in range(100):
            try:
                sticks = self._throw(rng, case)
            except RuntimeError:
                continue
            if all(self.in_view(s) for s in sticks):
                return sticks, self.truth(sticks, case)
        raise RuntimeError(f"style {self.st.seed}: cannot place a {case} throw")

    def _throw(self, rng: np.random.Generator, case: str) -> list[Stick]:
        if rng.random() < 0.15:
            faces = [True, False, False, False]  # 빽도
        else:
            faces = [bool(b) for b in rng.random(4) < 0.5]
        order = [int(i) for i in rng.permutation(4)]
        placed: list[Stick] = []
        if case == "touching":
            a = self.free(rng, order[0], faces[order[0]], [], 0.0, inset=12.0)
            kind = ["side", "T", "cross"][int(rng.integers(3))]
            j = order[1]
            ln_a, ln_b, w = self.st.lengths[a.index], self.st.lengths[j], self.st.width
            da = np.array([math.cos(a.angle), math.sin(a.angle)])
            na = np.array([-da[1], da[0]]) * (1 if rng.random() < 0.5 else -1)
            if kind == "side":
                ang = a.angle + rng.uniform(-0.06, 0.06) + (math.pi if rng.random() < 0.5 else 0)
                c = np.array([a.x, a.y]) + na * (w + rng.uniform(-0.05, 0.15)) + da * rng.uniform(-6, 6)
            elif kind == "T":
                ang = a.angle + math.pi / 2 + rng.uniform(-0.5, 0.5)
                db = np.array([math.cos(ang), math.sin(ang)])
                sign = 1 if float(np.dot(db, na)) > 0 else -1
                c = np.array([a.x, a.y]) + da * rng.uniform(-ln_a / 3, ln_a / 3) + na * (w / 2 + 0.1) \
                    + db * sign * ln_b / 2
            else:
                ang = a.angle + rng.uniform(0.5, math.pi - 0.5)
                c = np.array([a.x, a.y]) + da * rng.uniform(-ln_a / 4, ln_a / 4)
                c = c + np.array([math.cos(ang), math.sin(ang)]) * rng.uniform(-ln_b / 4, ln_b / 4)
            b = Stick(j, float(c[0]), float(c[1]), float(ang), faces[j])
            if self.depth(b)[0] < 3.0:
                raise RuntimeError("touching pair leaves the mat")
            placed = [a, b]
            for i in order[2:]:
                placed.append(self.free(rng, i, faces[i], placed, 2.0))
        elif case in ("edge", "낙"):
            i0 = order[0]
            for _ in range(500):
                side = rng.uniform(-1, 1, 2)
                k = int(rng.integers(2))
                mu = float(side[0]) * self.st.mat_w / 2
                mv = float(side[1]) * self.st.mat_h / 2
                if k == 0:
                    mu = math.copysign(self.st.mat_w / 2, side[0])
                else:
                    mv = math.copysign(self.st.mat_h / 2, side[1])
                push = float(rng.uniform(-5, 5) if case == "edge" else rng.uniform(4, 16))
                if k == 0:
                    mu += math.copysign(push, mu)
                else:
                    mv += math.copysign(push, mv)
                cy, sy = math.cos(self.st.mat_yaw), math.sin(self.st.mat_yaw)
                cand = Stick(i0, mu * cy - mv * sy, mu * sy + mv * cy, float(rng.uniform(0, 2 * math.pi)), faces[i0])
                lo, hi = self.depth(cand)
                ok = (lo < -1.0 and hi > 1.5) if case == "edge" else hi < -2.0
                if ok and self.in_view(cand):
                    break
            else:
                raise RuntimeError("no edge stick")
            placed = [cand]
            for i in order[1:]:
                placed.append(self.free(rng, i, faces[i], placed, 2.0))
        else:
            for i in order:
                placed.append(self.free(rng, i, faces[i], placed, 2.0))
        return placed

    def truth(self, sticks: list[Stick], case: str) -> Truth:
        faces = "".join("배" if s.belly_up else "등" for s in sorted(sticks, key=lambda s: s.index))
        if any(self.depth(s)[1] < 0 for s in sticks):
            return Truth("낙", case, faces)
        bellies = [s for s in sticks if s.belly_up]
        if len(bellies) == 1 and bellies[0].index == 0:
            return Truth("빽도", case, faces)
        return Truth(BY_BELLIES[len(bellies)], case, faces)


# -- bench -------------------------------------------------------------------------------------
def calibration_images(style: Style, rng: np.random.Generator) -> tuple[U8, U8, U8]:
    th = Thrower(style)
    return (style.render([], rng), style.render(th.calibration(rng, True), rng),
            style.render(th.calibration(rng, False), rng))


Job = tuple[int, int, str | None, bool]  # style seed, throws, dump directory, learn from confirmations


def run_style(args: Job) -> list[dict[str, Any]]:
    seed, throws, dump, learn = args
    style = Style(seed)
    rng = np.random.default_rng(seed + 7)
    empty, belly, back = calibration_images(style, rng)
    cal, cal_mode, cal_error = calibrate_as_referee(empty, belly, back, style.taps())
    # the outline the reader found, before any taps
    cover, excess = (float("nan"), float("nan")) if cal is None else mat_share(style, list(cal.mat_polygon))
    cal, looked = settle_outline(cal, empty, belly, back, style.taps(), style.mat_polygon_image())
    cal_mode = looked or cal_mode
    lay = np.random.default_rng(seed + 13)  # the referee's retakes, apart from the throws' generator
    cal, belly, retakes = retake_belly(cal, belly, lambda: style.render(Thrower(style).calibration(lay, True), lay),
                                       lambda picture: referee_calibration(style, empty, picture, back))
    if dump and cal_mode not in ("auto", "confirmed"):
        d = Path(dump)
        d.mkdir(parents=True, exist_ok=True)
        for name, img in (("empty", empty), ("belly", belly), ("back", back)):
            cv2.imwrite(str(d / f"s{seed}_calib_{name}.png"), img)
    th = Thrower(style)
    out: list[dict[str, Any]] = []
    for t in range(throws):
        case = CASES[t % len(CASES)]
        sticks, truth = th.throw(rng, case)
        image = style.render(sticks, rng)
        rec: dict[str, Any] = {"style": seed, "throw": t, "case": case, "truth": truth.result,
                               "faces": truth.faces, "cal_mode": cal_mode, "cal_error": cal_error,
                               "mat_cover": cover, "mat_excess": excess, "band": style.band > 0,
                               "belly_retakes": retakes}
        rec, cal = read_throw(rec, image, cal, dump, learn)
        out.append(rec)
    return out


def mat_share(style: Any, polygon: list[tuple[float, float]]) -> tuple[float, float]:
    """The share of ``style``'s true mat (border band included) inside ``polygon`` (the mat
    the reader uses), and the share of it that ``polygon`` takes in beyond the true mat."""
    W, H = style.size
    truth_mask = np.zeros((H, W), np.uint8)
    found_mask = np.zeros((H, W), np.uint8)
    cv2.fillPoly(truth_mask, [np.round(np.asarray(style.mat_polygon_image())).astype(np.int32)], 1)
    cv2.fillPoly(found_mask, [np.round(np.asarray(polygon)).astype(np.int32)], 1)
    t = max(1.0, float(truth_mask.sum()))
    return float((truth_mask & found_mask).sum()) / t, float((found_mask & (1 - truth_mask)).sum()) / t


def calibrate_as_referee(empty: U8, belly: U8, back: U8, taps: list[tuple[float, float]]) -> tuple[Any, str, str]:
    """The reader's calibration as the benches' referee runs it: by itself, then, if refused,
    with the mat's outline tapped (``taps``). Returns (calibration or None, mode: "auto",
    "polygon" or "failed", the refusals' messages)."""
    from yut_cam.vision.calibration import calibrate
    from yut_cam.vision.errors import VisionError
    try:
        return calibrate(empty, belly, back), "auto", ""
    except VisionError as exc:
        err = str(exc)
    try:
        return calibrate(empty, belly, back, mat_polygon=taps), "polygon", err
    except VisionError as exc2:
        return None, "failed", err + " || with polygon: " + str(exc2)


BELLY_RETAKES = 2  # how many times the bench's referee retakes the 배 picture for the mark


def mark_trouble(cal: Any) -> int:
    """How badly ``cal``'s 빽도 mark warns, by the throws with one stick 배 up it hands to the
    referee: 0 none (a mark read well), 1 those read 도 (it shows small), 2 all of them until a
    confirmed 빽도 settles which candidate is the mark (or calibration again, once it is no
    longer read), 3 all of them (it shows faintly), 4 all of them, with no mark to learn (it
    was not learned). Calibration says to retake the 배 picture at 1, 3 and 4 (``RETAKE_SAID``)."""
    if cal.mark is not None:
        return 3 if cal.mark.faint else 1 if cal.mark.small else 0
    return 2 if cal.mark_candidates or cal.mark_distrusted else 4


RETAKE_SAID = frozenset({1, 3, 4})


def retake_belly(cal: Any, belly: U8, shoot: Callable[[], U8],
                 calibrate_with: Callable[[U8], Any]) -> tuple[Any, U8, int]:
    """What the bench's referee does when calibration ``cal`` warns about the 빽도 mark and
    says to retake the 배 picture (``RETAKE_SAID``): takes it again (``shoot``) and
    calibrates with it as they did with ``belly`` (``calibrate_with``: the calibration,
    outline settled, or None when it is refused), up to ``BELLY_RETAKES`` times, until the
    mark no longer says so. Returns the calibration whose mark warns least (the earliest of
    equals), its 배 picture and the retakes taken; without a calibration there is none."""
    best, best_belly, taken = cal, belly, 0
    while cal is not None and mark_trouble(best) in RETAKE_SAID and taken < BELLY_RETAKES:
        taken += 1
        picture = shoot()
        again = calibrate_with(picture)
        if again is not None and mark_trouble(again) < mark_trouble(best):
            best, best_belly = again, picture
    return best, best_belly, taken


def outline_off(truth: list[tuple[float, float]], found: list[tuple[float, float]], n: int = 400) -> float:
    """How far (px) the ``found`` outline strays from the ``truth`` at most, either way: the
    farthest of ``n`` points along each from the other."""
    from yut_cam.vision.stickfit import signed_distance

    def along(poly: list[tuple[float, float]]) -> npt.NDArray[np.float64]:
        p = np.asarray(poly, np.float64)
        q = np.roll(p, -1, axis=0)
        cum = np.concatenate([[0.0], np.cumsum(np.linalg.norm(q - p, axis=1))])
        at = np.linspace(0.0, cum[-1], n, endpoint=False)
        i = np.searchsorted(cum, at, side="right") - 1
        f = ((at - cum[i]) / np.maximum(cum[i + 1] - cum[i], 1e-9))[:, None]
        return p[i] + f * (q[i] - p[i])

    def farthest(points: npt.NDArray[np.float64], poly: list[tuple[float, float]]) -> float:
        return float(np.abs(signed_distance(points, np.asarray(poly, np.float32).reshape(-1, 1, 2))).max())

    return max(farthest(along(truth), found), farthest(along(found), truth))


def referee_calibration(style: Any, empty: U8, belly: U8, back: U8) -> Any:
    """The calibration ``style``'s three pictures give as the bench's referee makes it
    (:func:`calibrate_as_referee`, then :func:`settle_outline`), or None if refused."""
    cal, _, _ = calibrate_as_referee(empty, belly, back, style.taps())
    return settle_outline(cal, empty, belly, back, style.taps(), style.mat_polygon_image())[0]


def settle_outline(cal: Any, empty: U8, belly: U8, back: U8, taps: list[tuple[float, float]],
                   truth: list[tuple[float, float]]) -> tuple[Any, str]:
    """What the bench's referee does with the outline ``cal`` found, looking at it over the
    empty picture: "tapped", the calibration again with the outline tapped (``taps``) when it
    warns the mat's edge is unsure (``Calibration.mat_unsure``) or the line strays from the
    mat's true edge (``truth``) by more than ``OUTLINE_SEEN``; "confirmed", the outline
    confirmed as the mat's edge (:func:`yut_cam.vision.learning.confirm_outline`); "" when
    there is nothing to look at (no calibration, an outline tapped already, or a tapped one
    that does not calibrate). Once at calibration instead of a question at every throw with
    a stick near the edge."""
    from yut_cam.vision.calibration import calibrate
    from yut_cam.vision.errors import VisionError
    from yut_cam.vision.learning import confirm_outline
    if cal is None or cal.mat_doubt == (0.0, 0.0):
        return cal, ""
    if not cal.mat_unsure and outline_off(truth, list(cal.mat_polygon)) <= OUTLINE_SEEN * cal.image_size[0]:
        return confirm_outline(cal), "confirmed"
    try:
        return calibrate(empty, belly, back, mat_polygon=taps), "tapped"
    except VisionError:
        return cal, ""


def read_throw(rec: dict[str, Any], image: U8, cal: Any, dump: str | None, learn: bool) -> tuple[dict[str, Any], Any]:
    """``rec`` (style, throw, case, truth, faces ...) with the reader's reading of ``image``
    added (none without a calibration), and the calibration for the next throw: with
    ``learn``, taught by the referee's confirmation of the true result. A wrong or flagged
    throw is written to ``dump``."""
    from yut_cam.vision.errors import VisionError
    from yut_cam.vision.learning import learn as learn_from
    from yut_cam.vision.reader import read_image
    if cal is None:
        rec.update(read=None, flagged=None, reasons=())
        return rec, cal
    rec["cal_mark"] = cal.mark is not None  # without it, one stick 배 up goes to the referee
    rec["cal_mark_well"] = cal.mark is not None and mark_trouble(cal) == 0  # learned, and nothing says to retake
    rec["learned"] = cal.faces.learned_count  # confirmed sticks the reading had learned from
    try:
        r = read_image(image, cal)
        rec.update(read=r.result, flagged=r.needs_referee, reasons=tuple(r.reasons), alternatives=list(r.alternatives),
                   read_faces="".join(s.face for s in r.sticks), marked=[s.marked for s in r.sticks],
                   fit_error=round(cal.faces.fit_error, 4), read_sticks=stick_records(r.sticks))
        if learn:  # the referee confirms, after the reading was scored
            cal = learn_from(cal, r, rec["truth"])
    except VisionError as exc:
        rec.update(read="error", flagged=True, reasons=(f"read error: {exc}",))
    if dump and (rec["read"] != rec["truth"] or rec["flagged"]):
        d = Path(dump)
        d.mkdir(parents=True, exist_ok=True)
        tag = f"s{rec['style']}_t{rec['throw']}_{rec['case']}_truth-{rec['truth']}-{rec['faces']}" \
              f"_read-{rec['read']}{'_flagged' if rec['flagged'] else ''}.png"
        cv2.imwrite(str(d / tag), image)
    return rec, cal


def collect_styles(run: Callable[[Job], list[dict[str, Any]]], seeds: list[int], throws: int, dump: str | None,
                   workers: int, learn: bool = True) -> list[dict[str, Any]]:
    """Every style's records (``run`` on each seed), on ``workers`` processes."""
    jobs: list[Job] = [(seed, throws, dump, learn) for seed in seeds]
    if workers <= 1:
        return [r for j in jobs for r in run(j)]
    with mp.get_context("fork").Pool(workers) as pool:
        return [r for rs in pool.imap_unordered(run, jobs) for r in rs]


def collect(n_styles: int, throws: int, seed: int, dump: str | None = None, workers: int = 2,
            learn: bool = True) -> list[dict[str, Any]]:
    return collect_styles(run_style, [seed * 1000 + i for i in range(n_styles)], throws, dump, workers, learn)


def _generic(reason: str) -> str:
    import re
    return re.sub(r"-?\d+(\.\d+)?", "N", reason)


def table(records: list[dict[str, Any]]) -> list[str]:
    lines = [f"{'case':<9}{'throws':>7}{'unflag':>8}{'exact%':>8}{'flag%':>7}{'낙missed':>9}{'false낙':>8}"
             f"{'wrong':>7}{'nocal':>7}"]
    for case in CASES + ("all",):
        rs = [r for r in records if case in ("all", r["case"])]
        read = [r for r in rs if r["read"] is not None]
        un = [r for r in read if not r["flagged"]]
        exact = sum(r["read"] == r["truth"] for r in un)
        missed = sum(r["truth"] == "낙" and r["read"] != "낙" and not r["flagged"] for r in read)
        false_nak = sum(r["truth"] != "낙" and r["read"] == "낙" and not r["flagged"] for r in read)
        pct = 100.0 * exact / len(un) if un else float("nan")
        flag = 100.0 * (len(read) - len(un)) / len(read) if read else float("nan")
        lines.append(f"{case:<9}{len(rs):>7}{len(un):>8}{pct:>8.1f}{flag:>7.1f}{missed:>9}{false_nak:>8}"
                     f"{len(un) - exact:>7}{len(rs) - len(read):>7}")
    return lines


FOUND = ("auto", "tapped", "confirmed")  # calibration modes where the reader found the outline first


def report(records: list[dict[str, Any]]) -> list[str]:
    from yut_cam.vision.facemodel import MIN_DIRECTION
    lines = table(records)
    styles: dict[int, dict[str, Any]] = {r["style"]: r for r in records}
    modes = Counter(r["cal_mode"] for r in styles.values())
    lines.append(f"calibration: {len(styles)} styles, found the mat itself"
                 f" {modes['auto'] + modes['tapped'] + modes['confirmed']} (the referee confirmed the outline:"
                 f" {modes['confirmed']}; its edge unsure or the line off it, so tapped: {modes['tapped']}), needed"
                 f" the outline tapped {modes['polygon']}, failed {modes['failed']}")
    markless = sorted(k for k, r in styles.items() if r.get("cal_mark") is False)
    if markless:
        read = [r for r in records if r["style"] in markless and r["read"] not in (None, "error")]
        un = [r for r in read if not r["flagged"]]
        ones = [r for r in read if r["read"] != "낙" and sum(f == "배" for f in r["read_faces"]) == 1]
        exact = 100.0 * sum(r["read"] == r["truth"] for r in un) / max(1, len(un))
        lines.append(f"calibrated without the 빽도 mark (it did not show): {len(markless)} styles, {len(read)} throws"
                     f" read, flagged {100.0 * (len(read) - len(un)) / max(1, len(read)):.1f}%, exact unflagged"
                     f" {exact:.1f}%; one stick 배 up (not 낙): {len(ones)}, handed to the referee"
                     f" {sum(bool(r['flagged']) for r in ones)}")
    first = {r["style"]: r for r in reversed(records)}
    retaken = [r for r in first.values() if r.get("belly_retakes")]
    if retaken:
        lines.append(f"배 picture retaken for the 빽도 mark (as calibration said to): {len(retaken)} styles,"
                     f" {sum(r['belly_retakes'] for r in retaken)} retakes; after them the mark was learned, with no"
                     f" warning, at {sum(bool(r.get('cal_mark_well')) for r in retaken)}")
    taught = [r for r in records if r["read"] is not None and r.get("learned", 0) >= MIN_DIRECTION]
    if any(r.get("learned", 0) for r in records):
        last = [max(r.get("learned", 0) for r in records if r["style"] == k) for k in styles]
        un = [r for r in taught if not r["flagged"]]
        lines.append(f"learning from confirmed throws: a venue knew {int(np.median(last))} sticks (median) by its last"
                     f" throw; {len(taught)} throws read knowing >= {MIN_DIRECTION}: flagged"
                     f" {100.0 * (len(taught) - len(un)) / max(1, len(taught)):.1f}%, exact unflagged"
                     f" {100.0 * sum(r['read'] == r['truth'] for r in un) / max(1, len(un)):.1f}%")
    covers = [r["mat_cover"] for r in styles.values() if r["cal_mode"] in FOUND]
    if covers:
        short = [f"{r['style']}({r['mat_cover']:.2f}{', band' if r['band'] else ''})" for r in styles.values()
                 if r["cal_mode"] in FOUND and r["mat_cover"] < 0.97]
        lines.append(f"mat found: share of the true mat covered median {np.median(covers):.3f}, min "
                     f"{min(covers):.3f}; under 0.97: {', '.join(short) or 'none'}")
        leaks = [f"{r['style']}(+{r['mat_excess']:.2f})" for r in styles.values()
                 if r["cal_mode"] in FOUND and r["mat_excess"] > 0.03]
        lines.append(f"mat found spills onto the floor by > 3% of the mat's area: {', '.join(leaks) or 'none'}")
    lines.append(choices_line(records))
    errs = Counter(_generic(r["cal_error"]) for r in styles.values() if r["cal_error"])
    for e, n in errs.most_common(8):
        lines.append(f"  {n}x {e}")
    wrong = Counter(f"{r['case']}: {r['truth']}->{r['read']}" for r in records
                    if r["read"] is not None and not r["flagged"] and r["read"] != r["truth"])
    if wrong:
        lines.append("unflagged wrong (case: truth->read): " + ", ".join(f"{k} x{n}" for k, n in wrong.most_common(16)))
    for band in (True, False):
        rs = [r for r in records if r["case"] == "edge" and r["band"] == band and r["read"] is not None]
        un = [r for r in rs if not r["flagged"]]
        if un:
            ok = sum(r["read"] == r["truth"] for r in un)
            lines.append(f"edge, mat {'with' if band else 'without'} border band: {len(rs)} read, "
                         f"{len(un)} unflagged, exact {100.0 * ok / len(un):.1f}%")
    reasons: dict[str, Counter[str]] = defaultdict(Counter)
    for r in records:
        if r["flagged"]:
            for why in r["reasons"]:
                reasons[r["case"]][_generic(why)] += 1
    for case in CASES:
        if reasons[case]:
            lines.append(f"flag reasons {case}: " + "; ".join(f"{k} x{n}" for k, n in reasons[case].most_common(4)))
    return lines


def stick_records(sticks: Any) -> list[tuple[str, float | None, int, int]]:
    """Each read stick's face, face score and box centre (px), to match it to a true stick."""
    return [(st.face, None if st.score is None else round(st.score, 4),
             round(sum(x for x, _ in st.box) / 4), round(sum(y for _, y in st.box) / 4)) for st in sticks]


def choices_line(records: list[dict[str, Any]]) -> str:
    """How far the flagged throws were narrowed down for the referee: the share given a few
    alternatives, and how often the truth was the reading or one of them."""
    flagged = [r for r in records if r.get("flagged") and r.get("read") not in (None, "error")]
    narrowed = [r for r in flagged if r.get("alternatives")]
    among = sum(r["truth"] == r["read"] or r["truth"] in r["alternatives"] for r in narrowed)
    sizes = Counter(1 + len(r["alternatives"]) for r in narrowed)
    return (f"flagged throws narrowed to a few results for the referee: {len(narrowed)} of {len(flagged)}"
            f" ({100.0 * len(narrowed) / max(1, len(flagged)):.1f}%; "
            + ", ".join(f"{k} results {n}" for k, n in sorted(sizes.items()))
            + f"); the truth among them in {among} ({100.0 * among / max(1, len(narrowed)):.1f}%)")


def run_cli(argv: list[str] | None, doc: str | None,
            collect_fn: Callable[[int, int, int, str | None, int, bool], list[dict[str, Any]]],
            extra: Callable[[list[dict[str, Any]]], list[str]] | None = None) -> int:
    """The command line of a scene bench: render and read, write the records, print the table."""
    global BELLY_RETAKES  # read by retake_belly, in this process and in the workers it forks
    p = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    p.add_argument("--n-styles", type=int, default=40)
    p.add_argument("--throws", type=int, default=15)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--dump", default=None, help="write wrong/flagged throws (PNG, truth in the name) here")
    p.add_argument("--json", default=None, help="also write every throw's record (JSON lines) here")
    p.add_argument("--no-learn", action="store_true",
                   help="read every throw with the calibration alone (no learning from confirmed throws)")
    p.add_argument("--belly-retakes", type=int, default=BELLY_RETAKES,
                   help="how many times the referee retakes the 배 picture when calibration says to for the 빽도 mark"
                        " (0: never, as the benches before session 49)")
    a = p.parse_args(argv)
    BELLY_RETAKES = a.belly_retakes
    records = collect_fn(a.n_styles, a.throws, a.seed, a.dump, a.workers, not a.no_learn)
    records.sort(key=lambda r: (r["style"], r["throw"]))
    if a.json:
        import json
        Path(a.json).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    print("\n".join(report(records) + (extra(records) if extra else [])))
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_cli(argv, __doc__, collect)


if __name__ == "__main__":
    raise SystemExit(main())
