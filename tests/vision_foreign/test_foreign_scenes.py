"""The throw reader on scenes from an independent renderer (bench/foreign_scenes.py).

A modest seeded batch (6 styles x 8 throws, cases in turn: clean, touching, edge, 낙), each
style calibrated once from its own three pictures. The levels below are what the reader met
when this test was written (measured, then set just under); they are not the product
targets of issue 4 (≥ 99.5% exact unflagged, 낙 never missed, ≤ 5% flagged).  Since the
mat finder includes border bands (yut_cam/vision/matfind.py) edge throws are read well; the
larger bench (`python -m bench.foreign_scenes`) still shows ~11-13% flagged (touching sticks,
the 빽도 mark) and, rarely, a band search that overshoots onto the floor.
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple

import numpy as np
import pytest

from bench.foreign_scenes import (
    BELLY_RETAKES,
    CASES,
    OUTLINE_SEEN,
    RETAKE_SAID,
    Style,
    Thrower,
    calibrate_as_referee,
    calibration_images,
    collect,
    mark_trouble,
    outline_off,
    referee_calibration,
    retake_belly,
    run_style,
    settle_outline,
)

SEED, STYLES, THROWS = 7, 6, 8


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return collect(STYLES, THROWS, SEED, dump=None, workers=2)


def _read(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["read"] is not None]


def test_renderer_truth_matches_its_geometry() -> None:
    style = Style(123)
    th = Thrower(style)
    rng = np.random.default_rng(5)
    for case in CASES * 3:
        sticks, truth = th.throw(rng, case)
        depths = [th.depth(s) for s in sticks]
        off = [hi < 0 for _, hi in depths]
        assert (truth.result == "낙") == any(off), (case, depths)
        if case == "edge":
            assert any(lo < 0 < hi for lo, hi in depths), depths
        if case == "clean":
            assert min(th.gap(a, b) for i, a in enumerate(sticks) for b in sticks[i + 1:]) >= 2.0
        assert all(th.in_view(s) for s in sticks)


def test_renderer_is_seeded() -> None:
    a, b = Style(31), Style(31)
    ra, rb = np.random.default_rng(1), np.random.default_rng(1)
    sa, _ = Thrower(a).throw(ra, "touching")
    sb, _ = Thrower(b).throw(rb, "touching")
    assert np.array_equal(a.render(sa, ra), b.render(sb, rb))


def test_most_styles_calibrate(records: list[dict[str, Any]]) -> None:
    # measured: 6 of 6, one of them without its 빽도 mark (a thin ring, not distinct)
    styles = {r["style"]: r["cal_mode"] for r in records}
    assert sum(m != "failed" for m in styles.values()) >= 5, styles


def test_without_the_mark_every_throw_with_one_stick_up_is_handed_over(records: list[dict[str, Any]]) -> None:
    # (a throw with a stick wholly off the mat is 낙 whatever the mark)
    ones = [r for r in _read(records) if r.get("cal_mark") is False and r["read_faces"].count("배") == 1
            and r["read"] != "낙"]
    assert ones, "a style of this set calibrates without its mark (measured: 4 such throws)"
    assert all(r["flagged"] and any("빽도 mark not learned" in why for why in r["reasons"]) for r in ones), ones


def test_nak_is_never_read_as_playable_when_unflagged(records: list[dict[str, Any]]) -> None:
    missed = [r for r in _read(records) if r["truth"] == "낙" and not r["flagged"] and r["read"] != "낙"]
    assert not missed, missed


def test_clean_and_touching_unflagged_exact(records: list[dict[str, Any]]) -> None:
    # measured 19/20 (95%): one 빽도 read as 도 with the marked stick touching another
    un = [r for r in _read(records) if r["case"] in ("clean", "touching") and not r["flagged"]]
    exact = sum(r["read"] == r["truth"] for r in un)
    assert len(un) >= 12 and exact >= 0.9 * len(un), [(r["truth"], r["read"]) for r in un]


def test_all_cases_unflagged_exact_and_flag_share(records: list[dict[str, Any]]) -> None:
    # measured 33/37 (89%) exact on unflagged, 7.5% flagged; the misses are edge sticks on a
    # border band read as 낙 (see the module docstring)
    read = _read(records)
    un = [r for r in read if not r["flagged"]]
    exact = sum(r["read"] == r["truth"] for r in un)
    assert exact >= 0.85 * len(un), [(r["case"], r["truth"], r["read"]) for r in un if r["read"] != r["truth"]]
    # the flag share of venues that read the mark (without it, one stick 배 up always asks)
    marked = [r for r in read if r.get("cal_mark")]
    assert sum(bool(r["flagged"]) for r in marked) <= 0.2 * len(marked)


def test_report_counts_a_read_error_as_flagged_not_a_crash() -> None:
    # held-out 49509/4 (bystander over the mat) raised a read error at a venue calibrated
    # without the mark: the bench's report then died looking for the faces it never read
    from bench.foreign_scenes import report
    base = {"style": 1, "cal_mode": "auto", "cal_error": "", "cal_mark": False, "learned": 0, "band": False,
            "mat_cover": 1.0, "mat_excess": 0.0, "case": "clean", "truth": "도"}
    records = [dict(base, throw=0, read="error", flagged=True, reasons=["read error: camera moved"]),
               dict(base, throw=1, read="도", flagged=True, reasons=["빽도 mark not learned"], alternatives=["빽도"],
                    read_faces="배등등등", marked=[False] * 4)]
    lines = report(records)
    markless = next(line for line in lines if line.startswith("calibrated without the 빽도 mark"))
    assert "1 throws read" in markless and "one stick 배 up (not 낙): 1, handed to the referee 1" in markless


@pytest.mark.parametrize("shift", [0.0, 2.5, 7.0])
def test_outline_off_is_how_far_one_outline_strays_from_the_other(shift: float) -> None:
    square = [(100.0, 100.0), (300.0, 100.0), (300.0, 250.0), (100.0, 250.0)]
    moved = [(x + shift, y) for x, y in square]
    assert outline_off(square, moved) == pytest.approx(shift, abs=0.05)
    grown = [(100.0 - shift, 100.0), (300.0, 100.0), (300.0, 250.0), (100.0 - shift, 250.0)]  # one side out
    assert outline_off(square, grown) == pytest.approx(shift, abs=0.05)


@pytest.mark.parametrize(("venue", "looked"), [
    (51000, "confirmed"),  # the found outline runs along the mat's edge (within 2 px)
    (55021, "tapped"),  # part of a border band left outside it (13 px), with no warning
])
def test_the_benchs_referee_confirms_an_outline_on_the_mats_edge_and_taps_one_off_it(venue: int,
                                                                                      looked: str) -> None:
    style = Style(venue)
    empty, belly, back = calibration_images(style, np.random.default_rng(venue + 11))
    cal, mode, _ = calibrate_as_referee(empty, belly, back, style.taps())
    assert mode == "auto" and cal.mat_doubt != (0.0, 0.0) and not cal.mat_unsure
    off = outline_off(style.mat_polygon_image(), list(cal.mat_polygon))
    assert (off <= OUTLINE_SEEN * cal.image_size[0]) == (looked == "confirmed"), off
    settled, how = settle_outline(cal, empty, belly, back, style.taps(), style.mat_polygon_image())
    assert how == looked and settled.mat_doubt == (0.0, 0.0)
    assert (settled.mat_polygon == cal.mat_polygon) == (looked == "confirmed")
    assert settle_outline(settled, empty, belly, back, style.taps(), style.mat_polygon_image()) == (settled, "")


class _Venue(NamedTuple):
    """Independent venue 65019's calibration pictures, as the bench's referee first calibrates them."""

    style: Style
    empty: Any
    belly: Any
    back: Any
    cal: Any

    def retake(self, lay: np.random.Generator) -> Any:
        """The 배 picture taken again, the sticks laid on ``lay``."""
        return self.style.render(Thrower(self.style).calibration(lay, True), lay)

    def calibrate_with(self, picture: Any) -> Any:
        return referee_calibration(self.style, self.empty, picture, self.back)


@pytest.fixture(scope="module")
def venue_65019() -> _Venue:
    style = Style(65019)
    empty, belly, back = calibration_images(style, np.random.default_rng(65019 + 7))
    return _Venue(style, empty, belly, back, referee_calibration(style, empty, belly, back))


def test_the_benchs_referee_retakes_the_belly_picture_when_calibration_says_to(venue_65019: _Venue) -> None:
    """Independent venue 65019: its first 배 picture shows the mark too little apart from
    another stick's ends (0.37 against 0.19), and calibration says to retake it with the mark
    in plain view. The bench's referee does; the sticks laid again, the mark is learned. A
    calibration that says nothing of the sort is kept as it is, with no retake."""
    v = venue_65019
    cal = v.cal
    assert cal.mark is None and mark_trouble(cal) == 4
    assert any("retake the 배 picture" in w for w in cal.warnings)
    lay = np.random.default_rng(65019 + 13)
    shots: list[Any] = []

    def shoot() -> Any:
        shots.append(v.retake(lay))
        return shots[-1]

    again, picture, taken = retake_belly(cal, v.belly, shoot, v.calibrate_with)
    assert taken == len(shots) == 1 and picture is shots[0]
    assert again.mark is not None and mark_trouble(again) == 0
    assert not any("빽도 mark" in w for w in again.warnings)
    assert retake_belly(again, picture, shoot, v.calibrate_with) == (again, picture, 0)
    assert len(shots) == 1


def test_the_benchs_referee_ranks_a_mark_by_the_throws_it_hands_over(venue_65019: _Venue) -> None:
    """A small mark asks only the throws read 도, candidates every one-배 throw until a
    confirmed 빽도, a faint mark every one for good, no mark to learn every one with nothing to
    learn: a retake is kept only if it does better (a first version kept candidates over a
    small mark, and independent 66027 then asked every one-배 throw)."""
    v = venue_65019
    belly, back = v.belly, v.back
    well = v.calibrate_with(v.retake(np.random.default_rng(65019 + 13)))
    assert well.mark is not None and mark_trouble(well) == 0
    small = dataclasses.replace(well, mark=dataclasses.replace(well.mark, marked_fraction=0.18))
    faint = dataclasses.replace(well, mark=dataclasses.replace(well.mark, marked_fraction=0.1))
    candidates = dataclasses.replace(well, mark=None, mark_candidates=(well.mark,))
    none = dataclasses.replace(well, mark=None, mark_candidates=())
    assert [mark_trouble(c) for c in (well, small, candidates, faint, none)] == [0, 1, 2, 3, 4]
    assert all(("retake the 배 picture" in " ".join(c.warnings)) == (mark_trouble(c) in RETAKE_SAID)
               for c in (well, small, candidates, faint, none))
    # a retake that gives candidates does not replace a small mark, and one that gives a small mark replaces none
    assert retake_belly(small, belly, lambda: belly, lambda _: candidates) == (small, belly, BELLY_RETAKES)
    assert retake_belly(none, belly, lambda: back, lambda _: small)[:2] == (small, back)


@pytest.mark.parametrize(("argv", "limit"), [([], 2), (["--belly-retakes", "0"], 0), (["--belly-retakes", "1"], 1)])
def test_the_benches_retakes_are_set_on_the_command_line(argv: list[str], limit: int, venue_65019: _Venue,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """``--belly-retakes 0`` runs the benches as before session 49 (the referee never
    retakes the 배 picture), to pair a run with the figures measured then."""
    import bench.foreign_scenes as bench

    monkeypatch.setattr(bench, "BELLY_RETAKES", 2)
    seen: list[int] = []

    def collect_fn(*_: Any) -> list[dict[str, Any]]:
        seen.append(bench.BELLY_RETAKES)
        return []

    assert bench.run_cli(argv, None, collect_fn) == 0
    assert seen == [limit]
    cal, belly = venue_65019.cal, venue_65019.belly
    shots: list[Any] = []

    def shoot() -> Any:  # the same picture again: the mark never shows, so only the limit stops the referee
        shots.append(belly)
        return belly

    _, _, taken = retake_belly(cal, belly, shoot, lambda _: cal)
    assert taken == len(shots) == limit


def test_the_sticks_shadows_past_their_tips_hide_no_mark() -> None:
    """Independent venue 55012: the belly picture's sticks cast their shadows past their tips
    on a tan mat, two thirds as light and as colourful as it; read as the sticks' own ends, they
    made two sticks look marked, and calibration found the mark on none (every 도 and 빽도 was
    then asked). Taken for the mat's shade, the red ring is the mark: its 도 and its 빽도 read
    unasked."""
    records = run_style((55012, 9, None, True))
    assert all(r["cal_mark"] for r in records)
    one_up = [r for r in records if r["read"] in ("도", "빽도")]  # one stick read 배 up: its mark decides
    assert [r["truth"] for r in one_up] == ["도", "도", "도", "빽도"]
    for r in one_up:
        assert r["read"] == r["truth"] and not any("빽도 mark" in why for why in r["reasons"]), r
