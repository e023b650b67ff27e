"""JSON views of a match state: the documented ``replay --json`` contract plus extras."""

from __future__ import annotations

from typing import Any

from yut_cam.match import clock
from yut_cam.match.state import MatchState
from yut_cam.rules import board, legal_moves


def state_json(state: MatchState, now: float | None = None) -> dict[str, Any]:
    """DESIGN.md's state object (teams, turn, phase, pending, bonus_throws, winner, judged),
    followed by the referee's view (clocks, warnings, 작전타임, substitutions, line-ups)."""
    game = state.game
    teams: list[dict[str, Any]] = []
    for i, lineup in enumerate(state.lineups):
        pieces = game.pieces[i] if game is not None else ()
        teams.append(
            {
                "name": lineup.name,
                "pieces": [{"id": n, "at": board.name_of(p.at)} for n, p in enumerate(pieces)]
                if game is not None
                else [{"id": n, "at": board.WAITING_NAME} for n in range(4)],
            }
        )
    over = game is not None and game.over
    judged = game.judgement.to_json() if game is not None and game.judgement is not None else None
    out: dict[str, Any] = {
        "teams": teams,
        "turn": game.turn if game is not None else None,
        "phase": game.phase.value if game is not None else "throw",
        "pending": [t.value for t in game.pending] if game is not None and not over else [],
        "bonus_throws": game.bonus_throws if game is not None and not over else 0,
        "winner": state.winner,
        "judged": judged,
    }
    out["match"] = referee_json(state, now)
    return out


def referee_json(state: MatchState, now: float | None = None) -> dict[str, Any]:
    """Everything beyond the board: clocks, line-ups, warnings, limits used."""
    t = state.t if now is None else now
    game = state.game
    shot = state.shot
    stacks = []
    if game is not None:
        for team in range(2):
            for at, ids in game.stacks(team).items():
                stacks.append({"team": team, "at": board.name_of(at), "pieces": list(ids)})
    return {
        "t": state.t,
        "decided_by": state.decided_by,
        "first": state.first,
        "throwoff": None
        if state.game is not None
        else {"results": [r.value if r else None for r in state.throwoff], "rounds": state.throwoff_rounds},
        "clock": {
            "started": state.started,
            "running": state.started and state.stopped is None and not state.over,
            "stopped": state.stopped,
            "remaining": max(0.0, clock.MATCH_SECONDS - t),
            "shot": None
            if shot is None
            else {
                "kind": shot.kind,
                "team": shot.team,
                "limit": shot.limit,
                "remaining": shot.remaining(t),
                "paused": shot.paused_at is not None,
                "warnings_given": shot.warnings,
                "warnings_due": max(0, clock.warnings_due(-shot.remaining(t)) - shot.warnings),
            },
        },
        "timeout": None if state.timeout is None else {"team": state.timeout[0], "since": state.timeout[1]},
        "lineups": [
            {**lineup.to_json(), "next_thrower": state.next_thrower_name(i)}
            for i, lineup in enumerate(state.lineups)
        ],
        "warnings": [
            {"team": w.team, "reason": w.reason, "t": w.t, "consequence": w.consequence} for w in state.warnings
        ],
        "warning_counts": [state.team_warnings(i) for i in range(2)],
        "timeouts_left": [clock.TIMEOUTS_PER_TEAM - n for n in state.timeouts_used],
        "substitutions_left": [clock.SUBSTITUTIONS_PER_TEAM - n for n in state.substitutions_used],
        "sequence_throws": game.sequence_throws if game is not None else 0,
        "skip_turns": list(game.skip_turns) if game is not None else [0, 0],
        "stacks": stacks,
        "events": state.events_applied,
    }


def moves_json(state: MatchState) -> list[dict[str, Any]]:
    """The legal moves now (piece, result, destination, route), for tools and the console."""
    if state.game is None or state.timeout is not None:
        return []
    return [m.to_json() for m in legal_moves(state.game)]
