"""The judged victory when the 20 minutes run out (rule 000, DESIGN.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from yut_cam.rules.state import GameState, Judgement

OFF_BOARD_STEPS = 21


def remaining_steps(state: GameState, team: int) -> int:
    """Steps the team's pieces still need to pass 참먹이, each along its LONGEST route;
    a stack counts once and a piece off the board counts 21."""
    total = 0
    counted: set[int] = set()
    for p in state.pieces[team]:
        if p.waiting:
            total += OFF_BOARD_STEPS
        elif p.on_board and p.at not in counted:
            counted.add(p.at)
            total += state.profile.longest_remaining(p.at, p.origin)
    return total


def judge(state: GameState) -> Judgement:
    """Apply the criteria in order: more finished pieces, more pieces on the board, fewer
    remaining steps.  Equal on all three: a draw (winner None) for the referee to settle."""
    from yut_cam.rules.state import Judgement

    teams = range(state.teams)
    finished = tuple(sum(p.finished for p in state.pieces[t]) for t in teams)
    on_board = tuple(sum(p.on_board for p in state.pieces[t]) for t in teams)
    remaining = tuple(remaining_steps(state, t) for t in teams)
    for name, values, better in (
        ("finished", finished, max),
        ("on_board", on_board, max),
        ("remaining_steps", remaining, min),
    ):
        best = better(values)
        leaders = [t for t in teams if values[t] == best]
        if len(leaders) == 1:
            return Judgement(finished, on_board, remaining, name, leaders[0])
    return Judgement(finished, on_board, remaining, None, None)
