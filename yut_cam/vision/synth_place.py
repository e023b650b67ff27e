"""Placing sticks on the floor plane for :mod:`yut_cam.vision.synth` (world centimetres).

Pure geometry: rectangles against the mat (a disc or a square of half-size 75 cm),
against each other (separating axes), and against the camera view.  Placement is by
seeded rejection sampling; each case (clean, touching, edge, 낙) has its own placer.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from numpy.typing import NDArray

from yut_cam.vision.synth_scene import MAT_HALF_CM, project
from yut_cam.vision.synth_sticks import Pose, StickLook, stick_corners

F64 = NDArray[np.float64]


def _axes(poly: F64) -> list[F64]:
    out = []
    for i in range(len(poly)):
        e = poly[(i + 1) % len(poly)] - poly[i]
        out.append(np.array([-e[1], e[0]]) / max(float(np.hypot(*e)), 1e-9))
    return out


def convex_overlap(a: F64, b: F64) -> bool:
    """True if two convex polygons overlap or touch (separating axis theorem)."""
    for ax in _axes(a) + _axes(b):
        pa, pb = a @ ax, b @ ax
        if pa.max() < pb.min() or pb.max() < pa.min():
            return False
    return True


def grown(pose: Pose, look: StickLook, gap: float) -> F64:
    """The stick's rectangle grown by ``gap`` cm on every side."""
    return stick_corners(pose, dataclasses.replace(look, length_cm=look.length_cm + 2 * gap,
                                                   width_cm=look.width_cm + 2 * gap))


def _square(half: float) -> F64:
    return np.array([[-half, -half], [half, -half], [half, half], [-half, half]], np.float64)


def touches_mat(corners: F64, round_mat: bool, clearance: float = 0.0) -> bool:
    """True if any part of the rectangle lies on the mat grown by ``clearance`` cm."""
    if round_mat:
        c = corners.mean(0)
        u = corners[1] - corners[0]
        v = corners[3] - corners[0]
        lu, lv = float(np.hypot(*u)), float(np.hypot(*v))
        u, v = u / lu, v / lv
        rel = -c
        closest = c + u * np.clip(rel @ u, -lu / 2, lu / 2) + v * np.clip(rel @ v, -lv / 2, lv / 2)
        return float(np.hypot(*closest)) <= MAT_HALF_CM + clearance
    return convex_overlap(corners, _square(MAT_HALF_CM + clearance))


def inside_mat(corners: F64, round_mat: bool, margin: float) -> bool:
    """True if the whole rectangle lies on the mat at least ``margin`` cm from its edge."""
    if round_mat:
        return bool(np.all(np.hypot(corners[:, 0], corners[:, 1]) <= MAT_HALF_CM - margin))
    return bool(np.all(np.abs(corners) <= MAT_HALF_CM - margin))


def fraction_on_mat(corners: F64, round_mat: bool) -> float:
    """Share of the rectangle's area on the mat (sampled)."""
    s, t = np.meshgrid(np.linspace(0.02, 0.98, 25), np.linspace(0.1, 0.9, 4))
    p = corners[0] + s.reshape(-1, 1) * (corners[1] - corners[0]) + t.reshape(-1, 1) * (corners[3] - corners[0])
    if round_mat:
        on = np.hypot(p[:, 0], p[:, 1]) <= MAT_HALF_CM
    else:
        on = np.all(np.abs(p) <= MAT_HALF_CM, axis=1)
    return float(on.mean())


class Placer:
    """Draws stick poses for one scene; ``H`` maps world cm to image px."""

    def __init__(self, look: StickLook, round_mat: bool, H: F64, size: tuple[int, int],
                 world_box: tuple[float, float, float, float], rng: np.random.Generator) -> None:
        self.look, self.round_mat, self.H, self.size, self.rng = look, round_mat, H, size, rng
        self.world_box = world_box
        self.placed: list[Pose] = []

    def visible(self, pose: Pose, margin_px: float = 3.0) -> bool:
        pts = project(self.H, stick_corners(pose, self.look))
        w, h = self.size
        return bool(np.all((pts[:, 0] >= margin_px) & (pts[:, 0] <= w - margin_px)
                           & (pts[:, 1] >= margin_px) & (pts[:, 1] <= h - margin_px)))

    def free(self, pose: Pose, gap: float, ignore: tuple[int, ...] = ()) -> bool:
        mine = grown(pose, self.look, gap / 2)
        return not any(convex_overlap(mine, grown(p, self.look, gap / 2))
                       for i, p in enumerate(self.placed) if i not in ignore)

    def _pose(self, r_max: float, face: str) -> Pose:
        rng = self.rng
        if self.round_mat:
            rad = r_max * math.sqrt(float(rng.uniform(0, 1)))
            th = float(rng.uniform(0, 2 * math.pi))
            x, y = rad * math.cos(th), rad * math.sin(th)
        else:
            x, y = (float(v) for v in rng.uniform(-r_max, r_max, 2))
        return Pose(x, y, float(rng.uniform(0, 180)), face)

    def on_mat(self, face: str, gap: float = 1.5, margin: float = 2.0) -> Pose:
        """A pose wholly on the mat, clear of every placed stick by ``gap`` cm."""
        for _ in range(4000):
            p = self._pose(MAT_HALF_CM - margin, face)
            corners = stick_corners(p, self.look)
            if inside_mat(corners, self.round_mat, margin) and self.free(p, gap) and self.visible(p):
                self.placed.append(p)
                return p
        return self._fallback(face)

    def _fallback(self, face: str) -> Pose:
        # crowded: accept a touching neighbour rather than fail (extremely rare)
        for _ in range(4000):
            p = self._pose(MAT_HALF_CM - 3.0, face)
            if inside_mat(stick_corners(p, self.look), self.round_mat, 2.0) and self.free(p, 0.0):
                self.placed.append(p)
                return p
        p = self._pose(MAT_HALF_CM - 20.0, face)
        self.placed.append(p)
        return p

    def on_edge(self, face: str) -> Pose:
        """A pose across the mat boundary: partly on the mat (so not 낙), partly off."""
        lo, hi = float(self.rng.uniform(0.12, 0.4)), 0.88
        for _ in range(4000):
            th = float(self.rng.uniform(0, 2 * math.pi))
            rad = MAT_HALF_CM + float(self.rng.uniform(-0.45, 0.45)) * self.look.length_cm
            if not self.round_mat:
                rad = rad / max(abs(math.cos(th)), abs(math.sin(th)))
            p = Pose(rad * math.cos(th), rad * math.sin(th), float(self.rng.uniform(0, 180)), face)
            corners = stick_corners(p, self.look)
            f = fraction_on_mat(corners, self.round_mat)
            if lo <= f <= hi and touches_mat(corners, self.round_mat) and self.free(p, 1.5) \
                    and self.visible(p):
                self.placed.append(p)
                return p
        return self.on_mat(face)

    def off_mat(self, face: str, clearance: float = 2.5) -> Pose | None:
        """A pose wholly off the mat (낙) and in view; ``None`` if the view has no room."""
        x0, y0, x1, y1 = self.world_box
        for _ in range(6000):
            p = Pose(float(self.rng.uniform(x0, x1)), float(self.rng.uniform(y0, y1)),
                     float(self.rng.uniform(0, 180)), face)
            corners = stick_corners(p, self.look)
            if not touches_mat(corners, self.round_mat, clearance) and self.visible(p, 4.0) \
                    and self.free(p, 1.5):
                self.placed.append(p)
                return p
        return None

    def touching(self, face_a: str, face_b: str) -> tuple[Pose, Pose]:
        """Two sticks in contact: side by side, end against side, or one across the other."""
        rng, look = self.rng, self.look
        kind = str(rng.choice(["side", "end", "cross", "cross"]))
        for _ in range(2000):
            a = self._pose(MAT_HALF_CM - look.length_cm, face_a)
            ang = math.radians(a.angle_deg)
            d = np.array([math.cos(ang), math.sin(ang)])
            n = np.array([-math.sin(ang), math.cos(ang)])
            if kind == "side":
                off = float(rng.uniform(-0.5, 0.5)) * look.length_cm
                c = np.array([a.x, a.y]) + n * look.width_cm * float(rng.uniform(0.98, 1.02)) + d * off
                b = Pose(float(c[0]), float(c[1]), a.angle_deg + float(rng.uniform(-2, 2)), face_b)
            elif kind == "end":
                tilt = float(rng.uniform(50, 130))
                bd = np.array([math.cos(ang + math.radians(tilt)), math.sin(ang + math.radians(tilt))])
                along = float(rng.uniform(-0.35, 0.35)) * look.length_cm
                start = np.array([a.x, a.y]) + d * along + n * look.width_cm / 2 * math.copysign(1, bd @ n)
                c = start + bd * (look.length_cm / 2 + look.width_cm / 2 * abs(bd @ d) + 0.05)
                b = Pose(float(c[0]), float(c[1]), a.angle_deg + tilt, face_b)
            else:
                tilt = float(rng.uniform(25, 155))
                along = float(rng.uniform(-0.3, 0.3)) * look.length_cm
                across = float(rng.uniform(-0.3, 0.3)) * look.length_cm
                c = np.array([a.x, a.y]) + d * along
                bd = np.array([math.cos(ang + math.radians(tilt)), math.sin(ang + math.radians(tilt))])
                c = c + bd * across
                b = Pose(float(c[0]), float(c[1]), a.angle_deg + tilt, face_b)
            ca, cb = stick_corners(a, look), stick_corners(b, look)
            if inside_mat(ca, self.round_mat, 2.0) and inside_mat(cb, self.round_mat, 2.0) \
                    and self.free(a, 1.5) and self.free(b, 1.5) and self.visible(a) and self.visible(b):
                self.placed += [a, b]
                return a, b
        return self.on_mat(face_a), self.on_mat(face_b)
