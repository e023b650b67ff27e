"""Textures of the held-out renderer: floors, 멍석 (mats) and stick sets, as albedo (linear RGB)
plus a height map (cm) that the renderer turns into normals, so weave and boards catch the light.

Ground textures live in world coordinates (``X``, ``Y`` arrays in cm); stick textures in the
stick's own coordinates (along the length x, across the flat face y, around the round face phi).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
Rng = np.random.Generator
FLOORS = ("boards", "asphalt", "grass", "carpet", "tiles", "concrete")
MATS = ("straw", "printed", "canvas", "felt")
BANDS = ("none", "cloth", "floorlike", "rope", "stripes")
SETS = ("natural", "bark", "charred", "painted", "lacquer", "lowcontrast")
MARKS = ("x", "dot", "glyph", "ring", "band")
BACK_PATTERNS = ("plain", "x", "dots", "lines")


def lin(rgb: tuple[float, float, float] | F64) -> F64:
    """sRGB (0-1) to linear."""
    c = np.asarray(rgb, np.float64)
    out: F64 = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return out


def jitter(rng: Rng, rgb: tuple[float, float, float], spread: float) -> F64:
    return lin(np.clip(np.asarray(rgb) * (1 + rng.normal(0, spread, 3)) + rng.normal(0, spread / 3, 3), 0, 1))


def fbm(rng: Rng, shape: tuple[int, int], scale_px: float, octaves: int = 4, aniso: float = 1.0) -> F32:
    """Smooth noise (mean 0, std ~1) with features about ``scale_px`` pixels, optionally stretched in x."""
    h, w = shape
    out = np.zeros(shape, np.float32)
    amp, total = 1.0, 0.0
    s = scale_px
    for _ in range(octaves):
        gh = max(2, int(h / s) + 2)
        gw = max(2, int(w / (s * aniso)) + 2)
        g = rng.standard_normal((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp * amp
        amp *= 0.55
        s /= 2.0
        if s < 1.0:
            break
    res: F32 = out / np.float32(math.sqrt(total))
    return res


def noise_at(rng: Rng, U: F64, V: F64, su: float, sv: float, size: int = 256) -> F32:
    """Bilinear value noise (std ~1) at coordinates scaled by (su, sv): anisotropic in any frame."""
    g = np.asarray(cv2.GaussianBlur(rng.standard_normal((size, size)).astype(np.float32), (0, 0), 0.7), np.float32)
    g = g / np.float32(max(float(g.std()), 1e-6))
    mx = np.mod(U / su, size).astype(np.float32)
    my = np.mod(V / sv, size).astype(np.float32)
    out: F32 = np.asarray(cv2.remap(g, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP), np.float32)
    return out


@dataclass(frozen=True)
class Surface:
    """A textured patch: albedo (H, W, 3) linear, height (H, W) cm, specular strength and sharpness."""
    albedo: F32
    height: F32
    spec: float
    shine: float


def floor(kind: str, rng: Rng, X: F64, Y: F64, res: float) -> Surface:
    """The floor around the mat (``X``, ``Y`` world cm of each texel; ``res`` texels per cm)."""
    shape = X.shape
    n1 = fbm(rng, shape, 30 * res)
    if kind == "boards":
        ang = rng.uniform(0, math.pi)
        u = X * math.cos(ang) + Y * math.sin(ang)
        v = -X * math.sin(ang) + Y * math.cos(ang)
        pw = rng.uniform(9, 20)
        seglen = rng.uniform(120, 260)
        row = np.floor(v / pw)
        off = (row * 73.1) % seglen
        seg = np.floor((u + off) / seglen)
        key = (row * 31 + seg * 7) % 97
        base = jitter(rng, [(0.55, 0.38, 0.22), (0.42, 0.30, 0.20), (0.70, 0.55, 0.38), (0.25, 0.22, 0.20),
                            (0.62, 0.48, 0.32)][rng.integers(5)], 0.08)
        tone = 1 + 0.18 * np.sin(key * 12.9898) * np.cos(key * 4.1)
        grain = noise_at(rng, u + key * 13.7, v, 25.0, 0.15)
        rings = np.sin((v % pw) * 2.3 + 3 * n1 + key) * 0.5 + 0.5
        lum = tone * (1 + 0.12 * grain + 0.10 * rings)
        fu = (u + off) / seglen
        seam = np.minimum(np.abs(fu - np.round(fu)) * seglen, np.abs(v / pw - np.round(v / pw)) * pw)
        dark = np.clip(seam / 0.25, 0, 1)
        alb = base[None, None, :] * (lum * (0.35 + 0.65 * dark))[..., None]
        height = -0.15 * (1 - dark) + 0.01 * grain
        return Surface(alb.astype(np.float32), height.astype(np.float32), rng.uniform(0.02, 0.12), 30.0)
    if kind == "asphalt":
        base = jitter(rng, (0.28, 0.28, 0.27), 0.1)
        fine = rng.standard_normal(shape).astype(np.float32)
        stones = cv2.GaussianBlur(rng.standard_normal(shape).astype(np.float32), (0, 0), 0.7 * res)
        lum = 1 + 0.25 * fine + 0.6 * np.clip(stones * 3 - 1.2, 0, 2) - 0.3 * np.clip(-stones * 3 - 1.5, 0, 1)
        lum = lum * (1 + 0.05 * n1)
        alb = base[None, None, :] * np.clip(lum, 0.2, 3)[..., None]
        if rng.random() < 0.5:  # a painted line
            ang = rng.uniform(0, math.pi)
            d = np.abs(X * math.cos(ang) + Y * math.sin(ang) - rng.uniform(90, 140) * rng.choice([-1, 1]))
            paint = jitter(rng, [(0.85, 0.85, 0.82), (0.9, 0.75, 0.2)][rng.integers(2)], 0.05)
            m = (d < rng.uniform(5, 8)).astype(np.float32) * np.clip(0.8 + 0.3 * n1, 0, 1)
            alb = alb * (1 - m[..., None]) + paint[None, None, :] * m[..., None] * np.clip(lum, 0.6, 1.4)[..., None]
        return Surface(alb.astype(np.float32), (0.08 * stones).astype(np.float32), 0.02, 10.0)
    if kind == "grass":
        base = jitter(rng, [(0.30, 0.45, 0.16), (0.38, 0.48, 0.20), (0.45, 0.50, 0.25)][rng.integers(3)], 0.08)
        img = np.zeros(shape + (3,), np.float32)
        img[:] = base * 0.7
        h, w = shape
        nblades = int(h * w / (res * res) * 1.2)
        xs, ys = rng.uniform(0, w, nblades), rng.uniform(0, h, nblades)
        angs = rng.normal(rng.uniform(0, math.pi), 0.8, nblades)
        lens = rng.uniform(0.6, 2.2, nblades) * res
        tint = np.clip(base[None, :] * rng.uniform(0.5, 1.5, (nblades, 1)) + rng.normal(0, 0.01, (nblades, 3)), 0, 1)
        th = max(1, int(round(0.12 * res)))
        for i in range(nblades):
            x2, y2 = xs[i] + lens[i] * math.cos(angs[i]), ys[i] + lens[i] * math.sin(angs[i])
            cv2.line(img, (int(xs[i]), int(ys[i])), (int(x2), int(y2)), tuple(float(c) for c in tint[i]), th)
        dirt = np.clip(fbm(rng, shape, 25 * res) - 1.6, 0, 1)[..., None]
        img = img * (1 + 0.2 * n1[..., None]) * (1 - dirt) + lin((0.35, 0.27, 0.18)) * dirt
        height = 0.3 * fbm(rng, shape, 0.8 * res, 2)
        return Surface(img.astype(np.float32), height.astype(np.float32), 0.03, 6.0)
    if kind == "carpet":
        base = jitter(rng, [(0.55, 0.12, 0.12), (0.35, 0.35, 0.38), (0.15, 0.22, 0.45), (0.20, 0.35, 0.22),
                            (0.55, 0.45, 0.35)][rng.integers(5)], 0.08)
        fib = rng.standard_normal(shape).astype(np.float32)
        lum = 1 + 0.15 * fib + 0.1 * n1 + 0.08 * fbm(rng, shape, 3 * res, 2)
        alb = base[None, None, :] * lum[..., None]
        return Surface(alb.astype(np.float32), (0.05 * fib).astype(np.float32), 0.0, 1.0)
    if kind == "tiles":
        size = rng.uniform(20, 60)
        gw = rng.uniform(0.3, 0.8)
        ang = rng.choice([0.0, rng.uniform(0, math.pi / 2)])
        u = X * math.cos(ang) + Y * math.sin(ang)
        v = -X * math.sin(ang) + Y * math.cos(ang)
        fu, fv = u / size - np.floor(u / size), v / size - np.floor(v / size)
        edge = np.minimum(np.minimum(fu, 1 - fu), np.minimum(fv, 1 - fv)) * size
        grout = np.clip((edge - gw / 2) / 0.15, 0, 1)
        key = (np.floor(u / size) * 17 + np.floor(v / size) * 29) % 53
        base = jitter(rng, [(0.80, 0.78, 0.74), (0.55, 0.50, 0.45), (0.35, 0.38, 0.40), (0.75, 0.65, 0.50)]
                      [rng.integers(4)], 0.06)
        gcol = jitter(rng, (0.45, 0.43, 0.40), 0.15)
        tone = 1 + 0.06 * np.sin(key * 7.7) + 0.05 * n1 + 0.04 * fbm(rng, shape, 4 * res, 2)
        alb = base[None, None, :] * tone[..., None] * grout[..., None] + gcol[None, None, :] * (1 - grout[..., None])
        return Surface(alb.astype(np.float32), (-0.1 * (1 - grout)).astype(np.float32), rng.uniform(0.1, 0.4),
                       rng.uniform(40, 150))
    base = jitter(rng, (0.55, 0.54, 0.52), 0.1)  # concrete
    lum = 1 + 0.06 * n1 + 0.08 * fbm(rng, shape, 2 * res, 3) + 0.05 * rng.standard_normal(shape)
    stain = np.clip(fbm(rng, shape, 40 * res) - 1.2, 0, 1) * 0.15
    alb = base[None, None, :] * (lum - stain)[..., None]
    return Surface(alb.astype(np.float32), (0.03 * n1).astype(np.float32), 0.05, 15.0)


def _yutpan(shape: tuple[int, int], U: F64, V: F64, half: float, rng: Rng, res: float, round_mat: bool) -> F32:
    """Ink coverage of a printed 윷판 (29 stations on a square with its diagonals) or rings."""
    ink: F32 = np.zeros(shape, np.float32)
    kind = rng.integers(3)
    s = half * rng.uniform(0.5, 0.66 if round_mat else 0.8)
    lw = rng.uniform(0.4, 1.2)
    if kind == 0:
        d_sq = np.abs(np.maximum(np.abs(U), np.abs(V)) - s)
        d_d1 = np.abs(U - V) / math.sqrt(2) + np.where(np.maximum(np.abs(U), np.abs(V)) > s, 1e3, 0)
        d_d2 = np.abs(U + V) / math.sqrt(2) + np.where(np.maximum(np.abs(U), np.abs(V)) > s, 1e3, 0)
        ink = np.maximum(ink, (np.minimum(np.minimum(d_sq, d_d1), d_d2) < lw / 2).astype(np.float32))
        stations = [(s * x, s * y) for x in (-1, -0.6, -0.2, 0.2, 0.6, 1) for y in (-1, 1)]
        stations += [(s * y, s * x) for x in (-0.6, -0.2, 0.2, 0.6) for y in (-1, 1)]
        stations += [(s * t, s * t) for t in (-2 / 3, -1 / 3, 0, 1 / 3, 2 / 3)]
        stations += [(s * t, -s * t) for t in (-2 / 3, -1 / 3, 1 / 3, 2 / 3)]
        for i, (x, y) in enumerate(stations):
            big = abs(abs(x) - s) < 1e-6 and abs(abs(y) - s) < 1e-6 or (x == 0 and y == 0)
            r = (5.5 if big else 3.5) * rng.uniform(0.9, 1.3)
            d = np.hypot(U - x, V - y)
            solid = bool(rng.random() < 0.3)
            ink = np.maximum(ink, ((d < r) & ((d > r - lw * 1.5) | solid)).astype(np.float32))
    elif kind == 1:
        rr = np.hypot(U, V)
        step = rng.uniform(8, 20)
        ink = ((np.abs(rr / step - np.round(rr / step)) * step < lw) & (rr < s * 1.2)).astype(np.float32)
    else:  # a central medallion and corner flowers
        rr = np.hypot(U, V)
        ink = ((rr < s * 0.3) & (rr > s * 0.3 - 2 * lw)).astype(np.float32)
        th = np.arctan2(V, U)
        petal = s * 0.22 * (1 + 0.3 * np.cos(8 * th))
        ink = np.maximum(ink, (rr < petal).astype(np.float32) * np.float32(rng.uniform(0.5, 1.0)))
    return np.asarray(cv2.GaussianBlur(ink, (0, 0), 0.3 * res), np.float32)


def mat(kind: str, shape_kind: str, half: float, band_kind: str, band_w: float, floor_mean: F64, rng: Rng,
        X: F64, Y: F64, res: float) -> tuple[Surface, F32]:
    """The 멍석 over the whole texture: its surface and coverage (1 on the mat incl. border band)."""
    shape = X.shape
    r = np.hypot(X, Y)
    dist_in = (half - r) if shape_kind == "round" else (half - np.maximum(np.abs(X), np.abs(Y)))
    cover = np.clip(dist_in * res + 0.5, 0, 1).astype(np.float32)
    n1 = fbm(rng, shape, 20 * res)
    if kind == "straw":
        pitch = rng.uniform(1.0, 1.8)
        stitch = rng.uniform(0.6, 1.1)
        if shape_kind == "round":
            a, b = r, np.arctan2(Y, X) * np.maximum(r, 1.0)  # rings, stitches along the ring
        else:
            ang = rng.choice([0.0, math.pi / 2])
            a = X * math.cos(ang) + Y * math.sin(ang)
            b = -X * math.sin(ang) + Y * math.cos(ang)
        row = np.floor(a / pitch)
        fa = a / pitch - row
        slant = np.where(row % 2 == 0, 1.0, -1.0)
        ph = (b + slant * fa * stitch * 1.2) / stitch
        ridge = np.sin(math.pi * fa) ** 0.7
        strand = 0.5 + 0.5 * np.cos(2 * math.pi * ph)
        height = 0.18 * ridge * (0.6 + 0.4 * strand)
        base = jitter(rng, [(0.80, 0.62, 0.36), (0.72, 0.55, 0.34), (0.68, 0.56, 0.42), (0.84, 0.68, 0.44)]
                      [rng.integers(4)], 0.04)
        var = fbm(rng, shape, 1.5 * res, 2)
        rowtone = 1 + 0.08 * np.sin(row * 12.9898) * np.cos(row * 3.7)
        lum = (0.35 + 0.65 * ridge) * (0.75 + 0.25 * strand) * rowtone * (1 + 0.08 * var + 0.05 * n1)
        alb = base[None, None, :] * lum[..., None]
        spec, shine = 0.06, 12.0
    elif kind == "printed":
        base = jitter(rng, [(0.88, 0.84, 0.74), (0.92, 0.92, 0.90), (0.70, 0.20, 0.18), (0.25, 0.40, 0.65),
                            (0.30, 0.52, 0.32)][rng.integers(5)], 0.04)
        inkc = jitter(rng, [(0.10, 0.10, 0.10), (0.70, 0.12, 0.10), (0.15, 0.20, 0.50), (0.95, 0.85, 0.30)]
                      [rng.integers(4)], 0.05)
        if np.abs(inkc - base).sum() < 0.3:
            inkc = lin((0.08, 0.08, 0.08)) if base.mean() > 0.3 else lin((0.95, 0.95, 0.9))
        ink = _yutpan(shape, X, Y, half, rng, res, shape_kind == "round")
        fab = fbm(rng, shape, 0.5 * res, 1)
        lum = 1 + 0.04 * fab + 0.04 * n1
        alb = (base[None, None, :] * (1 - ink[..., None]) + inkc[None, None, :] * ink[..., None]) * lum[..., None]
        height = (0.3 * fbm(rng, shape, 20 * res, 2) * rng.uniform(0.2, 1.0)).astype(np.float64)  # wrinkles
        spec, shine = rng.uniform(0.03, 0.15), 20.0
    elif kind == "canvas":
        base = jitter(rng, [(0.80, 0.74, 0.60), (0.62, 0.58, 0.48), (0.55, 0.55, 0.52), (0.45, 0.50, 0.42)]
                      [rng.integers(4)], 0.05)
        weave = rng.standard_normal(shape).astype(np.float32)
        stains = np.clip(fbm(rng, shape, 15 * res) - 1.0, 0, 1) * 0.12
        lum = 1 + 0.03 * weave + 0.06 * n1 + 0.04 * fbm(rng, shape, 1 * res, 2) - stains
        alb = base[None, None, :] * lum[..., None]
        height = (0.15 * fbm(rng, shape, 15 * res, 2)).astype(np.float64)
        spec, shine = 0.0, 1.0
    else:  # felt
        base = jitter(rng, [(0.60, 0.15, 0.15), (0.20, 0.30, 0.55), (0.25, 0.45, 0.30), (0.35, 0.30, 0.28)]
                      [rng.integers(4)], 0.06)
        lum = 1 + 0.1 * fbm(rng, shape, 0.6 * res, 2) + 0.06 * n1
        alb = base[None, None, :] * lum[..., None]
        height = 0.05 * fbm(rng, shape, 0.5 * res, 1) + 0.2 * fbm(rng, shape, 20 * res, 1)
        spec, shine = 0.0, 1.0
    if band_kind != "none":
        inband = np.clip((band_w - dist_in) * res + 0.5, 0, 1).astype(np.float32)
        if band_kind == "cloth":
            bc = jitter(rng, [(0.60, 0.10, 0.10), (0.10, 0.15, 0.45), (0.08, 0.08, 0.08), (0.15, 0.40, 0.20),
                              (0.85, 0.80, 0.70)][rng.integers(5)], 0.05)
            bl = (1 + 0.05 * fbm(rng, shape, 0.7 * res, 1))[..., None]
            balb = bc[None, None, :] * bl
            bh = np.zeros(shape, np.float32)
        elif band_kind == "floorlike":
            fm = np.clip(floor_mean * rng.uniform(0.85, 1.15, 3), 0, 1)
            balb = fm[None, None, :] * (1 + 0.08 * fbm(rng, shape, 0.8 * res, 2))[..., None]
            bh = np.zeros(shape, np.float32)
        elif band_kind == "rope":
            t = (X + Y) if shape_kind != "round" else np.arctan2(Y, X) * half
            tw = 0.5 + 0.5 * np.sin(2 * math.pi * (t + dist_in) / rng.uniform(0.8, 1.5))
            bc = jitter(rng, (0.55, 0.42, 0.25), 0.1)
            balb = bc[None, None, :] * (0.6 + 0.4 * tw)[..., None]
            bh = (0.3 * tw).astype(np.float32)
        else:  # stripes along the band
            c1 = jitter(rng, (0.7, 0.1, 0.1), 0.1)
            c2 = jitter(rng, (0.9, 0.85, 0.3), 0.1)
            sel = ((dist_in / (band_w / 3)).astype(np.int64) % 2 == 0)[..., None]
            balb = np.where(sel, c1[None, None, :], c2[None, None, :]) * np.ones(shape + (1,))
            bh = np.zeros(shape, np.float32)
        alb = alb * (1 - inband[..., None]) + balb * inband[..., None]
        height = height * (1 - inband) + bh * inband
    return Surface(alb.astype(np.float32), height.astype(np.float32), spec, shine), cover
