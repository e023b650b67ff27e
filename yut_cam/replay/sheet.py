"""The official record sheet (기록지) of a match: CSV for Excel and a printable A4 page.

:func:`build_sheet` is pure (a :class:`~yut_cam.replay.timeline.Timeline` in, a
:class:`RecordSheet` out); :func:`sheet_csv` and :func:`sheet_html` render it.  The HTML
page is ``web/templates/sheet.html`` (Jinja2, which Flask brings), so the replay page can
serve the same sheet.

Clock column: MM:SS of the match clock elapsed at the event (00:00 at the start, 20:00 at
time-up), from each event's ``t``.  Events a later ``undo`` took back stay on the sheet,
marked 취소 (the record is never erased).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from yut_cam.match import MatchState
from yut_cam.match.events import WARNING_REASONS
from yut_cam.replay.timeline import Step, Timeline, describe, mmss, moved_pieces, title_of, undone_indices

CRITERIA = {
    "finished": "난 말 수",
    "on_board": "판 위의 말 수",
    "remaining_steps": "남은 걸음 수",
}

KINDS = {
    "throwoff": "선공 결정",
    "start": "시작",
    "throw": "던짐",
    "move": "말",
    "warning": "경고",
    "timeout": "작전타임",
    "timeout_end": "작전타임 끝",
    "substitution": "선수교체",
    "stoppage": "중단",
    "resume": "재개",
    "wrong_thrower": "순서 위반",
    "clock_set": "시계 정정",
    "undo": "되돌리기",
    "time_up": "시간 종료",
    "decide": "심판 결정",
}


@dataclass(frozen=True)
class SheetTeam:
    name: str
    throwers: tuple[str, ...]
    mover: str
    reserves: tuple[str, ...]
    final_throwers: tuple[str, ...]
    final_mover: str
    warnings: int
    timeouts_used: int
    substitutions_used: int


@dataclass(frozen=True)
class SheetRow:
    no: int
    clock: str
    team: str
    kind: str
    player: str
    result: str
    piece: str
    route: str
    note: str
    undone: bool = False


@dataclass(frozen=True)
class SheetEntry:
    """A line of the 선수교체 / 작전타임 / 경고 lists."""

    clock: str
    team: str
    text: str
    consequence: str = ""
    undone: bool = False


@dataclass(frozen=True)
class RecordSheet:
    title: str
    rules: str
    teams: tuple[SheetTeam, SheetTeam]
    first: str
    rows: tuple[SheetRow, ...]
    substitutions: tuple[SheetEntry, ...]
    timeouts: tuple[SheetEntry, ...]
    warnings: tuple[SheetEntry, ...]
    winner: str  # team name, "무승부" or "" (not over)
    decided_by: str  # one line: how it was decided, with the numbers
    end_clock: str
    throws: int
    moves: int
    error: str | None = None


def _team(state: MatchState, team: Any) -> str:
    if isinstance(team, int) and not isinstance(team, bool) and 0 <= team < 2:
        return state.lineups[team].name
    return ""


def _row(step: Step, undone: bool) -> SheetRow:
    e, before, after = step.event, step.before, step.state
    kind = step.kind
    team = _team(before, e.get("team"))
    player = result = piece = route = note = ""
    if kind == "throw":
        result = str(e.get("result", ""))
        team_no = e.get("team")
        player = str(e.get("thrower") or "")
        if not player and before.game is not None and team_no in (0, 1):
            player = before.next_thrower_name(team_no)
        if step.capture is not None:
            note = f"촬영 {step.capture}"
    elif kind == "move":
        result = str(e.get("result", ""))
        team_no = e.get("team")
        player = before.lineups[team_no].mover if team_no in (0, 1) else ""
        mv = moved_pieces(before, after, e)
        if mv is not None:
            piece = "·".join(str(i + 1) for i in mv["pieces"])
            route = f"{mv['from']} → {mv['to']}"
            if mv["captured"]:
                note = f"상대 말 {len(mv['captured'])}개 잡음"
    elif kind == "throwoff":
        result = str(e.get("result", ""))
        team_no = e.get("team")
        player = before.lineups[team_no].captain if team_no in (0, 1) else ""
        if step.capture is not None:
            note = f"촬영 {step.capture}"
    elif kind == "warning":
        reason = str(e.get("reason", ""))
        result = WARNING_REASONS.get(reason, reason)
        entry = after.warnings[-1] if len(after.warnings) > len(before.warnings) else None
        note = entry.consequence if entry is not None else ""
        if e.get("note"):
            note = f"{note}; {e['note']}" if note else str(e["note"])
    else:
        note = describe(e, before, after)
    if undone:
        note = f"취소됨 (되돌리기){'; ' + note if note else ''}"
    return SheetRow(step.index, mmss(step.t), team, KINDS.get(kind, kind), player, result, piece, route, note, undone)


def _outcome(timeline: Timeline) -> tuple[str, str]:
    final = timeline.final
    game = final.game
    names = [t.name for t in final.lineups]
    if game is None or not game.over:
        return "", "경기 미종료 (기록이 끝나기 전)"
    winner = names[final.winner] if final.winner is not None else "무승부"
    if final.decided_by == "완승":
        return winner, f"완승: {winner} 말 4개가 모두 났음"
    judged = game.judgement
    numbers = ""
    if judged is not None:
        numbers = (
            f"난 말 {judged.finished[0]} : {judged.finished[1]}, "
            f"판 위 {judged.on_board[0]} : {judged.on_board[1]}, "
            f"남은 걸음 {judged.remaining_steps[0]} : {judged.remaining_steps[1]}"
            f" ({names[0]} : {names[1]})"
        )
    if final.decided_by in CRITERIA:
        return winner, f"판정승 ({CRITERIA[final.decided_by]}): {winner} 승 — {numbers}"
    if final.decided_by == "referee":
        reason = ""
        for s in reversed(timeline.steps):
            if s.kind == "decide":
                reason = str(s.event.get("reason") or "")
                break
        verdict = f"{winner} 승" if final.winner is not None else "무승부"
        extra = f" ({reason})" if reason else ""
        return winner, f"동률 → 심판 결정: {verdict}{extra} — {numbers}"
    return "무승부", f"동률 (심판 결정 대기) — {numbers}"


def build_sheet(timeline: Timeline) -> RecordSheet:
    """The sheet of a timeline (build it with ``strict=False`` to sheet a faulty record)."""
    steps = timeline.steps
    undone = undone_indices(steps)
    final = timeline.final
    header = timeline.header
    teams = []
    for i, t in enumerate(header.teams):
        lineup = final.lineups[i]
        teams.append(SheetTeam(
            t.name, t.throwers, t.mover, t.reserves, lineup.throwers, lineup.mover,
            final.team_warnings(i), final.timeouts_used[i], final.substitutions_used[i],
        ))  # fmt: skip
    subs: list[SheetEntry] = []
    timeouts: list[SheetEntry] = []
    warns: list[SheetEntry] = []
    open_timeout: int | None = None
    for s in steps:
        gone = s.index in undone
        team = _team(s.before, s.event.get("team"))
        if s.kind == "substitution":
            lineup = s.state.lineups[s.event["team"]]
            what = (f"{s.event['out']} → {s.event['in']}" if s.event.get("out") and s.event.get("in")
                    else "순서 변경")
            subs.append(SheetEntry(mmss(s.t), team, what,
                                   f"투척 순서 {' · '.join(lineup.throwers)}, 감독 {lineup.mover}", gone))
        elif s.kind == "timeout":
            used = s.state.timeouts_used[s.event["team"]]
            timeouts.append(SheetEntry(mmss(s.t), team, f"{used}번째 작전타임", "", gone))
            open_timeout = len(timeouts) - 1
        elif s.kind == "timeout_end" and open_timeout is not None:
            entry = timeouts[open_timeout]
            timeouts[open_timeout] = SheetEntry(entry.clock, entry.team, entry.text, f"{mmss(s.t)} 끝", entry.undone)
            open_timeout = None
        elif s.kind == "warning":
            reason = str(s.event.get("reason", ""))
            entry_w = s.state.warnings[-1] if len(s.state.warnings) > len(s.before.warnings) else None
            count = s.state.team_warnings(s.event["team"])
            note = f" — {s.event['note']}" if s.event.get("note") else ""
            warns.append(SheetEntry(mmss(s.t), team, f"{WARNING_REASONS.get(reason, reason)}{note} (팀 경고 {count})",
                                    entry_w.consequence if entry_w is not None else "", gone))
    first = ""
    if final.first is not None:
        results = [s for s in steps if s.kind == "throwoff" and s.index not in undone]
        how = " / ".join(f"{_team(s.before, s.event.get('team'))} {s.event.get('result')}" for s in results)
        first = final.lineups[final.first].name + (f" (감독 윷 던지기: {how})" if how else " (지정)")
    winner, decided = _outcome(timeline)
    end = steps[-1].t if steps else None
    live = [s for s in steps if s.index not in undone]
    return RecordSheet(
        title=title_of(header), rules=header.rules, teams=(teams[0], teams[1]), first=first,
        rows=tuple(_row(s, s.index in undone) for s in steps), substitutions=tuple(subs),
        timeouts=tuple(timeouts), warnings=tuple(warns), winner=winner, decided_by=decided,
        end_clock=mmss(end), throws=sum(s.kind == "throw" for s in live),
        moves=sum(s.kind == "move" for s in live), error=timeline.error,
    )  # fmt: skip


# --- CSV ---------------------------------------------------------------------------------

ROW_HEADER = ("번호", "시간", "팀", "구분", "선수", "결과", "말", "이동", "비고")


def sheet_csv(sheet: RecordSheet) -> str:
    """The sheet as CSV text starting with a BOM (Excel then reads it as UTF-8).  Write it
    with ``newline=""`` or as bytes (rows end in CRLF, as RFC 4180 says)."""
    out = io.StringIO()
    out.write("\ufeff")
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(["윷놀이 경기 기록지", sheet.title])
    w.writerow(["규정", sheet.rules])
    for i, t in enumerate(sheet.teams):
        w.writerow([f"팀 {i + 1}", t.name, "투척 순서", " · ".join(t.throwers), "감독(말 쓰는 사람)", t.mover,
                    "후보", " · ".join(t.reserves)])
    w.writerow(["선공", sheet.first])
    w.writerow(["결과", sheet.winner, sheet.decided_by])
    w.writerow(["경기 종료 시각", sheet.end_clock, "던진 횟수", sheet.throws, "말 쓴 횟수", sheet.moves])
    if sheet.error:
        w.writerow(["기록 오류", sheet.error])
    for title, entries in (("선수교체", sheet.substitutions), ("작전타임", sheet.timeouts), ("경고", sheet.warnings)):
        w.writerow([])
        w.writerow([title, "시간", "팀", "내용", "결과"])
        for e in entries:
            w.writerow(["취소됨" if e.undone else "", e.clock, e.team, e.text, e.consequence])
        if not entries:
            w.writerow(["", "", "", "없음"])
    w.writerow([])
    w.writerow(ROW_HEADER)
    for r in sheet.rows:
        w.writerow([r.no, r.clock, r.team, r.kind, r.player, r.result, r.piece, r.route, r.note])
    return out.getvalue()


# --- HTML --------------------------------------------------------------------------------


def web_root() -> Path:
    """The top-level ``web/`` folder (templates and static files) of this checkout."""
    return Path(__file__).resolve().parents[2] / "web"


def sheet_html(sheet: RecordSheet, *, replay_url: str | None = None) -> str:
    """The printable A4 page (self-contained: its CSS is inline)."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    env = Environment(
        loader=FileSystemLoader(str(web_root() / "templates")),
        autoescape=select_autoescape(["html"]),
    )
    return env.get_template("sheet.html").render(sheet=sheet, replay_url=replay_url)


__all__ = [
    "CRITERIA", "KINDS", "ROW_HEADER", "RecordSheet", "SheetEntry", "SheetRow", "SheetTeam",
    "build_sheet", "sheet_csv", "sheet_html", "web_root",
]  # fmt: skip
