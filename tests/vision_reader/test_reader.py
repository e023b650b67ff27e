"""Reading stills: exact results on the tests' own simple scenes, light and size changes,
bad images; and accuracy over seeded batches from the product's scene generator."""

from __future__ import annotations

import dataclasses
import math
import re
from collections import Counter

import cv2
import numpy as np
import pytest

from tests.vision_reader import scenes as S
from yut_cam.vision.annotate import annotate
from yut_cam.vision.calibration import Calibration, calibrate
from yut_cam.vision.calmodel import MARK_FAINT, MARK_SMALL
from yut_cam.vision.errors import ImageError
from yut_cam.vision.reasons import korean
from yut_cam.vision.reader import read_image


@pytest.fixture(scope="module")
def cal() -> Calibration:
    return calibrate(*S.calibration_set())


SIMPLE = [
    ("등등등등", None, "모"),
    ("배등등등", None, "도"),
    ("배등등등", 0, "빽도"),
    ("등배등등", 0, "도"),  # the marked stick shows its round side
    ("배배등등", 1, "개"),
    ("배배배등", 2, "걸"),
    ("배배배배", 3, "윷"),
]


@pytest.mark.parametrize(("faces", "marked", "expected"), SIMPLE)
@pytest.mark.parametrize("seed", [0, 1])
def test_simple_scenes(cal: Calibration, faces: str, marked: int | None, expected: str, seed: int) -> None:
    img = S.render(S.four(faces, marked, seed=seed), seed=seed + 10)
    r = read_image(img, cal)
    assert (r.result, r.needs_referee) == (expected, False), r.reasons
    assert len(r.sticks) == 4 and all(s.on_mat for s in r.sticks)
    assert r.confidence > 0.8


@pytest.mark.parametrize("darker", [2.2, 0.5])
def test_no_mark_seen_on_a_stick_far_darker_or_lighter_than_the_marked_one_is_asked_about(
        cal: Calibration, darker: float) -> None:
    # the mark's look is scaled with its stick's lightness only within 0.7..1.4: beyond that
    # "no mark" is not sure (a stick in deep shade hid its mark on held-out dev seed 2)
    img = S.render(S.four("배등등등", None, seed=4), seed=14)
    plain = read_image(img, cal)
    assert (plain.result, plain.needs_referee) == ("도", False), plain.reasons
    assert cal.mark is not None and cal.mark.body_lab is not None
    lightness, a, b = cal.mark.body_lab
    odd = dataclasses.replace(cal, mark=dataclasses.replace(cal.mark, body_lab=(lightness * darker, a, b)))
    r = read_image(img, odd)
    assert r.result == "도" and r.needs_referee
    assert any(why.startswith("빽도 mark unsure: stick") for why in r.reasons), r.reasons
    assert r.alternatives == ("빽도",)


@pytest.mark.parametrize(("shown", "faces", "marked", "asked"), [
    # a mark that covered little of its end at calibration (a faint ring) is no surer than a
    # speck of shade at a plain stick's end (held-out dev seed 1: 도 read 빽도 unasked twice)
    (0.9 * MARK_FAINT, "배등등등", 0, "빽도 mark faint at calibration (14% of its end): is stick "),
    # ... and, small as it is, it may not show at all: a clean end is no sign of 도 (held-out
    # dev seeds 32, 35, 36: 빽도 read 도 unasked)
    (0.9 * MARK_FAINT, "배등등등", None, "빽도 mark small at calibration (14% of its end): is stick "),
    (0.9 * MARK_SMALL, "배등등등", None, "빽도 mark small at calibration (18% of its end): is stick "),
    (0.9 * MARK_SMALL, "배등등등", 0, ""),  # a small mark read plainly: 빽도 unasked
    (0.9 * MARK_FAINT, "배배등등", 0, ""),  # two sticks 배 up: the mark does not matter
    (0.9 * MARK_FAINT, "배배등등", None, ""),
])
def test_a_mark_faint_or_small_at_calibration_asks_what_it_may_not_show(
        cal: Calibration, shown: float, faces: str, marked: int | None, asked: str) -> None:
    img = S.render(S.four(faces, marked, seed=5), seed=15)
    sure = read_image(img, cal)
    assert not sure.needs_referee, sure.reasons
    assert cal.mark is not None and cal.mark.marked_fraction >= MARK_SMALL
    weak = dataclasses.replace(cal, mark=dataclasses.replace(cal.mark, marked_fraction=shown))
    r = read_image(img, weak)
    assert (r.result, r.needs_referee) == (sure.result, bool(asked)), r.reasons
    if asked:
        (why,) = r.reasons
        assert why.startswith(asked), why
        assert r.alternatives == ("도",) if marked is not None else ("빽도",)


@pytest.mark.parametrize(("shown", "warning"), [
    (0.9 * MARK_FAINT, "the 빽도 mark shows faintly (14% of its end): every throw with one stick 배 up will be"),
    (0.9 * MARK_SMALL, "the 빽도 mark shows small (18% of its end): a throw read 도 will be handed to the referee"),
    (MARK_SMALL, ""),
])
def test_a_faint_or_small_mark_is_told_at_calibration(cal: Calibration, shown: float, warning: str) -> None:
    assert cal.mark is not None
    weak = dataclasses.replace(cal, mark=dataclasses.replace(cal.mark, marked_fraction=shown))
    told = [w for w in weak.warnings if w.startswith("the 빽도 mark")]
    if warning:
        assert len(told) == 1 and told[0].startswith(warning), told
    else:
        assert told == []


@pytest.fixture(scope="module")
def unmarked_cal() -> Calibration:
    """Calibrated on a belly picture where no stick shows the 빽도 mark."""
    empty, _, back = S.calibration_set()
    spots = [(400, 250, 20), (800, 230, 100), (420, 500, 160), (850, 520, 60)]
    return calibrate(empty, S.render([S.Stick(x, y, a, "배") for x, y, a in spots], 6), back)


@pytest.mark.parametrize(("faces", "marked", "expected", "asks"), [
    ("배등등등", 0, "도", True),  # the one 배 stick may be the marked one: the referee says
    ("등배등등", None, "도", True),
    ("배배등등", 1, "개", False),  # the mark only matters when one stick is 배 up
    ("등등등등", None, "모", False),
])
def test_without_a_learned_mark_one_stick_up_goes_to_the_referee(
        unmarked_cal: Calibration, faces: str, marked: int | None, expected: str, asks: bool) -> None:
    r = read_image(S.render(S.four(faces, marked, seed=3), seed=9), unmarked_cal)
    assert r.result == expected
    assert r.needs_referee == asks, r.reasons
    assert any("빽도 mark not learned at calibration" in why for why in r.reasons) == asks
    # the console offers the other reading of the one 배 stick beside the camera's
    assert r.alternatives == (("빽도",) if asks else ())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_specks_joined_into_a_large_region_are_not_kept_over_sticks(cal: Calibration, seed: int) -> None:
    """Noise along the rim of a bystander's shadow joins into one ragged region larger than
    a stick: with five or more stick-like regions, the four kept are the ones that fill
    their boxes (the sticks), whatever the ragged one's area."""
    img = S.render(S.four("배배등등", 0, seed=seed), seed=seed + 10).astype(np.int16)
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[300:345, 1040:1100]
    specks = rng.random(ys.shape) < 0.35
    img[ys[specks], xs[specks]] += 45  # light specks on the mat by its right-hand edge
    r = read_image(np.clip(img, 0, 255).astype(np.uint8), cal)
    assert r.result == "개" and r.needs_referee  # read right, and the referee still looks
    assert any("stick-like regions" in x for x in r.reasons)
    assert all(max(p[0] for p in st.box) < 1030 for st in r.sticks)  # none kept from the specks


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(("on_top", "marked", "expected", "asks"), [
    ("배", True, "빽도", False),  # the mark shows on the stick lying across: read it
    ("배", False, "도", False),  # its end shows whole and plain: no mark there
    ("등", True, "도", True),  # the 등 stick covers the mark: the referee says
])
def test_a_mark_beside_a_crossing_stick(cal: Calibration, on_top: str, marked: bool, expected: str,
                                        asks: bool, seed: int) -> None:
    """The one 배 stick's marked end lies across a 등 stick (x = 500). Where the 배 stick is on
    top, its own pixels there are seen, mark and all; where the 등 stick covers the end, the
    mark may be under it."""
    deung = S.Stick(500, 300, 90, "등")
    others = [S.Stick(850, 250, 30, "등"), S.Stick(380, 540, 150, "등")]
    # listed first, a stick's mark is at its left end and it lies under what follows; listed
    # second, the mark is at its right end and it lies on top
    if on_top == "배":
        sticks = [deung, S.Stick(500 - 42 + 16, 300, 0, "배", marked=marked, mark_at=16)]
    else:
        sticks = [S.Stick(500 + 42 - 16, 300, 0, "배", marked=marked, mark_at=16), deung]
    r = read_image(S.render(sticks + others, seed=seed), cal)
    assert (r.result, r.needs_referee) == (expected, asks), r.reasons
    assert any("may be hidden" in x for x in r.reasons) == asks


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("stick_on_it", [False, True])
def test_a_region_larger_than_six_sticks_is_left_out_when_the_sticks_are_elsewhere(
        cal: Calibration, seed: int, stick_on_it: bool) -> None:
    """A dark bag on the mat (a region of 11 sticks' area) is no stick: with all four sticks
    elsewhere it is left out and the throw is read; with one of them lying on it, the bag
    is split as before and the referee looks."""
    sticks = S.four("배배등등", 0, seed=seed)
    if stick_on_it:
        sticks[3] = S.Stick(620, 380, 10, "등")
    img = S.render(sticks, seed=seed + 10).astype(np.int16)
    bag = np.array([70, 60, 50]) + np.random.default_rng(seed).normal(0, 4, (100, 160, 3))
    area = img[330:430, 540:700]
    # the bag lies under the sticks: where a stick shows (the picture differs from one
    # without the fourth stick), it stays
    stick = np.abs(area - S.render(sticks[:3], seed=seed + 10)[330:430, 540:700]).max(axis=2, keepdims=True) > 40
    img[330:430, 540:700] = np.where(stick, area, bag)
    r = read_image(np.clip(img, 0, 255).astype(np.uint8), cal)
    if stick_on_it:
        assert r.needs_referee
    else:
        assert (r.result, r.needs_referee) == ("개", False), r.reasons


def test_light_change_since_calibration(cal: Calibration) -> None:
    # warmer and 25% darker than at calibration
    img = S.render(S.four("배배등등", 0, seed=3), seed=13, gain=(0.65, 0.75, 0.85))
    r = read_image(img, cal)
    assert (r.result, r.needs_referee) == ("개", False), r.reasons


def test_stick_wholly_off_the_mat_is_nak(cal: Calibration) -> None:
    place = [(400, 250, 20), (800, 230, 100), (420, 500, 160), (60, 400, 90)]  # last on the floor
    r = read_image(S.render(S.four("배배등등", seed=4, place=place), seed=14), cal)
    assert r.result == "낙"
    assert [s.on_mat for s in r.sticks].count(False) == 1


@pytest.mark.parametrize("seed", [4, 5])
@pytest.mark.parametrize(("place", "asks"), [
    # a stick at the mat's left edge, one on the floor at the right: 낙 on or off the edge
    ([(400, 250, 20), (800, 230, 100), (136, 400, 90), (1220, 600, 90)], False),
    # a stick at the mat's edge and two on the floor: five stick-like regions, one is no stick,
    # and a stick on the mat may have gone unseen
    ([(400, 250, 20), (800, 230, 100), (136, 400, 90), (1220, 600, 90), (60, 400, 90)], True),
    # two on the mat, one on the floor, one not found: it may lie on the mat unseen
    ([(400, 250, 20), (800, 230, 100), (1220, 600, 90)], True),
])
def test_a_stick_surely_off_the_mat_leaves_nothing_to_ask(cal: Calibration, place: list[tuple[float, float, float]],
                                                         asks: bool, seed: int) -> None:
    """With a stick surely off the mat the throw is 낙 whatever the rest shows: a stick at the
    mat's edge, faces, the mark (the first was asked about before). Unless there are more
    stick-like regions than four, or a stick may be missing from the count: then a stick on
    the mat may have gone unseen, and what lies off it be something else."""
    sticks = S.four("배배등등등"[:len(place)], seed=seed, place=place)
    r = read_image(S.render(sticks, seed=10 + seed), cal)
    assert (r.result, r.needs_referee) == ("낙", asks), r.reasons
    assert bool(r.reasons) == asks


def _box(cx: float, cy: float, share: float = 1.0) -> list[np.ndarray]:
    """The outline (for cv2.fillPoly) of ``share`` of a stick lying level at (cx, cy)."""
    half = share * S.LENGTH / 2
    box = np.array([(cx - half, cy - S.WIDTH / 2), (cx + half, cy - S.WIDTH / 2),
                    (cx + half, cy + S.WIDTH / 2), (cx - half, cy + S.WIDTH / 2)])
    return [np.round(box).astype(np.int32)]


def _fragment(img: np.ndarray, cx: float, cy: float, share: float) -> np.ndarray:
    """``img`` with a stick-coloured piece ``share`` of a stick long lying at (cx, cy)."""
    out = img.copy()
    cv2.fillPoly(out, _box(cx, cy, share), (150, 198, 226))
    return out


@pytest.mark.parametrize(("share", "whole_off", "asks"), [
    (0.55, False, True),  # 낙 would rest on that piece alone: is it a stick?
    (1.0, False, False),  # a whole stick off the mat: 낙
    (0.55, True, False),  # another stick, whole, is off the mat as well: 낙 either way
])
def test_nak_resting_on_a_piece_of_a_stick_is_asked(cal: Calibration, share: float, whole_off: bool,
                                                    asks: bool) -> None:
    # three sticks on the mat, or two and a whole one on the floor at the right
    place = [(400, 250, 20), (800, 230, 100), (1220, 600, 90) if whole_off else (420, 500, 160)]
    sticks = S.four("배배등", seed=4, place=place)
    img = _fragment(S.render(sticks, seed=14), 60, 400, share)  # on the floor, left of the mat
    r = read_image(img, cal)
    assert (r.result, r.needs_referee) == ("낙", asks), r.reasons
    unlike = [x for x in r.reasons if "off the mat but seen only in part" in x]
    assert len(unlike) == asks
    # its face never matters
    assert not any(x.split(": ", 1)[-1].startswith(("face unsure", "seen only in part")) for x in r.reasons)
    assert r.alternatives == ()


def _shade(img: np.ndarray, cx: float, cy: float, dim: float) -> np.ndarray:
    """``img`` with a stick-shaped patch at (cx, cy) darkened to ``dim`` (a piece of a shade)."""
    m = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(m, _box(cx, cy), 255)
    k = 1.0 - (1.0 - dim) * cv2.GaussianBlur(m, (5, 5), 0).astype(np.float32)[..., None] / 255.0
    return np.clip(img.astype(np.float32) * k, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("dim", [0.7, 0.35, 0.2])
def test_nak_resting_on_a_shade_with_a_sticks_outline_is_asked(cal: Calibration, dim: float) -> None:
    """Three sticks on the mat and, on the floor beside it, a stick-shaped piece of shade (of
    the floor's colour, only darker): 낙 would rest on it alone, so the referee is asked
    whether it is a stick (fresh held-out 38503/10: 걸 read 낙 unasked)."""
    sticks = S.four("배배등", seed=4, place=[(400, 250, 20), (800, 230, 100), (420, 500, 160)])
    r = read_image(_shade(S.render(sticks, seed=14), 60, 400, dim), cal)
    assert (r.result, r.needs_referee) == ("낙", True), r.reasons
    (why,) = r.reasons
    assert re.fullmatch(r"stick \d: off the mat and of the floor's colour \(a shade\?\): is it a stick\?"
                        r" \(낙 rests on it\)", why), why
    assert r.alternatives == ()  # the fourth stick unseen: the referee reads the throw


def test_stick_across_the_mat_edge_is_on_the_mat(cal: Calibration) -> None:
    place = [(400, 250, 20), (800, 230, 100), (420, 500, 160), (140, 380, 0)]  # across the left edge
    r = read_image(S.render(S.four("배배등등", seed=5, place=place), seed=15), cal)
    assert r.result == "개"
    assert all(s.on_mat for s in r.sticks)


@pytest.mark.parametrize("seed", [4, 5])
@pytest.mark.parametrize(("where", "expected", "asks"), [
    ("on", "낙", False),  # its face does not matter: another stick is surely off the mat
    ("alone", "개", True),  # its face decides the throw
    ("off", "낙", True),  # 낙 would rest on a region that thin alone
])
def test_a_stick_on_its_edge(cal: Calibration, where: str, expected: str, asks: bool, seed: int) -> None:
    place = [(400, 250, 20), (800, 230, 100), (420, 500, 160),
             (850, 520, 60) if where == "alone" else (60, 400, 90)]  # the last on the floor, or not
    sticks = S.four("배배등등", seed=seed, place=place)
    edge = 3 if where == "off" else 0
    sticks[edge] = dataclasses.replace(sticks[edge], across=0.3)  # its thin side up
    r = read_image(S.render(sticks, seed=10 + seed), cal)
    assert (r.result, r.needs_referee) == (expected, asks), r.reasons
    # the question names the stick on its edge, as the annotated picture numbers it
    x, y = place[edge][:2]
    named = 1 + min(range(len(r.sticks)), key=lambda i: math.dist(np.mean(r.sticks[i].box, axis=0), (x, y)))
    assert (f"stick {named}: stands on its edge (too narrow for its length)" in r.reasons) == asks


def test_touching_sticks_are_split(cal: Calibration) -> None:
    place = [(500, 300, 0), (500, 318, 0), (800, 400, 80), (300, 550, 30)]  # two side by side
    r = read_image(S.render(S.four("배등등등", 0, seed=6, place=place), seed=16), cal)
    assert len(r.sticks) == 4
    assert r.result == "빽도" or r.needs_referee


ROUNDING = (0.35, 0.55)  # a venue whose faces differ only in how round they look (배, 등)


@pytest.fixture(scope="module")
def cal_rounding() -> Calibration:
    return calibrate(*S.calibration_set(rounding=ROUNDING))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("pair", "apart"), [
    ("배등", "배등"),  # the 등 beside a 배 reads 배 on the split band: asked
    ("등배", "배등"),
    ("등등", "배배"),  # both asked
    ("배배", "등등"),  # two 배 read 배 on either band: read unasked
])
def test_a_touching_sticks_face_resting_on_the_band_it_is_read_on_is_asked(
        cal_rounding: Calibration, pair: str, apart: str, seed: int) -> None:
    """Where the faces differ only in how round they look, a stick split out of touching sticks,
    read on a narrower band than calibration's sticks were (to keep its neighbour out), sees
    less of a round face's shading and reads 배 however round it is. Read also across the
    width calibration read, it is plainly 등: its face rests on the band, and is asked about
    (held-out venue 40535: three such 등 read 배 unasked). The throw is 개 every time."""
    def stick(face: str, x: float, y: float, angle: float) -> S.Stick:
        return S.Stick(x, y, angle, face, rounding=ROUNDING[0] if face == "배" else ROUNDING[1])
    place = [(500, 300, 0), (500, 317, 0), (850, 250, 30), (380, 540, 150)]  # the first two side by side
    r = read_image(S.render([stick(f, *p) for f, p in zip(pair + apart, place)], seed=seed), cal_rounding)
    band_doubts = [x for x in r.reasons if re.match(r"stick \d+: face unsure \(it reads", x)]
    assert len(band_doubts) == pair.count("등")
    assert r.needs_referee == ("등" in pair)
    assert "개" in (r.result, *r.alternatives) and (r.result == "개" or r.needs_referee)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_touching_stick_is_asked_about_its_face_once(seed: int) -> None:
    """Read far apart on its two bands and at a low margin on the narrow one, a stick gets one
    question about its face, the one that says why: the console shows each reason as a line."""
    cal = calibrate(*S.calibration_set(rounding=(0.3, 0.6)))
    sticks = [S.Stick(x, y, a, f, rounding=0.3 if f == "배" else 0.6)
              for f, (x, y, a) in zip("배등배등", [(500, 300, 0), (500, 317, 0), (850, 250, 30), (380, 540, 150)])]
    r = read_image(S.render(sticks, seed=seed), cal)
    asked = Counter(m.group(1) for m in (re.match(r"stick (\d+): face unsure", x) for x in r.reasons) if m)
    assert asked and max(asked.values()) == 1
    assert any("across more of its width" in x for x in r.reasons)


def test_sticks_of_a_venue_of_like_faces_lying_apart_are_read_unasked(cal_rounding: Calibration) -> None:
    sticks = [S.Stick(x, y, a, f, rounding=ROUNDING[0] if f == "배" else ROUNDING[1])
              for f, (x, y, a) in zip("배등배등", [(500, 300, 0), (700, 450, 60), (850, 250, 30), (380, 540, 150)])]
    r = read_image(S.render(sticks, seed=1), cal_rounding)
    assert (r.result, r.needs_referee) == ("개", False)


def _box_angle(box: tuple[tuple[float, float], ...]) -> float:
    """The angle (degrees, 0-180) of a stick's box along its longer side."""
    (x0, y0), (x1, y1), (x2, y2) = box[0], box[1], box[2]
    dx, dy = (x1 - x0, y1 - y0) if math.hypot(x1 - x0, y1 - y0) >= math.hypot(x2 - x1, y2 - y1) else (x2 - x1, y2 - y1)
    return math.degrees(math.atan2(dy, dx)) % 180.0


def _crossing(under: str, top: str, turn: float, shift: float) -> list[S.Stick]:
    """A stick of face ``top`` lying across one of face ``under`` (turned ``turn`` degrees from
    it, ``shift`` px along it), and a 등 and a 배 stick apart: 개 either way."""
    return [S.Stick(500, 300, 0, under), S.Stick(500 + shift, 300, turn, top),
            S.Stick(850, 250, 30, "등"), S.Stick(380, 540, 150, "배")]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(("turn", "shift"), [(30, 10), (30, 25), (90, 0), (90, 10)])
def test_a_stick_across_another_hides_it_to_its_rims_and_keeps_the_crossing(
        cal: Calibration, turn: float, shift: float, seed: int) -> None:
    """A 등 stick lies across a 배 stick. Where they cross the pixels are the top stick's: the
    배 stick below is read without them (nor the top stick's rims and shadow beside them), the
    등 stick on top with them (its pattern runs through the crossing). Both faces read
    clearly (read with the other's middle alone left out, the 등 stick read 0.76 and the 배
    stick 0.14 at some of these)."""
    r = read_image(S.render(_crossing("배", "등", turn, shift), seed=seed), cal)
    assert (r.result, r.needs_referee) == ("개", False), r.reasons
    crossing = [st for st in r.sticks if math.hypot(*np.mean(st.box, axis=0) - (500 + shift / 2, 300)) < 30]
    by_angle = {round(_box_angle(st.box) / 30) % 6: st for st in crossing}
    assert sorted(by_angle) == sorted({0, round(turn / 30) % 6})
    below, on_top = by_angle[0], by_angle[round(turn / 30) % 6]
    assert (below.face, on_top.face) == ("배", "등")
    assert below.score < 0.1 and on_top.score > 0.9, (below.score, on_top.score)


@pytest.mark.parametrize(("under", "top", "turn", "shift", "seed"), [
    ("배", "등", 20, 30, 2), ("배", "등", 30, 30, 2), ("등", "배", 25, 15, 1), ("등", "배", 30, 15, 2)])
def test_a_half_mostly_under_another_stick_raises_no_doubt(cal: Calibration, under: str, top: str, turn: float,
                                                            shift: float, seed: int) -> None:
    """A stick lying across another at a slant hides most of one half of it; the few pixels
    of that half that show (beside the top stick) are no sign that the halves differ. Each
    of these was asked about for its two halves before (e.g. 0.78 and -0.01)."""
    r = read_image(S.render(_crossing(under, top, turn, shift), seed=seed), cal)
    assert (r.result, r.needs_referee) == ("개", False), r.reasons


@pytest.mark.parametrize(("top_tint", "own_tint", "glare"), [
    (1.25, 1.0, False),  # a light 배 stick clipping where it lies across a 등 stick: no glare on the 등
    (1.35, 1.0, False),
    (1.0, 1.3, True),  # the 등 stick itself blown out: asked about
    (1.0, 1.45, True),
])
@pytest.mark.parametrize("seed", [1, 2])
def test_glare_is_judged_on_what_shows_of_a_stick(cal: Calibration, top_tint: float, own_tint: float, glare: bool,
                                                  seed: int) -> None:
    """Blown-out pixels doubt a stick's face only where they are its own: a light stick lying
    across a dark one may clip, and it says nothing of the one below (counted over the whole
    box, the 등 stick below was asked about for glare every time)."""
    sticks = [S.Stick(500, 300, 0, "등", tint=own_tint), S.Stick(500, 300, 90, "배", tint=top_tint),
              S.Stick(850, 250, 30, "등"), S.Stick(380, 540, 150, "배")]
    if top_tint == 1.0:  # the 등 stick lies alone
        sticks[1] = S.Stick(700, 520, 100, "배")
    r = read_image(S.render(sticks, seed=seed), cal)
    assert r.result == "개"
    assert any("glare" in x for x in r.reasons) == glare, r.reasons
    if not glare:
        assert not r.needs_referee, r.reasons


def test_fewer_than_four_sticks_is_nak(cal: Calibration) -> None:
    sticks = S.four("배배등등", seed=7)[:3]
    r = read_image(S.render(sticks, seed=17), cal)
    assert r.result == "낙" and len(r.sticks) == 3


def test_rescaled_image_with_same_aspect(cal: Calibration) -> None:
    img = S.render(S.four("배배배등", 1, seed=8), seed=18)
    small = cv2.resize(img, (960, 540), interpolation=cv2.INTER_AREA)
    r = read_image(small, cal)
    assert r.result == "걸"
    xs = [x for s in r.sticks for x, _ in s.box]
    assert max(xs) < 960  # boxes in the coordinates of the image given


def test_other_aspect_is_refused(cal: Calibration) -> None:
    img = S.render(S.four("배배배등", seed=9), seed=19)
    with pytest.raises(ImageError, match="another aspect ratio"):
        read_image(img[:, :1000], cal)


@pytest.mark.parametrize(
    ("image", "message"),
    [
        (np.zeros((0, 0, 3), np.uint8), "empty"),
        (np.zeros((720, 1280, 3), np.float64), "8-bit"),
        (np.zeros((720, 1280, 5), np.uint8), "colour image"),
        (np.full((720, 1280, 3), 128, np.uint8), "blank"),
        (np.full((720, 1280, 3), (0, 0, 200), np.uint8), "blank"),  # a flat colour, not grey
    ],
)
def test_bad_images(cal: Calibration, image: np.ndarray, message: str) -> None:
    with pytest.raises(ImageError, match=message):
        read_image(image, cal)


def _camera_glitch(kind: str) -> np.ndarray:
    rng = np.random.default_rng(3)
    if kind == "noise":  # a frame of a failing sensor
        return (rng.random((720, 1280, 3)) * 255).astype(np.uint8)
    ramp = np.tile(np.linspace(0, 255, 1280), (720, 1)).astype(np.uint8)  # a lens cap lit from one side
    return np.dstack([ramp, ramp // 2, ramp])


@pytest.mark.parametrize("kind", ["noise", "ramp"])
def test_a_picture_unlike_the_mat_is_refused_saying_why(cal: Calibration, kind: str) -> None:
    """A frame that differs from the empty mat nearly everywhere shows no throw: the camera
    moved, or something covers it. It is refused with a reason the referee can act on (it
    used to be read as one region of hundreds of sticks, for minutes)."""
    with pytest.raises(ImageError, match="of the mat differs from the empty mat: has the camera moved"):
        read_image(_camera_glitch(kind), cal)


def test_a_region_is_split_into_a_bounded_number_of_pieces(cal: Calibration) -> None:
    """A region of twenty sticks' area (a bag dropped on the mat) is cut into twelve pieces at
    most (reader.MOST_PIECES): fitting hundreds took minutes, and only four were thrown."""
    from yut_cam.vision import functional as F
    from yut_cam.vision.reader import _count

    s = cal.work_scale
    length, width = cal.stick_length * s, cal.stick_width * s
    mask = np.zeros(cal.mat_mask.shape, np.uint8)
    side = int(math.sqrt(20 * length * width))  # twenty sticks' area
    mask[100:100 + side, 200:200 + side] = 255
    (blob,) = F.blobs(mask, min_area=1)
    _, k, more = _count(blob, length, width, cal.mat_mask)
    assert k == 12 and more > 5  # and it looks like more than that: the throw is asked about


def test_annotate_draws_without_changing_the_input(cal: Calibration) -> None:
    img = S.render(S.four("배등등등", 0, seed=2), seed=12)
    before = img.copy()
    r = read_image(img, cal)
    out = annotate(img, r, cal)
    assert np.array_equal(img, before)
    assert out.shape == img.shape and not np.array_equal(out, img)
    # a reading the referee is asked about names what else it may be on the picture's top line
    asked = dataclasses.replace(r, needs_referee=True, reasons=("stick 2: face unsure (margin 0.10)",))
    plain, named = annotate(img, asked, cal), annotate(img, dataclasses.replace(asked, alternatives=("개",)), cal)
    top = slice(0, img.shape[0] // 10)
    assert not np.array_equal(plain[top], named[top])
    assert np.array_equal(plain[top.stop:], named[top.stop:])


@pytest.mark.parametrize(("reasons", "framed"), [
    (("stick 2: face unsure (margin 0.10)",), {1}),
    (("stick 1: at the mat's edge (3 px inside its outline), check it touches the mat",
      "빽도 mark may be hidden: an end of stick 4 lies under or against another stick"), {0, 3}),
    (("5 stick-like regions, expected 4 (kept the 4 likeliest)",), set()),  # names no stick
])
def test_the_sticks_a_question_names_are_framed_in_its_colour(cal: Calibration, reasons: tuple[str, ...],
                                                              framed: set[int]) -> None:
    from yut_cam.vision.annotate import ASK

    img = S.render(S.four("배등등등", 0, seed=2), seed=12)
    r = dataclasses.replace(read_image(img, cal), needs_referee=True, reasons=reasons)
    out = annotate(img, r, cal)
    red = np.all(out == ASK, axis=2)
    red[: img.shape[0] // 5] = False  # the question's own lines at the top
    for i, stick in enumerate(r.sticks):
        ring = np.zeros(red.shape, np.uint8)  # a band a few px round the stick's box
        box = np.round(np.asarray(stick.box)).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(ring, [box], True, 1, 16)
        cv2.polylines(ring, [box], True, 0, 3)
        assert red[ring > 0].any() == (i in framed), (i, reasons)


@pytest.mark.parametrize(("reasons", "words"), [
    (("빽도 mark unsure (mark score 0.08, threshold 0.10)",), ["baekdo mark unsure"]),
    (("stick 4: off the mat but seen only in part (60% of a stick's length): is it a stick? (낙 rests on it)",),
     ["a stick? (nak rests on it)"]),  # the line keeps the reasons whole: the picture wraps it
    (("빽도 mark not learned at calibration: is stick 2 (배 up) the marked stick? (빽도 or 도)",),
     ["baekdo mark not learned", "(bae up)"]),
])
def test_the_pictures_top_line_is_ascii(reasons: tuple[str, ...], words: list[str]) -> None:
    # OpenCV draws no Hangul: the rules' words in a reason are romanised as the tags are
    from yut_cam.vision.annotate import headline
    from yut_cam.vision.types import Reading

    line = headline(Reading(result="도", confidence=0.6, needs_referee=True, sticks=(), reasons=reasons,
                            alternatives=("빽도",)))
    assert line.isascii(), line
    assert line.startswith("do (or baekdo)  conf 0.60  REFEREE: ")
    assert all(w in line for w in words), line


LONG = ("baekdo (or do)  conf 0.55  REFEREE: baekdo mark faint at calibration (11% of its end): is stick 1"
        " (bae up) the marked stick? (baekdo or do); stick 3: at the mat's edge (4 px inside its outline),"
        " check it touches the mat")


# as annotate draws it on a 1280 and a 640 px wide picture; then too few lines, too narrow
@pytest.mark.parametrize(("width", "scale", "thick", "most", "whole"), [
    (1264, 0.8, 5, 3, True), (624, 0.4, 4, 3, True), (624, 0.4, 4, 1, False), (40, 0.4, 4, 3, False)])
def test_the_top_line_wraps_to_the_pictures_width(width: int, scale: float, thick: int, most: int,
                                                  whole: bool) -> None:
    from yut_cam.vision.annotate import FONT, wrapped

    lines = wrapped(LONG, width, scale, thick, most)
    assert 1 <= len(lines) <= most
    assert all(cv2.getTextSize(line, FONT, scale, thick)[0][0] <= width for line in lines), lines
    if whole:  # nothing lost: the lines are the text broken at spaces
        assert " ".join(lines) == LONG
    else:  # cut short, and says so
        assert lines[-1].endswith("...") and LONG.startswith(lines[0].removesuffix("..."))


@pytest.mark.parametrize("width", [640, 1280])
def test_the_legends_outline_stays_on_its_letters(cal: Calibration, width: int) -> None:
    # a camera's small stream at 640 px draws thin letters: their black outline must not
    # drift off them along the line (a thicker stroke spaces OpenCV's letters wider)
    from yut_cam.vision.types import Reading

    grey = np.full((width * 9 // 16, width, 3), 128, np.uint8)
    out = annotate(grey, Reading(result="도", confidence=1.0, needs_referee=False), cal)
    rows = out[-30:]
    white = np.nonzero((rows > 200).all(axis=2).any(axis=0))[0]
    black = np.nonzero((rows < 40).all(axis=2).any(axis=0))[0]
    assert len(white) and len(black)
    assert black.max() - white.max() <= 4 and white.min() - black.min() <= 4


def test_a_long_question_stays_inside_the_picture(cal: Calibration) -> None:
    img = S.render(S.four("배등등등", 0, seed=2), seed=12)
    r = read_image(img, cal)
    reason = LONG.split("REFEREE: ")[1]
    asked = annotate(img, dataclasses.replace(r, needs_referee=True, reasons=(reason,)), cal)
    plain = annotate(img, r, cal)
    # the question is drawn in red over more than one line, none reaching the right border
    red = (asked[..., 2] > 200) & (asked[..., 1] < 60) & (asked[..., 0] < 60) & ~np.all(asked == plain, axis=2)
    rows = np.nonzero(red.any(axis=1))[0]
    assert len(rows) and rows.max() - rows.min() > 40
    assert not red[:, -8:].any()


# --- the product's generator: seeded batches per case -------------------------------

synth = pytest.importorskip("yut_cam.vision.synth")

N_PER_STYLE = 10


@pytest.fixture(scope="module")
def venues() -> list[tuple[object, Calibration]]:
    rng = np.random.default_rng(20261130)
    styles = [synth.SceneStyle(), synth.random_style(rng)]
    out = []
    for style in styles:
        ci = synth.render_calibration(style)
        out.append((style, calibrate(ci.empty, ci.belly, ci.back, list(ci.mat_polygon))))
    return out


# Flag rates per case are bounds for these two venues, not the product's targets (the
# benchmark measures those over hundreds of throws): in the default venue, dark 등 sticks
# lying across the dark rim onto a dark wooden floor are often only partly visible, and
# the reader asks the referee instead of guessing. In the second venue a few 빽도 marks
# read faintly (a mark score of 0.10-0.13 where the mark showed 0.36 at calibration) and are
# asked about: the same score at a clean stick's end would be a speck, not the mark.
@pytest.mark.parametrize(
    ("case", "faces", "max_flagged"),
    [("clean", None, 0.10), ("touching", None, 0.35), ("edge", None, 0.40), ("낙", None, 0.30),
     ("clean", "빽도", 0.15)],
)
def test_generated_batches(venues: list[tuple[object, Calibration]], case: str, faces: str | None,
                           max_flagged: float) -> None:
    tally: Counter[str] = Counter()
    for k, (style, cal) in enumerate(venues):
        rng = np.random.default_rng([k, len(case), 7])
        for _ in range(N_PER_STYLE):
            face_list = None
            if faces == "빽도":  # only the marked stick 배 up
                marked = style.marked_stick  # type: ignore[attr-defined]
                face_list = ["배" if i == marked else "등" for i in range(4)]
            img, truth = synth.render_throw(style, rng, case=case, faces=face_list)
            r = read_image(img, cal)
            untranslated = [why for why in r.reasons if korean(why) == why]
            assert not untranslated, "add these to yut_cam.vision.reasons"
            if faces == "빽도":
                assert truth.result == "빽도"
            if r.needs_referee:
                tally["flagged"] += 1
            else:
                tally["right" if r.result == truth.result else "wrong"] += 1
                if truth.result == "낙":
                    assert r.result == "낙", "낙 missed without asking the referee"
    total = sum(tally.values())
    assert tally["flagged"] <= max_flagged * total, tally
    assert tally["right"] >= 0.95 * (tally["right"] + tally["wrong"]), tally


@pytest.mark.parametrize("shift", [0.0, 0.12])
def test_the_mark_is_read_to_the_tip_past_a_box_a_little_short(cal: Calibration, shift: float,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A box 12% of a stick's length off along it leaves the mark (half a width from the tip)
    outside its inner 94%; the mark is read where the stick's body goes on past the box."""
    from yut_cam.vision import reader as R
    from yut_cam.vision.functional import Rect

    assert cal.mark is not None
    image = S.render([S.Stick(600, 360, 0, "배", marked=True)], seed=3)  # the mark at x = 566
    work = np.zeros((cal.work_size[1], cal.work_size[0]), np.uint8)
    box = Rect(600 + shift * S.LENGTH, 360.0, S.LENGTH, S.WIDTH, 0.0)
    lights = (np.ones(3, np.float32), np.ones(3, np.float32))  # now, and the empty mat's at calibration
    args = (image, box, 0.8, lights, work, work + 255, work + 255, cal.work_size[0] / image.shape[1], cal, (cal.mark,))
    read = R._read_marks(*args)
    assert read.shares[0] > 2 * cal.mark.threshold and read.end_seen > 0.9
    assert 0.7 <= read.lightness <= 1.4  # the marked stick itself, as at calibration
    assert read.rows > 0.5  # a mark painted across the stick
    monkeypatch.setattr(R, "MARK_REACH", 0.0)  # read on the box alone
    assert (R._read_marks(*args).shares[0] > cal.mark.threshold) == (shift == 0.0)


@pytest.mark.parametrize("mark", ["stripe", "dot"])
def test_a_mark_painted_at_the_very_tip_is_read(mark: str) -> None:
    """A black mark whose middle lies a fifth of a stick's width from its tip (a band across
    the tip, a dot touching it) on a grey-green stick: the window the mark is read in stops
    where no body colour goes on, and the tip trim took what showed no body across the width,
    so the band was cut off and 빽도 read 도 without asking (synth ``mark_inset``). The mark
    is the stick's own: 빽도, asked or not, never a sure 도; a plain 도 stays 도."""
    style = synth.SceneStyle(seed=7, mat_kind="square_cloth", mat_color=(92, 163, 205), wood=(150, 172, 160),
                             mark=mark, mark_color=(40, 40, 40), mark_inset=0.2, marked_stick=0, pattern="bands")
    ci = synth.render_calibration(style)
    cal = calibrate(ci.empty, ci.belly, ci.back)
    assert cal.mark is not None, cal.mark_problem
    rng = np.random.default_rng(3)
    for faces, truth in [("배등등등", "빽도")] * 3 + [("등배등등", "도")] * 2:
        r = read_image(synth.render_throw(style, rng, case="clean", faces=list(faces))[0], cal)
        assert r.result == truth or (r.needs_referee and truth in r.alternatives), (faces, r.result, r.reasons)


@pytest.mark.parametrize("angle", [-6.0, 6.0])
def test_a_tips_shade_beside_a_box_askew_is_no_dark_mark(cal: Calibration, angle: float) -> None:
    """A box 6° askew of its stick takes in the stick's shade on the mat at either tip. Where
    the venue's mark is dark (here the shade's own colour), that shade read as the mark on a
    plain stick: 0.17 of an end, 빽도 (held-out independent venue 33035, a black X). The
    mark is read between the stick's long edges only; the marked stick still shows its
    mark there."""
    from yut_cam.vision import reader as R
    from yut_cam.vision.functional import Rect

    assert cal.mark is not None
    dark = dataclasses.replace(cal.mark, mark_lab=(110.0, 135.0, 150.0))  # the shade beside the stick
    work = np.zeros((cal.work_size[1], cal.work_size[0]), np.uint8)
    lights = (np.ones(3, np.float32), np.ones(3, np.float32))
    box = Rect(600.0, 362.0, S.LENGTH + 6, S.WIDTH, angle)

    def share(marked: bool, mark: object) -> float:
        image = S.render([S.Stick(600, 360, 0, "배", marked=marked)], seed=3)
        c = dataclasses.replace(cal, mark=mark)
        args = (image, box, 1.0, lights, work, work + 255, work + 255, cal.work_size[0] / image.shape[1], c, (mark,))
        return float(R._read_marks(*args).shares[0])  # type: ignore[arg-type]

    assert share(False, dark) < 0.06
    assert share(True, cal.mark) > 2 * cal.mark.threshold
