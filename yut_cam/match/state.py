"""A refereed match: the rules state plus everything the referee and the 운영위원 track.

``apply(state, event)`` is pure; the match clock time of each event is handed in as ``t``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from collections.abc import Callable
from typing import Any, Final

from yut_cam.match import clock
from yut_cam.match import events as ev
from yut_cam.match.errors import IllegalEventError
from yut_cam.match.roster import Header, Team
from yut_cam.rules import GameState, Phase, Throw, engine
from yut_cam.rules.errors import RulesError

#: How the match ended, for the record sheet.
WIN_ALL_FINISHED: Final = "완승"


@dataclass(frozen=True, slots=True)
class ShotClock:
    """The throw (10 s) or move (30 s + extension) clock, in match-clock seconds."""

    kind: str  # "throw" | "move"
    team: int
    limit: float
    deadline: float
    warnings: int = 0  # over-time warnings already given on this clock
    paused_at: float | None = None  # during 작전타임

    def remaining(self, now: float) -> float:
        return self.deadline - (self.paused_at if self.paused_at is not None else now)


@dataclass(frozen=True, slots=True)
class WarningEntry:
    team: int
    reason: str
    t: float | None
    consequence: str


@dataclass(frozen=True, slots=True)
class MatchState:
    header: Header
    lineups: tuple[Team, ...]
    game: GameState | None = None
    throwoff: tuple[Throw | None, ...] = (None, None)
    throwoff_rounds: int = 0
    first: int | None = None
    next_thrower: tuple[int, ...] = (0, 0)
    warnings: tuple[WarningEntry, ...] = ()
    #: over-time warnings in the current turn (three void it)
    turn_time_warnings: int = 0
    timeouts_used: tuple[int, ...] = (0, 0)
    timeout: tuple[int, float] | None = None  # (team that asked, start t)
    substitutions_used: tuple[int, ...] = (0, 0)
    started: bool = False
    stopped: str | None = None  # reason of the current referee stoppage
    t: float = 0.0  # match-clock seconds at the last event
    shot: ShotClock | None = None
    winner: int | None = None
    decided_by: str | None = None
    events_applied: int = 0
    previous: MatchState | None = field(default=None, repr=False, compare=False)

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.over

    @property
    def phase(self) -> str:
        if self.game is None:
            return "throwoff"
        return self.game.phase.value

    def next_thrower_name(self, team: int) -> str:
        throwers = self.lineups[team].throwers
        return throwers[self.next_thrower[team] % len(throwers)]

    def team_warnings(self, team: int) -> int:
        return sum(1 for w in self.warnings if w.team == team)

    def match_remaining(self, now: float | None = None) -> float:
        return clock.MATCH_SECONDS - (self.t if now is None else now)


def start_state(header: Header) -> MatchState:
    state = MatchState(header=header, lineups=header.teams)
    if header.first is not None:
        state = replace(state, first=header.first, game=engine.new_game(header.rules, header.first))
    return state


def apply(state: MatchState, event: ev.Event) -> MatchState:
    """The state after ``event``, or an :class:`IllegalEventError` naming the rule it breaks."""
    t = state.t if event.t is None else event.t
    if t < state.t - 1e-9:
        raise IllegalEventError(
            f"t={t:g} is before the previous event (t={state.t:g}): the match clock never runs back",
            rule="경기 시간",
        )
    if isinstance(event, ev.Undo):
        return _undo(state, t)
    if state.over and not isinstance(event, (ev.Decide, ev.Stoppage, ev.Resume)):
        raise IllegalEventError("the match is over", rule="경기 종료")
    if t > clock.MATCH_SECONDS + 1e-9 and not isinstance(event, (ev.TimeUp, ev.Decide, ev.Stoppage, ev.Resume)):
        raise IllegalEventError(
            f"t={t:g}: the 20 minutes are over; record time_up first", rule="경기 시간 20분"
        )
    handler = _HANDLERS[type(event)]
    try:
        new = handler(replace(state, t=t), event, t)
    except RulesError as exc:
        raise IllegalEventError(str(exc), rule=getattr(exc, "rule", "")) from None
    return replace(new, events_applied=state.events_applied + 1, previous=state)


def _undo(state: MatchState, t: float) -> MatchState:
    """Undo the last event (the undo itself stays in the record); clocks keep running."""
    prev = state.previous
    if prev is None:
        raise IllegalEventError("nothing to undo", rule="되돌리기")
    restored = replace(prev, t=t, started=state.started, stopped=state.stopped)
    return replace(restored, shot=_fresh_shot(restored, t), events_applied=state.events_applied + 1)


# --- throw-off -------------------------------------------------------------------------


def _throwoff(state: MatchState, e: ev.ThrowOff, t: float) -> MatchState:
    if state.game is not None:
        raise IllegalEventError("the first attacker is already decided", rule="공격 순서 결정")
    if state.throwoff[e.team] is not None:
        raise IllegalEventError(
            f"team {e.team}'s captain has already thrown in this round of the throw-off",
            rule="각 팀 감독이 한 번씩 던진다",
        )
    if e.result is Throw.NAK:
        return state  # 낙: that captain throws again
    results = list(state.throwoff)
    results[e.team] = e.result
    if None in results:
        return replace(state, throwoff=tuple(results))
    a, b = (r.rank for r in results if r is not None)
    if a == b:
        return replace(state, throwoff=(None, None), throwoff_rounds=state.throwoff_rounds + 1)
    first = 0 if a > b else 1
    game = engine.new_game(state.header.rules, first)
    new = replace(state, throwoff=tuple(results), first=first, game=game)
    return replace(new, shot=_fresh_shot(new, t))


# --- game events -----------------------------------------------------------------------


def _game(state: MatchState) -> GameState:
    if state.game is None:
        raise IllegalEventError(
            "the first attacker is not decided yet: the captains' throw-off comes first",
            rule="공격 순서 결정",
        )
    if state.timeout is not None:
        raise IllegalEventError("작전타임 is running: no throw or move until it ends", rule="작전타임")
    return state.game


def _throw(state: MatchState, e: ev.ThrowEvent, t: float) -> MatchState:
    game = _game(state)
    if e.thrower is not None and e.team == game.turn:
        expected = state.next_thrower_name(e.team)
        if e.thrower != expected:
            raise IllegalEventError(
                f"{e.thrower!r} is not the next thrower of team {e.team} ({expected!r} is): "
                "record wrong_thrower to make the turn 낙",
                rule="윷은 등록한 순서대로 던지며, 잘못된 선수가 던지면 해당 회차는 낙",
            )
    new_game = engine.apply_throw(game, e.team, e.result)
    order = list(state.next_thrower)
    order[e.team] += 1
    return _after_game_change(replace(state, game=new_game, next_thrower=tuple(order)), game, t)


def _move(state: MatchState, e: ev.MoveEvent, t: float) -> MatchState:
    game = _game(state)
    new_game = engine.play(game, e.team, e.piece, e.result, e.to)
    new = replace(state, game=new_game)
    if new_game.over:
        new = replace(new, winner=new_game.winner, decided_by=WIN_ALL_FINISHED, shot=None)
        return new
    return _after_game_change(new, game, t)


def _after_game_change(state: MatchState, before: GameState, t: float) -> MatchState:
    """Restart the shot clock when the phase or the turn changed; a new turn clears the
    per-turn warning count."""
    game = state.game
    assert game is not None
    new_turn = game.turn != before.turn or (game.phase is Phase.THROW and before.phase is Phase.MOVE)
    if new_turn:
        state = replace(state, turn_time_warnings=0)
    if game.phase is Phase.MOVE and before.phase is Phase.MOVE and game.turn == before.turn:
        return state  # the move clock covers all results of the sequence
    return replace(state, shot=_fresh_shot(state, t))


def _fresh_shot(state: MatchState, t: float) -> ShotClock | None:
    game = state.game
    if game is None or game.over or not state.started:
        return None
    if game.phase is Phase.MOVE:
        limit = float(clock.move_seconds(game.sequence_throws))
        return ShotClock("move", game.turn, limit, t + limit)
    return ShotClock("throw", game.turn, float(clock.THROW_SECONDS), t + clock.THROW_SECONDS)


def _time_up(state: MatchState, e: ev.TimeUp, t: float) -> MatchState:
    if state.game is None:
        raise IllegalEventError("time-up before the first attacker was decided", rule="경기 시간 20분")
    game = engine.time_up(state.game)
    verdict = game.judgement
    decided = verdict.decided_by if verdict is not None else None
    return replace(state, game=game, winner=game.winner, decided_by=decided, shot=None, timeout=None)


def _decide(state: MatchState, e: ev.Decide, t: float) -> MatchState:
    game = state.game
    if game is None or not game.over:
        raise IllegalEventError("the referee decides a result only after time-up", rule="판정승")
    if state.decided_by not in (None, "referee"):
        raise IllegalEventError(
            f"the result is already decided ({state.decided_by}); undo first to change it", rule="판정승"
        )
    return replace(state, winner=e.winner, decided_by="referee")


# --- clocks ----------------------------------------------------------------------------


def _start(state: MatchState, e: ev.Start, t: float) -> MatchState:
    if state.started:
        raise IllegalEventError("the match clock has already started", rule="경기 시간")
    new = replace(state, started=True)
    return replace(new, shot=_fresh_shot(new, t))


def _stoppage(state: MatchState, e: ev.Stoppage, t: float) -> MatchState:
    if not state.started:
        raise IllegalEventError("the match clock has not started", rule="경기 시간")
    if state.stopped is not None:
        raise IllegalEventError(f"the clock is already stopped ({state.stopped})", rule="경기 중단")
    return replace(state, stopped=e.reason or "심판 중단")


def _resume(state: MatchState, e: ev.Resume, t: float) -> MatchState:
    if state.stopped is None:
        raise IllegalEventError("the clock is not stopped", rule="경기 중단")
    return replace(state, stopped=None)


def _clock_set(state: MatchState, e: ev.ClockSet, t: float) -> MatchState:
    """A correction of the match clock; the shot clock keeps its remaining time."""
    if not state.started:
        raise IllegalEventError("the match clock has not started", rule="경기 시간")
    delta = e.to - t
    shot = state.shot
    if shot is not None:
        paused = None if shot.paused_at is None else shot.paused_at + delta
        shot = replace(shot, deadline=shot.deadline + delta, paused_at=paused)
    timeout = None if state.timeout is None else (state.timeout[0], state.timeout[1] + delta)
    return replace(state, t=e.to, shot=shot, timeout=timeout)


def _timeout(state: MatchState, e: ev.Timeout, t: float) -> MatchState:
    rule = "작전타임: 팀당 2회, 40초, 2분 이하 남으면 요청 불가"
    if state.timeout is not None:
        raise IllegalEventError("작전타임 is already running", rule=rule)
    if state.timeouts_used[e.team] >= clock.TIMEOUTS_PER_TEAM:
        raise IllegalEventError(f"team {e.team} has used both of its 작전타임", rule=rule)
    if clock.MATCH_SECONDS - t <= clock.TIMEOUT_CUTOFF:
        left = clock.format_clock(clock.MATCH_SECONDS - t, tenths=False)
        raise IllegalEventError(f"작전타임 refused: only {left} left (2:00 or less)", rule=rule)
    used = list(state.timeouts_used)
    used[e.team] += 1
    shot = state.shot
    if shot is not None:
        shot = replace(shot, paused_at=t)
    return replace(state, timeout=(e.team, t), timeouts_used=tuple(used), shot=shot)


def _timeout_end(state: MatchState, e: ev.TimeoutEnd, t: float) -> MatchState:
    if state.timeout is None:
        raise IllegalEventError("no 작전타임 is running", rule="작전타임")
    shot = state.shot
    if shot is not None and shot.paused_at is not None:
        shot = replace(shot, deadline=shot.deadline + (t - shot.paused_at), paused_at=None)
    return replace(state, timeout=None, shot=shot)


# --- warnings and line-ups -------------------------------------------------------------


def _warning(state: MatchState, e: ev.Warning, t: float) -> MatchState:
    game = state.game
    consequences: list[str] = []
    voided = False
    turn_warnings = state.turn_time_warnings
    shot = state.shot
    if e.reason in ("throw_time", "move_time"):
        if game is None or game.turn != e.team:
            raise IllegalEventError(
                f"an over-time warning goes to the team on the clock, not team {e.team}", rule="시간 규정"
            )
        turn_warnings += 1
        if shot is not None:
            shot = replace(shot, warnings=shot.warnings + 1)
        if turn_warnings >= clock.WARNINGS_VOID_TURN:
            voided = True
            consequences.append("낙" if e.reason == "throw_time" else "직전에 던진 윷 낙")
    elif e.reason == "wrong_move":
        if game is not None and game.turn == e.team:
            voided = True
            consequences.append("해당 회차 무효")
    new = replace(state, turn_time_warnings=turn_warnings, shot=shot)
    total = state.team_warnings(e.team) + 1
    forfeit = False
    if total % clock.WARNINGS_COST_TURN == 0 and game is not None:
        if not voided and e.reason == "throw_time" and game.turn == e.team:
            voided = True  # the lost chance is this turn (rule 000)
        elif not voided:
            forfeit = True
        consequences.append("던질 기회 1회 상실")
    if game is not None and voided and not game.over:
        new = _after_game_change(replace(new, game=engine.void_turn(game)), game, t)
    if forfeit and new.game is not None:
        new = replace(new, game=engine.forfeit_turn(new.game, e.team))
    entry = WarningEntry(e.team, e.reason, e.t, ", ".join(consequences))
    return replace(new, warnings=state.warnings + (entry,))


def _wrong_thrower(state: MatchState, e: ev.WrongThrower, t: float) -> MatchState:
    game = _game(state)
    if e.later:
        return replace(state, game=engine.forfeit_turn(game, e.team))
    if game.turn != e.team:
        raise IllegalEventError(f"it is not team {e.team}'s turn to throw", rule="공격 순서")
    order = list(state.next_thrower)
    order[e.team] += 1
    new = replace(state, game=engine.void_turn(game), next_thrower=tuple(order), turn_time_warnings=0)
    return _after_game_change(new, game, t)


def _substitution(state: MatchState, e: ev.Substitution, t: float) -> MatchState:
    rule = "선수교체: 경기당 1회, 등록된 선수만, 20초 이내"
    if state.substitutions_used[e.team] >= clock.SUBSTITUTIONS_PER_TEAM:
        raise IllegalEventError(f"team {e.team} has already made its one substitution", rule=rule)
    team = state.lineups[e.team]
    registered = state.header.teams[e.team].registered
    throwers = list(e.throwers) if e.throwers is not None else list(team.throwers)
    mover = e.mover if e.mover is not None else team.mover
    if e.out is not None and e.into is not None:
        if e.out not in (*team.throwers, team.mover):
            raise IllegalEventError(f"{e.out!r} is not playing for team {e.team}", rule=rule)
        if e.into in (*team.throwers, team.mover) and e.into != e.out:
            # a swap of two players already on the field (e.g. mover and a thrower)
            swap = {e.out: e.into, e.into: e.out}
            throwers = [swap.get(n, n) for n in throwers]
            mover = swap.get(mover, mover)
        else:
            throwers = [e.into if n == e.out else n for n in throwers]
            mover = e.into if mover == e.out else mover
    everyone = [*throwers, mover]
    strangers = [n for n in everyone if n not in registered]
    if strangers:
        raise IllegalEventError(f"not registered for team {e.team}: {', '.join(strangers)}", rule=rule)
    if len(set(everyone)) != len(everyone) or not 2 <= len(throwers) <= 3:
        raise IllegalEventError(f"a line-up is 3 different throwers and a mover, not {everyone}", rule=rule)
    bench = tuple(n for n in registered if n not in everyone)
    lineups = list(state.lineups)
    lineups[e.team] = Team(team.name, tuple(throwers), mover, tuple(sorted(bench)))
    used = list(state.substitutions_used)
    used[e.team] += 1
    return replace(state, lineups=tuple(lineups), substitutions_used=tuple(used))


_Handler = Callable[[MatchState, Any, float], MatchState]
_HANDLERS: Final[dict[type[ev.Event], _Handler]] = {
    ev.ThrowOff: _throwoff,
    ev.ThrowEvent: _throw,
    ev.MoveEvent: _move,
    ev.TimeUp: _time_up,
    ev.Decide: _decide,
    ev.Start: _start,
    ev.ClockSet: _clock_set,
    ev.Stoppage: _stoppage,
    ev.Resume: _resume,
    ev.Timeout: _timeout,
    ev.TimeoutEnd: _timeout_end,
    ev.Warning: _warning,
    ev.WrongThrower: _wrong_thrower,
    ev.Substitution: _substitution,
}


__all__ = ["MatchState", "ShotClock", "WarningEntry", "apply", "start_state"]
