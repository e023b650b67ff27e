"""A mutable game, like ``chess.Board``: the current state plus a stack for push/pop."""

from __future__ import annotations

from yut_cam.rules import engine
from yut_cam.rules.profiles import Profile
from yut_cam.rules.state import GameState, Move
from yut_cam.rules.throws import Throw


class Game:
    """Apply throws and moves in turn; ``pop()`` undoes the last one (for search and undo)."""

    def __init__(
        self, profile: str | Profile = "official", first: int = 0, teams: int = 2,
        state: GameState | None = None,
    ) -> None:  # fmt: skip
        self.state: GameState = state if state is not None else engine.new_game(profile, first, teams)
        self._history: list[GameState] = []

    def legal_moves(self) -> list[Move]:
        return engine.legal_moves(self.state)

    def is_legal(self, move: Move) -> bool:
        """Would the engine play ``move`` now (any member of a stack, any waiting piece)?"""
        return move.team == self.state.turn and _accepts(self.state, move)

    def throw(self, result: Throw | str) -> GameState:
        """The team whose turn it is throws ``result``."""
        self._set(engine.apply_throw(self.state, self.state.turn, result))
        return self.state

    def move(self, piece: int, result: Throw | str, to: int | str | None = None) -> Move:
        """The team whose turn it is uses ``result`` on ``piece``; returns the move played."""
        chosen = engine.find_move(self.state, self.state.turn, piece, result, to)
        self._set(engine.apply_move(self.state, chosen))
        return chosen

    def push(self, move: Move) -> None:
        """Play a move from :meth:`legal_moves` (not re-validated: the search path)."""
        self._set(engine.apply_move(self.state, move))

    def time_up(self) -> GameState:
        self._set(engine.time_up(self.state))
        return self.state

    def pop(self) -> GameState:
        """Undo the last throw or move; returns the state that was undone."""
        undone = self.state
        self.state = self._history.pop()
        return undone

    def _set(self, state: GameState) -> None:
        self._history.append(self.state)
        self.state = state


def _accepts(state: GameState, move: Move) -> bool:
    try:
        found = engine.find_move(state, move.team, move.piece, move.result, move.to)
    except ValueError:
        return False
    return found.route == move.route and found.pieces == move.pieces
