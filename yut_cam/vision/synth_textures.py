"""Procedural textures for the synthetic scene generator (:mod:`yut_cam.vision.synth`).

Pure numpy + OpenCV, seeded through ``numpy.random.Generator``.  Every function takes
world coordinates in centimetres (``xs``/``ys`` grids of the canvas) so the texture scale
follows the physical size, not the pixel size.  Values are float32 BGR in 0..255.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

F32 = NDArray[np.float32]

MAT_KINDS = ("round_straw", "square_straw", "round_cloth", "square_cloth")
FLOOR_KINDS = ("wood", "concrete", "grass", "tiles", "tarp", "asphalt", "carpet")


def value_noise(rng: np.random.Generator, shape: tuple[int, int], cell_px: float) -> F32:
    """Smooth noise in about -1..1 with features of ``cell_px`` pixels."""
    h, w = shape
    gh = max(2, int(math.ceil(h / max(cell_px, 1.0))) + 2)
    gw = max(2, int(math.ceil(w / max(cell_px, 1.0))) + 2)
    grid = rng.standard_normal((gh, gw)).astype(np.float32)
    big = cv2.resize(grid, (int(gw * cell_px), int(gh * cell_px)), interpolation=cv2.INTER_CUBIC)
    out: F32 = np.ascontiguousarray(big[:h, :w])
    if out.shape != (h, w):
        out = np.asarray(cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC), np.float32)
    return out


def fbm(rng: np.random.Generator, shape: tuple[int, int], cell_px: float, octaves: int = 3) -> F32:
    """Fractal (multi-octave) smooth noise, about -1..1."""
    acc = np.zeros(shape, np.float32)
    amp, total = 1.0, 0.0
    for k in range(octaves):
        acc += amp * value_noise(rng, shape, max(1.5, cell_px / (2**k)))
        total += amp
        amp *= 0.5
    return acc / np.float32(total)


def _colour(base: tuple[int, int, int], shade: F32) -> F32:
    b = np.asarray(base, np.float32).reshape(1, 1, 3)
    return (shade[..., None] * b).astype(np.float32)


def _streaks(rng: np.random.Generator, along: F32, across: F32, ppc: float,
             along_cm: float, across_cm: float) -> F32:
    """Fibre noise stretched along ``along``: a noise image sampled in (along, across)."""
    tex = rng.standard_normal((256, 256)).astype(np.float32)
    tex = np.asarray(cv2.GaussianBlur(tex, (0, 0), 0.8), np.float32)
    mx = np.mod(along / along_cm * 4.0, 256.0).astype(np.float32)
    my = np.mod(across / across_cm * 4.0, 256.0).astype(np.float32)
    out: F32 = np.asarray(cv2.remap(tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP), np.float32)
    return out


def mat_texture(kind: str, base: tuple[int, int, int], rng: np.random.Generator,
                xs: F32, ys: F32, ppc: float, half_cm: float) -> F32:
    """The mat surface (BGR float) over the whole canvas; the caller masks it."""
    shape = (xs.shape[0], xs.shape[1])
    blotch = fbm(rng, shape, 18.0 * ppc, 3)
    if kind.endswith("straw"):
        if kind.startswith("round"):
            r = np.hypot(xs, ys)
            th = np.arctan2(ys, xs)
            pitch = float(rng.uniform(0.9, 1.5))
            coil = 0.5 + 0.5 * np.sin(2 * np.pi * r / pitch + 0.6 * np.sin(th * 3.0))
            fib = _streaks(rng, th * r, r, ppc, 2.5, pitch)
            n_st = int(rng.integers(12, 30))
            ang = np.mod(th * n_st / (2 * np.pi), 1.0)
            d = np.minimum(ang, 1.0 - ang) * (2 * np.pi * r / n_st)
            stitch = np.exp(-((d / 0.25) ** 2)) * (np.mod(r, 4.0 * pitch) < 3.0 * pitch)
            shade = 0.78 + 0.2 * np.sqrt(coil) + 0.07 * fib - 0.25 * stitch
        else:
            band = float(rng.uniform(5.0, 10.0))
            strand = float(rng.uniform(0.6, 1.0))
            idx = np.floor(ys / band)
            sign = np.where(np.mod(idx, 2) == 0, 1.0, -1.0).astype(np.float32)
            u = ((xs + sign * ys) / math.sqrt(2.0)).astype(np.float32)
            v = ((xs - sign * ys) / math.sqrt(2.0)).astype(np.float32)
            ridge = 0.5 + 0.5 * np.sin(2 * np.pi * v / strand)
            weave = 0.5 + 0.5 * np.sign(np.sin(np.pi * u / (2 * strand)) * np.sin(np.pi * v / strand))
            fib = _streaks(rng, u, v, ppc, 3.0, strand)
            edge = np.exp(-((np.mod(ys, band) / 0.2) ** 2))
            shade = 0.75 + 0.16 * np.sqrt(ridge) + 0.08 * weave + 0.06 * fib - 0.15 * edge
        shade = shade * (1.0 + 0.08 * blotch)
        out = _colour(base, shade.astype(np.float32))
        # binding of the rim: a darker twisted rope band
        rim_w = float(rng.uniform(2.0, 4.0))
        dist = (half_cm - np.hypot(xs, ys)) if kind.startswith("round") else (
            half_cm - np.maximum(np.abs(xs), np.abs(ys)))
        rope = 0.55 + 0.15 * np.sin(2 * np.pi * (xs + ys) / 1.6)
        rim = np.clip((rim_w - dist) / 0.4, 0.0, 1.0)[..., None]
        done: F32 = (out * (1 - rim) + out * rope[..., None] * rim).astype(np.float32)
        return done
    # cloth: a fabric with fine noise, soft folds and a printed border line
    fine = rng.standard_normal(shape).astype(np.float32)
    fine = np.asarray(cv2.GaussianBlur(fine, (0, 0), 0.7), np.float32)
    folds = fbm(rng, shape, 30.0 * ppc, 2)
    shade = 0.92 + 0.05 * fine + 0.06 * folds + 0.04 * blotch
    out = _colour(base, shade.astype(np.float32))
    inset = float(rng.uniform(4.0, 9.0))
    dist = (half_cm - np.hypot(xs, ys)) if kind.startswith("round") else (
        half_cm - np.maximum(np.abs(xs), np.abs(ys)))
    line = np.exp(-(((dist - inset) / 0.5) ** 2))[..., None]
    line_col = np.asarray((230, 230, 235) if sum(base) < 450 else (40, 40, 120), np.float32)
    out = out * (1 - 0.8 * line) + line_col * 0.8 * line
    return out.astype(np.float32)


def floor_texture(kind: str, base: tuple[int, int, int], rng: np.random.Generator,
                  xs: F32, ys: F32, ppc: float) -> F32:
    """The floor around the mat (BGR float) over the whole canvas."""
    shape = (xs.shape[0], xs.shape[1])
    blotch = fbm(rng, shape, 25.0 * ppc, 3)
    fine = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), 0.8)
    if kind == "wood":
        plank = float(rng.uniform(9.0, 20.0))
        idx = np.floor(ys / plank)
        offs = np.asarray(rng.uniform(0, 100, 4096), np.float32)
        tone = 0.85 + 0.3 * np.mod(idx * 0.37, 1.0)
        grain = _streaks(rng, xs + offs[(idx.astype(np.int64) % 4096)], ys, ppc, 12.0, 0.6)
        gap = np.exp(-((np.mod(ys, plank) / 0.15) ** 2))
        shade = tone * (0.9 + 0.08 * grain) - 0.5 * gap + 0.05 * blotch
    elif kind == "tiles":
        tile = float(rng.uniform(20.0, 40.0))
        gx = np.minimum(np.mod(xs, tile), tile - np.mod(xs, tile))
        gy = np.minimum(np.mod(ys, tile), tile - np.mod(ys, tile))
        grout = np.exp(-((np.minimum(gx, gy) / 0.25) ** 2))
        shade = 0.95 + 0.03 * fine + 0.05 * blotch - 0.35 * grout
    elif kind == "grass":
        blades = _streaks(rng, ys, xs, ppc, 1.5, 0.25)
        shade = 0.85 + 0.25 * blades + 0.15 * blotch
    elif kind == "tarp":
        folds = fbm(rng, shape, 40.0 * ppc, 2)
        shade = 0.9 + 0.15 * folds + 0.02 * fine
    elif kind == "asphalt":
        speck = rng.standard_normal(shape).astype(np.float32)
        shade = 0.9 + 0.15 * speck + 0.1 * blotch
    elif kind == "carpet":
        shade = 0.9 + 0.12 * fine + 0.06 * blotch
    else:  # concrete
        shade = 0.92 + 0.05 * fine + 0.12 * blotch
    return _colour(base, np.clip(shade, 0.2, 1.4).astype(np.float32))


def wood_grain(rng: np.random.Generator, h: int, w: int, px_per_cm: float) -> F32:
    """Grain of a split stick face: lines along the length (columns), -1..1."""
    ys = np.arange(h, dtype=np.float32)[:, None] / np.float32(px_per_cm)
    xs = np.arange(w, dtype=np.float32)[None, :] / np.float32(px_per_cm)
    freq = float(rng.uniform(1.5, 3.5))
    wav = value_noise(rng, (h, w), max(2.0, 4.0 * px_per_cm)) * 0.25
    lines = np.sin(2 * np.pi * (ys * freq + wav + 0.05 * xs))
    fine = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0),
                            sigmaX=3.0, sigmaY=0.6)
    out: F32 = (0.7 * np.sign(lines) * np.abs(lines) ** 3 + 0.5 * fine).astype(np.float32)
    return out
