"""Building positions by hand for the rules tests."""

from __future__ import annotations

from dataclasses import replace

from yut_cam.rules import GameState, Phase, Piece, Throw, new_game, station
from yut_cam.rules.board import WAITING


def piece(at: str, prev: str | None = None, origin: str | None = None) -> Piece:
    return Piece(station(at), station(prev) if prev else None, station(origin) if origin else None)


def position(
    team0: list[Piece] | None = None,
    team1: list[Piece] | None = None,
    pending: tuple[str, ...] = (),
    turn: int = 0,
    profile: str = "official",
    bonus: int = 0,
) -> GameState:
    """A state with the given pieces (the rest waiting) in the move phase with ``pending``,
    or the throw phase when nothing is pending."""
    base = new_game(profile, first=turn)
    teams = []
    for given in (team0 or [], team1 or []):
        teams.append(tuple(given) + (Piece(WAITING),) * (4 - len(given)))
    return replace(
        base,
        pieces=tuple(teams),
        pending=tuple(Throw(p) for p in pending),
        phase=Phase.MOVE if pending else Phase.THROW,
        bonus_throws=bonus,
        sequence_throws=len(pending),
    )


def at(state: GameState, team: int, index: int) -> str:
    from yut_cam.rules import name_of

    return name_of(state.pieces[team][index].at)
