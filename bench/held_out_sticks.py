"""Stick sets of the held-out renderer: sizes, materials and the textures of each stick.

A set has four sticks of the same make.  The 배 (flat face) texture is indexed by the
stick's local (x along the length, y across), the 등 (round face) texture by (x, phi), phi the
angle around the half-ellipse from one edge (-pi/2) over the top (0) to the other (+pi/2).
Stick 0 carries the 빽도 mark on its 배 near the +x end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from bench.held_out_textures import BACK_PATTERNS, MARKS, SETS, jitter, lin, noise_at

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
Rng = np.random.Generator
RES = 12.0  # texels per cm on sticks

# strokes of the syllable 빽 in a unit box (x right, y down)
GLYPH = [((0.02, 0.0), (0.02, 0.5)), ((0.24, 0.0), (0.24, 0.5)), ((0.02, 0.25), (0.24, 0.25)),
         ((0.02, 0.5), (0.24, 0.5)), ((0.32, 0.0), (0.32, 0.5)), ((0.54, 0.0), (0.54, 0.5)),
         ((0.32, 0.25), (0.54, 0.25)), ((0.32, 0.5), (0.54, 0.5)), ((0.70, 0.0), (0.70, 0.62)),
         ((0.70, 0.3), (0.80, 0.3)), ((0.92, 0.0), (0.92, 0.66)), ((0.1, 0.76), (0.86, 0.76)),
         ((0.86, 0.76), (0.86, 1.0))]


@dataclass(frozen=True)
class StickSet:
    kind: str
    length: float
    half_width: float
    thickness: float
    end_round: float
    back_pattern: str
    mark: str
    mark_size: float
    mark_from_end: float
    belly_spec: float
    belly_shine: float
    back_spec: float
    back_shine: float


def make_set(rng: Rng) -> StickSet:
    kind = SETS[rng.integers(len(SETS))]
    w = rng.uniform(2.5, 3.5)
    lac = kind == "lacquer"
    return StickSet(kind=kind, length=float(rng.uniform(15, 20)), half_width=w / 2,
                    thickness=float(w / 2 * rng.uniform(0.55, 0.95)),
                    end_round=float(w / 2 * rng.choice([2.2, 3.5, 1e3])),
                    back_pattern=BACK_PATTERNS[rng.integers(len(BACK_PATTERNS))] if kind != "bark"
                    else str(rng.choice(["plain", "x"])),
                    mark=MARKS[rng.integers(len(MARKS))], mark_size=float(rng.uniform(0.8, 2.0)),
                    mark_from_end=float(rng.uniform(1.0, 3.0)),
                    belly_spec=float(rng.uniform(0.25, 0.5) if lac else rng.uniform(0.0, 0.12)),
                    belly_shine=float(rng.uniform(60, 200) if lac else rng.uniform(5, 30)),
                    back_spec=float(rng.uniform(0.3, 0.6) if lac else rng.uniform(0.0, 0.15)),
                    back_shine=float(rng.uniform(60, 250) if lac else rng.uniform(5, 40)))


def _wood(rng: Rng, X: F64, Y: F64, base: F64) -> F32:
    grain = noise_at(rng, X + rng.uniform(0, 500), Y + rng.uniform(0, 500), 6.0, 0.06)
    ring = np.sin(Y * rng.uniform(3, 8) + 1.5 * noise_at(rng, X, Y, 4.0, 1.0)) * 0.5 + 0.5
    lum = 1 + 0.07 * grain - 0.12 * ring ** 6
    knot = np.zeros_like(X)
    if rng.random() < 0.4:
        kx, ky = rng.uniform(X.min() * 0.7, X.max() * 0.7), rng.uniform(Y.min(), Y.max())
        knot = np.exp(-(((X - kx) / 0.35) ** 2 + ((Y - ky) / 0.25) ** 2))
    out: F32 = (base[None, None, :] * (lum * (1 - 0.5 * knot))[..., None]).astype(np.float32)
    return out


def _draw_mark(img: F32, s: StickSet, rng: Rng) -> None:
    """The 빽도 mark on the 배 texture (rows y, cols x) near the +x end."""
    h, w = img.shape[:2]
    size = s.mark_size * RES
    cx = w - 1 - (s.mark_from_end + s.mark_size / 2) * RES
    cy = (h - 1) / 2 + rng.normal(0, 0.1) * h
    black, red, gold = lin((0.05, 0.04, 0.04)), lin((0.72, 0.06, 0.05)), lin((0.92, 0.80, 0.45))
    first = black if s.mark in ("x", "glyph", "ring") and rng.random() < 0.7 else red
    face = img.reshape(-1, 3).mean(0)
    # a maker marks the stick so the mark shows: never red on a red lacquer 배
    pick = next(c for c in (first, black, gold) if np.abs(c - face).sum() >= 0.3 or c is gold)
    col = tuple(float(c) for c in pick)
    sub = 4  # draw at 4x for clean strokes, then shrink
    big = np.zeros((h * sub, w * sub), np.uint8)
    th = max(1, int(round(rng.uniform(0.18, 0.3) * size * sub)))
    c = (int(cx * sub), int(cy * sub))
    r = int(size / 2 * sub)
    if s.mark == "x":
        cv2.line(big, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), 255, th)
        cv2.line(big, (c[0] - r, c[1] + r), (c[0] + r, c[1] - r), 255, th)
    elif s.mark == "dot":
        cv2.circle(big, c, r, 255, -1)
    elif s.mark == "ring":
        cv2.circle(big, c, r - th // 2, 255, th)
    elif s.mark == "band":
        x0 = int((w - 1 - s.mark_from_end * RES - size) * sub)
        cv2.rectangle(big, (x0, 0), (x0 + int(size * sub), h * sub), 255, -1)
    else:
        rot = rng.choice([0.0, math.pi / 2, -math.pi / 2])
        for (x1, y1), (x2, y2) in GLYPH:
            pts = []
            for x, y in ((x1, y1), (x2, y2)):
                dx, dy = (x - 0.5) * 2 * r, (y - 0.5) * 2 * r
                pts.append((int(c[0] + dx * math.cos(rot) - dy * math.sin(rot)),
                            int(c[1] + dx * math.sin(rot) + dy * math.cos(rot))))
            cv2.line(big, pts[0], pts[1], 255, max(1, th // 2))
    m = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    m *= rng.uniform(0.9, 1.0)
    img[:] = img * (1 - m[..., None]) + np.asarray(col, np.float32)[None, None, :] * m[..., None]


def _pattern(img: F32, pattern: str, ink: F64, L: float, rng: Rng) -> None:
    """Marks painted or burnt on the 등 texture (rows phi, cols x)."""
    h, w = img.shape[:2]
    sub = 3
    big = np.zeros((h * sub, w * sub), np.uint8)
    th = max(2, int(0.25 * RES * sub))
    if pattern == "x":
        k = int(rng.integers(2, 4))
        for i in range(k):
            cx = int((i + 1) * w * sub / (k + 1))
            r = int(h * sub * 0.3)
            cy = h * sub // 2
            cv2.line(big, (cx - r, cy - r), (cx + r, cy + r), 255, th)
            cv2.line(big, (cx - r, cy + r), (cx + r, cy - r), 255, th)
    elif pattern == "dots":
        for i in range(int(rng.integers(3, 7))):
            cx = int((i + 0.5) * w * sub / 6.5 + w * sub * 0.04)
            for cy in (h * sub // 3, 2 * h * sub // 3) if rng.random() < 0.5 else (h * sub // 2,):
                cv2.circle(big, (cx, int(cy)), int(0.3 * RES * sub), 255, -1)
    elif pattern == "lines":
        k = int(rng.integers(2, 6))
        for i in range(k):
            cx = int((i + 1) * w * sub / (k + 1))
            cv2.line(big, (cx, 0), (cx, h * sub), 255, th)
    m = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    img[:] = img * (1 - m[..., None]) + ink.astype(np.float32)[None, None, :] * m[..., None]


def stick_textures(s: StickSet, marked: bool, rng: Rng, tone: tuple[F64, F64, F64]) -> tuple[F32, F32, F64]:
    """(배 texture, 등 texture, end colour) of one stick; ``tone`` = set colours (belly, back, ink)."""
    L, a = s.length, s.half_width
    w, hb, hk = int(L * RES), max(8, int(2 * a * RES)), max(12, int(math.pi * (a + s.thickness) / 2 * RES))
    xs = np.linspace(-L / 2, L / 2, w)
    Xb, Yb = np.meshgrid(xs, np.linspace(-a, a, hb))
    belly_base, back_base, ink = tone
    vary = 1 + rng.normal(0, 0.04)
    belly = _wood(rng, Xb, Yb, belly_base * vary) if s.kind != "lacquer" or rng.random() < 0.5 else \
        (belly_base[None, None, :] * (1 + 0.02 * noise_at(rng, Xb, Yb, 2.0, 2.0))[..., None]).astype(np.float32)
    Xk, Pk = np.meshgrid(xs, np.linspace(-math.pi / 2, math.pi / 2, hk))
    Sk = Pk * (a + s.thickness) / 2
    if s.kind in ("natural", "lowcontrast"):
        back = _wood(rng, Xk, Sk, back_base * vary)
    elif s.kind == "bark":
        rough = noise_at(rng, Xk, Sk, 0.8, 0.3)
        lent = (noise_at(rng, Xk, Sk, 0.05, 0.4) > 2.2).astype(np.float32)
        back = (back_base[None, None, :] * (1 + 0.25 * rough + 0.6 * lent)[..., None]).astype(np.float32)
    elif s.kind == "charred":
        n = noise_at(rng, Xk, Sk, 0.5, 0.5)
        crack = np.exp(-(np.abs(noise_at(rng, Xk, Sk, 1.2, 0.6)) / 0.12) ** 2)
        back = (back_base[None, None, :] * (1 + 0.35 * n - 0.6 * crack)[..., None]).astype(np.float32)
        back = np.clip(back, 0.003, 1).astype(np.float32)
    else:  # painted or lacquered
        back = (back_base[None, None, :] * (1 + 0.03 * noise_at(rng, Xk, Sk, 1.0, 1.0))[..., None]).astype(np.float32)
    if s.back_pattern != "plain":
        _pattern(back, s.back_pattern, ink, L, rng)
    if marked:
        _draw_mark(belly, s, rng)
    end = belly_base * 0.7
    return belly, back, end


def set_tones(s: StickSet, rng: Rng) -> tuple[F64, F64, F64]:
    """Base colours of a set: 배, 등 and the ink of the 등 pattern (linear RGB)."""
    pale = jitter(rng, [(0.86, 0.74, 0.55), (0.80, 0.66, 0.45), (0.90, 0.82, 0.64), (0.74, 0.58, 0.40)]
                  [rng.integers(4)], 0.05)
    if s.kind == "natural":
        return pale, pale * rng.uniform(0.6, 0.85), jitter(rng, (0.08, 0.06, 0.05), 0.1)
    if s.kind == "lowcontrast":
        return pale, pale * rng.uniform(0.8, 0.95), jitter(rng, (0.35, 0.22, 0.12), 0.1)
    if s.kind == "bark":
        return pale, jitter(rng, [(0.36, 0.26, 0.18), (0.45, 0.40, 0.34), (0.30, 0.20, 0.14)][rng.integers(3)],
                            0.08), jitter(rng, (0.1, 0.1, 0.1), 0.1)
    if s.kind == "charred":
        return pale, jitter(rng, (0.12, 0.08, 0.06), 0.15), jitter(rng, (0.05, 0.04, 0.03), 0.1)
    if s.kind == "painted":
        back = jitter(rng, [(0.70, 0.12, 0.10), (0.12, 0.25, 0.60), (0.15, 0.45, 0.20), (0.10, 0.10, 0.10),
                            (0.85, 0.65, 0.10)][rng.integers(5)], 0.06)
        ink = jitter(rng, [(0.92, 0.90, 0.85), (0.95, 0.80, 0.20), (0.05, 0.05, 0.05)][rng.integers(3)], 0.05)
        return pale, back, ink
    belly = pale if rng.random() < 0.5 else jitter(rng, (0.65, 0.10, 0.08), 0.06)  # lacquer
    back = jitter(rng, [(0.04, 0.035, 0.03), (0.50, 0.06, 0.05)][rng.integers(2)], 0.1)
    if np.abs(back - belly).sum() < 0.2:
        back = lin((0.04, 0.035, 0.03))
    return belly, back, jitter(rng, (0.85, 0.65, 0.20), 0.08)


def sample(tex: F32, row: F64, col: F64) -> F64:
    """Bilinear lookup of texels at fractional (row, col), clamped to the texture."""
    h, w = tex.shape[:2]
    r = np.clip(row, 0, h - 1.001)
    c = np.clip(col, 0, w - 1.001)
    r0, c0 = r.astype(np.int64), c.astype(np.int64)
    fr, fc = (r - r0)[:, None], (c - c0)[:, None]
    out: F64 = (tex[r0, c0] * (1 - fr) * (1 - fc) + tex[r0 + 1, c0] * fr * (1 - fc)
                + tex[r0, c0 + 1] * (1 - fr) * fc + tex[r0 + 1, c0 + 1] * fr * fc)
    return out
