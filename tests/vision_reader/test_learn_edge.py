"""Learning where the mat ends from the referee's confirmations (learning.learn_edge): a
confirmed 낙 with a stick just beyond a found outline shows no border band goes on that far,
so a stick as far out is read 낙 without asking; a stick beyond it confirmed on the mat shows
one does, and the venue asks again about every stick just off its outline. The referee can
also confirm the found outline at calibration (learning.confirm_outline): then it is read as
a tapped one, with nothing left to learn."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest

from bench.foreign_scenes import Stick, Style, Thrower
from tests.vision_reader import scenes as S
from yut_cam.vision.calibration import Calibration, calibrate
from yut_cam.vision.errors import CalibrationError
from yut_cam.vision.learning import confirm_outline, learn, learn_edge
from yut_cam.vision.reader import edge_call, read_image
from yut_cam.vision.types import Reading, StickReading

BOX = ((0.0, 0.0), (10.0, 0.0), (10.0, 2.0), (0.0, 2.0))
AT_EDGE = "stick {}: at the mat's edge (3 px inside its outline), check it touches the mat"


def reading(outside: list[float | None], at_edge: tuple[int, ...] = ()) -> Reading:
    """Four 등 sticks (or as many as ``outside`` has), each ``outside`` px beyond the outline
    or inside it (None); ``at_edge``: the sticks asked about at the mat's edge."""
    sticks = tuple(StickReading(face="등", marked=False, on_mat=True, box=BOX, score=0.9, outside=o) for o in outside)
    return Reading(result="모", confidence=0.6, needs_referee=True, sticks=sticks,
                   reasons=tuple(AT_EDGE.format(i + 1) for i in at_edge))


@pytest.fixture(scope="module")
def found_cal() -> Calibration:
    """The in-package venue with an outline as the reader finds one: 4 px of doubt either way."""
    return dataclasses.replace(calibrate(*S.calibration_set()), mat_doubt=(4.0, 4.0))


# (what the venue knew: off seen, on seen), the reading, the confirmed result -> (off seen, on seen)
CASES = [
    ((0.0, False), reading([None, 6.0, None, None]), "낙", (6.0, False)),  # learns how far out it lay
    ((9.0, False), reading([None, 6.0, None, None]), "낙", (6.0, False)),  # ... the least distance
    ((5.0, False), reading([None, 6.0, None, None]), "낙", (5.0, False)),
    ((0.0, False), reading([None, -2.0, None, None]), "낙", (0.0, False)),  # seen in part: may reach back in
    ((0.0, False), reading([None, 6.0, 8.0, None]), "낙", (0.0, False)),  # two beyond: which was off?
    ((0.0, False), reading([None, 6.0, None, None], at_edge=(0,)), "낙", (0.0, False)),  # or the one at the edge
    ((0.0, False), reading([None, 6.0, None]), "낙", (0.0, False)),  # a fourth stick unseen
    ((0.0, False), reading([None, None, None, None]), "낙", (0.0, False)),  # none beyond
    ((6.0, False), reading([None, None, None, None]), "모", (6.0, False)),
    ((6.0, False), reading([None, 9.0, None, None]), "모", (0.0, True)),  # the mat goes on past its outline
    ((0.0, True), reading([None, 6.0, None, None]), "낙", (0.0, True)),  # ... and that is not forgotten
]


@pytest.mark.parametrize(("knew", "read", "result", "learns"), CASES)
def test_a_confirmation_teaches_where_the_mat_ends(found_cal: Calibration, knew: tuple[float, bool], read: Reading,
                                                    result: str, learns: tuple[float, bool]) -> None:
    cal = dataclasses.replace(found_cal, mat_off_seen=knew[0], mat_on_seen=knew[1])
    after = learn_edge(cal, read, result)
    assert (after.mat_off_seen, after.mat_on_seen) == learns
    assert (after is cal) == (learns == knew)


def test_an_outline_the_referee_tapped_learns_nothing(found_cal: Calibration) -> None:
    tapped = dataclasses.replace(found_cal, mat_doubt=(0.0, 0.0))
    assert learn_edge(tapped, reading([None, 6.0, None, None]), "낙") is tapped
    assert learn(tapped, reading([None, 6.0, None, None]), "낙") is tapped


# a 12 px stick at an outline found with 4 px of doubt: a stick is surely off 10 px beyond it;
# with a stick confirmed off 7 px out, as far out as that (at least 2.4 px past the doubt)
@pytest.mark.parametrize(("depth", "reach", "off_seen", "off", "asks"), [
    (-9.5, -9.5, 0.0, False, "just off"),
    (-9.5, -9.5, 7.0, True, ""),
    (-7.0, -7.0, 7.0, True, ""),
    (-5.0, -5.0, 7.0, False, "just off"),  # nearer than the stick confirmed off
    (-5.0, -5.0, 2.0, False, "just off"),  # within the outline's doubt and a box's shortfall
    (-10.5, -2.0, 7.0, False, "just off"),  # seen in part: its hidden end may touch
    (3.0, 3.0, 7.0, False, "at the mat's edge"),  # inside, what is off beyond does not matter
])
def test_a_stick_as_far_out_as_one_confirmed_off_is_off(depth: float, reach: float, off_seen: float, off: bool,
                                                        asks: str) -> None:
    surely_off, said = edge_call(depth, reach, 12.0, (4.0, 4.0), off_seen)
    assert surely_off is off
    assert said.startswith(asks) and bool(said) == bool(asks), said


def test_the_file_keeps_what_was_learned_and_refuses_nonsense(found_cal: Calibration, tmp_path: Path) -> None:
    path = tmp_path / "venue.json"
    for knew in ((6.5, False), (0.0, True), (0.0, False)):
        dataclasses.replace(found_cal, mat_off_seen=knew[0], mat_on_seen=knew[1]).save(path)
        back = Calibration.load(path)
        assert (back.mat_off_seen, back.mat_on_seen) == knew
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "mat_off_seen" not in data and "mat_on_seen" not in data  # nothing learned, nothing written
    for bad in ({"mat_off_seen": -1.0}, {"mat_on_seen": "yes"}, {"mat_off_seen": 5.0, "mat_on_seen": True},
                {"mat_off_seen": "far"}):
        path.write_text(json.dumps({**data, **bad}, ensure_ascii=False), encoding="utf-8")
        with pytest.raises(CalibrationError, match="mat_off_seen"):
            Calibration.load(path)


class EdgeVenue:
    """Independent-renderer venue 2006 (its outline found, 4 px of doubt outside), throwing
    three 등 sticks well inside the mat and stick 3, 배 up, ``off_cm`` beside its left edge (< 0: over
    it, that far onto the mat)."""

    def __init__(self) -> None:
        self.style = Style(2006)
        self.rng = np.random.default_rng(2013)
        self.th = Thrower(self.style)
        style, rng, th = self.style, self.rng, self.th
        self.cal = calibrate(style.render([], rng), style.render(th.calibration(rng, True), rng),
                             style.render(th.calibration(rng, False), rng))

    def throw(self, off_cm: float) -> np.ndarray:
        style = self.style
        c, s = math.cos(style.mat_yaw), math.sin(style.mat_yaw)
        u, v = -style.mat_w / 2 - off_cm - style.width / 2, 10.0
        out = Stick(2, u * c - v * s, u * s + v * c, style.mat_yaw + math.pi / 2, True)
        others = [self.th.free(self.rng, i, False, [out], min_gap=6.0, inset=12.0) for i in (0, 1, 3)]
        return style.render(others[:2] + [out] + others[2:], self.rng)


@pytest.fixture(scope="module")
def edge_venue() -> EdgeVenue:
    return EdgeVenue()


def test_a_venue_reads_a_stick_off_its_found_outline_once_one_as_far_out_was_confirmed_off(
        edge_venue: EdgeVenue) -> None:
    """Sticks 1, 2 and 3 cm beside the mat's left edge are all asked about at first."""
    cal = edge_venue.cal
    assert cal.mat_doubt[1] > 0.0  # found, not tapped
    near, middle, far = (edge_venue.throw(cm) for cm in (1.0, 2.0, 3.0))
    for image in (near, middle, far):
        r = read_image(image, cal)
        assert r.needs_referee and any("just off the mat" in x for x in r.reasons), r.reasons
    taught = learn(cal, read_image(middle, cal), "낙")
    assert taught.mat_off_seen > 0.0
    far_read = read_image(far, taught)
    assert (far_read.result, far_read.needs_referee) == ("낙", False), far_read.reasons
    assert read_image(near, taught).needs_referee  # nearer than the stick confirmed off: still asked
    # the referee says a stick beyond the outline touched the mat after all: ask again
    corrected = learn(taught, read_image(near, taught), "모")
    assert corrected.mat_on_seen and read_image(far, corrected).needs_referee


def test_an_outline_the_referee_confirmed_reads_a_stick_just_off_it_unasked(edge_venue: EdgeVenue) -> None:
    """Confirmed at calibration (the referee saw the line run along the mat's edge), the found
    outline is read as a tapped one: a stick 2 cm off it is 낙 unasked (one 1 cm off is asked
    still: its box may reach that far past it), one lying over the edge is on the mat, and
    there is nothing left to learn of where the mat ends."""
    cal = edge_venue.cal
    confirmed = confirm_outline(dataclasses.replace(cal, mat_off_seen=6.0))
    assert confirmed.mat_doubt == (0.0, 0.0) and confirmed.mat_off_seen == 0.0
    assert confirm_outline(confirmed) is confirmed  # exact already
    middle = edge_venue.throw(2.0)
    assert read_image(middle, cal).needs_referee  # found: asked, as above
    off = read_image(middle, confirmed)
    assert (off.result, off.needs_referee) == ("낙", False), off.reasons
    assert learn(confirmed, off, "낙") == confirmed  # a tapped outline is exact: nothing learned
    over = read_image(edge_venue.throw(-1.5), confirmed)  # a third of it over the mat
    assert over.result == "도" and not any("just off" in x for x in over.reasons), (over.result, over.reasons)
