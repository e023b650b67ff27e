"""Every refusal a referee can meet has a Korean sentence (``exc.ko``) with the specifics,
while ``str(exc)`` stays the English message the rest of the suite matches."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace

import pytest

from tests.match.helpers import Ref, header
from yut_cam.match import MatchError, parse_event, replay_text
from yut_cam.rules import board
from yut_cam.rules.errors import RulesError, josa
from yut_cam.rules.state import FINISHED_PIECE, WAITING_PIECE, Piece

HANGUL = re.compile("[가-힣]")
#: a bare team number ("0팀", "1팀") left in a match message: the match layer names teams
TEAM_NUMBER = re.compile(r"(?<![0-9])[01]팀")


def with_pieces(r: Ref, *team0: Piece) -> Ref:
    """Put team 0's pieces where a case needs them (the rest waiting)."""
    game = r.state.game
    assert game is not None
    pieces = tuple(team0) + (WAITING_PIECE,) * (4 - len(team0))
    r.state = replace(r.state, game=replace(game, pieces=(pieces, game.pieces[1])))
    return r


def out_of_turn(r: Ref) -> None:
    r("throw", team=1, result="개")


def result_not_pending(r: Ref) -> None:
    r.throw("개")
    r("move", team=0, result="윷", piece=0)


def ambiguous_destination(r: Ref) -> None:
    r.throw("모", "도")
    r("move", team=0, result="모", piece=0)
    r("move", team=0, result="도", piece=0)


def unreachable_destination(r: Ref) -> None:
    r.throw("개")
    r("move", team=0, result="개", piece=0, to="모")


def unknown_destination(r: Ref) -> None:
    r.throw("개")
    r("move", team=0, result="개", piece=0, to="xyz")


def finished_piece(r: Ref) -> None:
    with_pieces(r, FINISHED_PIECE, Piece(board.station("걸"), 2))
    r.throw("도")
    r("move", team=0, result="도", piece=0)


def backdo_on_waiting(r: Ref) -> None:
    with_pieces(r, Piece(board.station("걸"), 2))
    r.throw("빽도")
    r("move", team=0, result="빽도", piece=2)


def move_before_throwing_again(r: Ref) -> None:
    r.throw("윷")
    r("move", team=0, result="윷", piece=0)


def throw_with_results_pending(r: Ref) -> None:
    r.throw("걸")
    r.throw("도")


def timeout_over_limit(r: Ref) -> None:
    for _ in range(3):
        r("timeout", team=0)
        r.wait(40)("timeout_end")


def timeout_within_two_minutes(r: Ref) -> None:
    r.wait(1100)("timeout", team=1)


def timeout_twice_at_once(r: Ref) -> None:
    r("timeout", team=0)
    r("timeout", team=1)


def substitution_twice(r: Ref) -> None:
    r("substitution", team=0, out="가", **{"in": "마"})
    r("substitution", team=0, out="나", **{"in": "가"})


def unregistered_player(r: Ref) -> None:
    r("substitution", team=1, out="A", **{"in": "Z"})


def substitute_not_playing(r: Ref) -> None:
    r("substitution", team=1, out="E", **{"in": "F"})


def wrong_thrower(r: Ref) -> None:
    r("throw", team=0, result="도", thrower="나")


def event_after_time_up(r: Ref) -> None:
    r.wait(1201).throw("도")


def event_after_match_over(r: Ref) -> None:
    r.wait(1200)("time_up")
    r.throw("도")


def clock_running_back(r: Ref) -> None:
    r.wait(10).throw("도")
    r.t = 5.0
    r.throw("개")


def over_time_warning_to_other_team(r: Ref) -> None:
    r("warning", team=1, reason="throw_time")


def decide_before_time_up(r: Ref) -> None:
    r("decide", winner=0)


def nothing_to_undo(r: Ref) -> None:
    r.state = replace(r.state, previous=None)
    r("undo")


def start_twice(r: Ref) -> None:
    r("start")


def resume_not_stopped(r: Ref) -> None:
    r("resume")


def throwoff_twice(r: Ref) -> None:
    r.state = Ref(first=None).state
    r("throwoff", team=1, result="도")
    r("throwoff", team=1, result="개")


def game_before_throwoff(r: Ref) -> None:
    r.state = Ref(first=None).state
    r("throw", team=0, result="도")


def throw_during_timeout(r: Ref) -> None:
    r("timeout", team=0)
    r.throw("도")


def wrong_thrower_out_of_turn(r: Ref) -> None:
    r("wrong_thrower", team=1, thrower="B")


#: (action, words the Korean sentence must contain)
ILLEGAL: list[tuple[Callable[[Ref], None], tuple[str, ...]]] = [
    (out_of_turn, ("백호 팀", "청룡 팀", "'개'를 던질")),
    (result_not_pending, ("'윷'은", "남은 결과: 개")),
    (ambiguous_destination, ("'모' 자리의 말 1", "'도'로", "'뒷도' 자리", "'모도' 자리", "골라야")),
    (unreachable_destination, ("대기 중인 말 1", "'개'로", "'모' 자리에 갈 수 없습니다", "'개' 자리")),
    (unknown_destination, ("'xyz'", "자리")),
    (finished_piece, ("말 1", "이미 났습니다")),
    (backdo_on_waiting, ("빽도", "말 3", "대기")),
    (move_before_throwing_again, ("청룡 팀", "한 번 더 던져")),
    (throw_with_results_pending, ("'도'를 던질", "남은 결과(걸)")),
    (timeout_over_limit, ("청룡 팀", "작전타임 2회")),
    (timeout_within_two_minutes, ("01:40", "작전타임", "2:00")),
    (timeout_twice_at_once, ("작전타임", "진행 중")),
    (substitution_twice, ("청룡 팀", "선수교체 1회")),
    (unregistered_player, ("백호 팀", "Z", "등록되지 않은")),
    (substitute_not_playing, ("'E' 선수는", "백호 팀", "뛰는 선수가 아닙니다")),
    (wrong_thrower, ("'나' 선수는", "청룡 팀", "다음 차례: '가' 선수", "낙")),
    (event_after_time_up, ("20분", "1201초", "시간 종료")),
    (event_after_match_over, ("경기가 끝났습니다",)),
    (clock_running_back, ("5초", "10초", "거꾸로")),
    (over_time_warning_to_other_team, ("시간 초과 경고", "백호 팀")),
    (decide_before_time_up, ("시간 종료",)),
    (nothing_to_undo, ("되돌릴 기록",)),
    (start_twice, ("이미 시작",)),
    (resume_not_stopped, ("중단되어 있지 않습니다",)),
    (throwoff_twice, ("백호 팀 감독", "이미")),
    (game_before_throwoff, ("먼저 공격할 팀", "정해지지 않았습니다")),
    (throw_during_timeout, ("작전타임 중",)),
    (wrong_thrower_out_of_turn, ("백호 팀이 던질 차례가 아닙니다", "청룡 팀 차례")),
]


@pytest.mark.parametrize("action, words", ILLEGAL, ids=[a.__name__ for a, _ in ILLEGAL])
def test_every_refusal_has_a_korean_sentence(action: Callable[[Ref], None], words: tuple[str, ...]) -> None:
    r = Ref()
    with pytest.raises(MatchError) as info:
        action(r)
    exc = info.value
    assert HANGUL.search(exc.ko), exc.ko
    for word in words:
        assert word in exc.ko, (word, exc.ko)
    assert not TEAM_NUMBER.search(exc.ko), exc.ko  # teams by name, not number
    assert exc.ko not in str(exc) and exc.message in str(exc)  # str(exc) stays English


#: (malformed event, words of its Korean sentence)
MALFORMED: list[tuple[object, tuple[str, ...]]] = [
    ({"type": "move", "team": 0, "result": "개", "piece": 7}, ("말 번호", "7")),
    ({"type": "move", "team": 0, "piece": 0}, ("윷 결과", "빠졌습니다")),
    ({"type": "throw", "team": 3, "result": "도"}, ("팀 번호", "3")),
    ({"type": "throw", "team": 0, "result": "삼"}, ("'삼'은", "도 개 걸 윷 모 빽도 낙")),
    ({"type": "throw", "team": 0, "result": "도", "t": -4}, ("경기 시각", "-4")),
    ({"type": "throw", "team": 0, "result": "도", "thrower": 12}, ('"thrower"', "12")),
    ({"type": "warning", "team": 0, "reason": "nap"}, ("경고 사유", "'nap'", "윷 던지는 시간 초과")),
    ({"type": "substitution", "team": 0, "out": "가"}, ("선수교체", '"in"')),
    ({"type": "clock_set", "to": 5000}, ("5000", "0~1200초")),
    ({"type": "decide", "winner": 2}, ("이긴 팀", "2")),
    ({"type": "jump"}, ("기록 종류", "'jump'")),
    (["throw"], ("JSON 객체",)),
]


@pytest.mark.parametrize("data, words", MALFORMED)
def test_malformed_events_are_refused_in_korean(data: object, words: tuple[str, ...]) -> None:
    with pytest.raises(MatchError) as info:
        parse_event(data)
    assert HANGUL.search(info.value.ko), info.value.ko
    for word in words:
        assert word in info.value.ko, (word, info.value.ko)


def test_a_record_line_keeps_its_korean_sentence() -> None:
    lines = [header(), {"type": "start", "t": 0}, {"type": "throw", "team": 1, "result": "모", "t": 3}]
    with pytest.raises(MatchError) as info:
        replay_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines))
    assert info.value.line == 3 and "team 1" in str(info.value)
    assert "백호 팀은 지금 '모'를 던질 수 없습니다" in info.value.ko


@pytest.mark.parametrize("bad", [
    {"teams": []},
    {"teams": [{"name": "청룡", "throwers": ["가"], "mover": "라"}, {"name": "백호", "throwers": ["A", "B"], "mover": "D"}]},
    {"rules": "wild"},
    {"first": 3},
])  # fmt: skip
def test_header_errors_in_korean(bad: dict[str, object]) -> None:
    from yut_cam.match import Header

    with pytest.raises(MatchError) as info:
        Header.from_json({**header(), **bad})
    assert HANGUL.search(info.value.ko), info.value.ko


@pytest.mark.parametrize("call", [
    lambda: board.station("xyz"), lambda: board.station(99), lambda: board.name_of(77),
])  # fmt: skip
def test_rules_errors_carry_korean(call: Callable[[], object]) -> None:
    with pytest.raises(RulesError) as info:
        call()
    assert "자리" in info.value.ko and info.value.ko != str(info.value)


@pytest.mark.parametrize("word, pair, expected", [
    ("윷", "은/는", "은"), ("도", "은/는", "는"), ("말 1", "은/는", "은"), ("말 2", "은/는", "는"),
    ("걸", "으로/로", "로"), ("윷", "으로/로", "으로"), ("빽도", "으로/로", "로"), ("낙", "을/를", "을"),
    ("모", "이/가", "가"), ("'방'", "이/가", "이"), ("Bob", "은/는", "은(는)"), ("말 3", "으로/로", "으로"),
])  # fmt: skip
def test_josa(word: str, pair: str, expected: str) -> None:
    assert josa(word, pair) == expected
