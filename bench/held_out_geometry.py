"""Geometry of the held-out renderer: a pinhole camera with barrel distortion, and sticks as
real solids (half elliptic cylinders with rounded ends) that rays are cast against.

World frame: centimetres, the ground is z = 0, z points up, the 멍석's centre is the origin.
A stick's local frame has x along its length, y across its width and z along the normal of
its flat face (배), pointing into the round part (등).  The solid is
``{(x/A)^2 + (y/B)^2 <= 1, (y/a)^2 + (z/b)^2 <= 1, z >= 0}``: all three sets are convex, so a
ray meets the solid on one interval, the intersection of the three intervals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
INF = 1e30

# which surface a ray entered through
SURF_ROUND, SURF_FLAT, SURF_END = 0, 1, 2


@dataclass(frozen=True)
class Camera:
    """Pinhole camera with one radial (barrel) term; ``rot`` maps world to camera axes (rows)."""
    width: int
    height: int
    f: float
    cx: float
    cy: float
    k1: float  # r_undistorted = r_distorted * (1 + k1 * r_distorted^2), k1 > 0 is barrel
    origin: tuple[float, float, float]
    rot: tuple[tuple[float, float, float], ...]

    @property
    def o(self) -> F64:
        return np.asarray(self.origin, np.float64)

    @property
    def r(self) -> F64:
        return np.asarray(self.rot, np.float64)

    def rays(self) -> F64:
        """World direction (unit) of every pixel's ray, shape (H, W, 3)."""
        u, v = np.meshgrid(np.arange(self.width, dtype=np.float64), np.arange(self.height, dtype=np.float64))
        xd, yd = (u - self.cx) / self.f, (v - self.cy) / self.f
        s = 1.0 + self.k1 * (xd * xd + yd * yd)
        d = np.stack([xd * s, yd * s, np.ones_like(xd)], axis=-1) @ self.r  # camera -> world
        out: F64 = d / np.linalg.norm(d, axis=-1, keepdims=True)
        return out

    def project(self, pts: F64) -> F64:
        """Pixel coordinates (distorted) of world points, shape (N, 2); points behind give nan."""
        c = (np.asarray(pts, np.float64).reshape(-1, 3) - self.o) @ self.r.T
        z = np.where(c[:, 2] > 1e-6, c[:, 2], np.nan)
        xu, yu = c[:, 0] / z, c[:, 1] / z
        ru = np.hypot(xu, yu)
        rd = ru.copy()
        for _ in range(8):  # Newton on rd * (1 + k1 rd^2) = ru
            g = rd * (1.0 + self.k1 * rd * rd) - ru
            rd = rd - g / (1.0 + 3.0 * self.k1 * rd * rd)
        sc = np.where(ru > 1e-12, rd / np.maximum(ru, 1e-12), 1.0)
        out: F64 = np.stack([self.cx + self.f * xu * sc, self.cy + self.f * yu * sc], axis=-1)
        return out


def look_at(eye: F64, target: F64, roll: float) -> F64:
    """World-to-camera rotation (rows: right, down, forward) looking from eye to target."""
    fwd = target - eye
    fwd = fwd / np.linalg.norm(fwd)
    ref = np.array([math.cos(roll), math.sin(roll), 0.0])
    right = np.cross(fwd, ref)
    if np.linalg.norm(right) < 1e-6:
        right = np.cross(fwd, np.array([0.0, 1.0, 0.0]))
    right = right / np.linalg.norm(right)
    down = np.cross(fwd, right)
    return np.stack([right, down, fwd])


@dataclass(frozen=True)
class Pose:
    """One stick as a solid: centre of its flat face, axes (columns u, v, n) and size (cm)."""
    index: int
    center: tuple[float, float, float]
    axes: tuple[tuple[float, float, float], ...]  # 3x3, columns are the local x, y, z axes
    length: float
    half_width: float  # a
    thickness: float  # b, height of the round part above the flat face
    end_round: float  # B of the plan ellipse; large = square ends
    belly_up: bool
    leaning_on: int = -1  # index of the stick this one rests on, -1 if it lies on the ground

    @property
    def c(self) -> F64:
        return np.asarray(self.center, np.float64)

    @property
    def m(self) -> F64:
        return np.asarray(self.axes, np.float64)

    def to_local(self, p: F64) -> F64:
        out: F64 = (p - self.c) @ self.m
        return out

    def to_world(self, q: F64) -> F64:
        out: F64 = q @ self.m.T + self.c
        return out

    def outline(self, n: int = 24) -> F64:
        """Points on the solid's surface (world), dense enough for footprints and bounding boxes."""
        a, b, half = self.half_width, self.thickness, self.length / 2.0
        xs = np.linspace(-half, half, n)
        ph = np.linspace(-math.pi / 2, math.pi / 2, 9)
        ys, zs = a * np.sin(ph), b * np.cos(ph)
        ys = np.concatenate([ys, [-a, a, 0.0]])
        zs = np.concatenate([zs, [0.0, 0.0, 0.0]])
        X, Yi = np.meshgrid(xs, np.arange(len(ys)))
        Y, Z = ys[Yi], zs[Yi]
        lim = self.end_round * np.sqrt(np.clip(1.0 - (X / half) ** 2, 0.0, 1.0))
        Y = np.clip(Y, -lim, lim)
        q = np.stack([X.ravel(), Y.ravel(), Z.ravel()], axis=-1)
        return self.to_world(q)

    def footprint(self) -> F64:
        """Convex outline of the solid seen from straight above, (K, 2) world x, y."""
        import cv2
        pts = self.outline(40)[:, :2].astype(np.float32)
        hull = cv2.convexHull(pts).reshape(-1, 2).astype(np.float64)
        return hull


def flat_pose(index: int, x: float, y: float, yaw: float, belly_up: bool, length: float, half_width: float,
              thickness: float, end_round: float) -> Pose:
    """A stick lying on the ground: 배 up rests on its round face, 등 up on its flat face."""
    u = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    n = np.array([0.0, 0.0, -1.0 if belly_up else 1.0])
    v = np.cross(n, u)
    m = np.stack([u, v, n], axis=1)
    z = thickness if belly_up else 0.0
    return Pose(index, (x, y, z), tuple(map(tuple, m)), length, half_width, thickness, end_round, belly_up)


def tilted(p: Pose, pitch: float, on: int) -> Pose:
    """The same stick raised by ``pitch`` radians at its +x end, pivoting on the ground at its -x end."""
    half = p.length / 2.0
    low = p.thickness if p.belly_up else 0.0  # local z of the line that touches the ground
    pivot = p.to_world(np.array([[-half, 0.0, low]]))[0]
    u = p.m[:, 0]
    axis = np.cross(u, np.array([0.0, 0.0, 1.0]))  # horizontal, across the stick
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    rot = np.eye(3) + math.sin(pitch) * k + (1 - math.cos(pitch)) * (k @ k)  # Rodrigues
    # rotate so the +x end rises: the sign of the axis makes u go up for positive pitch
    if (rot @ u)[2] < 0:
        rot = rot.T
    m = rot @ p.m
    c = rot @ (p.c - pivot) + pivot
    return Pose(p.index, tuple(c), tuple(map(tuple, m)), p.length, p.half_width, p.thickness, p.end_round,
                p.belly_up, on)


def intersect(p: Pose, o: F64, d: F64) -> tuple[F64, F64, I64]:
    """Ray/solid intersection in the stick's local frame: (t_in, t_out, surface id of entry).

    ``o`` (N, 3) or (1, 3) and ``d`` (N, 3) are local; misses have t_in > t_out.
    """
    a, b, L2, B = p.half_width, p.thickness, p.length / 2.0, p.end_round
    ox, oy, oz = o[:, 0], o[:, 1], o[:, 2]
    dx, dy, dz = d[:, 0], d[:, 1], d[:, 2]

    def quad(qa: F64, qb: F64, qc: F64) -> tuple[F64, F64]:
        disc = qb * qb - 4.0 * qa * qc
        ok = (disc >= 0) & (qa > 1e-12)
        s = np.sqrt(np.maximum(disc, 0.0))
        den = np.where(qa > 1e-12, 2.0 * qa, 1.0)
        t1 = np.where(ok, (-qb - s) / den, np.where((qa <= 1e-12) & (qc <= 0), -INF, INF))
        t2 = np.where(ok, (-qb + s) / den, np.where((qa <= 1e-12) & (qc <= 0), INF, -INF))
        return t1, t2

    c1, c2 = quad((dy / a) ** 2 + (dz / b) ** 2, 2 * (oy * dy / a**2 + oz * dz / b**2),
                  (oy / a) ** 2 + (oz / b) ** 2 - 1.0)
    e1, e2 = quad((dx / L2) ** 2 + (dy / B) ** 2, 2 * (ox * dx / L2**2 + oy * dy / B**2),
                  (ox / L2) ** 2 + (oy / B) ** 2 - 1.0)
    safe = np.where(np.abs(dz) > 1e-12, dz, 1e-12)
    th = -oz / safe
    h1 = np.where(dz > 1e-12, th, np.where(dz < -1e-12, -INF, np.where(oz >= 0, -INF, INF)))
    h2 = np.where(dz > 1e-12, INF, np.where(dz < -1e-12, th, np.where(oz >= 0, INF, -INF)))
    ins = np.stack([c1, h1, e1])
    t_in = ins.max(axis=0)
    t_out = np.minimum(np.minimum(c2, h2), e2)
    surf: I64 = ins.argmax(axis=0).astype(np.int64)
    # argmax order follows SURF_ROUND, SURF_FLAT, SURF_END
    return t_in, t_out, surf


def normal_local(p: Pose, q: F64, surf: I64) -> F64:
    """Outward unit normals (local frame) at local surface points ``q`` entered through ``surf``."""
    a, b, L2, B = p.half_width, p.thickness, p.length / 2.0, p.end_round
    n = np.zeros_like(q)
    r = surf == SURF_ROUND
    n[r, 1], n[r, 2] = q[r, 1] / a**2, q[r, 2] / b**2
    n[surf == SURF_FLAT, 2] = -1.0
    e = surf == SURF_END
    n[e, 0], n[e, 1] = q[e, 0] / L2**2, q[e, 1] / B**2
    out: F64 = n / np.maximum(np.linalg.norm(n, axis=-1, keepdims=True), 1e-12)
    return out


def top_heights(p: Pose, xy: F64) -> F64:
    """Height of the stick's top surface above world points ``xy`` (N, 2); -1 where it is not."""
    o = p.to_local(np.c_[xy, np.full(len(xy), 500.0)])
    d = np.broadcast_to(np.array([0.0, 0.0, -1.0]) @ p.m, o.shape)
    t_in, t_out, _ = intersect(p, o, d)
    out: F64 = np.where(t_in <= t_out, 500.0 - t_in, -1.0)
    return out


def top_height(p: Pose, x: float, y: float) -> float:
    """Height of the stick's top surface above world (x, y), or -1 where it is not there."""
    return float(top_heights(p, np.array([[x, y]]))[0])


def mat_sdf(shape: str, half: float, xy: F64) -> F64:
    """Signed distance (cm) from world points to the 멍석 (negative inside), square or round."""
    if shape == "round":
        out: F64 = np.hypot(xy[:, 0], xy[:, 1]) - half
        return out
    q = np.abs(xy) - half
    outside = np.hypot(np.maximum(q[:, 0], 0.0), np.maximum(q[:, 1], 0.0))
    inside = np.minimum(np.maximum(q[:, 0], q[:, 1]), 0.0)
    res: F64 = outside + inside
    return res


def densify(poly: F64, step: float) -> F64:
    """Points every ``step`` along a closed polygon's edges."""
    out = []
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        n = max(1, int(math.ceil(np.linalg.norm(b - a) / step)))
        t = np.arange(n)[:, None] / n
        out.append(a + (b - a) * t)
    res: F64 = np.concatenate(out)
    return res


def gap(fa: F64, fb: F64) -> float:
    """Distance between two convex footprints (0 if they overlap)."""
    import cv2
    pa, pb = densify(fa, 0.1), densify(fb, 0.1)
    ca, cb = fa.astype(np.float32).reshape(-1, 1, 2), fb.astype(np.float32).reshape(-1, 1, 2)
    if any(cv2.pointPolygonTest(cb, (float(x), float(y)), False) >= 0 for x, y in fa[::3]) or \
            any(cv2.pointPolygonTest(ca, (float(x), float(y)), False) >= 0 for x, y in fb[::3]):
        return 0.0
    d = np.sqrt(((pa[:, None, :] - pb[None, :, :]) ** 2).sum(-1))
    return float(d.min())
