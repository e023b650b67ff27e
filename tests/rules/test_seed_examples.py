"""Every numbered example of seed 000 (the official rules), as the rules engine plays it."""

import pytest

from yut_cam.rules import (
    AmbiguousMoveError,
    Game,
    IllegalMoveError,
    Phase,
    Throw,
    apply_move,
    apply_throw,
    find_move,
    legal_moves,
    name_of,
    new_game,
    play,
)
from yut_cam.rules.board import WAITING

from .helpers import at, piece, position

# --- 빽도 ①–⑤ --------------------------------------------------------------------------


def test_backdo_1_piece_on_do_goes_to_chammeogi():
    s = position([piece("도", prev="참먹이")], pending=("빽도",))
    s = play(s, 0, 0, "빽도")
    assert at(s, 0, 0) == "참먹이"
    assert s.pieces[0][0].on_board  # not finished: it has not passed 참먹이


def test_backdo_2_second_backdo_returns_it_to_do():
    s = position([piece("도", prev="참먹이")], pending=("빽도",))
    s = play(s, 0, 0, "빽도")
    s = apply_throw(s, 1, "도")  # the other team's turn in between
    s = play(s, 1, 0, "도")
    s = apply_throw(s, 0, "빽도")
    s = play(s, 0, 0, "빽도")
    assert at(s, 0, 0) == "도"


@pytest.mark.parametrize("result", ["도", "개", "걸", "윷", "모"])
def test_backdo_3_any_forward_result_then_finishes_it(result):
    s = position([piece("도", prev="참먹이"), piece("걸", prev="개")], pending=("빽도",))
    s = play(s, 0, 0, "빽도")
    s = position(list(s.pieces[0]), pending=(result,))
    s = play(s, 0, 0, result)
    assert at(s, 0, 0) == "났음"


@pytest.mark.parametrize("came_from", ["날윷", "안찌"])
def test_backdo_4_on_chammeogi_goes_back_the_way_it_came(came_from):
    s = position([piece("참먹이", prev=came_from)], pending=("빽도",))
    s = play(s, 0, 0, "빽도")
    assert at(s, 0, 0) == came_from


def test_backdo_4_arriving_on_chammeogi_by_a_move_then_backdo():
    s = position([piece("방", prev="뒷모개", origin="뒷모")], pending=("걸",))
    s = play(s, 0, 0, "걸")
    assert at(s, 0, 0) == "참먹이"
    s = position(list(s.pieces[0]), pending=("빽도",))
    s = play(s, 0, 0, "빽도")
    assert at(s, 0, 0) == "안찌"


def test_backdo_5_from_anjji_back_to_chammeogi():
    s = position([piece("참먹이", prev="안찌")], pending=("빽도",))
    s = play(s, 0, 0, "빽도")
    assert at(s, 0, 0) == "안찌"
    s = position(list(s.pieces[0]), pending=("빽도",))
    s = play(s, 0, 0, "빽도")
    assert at(s, 0, 0) == "참먹이"


def test_backdo_with_no_piece_on_the_board_is_nak_official():
    s = new_game("official", first=0)
    s = apply_throw(s, 0, "빽도")
    assert s.turn == 1 and s.phase is Phase.THROW and s.pending == ()


def test_backdo_with_no_piece_discarded_house_profile():
    s = new_game("house", first=0)
    s = apply_throw(s, 0, "빽도")
    assert s.turn == 1 and s.pending == ()
    # and after 윷 it waits for the 윷 to bring a piece on (official and house alike)
    for profile in ("official", "house"):
        s = new_game(profile, first=0)
        s = apply_throw(s, 0, "윷")
        s = apply_throw(s, 0, "빽도")
        assert s.phase is Phase.MOVE and s.pending == (Throw.YUT, Throw.BACKDO)
        assert {m.result for m in legal_moves(s)} == {Throw.YUT}  # 빽도 waits
        s = play(s, 0, 0, "윷")
        s = play(s, 0, 0, "빽도")
        assert at(s, 0, 0) == "걸"


def test_backdo_dropped_when_it_never_gets_a_use():
    # the only piece on the board finishes with 도; the waiting 빽도 then has no use
    s = position([piece("참먹이", prev="날윷")], pending=("도", "빽도"))
    s = play(s, 0, 0, "도")
    assert at(s, 0, 0) == "났음" and s.turn == 1 and s.pending == ()


# --- 낙 ①–③ ----------------------------------------------------------------------------


def test_nak_1_yut_mo_yut_mo_nak_voids_everything():
    s = new_game(first=0)
    for r in ("윷", "모", "윷", "모"):
        s = apply_throw(s, 0, r)
    s = apply_throw(s, 0, "낙")
    assert s.turn == 1 and s.pending == () and all(p.at == WAITING for p in s.pieces[0])


def test_nak_2_capture_with_geol_then_yut_mo_nak():
    s = position([piece("모", prev="윷")], [piece("뒷걸", prev="뒷개")], turn=0)
    s = apply_throw(s, 0, "윷")
    s = apply_throw(s, 0, "걸")
    s = play(s, 0, 0, "걸", to="뒷걸")  # 걸 captures
    assert s.pieces[1][0].at == WAITING and s.bonus_throws == 1
    s = play(s, 0, 0, "윷")  # the 윷 thrown before the capture is still used
    assert at(s, 0, 0) == "찌개" and s.phase is Phase.THROW and s.turn == 0 and s.bonus_throws == 0
    s = apply_throw(s, 0, "윷")
    s = apply_throw(s, 0, "모")
    s = apply_throw(s, 0, "낙")
    assert at(s, 0, 0) == "찌개"  # the capture and the 윷 before it stand
    assert s.turn == 1 and s.pending == ()


def test_nak_3_two_captures_then_nak_keeps_up_to_gae():
    """윷 – 도(잡음) – 모 – 개(잡음) – 낙 : 개까지 인정."""
    s = position(
        [piece("개", prev="도"), piece("뒷도", prev="모")],
        [piece("도", prev="참먹이"), piece("뒷모개", prev="뒷모도", origin="뒷모")],
        turn=0,
    )
    for r in ("윷", "도"):
        s = apply_throw(s, 0, r)
    s = play(s, 0, 1, "윷")  # 뒷도 → 뒷모
    s = play(s, 0, 2, "도")  # a new piece enters on 도: capture #1
    assert at(s, 1, 0) == "대기" and s.phase is Phase.THROW and s.turn == 0
    for r in ("모", "개"):
        s = apply_throw(s, 0, r)
    s = play(s, 0, 0, "모")  # 개 → 뒷개
    s = play(s, 0, 1, "개", to="뒷모개")  # capture #2
    assert all(p.at == WAITING for p in s.pieces[1]) and s.phase is Phase.THROW and s.turn == 0
    before = s.pieces
    s = apply_throw(s, 0, "낙")
    assert s.pieces == before and s.turn == 1 and s.pending == ()


# --- 윷말 사용 ①–② and the extra-chance example ----------------------------------------


@pytest.mark.parametrize("order", [("윷", "모", "도"), ("도", "윷", "모"), ("모", "도", "윷")])
def test_use_1_results_in_any_order(order):
    s = position([piece("개", prev="도")], pending=("윷", "모", "도"))
    for r in order:
        s = play(s, 0, 1, r) if r == "모" else play(s, 0, 0, r, to=None)
    assert s.turn == 1 and s.pending == ()


def test_use_2_capture_mid_sequence_all_results_used_before_the_bonus_throw():
    # 윷 – 모 – 도 – (capture) – 개: 윷 모 도 are all used, then the bonus throw 개
    s = position([piece("걸", prev="개")], [piece("윷", prev="걸")], turn=0)
    for r in ("윷", "모", "도"):
        s = apply_throw(s, 0, r)
    s = play(s, 0, 0, "도")  # 걸 → 윷: capture
    assert s.bonus_throws == 1 and s.phase is Phase.MOVE
    with pytest.raises(IllegalMoveError, match="must be used first"):
        apply_throw(s, 0, "개")
    s = play(s, 0, 0, "윷")  # 윷 → 뒷걸
    s = play(s, 0, 1, "모")
    assert s.phase is Phase.THROW and s.turn == 0 and s.bonus_throws == 0
    s = apply_throw(s, 0, "개")
    assert s.pending == (Throw.GAE,)


def test_extra_chance_example_mo_then_capture_then_bonus():
    """'모' – (capture possible) → use the 모's extra throw → apply both → capture → bonus."""
    s = position([], [piece("모", prev="윷")], turn=0)
    s = apply_throw(s, 0, "모")
    assert s.phase is Phase.THROW  # 모 throws again before any move
    s = apply_throw(s, 0, "걸")
    s = play(s, 0, 0, "모")  # enters on 모: captures
    assert s.bonus_throws == 1
    s = play(s, 0, 0, "걸", to="방")
    assert s.phase is Phase.THROW and s.turn == 0 and s.bonus_throws == 0


# --- 잡기 and 업기 --------------------------------------------------------------------


def test_capture_on_chammeogi_after_a_lap():
    s = position([piece("날걸", prev="날개")], [piece("참먹이", prev="날윷")], turn=0, pending=("개",))
    s = play(s, 0, 0, "개")
    assert at(s, 0, 0) == "참먹이" and s.pieces[1][0].at == WAITING and s.bonus_throws == 0
    assert s.phase is Phase.THROW and s.turn == 0  # the bonus throw is taken at once


def test_stack_moves_together_and_capturing_a_stack_earns_one_throw():
    s = position([piece("개", prev="도")], [piece("걸", prev="개"), piece("걸", prev="개")], turn=0, pending=("도",))
    s = play(s, 0, 0, "도")
    assert all(p.at == WAITING for p in s.pieces[1])  # both stacked pieces go back
    assert s.phase is Phase.THROW and s.turn == 0  # exactly one bonus throw, being taken
    s = apply_throw(s, 0, "도")
    s = play(s, 0, 0, "도")
    assert s.turn == 1  # no second bonus


def test_stacking_own_pieces():
    s = position([piece("개", prev="도"), piece("걸", prev="개")], pending=("도", "개"))
    s = play(s, 0, 0, "도")
    assert at(s, 0, 0) == at(s, 0, 1) == "걸"
    s = play(s, 0, 1, "개")  # either member designates the stack
    assert at(s, 0, 0) == at(s, 0, 1) == "모"


def test_passing_over_does_nothing():
    s = position([piece("도", prev="참먹이")], [piece("개", prev="도")], pending=("걸",))
    s = play(s, 0, 0, "걸")
    assert at(s, 0, 0) == "윷" and at(s, 1, 0) == "개"


def test_backdo_captures_too():
    s = position([piece("걸", prev="개")], [piece("개", prev="도")], pending=("빽도",))
    s = play(s, 0, 0, "빽도")
    assert at(s, 1, 0) == "대기" and s.turn == 0 and s.phase is Phase.THROW


def test_stack_takes_the_last_step_of_the_arriving_piece():
    s = position([piece("모도", prev="모", origin="모"), piece("방", prev="모개", origin="모")])
    s = position(list(s.pieces[0]), pending=("개",))
    s = play(s, 0, 0, "개")  # 모도 → 모개 → 방: stacks with piece 1
    assert at(s, 0, 0) == at(s, 0, 1) == "방"
    assert s.pieces[0][1].prev == s.pieces[0][0].prev  # one last step for the stack


# --- direction choice, ambiguity and errors -------------------------------------------


def test_choice_must_be_named_when_ambiguous():
    s = position([piece("모", prev="윷")], pending=("도",))
    with pytest.raises(AmbiguousMoveError, match="뒷도, 모도"):
        find_move(s, 0, 0, "도")
    assert name_of(find_move(s, 0, 0, "도", to="모도").to) == "모도"
    with pytest.raises(IllegalMoveError, match="cannot reach"):
        find_move(s, 0, 0, "도", to="방")


@pytest.mark.parametrize(
    "setup, call, message",
    [
        (dict(pending=("도",)), (1, 0, "도"), "turn"),
        (dict(pending=("도",)), (0, 0, "개"), "not a pending result"),
        (dict(pending=("빽도", "도")), (0, 0, "빽도"), "waiting"),
        (dict(pending=("도",)), (0, 7, "도"), "piece must be 0..3"),
        (dict(), (0, 0, "도"), "must be used first|cannot move"),
    ],
)
def test_illegal_moves_are_refused_with_the_rule(setup, call, message):
    s = position(**setup)
    with pytest.raises(IllegalMoveError, match=message):
        find_move(s, *call)


def test_throw_out_of_turn_and_in_move_phase():
    s = new_game(first=1)
    with pytest.raises(IllegalMoveError, match="turn"):
        apply_throw(s, 0, "도")
    s = apply_throw(s, 1, "도")
    with pytest.raises(IllegalMoveError, match="must be used first"):
        apply_throw(s, 1, "도")


def test_winning_ends_the_game_at_once():
    s = position(
        [piece("날윷", prev="날걸"), piece("났음"), piece("났음"), piece("났음")],
        [piece("도", prev="참먹이")],
        pending=("모",),
        bonus=1,
    )
    s = play(s, 0, 0, "모")
    assert s.phase is Phase.OVER and s.winner == 0 and s.pending == () and s.bonus_throws == 0


def test_game_wrapper_push_pop():
    g = Game()
    g.throw("개")
    (m,) = g.legal_moves()
    g.push(m)
    assert g.state.turn == 1
    g.pop()
    assert g.state.phase is Phase.MOVE and g.is_legal(m)
    g.pop()
    assert g.state.pending == () and g.state.turn == 0
