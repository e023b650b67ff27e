"""Pure pieces of the LIVE STATE object (docs/web-api.md) that the service adds to
:func:`yut_cam.match.state_json`: the clock sync, the history, the last move's path, the
LED timer's view of the clocks, and the board geometry."""

from __future__ import annotations

from typing import Any

from yut_cam.hardware.timer import TimerState
from yut_cam.match import MatchState, clock
from yut_cam.rules import board, legal_moves, parse_throw

HISTORY_LENGTH = 30


def clock_sync(state: MatchState, t_now: float, running: bool, server_time: float) -> dict[str, Any]:
    """What pages need to interpolate the clocks locally:
    ``t_now = t + (Date.now()/1000 - server_time)`` while ``running``."""
    shot = state.shot
    deadline: float | None = None
    paused = False
    if shot is not None:
        paused = shot.paused_at is not None or not running
        deadline = t_now + shot.remaining(t_now) if paused else shot.deadline
    return {
        "server_time": server_time,
        "t": t_now,
        "running": running,
        "remaining": max(0.0, clock.MATCH_SECONDS - t_now),
        "shot_deadline": deadline,
        "shot_kind": None if shot is None else shot.kind,
        "shot_paused": paused,
    }


def history(events: list[tuple[int, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The last 30 events, oldest first, each ``{"seq": n, **event}``."""
    return [{"seq": seq, **event} for seq, event in events[-HISTORY_LENGTH:]]


def move_view(before: MatchState, event: dict[str, Any]) -> dict[str, Any] | None:
    """``{"team","pieces","route","result","from","to"}`` of a move event applied to
    ``before`` (for the path animation), or None if it is not a legal move there."""
    game = before.game
    if game is None:
        return None
    try:
        result = parse_throw(event.get("result", ""))
    except ValueError:
        return None
    to = event.get("to")
    candidates = [
        m for m in legal_moves(game)
        if m.team == event.get("team") and m.result is result and event.get("piece") in m.pieces
        and (to is None or board.name_of(m.to) == to or _slug_match(m.to, to))
    ]  # fmt: skip
    if not candidates:
        return None
    move = candidates[0]
    return {
        "team": move.team,
        "pieces": list(move.pieces),
        "route": [board.name_of(s) for s in move.route],
        "result": move.result.value,
        "from": board.name_of(move.start),
        "to": board.name_of(move.to),
    }


def _slug_match(station: int, name: object) -> bool:
    try:
        return isinstance(name, str) and board.station(name) == station
    except ValueError:
        return False


def timer_state(state: MatchState | None, t_now: float, running: bool) -> TimerState:
    """The clocks as the LED timer shows them (match remaining, shot remaining)."""
    if state is None or not state.started:
        return TimerState()
    shot = state.shot
    over = state.over
    return TimerState(
        match_remaining=clock.MATCH_SECONDS - t_now,
        match_running=running,
        shot_remaining=None if shot is None or over else shot.remaining(t_now),
        shot_kind=None if shot is None or over else shot.kind,  # type: ignore[arg-type]
        over=over,
    )


def board_json(rotation: float) -> dict[str, Any]:
    coords = board.coordinates(rotation)
    return {
        "stations": [
            {"id": i, "name": board.name_of(i), "slug": board.slug_of(i), "x": x, "y": y}
            for i, (x, y) in enumerate(coords)
        ],
        "edges": [list(e) for e in board.edges()],
        "rotation": rotation,
    }
