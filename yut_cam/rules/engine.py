"""The turn machine: throws, legal moves, 업기, 잡기, bonus throws, 낙, 빽도, win, time-up.

Pure functions from one :class:`GameState` to the next; nothing here reads a clock, a file
or a random source.  :class:`yut_cam.rules.game.Game` wraps them with push/pop.
"""

from __future__ import annotations

from dataclasses import replace

from yut_cam.rules import board
from yut_cam.rules.errors import AmbiguousMoveError, IllegalMoveError, josa
from yut_cam.rules.judge import judge
from yut_cam.rules.profiles import Profile, get_profile
from yut_cam.rules.state import (
    FINISHED_PIECE,
    PIECES_PER_TEAM,
    WAITING_PIECE,
    GameState,
    Move,
    Phase,
    Piece,
)
from yut_cam.rules.throws import Throw, parse_throw


def new_game(profile: str | Profile = "official", first: int = 0, teams: int = 2) -> GameState:
    """All pieces waiting, ``first`` to throw."""
    if teams < 2:
        raise IllegalMoveError(
            f"a match needs at least two teams, not {teams}",
            ko=f"경기에는 두 팀 이상이 필요합니다 (받은 팀 수: {teams})",
        )
    if not 0 <= first < teams:
        raise IllegalMoveError(
            f"first attacker must be a team 0..{teams - 1}, not {first!r}",
            ko=f"먼저 공격할 팀 번호는 0~{teams - 1}이어야 합니다 (받은 값: {first!r})",
        )
    return GameState(
        profile=get_profile(profile),
        pieces=tuple((WAITING_PIECE,) * PIECES_PER_TEAM for _ in range(teams)),
        turn=first,
        skip_turns=(0,) * teams,
    )


# --- throws ----------------------------------------------------------------------------


def apply_throw(state: GameState, team: int, result: Throw | str) -> GameState:
    """Record one throw of ``team``; 윷/모 throw again, anything else moves to the move phase."""
    throw = parse_throw(result)
    _check_turn(state, team, Phase.THROW, f"throw {throw.value}", f"{_q(throw.value, '을/를')} 던질")
    if throw is Throw.NAK:
        return void_turn(state)
    if throw is Throw.BACKDO and not _backdo_can_wait(state, team):
        if state.profile.backdo_no_piece == "nak":
            return void_turn(state)
        # discard: the 빽도 is dropped, the sequence ends with what is pending.
        return _settle(replace(state, phase=Phase.MOVE, sequence_throws=state.sequence_throws + 1))
    state = replace(
        state,
        pending=state.pending + (throw,),
        sequence_throws=state.sequence_throws + 1,
        phase=Phase.THROW if throw.throws_again else Phase.MOVE,
    )
    return state if throw.throws_again else _settle(state)


def _backdo_can_wait(state: GameState, team: int) -> bool:
    """A 빽도 has (or may soon have) a use: a piece on the board, or a forward result pending."""
    return state.has_piece_on_board(team) or any(t.is_forward for t in state.pending)


def void_turn(state: GameState) -> GameState:
    """낙: every unused result since the last capture is void, owed bonus throws are
    forfeited, and the turn passes (also what a turn voided by warnings does)."""
    if state.over:
        raise IllegalMoveError("the match is over", rule="경기 종료", ko="경기가 이미 끝났습니다")
    cleared = replace(state, pending=(), bonus_throws=0, sequence_throws=0, phase=Phase.THROW)
    return _pass_turn(cleared)


def forfeit_turn(state: GameState, team: int) -> GameState:
    """``team`` loses its next throwing turn (every third warning, rule 000)."""
    skips = list(state.skip_turns)
    skips[team] += 1
    return replace(state, skip_turns=tuple(skips))


def time_up(state: GameState) -> GameState:
    """20:00 has run out: the referee's judged victory (or a draw to settle)."""
    if state.over:
        raise IllegalMoveError("the match is already over", rule="경기 종료", ko="경기가 이미 끝났습니다")
    verdict = judge(state)
    return replace(
        state,
        phase=Phase.OVER,
        pending=(),
        bonus_throws=0,
        sequence_throws=0,
        winner=verdict.winner,
        judgement=verdict,
    )


# --- moves -----------------------------------------------------------------------------


def legal_moves(state: GameState) -> list[Move]:
    """Every legal use of a pending result, one per (piece or stack, result, destination).

    A stack is designated by its lowest piece; entering by the lowest waiting piece.
    """
    if state.phase is not Phase.MOVE:
        return []
    team = state.turn
    pieces = state.pieces[team]
    units = _units(pieces)
    moves: list[Move] = []
    seen: set[Throw] = set()
    for throw in state.pending:
        if throw in seen:
            continue
        seen.add(throw)
        for ids in units:
            moves.extend(_unit_moves(state.profile, team, pieces, ids, throw))
    return moves


def _units(pieces: tuple[Piece, ...]) -> list[tuple[int, ...]]:
    stacks: dict[int, tuple[int, ...]] = {}
    waiting: tuple[int, ...] = ()
    for i, p in enumerate(pieces):
        if p.at >= 0:
            stacks[p.at] = stacks.get(p.at, ()) + (i,)
        elif p.at == board.WAITING and not waiting:
            waiting = (i,)
    units = list(stacks.values())
    if waiting:
        units.append(waiting)
    return units


def _unit_moves(
    profile: Profile, team: int, pieces: tuple[Piece, ...], ids: tuple[int, ...], throw: Throw
) -> list[Move]:
    lead = pieces[ids[0]]
    if throw is Throw.BACKDO:
        if lead.at < 0 or lead.prev is None:
            return []
        return [Move(team, ids[0], throw, lead.at, lead.prev, (lead.prev,), ids, lead.at, lead.origin)]
    return [
        Move(team, ids[0], throw, lead.at, dest, route, ids, prev, origin)
        for dest, route, prev, origin in profile.routes(lead.at, lead.origin, throw.steps)
    ]


def find_move(
    state: GameState, team: int, piece: int, result: Throw | str, to: int | str | None = None
) -> Move:
    """The legal move a record or a console names, or an error saying which rule it breaks."""
    throw = parse_throw(result)
    _check_turn(state, team, Phase.MOVE, f"move with {throw.value}", f"{_q(throw.value, '으로/로')} 말을 쓸")
    if not isinstance(piece, int) or isinstance(piece, bool) or not 0 <= piece < PIECES_PER_TEAM:
        raise IllegalMoveError(
            f"piece must be 0..{PIECES_PER_TEAM - 1}, not {piece!r}",
            rule="윷말 4개",
            ko=f"그런 말은 없습니다 (받은 말 번호: {piece!r}): 윷말은 팀당 4개입니다",
        )
    if throw not in state.pending:
        pending = " ".join(t.value for t in state.pending) or "none"
        pending_ko = " ".join(t.value for t in state.pending) or "없음"
        raise IllegalMoveError(
            f"{throw.value} is not a pending result (pending: {pending})",
            rule="던져서 나온 결과만 쓸 수 있다",
            ko=f"{_q(throw.value, '은/는')} 지금 쓸 수 있는 결과가 아닙니다 (남은 결과: {pending_ko})",
        )
    pieces = state.pieces[team]
    p = pieces[piece]
    if p.finished:
        raise IllegalMoveError(
            f"piece {piece} has already finished (났음)",
            rule="난 말은 움직일 수 없다",
            ko=f"{_subject(_piece_ko(piece, p.at))} 이미 났습니다: 난 말은 움직일 수 없습니다",
        )
    if throw is Throw.BACKDO and p.waiting:
        raise IllegalMoveError(
            f"빽도 moves a piece on the board back one step; piece {piece} is waiting (대기)",
            rule="빽도는 윷말판 위의 말을 한 칸 물린다",
            ko=f"빽도는 윷말판 위의 말을 한 칸 물립니다: 말 {piece + 1}{josa(str(piece + 1), '은/는')} "
            "아직 판에 오르지 않은 대기 말입니다",
        )
    ids = tuple(i for i, q in enumerate(pieces) if q.at == p.at) if p.on_board else (piece,)
    options = _unit_moves(state.profile, team, pieces, ids, throw)
    options = [replace(m, piece=piece) for m in options]
    if to is not None:
        dest = board.station(to)
        chosen = [m for m in options if m.to == dest]
        if not chosen:
            legal = ", ".join(board.name_of(m.to) for m in options)
            raise IllegalMoveError(
                f"piece {piece} on {board.name_of(p.at)} cannot reach {board.name_of(dest)} with "
                f"{throw.value}; legal: {legal}",
                rule="말의 진행 방향",
                ko=f"{_subject(_piece_ko(piece, p.at))} {_q(throw.value, '으로/로')} "
                f"{_reach_ko(dest)} 수 없습니다 (갈 수 있는 곳: {_places_ko(options)})",
            )
        return chosen[0]
    if len(options) > 1:
        legal = ", ".join(board.name_of(m.to) for m in options)
        raise AmbiguousMoveError(
            f"piece {piece} on {board.name_of(p.at)} with {throw.value} can go to {legal}: "
            f"say which with \"to\"",
            rule="모·뒷모·방에서는 진행 방향을 고른다",
            ko=f"{_subject(_piece_ko(piece, p.at))} {_q(throw.value, '으로/로')} "
            f"{_places_ko(options)} 가운데 어디로 갈지 골라야 합니다",
        )
    return options[0]


def apply_move(state: GameState, move: Move) -> GameState:
    """Play a move from :func:`legal_moves` or :func:`find_move` (not re-validated)."""
    team = move.team
    teams = list(state.pieces)
    mine = list(teams[team])
    captured = False
    if move.to == board.FINISHED:
        for i in move.pieces:
            mine[i] = FINISHED_PIECE
    else:
        moved = Piece(move.to, move.prev_after, move.origin_after)
        for i, p in enumerate(mine):
            # the moving pieces and any of our own already there (업기) share one last step
            if i in move.pieces or p.at == move.to:
                mine[i] = moved
        for other, theirs in enumerate(teams):
            if other != team and any(p.at == move.to for p in theirs):
                teams[other] = tuple(WAITING_PIECE if p.at == move.to else p for p in theirs)
                captured = True
    teams[team] = tuple(mine)
    pending = list(state.pending)
    pending.remove(move.result)
    state = replace(
        state,
        pieces=tuple(teams),
        pending=tuple(pending),
        bonus_throws=state.bonus_throws + (1 if captured else 0),
    )
    if all(p.finished for p in mine):
        return replace(
            state, phase=Phase.OVER, winner=team, pending=(), bonus_throws=0, sequence_throws=0
        )
    return _settle(state)


def play(
    state: GameState, team: int, piece: int, result: Throw | str, to: int | str | None = None
) -> GameState:
    """:func:`find_move` then :func:`apply_move`."""
    return apply_move(state, find_move(state, team, piece, result, to))


# --- sequencing ------------------------------------------------------------------------


def _settle(state: GameState) -> GameState:
    """In the move phase: keep going while a pending result has a use; otherwise drop what
    is left and take the next bonus throw, or pass the turn."""
    team = state.turn
    if state.pending:
        has_unfinished = any(not p.finished for p in state.pieces[team])
        on_board = state.has_piece_on_board(team)
        if any((t.is_forward and has_unfinished) or (t is Throw.BACKDO and on_board) for t in state.pending):
            return state
    state = replace(state, pending=(), sequence_throws=0, phase=Phase.THROW)
    if state.bonus_throws > 0:
        return replace(state, bonus_throws=state.bonus_throws - 1)
    return _pass_turn(state)


def _pass_turn(state: GameState) -> GameState:
    skips = list(state.skip_turns)
    nxt = state.turn
    for _ in range(state.teams):
        nxt = (nxt + 1) % state.teams
        if skips[nxt] == 0:
            break
        skips[nxt] -= 1
    return replace(state, turn=nxt, phase=Phase.THROW, skip_turns=tuple(skips))


def _check_turn(state: GameState, team: int, phase: Phase, what: str, what_ko: str) -> None:
    """``what_ko`` is the action as a Korean verb phrase before "수 없습니다" ("'개'를 던질")."""
    if state.phase is Phase.OVER:
        raise IllegalMoveError(
            f"cannot {what}: the match is over", rule="경기 종료", ko=f"경기가 끝나서 {what_ko} 수 없습니다"
        )
    if not isinstance(team, int) or isinstance(team, bool) or not 0 <= team < state.teams:
        raise IllegalMoveError(
            f"no team {team!r} (teams are 0..{state.teams - 1})",
            ko=f"없는 팀입니다 (받은 팀 번호: {team!r}, 팀 번호는 0~{state.teams - 1})",
        )
    if team != state.turn:
        raise IllegalMoveError(
            f"team {team} cannot {what}: it is team {state.turn}'s turn",
            rule="공격 순서",
            ko=f"{team}팀은 지금 {what_ko} 수 없습니다: {state.turn}팀 차례입니다",
        )
    if state.phase is not phase:
        if phase is Phase.MOVE:
            raise IllegalMoveError(
                f"team {team} cannot {what} yet: 윷 or 모 was thrown, so it throws again first",
                rule="윷이나 모가 나오면 한 번 더 던진다",
                ko=f"{team}팀은 아직 {what_ko} 수 없습니다: 윷이나 모가 나왔으니 한 번 더 던져야 합니다",
            )
        pending = " ".join(t.value for t in state.pending)
        raise IllegalMoveError(
            f"team {team} cannot {what}: the pending results ({pending}) must be used first",
            rule="던진 결과를 모두 쓴 뒤에 던진다",
            ko=f"{team}팀은 지금 {what_ko} 수 없습니다: 남은 결과({pending})를 먼저 말에 써야 합니다",
        )


# --- Korean wording of refusals (team numbers as "0팀"; the match layer names them) ----


def _q(word: str, pair: str) -> str:
    """A result or station quoted, with its particle: '윷'으로, '개'를."""
    return f"'{word}'{josa(word, pair)}"


def _subject(phrase: str) -> str:
    return f"{phrase}{josa(phrase, '은/는')}"


def _piece_ko(piece: int, at: int) -> str:
    """A piece as the referee sees it: numbered from 1, with where it stands."""
    if at == board.WAITING:
        return f"대기 중인 말 {piece + 1}"
    if at >= 0:
        return f"'{board.name_of(at)}' 자리의 말 {piece + 1}"
    return f"말 {piece + 1}"


def _place_ko(station: int) -> str:
    if station == board.FINISHED:
        return "참먹이를 지나 나기"
    if station == board.WAITING:
        return "대기 자리"
    return f"'{board.name_of(station)}' 자리"


def _reach_ko(station: int) -> str:
    """Reaching ``station``, before "수 없습니다"."""
    if station == board.FINISHED:
        return "참먹이를 지나 날"
    return f"{_place_ko(station)}에 갈"


def _places_ko(options: list[Move]) -> str:
    return ", ".join(_place_ko(m.to) for m in options) or "없음"
