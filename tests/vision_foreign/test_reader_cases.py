"""Throws of the renderers the reader once got wrong without a doubt: each is now read right
or handed to the referee (found in the held-out and independent benches)."""

from __future__ import annotations

import pytest

from bench.held_out_scenes import run_style
from yut_cam.vision.reasons import doubts_mark


def test_grey_stick_on_a_beige_floor_is_not_lost_as_shade() -> None:
    """Held-out venue 1503, throw 3: a grey stick lies on the tiles, darker than them with
    nearly their colour, so the shadow test took it out whole; the region of another stick
    and its shadow was then split in two to make four sticks, and 개 came out unflagged."""
    rec = run_style((1503, 4, None, False))[3]
    assert rec["truth"] == "낙"
    assert rec["read"] == "낙" or rec["flagged"], rec


def test_sticks_in_a_bystanders_shadow_are_read_in_its_light() -> None:
    """Held-out venue 1510, throw 0: a person's shadow lies over part of the mat. Compared
    with the empty mat in the calibration's light, the shade became dozens of stick-like
    regions and the throw read 윷; in the shade's own light the four sticks stand out."""
    rec = run_style((1510, 1, None, False))[0]
    assert rec["person_shadow"]
    assert rec["read"] == rec["truth"] == "걸", rec
    assert not any("stick-like regions" in why for why in rec["reasons"]), rec["reasons"]


@pytest.mark.parametrize(("venue", "throw"), [
    # the one 배-up stick is small (10 px wide) and its box stops a quarter short of the end
    # where the mark is painted (a dark dot at the very tip, taken for shade)
    (11002, 12),
    # a pale stick on straw at the mat's edge: its box is 87% of a stick's length and shifted
    # off the marked end onto the border, farther than the mark is read past it (fresh seed 50)
    (50037, 0),
])
def test_a_short_box_on_the_one_flat_stick_may_have_missed_its_mark(venue: int, throw: int) -> None:
    """Independent renderer: the mark was not seen and 빽도 came out as 도, unflagged."""
    from bench.foreign_scenes import run_style as run_foreign

    rec = run_foreign((venue, throw + 1, None, False))[throw]
    assert rec["truth"] == "빽도"
    assert rec["read"] == "빽도" or any("빽도 mark may be missed" in why for why in rec["reasons"]), rec


def test_a_mark_read_at_half_the_threshold_is_asked_about() -> None:
    """Independent venue 56038, throw 12 (fresh seed 56, thirty sticks learned): the marked
    stick, alone 배 up and apart, read its mark at 0.56 of the venue's threshold, under the
    band of doubt's old bottom (0.6): 빽도 read 도, unflagged."""
    from bench.foreign_scenes import run_style as run_foreign

    rec = run_foreign((56038, 13, None, True))[12]
    assert (rec["truth"], rec["read_faces"]) == ("빽도", "배등등등")
    assert rec["read"] == "빽도" or any(why.startswith("빽도 mark unsure (mark score") for why in rec["reasons"]), rec


def test_a_low_contrast_venue_asks_for_a_wider_face_margin() -> None:
    """Held-out venue 1505, throw 2: at this venue the calibration's own sticks scored up to
    a tenth and more away from 0 and 1, and a 등 stick scoring a margin of 0.31 was a 배 read
    wrong (도 read 개). The face margin asked for grows with the venue's fit error."""
    rec = run_style((1505, 3, None, False))[2]
    assert rec["truth"] == "도"
    assert rec["read"] == "도" or any("face unsure" in why for why in rec["reasons"]), rec


def test_a_stick_across_the_marked_one_is_not_taken_for_its_body() -> None:
    """Independent renderer, venue 14001, throw 5: a dark 등 stick lies across the middle of
    the one 배-up stick. The body colour the mark is told from was the median of the middle,
    that is of the crossing stick; the pale wood then looked as mark-like as the red ring at
    one end, both ends scored alike, and 빽도 came out as 도, unflagged."""
    from bench.foreign_scenes import run_style as run_foreign

    rec = run_foreign((14001, 6, None, False))[5]
    assert rec["truth"] == "빽도" and rec["case"] == "touching"
    assert rec["read"] == "빽도" or rec["flagged"], rec


def test_a_stick_across_the_middle_does_not_hide_the_mark_at_an_end() -> None:
    """Independent renderer, venue 11010, throw 9: a dark stick lies across the middle of the
    one 배-up stick. Rows mark-like in the middle are left out as shade along a side of the
    box; counted over the crossing stick too, every row was left out, and the red mark at
    one end with it (빽도 read as 도, unflagged). Only the stick's own pixels count now."""
    from bench.foreign_scenes import run_style as run_foreign

    rec = run_foreign((11010, 10, None, False))[9]
    assert rec["truth"] == "빽도" and rec["case"] == "touching"
    assert rec["read"] == "빽도" or rec["flagged"], rec


@pytest.mark.parametrize(("venue", "throw", "truth", "asks"), [
    (1586, 4, "윷", False),  # eight regions, four of a stick's colour
    (1527, 11, "낙", False),  # thirteen regions: the shade over the mat's rim in nine pieces
    (1522, 6, "개", True),  # bark sticks nearly the mat's colour: only two stand out by it
])
def test_the_rims_of_a_bystanders_shade_are_not_taken_for_sticks(venue: int, throw: int, truth: str,
                                                                   asks: bool) -> None:
    """Held-out venues with a person's shade over the mat's rim: its pieces were stick-like
    regions. The four kept were the likeliest by how solid they look (at 1586 one was a piece
    of the rim off the mat: 윷 read 낙), and the throw was asked about. Regions of the empty
    mat's colour, only darker, are kept last now, and with exactly four of a stick's colour
    left the throw is read without asking; with fewer, it is still asked about."""
    rec = run_style((venue, throw + 1, None, False))[throw]
    assert rec["person_shadow"] and rec["truth"] == truth
    assert rec["read"] == truth, rec
    assert rec["flagged"] is asks, rec["reasons"]


@pytest.mark.parametrize(("venue", "throw"), [(1505, 0), (1517, 0), (1573, 1)])
def test_the_face_is_read_across_the_sticks_own_width(venue: int, throw: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Held-out venues 1505 (natural wood with dots, sun), 1517 (lacquer, overcast) and 1573
    (low-contrast plain wood, lamps): the face was read on 80% of the box's width. A box
    narrower than its stick (1505: 10.7 and 11.1 px for a 12 px stick; 1573: 6 px for 9.5)
    read less of the shading across a round face, and one wider (1517: 21.9 px for 20.5)
    some of the rim beside it; a stick's margin fell under the venue's, and each throw went
    to the referee for that alone. Read on 80% of the stick's own width along the box's
    middle, each is read right, unasked, at the venue's own margin. (These are first throws:
    the wider margin of a venue that has learned little, which is not what this is about,
    is set aside; 1517's stick 2 reads at 0.26, asked under it.)"""
    from yut_cam.vision import reader

    monkeypatch.setattr(reader, "YOUNG_STICKS", 0)
    rec = run_style((venue, throw + 1, None, True))[throw]
    assert rec["read"] == rec["truth"], rec
    assert not rec["flagged"], rec["reasons"]


def test_two_boxes_split_out_on_one_place_are_a_doubt() -> None:
    """Held-out venue 1553, throw 9: two 등 sticks lie side by side, touching. Their region was
    split into two boxes 0.55 widths apart across and 0.1 along, one astride the seam between
    the sticks, which read as 배 (0.20); 도 came out as 개, unasked. Two sticks side by side are
    a width apart: boxes on one place are a split to doubt."""
    rec = run_style((1553, 10, None, True))[9]
    assert rec["truth"] == "도" and rec["case"] == "touching"
    assert rec["read"] == "도" or rec["flagged"], rec
    assert any("lie on one place" in why for why in rec["reasons"]), rec["reasons"]


def test_a_stick_split_in_two_across_its_own_middle_to_make_four_is_a_doubt() -> None:
    """Held-out venue 2557, throw 3 (낙): the fourth stick lay off the mat, unseen, and the
    region of one lacquered stick (one stick's outline, half again its area) was split in two
    to make four: two boxes crossing at its middle, 21° apart. Two boxes on one place were
    doubted only when they lay the same way, and 낙 came out as 걸, unasked. Sticks crossing
    at their middles that far apart would not have one stick's outline."""
    rec = run_style((2557, 4, None, True))[3]
    assert rec["truth"] == "낙"
    assert rec["read"] == "낙" or rec["flagged"], rec
    assert any("split into 2 to make four" in why for why in rec["reasons"]), rec["reasons"]


@pytest.mark.parametrize(("venue", "throw"), [(1563, 1), (1598, 0)])
def test_calibration_learns_the_faces_on_the_band_they_are_read_on(venue: int, throw: int) -> None:
    """Held-out venues 1563 (natural wood, window) and 1598 (low-contrast wood, window): the
    reader reads a face on 80% of the stick's width, but calibration learned the faces on 80%
    of each calibration box's width. A 배 stick under a crossing 등 one (1563) and a 등 stick
    by the mat's rim (1598) were read as the other face beyond the venue's margin: 개 came out
    as 도 and as 걸, unasked. Learned on the same band, each is read right or asked about."""
    rec = run_style((venue, throw + 1, None, True))[throw]
    assert rec["truth"] == "개"
    assert rec["read"] == rec["truth"] or rec["flagged"], rec


def test_a_ring_printed_on_the_mat_is_not_taken_for_its_edge() -> None:
    """Held-out venue 30532: a grey banner, nearly the tiled floor's colour, printed with
    rings; the mat finder took the outer ring for the mat's edge (38% of the mat) and every
    stick beyond it was read off the mat: 12 throws of 15 read 낙, 9 unasked. One of the
    calibration sticks lay beyond that ring: calibration refuses the outline for it and asks
    for the mat's corners, and with them the throws are read on the mat."""
    records = run_style((30532, 3, None, False))
    rec = records[0]
    assert rec["cal_first"] == "polygon" and "lies off the mat's outline" in rec["cal_error"], rec["cal_error"]
    assert rec["mat_cover"] > 0.97
    for rec in records:
        assert rec["read"] == rec["truth"] or rec["flagged"], rec


def test_a_dark_glyph_at_the_tip_is_learned_and_never_missed_unasked() -> None:
    """Fresh independent venue 34006: a small dark glyph at the tip of a pale stick on straw,
    taken for the stick's shadow. Calibration now learns it (boxes grown through shade), and
    throw 0's 빽도 reads 빽도 unasked. In throw 5 the marked stick touches a 등 stick and its box
    stops at the glyph, 14% short of a stick: the window the mark is read in ends where the
    glyph begins, and 빽도 read 도 unasked. What lies past a window that short is looked at:
    mark-like, the referee is asked."""
    from bench.foreign_scenes import run_style as run_foreign

    records = run_foreign((34006, 6, None, True))
    assert records[0]["truth"] == "빽도" and records[0]["read"] == "빽도" and not records[0]["flagged"]
    assert records[5]["truth"] == "빽도" and records[5]["case"] == "touching"
    for rec in records:
        assert rec["read"] == rec["truth"] or rec["flagged"], rec


@pytest.mark.parametrize(("venue", "throw", "truth"), [
    # the mark is a pink dot at the very tip of a pale green stick on a brown mat; the box
    # stopped 4% short of that tip, and the window the mark is read in went on past the box
    # only over the stick's body colour: 빽도 came out as 도, unflagged
    (44014, 4, "빽도"),
    # a plain stick at the mat's edge, its box 5% short: read into the window, the dark floor
    # past its tip looked like the dark mark, and 도 came out as 빽도 (the first mend did that)
    (40038, 10, "도"),
    # a dark knot near the tip of the one plain 배 stick, 0.69 and 0.64 as mark-like as the
    # venue's dark X at calibration (fresh seed 45): 도 read 빽도 unasked
    (45015, 0, "도"), (45018, 8, "도"),
    # a plain stick's end over the mat's red border: 0.36 as mark-like as the red mark
    (43004, 10, "도"),
])
def test_a_doubtful_mark_is_read_right_or_asked_about(venue: int, throw: int, truth: str) -> None:
    """Independent renderer (44014 from fresh seed 44, 45015 and 45018 from fresh seed 45):
    what lies just past a box short of a stick, of the mark's colour and no shade, may be the
    mark at the tip or the floor; an end well over the mark's threshold but under 0.7 of the
    mark's share of its end at calibration may be a knot or a speck, not the mark."""
    from bench.foreign_scenes import run_style as run_foreign

    rec = run_foreign((venue, throw + 1, None, False))[throw]
    assert rec["truth"] == truth
    assert rec["read"] == truth or any(map(doubts_mark, rec["reasons"])), rec


def test_a_plain_stick_with_both_tips_of_the_marks_colour_is_read_unasked() -> None:
    """Independent venue 44012 (fresh seed 44), throw 0: the one 배-up stick is plain, its box
    2% short of a stick, and both its tips (rim shade on the stick) look like the dark mark.
    Read on past the box, both ends gain alike: no sign of a mark, and 도 is read unasked
    (asking whenever such pixels lay past a short box asked 6-14 throws more in 600)."""
    from bench.foreign_scenes import run_style as run_foreign

    rec = run_foreign((44012, 1, None, False))[0]
    assert rec["truth"] == "도"
    assert rec["read"] == "도" and not rec["flagged"], rec


def test_a_region_split_beyond_its_area_leaves_one_read_as_a_stick_in_doubt() -> None:
    """Held-out venue 48521, throw 13 (fresh seed 48): a T of two 배 sticks with their shadow
    (2.7 sticks' area) was split into three to make four, and two charred 등 sticks side by
    side (1.5 sticks' area, an outline narrow enough for one) were read as one stick: 개 came
    out as 걸, unasked. The share of the four by area may be wrong, so the region is asked
    about."""
    rec = run_style((48521, 14, None, True))[13]
    assert rec["truth"] == "개" and rec["case"] == "touching"
    assert rec["read"] == rec["truth"] or any("read as one stick" in why for why in rec["reasons"]), rec


def test_a_mark_against_another_stick_is_asked_about() -> None:
    """Independent venue 51027 (fresh seed 51), throw 1: the red ring at the end of the one
    배-up stick lies against a dark 등 stick. Pixels next to another stick are read only where
    they show this stick's body; the end was 0.77 clear of the other stick, the ring was not
    read, and 빽도 came out as 도, unflagged."""
    from bench.foreign_scenes import run_style as run_foreign

    rec = run_foreign((51027, 2, None, True))[1]
    assert rec["truth"] == "빽도" and rec["case"] == "touching"
    assert rec["read"] == "빽도" or any(map(doubts_mark, rec["reasons"])), rec


@pytest.mark.parametrize(("venue", "throw"), [(52508, 9), (52519, 5)])
def test_a_split_stick_reading_past_the_round_face_is_asked_about(venue: int, throw: int) -> None:
    """Held-out venues of fresh seed 52, touching throws read 걸 for 윷, unflagged: at 52508/9
    two 배 sticks cross at a shallow angle and one box split out of them lies half on the red
    mat; at 52519/5 a 배 stick leans across another. Each box reads 1.25 (the round face is 1),
    darker than any 등 stick here but not far enough from one by its features to look like
    neither. A split stick reading past the round face is asked about."""
    rec = run_style((venue, throw + 1, None, True))[throw]
    assert rec["truth"] == "윷" and rec["case"] == "touching"
    assert rec["read"] == "윷" or any("looks like neither face" in why for why in rec["reasons"]), rec


@pytest.mark.parametrize(("renderer", "venue", "throw"), [("independent", 62007, 5), ("held-out", 61504, 13)])
def test_a_split_stick_in_its_neighbours_shade_that_looks_round_is_read(renderer: str, venue: int, throw: int) -> None:
    """Fresh independent 62007/5 and held-out 61504/13, touching throws read right: a 등 stick
    partly under a 배 stick, in its shade, reads past the round face (1.2-1.25) but lies
    within 2.2 and 1.9 spreads of it by its features. It was asked about as looking like
    neither face; a split stick is asked so only when it also lies far from the round face."""
    from bench.foreign_scenes import run_style as run_foreign

    run = run_foreign if renderer == "independent" else run_style
    rec = run((venue, throw + 1, None, True))[throw]
    assert rec["case"] == "touching"
    assert rec["read"] == rec["truth"], rec
    assert not any("past the round face" in why for why in rec["reasons"]), rec["reasons"]


def test_a_stick_in_light_the_faces_were_never_seen_in_is_asked_about() -> None:
    """Fresh held-out 61502/4 (a red printed mat under lamps; the eight calibration sticks
    lay in one spot): a 배 stick in a lamp's pool on the glossy mat, 1.4 times the light of
    any stick the faces were learned from, read 등 at a 0.8 margin, and 개 came out 빽도
    unasked. Divided by the mat's light there, the stick is darker than it is."""
    rec = run_style((61502, 5, None, True))[4]
    assert (rec["truth"], rec["case"]) == ("개", "clean")
    assert rec["read"] == "개" or any("face unsure (in light" in why for why in rec["reasons"]), rec
