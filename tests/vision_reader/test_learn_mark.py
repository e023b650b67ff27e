"""Learning the 빽도 mark from the referee's confirmations at a venue whose belly picture
could not single out the marked stick: a chalk smudge at one end of another stick differs
as much as the mark does, so calibration keeps both as candidates."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from tests.vision_reader import scenes as S
from yut_cam.vision.calibration import Calibration, calibrate
from yut_cam.vision.calmodel import MarkModel
from yut_cam.vision.errors import CalibrationError
from yut_cam.vision.learning import MARK_LEARN_RATIO, MARK_VOTE_RATIO, learn, learn_mark
from yut_cam.vision.reader import read_image
from yut_cam.vision.reasons import korean
from yut_cam.vision.types import Reading, StickReading, result_of
from yut_cam.web.calibrate import summary

SPOTS = [(400, 250, 20), (800, 230, 100), (420, 500, 160), (850, 520, 60)]
CHALK = dict(mark_color=(250, 250, 250), mark_radius=7)  # white, at one end like the mark
RED_A = 160.0  # the red mark's a* is far above this; chalk's is neutral (128)


def smudged(sticks: list[S.Stick], i: int) -> list[S.Stick]:
    """``sticks`` with stick ``i`` carrying the chalk smudge."""
    out = list(sticks)
    out[i] = dataclasses.replace(out[i], marked=True, **CHALK)  # type: ignore[arg-type]
    return out


@pytest.fixture(scope="module")
def smudge_cal() -> Calibration:
    belly = smudged([S.Stick(x, y, a, "배", marked=(i == 2)) for i, (x, y, a) in enumerate(SPOTS)], 0)
    back = [S.Stick(x, y, a, "등") for x, y, a in SPOTS]
    return calibrate(S.render([], 0), S.render(belly, 1), S.render(back, 2))


def red(mark: MarkModel) -> bool:
    return mark.mark_lab[1] > RED_A


def test_calibration_keeps_each_stick_that_could_carry_the_mark(smudge_cal: Calibration) -> None:
    assert smudge_cal.mark is None and "cannot tell which stick" in smudge_cal.mark_problem
    assert sorted(map(red, smudge_cal.mark_candidates)) == [False, True]
    assert smudge_cal.warnings[0].startswith("the 빽도 mark is not learned yet")
    assert "심판이 빽도를 한두 번 확인하면" in korean(smudge_cal.warnings[0])
    assert summary(smudge_cal, Path("venue.json"))["mark_candidates"] == 2  # the console says it will learn


def test_a_confirmed_빽도_teaches_the_mark_and_the_next_throws_read_it(smudge_cal: Calibration,
                                                                    tmp_path: Path) -> None:
    first = read_image(S.render(S.four("배등등등", 0, seed=23), seed=33), smudge_cal)
    assert (first.result, first.needs_referee) == ("도", True)  # not learned yet: the referee says
    assert first.sticks[0].mark_scores is not None and len(first.sticks[0].mark_scores) == 2
    taught = learn(smudge_cal, first, "빽도")
    assert taught.mark is not None and red(taught.mark) and not taught.warnings
    assert taught.mark_candidates == () and taught.faces.learned != smudge_cal.faces.learned
    taught.save(tmp_path / "venue.json")
    venue = Calibration.load(tmp_path / "venue.json")
    assert venue.mark is not None and venue.mark.mark_lab == pytest.approx(taught.mark.mark_lab, abs=0.01)
    for seed in (24, 25, 26):
        back_do = read_image(S.render(S.four("배등등등", 0, seed=seed), seed=seed + 10), venue)
        assert (back_do.result, back_do.needs_referee) == ("빽도", False), back_do.reasons
        # the chalked stick alone 배 up is a plain 도
        do = read_image(S.render(smudged(S.four("배등등등", seed=seed), 0), seed=seed + 10), venue)
        assert (do.result, do.needs_referee) == ("도", False), do.reasons


def test_a_confirmed_도_rules_out_the_smudge(smudge_cal: Calibration) -> None:
    r = read_image(S.render(smudged(S.four("배등등등", seed=27), 0), seed=37), smudge_cal)
    assert (r.result, r.needs_referee) == ("도", True)
    after = learn(smudge_cal, r, "도")
    assert [red(c) for c in after.mark_candidates] == [True] and after.mark is None
    # a confirmed 빽도 of a stick the remaining candidate does not read teaches nothing more
    assert learn_mark(after, r, "빽도") is after


BOX = ((0.0, 0.0), (10.0, 0.0), (10.0, 2.0), (0.0, 2.0))
CANDS = (MarkModel((100.0, 180.0, 160.0), 0.4, 0.3, 0.1), MarkModel((240.0, 128.0, 128.0), 0.5, 0.3, 0.2))


def one_up(scores: tuple[float, ...] | None, faces: str = "배등등등") -> Reading:
    sticks = tuple(StickReading(face="배" if f == "배" else "등", marked=False, on_mat=True, box=BOX,
                                score=0.1 if f == "배" else 0.9, mark_scores=scores if f == "배" else None)
                   for f in faces)
    return Reading(result=result_of(sticks), confidence=0.6, needs_referee=True, sticks=sticks)


@pytest.mark.parametrize(("scores", "result", "faces", "learned", "kept"), [
    ((0.1 * MARK_LEARN_RATIO, 0.1), "빽도", "배등등등", 0, 2),  # the first reads it clearly, the second not
    ((0.05, 0.5), "빽도", "배등등등", 1, 2),
    ((0.14, 0.0), "빽도", "배등등등", None, 2),  # read, but not clearly enough to learn from
    ((0.5, 0.25), "빽도", "배등등등", None, 2),  # both read it: which one cannot be told
    ((0.5, 0.1), "도", "배등등등", None, 1),  # a candidate that reads a clean stick marked is not the mark
    ((0.5, 0.5), "도", "배등등등", None, 0),
    ((0.05, 0.1), "도", "배등등등", None, 2),
    ((0.5, 0.0), "개", "배등등등", None, 2),  # the mark says nothing of a 개
    (None, "빽도", "배등등등", None, 2),  # the stick was not seen whole
    ((0.5, 0.0), "빽도", "배배등등", None, 2),  # two sticks up: which was the mark is unclear
])
def test_learn_mark(scores: tuple[float, ...] | None, result: str, faces: str, learned: int | None,
                    kept: int) -> None:
    cal = dataclasses.replace(calibrate(*S.calibration_set()), mark=None, mark_problem="x", mark_candidates=CANDS)
    reading = one_up(scores, faces)
    if faces.count("배") == 2:  # the referee's 빽도 would flip a clearly read stick: nothing to learn
        reading = dataclasses.replace(reading, sticks=tuple(dataclasses.replace(s, mark_scores=scores)
                                                            for s in reading.sticks))
    after = learn_mark(cal, reading, result)
    assert after.mark == (None if learned is None else CANDS[learned])
    assert len(after.mark_candidates) == (0 if learned is not None else kept)
    assert (after is cal) == (learned is None and kept == 2)
    distrusted = dataclasses.replace(cal, mark_distrusted=True)  # a mark the referee overruled is not relearned
    assert learn_mark(distrusted, reading, result) is distrusted


def test_two_fairly_clear_빽도_teach_a_candidate(tmp_path: Path) -> None:
    """A candidate that reads a confirmed 빽도 at 1.5-2 times its threshold keeps a vote, in
    the file too; the second such 빽도 makes it the mark (independent 36007: five 빽도
    read at 1.5-1.7 times, and every one-배 throw went to the referee)."""
    cal = dataclasses.replace(calibrate(*S.calibration_set()), mark=None, mark_problem="x", mark_candidates=CANDS)
    fair = one_up((0.1 * (MARK_VOTE_RATIO + MARK_LEARN_RATIO) / 2, 0.1))  # the first candidate, short of clearly
    once = learn_mark(cal, fair, "빽도")
    assert once.mark is None and [c.votes for c in once.mark_candidates] == [1, 0]
    assert once.warnings[0].startswith("the 빽도 mark is not learned yet")
    once.save(tmp_path / "venue.json")  # a restart between the two keeps the vote
    again = Calibration.load(tmp_path / "venue.json")
    assert [c.votes for c in again.mark_candidates] == [1, 0]
    twice = learn_mark(again, fair, "빽도")
    assert twice.mark is not None and twice.mark.threshold == pytest.approx(CANDS[0].threshold)
    assert twice.mark.votes == 0 and twice.mark_candidates == () and not twice.warnings
    # a vote is no mark: the second 빽도 must be as clear, and a 도 it reads marked still rules it out
    assert learn_mark(once, one_up((0.1 * 1.2, 0.1)), "빽도") is once
    assert learn_mark(once, one_up((0.1 * (MARK_VOTE_RATIO + 0.1), 0.3)), "빽도") is once  # both read it
    assert [c.votes for c in learn_mark(once, one_up((0.15, 0.1)), "도").mark_candidates] == [0]


def test_candidates_survive_the_file(smudge_cal: Calibration, tmp_path: Path) -> None:
    smudge_cal.save(tmp_path / "venue.json")
    loaded = Calibration.load(tmp_path / "venue.json").mark_candidates
    assert len(loaded) == 2
    for a, b in zip(loaded, smudge_cal.mark_candidates):
        assert a.mark_lab == pytest.approx(b.mark_lab, abs=0.01) and a.threshold == pytest.approx(b.threshold, abs=1e-4)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d["mark_candidates"][0].update(threshold=0.0), r"mark_candidates\[0\]: 'threshold' must be positive"),
    (lambda d: d["mark_candidates"][1].update(lab=[1.0, 2.0]), r"mark_candidates\[1\]: mark 'lab' needs 3 numbers"),
    (lambda d: d["mark_candidates"][0].pop("marked_fraction"), "missing field 'marked_fraction'"),
    (lambda d: d.update(mark_candidates={"lab": 1}), "mark_candidates must be a list"),
    (lambda d: d["mark_candidates"][0].update(votes=-1), r"mark_candidates\[0\]: 'votes' must be a whole number"),
    (lambda d: d["mark_candidates"][1].update(votes=1.5), r"mark_candidates\[1\]: 'votes' must be a whole number"),
    (lambda d: d["mark_candidates"][0].update(votes=True), "'votes' must be a whole number, 0 or more, not True"),
])
def test_load_refuses_bad_candidates(smudge_cal: Calibration, tmp_path: Path, edit, message: str) -> None:  # type: ignore[no-untyped-def]
    smudge_cal.save(tmp_path / "venue.json")
    data = json.loads((tmp_path / "venue.json").read_text(encoding="utf-8"))
    edit(data)
    (tmp_path / "venue.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(CalibrationError, match=message):
        Calibration.load(tmp_path / "venue.json")
