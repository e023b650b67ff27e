"""A small, independent scene maker for the reader's unit tests.

Deliberately simpler than (and different from) the product's generator in
``yut_cam.vision.synth``: a woven mat on a floor, flat-shaded wooden sticks with a drawn
round-face pattern and a mark, drop shadows, a light change and noise. Tests that need
realism use the real generator; these keep the geometry and calibration tests
independent of it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

MAT = [(150.0, 60.0), (1130.0, 50.0), (1150.0, 680.0), (130.0, 690.0)]
SIZE = (1280, 720)
LENGTH, WIDTH = 84.0, 17.0
FLAT_COLOUR = (150.0, 198.0, 226.0)  # BGR of the flat face (배)


@dataclass(frozen=True)
class Stick:
    cx: float
    cy: float
    angle: float
    face: str  # "배" | "등"
    marked: bool = False
    mark_at: int = 8  # the mark's centre, px from the stick's end
    mark_radius: int = 5
    mark_color: tuple[int, int, int] = (30, 30, 170)
    tint: float = 1.0  # the light on this stick alone (turned from the lamp: below 1)
    across: float = 1.0  # the share of its width in view (standing on its edge: about half)
    # a venue whose two faces differ only in how round they look: both of the flat face's
    # colour, unpatterned and unmarked, shaded across as 1 - rounding * u**2 (u: -1 at one rim to 1
    # at the other)
    rounding: float | None = None


def _stick_texture(face: str, marked: bool, rng: np.random.Generator, flip: bool, mark_at: int = 8,
                   mark_radius: int = 5, mark_color: tuple[int, int, int] = (30, 30, 170),
                   rounding: float | None = None) -> Image:
    length, width = int(LENGTH), int(WIDTH)
    u = np.linspace(-1, 1, width)[:, None]
    x = np.arange(length)[None, :]
    grain = 6 * np.sin(x * 0.35 + rng.uniform(0, 6) + 3 * u) * np.ones((width, 1))
    if rounding is not None:  # the flat face's colour, shaded by how round the face is alone
        base, shade = np.array(FLAT_COLOUR), 1 - rounding * u ** 2
    elif face == "배":
        base, shade = np.array(FLAT_COLOUR), np.ones((width, 1))
    else:
        base = np.array([95.0, 140.0, 185.0])
        shade = 0.75 + 0.35 * np.sqrt(np.clip(1 - u ** 2, 0, 1))
    tex = (base[None, None, :] * shade[..., None] + grain[..., None]).clip(0, 255).astype(np.uint8)
    tex = np.ascontiguousarray(tex)
    if rounding is not None:
        return tex
    if face == "등":
        for cx in (0.25, 0.5, 0.75):
            c = int(cx * length)
            cv2.line(tex, (c - 6, 2), (c + 6, width - 3), (30, 35, 40), 2)
            cv2.line(tex, (c + 6, 2), (c - 6, width - 3), (30, 35, 40), 2)
    elif marked:
        c = mark_at if not flip else length - 1 - mark_at
        cv2.circle(tex, (c, width // 2), mark_radius, mark_color, -1)
    return tex


def render(sticks: list[Stick], seed: int = 0, gain: tuple[float, float, float] = (1.0, 1.0, 1.0),
           noise: float = 3.0, shadow: bool = True, size: tuple[int, int] = SIZE,
           mat: list[tuple[float, float]] | None = None) -> Image:
    """A BGR picture of ``sticks`` on the mat (later sticks lie on top)."""
    rng = np.random.default_rng(seed)
    bg_rng = np.random.default_rng(12345)  # the mat and floor are the same in every picture
    w, h = size
    sx, sy = w / SIZE[0], h / SIZE[1]
    poly = mat if mat is not None else [(x * sx, y * sy) for x, y in MAT]
    floor = np.full((h, w, 3), (70, 80, 90), np.float64) + bg_rng.normal(0, 4, (h, w, 1))
    yy, xx = np.mgrid[0:h, 0:w]
    weave = 10 * np.sin(xx * 0.9) * np.sin(yy * 0.9) + bg_rng.normal(0, 5, (h, w))
    mat_img = np.array([80.0, 150.0, 175.0])[None, None, :] + weave[..., None]
    inside = np.zeros((h, w), np.uint8)
    cv2.fillPoly(inside, [np.round(np.array(poly)).astype(np.int32)], 1)
    img = np.where(inside[..., None] > 0, mat_img, floor)
    scale = min(sx, sy)
    for i, s in enumerate(sticks):
        tex = _stick_texture(s.face, s.marked, rng, flip=bool(i % 2), mark_at=s.mark_at,
                              mark_radius=s.mark_radius, mark_color=s.mark_color,
                              rounding=s.rounding).astype(np.float64) * s.tint
        th, tw = tex.shape[:2]
        t = math.radians(s.angle)
        a = np.array([[math.cos(t) * scale, -math.sin(t) * scale * s.across, 0.0],
                      [math.sin(t) * scale, math.cos(t) * scale * s.across, 0.0]])
        a[:, 2] = np.array([s.cx * sx, s.cy * sy]) - a[:, :2] @ np.array([tw / 2, th / 2])
        m = cv2.warpAffine(np.ones((th, tw), np.float32), a, (w, h), flags=cv2.INTER_LINEAR)
        if shadow:
            sa = a.copy()
            sa[:, 2] += (4 * scale, 5 * scale)
            sm = cv2.GaussianBlur(cv2.warpAffine(np.ones((th, tw), np.float32), sa, (w, h)), (0, 0), 2.5)
            img = img * (1 - 0.4 * sm[..., None])
        layer = cv2.warpAffine(tex, a, (w, h), flags=cv2.INTER_LINEAR)
        img = img * (1 - m[..., None]) + layer * m[..., None]
    img = img * np.array(gain)[None, None, :] + rng.normal(0, noise, (h, w, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def calibration_set(seed: int = 0, rounding: tuple[float, float] | None = None) -> tuple[Image, Image, Image]:
    """(empty, belly, back) pictures for calibrating on these scenes; with ``rounding`` (배, 등),
    at a venue whose faces differ only in how round they look (:class:`Stick`)."""
    spots = [(400, 250, 20), (800, 230, 100), (420, 500, 160), (850, 520, 60)]
    flat, round_ = rounding or (None, None)
    belly = [Stick(x, y, a, "배", marked=(i == 2), rounding=flat) for i, (x, y, a) in enumerate(spots)]
    back = [Stick(x, y, a, "등", rounding=round_) for x, y, a in spots]
    return render([], seed), render(belly, seed + 1), render(back, seed + 2)


def four(faces: str, marked: int | None = None, seed: int = 0,
         place: list[tuple[float, float, float]] | None = None) -> list[Stick]:
    """Four sticks apart; ``faces`` like "배등등배", ``marked`` the index of the 빽도 stick."""
    rng = np.random.default_rng(seed)
    spots = place or [(350 + rng.uniform(-40, 40), 220 + rng.uniform(-40, 40), rng.uniform(0, 180)),
                      (850 + rng.uniform(-40, 40), 240 + rng.uniform(-40, 40), rng.uniform(0, 180)),
                      (380 + rng.uniform(-40, 40), 520 + rng.uniform(-40, 40), rng.uniform(0, 180)),
                      (880 + rng.uniform(-40, 40), 500 + rng.uniform(-40, 40), rng.uniform(0, 180))]
    return [Stick(x, y, a, "배" if f == "배" else "등", marked=(i == marked))
            for i, ((x, y, a), f) in enumerate(zip(spots, faces))]
