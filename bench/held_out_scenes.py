"""Held-out scene benchmark: ``python -m bench.held_out_scenes [--n-styles 40] [--throws 15]``.

A third renderer (numpy + cv2, seeded), written without looking at the product's generator
or the reader's internals, to check that the throw reader generalises.  Unlike the other two
it casts a ray per pixel into a 3-D scene:

* Camera: pinhole 1.8-2.6 m above a 1.5 m 멍석 (square or round), looking at it with a slight
  tilt, any roll, mild barrel distortion; 1280x720 or 1920x1080 (fed as is).
* Ground: floor (stage boards, asphalt, grass, carpet, tiles, concrete) and mat (straw weave
  in rows or rings, printed banner with a 윷판/rings/medallion and wrinkles, canvas, felt) with
  a border band (none, cloth, nearly the floor's colour, rope, stripes); height maps become
  normals so the weave and wrinkles are lit, not painted.
* Sticks: half elliptic cylinders 15-20 x 2.5-3.5 cm, rounded or square ends, lying 배 up
  (on the round face) or 등 up, or leaning on another stick; sets of natural wood, bark,
  charred, painted, lacquered or low-contrast make; the 빽도 mark (X, dot, the syllable 빽 in
  strokes, ring, band) 0.8-2 cm on stick 0's 배 near one end.
* Light: lamps (1-3, area lights), window light, sun (hard shadows), overcast; 2700-6500 K;
  shadows by shadow rays onto the mat and other sticks; brightness and colour drift up to
  about +-15 % between shots.  Camera: auto or fixed exposure and white balance, vignetting,
  defocus, shot + read noise, tone curve, JPEG 70-95.

For every style the bench renders the three calibration pictures, calibrates (finding the mat
itself; if that fails, with the mat's outline as a referee taps it on the console, ``Style.taps``;
if that fails too, as the refusal asks, the sticks are laid >= 10 cm apart and the two stick
pictures retaken, recorded as ``retake``; the referee then looks at the outline found as
bench/foreign_scenes does: taps it again when the calibration warns that the mat's edge is
unsure or the line strays off the edge, ``tapped``, else confirms it, ``confirmed``; and
retakes the 배 picture when the calibration says to for the 빽도 mark, ``belly_retakes``), reads
every throw (cases in turn: clean, touching, edge, 낙;
15 % of throws with a bystander's soft shadow over the mat's edge) and prints
bench/foreign_scenes's table plus a few lines of its own.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from bench.held_out_geometry import Camera, Pose, densify, look_at
from bench.held_out_place import CASES, Thrower, Truth
from bench.foreign_scenes import Job
from bench.held_out_render import Light, Optics, Renderer, area_samples, kelvin_rgb
from bench.held_out_sticks import StickSet, make_set, set_tones, stick_textures
from bench.held_out_textures import BANDS, FLOORS, MATS, floor, mat

F64 = npt.NDArray[np.float64]
U8 = npt.NDArray[np.uint8]
Rng = np.random.Generator
HALF = 75.0  # the mat is 1.5 m across
# how far (share of the picture's width, standard deviation) a referee's tap on the console's
# picture lands from the point meant: 2 px at 1280 wide
TAP_ERROR = 0.0015


def _pick(rng: Rng, items: tuple[str, ...], p: list[float] | None = None) -> str:
    return str(items[int(rng.choice(len(items), p=p))])


def make_camera(rng: Rng, size: tuple[int, int], shape: str) -> Camera:
    W, H = size
    height = rng.uniform(180, 260)
    tilt = math.radians(rng.uniform(0, 10))
    az = rng.uniform(0, 2 * math.pi)
    eye = np.array([height * math.tan(tilt) * math.cos(az), height * math.tan(tilt) * math.sin(az), height])
    target = np.array([rng.normal(0, 6), rng.normal(0, 6), 0.0])
    aligned = rng.random() < 0.7
    roll = rng.normal(0, math.radians(8)) + rng.choice([0, math.pi / 2, math.pi, -math.pi / 2]) if aligned \
        else rng.uniform(-math.pi, math.pi)
    rot = look_at(eye, target, float(roll))
    frac = rng.uniform(0.6, 0.8)
    f = frac * H * height / (2 * HALF)
    k1 = rng.uniform(0, 0.08)
    outline = _mat_outline(shape)
    while True:  # shrink the focal length until the mat and a margin of floor are in the picture
        cam = Camera(W, H, float(f), W / 2 + rng.normal(0, 3), H / 2 + rng.normal(0, 3), float(k1),
                     (float(eye[0]), float(eye[1]), float(eye[2])),
                     tuple((float(r[0]), float(r[1]), float(r[2])) for r in rot))
        uv = cam.project(np.c_[outline * 1.12, np.zeros(len(outline))])
        if (uv[:, 0] > 0).all() and (uv[:, 1] > 0).all() and (uv[:, 0] < W).all() and (uv[:, 1] < H).all():
            return cam
        f *= 0.95


def _mat_outline(shape: str) -> F64:
    if shape == "round":
        a = np.linspace(0, 2 * math.pi, 96, endpoint=False)
        return np.stack([HALF * np.cos(a), HALF * np.sin(a)], axis=1)
    return densify(np.array([[-HALF, -HALF], [HALF, -HALF], [HALF, HALF], [-HALF, HALF]]), 10.0)


def make_lights(rng: Rng) -> tuple[tuple[Light, ...], float, F64, str]:
    kind = _pick(rng, ("lamps", "window", "sun", "overcast"), [0.35, 0.2, 0.25, 0.2])
    lights: list[Light] = []
    if kind == "lamps":
        n = int(rng.integers(1, 4))
        cct = rng.uniform(2700, 6500)
        for i in range(n):
            c = np.array([rng.uniform(-120, 120), rng.uniform(-120, 120), rng.uniform(220, 400)])
            col = kelvin_rgb(cct + rng.normal(0, 300) if rng.random() < 0.8 else rng.uniform(2700, 6500))
            lights.append(Light("point", tuple(c), area_samples(rng, "point", c, rng.uniform(3, 30), 6),
                                tuple(col), float(rng.uniform(0.6, 1.0) / n)))
        ambient, amb_col = rng.uniform(0.08, 0.25), kelvin_rgb(cct)
    elif kind == "window":
        el, az = math.radians(rng.uniform(15, 40)), rng.uniform(0, 2 * math.pi)
        d = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
        lights.append(Light("dir", tuple(d), area_samples(rng, "dir", d, rng.uniform(0.1, 0.3), 8),
                            tuple(kelvin_rgb(rng.uniform(5500, 6500))), float(rng.uniform(0.7, 1.0))))
        if rng.random() < 0.5:
            c = np.array([rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(250, 350)])
            lights.append(Light("point", tuple(c), area_samples(rng, "point", c, 10, 4),
                                tuple(kelvin_rgb(rng.uniform(2700, 3500))), float(rng.uniform(0.2, 0.4))))
        ambient, amb_col = rng.uniform(0.2, 0.35), kelvin_rgb(6000)
    elif kind == "sun":
        el, az = math.radians(rng.uniform(25, 75)), rng.uniform(0, 2 * math.pi)
        d = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
        lights.append(Light("dir", tuple(d), area_samples(rng, "dir", d, 0.005, 2),
                            tuple(kelvin_rgb(rng.uniform(5000, 5800))), 1.0))
        ambient, amb_col = rng.uniform(0.25, 0.5), kelvin_rgb(6500)
    else:
        el, az = math.radians(rng.uniform(60, 90)), rng.uniform(0, 2 * math.pi)
        d = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
        lights.append(Light("dir", tuple(d), area_samples(rng, "dir", d, 0.6, 8),
                            tuple(kelvin_rgb(rng.uniform(6000, 6500))), float(rng.uniform(0.4, 0.6))))
        ambient, amb_col = rng.uniform(0.5, 0.8), kelvin_rgb(6500)
    return tuple(lights), float(ambient), amb_col, kind


class Style:
    """One seeded look: camera, mat, floor, stick set, lights and camera pipeline."""

    def __init__(self, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.seed = seed
        self.size = (1920, 1080) if rng.random() < 0.25 else (1280, 720)
        self.shape = "round" if rng.random() < 0.35 else "square"
        self.mat_kind = _pick(rng, MATS, [0.4, 0.25, 0.2, 0.15])
        self.band_kind = _pick(rng, BANDS, [0.25, 0.25, 0.15, 0.15, 0.2])
        if self.band_kind == "rope" and self.mat_kind != "straw":
            self.band_kind = "cloth"
        self.band = float(rng.uniform(3, 10)) if self.band_kind != "none" else 0.0
        self.floor_kind = _pick(rng, FLOORS)
        self.cam = make_camera(rng, self.size, self.shape)
        self.lights, self.ambient, self.amb_col, self.light_kind = make_lights(rng)
        self.sticks: StickSet = make_set(rng)
        W, H = self.size
        blur = rng.uniform(0.4, 1.2) * (1.4 if W > 1280 else 1.0)
        self.optics = Optics(ae=bool(rng.random() < 0.7), target=float(rng.uniform(0.15, 0.24)),
                             awb=float(rng.uniform(0.3, 0.85)), vignette=float(rng.uniform(0, 0.35)), blur=float(blur),
                             shot_noise=float(rng.uniform(2e-4, 3e-3)), read_noise=float(rng.uniform(0.002, 0.01)),
                             saturation=float(rng.uniform(1.0, 1.2)), jpeg=int(rng.integers(70, 96)))
        self._tex_seed = int(rng.integers(1 << 30))
        self._renderer: Renderer | None = None
        self.thrower = Thrower(self.sticks, self.cam, self.shape, HALF)

    def describe(self) -> str:
        return (f"{self.size[0]}x{self.size[1]} {self.shape} {self.mat_kind} band={self.band_kind}"
                f" floor={self.floor_kind} light={self.light_kind} sticks={self.sticks.kind}/"
                f"{self.sticks.back_pattern} mark={self.sticks.mark}")

    @property
    def renderer(self) -> Renderer:
        if self._renderer is None:
            self._renderer = self._build()
        return self._renderer

    def _build(self) -> Renderer:
        rng = np.random.default_rng(self._tex_seed)
        cam = self.cam
        D = cam.rays()
        border = np.concatenate([D[0], D[-1], D[:, 0], D[:, -1]])
        t = -cam.o[2] / np.minimum(border[:, 2], -1e-3)
        gp = cam.o[:2] + t[:, None] * border[:, :2]
        lo, hi = np.clip(gp.min(0) - 5, -600, 600), np.clip(gp.max(0) + 5, -600, 600)
        res = float(np.clip(1.3 * cam.f / cam.o[2], 2.5, 6.0))
        xs = np.arange(lo[0], hi[0], 1 / res)
        ys = np.arange(lo[1], hi[1], 1 / res)
        X, Y = np.meshgrid(xs, ys)
        fl = floor(self.floor_kind, rng, X, Y, res)
        fmean = fl.albedo.reshape(-1, 3).mean(0).astype(np.float64)
        mt, cover = mat(self.mat_kind, self.shape, HALF, self.band_kind, self.band, fmean, rng, X, Y, res)
        c3 = cover[..., None]
        # a thick straw mat shades the floor right at its edge
        if self.mat_kind == "straw":
            dist = cv2.distanceTransform((cover < 0.5).astype(np.uint8), cv2.DIST_L2, 5) / res
            fl_alb = fl.albedo * (1 - 0.35 * np.exp(-dist / 0.8))[..., None]
        else:
            fl_alb = fl.albedo
        alb = (fl_alb * (1 - c3) + mt.albedo * c3).astype(np.float32)
        height = (fl.height * (1 - cover) + mt.height * cover).astype(np.float32)
        spec = (fl.spec * (1 - cover) + mt.spec * cover).astype(np.float32)
        from bench.held_out_textures import Surface
        tones = set_tones(self.sticks, rng)
        textures = [stick_textures(self.sticks, i == 0, rng, tones) for i in range(4)]
        s = self.sticks
        return Renderer(cam, self.lights, self.ambient, self.amb_col, Surface(alb, height, 0.0, 1.0), spec,
                        float(xs[0]), float(ys[0]), res, self.optics, textures,
                        (s.belly_spec, s.belly_shine, s.back_spec, s.back_shine), rng)

    def taps(self) -> list[tuple[float, float]]:
        """Where this venue's referee taps the mat's outline on the empty picture (the same taps
        each time): a square mat's four corners, eight points round a round one, each off by
        the tap's error (``TAP_ERROR``)."""
        rng = np.random.default_rng(self.seed + 13)
        if self.shape == "square":
            pts = np.array([[-HALF, -HALF], [HALF, -HALF], [HALF, HALF], [-HALF, HALF]])
        else:
            a = np.linspace(0, 2 * math.pi, 8, endpoint=False) + rng.uniform(0, math.pi / 4)
            pts = np.stack([HALF * np.cos(a), HALF * np.sin(a)], axis=1)
        uv = self.cam.project(np.c_[pts, np.zeros(len(pts))])[:, :2]
        uv = uv + rng.normal(0.0, TAP_ERROR * self.size[0], uv.shape)
        return [(float(u), float(v)) for u, v in uv]

    def mat_polygon_image(self) -> list[tuple[float, float]]:
        pts = _mat_outline(self.shape)
        if self.shape == "square":
            pts = densify(np.array([[-HALF, -HALF], [HALF, -HALF], [HALF, HALF], [-HALF, HALF]]), 10.0)
        uv = self.cam.project(np.c_[pts, np.zeros(len(pts))])
        return [(float(u), float(v)) for u, v in uv]

    def render(self, poses: list[Pose], rng: Rng, people: bool = False) -> U8:
        """One photograph of the sticks at ``poses``, with this shot's light drift and noise;
        with ``people``, a bystander's shadow falls over the edge of the mat."""
        r = self.renderer
        shade = None
        if people:
            a = rng.uniform(0, 2 * math.pi)
            dist = rng.uniform(70, 115)
            shade = (dist * math.cos(a), dist * math.sin(a), float(rng.uniform(25, 45)), float(rng.uniform(15, 25)),
                     a + float(rng.normal(math.pi / 2, 0.3)), float(rng.uniform(0.15, 0.5)), float(rng.uniform(0.5, 0.85)))
        g = rng.uniform(0.87, 1.13)
        gains = [np.asarray(li.color) * li.power * g * rng.uniform(0.95, 1.05) * (1 + rng.normal(0, 0.015, 3))
                 for li in self.lights]
        amb = self.amb_col * g * (1 + rng.normal(0, 0.015, 3))
        img = r.radiance(poses, gains, amb, shade)
        return r.develop(img, rng, 1 + rng.normal(0, 0.01, 3), float(rng.uniform(0.95, 1.05)))


def calibration_images(style: Style, rng: Rng, wide: bool = False) -> tuple[U8, U8, U8, list[Pose], list[Pose]]:
    th = style.thrower
    belly = th.calibration(rng, True, wide=wide)
    back = th.calibration(rng, False, belly, wide=wide)
    return style.render([], rng), style.render(belly, rng), style.render(back, rng), belly, back


def run_style(args: Job) -> list[dict[str, Any]]:
    from bench.foreign_scenes import (calibrate_as_referee, mat_share, read_throw, referee_calibration, retake_belly,
                                      settle_outline)
    seed, throws, dump, learn = args
    style = Style(seed)
    rng = np.random.default_rng(seed + 11)
    empty, belly, back, _, _ = calibration_images(style, rng)
    cal, cal_mode, cal_error = calibrate_as_referee(empty, belly, back, style.taps())
    first_mode, retake = cal_mode, False
    if cal is None:  # as the refusal says: lay the sticks well apart and retake the two pictures
        retake = True
        _, belly, back, _, _ = calibration_images(style, rng, wide=True)
        cal, mode2, err2 = calibrate_as_referee(empty, belly, back, style.taps())
        if cal is not None:
            cal_mode, cal_error = mode2, cal_error + " || retaken: " + (err2 or "ok")
    # the outline the reader found, before any taps
    cover, excess = (float("nan"), float("nan")) if cal is None else mat_share(style, list(cal.mat_polygon))
    cal, looked = settle_outline(cal, empty, belly, back, style.taps(), style.mat_polygon_image())
    cal_mode = looked or cal_mode
    lay = np.random.default_rng(seed + 13)  # the referee's retakes of the 배 picture for the mark
    cal, belly, belly_retakes = retake_belly(cal, belly, lambda: style.render(
        style.thrower.calibration(lay, True, wide=retake), lay),
        lambda picture: referee_calibration(style, empty, picture, back))
    d = Path(dump) if dump else None
    if d is not None:
        d.mkdir(parents=True, exist_ok=True)
        (d / f"s{seed}_style.txt").write_text(style.describe() + f"\ncal={cal_mode} {cal_error}\n")
        if first_mode != "auto":
            for name, img in (("empty", empty), ("belly", belly), ("back", back)):
                cv2.imwrite(str(d / f"s{seed}_calib_{name}.png"), img)
    out: list[dict[str, Any]] = []
    for t in range(throws):
        case = CASES[t % len(CASES)]
        poses, truth = style.thrower.throw(rng, case)
        people = bool(rng.random() < 0.15)
        image = style.render(poses, rng, people=people)
        rec: dict[str, Any] = {"style": seed, "throw": t, "case": case, "truth": truth.result,
                               "faces": truth.faces, "cal_mode": cal_mode, "cal_error": cal_error,
                               "mat_cover": cover, "mat_excess": excess, "band": style.band > 0,
                               "look": style.describe(), "lean": any(p.leaning_on >= 0 for p in poses), "person_shadow": people,
                               "cal_first": first_mode, "retake": retake, "belly_retakes": belly_retakes,
                               "true_sticks": _true_sticks(style, poses)}
        rec, cal = read_throw(rec, image, cal, dump, learn)
        out.append(rec)
    return out


def _true_sticks(style: Style, poses: list[Pose]) -> list[tuple[str, int, int]]:
    """Each stick's true face and the image position of its centre (px), for matching readings."""
    uv = style.cam.project(np.array([p.center for p in poses], np.float64))
    return [("배" if p.belly_up else "등", int(round(float(u))), int(round(float(v))))
            for p, (u, v) in zip(poses, uv[:, :2])]


def collect(n_styles: int, throws: int, seed: int, dump: str | None = None, workers: int = 2,
            learn: bool = True) -> list[dict[str, Any]]:
    from bench.foreign_scenes import collect_styles
    return collect_styles(run_style, [seed * 1000 + 500 + i for i in range(n_styles)], throws, dump, workers, learn)


def extra_lines(records: list[dict[str, Any]]) -> list[str]:
    """What bench/foreign_scenes's report does not show: retakes, and the held-out scene kinds."""
    from collections import Counter
    styles = {r["style"]: r for r in records}
    first = Counter(r["cal_first"] for r in styles.values())
    retaken = [r for r in styles.values() if r["retake"]]
    lines = [f"first calibration attempt: auto {first['auto']}, outline tapped {first['polygon']}, failed "
             f"{first['failed']}; after laying the sticks >= 10 cm apart and retaking: "
             f"{sum(r['cal_mode'] != 'failed' for r in retaken)} of {len(retaken)} calibrated"]
    for name, key in (("bystander shadow", "person_shadow"), ("a stick leaning on another", "lean")):
        rs = [r for r in records if r[key] and r["read"] is not None]
        un = [r for r in rs if not r["flagged"]]
        ok = sum(r["read"] == r["truth"] for r in un)
        if rs:
            lines.append(f"throws with {name}: {len(rs)} read, {len(rs) - len(un)} flagged, "
                         f"{len(un) - ok} unflagged wrong")
    return lines


def main(argv: list[str] | None = None) -> int:
    from bench.foreign_scenes import run_cli
    return run_cli(argv, __doc__, collect, extra_lines)


if __name__ == "__main__":
    raise SystemExit(main())
