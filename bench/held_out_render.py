"""Shading and camera of the held-out renderer.

Every pixel's ray is cast into the scene: the ground plane (floor + 멍석, textured with a height
map turned into normals) and the sticks (solids of :mod:`bench.held_out_geometry`).  Lights are
directional (sun, window) or points (lamps) with an area: each is a set of samples, and a
shadow ray per sample and receiver tells how much of the light a point sees, so shadows have
real penumbrae and fall on the mat and on other sticks.  A sky/ambient term has its own
samples (ambient occlusion near the sticks).  The camera then applies exposure (auto or
fixed), white balance, vignetting, defocus, sensor noise, a tone curve and JPEG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from bench.held_out_geometry import SURF_END, SURF_FLAT, SURF_ROUND, Camera, Pose, intersect, normal_local
from bench.held_out_sticks import RES, sample
from bench.held_out_textures import Surface

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
U8 = npt.NDArray[np.uint8]
Rng = np.random.Generator


def kelvin_rgb(k: float) -> F64:
    """Linear RGB of a black body at ``k`` kelvin (Tanner Helland's fit), luminance 1."""
    t = k / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    c = np.clip(np.array([r, g, b]) / 255.0, 0, 1)
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    out: F64 = c / (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2])
    return out


@dataclass(frozen=True)
class Light:
    """``point`` lights have positions (cm), ``dir`` lights unit directions toward the light."""
    kind: str
    center: tuple[float, float, float]
    samples: tuple[tuple[float, float, float], ...]
    color: tuple[float, float, float]
    power: float  # irradiance on a surface facing it at the mat's centre

    def toward(self, p: F64) -> tuple[F64, F64]:
        """Unit direction to the light and irradiance scale (falloff) at points ``p``."""
        c = np.asarray(self.center)
        if self.kind == "dir":
            return np.broadcast_to(c, p.shape), np.ones(len(p))
        d = c - p
        r2 = (d * d).sum(-1)
        l: F64 = d / np.sqrt(r2)[:, None]
        return l, float((c * c).sum()) / r2


def area_samples(rng: Rng, kind: str, center: F64, radius: float, n: int) -> tuple[tuple[float, float, float], ...]:
    """Stratified samples over a light: a disc of ``radius`` cm (point) or radians (dir)."""
    out = []
    for i in range(n):
        r = radius * math.sqrt((i + rng.uniform(0.2, 0.8)) / n)
        a = 2.39996 * i + rng.uniform(0, 0.3)
        if kind == "point":
            out.append((center[0] + r * math.cos(a), center[1] + r * math.sin(a), center[2]))
        else:
            c = center / np.linalg.norm(center)
            e1 = np.cross(c, [0.0, 0.0, 1.0]) if abs(c[2]) < 0.99 else np.array([1.0, 0.0, 0.0])
            e1 = e1 / np.linalg.norm(e1)
            e2 = np.cross(c, e1)
            d = c + math.tan(r) * (math.cos(a) * e1 + math.sin(a) * e2)
            d = d / np.linalg.norm(d)
            if d[2] < 0.05:
                d[2] = 0.05
                d = d / np.linalg.norm(d)
            out.append((float(d[0]), float(d[1]), float(d[2])))
    return tuple(out)


def sky_samples(rng: Rng, n: int, min_elev: float) -> Light:
    """Cosine-weighted directions over the sky above ``min_elev`` (the ambient term's occlusion)."""
    out = []
    zmin = math.sin(min_elev)
    for i in range(n):
        u = (i + rng.uniform(0.2, 0.8)) / n
        z = math.sqrt(zmin * zmin + (1 - zmin * zmin) * u)
        a = 2.39996 * i + rng.uniform(0, 1)
        s = math.sqrt(1 - z * z)
        out.append((s * math.cos(a), s * math.sin(a), z))
    return Light("dir", (0.0, 0.0, 1.0), tuple(out), (1.0, 1.0, 1.0), 1.0)


@dataclass(frozen=True)
class Optics:
    ae: bool  # auto exposure per shot, else fixed from the style's empty mat
    target: float  # linear mean the exposure aims at
    awb: float  # 0 = fixed daylight preset, 1 = full grey-world per shot
    vignette: float
    blur: float
    shot_noise: float
    read_noise: float
    saturation: float
    jpeg: int


def _ground(cam: Camera, D: F64, surf: Surface, x0: float, y0: float, res: float) -> tuple[F64, F32, F32]:
    """Ground hit points and what the texture says there: P, albedo, normal."""
    o = cam.o
    t = -o[2] / np.minimum(D[..., 2], -1e-6)
    P = o + t[..., None] * D
    mx = ((P[..., 0] - x0) * res).astype(np.float32)
    my = ((P[..., 1] - y0) * res).astype(np.float32)
    alb = cv2.remap(surf.albedo, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    h = surf.height
    hx = cv2.Sobel(h, cv2.CV_32F, 1, 0, ksize=3) * np.float32(res / 8.0)
    hy = cv2.Sobel(h, cv2.CV_32F, 0, 1, ksize=3) * np.float32(res / 8.0)
    nx = cv2.remap(-hx, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    ny = cv2.remap(-hy, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    N = np.stack([nx, ny, np.ones_like(nx)], -1).astype(np.float32)
    N = N / np.linalg.norm(N, axis=-1, keepdims=True)
    return P, np.asarray(alb, np.float32), N


class Renderer:
    """Everything that stays fixed for one style: rays, ground shading per light, vignetting."""

    def __init__(self, cam: Camera, lights: tuple[Light, ...], ambient: float, ambient_color: F64,
                 ground: Surface, spec_map: F32, x0: float, y0: float, res: float, optics: Optics,
                 textures: list[tuple[F32, F32, F64]], spec: tuple[float, float, float, float], rng: Rng) -> None:
        self.cam, self.lights, self.optics = cam, lights, optics
        self.ambient, self.ambient_color = ambient, ambient_color
        self.textures, self.spec = textures, spec
        self.sky = sky_samples(rng, 8, math.radians(25))
        D = cam.rays()
        self.D = D
        self.P, self.alb, N = _ground(cam, D, ground, x0, y0, res)
        mx = ((self.P[..., 0] - x0) * res).astype(np.float32)
        my = ((self.P[..., 1] - y0) * res).astype(np.float32)
        ks = cv2.remap(spec_map, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        V = -D
        flat = self.P.reshape(-1, 3)
        self.gl: list[F32] = []
        for li in lights:
            l, fall = li.toward(flat)
            l = l.reshape(D.shape)
            ndl = np.clip((N * l).sum(-1), 0, None) * fall.reshape(D.shape[:2])
            h = l + V
            h /= np.linalg.norm(h, axis=-1, keepdims=True)
            sp = ks * np.clip((N * h).sum(-1), 0, 1) ** 40.0 * ndl * 4.0
            self.gl.append((self.alb * ndl[..., None] + sp[..., None]).astype(np.float32))
        self.bounce = float(np.median(self.alb.reshape(-1, 3).mean(-1)))
        H, W = cam.height, cam.width
        yy, xx = np.mgrid[0:H, 0:W]
        r2 = ((xx - W / 2) ** 2 + (yy - H / 2) ** 2) / ((W / 2) ** 2 + (H / 2) ** 2)
        self.vig = (1 - optics.vignette * r2).astype(np.float32)
        self.fixed_exposure = 0.0

    # --- visibility -------------------------------------------------------------------------
    def _window(self, p: Pose, light: Light) -> tuple[slice, slice] | None:
        pts = p.outline(10)
        proj = [pts]
        for s in light.samples:
            sv = np.asarray(s)
            if light.kind == "dir":
                proj.append(pts - pts[:, 2:3] / sv[2] * sv[None, :])
            else:
                proj.append(sv + (pts - sv) * (sv[2] / np.maximum(sv[2] - pts[:, 2:3], 1e-3)))
        uv = self.cam.project(np.concatenate(proj))
        uv = uv[np.isfinite(uv).all(1)]
        if len(uv) == 0:
            return None
        x0, y0 = np.floor(uv.min(0)).astype(int) - 3
        x1, y1 = np.ceil(uv.max(0)).astype(int) + 4
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, self.cam.width), min(y1, self.cam.height)
        if x1 <= x0 or y1 <= y0:
            return None
        return slice(y0, y1), slice(x0, x1)

    def _visibility(self, poses: list[Pose], depth: F32, owner: npt.NDArray[np.int8]) -> list[F32]:
        """Share of each light (and, last, of the sky) seen from every pixel's surface point."""
        H, W = depth.shape
        out = [np.ones((H, W), np.float32) for _ in range(len(self.lights) + 1)]
        o = self.cam.o
        for p in poses:
            for li, light in enumerate(self.lights + (self.sky,)):
                win = self._window(p, light)
                if win is None:
                    continue
                recv = owner[win] != p.index
                if not recv.any():
                    continue
                P = (o + depth[win][recv][:, None].astype(np.float64) * self.D[win][recv])
                ol = p.to_local(P)
                hits = np.zeros(len(P))
                for s in light.samples:
                    sv = np.asarray(s)
                    d = np.broadcast_to(sv, P.shape) if light.kind == "dir" else sv - P
                    t_in, t_out, _ = intersect(p, ol, d @ p.m)
                    hits += (t_in <= t_out) & (t_out > 1e-4) & (t_in < (1e9 if light.kind == "dir" else 1.0))
                v = out[li][win]
                v[recv] *= (1.0 - hits / len(light.samples)).astype(np.float32)
        return out

    # --- the picture ------------------------------------------------------------------------
    def _people(self, shade: tuple[float, float, float, float, float, float, float]) -> F32:
        """Soft shadow of a bystander on the ground: share of the lights it leaves (1 = none)."""
        cx, cy, rx, ry, ang, soft, strength = shade
        x, y = self.P[..., 0] - cx, self.P[..., 1] - cy
        u = (x * math.cos(ang) + y * math.sin(ang)) / rx
        v = (-x * math.sin(ang) + y * math.cos(ang)) / ry
        d = np.sqrt(u * u + v * v)
        t = np.clip((1.0 + soft - d) / (2 * soft), 0, 1)
        out: F32 = (1 - strength * t * t * (3 - 2 * t)).astype(np.float32)
        return out

    def radiance(self, poses: list[Pose], gains: list[F64], amb_gain: F64,
                 shade: tuple[float, float, float, float, float, float, float] | None = None) -> F32:
        cam, o = self.cam, self.cam.o
        H, W = cam.height, cam.width
        depth = (-o[2] / np.minimum(self.D[..., 2], -1e-6)).astype(np.float32)
        owner = np.full((H, W), -1, np.int8)
        hits: dict[int, tuple[tuple[slice, slice], F64, F64, npt.NDArray[np.int64]]] = {}
        for p in poses:
            uv = cam.project(p.outline(12))
            x0, y0 = np.floor(np.nanmin(uv, 0)).astype(int) - 2
            x1, y1 = np.ceil(np.nanmax(uv, 0)).astype(int) + 3
            win = slice(max(y0, 0), min(y1, H)), slice(max(x0, 0), min(x1, W))
            if win[0].stop <= win[0].start or win[1].stop <= win[1].start:
                continue
            dl = self.D[win].reshape(-1, 3) @ p.m
            ol = p.to_local(o[None, :])
            t_in, t_out, surf = intersect(p, ol, dl)
            dw = depth[win].reshape(-1)
            hit = (t_in <= t_out) & (t_in > 0) & (t_in < dw)
            dw[hit] = t_in[hit]
            depth[win] = dw.reshape(depth[win].shape)
            ow = owner[win].reshape(-1)
            ow[hit] = p.index
            owner[win] = ow.reshape(owner[win].shape)
            hits[p.index] = (win, t_in, dl, surf)
        vis = self._visibility(poses, depth, owner)
        if shade is not None:
            person = self._people(shade)
            vis = [v * person for v in vis[:-1]] + [vis[-1] * (0.7 + 0.3 * person)]
        img = np.zeros((H, W, 3), np.float32)
        for g, v, gl in zip(gains, vis, self.gl):
            img += gl * (v[..., None] * g.astype(np.float32))
        img += self.alb * (vis[-1][..., None] * (amb_gain * self.ambient).astype(np.float32))
        for p in poses:
            if p.index not in hits:
                continue
            win, t_in, dl, surf = hits[p.index]
            mine = owner[win].reshape(-1) == p.index
            if not mine.any():
                continue
            q = p.to_local(o[None, :]) + t_in[mine][:, None] * dl[mine]
            sf = surf[mine]
            n_world = normal_local(p, q, sf) @ p.m.T
            belly, back, end = self.textures[p.index]
            a, L2 = p.half_width, p.length / 2
            alb = np.empty((len(q), 3))
            f = sf == SURF_FLAT
            alb[f] = sample(belly, (q[f, 1] + a) * RES, (q[f, 0] + L2) * RES)
            r = sf == SURF_ROUND
            phi = np.arctan2(q[r, 1] / a, np.maximum(q[r, 2], 0) / p.thickness)
            alb[r] = sample(back, (phi / math.pi + 0.5) * (back.shape[0] - 1), (q[r, 0] + L2) * RES)
            alb[sf == SURF_END] = end
            ks = np.where(f, self.spec[0], self.spec[2])
            sh = np.where(f, self.spec[1], self.spec[3])
            P = o + t_in[mine][:, None] * self.D[win].reshape(-1, 3)[mine]
            V = -self.D[win].reshape(-1, 3)[mine]
            col = np.zeros((len(q), 3))
            rows, cols = np.divmod(np.flatnonzero(mine), win[1].stop - win[1].start)
            rows, cols = rows + win[0].start, cols + win[1].start
            for g, v, light in zip(gains, vis, self.lights):
                l, fall = light.toward(P)
                ndl = np.clip((n_world * l).sum(-1), 0, None) * fall * v[rows, cols]
                h = l + V
                h /= np.linalg.norm(h, axis=-1, keepdims=True)
                spec = ks * (1 + sh / 40) * np.clip((n_world * h).sum(-1), 0, 1) ** sh * ndl
                col += (alb * ndl[:, None] + spec[:, None]) * g[None, :]
            nz = n_world[:, 2]
            hemi = (0.5 + 0.5 * nz) + self.bounce * 0.6 * (0.5 - 0.5 * nz)
            col += alb * (hemi * vis[-1][rows, cols])[:, None] * (amb_gain * self.ambient)[None, :]
            img[rows, cols] = col.astype(np.float32)
        return img

    def develop(self, img: F32, rng: Rng, wb_drift: F64, ae_jitter: float) -> U8:
        """Camera pipeline: exposure, white balance, vignetting, defocus, noise, tone, JPEG (BGR out)."""
        op = self.optics
        H, W = img.shape[:2]
        small = cv2.resize(img, (W // 8, H // 8), interpolation=cv2.INTER_AREA)
        lum = small @ np.array([0.2126, 0.7152, 0.0722], np.float32)
        if op.ae or self.fixed_exposure == 0.0:
            cy, cx = lum.shape[0] // 5, lum.shape[1] // 5
            exp = op.target / max(float(lum[cy:-cy, cx:-cx].mean()), 1e-4)
            if not op.ae:
                self.fixed_exposure = exp
        if not op.ae:
            exp = self.fixed_exposure
        exp *= ae_jitter
        means = small.reshape(-1, 3).mean(0)
        grey = np.clip(means.mean() / np.maximum(means, 1e-5), 0.75, 1.33)
        preset = 1.0 / kelvin_rgb(5200.0)
        wb = (op.awb * grey + (1 - op.awb) * preset) * wb_drift
        x = img * (self.vig[..., None] * (exp * wb).astype(np.float32)[None, None, :])
        if op.blur > 0.3:
            x = cv2.GaussianBlur(x, (0, 0), op.blur)
        sig = np.sqrt(np.clip(x, 0, None) * op.shot_noise + op.read_noise ** 2)
        x = x + sig * rng.standard_normal(x.shape, dtype=np.float32)
        x = np.clip(x, 0, None)
        x = x / (1 + (x / 1.25) ** 4) ** 0.25  # soft shoulder
        lm = (x @ np.array([0.2126, 0.7152, 0.0722], np.float32))[..., None]
        x = np.clip(lm + (x - lm) * op.saturation, 0, 1)
        srgb = np.where(x <= 0.0031308, x * 12.92, 1.055 * np.power(x, 1 / 2.4) - 0.055)
        out = np.clip(srgb * 255 + rng.uniform(0, 1, (H, W, 1)).astype(np.float32) - 0.5, 0, 255).astype(np.uint8)
        bgr = np.ascontiguousarray(out[..., ::-1])
        ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, op.jpeg])
        assert ok
        dec = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert dec is not None
        return np.asarray(dec, np.uint8)
