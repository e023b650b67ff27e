"""Where the sticks fall, with exact ground truth (held-out renderer).

Footprints are the convex outline of each solid seen from above; the 멍석 is a square or a
disc of half-size ``half`` (border band included).  A stick is on the mat unless its whole
footprint is outside it; every case keeps a margin of >= 1.5 cm from the decision line so
the truth never hangs on a millimetre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bench.held_out_geometry import Camera, Pose, flat_pose, gap, mat_sdf, tilted, top_heights
from bench.held_out_sticks import StickSet

F64 = npt.NDArray[np.float64]
Rng = np.random.Generator
CASES = ("clean", "touching", "edge", "낙")
BY_BELLIES = {0: "모", 1: "도", 2: "개", 3: "걸", 4: "윷"}
MARGIN = 1.5


class PlacementError(RuntimeError):
    """No placement found for a case (the caller retries with another draw)."""


@dataclass(frozen=True)
class Truth:
    result: str
    case: str
    faces: str  # e.g. "배등등배" in stick order (stick 0 carries the mark)


def truth_of(poses: list[Pose], case: str, shape: str, half: float) -> Truth:
    faces = "".join("배" if p.belly_up else "등" for p in sorted(poses, key=lambda p: p.index))
    off = any(float(mat_sdf(shape, half, p.footprint()).min()) > 0 for p in poses)
    if off:
        return Truth("낙", case, faces)
    n = faces.count("배")
    if n == 1 and faces[0] == "배":
        return Truth("빽도", case, faces)
    return Truth(BY_BELLIES[n], case, faces)


class Thrower:
    def __init__(self, sticks: StickSet, cam: Camera, shape: str, half: float) -> None:
        self.s, self.cam, self.shape, self.half = sticks, cam, shape, half

    def flat(self, i: int, x: float, y: float, yaw: float, belly: bool) -> Pose:
        s = self.s
        return flat_pose(i, x, y, yaw, belly, s.length, s.half_width, s.thickness, s.end_round)

    def sdf(self, p: Pose) -> tuple[float, float]:
        d = mat_sdf(self.shape, self.half, p.footprint())
        return float(d.min()), float(d.max())

    def in_view(self, p: Pose, margin: float = 12.0) -> bool:
        uv = self.cam.project(p.outline(8))
        return bool(np.isfinite(uv).all() and (uv[:, 0] > margin).all() and (uv[:, 1] > margin).all()
                    and (uv[:, 0] < self.cam.width - margin).all() and (uv[:, 1] < self.cam.height - margin).all())

    def apart(self, p: Pose, others: list[Pose], min_gap: float) -> bool:
        fp = p.footprint()
        return all(gap(fp, q.footprint()) >= min_gap for q in others)

    def _random_on(self, rng: Rng, i: int, belly: bool, others: list[Pose], min_gap: float,
                   inset: float) -> Pose:
        for _ in range(300):
            r = self.half - inset - self.s.length / 2
            x, y = rng.uniform(-r, r, 2)
            p = self.flat(i, float(x), float(y), float(rng.uniform(0, math.pi)), belly)
            if self.sdf(p)[1] <= -inset and self.apart(p, others, min_gap) and self.in_view(p):
                return p
        raise PlacementError("no room on the mat")

    def calibration(self, rng: Rng, belly: bool, previous: list[Pose] | None = None,
                    wide: bool = False) -> list[Pose]:
        """Four sticks apart on the mat, all 배 up or all 등 up (flipped in place, or laid anew);
        ``wide``: an operator told to retake spreads them out, >= 10 cm apart, flipped in place."""
        if previous is not None and (wide or rng.random() < 0.5):
            out = []
            for p in previous:
                u = p.m[:, 0]
                ps = self.flat(p.index, p.c[0] + rng.normal(0, 0.8), p.c[1] + rng.normal(0, 0.8),
                               math.atan2(u[1], u[0]) + rng.normal(0, 0.08), belly)
                out.append(ps)
            if all(self.apart(p, out[:i], 3.0) for i, p in enumerate(out)):
                return out
        for _ in range(50):
            if not wide and rng.random() < 0.5:  # laid in a neat row
                yaw = float(rng.uniform(0, math.pi))
                step = 2 * self.s.half_width + rng.uniform(4, 10)
                cx, cy = rng.uniform(-35, 35, 2)
                nrm = np.array([-math.sin(yaw), math.cos(yaw)])
                out = [self.flat(i, float(cx + (i - 1.5) * step * nrm[0]), float(cy + (i - 1.5) * step * nrm[1]),
                                 yaw + float(rng.normal(0, 0.05)), belly) for i in range(4)]
                order = rng.permutation(4)
                out = [self.flat(int(order[k]), *p.center[:2], math.atan2(p.m[1, 0], p.m[0, 0]), belly)
                       for k, p in enumerate(out)]
                if all(self.sdf(p)[1] <= -3 and self.in_view(p) for p in out):
                    return sorted(out, key=lambda p: p.index)
            else:
                try:
                    out = []
                    for i in range(4):
                        out.append(self._random_on(rng, i, belly, out, 10.0 if wide else 4.0, 6.0 if wide else 4.0))
                    return out
                except PlacementError:
                    continue
        raise PlacementError("no calibration layout")

    # --- touching configurations ----------------------------------------------------------
    def _slide_clear(self, a: Pose, k: Pose, push: F64) -> Pose:
        """Move ``a`` along ``push`` until it just clears ``k`` (a hair's gap: touching)."""
        for _ in range(60):
            if gap(a.footprint(), k.footprint()) > 0.02:
                return a
            c = a.c + np.array([push[0], push[1], 0.0]) * 0.08
            a = Pose(a.index, tuple(c), a.axes, a.length, a.half_width, a.thickness, a.end_round, a.belly_up)
        return a

    def pair(self, rng: Rng, ia: int, ik: int, ba: bool, bk: bool, others: list[Pose]) -> list[Pose]:
        """Two touching sticks: side by side, T, or one leaning across the other."""
        k = self._random_on(rng, ik, bk, others, 3.0, 6.0)
        yk = math.atan2(k.m[1, 0], k.m[0, 0])
        uk, nk = np.array([math.cos(yk), math.sin(yk)]), np.array([-math.sin(yk), math.cos(yk)])
        kind = rng.choice(["side", "t", "lean"], p=[0.3, 0.3, 0.4])
        La, Lk = self.s.length, self.s.length
        if kind == "side":
            side = rng.choice([-1.0, 1.0])
            yaw = yk + float(rng.normal(0, 0.04))
            c = k.c[:2] + uk * rng.uniform(-0.5, 0.5) * Lk + nk * side * (2 * self.s.half_width + rng.uniform(0, 0.1))
            a = self._slide_clear(self.flat(ia, float(c[0]), float(c[1]), yaw, ba), k, nk * side)
        elif kind == "t":
            side = rng.choice([-1.0, 1.0])
            yaw = yk + math.pi / 2 + float(rng.uniform(-0.35, 0.35))
            ua = np.array([math.cos(yaw), math.sin(yaw)]) * (1 if np.dot([math.cos(yaw), math.sin(yaw)], nk) * side > 0 else -1)
            contact = k.c[:2] + uk * rng.uniform(-0.35, 0.35) * Lk + nk * side * self.s.half_width
            c = contact + ua * (La / 2 + 0.05)
            a = self._slide_clear(self.flat(ia, float(c[0]), float(c[1]), yaw, ba), k, ua)
        else:
            q = k.c[:2] + uk * rng.uniform(-0.3, 0.3) * Lk
            yaw = yk + float(rng.choice([-1, 1]) * rng.uniform(0.45, math.pi / 2))
            ua = np.array([math.cos(yaw), math.sin(yaw)])
            s = float(rng.uniform(0.4, 0.75)) * La
            pivot = q - ua * s
            # the underside (a line from the pivot, as wide as the stick) must clear the lower stick
            xs = np.arange(max(1.0, s - 5.0), min(La, s + 5.0), 0.1)
            na = np.array([-ua[1], ua[0]])
            pts = np.concatenate([pivot + np.outer(xs, ua) + off * na
                                  for off in np.linspace(-self.s.half_width, self.s.half_width, 5)])
            hs = top_heights(k, pts)
            if hs.max() <= 0:
                raise PlacementError("lean missed the lower stick")
            pitch = float(np.max(np.arcsin(np.clip((hs + 0.03) / np.tile(xs, 5), 0, 0.9))))
            c = pivot + ua * La / 2
            a = tilted(self.flat(ia, float(c[0]), float(c[1]), yaw, ba), pitch, ik)
        for p in (a,):
            if self.sdf(p)[1] > -2 or not self.in_view(p) or not self.apart(p, others, 3.0):
                raise PlacementError("touching pair off the mat")
        return [k, a]

    # --- a throw --------------------------------------------------------------------------
    def throw(self, rng: Rng, case: str) -> tuple[list[Pose], Truth]:
        for _ in range(200):
            try:
                poses = self._throw(rng, case)
            except PlacementError:
                continue
            return sorted(poses, key=lambda p: p.index), truth_of(poses, case, self.shape, self.half)
        raise PlacementError(f"no layout for case {case!r}")

    def _throw(self, rng: Rng, case: str) -> list[Pose]:
        bellies = [bool(b) for b in rng.random(4) < 0.55]
        order = [int(i) for i in rng.permutation(4)]
        poses: list[Pose] = []
        if case == "touching":
            poses += self.pair(rng, order[0], order[1], bellies[order[0]], bellies[order[1]], [])
            order = order[2:]
            if rng.random() < 0.3:
                poses += self.pair(rng, order[0], order[1], bellies[order[0]], bellies[order[1]], poses)
                order = []
        elif case in ("edge", "낙"):
            n_special = 1 if case == "낙" or rng.random() < 0.7 else 2
            for j in range(n_special):
                i = order.pop(0)
                poses.append(self._boundary(rng, i, bellies[i], poses, off=(case == "낙" and j == 0)))
            if case == "낙" and rng.random() < 0.3:
                i = order.pop(0)
                poses.append(self._boundary(rng, i, bellies[i], poses, off=False))
        for i in order:
            poses.append(self._random_on(rng, i, bellies[i], poses, 2.0, 1.0))
        return poses

    def _boundary(self, rng: Rng, i: int, belly: bool, others: list[Pose], off: bool) -> Pose:
        """A stick across the mat's outline (still on it) or, with ``off``, wholly beside the mat."""
        for _ in range(300):
            th = rng.uniform(0, 2 * math.pi)
            if self.shape == "round":
                bx, by = self.half * math.cos(th), self.half * math.sin(th)
                nrm = np.array([math.cos(th), math.sin(th)])
            else:
                side = int(rng.integers(4))
                t = rng.uniform(-0.9, 0.9) * self.half
                nrm = np.array([[1, 0], [0, 1], [-1, 0], [0, -1]][side], float)
                bx, by = nrm * self.half + np.array([-nrm[1], nrm[0]]) * t
            yaw = float(rng.uniform(0, math.pi))
            if off:
                d = rng.uniform(MARGIN + self.s.half_width, MARGIN + self.s.length / 2 + 25)
            else:
                d = rng.uniform(-0.3, 0.3) * self.s.length
            p = self.flat(i, float(bx + nrm[0] * d), float(by + nrm[1] * d), yaw, belly)
            lo, hi = self.sdf(p)
            ok = lo >= MARGIN if off else (lo <= -MARGIN and hi >= MARGIN)
            if ok and self.in_view(p) and self.apart(p, others, 2.0):
                return p
        raise PlacementError("no boundary placement")
