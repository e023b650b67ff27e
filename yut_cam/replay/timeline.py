"""The timeline of a recorded match: one step per event, each with the state after it.

Pure: a header and the record's events in, JSON-ready values out (no files, no clock).
The replay page (``/replay/<id>/timeline.json``), the record sheet (기록지) and the re-read
report are all built on it.

Capture numbers (throw ↔ capture directory)
    The camera records each throw it sees under ``captures/<match>/<n>/`` (clip.avi,
    settled.jpg, reading.json, annotated.jpg); the live service numbers them 1, 2, 3 … per
    match as the sticks settle, and when the referee confirms a reading it writes that
    number into the event as ``"capture": n`` (on ``throw`` and ``throwoff`` events).  So:

    1. a record where any event carries ``"capture"`` (every record the service made with a
       camera) maps exactly those events to their capture; throws entered by hand have none;
    2. a record without any ``"capture"`` field (written elsewhere, or by hand) maps the
       n-th ``throw`` event (1-based, in record order, counting throws a later ``undo``
       took back) to capture ``n``; throw-off throws have none.

    Captures no event points to (a reading the referee threw away) are simply not shown on
    any step.  See :func:`capture_numbers`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from yut_cam.match import Header, MatchError, MatchState, apply, clock, parse_event, start_state, state_json
from yut_cam.match.events import WARNING_REASONS
from yut_cam.rules import board, find_move


class TimelineError(ValueError):
    """A record the timeline cannot be built from (the message quotes the bad input)."""


@dataclass(frozen=True)
class Step:
    """One event of the record and the match as it stood right after it."""

    index: int  # 1-based position of the event in the record
    event: dict[str, Any]  # the record's event object (without private keys)
    t: float | None  # the event's own match-clock seconds, if recorded
    capture: int | None  # capture directory number of a throw event
    state: MatchState
    before: MatchState

    @property
    def kind(self) -> str:
        return str(self.event.get("type", ""))

    def to_json(self) -> dict[str, Any]:
        st = state_json(self.state)
        return {
            "index": self.index,
            "type": self.kind,
            "event": self.event,
            "t": self.t,
            "capture": self.capture,
            "clock": clock_text(self.state),
            "text": describe(self.event, self.before, self.state),
            "moved": moved_pieces(self.before, self.state, self.event),
            "state": st,
        }


@dataclass(frozen=True)
class Timeline:
    header: Header
    start: MatchState
    steps: tuple[Step, ...]
    #: Set when the record breaks a rule at some event: the steps stop before it.
    error: str | None = None
    error_index: int | None = None

    @property
    def final(self) -> MatchState:
        return self.steps[-1].state if self.steps else self.start

    def to_json(self) -> dict[str, Any]:
        undone = undone_indices(self.steps)
        return {
            "header": self.header.to_json(),
            "title": title_of(self.header),
            "start": {"state": state_json(self.start), "clock": clock_text(self.start)},
            "steps": [{**s.to_json(), "undone": s.index in undone} for s in self.steps],
            "error": self.error,
            "error_index": self.error_index,
            "board": board_json(),
        }


def undone_indices(steps: Sequence[Step]) -> set[int]:
    """Record indices of events a later ``undo`` took back (each undo cancels the latest
    event still standing, so consecutive undos walk back)."""
    standing: list[int] = []
    undone: set[int] = set()
    for s in steps:
        if s.kind == "undo":
            if standing:
                undone.add(standing.pop())
        else:
            standing.append(s.index)
    return undone


def title_of(header: Header) -> str:
    return header.title or " 대 ".join(t.name for t in header.teams)


def board_json() -> dict[str, Any]:
    """Stations (name, slug, x, y on the unit circle, y up) and edges, for the SVG board."""
    coords = board.coordinates()
    return {
        "stations": [
            {"id": i, "name": board.NAMES[i], "slug": board.SLUGS[i], "x": round(x, 5), "y": round(y, 5)}
            for i, (x, y) in enumerate(coords)
        ],
        "edges": [list(e) for e in board.edges()],
    }


def _clean(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if not k.startswith("_")}


def capture_numbers(events: Sequence[dict[str, Any]]) -> list[int | None]:
    """The capture number of each event (``None`` for events without one); see the module
    docstring for the two rules."""
    explicit = any(isinstance(e, dict) and "capture" in e for e in events)
    out: list[int | None] = []
    ordinal = 0
    for i, e in enumerate(events, start=1):
        kind = e.get("type") if isinstance(e, dict) else None
        if kind not in ("throw", "throwoff"):
            out.append(None)
            continue
        if not explicit:
            if kind == "throw":
                ordinal += 1
                out.append(ordinal)
            else:
                out.append(None)
            continue
        n = e.get("capture")
        if n is None:
            out.append(None)
        elif isinstance(n, int) and not isinstance(n, bool) and n >= 1:
            out.append(n)
        else:
            raise TimelineError(f"event {i}: \"capture\" must be a positive integer, not {n!r}")
    return out


def build(header: dict[str, Any] | Header, events: Sequence[dict[str, Any]], *, strict: bool = True) -> Timeline:
    """The timeline of a record.

    ``strict`` (default) raises the :class:`~yut_cam.match.MatchError` of the first illegal
    event, located at its record line; otherwise the timeline stops before that event and
    carries the error, so a disputed record can still be looked at up to the fault.
    """
    try:
        parsed = header if isinstance(header, Header) else Header.from_json(header)
    except MatchError as exc:
        raise exc.at_line(1, header) from None
    captures = capture_numbers(events)
    state = start_state(parsed)
    start = state
    steps: list[Step] = []
    for index, raw in enumerate(events, start=1):
        line = index + 1  # the header is line 1
        try:
            before = state
            state = apply(state, parse_event(raw))
        except MatchError as exc:
            located = exc.at_line(line, _clean(raw) if isinstance(raw, dict) else raw)
            if strict:
                raise located from None
            return Timeline(parsed, start, tuple(steps), str(located), index)
        event = _clean(raw)
        t = event.get("t")
        steps.append(Step(index, event, float(t) if isinstance(t, (int, float)) else None, captures[index - 1],
                          state, before))
    return Timeline(parsed, start, tuple(steps))


# --- words for people ------------------------------------------------------------------


def clock_text(state: MatchState) -> dict[str, Any]:
    """The clocks as the LED timer showed them right after the event."""
    shot = state.shot
    remaining = max(0.0, clock.MATCH_SECONDS - state.t)
    return {
        "elapsed": clock.format_elapsed(state.t),
        "match": clock.format_clock(remaining),
        "shot": None if shot is None else max(0, math.ceil(round(shot.remaining(state.t), 3))),
        "shot_kind": None if shot is None else shot.kind,
    }


def mmss(t: float | None) -> str:
    """The record sheet's clock: MM:SS of the match clock elapsed (blank without ``t``)."""
    if t is None:
        return ""
    return clock.format_elapsed(t)


def _team_name(state: MatchState, team: Any) -> str:
    if isinstance(team, int) and not isinstance(team, bool) and 0 <= team < len(state.lineups):
        return state.lineups[team].name
    return "?"


def moved_pieces(before: MatchState, after: MatchState, event: dict[str, Any]) -> dict[str, Any] | None:
    """For a move: the team, the pieces that moved, where from and where to (names)."""
    if event.get("type") != "move" or before.game is None or after.game is None:
        return None
    team = event.get("team")
    if not isinstance(team, int) or not 0 <= team < 2:
        return None
    old, new = before.game.pieces[team], after.game.pieces[team]
    moved = [i for i in range(len(old)) if old[i].at != new[i].at]
    piece = event.get("piece")
    frm = board.name_of(old[piece].at) if isinstance(piece, int) and 0 <= piece < len(old) else None
    to = board.name_of(new[piece].at) if isinstance(piece, int) and 0 <= piece < len(new) else None
    other = 1 - team
    captured = [
        i for i in range(len(before.game.pieces[other]))
        if before.game.pieces[other][i].on_board and after.game.pieces[other][i].waiting
    ]
    return {"team": team, "pieces": moved, "from": frm, "to": to, "captured": captured,
            "route": _route(before, event)}


def _route(before: MatchState, event: dict[str, Any]) -> list[str]:
    """The stations the move passed, as the rules engine walks it (for the animation)."""
    game = before.game
    if game is None:
        return []
    try:
        move = find_move(game, event["team"], event["piece"], event["result"], event.get("to"))
    except (KeyError, ValueError):
        return []
    return [board.name_of(s) for s in move.route]


def describe(event: dict[str, Any], before: MatchState, after: MatchState) -> str:
    """One line in Korean saying what the event was, for the page and the sheet."""
    kind = event.get("type")
    team = _team_name(before, event.get("team"))
    if kind == "throw":
        who = event.get("thrower") or (
            before.next_thrower_name(event["team"]) if before.game is not None and event.get("team") in (0, 1) else ""
        )
        extra = f" ({who})" if who else ""
        return f"{team} 윷 던짐{extra}: {event.get('result')}"
    if kind == "move":
        mv = moved_pieces(before, after, event)
        if mv is None:
            return f"{team} 말 씀: {event.get('result')}"
        pieces = "·".join(str(i + 1) for i in mv["pieces"]) or str(int(event.get("piece", 0)) + 1)
        text = f"{team} {pieces}번 말 {event.get('result')}: {mv['from']} → {mv['to']}"
        if mv["captured"]:
            text += f" (상대 말 {len(mv['captured'])}개 잡음)"
        return text
    if kind == "throwoff":
        return f"선공 결정: {team} 감독 {event.get('result')}"
    if kind == "start":
        return "경기 시작"
    if kind == "stoppage":
        return f"경기 중단: {event.get('reason') or '심판 중단'}"
    if kind == "resume":
        return "경기 재개"
    if kind == "warning":
        reason = WARNING_REASONS.get(str(event.get("reason")), str(event.get("reason")))
        entry = after.warnings[-1] if len(after.warnings) > len(before.warnings) else None
        consequence = f" → {entry.consequence}" if entry is not None and entry.consequence else ""
        return f"경고: {team} — {reason}{consequence}"
    if kind == "timeout":
        return f"작전타임: {team}"
    if kind == "timeout_end":
        return "작전타임 끝"
    if kind == "substitution":
        if event.get("out") and event.get("in"):
            return f"선수교체: {team} {event.get('out')} → {event.get('in')}"
        return f"선수교체: {team} 순서 변경"
    if kind == "wrong_thrower":
        return f"순서 위반: {team} {event.get('thrower', '')} — 낙"
    if kind == "clock_set":
        to = event.get("to")
        shown = clock.format_clock(clock.MATCH_SECONDS - to, tenths=False) if isinstance(to, (int, float)) else "?"
        return f"경기 시계 정정: 남은 시간 {shown}" + (f" — {event['reason']}" if event.get("reason") else "")
    if kind == "undo":
        return "되돌리기 (직전 기록 취소)"
    if kind == "time_up":
        return "경기 시간 종료 (20:00)"
    if kind == "decide":
        winner = event.get("winner")
        who = _team_name(before, winner) + " 승" if winner in (0, 1) else "무승부"
        return f"심판 결정: {who}" + (f" — {event['reason']}" if event.get("reason") else "")
    return str(kind)


__all__ = [
    "Step", "Timeline", "TimelineError", "board_json", "build", "capture_numbers", "clock_text",
    "describe", "mmss", "moved_pieces", "title_of", "undone_indices",
]  # fmt: skip

