"""Finding the 멍석's outline: its border band is mat; a doubtful outline is refused; a
stick on the band is on the mat; a stick just off the mat is 낙 or flagged, never a
silent playable result."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from bench.foreign_scenes import Stick, Style, Thrower
from yut_cam.vision import functional as F
from yut_cam.vision.calibration import calibrate
from yut_cam.vision.errors import CalibrationError
from yut_cam.vision.matfind import MatNotFound, find_mat, locate_mat, tapped_outline
from yut_cam.vision.reader import edge_call, read_image

OUTER = [(300.0, 90.0), (980.0, 110.0), (960.0, 640.0), (320.0, 620.0)]


def _shares(found: list[tuple[float, float]], truth: list[tuple[float, float]],
            shape: tuple[int, int]) -> tuple[float, float]:
    t = F.polygon_mask(shape, truth) > 0
    f = F.polygon_mask(shape, found) > 0
    return float((t & f).sum() / t.sum()), float((f & ~t).sum() / t.sum())


def _banded(band_bgr: tuple[int, int, int], floor_bgr: tuple[int, int, int], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = np.zeros((720, 1280, 3), np.float64)
    img[:] = floor_bgr
    img[F.polygon_mask((720, 1280), OUTER) > 0] = band_bgr
    c = np.mean(OUTER, axis=0)
    inner = [(c[0] + (x - c[0]) * 0.9, c[1] + (y - c[1]) * 0.88) for x, y in OUTER]
    img[F.polygon_mask((720, 1280), inner) > 0] = (95, 170, 205)  # straw
    img += rng.normal(0, 4, img.shape)
    return np.asarray(cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (0, 0), 1.0), np.uint8)


@pytest.mark.parametrize("band, floor", [
    ((40, 30, 120), (150, 150, 150)),  # dark red rim on grey tiles
    ((30, 30, 35), (120, 140, 160)),  # black rim on a light floor
    ((45, 75, 110), (80, 110, 140)),  # brown rim on a lighter brown floor, close in colour
])
def test_outline_includes_the_border_band(band: tuple[int, int, int], floor: tuple[int, int, int]) -> None:
    img = _banded(band, floor, seed=3)
    try:
        found = find_mat(img)
    except MatNotFound:
        # a rim exactly the floor's colour may be refused, never cut off silently
        assert abs(band[0] - floor[0]) < 20
        return
    cover, excess = _shares(found, OUTER, (720, 1280))
    assert cover > 0.98 and excess < 0.03, (cover, excess)


def test_refuses_a_mat_like_the_floor_with_a_clear_message() -> None:
    rng = np.random.default_rng(4)
    img = np.clip(np.full((720, 1280, 3), (100, 160, 150), np.float64) + rng.normal(0, 4, (720, 1280, 3)), 0, 255)
    img[F.polygon_mask((720, 1280), OUTER) > 0] += (4, 2, 3)  # barely another shade
    with pytest.raises(MatNotFound, match="runs out of the picture|not a region"):
        find_mat(img.astype(np.uint8))
    with pytest.raises(CalibrationError, match="give its corners with --mat"):
        calibrate(img.astype(np.uint8), img.astype(np.uint8), img.astype(np.uint8))


@pytest.mark.parametrize("seed", [11006, 11008, 11017, 11028, 11030, 11032, 3002, 3014, 3023])
def test_foreign_mats_found_well_or_refused(seed: int) -> None:
    """Scenes of the independent renderer (border bands, floors like the mat): an outline
    that is accepted covers the whole mat and little floor."""
    style = Style(seed)
    empty = style.render([], np.random.default_rng(seed + 7))
    try:
        found = find_mat(empty)
    except MatNotFound:
        return
    cover, excess = _shares(found, style.mat_polygon_image(), (style.size[1], style.size[0]))
    assert cover > 0.97 and excess < 0.03, (cover, excess)


@pytest.mark.parametrize("venue", [26514, 26518, 1513])
def test_a_pool_of_lamp_light_around_the_mat_is_floor(venue: int) -> None:
    """Held-out venues under lamps: the floor around a round mat lies in a pool of light that
    differs from the unlit floor at the picture's border as much as a border band would, and
    its rim is round, so the outline took it in (26514: 47% of the mat's area more, and a stick
    on the lit floor was read on the mat, 낙 missed). It fades out slowly, where a mat's edge is
    a step: the outline found is the mat's own, or none."""
    from bench.held_out_scenes import Style as HeldOut, calibration_images

    style = HeldOut(venue)
    empty = calibration_images(style, np.random.default_rng(venue + 11))[0]
    try:
        found = find_mat(empty)
    except MatNotFound as exc:
        assert "slope, not a step" in str(exc)
        return
    cover, excess = _shares(found, style.mat_polygon_image(), (style.size[1], style.size[0]))
    assert cover > 0.97 and excess < 0.03, (cover, excess)


def _world(style: Style, u: float, v: float) -> tuple[float, float]:
    c, s = math.cos(style.mat_yaw), math.sin(style.mat_yaw)
    return u * c - v * s, u * s + v * c


@pytest.fixture(scope="module")
def banded() -> tuple[Style, object]:
    style = Style(11032)  # a 10 cm striped rim, found with the rim
    rng = np.random.default_rng(5)
    th = Thrower(style)
    empty = style.render([], rng)
    cal = calibrate(empty, style.render(th.calibration(rng, True), rng), style.render(th.calibration(rng, False), rng))
    return style, cal


def test_stick_lying_only_on_the_band_is_on_the_mat(banded: tuple[Style, object]) -> None:
    style, cal = banded
    th = Thrower(style)
    rng = np.random.default_rng(9)
    u = style.mat_w / 2 - style.band / 2  # along the right-hand rim, wholly on it
    x, y = _world(style, u, 0.0)
    on_band = Stick(1, x, y, style.mat_yaw + math.pi / 2, False)
    assert th.depth(on_band)[1] < style.band and th.depth(on_band)[0] > 0
    others = [th.free(rng, i, i == 0, [on_band], min_gap=6.0, inset=style.band + 6) for i in (0, 2, 3)]
    reading = read_image(style.render([others[0], on_band, others[1], others[2]], rng), cal)  # type: ignore[arg-type]
    assert reading.result != "낙" or reading.needs_referee
    assert all(st.on_mat for st in reading.sticks)


def test_band_taken_past_a_floor_seam_widens_the_doubt() -> None:
    """Venue 2006: plank seams beside a banded mat; the outline is taken to a seam beyond
    the band (about 12 px too far out), so the mat may end that much inside it."""
    style = Style(2006)
    outline = locate_mat(style.render([], np.random.default_rng(2006 + 7)))
    _, excess = _shares(outline.polygon, style.mat_polygon_image(), (style.size[1], style.size[0]))
    assert excess > 0.005  # the overshoot this test is about is still there
    assert outline.doubt_in >= 10.0 and outline.doubt_out < outline.doubt_in


def test_floor_tiles_lined_up_with_the_mat_leave_its_edge_unsure() -> None:
    """Independent venue 48018: a bare mat on a tiled floor whose grout lines run beside
    every side at one width, so they look like a border band's outer edge. The outline is
    taken out to them (the ring of tiles is a third of the mat's area), but the ring is of
    the floor's colour: the mat may end at its inner edge, so calibration asks for the
    outline to be tapped and a stick lying wholly on the tiles is never read as on the mat."""
    style = Style(48018)
    rng = np.random.default_rng(48018 + 7)
    th = Thrower(style)
    empty = style.render([], rng)
    cal = calibrate(empty, style.render(th.calibration(rng, True), rng), style.render(th.calibration(rng, False), rng))
    _, excess = _shares(list(cal.mat_polygon), style.mat_polygon_image(), (style.size[1], style.size[0]))
    assert excess > 0.2  # the ring of tiles this test is about is still taken in
    assert cal.mat_unsure and cal.mat_doubt[0] > 3.0 * cal.stick_width
    x, y = _world(style, style.mat_w / 2 + 6.0, 0.0)  # on the tiles beside the right side
    off = Stick(1, x, y, style.mat_yaw + math.pi / 2, True)
    assert th.depth(off)[1] < -2.0
    others = [th.free(rng, i, False, [off], min_gap=6.0, inset=8.0) for i in (0, 2, 3)]
    reading = read_image(style.render([others[0], off, others[1], others[2]], rng), cal)  # type: ignore[arg-type]
    assert len(reading.sticks) == 4
    assert reading.needs_referee or reading.result == "낙", reading


def _faint_scene(seed: int, band: str, floor_light: str = "even") -> np.ndarray:
    """A straw mat inside OUTER's inner 88-90% on a mottled grey floor; the rim between is
    the floor's colour but smooth (``band="smooth"``), a shade lighter (``"lighter"``, or
    ``"lighter-left"``: only left of the mat's middle, as a low sun from the left shows it)
    or floor (``"none"``); the floor's light even or falling off away from the mat."""
    rng = np.random.default_rng(seed)
    h, w = 720, 1280
    mottle = cv2.GaussianBlur(rng.normal(0, 1, (h, w)), (0, 0), 2.0)
    img = np.zeros((h, w, 3), np.float64)
    img[:] = (150, 140, 145)
    img += (mottle / mottle.std() * 9.0)[..., None]
    if floor_light == "falling":
        yy, xx = np.mgrid[0:h, 0:w]
        img *= (1.25 - 0.5 * np.hypot(xx - 640, yy - 365) / 700.0)[..., None]
    rim = F.polygon_mask((h, w), OUTER) > 0
    if band == "smooth":
        img[rim] = (150, 140, 145)
    elif band == "lighter":
        img[rim] += (6, 6, 6)
    elif band == "lighter-left":
        img[rim & (np.mgrid[0:h, 0:w][1] < 640)] += (6, 6, 6)
    c = np.mean(OUTER, axis=0)
    inner = [(c[0] + (x - c[0]) * 0.9, c[1] + (y - c[1]) * 0.88) for x, y in OUTER]
    img[F.polygon_mask((h, w), inner) > 0] = (95, 170, 205)
    img += rng.normal(0, 2, img.shape)
    return np.asarray(cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (0, 0), 1.0), np.uint8)


@pytest.mark.parametrize("band", ["smooth", "lighter", "lighter-left"])
def test_a_rim_almost_like_the_floor_widens_the_doubt_beyond_the_outline(band: str) -> None:
    """A rim the floor test cannot tell from the floor (outline found at the straw's edge):
    a stick on it must not be called 낙 by itself, so the mat may end out at its edge."""
    outline = locate_mat(_faint_scene(7, band))
    cover, _ = _shares(outline.polygon, OUTER, (720, 1280))
    assert cover < 0.95  # the rim itself is not found (the case this is about)
    rim = 0.05 * 680  # the rim's width (px) along the left and right sides
    assert outline.doubt_out >= 0.8 * rim, outline.doubt_out


@pytest.mark.parametrize("floor_light", ["even", "falling"])
def test_a_floor_without_a_rim_adds_no_doubt(floor_light: str) -> None:
    outline = locate_mat(_faint_scene(8, "none", floor_light))
    assert outline.doubt_out <= 6.0, outline.doubt_out


@pytest.mark.parametrize("seed, off, side", [(11017, 2.5, "left"), (11030, 2.5, "left"), (11032, 3.0, "left"),
                                             (11017, 6.0, "left"), (2006, 1.5, "bottom"), (2006, 3.0, "bottom")])
def test_stick_just_off_the_mat_is_never_a_silent_playable_result(seed: int, off: float, side: str) -> None:
    style = Style(seed)
    rng = np.random.default_rng(seed + 7)
    th = Thrower(style)
    empty = style.render([], rng)
    belly, back = style.render(th.calibration(rng, True), rng), style.render(th.calibration(rng, False), rng)
    try:
        cal = calibrate(empty, belly, back)
    except CalibrationError:
        cal = calibrate(empty, belly, back, mat_polygon=style.mat_polygon_image())
    if side == "left":  # beside the left edge, parallel to it
        x, y = _world(style, -style.mat_w / 2 - off - style.width / 2, 10.0)
        out = Stick(2, x, y, style.mat_yaw + math.pi / 2, True)
    else:  # beside the bottom edge (image), parallel to it
        x, y = _world(style, 10.0, style.mat_h / 2 + off + style.width / 2)
        out = Stick(2, x, y, style.mat_yaw, True)
    assert th.depth(out)[1] < -off + 0.1
    others = [th.free(rng, i, False, [out], min_gap=6.0, inset=12.0) for i in (0, 1, 3)]
    reading = read_image(style.render(others[:2] + [out] + others[2:], rng), cal)
    assert reading.result == "낙" or reading.needs_referee, reading.to_dict()


# a 12 px stick, an outline the reader found, trusted to 4 px either way: a box may reach
# 6 px past the stick (half a width); outside, a border band like the floor may go on past
# the outline, so a stick is surely off only 6 px (half a width) beyond the outline's doubt
FOUND = [
    (30.0, 30.0, False, ""),  # well inside
    (9.0, 9.0, False, "at the mat's edge (9 px inside"),  # the box may be 6 px too deep, the outline 4
    (10.5, 10.5, False, ""),
    (0.0, 0.0, False, "at the mat's edge (0 px inside"),
    (-3.0, -3.0, False, "just off the mat (3 px from"),
    (-9.5, -9.5, False, "just off the mat (10 px from"),  # on a band the outline left out?
    (-10.5, -10.5, True, ""),
    (-10.5, -2.0, False, "just off the mat (10 px from"),  # seen in part: its hidden end may touch
    (-40.0, -20.0, True, ""),
]
# the same stick at an outline the referee tapped (taken as exact): a whole stick's box is
# not more than a fifth of a width (2.4 px) short of it
TAPPED = [
    (5.0, 5.0, False, "at the mat's edge (5 px inside"),
    (6.5, 6.5, False, ""),
    (-2.0, -2.0, False, "just off the mat (2 px from"),
    (-3.0, -3.0, True, ""),
    (-3.0, -1.0, False, "just off the mat (3 px from"),
]


@pytest.mark.parametrize("doubt, depth, reach, off, asks", [((4.0, 4.0), *case) for case in FOUND]
                         + [((0.0, 0.0), *case) for case in TAPPED])
def test_edge_call(doubt: tuple[float, float], depth: float, reach: float, off: bool, asks: str) -> None:
    surely_off, said = edge_call(depth, reach, 12.0, doubt)
    assert surely_off is off
    assert said.startswith(asks) and bool(said) == bool(asks), said


def _lit_pool_scene(lit: float, seed: int = 3) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """A round mat (a straw middle, a dark green cloth rim) on dark asphalt, and a lamp
    beside it lighting the floor along its right-hand side, the light falling off over a
    few cm; the mat's true outline."""
    rng = np.random.default_rng(seed)
    h, w = 720, 1280
    img = np.zeros((h, w, 3), np.float64)
    img[:] = (70, 72, 78)
    img += (cv2.GaussianBlur(rng.normal(0, 1, (h, w)), (0, 0), 1.5) * 6)[..., None]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    cx, cy, a, b = 640.0, 360.0, 250.0, 235.0
    r = np.hypot((xx - cx) / a, (yy - cy) / b)
    beyond = np.clip((r - 1.0) * b, 0.0, None)  # px outside the mat, about
    toward = np.clip(np.cos(np.arctan2(yy - cy, xx - cx) + 0.4), 0.0, None) ** 2
    img *= (1.0 + lit * np.exp(-beyond / 22.0) * toward)[..., None]
    img[r <= 1.0] = (60, 120, 80)
    img[r <= 0.9] = (120, 190, 170)
    img += rng.normal(0, 2, img.shape)
    t = np.linspace(0, 2 * np.pi, 96, endpoint=False)
    truth = [(cx + a * math.cos(v), cy + b * math.sin(v)) for v in t]
    return np.asarray(cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (0, 0), 1.0), np.uint8), truth


def test_floor_lit_beside_the_mat_is_left_out_of_its_outline() -> None:
    """The floor a lamp lights along one side of the mat differs from the floor at the
    picture's border, so the region unlike the floor takes it in and the ellipse fitted to it
    reaches over it (3.6% of the mat's area, before the outline was pulled in to the mat's
    edge): a stick lying there, off the mat, would be read on it."""
    img, truth = _lit_pool_scene(0.35)
    cover, excess = _shares(find_mat(img), truth, (720, 1280))
    assert cover > 0.99 and excess < 0.01, (cover, excess)


def test_held_out_venue_30539_lit_floor_beside_a_round_mat() -> None:
    """Held-out seed 30, venue 30539: a round mat under lamps, its outline 8-9 px (work width)
    past its edge along a quarter over the lit floor (6.7% of the mat's area), and a stick
    lying there off the mat read on it: 낙 read 걸, unasked. The outline now keeps to the mat,
    and that throw is 낙 or asked about."""
    from bench.held_out_scenes import Style as HeldOut, calibration_images, run_style

    style = HeldOut(30539)
    empty = calibration_images(style, np.random.default_rng(30539 + 11))[0]
    cover, excess = _shares(find_mat(empty), style.mat_polygon_image(), (style.size[1], style.size[0]))
    assert cover > 0.99 and excess < 0.01, (cover, excess)
    nak = run_style((30539, 4, None, True))[3]
    assert nak["truth"] == "낙"
    assert nak["read"] == "낙" or nak["flagged"], nak["read"]


def _half_lit_band_scene(dark: float, seed: int) -> np.ndarray:
    """A straw mat inside OUTER's inner 88-90% on grey tiles; its rim is ``dark`` darker than
    the floor toward the top left and, lit by a lamp toward the bottom right, the floor's own
    grey there."""
    rng = np.random.default_rng(seed)
    h, w = 720, 1280
    img = np.zeros((h, w, 3), np.float64)
    img[:] = (150, 150, 150)
    img += (cv2.GaussianBlur(rng.normal(0, 1, (h, w)), (0, 0), 1.5) * 5)[..., None]
    yy, xx = np.mgrid[0:h, 0:w]
    c = np.mean(OUTER, axis=0)
    shaded = (xx - c[0]) / 680 + (yy - c[1]) / 530 <= 0
    img[(F.polygon_mask((h, w), OUTER) > 0) & shaded] -= dark
    inner = [(c[0] + (x - c[0]) * 0.9, c[1] + (y - c[1]) * 0.88) for x, y in OUTER]
    img[F.polygon_mask((h, w), inner) > 0] = (95, 170, 205)
    img += rng.normal(0, 2, img.shape)
    return np.asarray(cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (0, 0), 1.0), np.uint8)


@pytest.mark.parametrize("dark, seed", [(18, 3), (25, 4), (35, 3)])
def test_a_band_taken_in_along_some_sides_only_widens_the_doubt(dark: float, seed: int) -> None:
    """The outline takes the rim in along the sides where it is darker than the floor and
    stops at the straw along the lit ones: the mat may end a rim's width beyond it there, so
    a stick lying on the lit rim is asked about, not read 낙 by itself."""
    outline = locate_mat(_half_lit_band_scene(dark, seed))
    cover, _ = _shares(outline.polygon, OUTER, (720, 1280))
    assert cover < 0.95  # the rim is left out along the lit sides (the case this is about)
    rim = 0.05 * 680  # the rim's width (px) along the left and right sides
    assert outline.doubt_out >= 0.9 * rim, outline.doubt_out


def test_held_out_venue_30521_band_left_out_along_two_sides() -> None:
    """Held-out seed 30, venue 30521: a floor-like band taken in along two sides of a square
    mat and left out along the two a lamp lights; three sticks lying on the band there were
    read 낙 unasked. They are asked about now."""
    from bench.held_out_scenes import run_style

    for rec in run_style((30521, 15, None, True)):
        if rec["truth"] != "낙" and rec["read"] == "낙":
            assert rec["flagged"], (rec["throw"], rec["reasons"])


def _mat_picture(outline: np.ndarray, seed: int) -> np.ndarray:
    """A straw mat of ``outline`` on a grey floor, both with a little texture and noise."""
    rng = np.random.default_rng(seed)
    img = np.full((720, 1280, 3), (120, 125, 130), np.float64)
    cv2.fillPoly(img, [np.round(outline).astype(np.int32)], (70, 150, 190))
    img += cv2.GaussianBlur(rng.normal(0, 6, img.shape), (0, 0), 1.0)
    return np.clip(img, 0, 255).astype(np.uint8)


def _rim_gap(outline: list[tuple[float, float]], truth: np.ndarray) -> float:
    """How far (px) the true rim strays from ``outline`` at most."""
    from yut_cam.vision.stickfit import signed_distance

    return float(np.abs(signed_distance(truth, np.asarray(outline, np.float32).reshape(-1, 1, 2))).max())


@pytest.mark.parametrize("taps", [6, 8, 12])
def test_taps_round_a_round_mat_give_its_ellipse(taps: int) -> None:
    """A referee's taps round a round mat's rim (each off by 2 px): the outline follows the rim
    between them, within a tap's error of fitting five numbers to them, where the polygon
    through them would cut inside it (a stick there, 낙) three times as far or more."""
    rng = np.random.default_rng(taps)
    t = np.linspace(0, 2 * np.pi, 720, endpoint=False)
    rim = np.stack([640 + 330 * np.cos(t), 360 + 290 * np.sin(t)], axis=1)
    picture = _mat_picture(rim, taps)
    a = np.linspace(0, 2 * np.pi, taps, endpoint=False) + rng.uniform(0, 1)
    tapped = np.stack([640 + 330 * np.cos(a), 360 + 290 * np.sin(a)], axis=1) + rng.normal(0, 2, (taps, 2))
    order = rng.permutation(taps)  # in any order
    outline = tapped_outline([(float(x), float(y)) for x, y in tapped[order]], picture)
    polygon_gap = _rim_gap([(float(x), float(y)) for x, y in tapped], rim)  # taps in order round it
    assert len(outline) > taps and _rim_gap(outline, rim) < min(6.0, polygon_gap / 3.0), polygon_gap


@pytest.mark.parametrize("sides", [6, 8])
def test_taps_on_the_corners_of_a_many_sided_mat_keep_its_sides(sides: int) -> None:
    """The corners of a hexagonal or octagonal mat lie on a circle too, but its edge runs
    straight between them: the outline is the polygon through the taps."""
    a = np.linspace(0, 2 * np.pi, sides, endpoint=False) + 0.2
    corners = np.stack([640 + 320 * np.cos(a), 360 + 300 * np.sin(a)], axis=1)
    picture = _mat_picture(corners, sides)
    taps = [(float(x), float(y)) for x, y in corners]
    assert tapped_outline(taps, picture) == taps


def test_taps_on_a_square_mat_keep_its_corners() -> None:
    """Four corners, or the corners and two points along its sides: the polygon as tapped."""
    quad = [(300.0, 80.0), (980.0, 90.0), (990.0, 650.0), (290.0, 640.0)]
    picture = _mat_picture(np.asarray(quad), 3)
    assert tapped_outline(quad, picture) == quad
    six = quad[:2] + [(985.0, 370.0)] + quad[2:] + [(295.0, 360.0)]
    assert tapped_outline(six, picture) == six


@pytest.mark.parametrize("taps", [6, 8])
def test_taps_round_a_round_mat_with_a_band_like_the_floor_give_its_ellipse(taps: int) -> None:
    """A round mat whose border band (a twelfth of its radius) is nearly the floor's colour:
    the taps on its rim meet no colour step, and the straight sides between them cross the
    inner rim where the strong step is, so they looked like the mat's edge. An octagon from
    eight taps left the band's sticks 낙 (fresh held-out venue 33508, two false 낙 in 15
    throws). The inner rim runs parallel to the ellipse, not to the sides."""
    rng = np.random.default_rng(taps)
    t = np.linspace(0, 2 * np.pi, 720, endpoint=False)
    rim = np.stack([640 + 330 * np.cos(t), 360 + 300 * np.sin(t)], axis=1)
    inner = np.stack([640 + 302 * np.cos(t), 360 + 275 * np.sin(t)], axis=1)
    img = np.full((720, 1280, 3), (120, 125, 130), np.float64)
    cv2.fillPoly(img, [np.round(rim).astype(np.int32)], (126, 131, 134))
    cv2.fillPoly(img, [np.round(inner).astype(np.int32)], (170, 110, 50))
    img += cv2.GaussianBlur(rng.normal(0, 6, img.shape), (0, 0), 1.0)
    picture = np.clip(img, 0, 255).astype(np.uint8)
    a = np.linspace(0, 2 * np.pi, taps, endpoint=False) + rng.uniform(0, 1)
    tapped = np.stack([640 + 330 * np.cos(a), 360 + 300 * np.sin(a)], axis=1) + rng.normal(0, 2, (taps, 2))
    outline = tapped_outline([(float(x), float(y)) for x, y in tapped], picture)
    assert len(outline) > taps and _rim_gap(outline, rim) < 6.0


def _disc_lab(band: bool, seed: int) -> np.ndarray:
    """A round blue mat (radius 150 px at the work width, 640) on a grey floor, as
    :func:`locate_mat` sees it; with ``band`` its outer 15 px are a band almost the floor's
    colour."""
    rng = np.random.default_rng(seed)
    img = np.full((360, 640, 3), (120, 125, 130), np.float64)
    cv2.circle(img, (320, 180), 150, (126, 131, 134) if band else (170, 110, 50), -1, cv2.LINE_AA)
    if band:
        cv2.circle(img, (320, 180), 135, (170, 110, 50), -1, cv2.LINE_AA)
    img += cv2.GaussianBlur(rng.normal(0, 6, img.shape), (0, 0), 1.0)
    small = np.clip(img, 0, 255).astype(np.uint8)
    return np.asarray(cv2.cvtColor(cv2.GaussianBlur(small, (0, 0), 1.0), cv2.COLOR_BGR2LAB), np.float32)


@pytest.mark.parametrize("band, shift, inside, outside", [
    (False, 0, 0, 0),  # on the mat's edge all round
    (False, 12, 12, 12),  # 12 px low: above, the edge lies inside it; below, outside
    (False, 20, 20, 20),
    (True, 0, 0, 0),  # on a band's faint outer edge, its inner edge a band's width in all round
])
def test_an_outline_on_no_edge_is_doubted_to_the_nearest_edge(band: bool, shift: int, inside: float,
                                                              outside: float) -> None:
    """Where a found outline crosses the mat's inside or the floor, away from any colour step,
    the mat's edge may lie at the nearest step: its doubt reaches there (fresh held-out venue
    33519: an ellipse fitted to a round mat's lit part lay well inside the mat at the bottom,
    with a doubt of 4 px, and a stick lying there was read 낙 unasked)."""
    from yut_cam.vision.matfind import _ellipse, _off_edge

    t = np.linspace(0, 2 * np.pi, 200, endpoint=False)
    circle = np.stack([320 + 150 * np.cos(t), 180 + shift + 150 * np.sin(t)], axis=1).astype(np.float32)
    found_in, found_out = _off_edge(_disc_lab(band, seed=shift + 1), _ellipse(circle, 48))
    assert abs(found_in - inside) <= 3 and abs(found_out - outside) <= 3, (found_in, found_out)


def test_fresh_held_out_venue_33519_outline_inside_a_round_mat() -> None:
    """Held-out seed 33, venue 33519: lamps leave the bottom of a round mat and its border band
    dark, and the outline found lay across the mat there with a doubt of 4 px: throw 2's
    stick on the band was read 낙 unasked. Calibration now says the edge is unsure, and the
    referee's taps give the mat."""
    from bench.held_out_scenes import run_style

    recs = run_style((33519, 3, None, True))
    assert recs[0]["cal_mode"] == "tapped"
    assert [r["read"] for r in recs] == [r["truth"] for r in recs] or all(
        r["flagged"] for r in recs if r["read"] != r["truth"])
