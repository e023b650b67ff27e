"""Synthetic yut scenes with ground truth: a camera looking down on a 멍석 and four sticks.

Pure numpy + OpenCV and seeded (``numpy.random.Generator``); used by the tests, the
benchmarks (``bench/vision.py``), the demo and ``yut-cam synth``.

Scene
    A 1.5 m mat (round or square; straw 멍석 or cloth) on a floor of another texture
    (wood, concrete, grass, tiles, tarp, asphalt, carpet), seen by a camera slightly
    tilted (keystone), the mat rotated; light from one direction with soft shadows,
    ambient level, colour temperature, a brightness gradient, vignetting, sometimes a
    glare spot; sensor noise (signal dependent), defocus and JPEG.  Pixel sizes follow the
    image size: the mat spans ``mat_fill`` of the shorter image side.
Sticks
    Four half-cylinders, 16-20 cm x ~3 cm.  배 up shows the flat split face (light wood
    with grain); 등 up shows the rounded back (cylinder shading across the width) with the
    set's pattern (``x_marks``, ``bands``, ``x_bands``, ``dots``, ``chevrons``) in the
    set's colours.  Stick ``style.marked_stick`` carries the 빽도 mark (``dot``, ``ring``,
    ``stripe`` or a painted ``glyph``) near one end of its 배 face, visible only 배 up.
Cases
    ``clean`` (apart), ``touching`` (side by side, end against side, or one lying across
    another), ``edge`` (a stick across the mat boundary: still on the mat), ``낙`` (at
    least one stick wholly off the mat).  Not forced, each stick lands 배 up with p = 0.6.

API
    ``SceneStyle`` (frozen), ``random_style(rng)``;
    ``render_throw(style, rng, size=(1280, 720), case=None, faces=None) -> (bgr, SceneTruth)``;
    ``render_calibration(style, size) -> CalibrationImages(empty, belly, back, mat_polygon, ...)``
    (deterministic for a style: the empty mat, the four sticks 배 up apart, 등 up apart);
    ``render_clip(style, rng, ...)`` (in :mod:`yut_cam.vision.synth_clip`, re-exported here)
    ``-> (frames, SceneTruth, settled_index)``.
    ``SceneTruth.result`` follows the rules: 배 count 0 -> 모, 1 -> 도 (빽도 when that one
    stick is the marked one), 2 -> 개, 3 -> 걸, 4 -> 윷; 낙 when any stick is wholly off the
    mat.  Polygons are image pixels (corners of the stick's footprint, occluded or not).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from yut_cam.vision.synth_place import Placer, touches_mat
from yut_cam.vision.synth_scene import build_scene, form_image, project
from yut_cam.vision.synth_sticks import MARKS, PATTERNS, Pose, draw_stick, stick_corners
from yut_cam.vision.synth_textures import FLOOR_KINDS, MAT_KINDS
from yut_cam.vision.types import BY_FLAT_UP

U8 = NDArray[np.uint8]
BGR = tuple[int, int, int]
Point = tuple[float, float]

CASES = ("clean", "touching", "edge", "낙")
CASE_WEIGHTS = (0.5, 0.25, 0.12, 0.13)
P_BELLY = 0.6


@dataclass(frozen=True)
class SceneStyle:
    """Everything that stays the same between throws at one venue with one set of sticks."""

    seed: int = 1
    mat_kind: str = "round_straw"
    mat_color: BGR = (92, 163, 205)
    floor_kind: str = "wood"
    floor_color: BGR = (50, 90, 140)
    mat_fill: float = 0.86
    mat_rotation_deg: float = 0.0
    keystone: float = 0.02
    skew: float = 0.0
    center_offset: Point = (0.0, 0.0)
    stick_length_cm: float = 18.0
    stick_width_cm: float = 3.0
    wood: BGR = (165, 200, 228)
    back: BGR = (45, 75, 115)
    pattern: str = "x_marks"
    pattern_color: BGR = (25, 28, 35)
    mark: str = "dot"
    mark_color: BGR = (30, 30, 200)
    mark_inset: float = 0.9  # the mark's centre from its stick's tip, in stick widths
    marked_stick: int = 0
    light_azimuth_deg: float = 135.0
    light_elevation_deg: float = 60.0
    ambient: float = 0.5
    shadow: float = 0.45
    brightness: float = 1.0
    color_temp: float = 0.0
    gradient: float = 0.1
    vignette: float = 0.2
    glare: float = 0.0
    noise: float = 3.0
    blur: float = 0.3
    jpeg_quality: int = 90

    def __post_init__(self) -> None:
        if self.mat_kind not in MAT_KINDS:
            raise ValueError(f"unknown mat_kind {self.mat_kind!r}; one of {MAT_KINDS}")
        if self.floor_kind not in FLOOR_KINDS:
            raise ValueError(f"unknown floor_kind {self.floor_kind!r}; one of {FLOOR_KINDS}")
        if self.pattern not in PATTERNS:
            raise ValueError(f"unknown pattern {self.pattern!r}; one of {PATTERNS}")
        if self.mark not in MARKS:
            raise ValueError(f"unknown mark {self.mark!r}; one of {MARKS}")
        if not 0 <= self.marked_stick <= 3:
            raise ValueError(f"marked_stick must be 0..3, got {self.marked_stick!r}")


@dataclass(frozen=True)
class StickTruth:
    """One stick as rendered: its face, mark, whether it touches the mat, where it lies."""

    face: str
    marked: bool
    on_mat: bool
    polygon: tuple[Point, Point, Point, Point]
    center: Point
    angle_deg: float

    def to_json(self) -> dict[str, Any]:
        return {"face": self.face, "marked": self.marked, "on_mat": self.on_mat,
                "box": [[round(x, 1), round(y, 1)] for x, y in self.polygon],
                "center": [round(self.center[0], 1), round(self.center[1], 1)],
                "angle_deg": round(self.angle_deg, 1)}


@dataclass(frozen=True)
class SceneTruth:
    """What a perfect reader would say about a rendered throw."""

    result: str
    case: str
    sticks: tuple[StickTruth, ...]
    mat_polygon: tuple[Point, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"result": self.result, "case": self.case,
                "sticks": [s.to_json() for s in self.sticks],
                "mat_polygon": [[round(x, 1), round(y, 1)] for x, y in self.mat_polygon]}


@dataclass(frozen=True)
class CalibrationImages:
    """The referee's three calibration photos of one style, and the mat outline (px)."""

    empty: U8
    belly: U8
    back: U8
    mat_polygon: tuple[Point, ...]
    belly_truth: SceneTruth
    back_truth: SceneTruth


def result_of(sticks: Sequence[StickTruth]) -> str:
    """The throw's result from its sticks (the rules' table, 낙 first)."""
    if len(sticks) != 4 or any(not s.on_mat for s in sticks):
        return "낙"
    belly = [s for s in sticks if s.face == "배"]
    if len(belly) == 1 and belly[0].marked:
        return "빽도"
    return BY_FLAT_UP[len(belly)]


def _pick(rng: np.random.Generator, options: Sequence[BGR], jitter: int = 12) -> BGR:
    base = options[int(rng.integers(len(options)))]
    j = rng.integers(-jitter, jitter + 1, 3)
    return (int(np.clip(base[0] + j[0], 0, 255)), int(np.clip(base[1] + j[1], 0, 255)),
            int(np.clip(base[2] + j[2], 0, 255)))


_STRAW = [(92, 163, 205), (80, 140, 180), (120, 180, 215), (70, 120, 160), (105, 170, 190)]
_CLOTH = [(40, 40, 160), (100, 60, 30), (50, 100, 50), (150, 180, 205), (120, 120, 120),
          (60, 60, 110), (170, 110, 60)]
_FLOOR = {"wood": [(40, 80, 130), (60, 100, 150), (30, 60, 100)],
          "concrete": [(150, 150, 150), (120, 125, 130), (170, 175, 175)],
          "grass": [(40, 120, 60), (50, 110, 80)], "tiles": [(200, 200, 200), (170, 180, 190)],
          "tarp": [(170, 100, 30), (60, 140, 60)], "asphalt": [(70, 70, 70), (60, 60, 65)],
          "carpet": [(60, 50, 130), (90, 90, 90), (110, 70, 50)]}
_WOOD = [(170, 205, 230), (150, 190, 220), (185, 215, 235), (140, 180, 210), (125, 170, 205)]
_BACK = [(40, 60, 120), (40, 40, 45), (30, 55, 90), (40, 40, 170), (50, 90, 40), (60, 95, 140)]
_PATTERN_DARK = [(25, 30, 40), (20, 20, 20), (40, 40, 190), (140, 60, 30)]
_PATTERN_LIGHT = [(220, 225, 230), (60, 200, 230), (40, 40, 200)]
_MARK = [(30, 30, 200), (25, 25, 25), (160, 60, 30)]


def random_style(rng: np.random.Generator) -> SceneStyle:
    """A random venue, light, camera and stick set."""
    mat_kind = str(rng.choice(MAT_KINDS, p=[0.35, 0.3, 0.15, 0.2]))
    floor_kind = str(rng.choice(FLOOR_KINDS))
    back = _pick(rng, _BACK)
    dark_back = sum(back) < 200
    round_mat = mat_kind.startswith("round")
    rotation = float(rng.uniform(0, 360) if round_mat else rng.choice([0.0, 90.0]) + rng.uniform(-12, 12))
    keystone, skew = float(rng.uniform(-0.06, 0.06)), float(rng.uniform(-0.04, 0.04))
    r = math.radians(rotation)
    extent = (1.0 if round_mat else abs(math.cos(r)) + abs(math.sin(r))) * (1 + abs(keystone) + abs(skew))
    fill = min(float(rng.uniform(0.74, 0.92)), 0.9 / extent)
    return SceneStyle(
        seed=int(rng.integers(1, 2**31 - 1)),
        mat_kind=mat_kind,
        mat_color=_pick(rng, _STRAW if mat_kind.endswith("straw") else _CLOTH),
        floor_kind=floor_kind,
        floor_color=_pick(rng, _FLOOR[floor_kind]),
        mat_fill=fill,
        mat_rotation_deg=rotation,
        keystone=keystone,
        skew=skew,
        center_offset=(float(rng.uniform(-0.02, 0.02)), float(rng.uniform(-0.02, 0.02))),
        stick_length_cm=float(rng.uniform(16.0, 20.0)),
        stick_width_cm=float(rng.uniform(2.7, 3.3)),
        wood=_pick(rng, _WOOD),
        back=back,
        pattern=str(rng.choice(PATTERNS)),
        pattern_color=_pick(rng, _PATTERN_LIGHT if dark_back and rng.random() < 0.6 else _PATTERN_DARK),
        mark=str(rng.choice(MARKS)),
        mark_color=_pick(rng, _MARK),
        marked_stick=int(rng.integers(4)),
        light_azimuth_deg=float(rng.uniform(0, 360)),
        light_elevation_deg=float(rng.uniform(35, 80)),
        ambient=float(rng.uniform(0.35, 0.7)),
        shadow=float(rng.uniform(0.25, 0.6)),
        brightness=float(rng.uniform(0.7, 1.2)),
        color_temp=float(rng.uniform(-1, 1)),
        gradient=float(rng.uniform(0, 0.25)),
        vignette=float(rng.uniform(0, 0.45)),
        glare=float(0.0 if rng.random() < 0.8 else rng.uniform(0.1, 0.35)),
        noise=float(rng.uniform(1.0, 7.0)),
        blur=float(rng.uniform(0.0, 0.9)),
        jpeg_quality=int(rng.integers(55, 96)),
    )


def _check_size(size: tuple[int, int]) -> tuple[int, int]:
    w, h = int(size[0]), int(size[1])
    if w < 160 or h < 120:
        raise ValueError(f"image size must be at least 160x120, got {size!r}")
    return w, h


def place_sticks(style: SceneStyle, size: tuple[int, int], rng: np.random.Generator,
                 case: str, faces: Sequence[str], supersample: float = 1.0) -> tuple[list[Pose], str]:
    """Final poses of sticks 0..3 for ``case`` (world cm) and the case used."""
    scene = build_scene(style, size, supersample)
    placer = Placer(scene.look, style.mat_kind.startswith("round"), scene.H, size,
                    scene.world_box, rng)
    ids = [int(i) for i in rng.permutation(4)]
    poses: dict[int, Pose] = {}
    if case == "touching":
        a, b = placer.touching(faces[ids[0]], faces[ids[1]])
        poses[ids[0]], poses[ids[1]] = a, b
        if rng.random() < 0.3:
            a, b = placer.touching(faces[ids[2]], faces[ids[3]])
            poses[ids[2]], poses[ids[3]] = a, b
    elif case == "edge":
        poses[ids[0]] = placer.on_edge(faces[ids[0]])
        if rng.random() < 0.3:
            poses[ids[1]] = placer.on_edge(faces[ids[1]])
    elif case == "낙":
        off = placer.off_mat(faces[ids[0]])
        if off is None:
            raise ValueError(f"no room to place a stick off the mat at size {size!r}")
        poses[ids[0]] = off
        if rng.random() < 0.25:
            off2 = placer.off_mat(faces[ids[1]])
            if off2 is not None:
                poses[ids[1]] = off2
    elif case != "clean":
        raise ValueError(f"unknown case {case!r}; one of {CASES}")
    for i in ids:
        if i not in poses:
            poses[i] = placer.on_mat(faces[i])
    return [poses[i] for i in range(4)], case


def truth_for(style: SceneStyle, size: tuple[int, int], poses: Sequence[Pose], case: str,
              supersample: float = 1.0) -> SceneTruth:
    """Ground truth of sticks lying at ``poses`` (stick i is marked iff i == marked_stick)."""
    scene = build_scene(style, size, supersample)
    round_mat = style.mat_kind.startswith("round")
    sticks = []
    for i, p in enumerate(poses):
        corners = stick_corners(p, scene.look)
        px = project(scene.H, corners)
        c = project(scene.H, np.array([[p.x, p.y]]))[0]
        tip = project(scene.H, np.array([[p.x + math.cos(math.radians(p.angle_deg)),
                                          p.y + math.sin(math.radians(p.angle_deg))]]))[0]
        ang = math.degrees(math.atan2(tip[1] - c[1], tip[0] - c[0])) % 180.0
        poly = tuple((float(x), float(y)) for x, y in px)
        sticks.append(StickTruth(face=p.face, marked=i == style.marked_stick,
                                 on_mat=touches_mat(corners, round_mat),
                                 polygon=(poly[0], poly[1], poly[2], poly[3]),
                                 center=(float(c[0]), float(c[1])), angle_deg=ang))
    mat = tuple((float(x), float(y)) for x, y in scene.mat_polygon)
    return SceneTruth(result=result_of(sticks), case=case, sticks=tuple(sticks), mat_polygon=mat)


def render_throw(style: SceneStyle, rng: np.random.Generator, size: tuple[int, int] = (1280, 720),
                 case: str | None = None, faces: Sequence[str] | None = None,
                 supersample: float = 1.0) -> tuple[U8, SceneTruth]:
    """One settled throw: the camera image (BGR uint8) and its ground truth."""
    size = _check_size(size)
    if case is None:
        case = str(rng.choice(CASES, p=CASE_WEIGHTS))
    if faces is None:
        faces = ["배" if v < P_BELLY else "등" for v in rng.random(4)]
    if len(faces) != 4 or any(f not in ("배", "등") for f in faces):
        raise ValueError(f"faces must be four of 배/등, got {faces!r}")
    poses, case = place_sticks(style, size, rng, case, list(faces), supersample)
    scene = build_scene(style, size, supersample)
    canvas = scene.background.copy()
    from yut_cam.vision.synth_place import convex_overlap

    drawn: list[int] = []
    for i in _z_order(poses, scene.look, rng):
        pose = poses[i]
        mine = stick_corners(pose, scene.look)
        if any(convex_overlap(mine, stick_corners(poses[j], scene.look)) for j in drawn):
            # lying across another stick: raised by its thickness (bigger, longer shadow)
            pose = dataclasses.replace(pose, lift_cm=0.5 * scene.look.width_cm)
        draw_stick(canvas, scene.sprites[i], [pose], scene.light, scene.origin, scene.ppc)
        drawn.append(i)
    image = form_image(scene, canvas, style, rng)
    return image, truth_for(style, size, poses, case, supersample)


def _z_order(poses: Sequence[Pose], look: Any, rng: np.random.Generator) -> list[int]:
    from yut_cam.vision.synth_place import convex_overlap

    order = [int(i) for i in rng.permutation(len(poses))]
    # a stick lying across another must be drawn after it: keep such pairs stable
    corners = [stick_corners(p, look) for p in poses]
    for _ in range(len(order)):
        for a in range(len(order)):
            for b in range(a + 1, len(order)):
                i, j = order[a], order[b]
                if convex_overlap(corners[i], corners[j]) and i > j:
                    order[a], order[b] = j, i
    return order


def render_calibration(style: SceneStyle, size: tuple[int, int] = (1280, 720),
                       supersample: float = 1.0) -> CalibrationImages:
    """The three calibration photos of ``style`` (deterministic): empty, 배 up, 등 up."""
    size = _check_size(size)
    rng = np.random.default_rng([style.seed, 20251130])
    scene = build_scene(style, size, supersample)
    empty = form_image(scene, scene.background.copy(), style, rng)
    shots = []
    for face in ("배", "등"):
        placer = Placer(scene.look, style.mat_kind.startswith("round"), scene.H, size,
                        scene.world_box, rng)
        poses = [placer.on_mat(face, gap=5.0, margin=5.0) for _ in range(4)]
        canvas = scene.background.copy()
        for i, p in enumerate(poses):
            draw_stick(canvas, scene.sprites[i], [p], scene.light, scene.origin, scene.ppc)
        shots.append((form_image(scene, canvas, style, rng), truth_for(style, size, poses, "clean", supersample)))
    mat = tuple((float(x), float(y)) for x, y in scene.mat_polygon)
    return CalibrationImages(empty=empty, belly=shots[0][0], back=shots[1][0], mat_polygon=mat,
                             belly_truth=shots[0][1], back_truth=shots[1][1])


def render_clip(style: SceneStyle, rng: np.random.Generator, size: tuple[int, int] = (640, 360),
                case: str | None = None, faces: Sequence[str] | None = None,
                hand: bool | None = None, idle: int | None = None, rest: int | None = None,
                light_drift: float | None = None) -> tuple[list[U8], SceneTruth, int]:
    """A clip (30 fps) of one throw: ``(frames, truth, settled_index)``.

    ``hand`` (default: 40 % of clips) sends an arm over the mat and away before the throw;
    ``idle``/``rest`` are the frames of empty mat before and of sticks at rest after."""
    frames, throws = render_session(style, rng, 1, size, case=case, faces=faces, hand=hand,
                                    idle=idle, rest=rest, light_drift=light_drift)
    truth, settled = throws[0]
    return frames, truth, settled


def render_session(style: SceneStyle, rng: np.random.Generator, throws: int,
                   size: tuple[int, int] = (640, 360), case: str | None = None,
                   faces: Sequence[str] | None = None, hand: bool | None = None,
                   idle: int | None = None, rest: int | None = None,
                   light_drift: float | None = None) -> tuple[list[U8], list[tuple[SceneTruth, int]]]:
    """Several throws in one clip; between throws a hand picks the sticks up.

    Returns the frames and, per throw, its truth and the index of its first frame at rest."""
    from yut_cam.vision.synth_clip import ClipRenderer, arm_reach, plan_flights, random_arm

    size = _check_size(size)
    drift = float(rng.uniform(0.0, 0.03)) if light_drift is None else light_drift
    r = ClipRenderer(style, size, rng, drift)
    frames: list[U8] = []
    out: list[tuple[SceneTruth, int]] = []
    t = 0
    n_idle = int(rng.integers(12, 30)) if idle is None else idle
    for _ in range(n_idle):
        frames.append(r.frame(t, [], None, 0.0))
        t += 1
    for k in range(throws):
        if (rng.random() < 0.4) if hand is None else hand:
            arm, hold = random_arm(r.scene, rng), int(rng.integers(3, 9))
            t_in = t
            while t < t_in + 18 + hold:
                frames.append(r.frame(t, [], arm, arm_reach(t, t_in, hold)))
                t += 1
            for _ in range(int(rng.integers(6, 14))):
                frames.append(r.frame(t, [], None, 0.0))
                t += 1
        c = str(rng.choice(CASES, p=CASE_WEIGHTS)) if case is None else case
        fs = list(faces) if faces is not None else ["배" if v < P_BELLY else "등" for v in rng.random(4)]
        poses, c = place_sticks(style, size, rng, c, fs, 1.0)
        flights = plan_flights(poses, rng, float(t))
        settled = int(math.ceil(max(f.t_rest for f in flights) + 0.5))
        n_rest = int(rng.integers(20, 36)) if rest is None else rest
        while t < settled + n_rest:
            frames.append(r.frame(t, flights, None, 0.0))
            t += 1
        out.append((truth_for(style, size, poses, c, 1.0), settled))
        if k + 1 < throws:  # pick the sticks up
            arm, hold = random_arm(r.scene, rng), int(rng.integers(4, 9))
            cx = float(np.mean([p.x for p in poses]))
            cy = float(np.mean([p.y for p in poses]))
            arm = dataclasses.replace(arm, hand=(cx, cy))
            t_in = t
            while t < t_in + 18 + hold:
                gone = t >= t_in + 9 + hold // 2
                frames.append(r.frame(t, flights, arm, arm_reach(t, t_in, hold),
                                      present=[not gone] * 4))
                t += 1
            for _ in range(int(rng.integers(10, 20))):
                frames.append(r.frame(t, [], None, 0.0))
                t += 1
    return frames, out
