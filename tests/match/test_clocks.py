"""Rule 000's clauses on time: throw 10 s, move 30 s + extensions, warnings, 작전타임,
substitution, stoppage, time-up."""

import pytest

from yut_cam.match import IllegalEventError, clock, referee_json

from .helpers import Ref


@pytest.mark.parametrize(
    "throws, seconds",
    [
        (("윷", "걸"), 30),  # example ①: 윷 – 걸, 30 s
        (("모", "윷", "걸"), 30),  # three throws: no extension yet
        (("윷", "모", "윷", "개"), 40),
        (("윷", "모", "윷", "윷", "개"), 50),  # example ③: 30 + 10×2
    ],
)
def test_move_time_extension_examples(throws, seconds):
    ref = Ref()
    ref.throw(*throws)
    shot = ref.state.shot
    assert shot is not None and shot.kind == "move" and shot.limit == seconds
    assert clock.move_seconds(len(throws)) == seconds


def test_throw_clock_is_ten_seconds_and_restarts_after_each_throw():
    ref = Ref()
    assert ref.state.shot.kind == "throw" and ref.shot_left() == 10
    ref.wait(4)
    assert ref.shot_left() == 6
    ref.throw("윷")
    assert ref.shot_left() == 10  # another throw, a new 10 s


def test_move_clock_covers_all_results_of_the_sequence():
    ref = Ref()
    ref.throw("윷", "개")
    ref.wait(12)
    ref("move", team=0, result="윷", piece=0)
    assert ref.state.shot.kind == "move" and ref.shot_left() == 18


def test_over_time_warnings_every_five_seconds_then_void():
    ref = Ref()
    ref.wait(10.5)
    view = referee_json(ref.state, ref.t)["clock"]["shot"]
    assert view["warnings_due"] == 1
    ref("warning", team=0, reason="throw_time")
    ref.wait(5)
    assert referee_json(ref.state, ref.t)["clock"]["shot"]["warnings_due"] == 1
    ref("warning", team=0, reason="throw_time")
    assert ref.state.game.turn == 0
    ref.wait(5)
    ref("warning", team=0, reason="throw_time")  # third in one turn: the turn is 낙
    assert ref.state.game.turn == 1
    assert ref.state.turn_time_warnings == 0
    # and it was the team's third warning overall: the lost chance is this voided turn
    assert ref.state.game.skip_turns == (0, 0)
    assert "낙" in ref.state.warnings[-1].consequence


def test_move_time_three_warnings_void_the_results_just_thrown():
    ref = Ref()
    ref.throw("윷", "개")
    for _ in range(3):
        ref.wait(31)
        ref("warning", team=0, reason="move_time")
    g = ref.state.game
    assert g.turn == 1 and g.pending == () and all(p.waiting for p in g.pieces[0])


def test_every_third_warning_costs_a_turn():
    ref = Ref()
    ref("warning", team=0, reason="pickup")
    ref("warning", team=0, reason="protest")
    ref.throw("개")
    ref("move", team=0, result="개", piece=0)
    ref("warning", team=0, reason="pickup")  # third: team 0 loses its next throwing turn
    assert ref.state.game.skip_turns == (1, 0)
    ref.throw("도")  # team 1
    ref("move", team=1, result="도", piece=0)
    assert ref.state.game.turn == 1  # team 0's turn was skipped
    assert ref.state.game.skip_turns == (0, 0)


def test_wrong_move_after_correction_time_voids_the_turn():
    ref = Ref()
    ref.throw("윷", "개")
    ref("move", team=0, result="윷", piece=0)
    ref("warning", team=0, reason="wrong_move")
    assert ref.state.game.turn == 1 and ref.state.game.pending == ()


def test_timeout_limits_and_cutoff():
    ref = Ref()
    ref.wait(3)
    ref("timeout", team=0)
    with pytest.raises(IllegalEventError, match="no throw or move"):
        ref.throw("개")
    ref.wait(30)
    assert ref.shot_left() == 7  # both teams pause: the shot clock is frozen
    ref("timeout_end")
    ref.wait(2)
    assert ref.shot_left() == 5
    assert ref.state.t == 33  # the match clock kept running through the 30 s
    ref("timeout", team=0)
    ref.wait(40)
    ref("timeout_end")
    with pytest.raises(IllegalEventError, match="both"):
        ref("timeout", team=0)
    ref.t = clock.MATCH_SECONDS - 120  # 2:00 left
    with pytest.raises(IllegalEventError, match="2:00 or less"):
        ref("timeout", team=1)
    ref.t = clock.MATCH_SECONDS - 121
    ref("timeout", team=1)
    assert ref.state.timeouts_used == (2, 1)


def test_one_substitution_of_registered_players_only():
    ref = Ref()
    with pytest.raises(IllegalEventError, match="not registered"):
        ref("substitution", team=0, out="가", **{"in": "zz"})
    ref("substitution", team=0, out="라", **{"in": "마"})  # the mover (captain) is replaced
    lineup = ref.state.lineups[0]
    assert lineup.mover == "마" and lineup.captain == "마" and "라" in lineup.reserves
    with pytest.raises(IllegalEventError, match="already made its one substitution"):
        ref("substitution", team=0, out="가", **{"in": "라"})


def test_throwing_order_changes_only_through_substitution():
    ref = Ref()
    ref.throw("개")  # 가
    ref("move", team=0, result="개", piece=0)
    ref.throw("도")  # team 1: A
    ref("move", team=1, result="도", piece=0)
    assert ref.state.next_thrower_name(0) == "나"
    with pytest.raises(IllegalEventError, match="not the next thrower"):
        ref("throw", team=0, result="도", thrower="다")
    ref("substitution", team=0, throwers=["다", "나", "가"])
    assert ref.state.next_thrower_name(0) == "나"  # position 2 of the new order
    ref("throw", team=0, result="도", thrower="나")


def test_wrong_thrower_makes_the_turn_nak_or_later_costs_a_turn():
    ref = Ref()
    ref.throw("윷")
    ref("wrong_thrower", team=0, thrower="다")
    assert ref.state.game.turn == 1 and ref.state.game.pending == ()
    ref("wrong_thrower", team=0, thrower="다", later=True)
    assert ref.state.game.skip_turns == (1, 0)


def test_stoppage_freezes_the_match_clock():
    ref = Ref()
    ref.wait(100)
    ref("stoppage", reason="부상자 발생")
    view = referee_json(ref.state)
    assert view["clock"]["running"] is False and view["clock"]["stopped"] == "부상자 발생"
    with pytest.raises(IllegalEventError, match="already stopped"):
        ref("stoppage", reason="x")
    ref("resume")  # the match clock shows the same t: the stoppage is not in the 20 minutes
    assert ref.state.t == 100 and referee_json(ref.state)["clock"]["running"]


def test_clock_never_runs_back_and_nothing_after_twenty_minutes():
    ref = Ref()
    ref.wait(50)
    ref.throw("개")
    ref.t = 40
    with pytest.raises(IllegalEventError, match="never runs back"):
        ref("move", team=0, result="개", piece=0)
    ref.t = clock.MATCH_SECONDS + 1
    with pytest.raises(IllegalEventError, match="20 minutes are over"):
        ref("move", team=0, result="개", piece=0)
    ref("time_up")
    assert ref.state.over


def test_throwoff_decides_the_first_attacker():
    ref = Ref(first=None, start=False)
    with pytest.raises(IllegalEventError, match="throw-off comes first"):
        ref("throw", team=0, result="개")
    ref("throwoff", team=0, result="낙")  # 낙 rethrows
    ref("throwoff", team=0, result="걸")
    ref("throwoff", team=1, result="걸")  # equal rethrows
    assert ref.state.game is None and ref.state.throwoff_rounds == 1
    ref("throwoff", team=1, result="빽도")
    ref("throwoff", team=0, result="도")
    assert ref.state.first == 0 and ref.state.game.turn == 0
    ref2 = Ref(first=None, start=False)
    ref2("throwoff", team=0, result="윷")
    ref2("throwoff", team=1, result="모")  # 모 > 윷
    assert ref2.state.first == 1


def test_undo_restores_the_previous_state_but_not_the_clock():
    ref = Ref()
    ref.throw("개")
    ref.wait(5)
    ref("move", team=0, result="개", piece=0)
    ref.wait(2)
    ref("undo")
    g = ref.state.game
    assert g.phase.value == "move" and g.pending[0].value == "개" and ref.state.t == 7
    ref("undo")
    assert ref.state.game.pending == ()


def test_clock_set_corrects_the_match_clock_and_keeps_the_shot_clock():
    ref = Ref()
    ref.wait(100)
    ref.throw("개")
    ref.wait(4)
    ref("clock_set", to=190, reason="서비스 중단 시간 반영")
    assert ref.state.t == 190 and ref.state.shot.remaining(190) == 26
    ref.t = 150
    with pytest.raises(IllegalEventError, match="never runs back"):
        ref("move", team=0, result="개", piece=0)
    ref.t = 191
    ref("move", team=0, result="개", piece=0)
    with pytest.raises(IllegalEventError):
        Ref(start=False)("clock_set", to=10)


@pytest.mark.parametrize("to", [-1, 1201, "10", True, None])
def test_clock_set_needs_a_time_on_the_clock(to):
    from yut_cam.match import RecordFormatError

    with pytest.raises(RecordFormatError, match='"to"'):
        Ref()("clock_set", to=to)


@pytest.mark.parametrize(
    "left, shown",
    [
        (1200, "20:00"),
        (1199.2, "20:00"),  # the whole first second shows 20:00, as the LED does
        (1199, "19:59"),
        (1134.8, "18:55"),
        (60.5, "01:01"),
        (60, "01:00"),
        (59.99, "00:59.9"),  # tenths in the last minute, rounded down
        (0.05, "00:00.0"),
        (0, "00:00.0"),
        (-3, "00:00.0"),
    ],
)
def test_time_left_is_shown_as_the_led_shows_it(left, shown):
    assert clock.format_clock(left) == shown


@pytest.mark.parametrize("left, shown", [(1199.2, "20:00"), (0.4, "00:01"), (0, "00:00")])
def test_time_left_in_whole_seconds(left, shown):
    assert clock.format_clock(left, tenths=False) == shown


@pytest.mark.parametrize("played, shown", [(0, "00:00"), (0.999, "00:00"), (65.2, "01:05"), (1200, "20:00")])
def test_time_played_counts_whole_seconds_gone(played, shown):
    assert clock.format_elapsed(played) == shown
