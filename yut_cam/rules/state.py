"""Values of the rules engine: pieces, moves, the game state and the time-up judgement."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from yut_cam.rules import board
from yut_cam.rules.profiles import Profile
from yut_cam.rules.throws import Throw

PIECES_PER_TEAM = 4


class Phase(enum.Enum):
    THROW = "throw"
    MOVE = "move"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Piece:
    """One 윷말: where it is, the station its last step came from (for 빽도), and the
    corner (모 or 뒷모) its diagonal began at (for the choice on 방)."""

    at: int = board.WAITING
    prev: int | None = None
    origin: int | None = None

    @property
    def on_board(self) -> bool:
        return self.at >= 0

    @property
    def finished(self) -> bool:
        return self.at == board.FINISHED

    @property
    def waiting(self) -> bool:
        return self.at == board.WAITING


WAITING_PIECE = Piece()
FINISHED_PIECE = Piece(board.FINISHED)


@dataclass(frozen=True, slots=True)
class Move:
    """A legal use of one pending result on one piece or stack (or entering a piece)."""

    team: int
    piece: int
    result: Throw
    start: int
    to: int
    route: tuple[int, ...]
    pieces: tuple[int, ...]
    prev_after: int = field(default=0, repr=False, compare=False)
    origin_after: int | None = field(default=None, repr=False, compare=False)

    @property
    def enters(self) -> bool:
        """A waiting piece coming onto the board."""
        return self.start == board.WAITING

    @property
    def finishes(self) -> bool:
        return self.to == board.FINISHED

    def to_json(self) -> dict[str, Any]:
        """The record's move event plus the route (names), as `yut-cam moves` prints it."""
        return {
            "type": "move",
            "team": self.team,
            "result": self.result.value,
            "piece": self.piece,
            "to": board.name_of(self.to),
            "from": board.name_of(self.start),
            "pieces": list(self.pieces),
            "route": [board.name_of(s) for s in self.route],
        }

    def __str__(self) -> str:
        route = "→".join(board.name_of(s) for s in self.route)
        return f"team {self.team} piece {self.piece} {self.result.value}: {route}"


@dataclass(frozen=True, slots=True)
class Judgement:
    """The judged victory at time-up (rule 000): finished, on board, longest remaining steps."""

    finished: tuple[int, ...]
    on_board: tuple[int, ...]
    remaining_steps: tuple[int, ...]
    decided_by: str | None
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "finished": list(self.finished),
            "on_board": list(self.on_board),
            "remaining_steps": list(self.remaining_steps),
            "decided_by": self.decided_by,
        }


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole position: immutable, so a search can keep as many as it likes."""

    profile: Profile
    pieces: tuple[tuple[Piece, ...], ...]
    turn: int = 0
    phase: Phase = Phase.THROW
    pending: tuple[Throw, ...] = ()
    bonus_throws: int = 0
    #: Throws in the current sequence (윷/모 streak and its closing throw): the move clock
    #: grows by 10 s for each beyond the third.
    sequence_throws: int = 0
    #: Throwing turns each team has lost (every third warning) and will skip.
    skip_turns: tuple[int, ...] = (0, 0)
    winner: int | None = None
    judgement: Judgement | None = None

    @property
    def teams(self) -> int:
        return len(self.pieces)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def stacks(self, team: int) -> dict[int, tuple[int, ...]]:
        """The team's pieces on the board grouped by station (a stack is 업기)."""
        out: dict[int, tuple[int, ...]] = {}
        for i, p in enumerate(self.pieces[team]):
            if p.at >= 0:
                out[p.at] = out.get(p.at, ()) + (i,)
        return out

    def has_piece_on_board(self, team: int) -> bool:
        return any(p.at >= 0 for p in self.pieces[team])

    def at(self, station: int) -> tuple[int, tuple[int, ...]] | None:
        """(team, piece ids) standing on ``station``, or None."""
        for team, pieces in enumerate(self.pieces):
            ids = tuple(i for i, p in enumerate(pieces) if p.at == station)
            if ids:
                return (team, ids)
        return None
