"""Short synthetic clips of a throw for :mod:`yut_cam.vision.synth` (30 fps by default).

Timeline of ``render_clip``: the empty mat (sensor noise, a slow light drift); sometimes a
person's arm reaching over the mat and leaving again; the four sticks falling in from
above (large while high, motion blurred, turning over in the air), hitting the mat,
hopping, sliding and spinning to rest (ease-out, so the last frames move by sub-pixel
amounts, as real sticks do); then the sticks at rest.  ``settled_index`` is the first frame
in which every stick is exactly at its final pose.  ``render_session`` strings several
throws together, with the sticks picked up by hand between throws.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from yut_cam.vision.synth_scene import Scene, build_scene, form_image
from yut_cam.vision.synth_sticks import Pose, draw_stick

F32 = NDArray[np.float32]
U8 = NDArray[np.uint8]


@dataclass(frozen=True)
class Arm:
    """A forearm and hand reaching from ``start`` (off view) to ``hand`` (world cm)."""

    start: tuple[float, float]
    hand: tuple[float, float]
    width_cm: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]


@dataclass(frozen=True)
class Flight:
    """One stick's trajectory: falling from ``lift0`` at ``t0``, landing at ``t_land``,
    sliding to rest at ``t_rest`` (frames)."""

    final: Pose
    t0: float
    t_land: float
    t_rest: float
    offset: tuple[float, float]
    spin_deg: float
    roll0: float
    lift0: float

    def pose(self, t: float) -> Pose | None:
        f = self.final
        if t < self.t0:
            return None
        if t >= self.t_rest:
            return f
        end_roll = 0.0 if f.face == "배" else math.pi
        if t < self.t_land:
            s = (t - self.t0) / (self.t_land - self.t0)
            k = 1.0 - 0.6 * s
            lift = self.lift0 * (1 - s * s)
            ang = f.angle_deg + self.spin_deg * (1.0 + 2.0 * (1 - s))
            roll = end_roll + self.roll0 * (1 - s) + math.pi * 2 * (1 - s)
        else:
            u = (t - self.t_land) / (self.t_rest - self.t_land)
            k = 0.4 * (1 - u) ** 2
            lift = 5.0 * math.sin(math.pi * min(1.0, u * 3.0)) if u < 1 / 3 else 0.0
            ang = f.angle_deg + self.spin_deg * (1 - u) ** 2
            roll = end_roll + (0.9 * math.sin(math.pi * min(1.0, u * 3.0)) if u < 1 / 3 else 0.0)
        face = "배" if math.cos(roll) > 0 else "등"
        return Pose(f.x + self.offset[0] * k, f.y + self.offset[1] * k, ang, face,
                    lift_cm=lift, roll=max(0.3, abs(math.cos(roll))))


def plan_flights(finals: Sequence[Pose], rng: np.random.Generator, t_start: float) -> list[Flight]:
    """Trajectories that bring each stick to ``finals[i]``, thrown at frame ``t_start``."""
    out = []
    direction = float(rng.uniform(0, 2 * math.pi))
    for p in finals:
        d = direction + float(rng.uniform(-0.6, 0.6))
        dist = float(rng.uniform(25, 70))
        t0 = t_start + float(rng.uniform(0, 3))
        t_land = t0 + float(rng.uniform(5, 9))
        t_rest = t_land + float(rng.uniform(7, 18))
        out.append(Flight(final=p, t0=t0, t_land=t_land, t_rest=t_rest,
                          offset=(dist * math.cos(d), dist * math.sin(d)),
                          spin_deg=float(rng.uniform(-160, 160)), roll0=float(rng.uniform(0, 6)),
                          lift0=float(rng.uniform(60, 110))))
    return out


def random_arm(scene: Scene, rng: np.random.Generator) -> Arm:
    """An arm coming in from a random side of the view towards the mat."""
    x0, y0, x1, y1 = scene.world_box
    side = int(rng.integers(4))
    u = float(rng.uniform(0.2, 0.8))
    start = [(x0 - 30, y0 + u * (y1 - y0)), (x1 + 30, y0 + u * (y1 - y0)),
             (x0 + u * (x1 - x0), y0 - 30), (x0 + u * (x1 - x0), y1 + 30)][side]
    hand = (float(rng.uniform(-40, 40)), float(rng.uniform(-40, 40)))
    skins = [(120, 150, 200), (100, 135, 185), (80, 110, 160), (140, 170, 215)]
    sk = skins[int(rng.integers(len(skins)))]
    sleeve = tuple(int(v) for v in rng.integers(20, 230, 3))
    return Arm(start=(float(start[0]), float(start[1])), hand=hand, width_cm=float(rng.uniform(8, 11)),
               skin=sk, sleeve=(sleeve[0], sleeve[1], sleeve[2]))


def draw_arm(canvas: F32, scene: Scene, arm: Arm, reach: float) -> None:
    """Paint the arm, extended ``reach`` (0 = out of view, 1 = hand at ``arm.hand``)."""
    if reach <= 0:
        return
    sx, sy = arm.start
    hx = sx + (arm.hand[0] - sx) * reach
    hy = sy + (arm.hand[1] - sy) * reach
    ppc, (ox, oy) = scene.ppc, scene.origin
    d = np.array([hx - sx, hy - sy])
    length = float(np.hypot(*d))
    if length < 1:
        return
    d /= length
    n = np.array([-d[1], d[0]])
    h, w = canvas.shape[:2]
    lv = scene.light.vector()
    tan_el = max(math.tan(math.radians(scene.light.elevation_deg)), 0.25)
    shift = -np.array(lv[:2]) / max(math.hypot(lv[0], lv[1]), 1e-6) * 35.0 / tan_el
    for shadow in (True, False):
        off = shift if shadow else np.zeros(2)
        a = np.array([sx, sy]) + off
        b = np.array([hx, hy]) + off
        pts = np.array([a - n * arm.width_cm / 2, b - n * arm.width_cm / 2,
                        b + n * arm.width_cm / 2, a + n * arm.width_cm / 2])
        px = ((pts - np.array([ox, oy])) * ppc).astype(np.int32)
        hand_c = ((b + d * 5.0 - np.array([ox, oy])) * ppc).astype(np.int32)
        lo = np.maximum(np.minimum(px.min(0), hand_c - int(12 * ppc)) - int(6 * ppc), 0)
        hi = np.minimum(np.maximum(px.max(0), hand_c + int(12 * ppc)) + int(6 * ppc), [w, h])
        if np.any(hi <= lo):
            continue
        rw, rh = int(hi[0] - lo[0]), int(hi[1] - lo[1])
        mask = np.zeros((rh, rw), np.float32)
        cv2.fillConvexPoly(mask, px - lo, 1.0, cv2.LINE_AA)
        axes = (int(arm.width_cm * 0.6 * ppc), int(arm.width_cm * 0.85 * ppc))
        ang = math.degrees(math.atan2(d[1], d[0])) + 90
        cv2.ellipse(mask, (int(hand_c[0] - lo[0]), int(hand_c[1] - lo[1])), axes, ang, 0, 360, 1.0, -1,
                    cv2.LINE_AA)
        roi = canvas[lo[1]:hi[1], lo[0]:hi[0]]
        if shadow:
            m = cv2.GaussianBlur(mask, (0, 0), 3.0 * ppc)
            roi *= (1.0 - 0.6 * scene.light.shadow * m)[..., None]
            continue
        yy, xx = np.mgrid[0:rh, 0:rw].astype(np.float32)
        wx = xx / ppc + lo[0] / ppc + ox
        wy = yy / ppc + lo[1] / ppc + oy
        across = ((wx - sx) * n[0] + (wy - sy) * n[1]) / (arm.width_cm / 2)
        along = ((wx - sx) * d[0] + (wy - sy) * d[1]) / max(length, 1.0)
        shade = (0.65 + 0.35 * np.sqrt(np.clip(1 - across**2, 0, 1)))
        sleeve = (along < 0.55 * min(1.0, reach + 0.3))[..., None]
        col = np.where(sleeve, np.array(arm.sleeve, np.float32), np.array(arm.skin, np.float32))
        col = (col * shade[..., None] * 1.1).astype(np.float32)
        roi *= (1 - mask)[..., None]
        roi += col * mask[..., None]


def _noise_pool(style_noise: float, size: tuple[int, int], rng: np.random.Generator) -> list[F32]:
    w, h = size
    return [rng.standard_normal((h + 16, w + 16, 3), dtype=np.float32) * np.float32(style_noise)
            for _ in range(3)]


class ClipRenderer:
    """Renders frames of one scene: sticks (with blur), an arm, drifting light, noise."""

    def __init__(self, style: object, size: tuple[int, int], rng: np.random.Generator,
                 light_drift: float) -> None:
        from yut_cam.vision.synth import SceneStyle

        assert isinstance(style, SceneStyle)
        self.style = style
        self.scene = build_scene(style, size, 1.0)
        self.rng = rng
        self.size = size
        self.pool = _noise_pool(style.noise, size, rng)
        self.drift = light_drift
        self.phase = float(rng.uniform(0, 2 * math.pi))

    def frame(self, t: float, flights: Sequence[Flight], arm: Arm | None, reach: float,
              present: Sequence[bool] | None = None) -> U8:
        canvas = self.scene.background.copy()
        for i, fl in enumerate(flights):
            if present is not None and not present[i]:
                continue
            poses = [p for k in range(4) if (p := fl.pose(t - 0.5 + k / 6.0)) is not None]
            moving = len({(round(p.x, 2), round(p.y, 2), round(p.angle_deg, 1)) for p in poses}) > 1
            if not moving:
                poses = poses[-1:]
            draw_stick(canvas, self.scene.sprites[i], poses, self.scene.light, self.scene.origin,
                       self.scene.ppc)
        if arm is not None:
            draw_arm(canvas, self.scene, arm, reach)
        gain = 1.0 + self.drift * math.sin(self.phase + t / 90.0)
        canvas *= np.float32(gain)
        w, h = self.size
        field = self.pool[int(self.rng.integers(3))]
        ox, oy = int(self.rng.integers(16)), int(self.rng.integers(16))
        return form_image(self.scene, canvas, self.style, None, jpeg=False,
                          noise_field=field[oy:oy + h, ox:ox + w])


def arm_reach(t: float, t_in: float, hold: float, dur: float = 9.0) -> float:
    """How far the arm reaches at frame ``t`` for an arm entering at ``t_in``."""
    if t < t_in:
        return 0.0
    if t < t_in + dur:
        return (t - t_in) / dur
    if t < t_in + dur + hold:
        return 1.0
    if t < t_in + 2 * dur + hold:
        return 1.0 - (t - t_in - dur - hold) / dur
    return 0.0
