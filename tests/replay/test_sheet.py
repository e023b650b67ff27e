"""The record sheet (기록지): CSV for Excel and the printable page, checked for content."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from tests.replay.gen import TEAMS, Driver, header
from yut_cam.match import replay
from yut_cam.replay import sheet as sh
from yut_cam.replay import timeline as tl

SLOW = (7.0, 15.0)


def _sheet(seed: int) -> tuple[sh.RecordSheet, Driver]:
    d = Driver(seed)
    d.play(pace=SLOW)
    return sh.build_sheet(tl.build(d.header, d.events)), d


def _rows(text: str) -> list[list[str]]:
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


@pytest.mark.parametrize(
    ("seed", "criterion", "words"),
    [(16, "finished", "난 말 수"), (30, "on_board", "판 위의 말 수"), (36, "remaining_steps", "남은 걸음 수")],
)
def test_judged_victory_names_the_criterion_and_the_numbers(seed: int, criterion: str, words: str) -> None:
    sheet, d = _sheet(seed)
    final = replay(d.header, d.events)
    assert final.decided_by == criterion
    j = final.game.judgement if final.game is not None else None
    assert j is not None and final.winner is not None
    winner = TEAMS[final.winner]["name"]
    assert sheet.winner == winner
    assert sheet.decided_by.startswith(f"판정승 ({words}): {winner} 승")
    assert (f"난 말 {j.finished[0]} : {j.finished[1]}, 판 위 {j.on_board[0]} : {j.on_board[1]}, "
            f"남은 걸음 {j.remaining_steps[0]} : {j.remaining_steps[1]}") in sheet.decided_by
    assert sheet.end_clock == "20:00"
    rows = _rows(sh.sheet_csv(sheet))
    assert ["결과", winner, sheet.decided_by] in rows


def test_win_by_finishing_all_pieces() -> None:
    sheet, d = _sheet(10)
    final = replay(d.header, d.events)
    assert final.decided_by == "완승"
    name = TEAMS[final.winner or 0]["name"]
    assert sheet.decided_by == f"완승: {name} 말 4개가 모두 났음"


def test_draw_then_referee_decision() -> None:
    h = header(first=0)
    base = [{"type": "start", "t": 0}, {"type": "time_up", "t": 1200}]
    undecided = sh.build_sheet(tl.build(h, base))
    assert undecided.winner == "무승부"
    assert undecided.decided_by.startswith("동률 (심판 결정 대기)")
    assert "난 말 0 : 0, 판 위 0 : 0, 남은 걸음 84 : 84" in undecided.decided_by
    decided = sh.build_sheet(tl.build(h, base + [{"type": "decide", "winner": 1, "reason": "주심 재량", "t": 1200}]))
    assert decided.winner == "백호"
    assert decided.decided_by.startswith("동률 → 심판 결정: 백호 승 (주심 재량)")


def test_unfinished_record() -> None:
    h = header(first=0)
    sheet = sh.build_sheet(tl.build(h, [{"type": "start", "t": 0}]))
    assert sheet.winner == "" and "미종료" in sheet.decided_by


def _scripted() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Substitution, both 작전타임 of 청룡, three warnings of 백호 (the third costs a turn), an undo."""
    h = header(first=0)
    ev: list[dict[str, Any]] = [
        {"type": "start", "t": 0},
        {"type": "throw", "team": 0, "result": "개", "thrower": "김민수", "t": 5},
        {"type": "move", "team": 0, "result": "개", "piece": 0, "t": 9},
        {"type": "warning", "team": 1, "reason": "throw_time", "t": 21},
        {"type": "throw", "team": 1, "result": "도", "thrower": "한지우", "t": 23},
        {"type": "undo", "t": 30},
        {"type": "throw", "team": 1, "result": "걸", "thrower": "한지우", "t": 31},
        {"type": "move", "team": 1, "result": "걸", "piece": 0, "t": 40},
        {"type": "timeout", "team": 0, "t": 41},
        {"type": "timeout_end", "t": 81},
        {"type": "substitution", "team": 0, "out": "이서준", "in": "정후보", "t": 85},
        {"type": "warning", "team": 1, "reason": "protest", "note": "관중석 항의", "t": 90},
        {"type": "warning", "team": 1, "reason": "conduct", "t": 95},
        {"type": "timeout", "team": 0, "t": 100},
        {"type": "timeout_end", "t": 140},
    ]
    return h, ev


def test_csv_lists_teams_rosters_substitutions_timeouts_and_warnings() -> None:
    h, ev = _scripted()
    sheet = sh.build_sheet(tl.build(h, ev))
    text = sh.sheet_csv(sheet)
    rows = _rows(text)
    assert rows[0] == ["윷놀이 경기 기록지", "청룡 대 백호"]
    assert ["팀 1", "청룡", "투척 순서", "김민수 · 이서준 · 박도윤", "감독(말 쓰는 사람)", "최감독", "후보", "정후보"] in rows
    assert ["팀 2", "백호", "투척 순서", "한지우 · 오하준 · 윤시우", "감독(말 쓰는 사람)", "강감독", "후보", "서후보"] in rows
    assert ["", "01:25", "청룡", "이서준 → 정후보", "투척 순서 김민수 · 정후보 · 박도윤, 감독 최감독"] in rows
    assert ["", "00:41", "청룡", "1번째 작전타임", "01:21 끝"] in rows
    assert ["", "01:40", "청룡", "2번째 작전타임", "02:20 끝"] in rows
    assert ["", "00:21", "백호", "윷 던지는 시간 초과 (팀 경고 1)", ""] in rows
    assert ["", "01:30", "백호", "감독 외 선수의 항의 — 관중석 항의 (팀 경고 2)", ""] in rows
    assert ["", "01:35", "백호", "기타 규정 위반 (팀 경고 3)", "던질 기회 1회 상실"] in rows
    table = rows[rows.index(list(sh.ROW_HEADER)) + 1:]
    assert len(table) == len(ev)
    assert table[1] == ["2", "00:05", "청룡", "던짐", "김민수", "개", "", "", "촬영 1"]
    assert table[2] == ["3", "00:09", "청룡", "말", "최감독", "개", "1", "대기 → 개", ""]
    assert table[4][8].startswith("취소됨")  # the 도 the referee took back
    assert table[5][3] == "되돌리기"
    assert text.count("\r\n") == len(rows)


def test_html_is_a_printable_a4_page_in_korean() -> None:
    h, ev = _scripted()
    page = sh.sheet_html(sh.build_sheet(tl.build(h, ev)), replay_url="/replay/3")
    assert '<html lang="ko">' in page
    assert "@page { size: A4" in page
    for words in ("윷놀이 경기 기록지", "청룡", "백호", "김민수", "정후보", "강감독", "작전타임", "선수교체",
                  "던질 기회 1회 상실", "경기 미종료", 'href="/replay/3"', "주심 서명"):
        assert words in page, words
    assert 'class="kind-던짐 undone"' in page
    assert "<script" not in page  # printable, no scripts, no network


def test_names_are_escaped_in_html() -> None:
    h = header(first=0)
    h["teams"] = [dict(TEAMS[0], name="<b>청룡</b>"), TEAMS[1]]
    page = sh.sheet_html(sh.build_sheet(tl.build(h, [{"type": "start", "t": 0}])))
    assert "<b>청룡</b>" not in page and "&lt;b&gt;청룡&lt;/b&gt;" in page
