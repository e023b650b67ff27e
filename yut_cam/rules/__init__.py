"""The pure rules engine of tournament 윷놀이 (seed 000 as DESIGN.md reads it).

No I/O, no clock, no randomness: states in, states out.

>>> from yut_cam.rules import Game
>>> g = Game()
>>> _ = g.throw("모"); _ = g.throw("개")
>>> [str(m) for m in g.legal_moves()]
['team 0 piece 0 모: 도→개→걸→윷→모', 'team 0 piece 0 개: 도→개']
>>> _ = g.move(0, "모"); g.move(0, "개", to="모개").to == station("모개")
True
"""

from yut_cam.rules.board import FINISHED, WAITING, coordinates, edges, name_of, station
from yut_cam.rules.engine import (
    apply_move,
    apply_throw,
    find_move,
    forfeit_turn,
    legal_moves,
    new_game,
    play,
    time_up,
    void_turn,
)
from yut_cam.rules.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    RulesError,
    UnknownProfileError,
    UnknownStationError,
    UnknownThrowError,
)
from yut_cam.rules.game import Game
from yut_cam.rules.judge import judge, remaining_steps
from yut_cam.rules.profiles import PROFILES, HouseProfile, Profile, get_profile
from yut_cam.rules.state import GameState, Judgement, Move, Phase, Piece
from yut_cam.rules.throws import IDEAL_ODDS, RESULTS, Throw, parse_throw, result_of_faces

__all__ = [
    "FINISHED", "WAITING", "coordinates", "edges", "name_of", "station",
    "apply_move", "apply_throw", "find_move", "forfeit_turn", "legal_moves", "new_game",
    "play", "time_up", "void_turn",
    "AmbiguousMoveError", "IllegalMoveError", "RulesError", "UnknownProfileError",
    "UnknownStationError", "UnknownThrowError",
    "Game", "judge", "remaining_steps", "PROFILES", "HouseProfile", "Profile", "get_profile",
    "GameState", "Judgement", "Move", "Phase", "Piece",
    "IDEAL_ODDS", "RESULTS", "Throw", "parse_throw", "result_of_faces",
]  # fmt: skip
