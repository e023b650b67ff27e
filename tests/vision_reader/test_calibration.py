"""Calibration: learning from the three photos, the JSON round trip, and each refusal."""

from __future__ import annotations

import dataclasses
import functools
import json
import math
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision_reader import scenes as S
from yut_cam.vision import calibration as C
from yut_cam.vision.calibration import Calibration, calibrate
from yut_cam.vision.errors import CalibrationError, ImageError
from yut_cam.vision.reader import read_image


@pytest.fixture(scope="module")
def triplet() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return S.calibration_set()


@pytest.fixture(scope="module")
def cal(triplet: tuple[np.ndarray, np.ndarray, np.ndarray]) -> Calibration:
    return calibrate(*triplet)


def test_learns_mat_and_stick_size(cal: Calibration) -> None:
    truth = F_mask(S.MAT)
    found = F_mask(list(cal.mat_polygon))
    assert (truth & found).sum() / (truth | found).sum() > 0.97
    # drawn 84 x 17 px; the blurred outline measures a little larger
    assert 80 <= cal.stick_length <= 92
    assert 15 <= cal.stick_width <= 22
    assert cal.image_size == (1280, 720)


def F_mask(poly: list[tuple[float, float]]) -> np.ndarray:
    from yut_cam.vision.functional import polygon_mask

    return polygon_mask((720, 1280), poly) > 0


def test_given_mat_polygon_is_kept(triplet: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    cal = calibrate(*triplet, mat_polygon=S.MAT)
    assert cal.mat_polygon == tuple(S.MAT)


def test_faces_separate(cal: Calibration) -> None:
    from yut_cam.vision.functional import FEATURE_NAMES

    assert cal.faces.names == FEATURE_NAMES
    b = np.array(cal.faces.belly)
    k = np.array(cal.faces.back)
    assert cal.faces.score(b) < 0.1 and cal.faces.score(k) > 0.9


def test_round_trip(cal: Calibration, tmp_path: Path) -> None:
    bg = cal.save(tmp_path / "venue.json")
    assert bg.name == "venue.background.png"
    data = json.loads((tmp_path / "venue.json").read_text(encoding="utf-8"))
    assert data["version"] == 1 and data["background"] == "venue.background.png"
    assert (tmp_path / "venue.json").stat().st_size < 4000  # statistics, not images
    back = Calibration.load(tmp_path / "venue.json")
    assert back.image_size == cal.image_size and back.work_size == cal.work_size
    assert back.stick_length == pytest.approx(cal.stick_length, abs=0.01)
    assert np.array_equal(back.background, cal.background)
    assert back.faces.score(np.array(cal.faces.back)) == pytest.approx(
        cal.faces.score(np.array(cal.faces.back)), abs=0.01)
    assert back.mark is not None and cal.mark is not None
    assert back.mark.threshold == pytest.approx(cal.mark.threshold, abs=1e-3)
    assert cal.mark.body_lab is not None and back.mark.body_lab == pytest.approx(cal.mark.body_lab, abs=0.01)
    assert back.segment.shadow_suppression == cal.segment.shadow_suppression
    assert back.mat_doubt == pytest.approx(cal.mat_doubt, abs=0.05)
    assert 0.0 < cal.faces.fit_error < 0.2  # the drawn sticks score near 0 and 1
    assert back.faces.fit_error == pytest.approx(cal.faces.fit_error, abs=1e-4)
    assert 0.0 < cal.narrowest <= cal.stick_width * 1.2 and back.narrowest == pytest.approx(cal.narrowest, abs=0.01)


@pytest.mark.parametrize(("fit_error", "loaded"), [(None, 0.0), (0.12, 0.12), (2.0, "0..1"), (-0.1, "0..1"),
                                                   ("x", "fit_error")])
def test_face_fit_error_in_the_file(cal: Calibration, tmp_path: Path, fit_error: object, loaded: object) -> None:
    cal.save(tmp_path / "venue.json")
    data = json.loads((tmp_path / "venue.json").read_text(encoding="utf-8"))
    if fit_error is None:  # a file from before the fit error: taken as 0
        del data["faces"]["fit_error"]
    else:
        data["faces"]["fit_error"] = fit_error
    (tmp_path / "venue.json").write_text(json.dumps(data), encoding="utf-8")
    if isinstance(loaded, float):
        assert Calibration.load(tmp_path / "venue.json").faces.fit_error == pytest.approx(loaded)
    else:
        with pytest.raises(CalibrationError, match=str(loaded)):
            Calibration.load(tmp_path / "venue.json")


def test_found_outline_carries_its_doubt_and_a_given_one_none(
        cal: Calibration, triplet: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    assert min(cal.mat_doubt) > 0.0  # found by colour: the edge is blurred over a pixel or two
    assert calibrate(*triplet, mat_polygon=S.MAT).mat_doubt == (0.0, 0.0)


def test_file_without_the_marks_body_reads_the_mark_on_the_flat_faces_colour(
        saved: Path, tmp_path: Path, cal: Calibration) -> None:
    """A file from before the body beside the mark was kept: the mark is read relative to
    the colour of the flat faces at calibration, and reads the same throws."""
    path, data = _saved(saved, tmp_path)
    data["mark"].pop("body_lab")  # type: ignore[attr-defined]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    old = Calibration.load(path)
    assert old.mark is not None and old.mark.body_lab is None
    for seed, marked in [(0, 0), (1, None)]:
        image = S.render(S.four("배등등등", marked, seed=seed), seed=seed + 20)
        assert read_image(image, old).result == read_image(image, cal).result == ("빽도" if marked == 0 else "도")


def test_file_without_the_narrowest_width_takes_the_stick_width(saved: Path, tmp_path: Path) -> None:
    path, data = _saved(saved, tmp_path)
    data["stick"].pop("narrowest")  # type: ignore[attr-defined]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    old = Calibration.load(path)
    assert old.narrowest == 0.0 and old.lying_width == old.stick_width


def test_file_without_mat_doubt_loads_as_exact(saved: Path, tmp_path: Path) -> None:
    path, data = _saved(saved, tmp_path)
    data.pop("mat_doubt")
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert Calibration.load(path).mat_doubt == (0.0, 0.0)


@pytest.fixture(scope="module")
def saved(cal: Calibration, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cal") / "cal.json"
    cal.save(path)
    return path


def _saved(saved: Path, tmp_path: Path) -> tuple[Path, dict[str, object]]:
    import shutil

    shutil.copy(saved, tmp_path / "cal.json")
    shutil.copy(saved.with_name("cal.background.png"), tmp_path / "cal.background.png")
    path = tmp_path / "cal.json"
    return path, json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.pop("stick"), "missing field 'stick'"),
        (lambda d: d.pop("version"), "missing field 'version'"),
        (lambda d: d.update(version=7), "version 7 is not supported"),
        (lambda d: d.update(image_size=[1280]), "image_size must be"),
        (lambda d: d.update(mat_polygon=[[0, 0], [1, 1]]), "at least 3 corners"),
        (lambda d: d["stick"].update(length="long"), "must be a number"),
        (lambda d: d["stick"].update(width=500), "impossible"),
        (lambda d: d["stick"].update(narrowest=-3), "narrowest width -3.0 is impossible"),
        (lambda d: d["stick"].update(narrowest="thin"), "stick narrowest must be a number"),
        (lambda d: d["faces"].update(features=["brightness"]), "do not match"),
        (lambda d: d["mark"].update(lab=[1, 2]), "needs 3 numbers"),
        (lambda d: d["mark"].update(body_lab=[1, 2]), "'body_lab' needs 3 numbers"),
        (lambda d: d["mark"].update(body_lab="pale"), "body_lab must be a list"),
        (lambda d: d["mark"].update(body_lab=[1, "x", 3]), "body_lab must be a number"),
        (lambda d: d.update(background="nowhere.png"), "missing or unreadable"),
        (lambda d: d.update(work_size=[320, 180]), "expected work_size 320x180"),
        (lambda d: d.update(mat_doubt=[3.0]), "mat_doubt needs 2 numbers"),
        (lambda d: d.update(mat_doubt=[-1, 2]), "mat_doubt needs 2 numbers"),
        (lambda d: d.update(mat_doubt="wide"), "mat_doubt must be a list"),
    ],
)
def test_load_refuses_bad_files(saved: Path, tmp_path: Path, edit, message: str) -> None:  # type: ignore[no-untyped-def]
    path, data = _saved(saved, tmp_path)
    edit(data)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(CalibrationError, match=message):
        Calibration.load(path)


def test_load_refuses_missing_and_corrupt_files(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="does not exist"):
        Calibration.load(tmp_path / "nope.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(CalibrationError, match="not readable JSON"):
        Calibration.load(bad)
    bad.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(CalibrationError, match="JSON object"):
        Calibration.load(bad)


def test_load_refuses_a_corrupt_background(saved: Path, tmp_path: Path) -> None:
    path, _ = _saved(saved, tmp_path)
    (tmp_path / "cal.background.png").write_bytes(b"\x89PNG broken")
    with pytest.raises(CalibrationError, match="missing or unreadable"):
        Calibration.load(path)


def test_refuses_three_sticks_naming_the_image(triplet: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    empty, _, back = triplet
    spots = [(400, 250, 20), (800, 230, 100), (420, 500, 160)]
    three = S.render([S.Stick(x, y, a, "배", marked=i == 0) for i, (x, y, a) in enumerate(spots)], 3)
    with pytest.raises(CalibrationError, match="belly image"):
        calibrate(empty, three, back)
    three_back = S.render([S.Stick(x, y, a, "등") for x, y, a in spots], 4)
    with pytest.raises(CalibrationError, match="back image"):
        calibrate(empty, triplet[1], three_back)


def test_refuses_touching_sticks(triplet: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    empty, _, back = triplet
    sticks = [S.Stick(400, 250, 0, "배", marked=True), S.Stick(400, 267, 0, "배"),
              S.Stick(800, 300, 90, "배"), S.Stick(600, 500, 45, "배")]
    with pytest.raises(CalibrationError, match="belly image"):
        calibrate(empty, S.render(sticks, 5), back)


def _row(face: str, angle: float, pitch: float, step: float = 0.0, at: tuple[float, float] = (560.0, 300.0),
         n: int = 4, marked: int = 2) -> list[S.Stick]:
    """``n`` sticks side by side along ``angle``, ``pitch`` px from middle to middle, each
    ``step`` px further along than the one before (a stepped row)."""
    t = math.radians(angle)
    ux, uy, vx, vy = math.cos(t), math.sin(t), -math.sin(t), math.cos(t)
    return [S.Stick(at[0] + vx * pitch * i + ux * step * i, at[1] + vy * pitch * i + uy * step * i, angle, face,
                    marked=face == "배" and i == marked) for i in range(n)]


@pytest.mark.parametrize(("angle", "pitch", "step"), [(0.0, 25.0, 0.0), (30.0, 26.0, 0.0), (160.0, 25.0, -15.0),
                                                     (45.0, 30.0, 10.0)])
def test_sticks_laid_side_by_side_calibrate_as_sticks_apart(triplet: tuple[np.ndarray, np.ndarray, np.ndarray],
                                                           cal: Calibration, angle: float, pitch: float,
                                                           step: float) -> None:
    """A referee lays the four sticks in a row, a finger's width apart (neatly or a little
    stepped): each is found, as large as when they lie apart, with the mark and both faces."""
    empty = triplet[0]
    row = calibrate(empty, S.render(_row("배", angle, pitch, step), 1), S.render(_row("등", angle, pitch, step), 2))
    assert row.stick_length == pytest.approx(cal.stick_length, rel=0.06)
    assert row.stick_width == pytest.approx(cal.stick_width, rel=0.12)
    assert row.mark is not None
    throw = S.render(S.four("배등등배", seed=3), 7)
    assert read_image(throw, row).result == read_image(throw, cal).result == "개"


def test_a_pair_side_by_side_beside_two_sticks_apart(triplet: tuple[np.ndarray, np.ndarray, np.ndarray],
                                                     cal: Calibration) -> None:
    empty = triplet[0]
    def layout(face: str) -> list[S.Stick]:
        return _row(face, 20.0, 26.0, at=(420.0, 260.0), n=2, marked=0) + [
            S.Stick(820, 260, 100, face), S.Stick(600, 520, 160, face)]
    two = calibrate(empty, S.render(layout("배"), 1), S.render(layout("등"), 2))
    assert two.stick_length == pytest.approx(cal.stick_length, rel=0.06)
    assert two.mark is not None


def test_refuses_sticks_side_by_side_without_a_gap(triplet: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    """Four sticks pressed together are a block that could be cut either way: the referee is
    asked to lay them apart or side by side with a gap."""
    empty, _, back = triplet
    with pytest.raises(CalibrationError, match="belly image: found 1 stick.*side by side"):
        calibrate(empty, S.render(_row("배", 0.0, 17.0), 1), back)


def test_a_stick_off_the_outline_found_refuses_it(triplet: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    """The referee lays the calibration sticks on the mat: one wholly off the outline found in
    the empty picture says that outline is not the mat's edge (or a stick was left off it).
    Either way calibration stops and says both; given the corners, a stick off the mat is
    the referee's to see."""
    empty, _, back = triplet
    spots = [(400, 250, 20), (800, 230, 100), (420, 500, 160), (60, 360, 90)]  # the last on the floor
    off = S.render([S.Stick(x, y, a, "배", marked=i == 0) for i, (x, y, a) in enumerate(spots)], 3)
    with pytest.raises(CalibrationError, match=r"belly image: a stick at \([56]\d, 3[56]\d\) lies off the mat's outline"
                                               r".*give the mat's corners"):
        calibrate(empty, off, back)
    assert calibrate(empty, off, back, mat_polygon=S.MAT).mat_polygon == tuple(S.MAT)


@pytest.fixture(scope="module")
def unmarked(triplet: tuple[np.ndarray, np.ndarray, np.ndarray]) -> Calibration:
    """A set whose 빽도 mark does not show in the belly picture (here: no stick carries one)."""
    empty, _, back = triplet
    spots = [(400, 250, 20), (800, 230, 100), (420, 500, 160), (850, 520, 60)]
    plain = S.render([S.Stick(x, y, a, "배") for x, y, a in spots], 6)
    return calibrate(empty, plain, back)


def test_a_set_without_a_visible_mark_calibrates_and_says_what_it_cannot_read(unmarked: Calibration) -> None:
    assert unmarked.mark is None
    assert "cannot tell which stick carries the 빽도 mark" in unmarked.mark_problem
    (warning,) = unmarked.warnings
    assert "빽도 mark was not learned" in warning and "retake the 배 picture" in warning


def _belly_patch(past: tuple[int, int], mark: str = "") -> np.ndarray:
    """A 배 stick's calibration patch (96 x 24) whose box reaches ``past`` columns past its
    tips onto a blue mat, blurred as a lens blurs it; with a dark red ``mark``: a dot a
    quarter of the way in from the far tip, or a band across the stick at that tip; or
    ``tint``: that end of the wood a shade darker all over."""
    patch = np.full((24, 96, 3), (170, 200, 225), np.uint8)
    tip = 95 - past[1]
    if mark == "tint":
        patch[:, tip - 22:tip + 1] = (163, 192, 216)
    elif mark == "dot":
        cv2.circle(patch, (tip - 22, 12), 3, (40, 40, 120), -1)
    elif mark == "band":
        patch[:, tip - 7:tip + 1] = (40, 40, 120)
    patch[:, :past[0]] = (140, 70, 40)
    patch[:, 96 - past[1]:] = (140, 70, 40)
    return np.asarray(cv2.GaussianBlur(patch, (0, 0), 1.5), np.uint8)


@pytest.mark.parametrize("mark, marked_past", [("dot", (2, 2)), ("band", (2, 2)), ("band", (1, 0))])
def test_the_mark_is_learned_from_boxes_reaching_past_the_tips_unequally(mark: str,
                                                                         marked_past: tuple[int, int]) -> None:
    """Boxes a little too long show the mat and the blurred rim past a tip, more at one end
    than at the other: that is no mark. The mark on stick 3 is, a dot a quarter of the way
    in or a band at the tip, even where its box ends on the band (no body past it)."""
    pasts = [(9, 1), (1, 8), (7, 2), marked_past]
    patches = [_belly_patch(p, mark if i == 3 else "") for i, p in enumerate(pasts)]
    mats = [np.full((24, 96, 3), (140, 70, 40), np.uint8)] * 4
    fg = [np.ones((24, 96), np.uint8)] * 4
    learned, why, _ = C._mark_model(patches, fg, mats)
    assert learned is not None, why
    assert learned.mark_lab[1] > 135  # learned on the red mark, not on the blue mat
    assert learned.marked_fraction > 2 * learned.other_fraction


def test_a_small_mark_stands_out_from_an_end_of_darker_wood() -> None:
    """One stick's far end a shade darker all over differs from its body, in the mean, about
    as much as the end carrying a small dot: the dot is what stands out where it is."""
    patches = [_belly_patch((2, 2), "tint" if i == 0 else "dot" if i == 3 else "") for i in range(4)]
    mats = [np.full((24, 96, 3), (140, 70, 40), np.uint8)] * 4
    learned, why, _ = C._mark_model(patches, [np.ones((24, 96), np.uint8)] * 4, mats)
    assert learned is not None, why
    assert learned.mark_lab[1] > 135


def test_a_small_mark_is_learned_and_read() -> None:
    """A dot a ninth of the stick's width across, a fifth of its length from the end: learned,
    and read, but too faint to read 빽도 unasked (a speck of shade at a plain end is as
    large) and too small to read 도 unasked (it may not show at all): the referee is offered
    the other of the two either way."""
    empty, _, back = S.calibration_set()
    spots = [(400, 250, 20), (800, 230, 100), (420, 500, 160), (850, 520, 60)]
    small = {"mark_at": 16, "mark_radius": 1}
    belly = S.render([S.Stick(x, y, a, "배", marked=i == 2, **small) for i, (x, y, a) in enumerate(spots)], 1)
    cal = calibrate(empty, belly, back)
    assert cal.mark is not None and cal.mark.faint, cal.mark_problem
    for seed, marked, expected in [(0, 0, "빽도"), (1, None, "도"), (2, 0, "빽도")]:
        sticks = [S.Stick(s.cx, s.cy, s.angle, s.face, s.marked, **small) for s in S.four("배등등등", marked, seed=seed)]
        r = read_image(S.render(sticks, seed=seed + 10), cal)
        assert (r.result, r.needs_referee) == (expected, True), r.reasons
        assert r.alternatives == (("도",) if expected == "빽도" else ("빽도",))


def test_a_faint_mark_is_read_on_a_stick_in_other_light() -> None:
    """A light brown mark, a little darker than the wood, on a stick turned from the lamp
    (a fifth darker than at calibration, the mat about it as lit as then): the mark is read
    as it looks on that darker body, not as the colour it had at calibration."""
    empty, _, back = S.calibration_set()
    spots = [(400, 250, 20), (800, 230, 100), (420, 500, 160), (850, 520, 60)]
    faint = {"mark_color": (105, 150, 190)}
    belly = S.render([S.Stick(x, y, a, "배", marked=i == 2, **faint) for i, (x, y, a) in enumerate(spots)], 1)
    cal = calibrate(empty, belly, back)
    assert cal.mark is not None and cal.mark.body_lab is not None, cal.mark_problem
    for seed, marked, tint, expected in [(0, 0, 0.8, "빽도"), (1, None, 0.8, "도"), (2, 0, 0.75, "빽도"),
                                         (3, 0, 1.0, "빽도"), (4, None, 1.0, "도")]:
        sticks = [S.Stick(s.cx, s.cy, s.angle, s.face, s.marked, tint=tint if s.face == "배" else 1.0, **faint)
                  for s in S.four("배등등등", marked, seed=seed)]
        r = read_image(S.render(sticks, seed=seed + 10), cal)
        assert (r.result, r.needs_referee) == (expected, False), (seed, r.reasons)


@functools.cache
def _small_dot_calibration() -> Calibration:
    """A dot a third of the stick's width across (radius 3) learned at calibration."""
    empty, _, back = S.calibration_set()
    spots = [(400, 250, 20), (800, 230, 100), (420, 500, 160), (850, 520, 60)]
    belly = S.render([S.Stick(x, y, a, "배", marked=i == 2, mark_radius=3) for i, (x, y, a) in enumerate(spots)], 1)
    return calibrate(empty, belly, back)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("learned", "radius", "asked"), [
    # a blot of the mark's colour over the whole end, three times and more as mark-like as the
    # mark (a plain stick's end on a dark border of the mat's, in its shade)
    (3, 3, ""), (3, 8, "reads "),
    # a dot well over the threshold but under 0.7 of the mark's share of the end: a knot or a
    # speck of its colour (independent 45015/0, 45018/8: a knot at a plain stick's end)
    (5, 5, ""), (5, 3, "reads only "),
])
def test_an_end_far_more_or_less_marked_than_the_mark_is_asked_about(request: pytest.FixtureRequest, seed: int,
                                                                     learned: int, radius: int, asked: str) -> None:
    """The lone 배 stick's end carries the dot learned at calibration (of radius ``learned``:
    빽도, read unasked) or a dot of another size: 빽도 or 도 is the referee's call."""
    cal = _small_dot_calibration() if learned == 3 else request.getfixturevalue("cal")
    assert cal.mark is not None and not cal.mark.small, cal.mark_problem
    sticks = [S.Stick(s.cx, s.cy, s.angle, s.face, s.marked, mark_radius=radius)
              for s in S.four("배등등등", 0, seed=seed)]
    r = read_image(S.render(sticks, seed=seed + 10), cal)
    assert (r.result, r.needs_referee) == ("빽도", bool(asked)), r.reasons
    if asked:
        assert r.reasons[0].startswith(f"빽도 mark unsure: an end of stick 1 {asked}") and r.alternatives == ("도",)


@pytest.mark.parametrize(("seed", "side", "thick"), [(2, 5, 2), (4, 4, 1), (4, 5, 2)])
def test_a_thin_line_along_a_plain_sticks_end_is_asked_about(cal: Calibration, seed: int, side: int,
                                                              thick: int) -> None:
    """A line of the mark's colour a pixel or two wide along the lone 배 stick's end, off its
    middle (a shade's edge in a box a little askew, a seam), reads as mark-like as a mark
    but spans a sixth of the rows across the stick or less: no mark painted across it, so
    빽도 or 도 is the referee's call (held-out 39532/10, 40501/10 read 빽도 unasked)."""
    sticks = S.four("배등등등", None, seed=seed)
    img = S.render(sticks, seed=seed + 10)
    s = sticks[0]
    t = math.radians(s.angle)
    along, across = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
    ends = [np.array([s.cx, s.cy]) + along * (S.LENGTH / 2 - k) + across * side for k in (2, 20)]
    cv2.line(img, *(tuple(int(round(x)) for x in p) for p in ends), (40, 40, 150), thick, cv2.LINE_AA)
    r = read_image(img, cal)
    assert r.needs_referee and r.reasons[0].startswith(
        "빽도 mark unsure: what looks like the mark at an end of stick 1 is a thin line along it"), r.reasons
    assert {r.result, *r.alternatives} == {"도", "빽도"}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_speck_at_a_clean_sticks_end_is_asked_about(cal: Calibration, seed: int) -> None:
    """A speck of the mark's colour, a third of the mark across, at the end of a stick the
    calibration showed clean (the other sticks' ends showed nothing): 도 or 빽도 is the
    referee's call, not a sure 빽도."""
    sticks = [S.Stick(s.cx, s.cy, s.angle, s.face, s.face == "배", mark_radius=2, mark_color=(60, 60, 150))
              for s in S.four("배등등등", None, seed=seed)]
    r = read_image(S.render(sticks, seed=seed + 10), cal)
    assert r.result == "도" or r.needs_referee, r.reasons


def test_a_learned_mark_warns_of_nothing(cal: Calibration) -> None:
    assert cal.mark is not None and cal.mark_problem == "" and cal.warnings == ()


def test_round_trip_without_a_mark(unmarked: Calibration, tmp_path: Path) -> None:
    unmarked.save(tmp_path / "venue.json")
    data = json.loads((tmp_path / "venue.json").read_text(encoding="utf-8"))
    assert data["mark"] is None and data["mark_problem"] == unmarked.mark_problem
    back = Calibration.load(tmp_path / "venue.json")
    assert back.mark is None and back.mark_problem == unmarked.mark_problem


@pytest.mark.parametrize("problem", [None, "", "  ", 3])
def test_a_null_mark_must_say_why(unmarked: Calibration, tmp_path: Path, problem: object) -> None:
    unmarked.save(tmp_path / "venue.json")
    data = json.loads((tmp_path / "venue.json").read_text(encoding="utf-8"))
    if problem is None:
        del data["mark_problem"]
    else:
        data["mark_problem"] = problem
    (tmp_path / "venue.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CalibrationError, match="'mark' is null but 'mark_problem' does not say why"):
        Calibration.load(tmp_path / "venue.json")


@pytest.mark.parametrize("in_shade", [True, False, "yes", 1])
def test_a_mark_learned_in_shade_says_so_in_the_file(cal: Calibration, tmp_path: Path, in_shade: object) -> None:
    """A mark learned only through shade (``MarkModel.in_shade``) keeps saying so once saved:
    the reader looks past a short box's end for it. A file's flag must be true or false."""
    assert cal.mark is not None and not cal.mark.in_shade
    marked = dataclasses.replace(cal, mark=dataclasses.replace(cal.mark, in_shade=True))
    marked.save(tmp_path / "venue.json")
    data = json.loads((tmp_path / "venue.json").read_text(encoding="utf-8"))
    assert data["mark"]["in_shade"] is True
    data["mark"]["in_shade"] = in_shade
    (tmp_path / "venue.json").write_text(json.dumps(data), encoding="utf-8")
    if isinstance(in_shade, bool):
        mark = Calibration.load(tmp_path / "venue.json").mark
        assert mark is not None and mark.in_shade is in_shade
    else:
        with pytest.raises(CalibrationError, match="'in_shade' must be true or false"):
            Calibration.load(tmp_path / "venue.json")
    cal.save(tmp_path / "plain.json")  # a mark learned plainly writes no flag
    assert "in_shade" not in json.loads((tmp_path / "plain.json").read_text(encoding="utf-8"))["mark"]


def test_refuses_belly_and_back_swapped_for_the_same(triplet: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    empty, belly, _ = triplet
    with pytest.raises(CalibrationError, match="look too much alike"):
        calibrate(empty, belly, belly)


def test_refuses_images_of_different_sizes(triplet: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
    empty, belly, back = triplet
    small = cv2.resize(back, (640, 360))
    with pytest.raises(CalibrationError, match="back image is 640x360"):
        calibrate(empty, belly, small)


def _noise(img: np.ndarray) -> np.ndarray:
    return np.random.default_rng(0).integers(0, 256, img.shape, dtype=np.uint8)


def _ramp(img: np.ndarray) -> np.ndarray:
    return np.tile(np.linspace(0, 255, img.shape[1]).astype(np.uint8)[None, :, None], (img.shape[0], 1, 3))


def _half_dark(img: np.ndarray) -> np.ndarray:
    out = img.copy()
    out[:, : img.shape[1] // 2] //= 3
    return out


@pytest.mark.parametrize("which", ["belly", "back"])
@pytest.mark.parametrize("spoil, says", [
    (_noise, "of the mat differs from the empty picture"),
    (_ramp, "of the mat differs from the empty picture"),
    (_half_dark, "of the mat differs from the empty picture"),
    (lambda img: np.full_like(img, (20, 20, 200)), "is blank"),  # a flat red frame
])
def test_a_stick_picture_that_is_no_picture_of_the_mat_is_refused_by_name(
        triplet: tuple[np.ndarray, np.ndarray, np.ndarray], which: str,
        spoil: Callable[[np.ndarray], np.ndarray], says: str) -> None:
    """A frame of noise, a colour ramp, half the picture dark, a flat colour: the message
    names that picture (before, it raised both pictures' noise thresholds and named
    whichever then showed fewer sticks)."""
    empty, belly, back = triplet
    shots = {"belly": belly, "back": back}
    shots[which] = spoil(shots[which])
    with pytest.raises(CalibrationError, match=f"^{which} image:? .*{says}"):
        calibrate(empty, shots["belly"], shots["back"])


def test_a_stick_picture_taken_after_the_camera_moved_is_refused_by_name() -> None:
    """Held-out venue 1500 (a textured mat): the 등 picture taken with the camera moved by
    40 px differs from the empty picture over a quarter of the mat."""
    from bench.held_out_scenes import Style as HeldOut, calibration_images

    empty, belly, back, _, _ = calibration_images(HeldOut(1500), np.random.default_rng(1500 + 11))
    assert calibrate(empty, belly, back).mark is not None
    with pytest.raises(CalibrationError, match=r"^back image: \d\d% of the mat differs from the empty picture"):
        calibrate(empty, belly, np.roll(back, 40, axis=1))


@pytest.mark.parametrize("bad", [np.zeros((0, 0, 3), np.uint8), np.zeros((10, 10, 3), np.uint8),
                                 np.zeros((100, 100, 3), np.float32)])
def test_refuses_bad_arrays(triplet: tuple[np.ndarray, np.ndarray, np.ndarray], bad: np.ndarray) -> None:
    with pytest.raises(ImageError, match="empty"):
        calibrate(bad, triplet[1], triplet[2])


def test_face_score_does_not_let_one_property_outvote_the_rest() -> None:
    """A round face turned along the light shows little shading: the three shading
    measures then say 배, while its colour and texture still say 등 clearly."""
    from yut_cam.vision.calibration import FaceModel
    from yut_cam.vision.functional import FEATURE_NAMES

    belly = (75.0, 2.0, 22.0, 5.0, 7.0, 5.7, 0.1, 2.3)
    back = (27.5, 3.8, 17.0, 32.0, -52.0, 26.0, 23.0, 3.7)
    spread = (9.5, 2.2, 2.0, 5.4, 11.9, 4.1, 4.6, 1.0)
    model = FaceModel(FEATURE_NAMES, belly, back, spread)
    dark_but_flat_shaded = np.array([26.8, 1.7, 19.7, 12.0, -1.8, 20.7, 0.5, 2.3])
    assert model.score(dark_but_flat_shaded) > 0.5
    assert model.score(np.array(belly)) < 0.05 and model.score(np.array(back)) > 0.95
    pale_and_round = np.array([74.0, 2.0, 22.0, 30.0, -50.0, 6.0, 20.0, 2.3])  # shading alone says 등
    assert 0.3 < model.score(pale_and_round) < 0.5


@pytest.mark.parametrize("widths, unsure", [(0.0, False), (0.7, False), (0.8, True), (3.0, True)])
def test_a_mat_edge_in_doubt_beyond_a_stick_width_asks_for_the_outline(cal: Calibration, widths: float,
                                                                     unsure: bool) -> None:
    """A found outline whose edge may lie more than 3/4 of a stick's width away says so once,
    at calibration, and asks for the outline to be tapped; the mark's warnings stay its own."""
    from yut_cam.vision.reasons import korean

    doubted = dataclasses.replace(cal, mat_doubt=(2.0, widths * cal.stick_width))
    assert doubted.mat_unsure is unsure
    about_mat = [w for w in doubted.warnings if w.startswith("the mat's edge is unsure")]
    assert len(about_mat) == int(unsure)
    if unsure:
        assert f"up to 2 px inside the outline found and {widths * cal.stick_width:.0f} px outside" in about_mat[0]
        assert "탭하고 다시 보정하면" in korean(about_mat[0]) and korean(about_mat[0]) != about_mat[0]
    assert [w for w in doubted.warnings if "빽도" in w] == [w for w in cal.warnings if "빽도" in w]


def test_held_out_venue_1508_floor_like_band_asks_for_the_outline_once() -> None:
    """Held-out dev seed 1, venue 1508: a straw mat whose border band has the tiled floor's
    colour. The outline found keeps to the straw, and the band may be the mat's (its edge in
    doubt by three stick widths): every stick on it was asked about at every throw. The
    calibration now says so and asks for the outline; tapped, it is sure of it."""
    from bench.held_out_scenes import Style as HeldOut, calibration_images

    style = HeldOut(1508)
    empty, belly, back, _, _ = calibration_images(style, np.random.default_rng(1508 + 11))
    found = calibrate(empty, belly, back)
    assert found.mat_unsure and any(w.startswith("the mat's edge is unsure") for w in found.warnings)
    tapped = calibrate(empty, belly, back, mat_polygon=style.mat_polygon_image())
    assert not tapped.mat_unsure and not any(w.startswith("the mat's edge") for w in tapped.warnings)


def _grey_belly_patch(past: tuple[int, int], band: int = 0) -> np.ndarray:
    """A grey-green 배 stick's calibration patch over a grey mat, its box ``past`` columns
    past the tips, with a black band ``band`` columns long at its far tip."""
    patch = np.full((24, 96, 3), (150, 170, 155), np.uint8)
    tip = 95 - past[1]
    if band:
        patch[:, tip - band + 1:tip + 1] = (45, 45, 45)
    patch[:, :past[0]] = (118, 120, 120)
    patch[:, 96 - past[1]:] = (118, 120, 120)
    return np.asarray(cv2.GaussianBlur(patch, (0, 0), 1.5), np.uint8)


@pytest.mark.parametrize("band", [5, 8])
def test_a_dark_mark_at_the_very_tip_is_no_rim(band: int) -> None:
    """A black band at the tip of a grey-green stick on a grey mat is, in chroma, a blend of
    the body with the mat's shade, as the blurred rim past a tip is, and the tip trim took
    it: no stick's ends differed and no mark was learned (held-out independent venue 33035
    learned another stick's shaded end). The four sticks are one length; the trim gives the
    band back, and it is the mark."""
    patches = [_grey_belly_patch(p, band if i == 1 else 0) for i, p in enumerate([(3, 2), (2, 3), (3, 3), (2, 2)])]
    mats = [np.full((24, 96, 3), (118, 120, 120), np.uint8)] * 4
    learned, why, _ = C._mark_model(patches, [np.ones((24, 96), np.uint8)] * 4, mats)
    assert learned is not None, why
    assert learned.mark_lab[0] < 140 and learned.marked_fraction > 2 * learned.other_fraction
    assert learned.body_lab is not None and learned.body_lab[0] - learned.mark_lab[0] > 20


def test_one_length_gives_a_trimmed_tip_back_to_the_end_cut_deeper() -> None:
    """Spans within a twentieth of the length of the others' stay; a span cut shorter gets
    the columns back at the end trimmed deeper than the other sticks' same end."""
    assert C._one_length([(3, 94), (2, 95), (4, 93), (3, 95)], 96) == [(3, 94), (2, 95), (4, 93), (3, 95)]
    assert C._one_length([(3, 94), (2, 95), (3, 94), (3, 82)], 96) == [(3, 94), (2, 95), (3, 94), (3, 94)]
    assert C._one_length([(3, 94), (2, 95), (3, 94), (15, 95)], 96) == [(3, 94), (2, 95), (3, 94), (4, 95)]


def test_a_belly_box_short_of_a_dark_mark_at_the_tip_grows_through_it() -> None:
    """Fresh independent venue 34006: a small dark glyph at the tip of a pale stick on straw.
    The segmentation took the glyph for the stick's shadow, so its box stopped short of it and
    no stick's ends differed (2 ΔE): every 빽도 of the venue read 도 and was asked about. The
    box is grown to a stick's length through what differs from the empty mat, shade or not,
    when what shows without shade does not decide the end; then the glyph is the mark."""
    from bench.foreign_scenes import Style as Independent
    from bench.foreign_scenes import calibration_images

    style = Independent(34006)
    empty, belly, back = calibration_images(style, np.random.default_rng(34006 + 7))
    found = calibrate(empty, belly, back, mat_polygon=style.taps())
    assert found.mark is not None, found.mark_problem
    assert found.mark.marked_fraction > 2 * max(found.mark.other_fraction, 0.05) and found.mark.in_shade


def test_held_out_venue_34507_sticks_near_the_mats_colour_are_found_under_lower_thresholds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Held-out dev seed 34, venue 34507: four striped pink sticks lie well apart on a straw
    mat, plain to see, but their colour differs from the straw by less than the noise of the
    pictures allows (2.4 units), and the 등 picture was refused: "found 2 stick(s)". The
    thresholds are now lowered in steps until four sticks show, and the venue keeps them."""
    from bench.held_out_scenes import Style as HeldOut, calibration_images

    empty, belly, back, _, _ = calibration_images(HeldOut(34507), np.random.default_rng(34507 + 11))
    found = calibrate(empty, belly, back)
    assert found.segment.chroma_threshold < 2.3  # below what the noise alone set
    assert 50 < found.stick_length < 65  # whole sticks (about 55 px long here), not pieces of them
    monkeypatch.setattr(C, "FAINT_STEPS", (1.0,))
    with pytest.raises(CalibrationError, match=r"back image: found 2 stick\(s\)"):
        calibrate(empty, belly, back)


def test_held_out_venue_1539_pale_sticks_on_straw_show_at_half_the_thresholds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Held-out dev venue 1539: pale natural sticks on a straw mat under lamps. At 0.6 of the
    thresholds the 등 picture still showed no stick; at half of them all four show, whole,
    and the venue's first throw (걸) is read right without a question."""
    from bench.held_out_scenes import Style as HeldOut, calibration_images, run_style

    empty, belly, back, _, _ = calibration_images(HeldOut(1539), np.random.default_rng(1539 + 11))
    found = calibrate(empty, belly, back)
    assert 55 < found.stick_length < 65 and 12 < found.stick_width < 19  # whole sticks (59 x 15 px)
    [first] = run_style((1539, 1, None, False))
    assert (first["truth"], first["read"], first["flagged"]) == ("걸", "걸", False)
    monkeypatch.setattr(C, "FAINT_STEPS", (1.0, 0.85, 0.7, 0.6))
    with pytest.raises(CalibrationError, match=r"back image: found 0 stick\(s\)"):
        calibrate(empty, belly, back)
