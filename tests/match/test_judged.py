"""The judged victory when time runs out (rule 000): finished, on board, remaining steps."""

import pytest

from yut_cam.match import IllegalEventError
from yut_cam.rules import judge

from ..rules.helpers import piece, position
from .helpers import Ref


@pytest.mark.parametrize(
    "team0, team1, decided_by, winner, remaining",
    [
        # more finished pieces wins, whatever else
        (["났음", "도"], ["날윷", "날윷", "안찌", "참먹이"], "finished", 0, None),
        # equal finished: more pieces on the board
        (["도", "개"], ["모"], "on_board", 0, None),
        # equal on board: fewer remaining steps along the LONGEST route; waiting = 21
        (["모"], ["뒷모"], "remaining_steps", 1, (16 + 63, 11 + 63)),
        # a stack counts once: 업은 말 = one piece's steps
        (["도", "도"], ["개", "걸"], "remaining_steps", 0, (20 + 42, 19 + 18 + 42)),
        # all equal: a draw for the referee
        (["개"], ["개"], None, None, (19 + 63, 19 + 63)),
    ],
)
def test_judged_examples(team0, team1, decided_by, winner, remaining):
    s = position([piece(a, prev="도") for a in team0], [piece(a, prev="도") for a in team1])
    verdict = judge(s)
    assert verdict.decided_by == decided_by and verdict.winner == winner
    if remaining is not None:
        assert verdict.remaining_steps == remaining


def test_bang_counts_the_longest_way_by_its_origin():
    s = position([piece("방", prev="모개", origin="모")], [piece("방수기", prev="방", origin="뒷모")])
    v = judge(s)
    assert v.remaining_steps == (9 + 63, 3 + 63)


def test_time_up_event_gives_the_judged_result_and_referee_settles_a_draw():
    ref = Ref()
    ref.throw("빽도")  # no piece on the board: 낙
    ref.throw("빽도")
    ref.t = 1200
    ref("time_up")
    assert ref.state.over and ref.state.winner is None and ref.state.decided_by is None
    with pytest.raises(IllegalEventError, match="the match is over"):
        ref.throw("도", team=0)
    ref("decide", winner=1, reason="재경기 대신 심판 판정")
    assert ref.state.winner == 1 and ref.state.decided_by == "referee"


def test_win_by_all_four_pieces_is_complete():
    from dataclasses import replace

    from yut_cam.rules.state import FINISHED_PIECE

    ref = Ref()
    ref.throw("개")
    ref("move", team=0, result="개", piece=0)
    ref.throw("도")
    ref("move", team=1, result="도", piece=0)
    g = ref.state.game
    three_home = (piece("날윷", prev="날걸"),) + (FINISHED_PIECE,) * 3
    ref.state = replace(ref.state, game=replace(g, pieces=(three_home, g.pieces[1])))
    ref.throw("개")
    ref("move", team=0, result="개", piece=0)
    assert ref.state.over and ref.state.winner == 0 and ref.state.decided_by == "완승"
    assert ref.state.shot is None
