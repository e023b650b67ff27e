"""Destinations for every station × origin × result × choice, against a reference walk
written independently from the engine (lines of station names), plus a hand table."""

import pytest

from yut_cam.rules import Throw, get_profile, legal_moves, name_of, station
from yut_cam.rules.board import FINISHED, WAITING

from .helpers import piece, position

OUTER = ["참먹이", "도", "개", "걸", "윷", "모", "뒷도", "뒷개", "뒷걸", "뒷윷", "뒷모",
         "찌도", "찌개", "찌걸", "찌윷", "찌모", "날도", "날개", "날걸", "날윷"]  # fmt: skip
DIAG_MO = ["모", "모도", "모개", "방", "속윷", "속모", "찌모"]
DIAG_DWIT = ["뒷모", "뒷모도", "뒷모개", "방", "방수기", "안찌", "참먹이"]
FORWARD = [Throw.DO, Throw.GAE, Throw.GEOL, Throw.YUT, Throw.MO]


def follow(line, index, steps):
    """Walk ``steps`` along ``line`` from ``line[index]``; DIAG_MO continues on the outer
    ring at 찌모; reaching past 참먹이 finishes."""
    path = []
    cur_line, i = line, index
    for _ in range(steps):
        here = cur_line[i]
        if here == "참먹이" and (cur_line is DIAG_DWIT or cur_line is OUTER) and (path or i != 0 or cur_line is DIAG_DWIT):
            path.append("났음")
            break
        if cur_line is DIAG_MO and here == "찌모":
            cur_line, i = OUTER, OUTER.index("찌모")
        if cur_line is OUTER and i == len(OUTER) - 1:
            cur_line, i = OUTER, 0
            path.append("참먹이")
            continue
        i += 1
        path.append(cur_line[i])
    return path


def reference_routes(at, origin, steps):
    if at == "참먹이":
        return [["났음"]]
    lines = []
    if at == "방":
        lines.append((DIAG_DWIT, DIAG_DWIT.index("방")))
        if origin == "모":
            lines.append((DIAG_MO, DIAG_MO.index("방")))
    else:
        if at in OUTER:
            lines.append((OUTER, OUTER.index(at)))
        if at == "모":
            lines.append((DIAG_MO, 0))
        elif at == "뒷모":
            lines.append((DIAG_DWIT, 0))
        elif at in DIAG_MO and at not in OUTER:
            lines.append((DIAG_MO, DIAG_MO.index(at)))
        elif at in DIAG_DWIT and at not in OUTER:
            lines.append((DIAG_DWIT, DIAG_DWIT.index(at)))
    return [follow(line, i, steps) for line, i in lines]


CASES = [
    (name_of(s), origin, t)
    for s in range(29)
    for origin in ((None, "모", "뒷모") if name_of(s) == "방" else (None,))
    for t in FORWARD
]


@pytest.mark.parametrize("at, origin, throw", CASES, ids=[f"{a}-{o}-{t.value}" for a, o, t in CASES])
def test_every_station_result_and_choice_matches_reference(at, origin, throw):
    prof = get_profile("official")
    if origin is None and at == "방":
        origin_code = None
    else:
        origin_code = station(origin) if origin else (station("모") if at in ("모도", "모개", "속윷", "속모") else None)
    got = sorted(
        [name_of(x) for x in route] for _, route, _, _ in prof.routes(station(at), origin_code, throw.steps)
    )
    ref_origin = origin if at == "방" else None
    assert got == sorted(reference_routes(at, ref_origin, throw.steps))


@pytest.mark.parametrize(
    "at, throw, destinations",
    [
        ("도", "도", {"개"}),
        ("윷", "모", {"뒷윷"}),  # passing 모 never turns
        ("모", "도", {"뒷도", "모도"}),  # stopping on 모 gives the choice
        ("모", "모", {"뒷모", "속모"}),  # 모개→방 straight on to 속윷 when passing 방
        ("모", "걸", {"뒷걸", "방"}),
        ("뒷모", "걸", {"찌걸", "방"}),
        ("뒷모", "모", {"찌모", "안찌"}),
        ("뒷모", "윷", {"찌윷", "방수기"}),
        ("찌윷", "개", {"날도"}),  # 찌모 always continues to 날도
        ("찌모", "도", {"날도"}),
        ("날윷", "도", {"참먹이"}),  # stopping exactly on 참먹이 keeps the piece on the board
        ("날윷", "개", {"났음"}),
        ("날걸", "모", {"났음"}),
        ("참먹이", "도", {"났음"}),
        ("안찌", "도", {"참먹이"}),
        ("안찌", "개", {"났음"}),
        ("속모", "걸", {"날개"}),
        ("뒷모개", "도", {"방"}),
        ("뒷모개", "개", {"방수기"}),  # passing 방 from 뒷모 goes straight to 방수기
        ("모개", "개", {"속윷"}),
    ],
)
def test_hand_table(at, throw, destinations):
    origin = "모" if at in ("모개", "속모") else ("뒷모" if at == "뒷모개" else None)
    state = position([piece(at, prev="도", origin=origin)], pending=(throw,))
    got = {name_of(m.to) for m in legal_moves(state) if m.piece == 0}
    assert got == destinations


@pytest.mark.parametrize(
    "origin, profile, throw, destinations",
    [
        ("모", "official", "도", {"속윷", "방수기"}),
        ("모", "official", "윷", {"날도", "났음"}),
        ("뒷모", "official", "도", {"방수기"}),
        ("뒷모", "official", "걸", {"참먹이"}),
        ("모", "house", "도", {"방수기"}),  # seed 001: 방 always turns toward 참먹이
        ("모", "house", "개", {"안찌"}),
    ],
)
def test_choice_on_bang_depends_on_the_diagonal_origin(origin, profile, throw, destinations):
    state = position([piece("방", prev="모개", origin=origin)], pending=(throw,), profile=profile)
    assert {name_of(m.to) for m in legal_moves(state) if m.piece == 0} == destinations


@pytest.mark.parametrize("throw, dest", [("도", "도"), ("개", "개"), ("걸", "걸"), ("윷", "윷"), ("모", "모")])
def test_entering_from_off_the_board(throw, dest):
    state = position(pending=(throw,))
    (m,) = legal_moves(state)
    assert m.enters and name_of(m.to) == dest and m.start == WAITING


def test_longest_remaining_steps():
    prof = get_profile("official")
    assert prof.longest_remaining(WAITING, None) == 21
    assert prof.longest_remaining(FINISHED, None) == 0
    assert prof.longest_remaining(station("도"), None) == 20
    assert prof.longest_remaining(station("모"), None) == 16  # seed 001: outer way from 모
    assert prof.longest_remaining(station("뒷모"), None) == 11  # seed 001
    assert prof.longest_remaining(station("방"), station("모")) == 9
    assert prof.longest_remaining(station("방"), station("뒷모")) == 4
    assert prof.longest_remaining(station("참먹이"), None) == 1
    house = get_profile("house")
    assert house.longest_remaining(station("방"), station("모")) == 4
