"""A refereed match: the rules state plus everything the referee and the 운영위원 track.

``apply(state, event)`` is pure; the match clock time of each event is handed in as ``t``.
"""

from __future__ import annotations

import re
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
            ko=f"기록 시각 {t:g}초가 앞 기록({state.t:g}초)보다 앞섭니다: 경기 시계는 거꾸로 가지 않습니다",
        )
    if isinstance(event, ev.Undo):
        return _undo(state, t)
    if state.over and not isinstance(event, (ev.Decide, ev.Stoppage, ev.Resume)):
        raise IllegalEventError("the match is over", rule="경기 종료", ko="경기가 끝났습니다: 더 기록할 수 없습니다")
    if t > clock.MATCH_SECONDS + 1e-9 and not isinstance(event, (ev.TimeUp, ev.Decide, ev.Stoppage, ev.Resume)):
        raise IllegalEventError(
            f"t={t:g}: the 20 minutes are over; record time_up first",
            rule="경기 시간 20분",
            ko=f"경기 시간 20분이 지났습니다({t:g}초): 먼저 시간 종료를 기록하세요",
        )
    handler = _HANDLERS[type(event)]
    try:
        new = handler(replace(state, t=t), event, t)
    except RulesError as exc:
        raise IllegalEventError(
            str(exc), rule=getattr(exc, "rule", ""), ko=_named(state, getattr(exc, "ko", ""))
        ) from None
    return replace(new, events_applied=state.events_applied + 1, previous=state)


def _undo(state: MatchState, t: float) -> MatchState:
    """Undo the last event (the undo itself stays in the record); clocks keep running."""
    prev = state.previous
    if prev is None:
        raise IllegalEventError("nothing to undo", rule="되돌리기", ko="되돌릴 기록이 없습니다")
    restored = replace(prev, t=t, started=state.started, stopped=state.stopped)
    return replace(restored, shot=_fresh_shot(restored, t), events_applied=state.events_applied + 1)


# --- throw-off -------------------------------------------------------------------------


def _throwoff(state: MatchState, e: ev.ThrowOff, t: float) -> MatchState:
    if state.game is not None:
        raise IllegalEventError(
            "the first attacker is already decided", rule="공격 순서 결정", ko="먼저 공격할 팀이 이미 정해졌습니다"
        )
    if state.throwoff[e.team] is not None:
        raise IllegalEventError(
            f"team {e.team}'s captain has already thrown in this round of the throw-off",
            rule="각 팀 감독이 한 번씩 던진다",
            ko=f"{_team_ko(state, e.team)} 감독은 이번 순서 정하기에서 이미 윷을 던졌습니다",
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
            ko="먼저 공격할 팀이 아직 정해지지 않았습니다: 두 팀 감독이 윷을 던져 공격 순서부터 정합니다",
        )
    if state.timeout is not None:
        raise IllegalEventError(
            "작전타임 is running: no throw or move until it ends",
            rule="작전타임",
            ko="작전타임 중입니다: 작전타임이 끝날 때까지 윷을 던지거나 말을 쓸 수 없습니다",
        )
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
                ko=f"{_player_ko(e.thrower)}는 {_team_ko(state, e.team)}의 다음 던질 선수가 아닙니다 "
                f"(다음 차례: {_player_ko(expected)}): 순서 위반으로 기록하면 이번 회차는 낙입니다",
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
        raise IllegalEventError(
            "time-up before the first attacker was decided",
            rule="경기 시간 20분",
            ko="먼저 공격할 팀이 정해지기 전에는 시간 종료를 기록할 수 없습니다",
        )
    game = engine.time_up(state.game)
    verdict = game.judgement
    decided = verdict.decided_by if verdict is not None else None
    return replace(state, game=game, winner=game.winner, decided_by=decided, shot=None, timeout=None)


def _decide(state: MatchState, e: ev.Decide, t: float) -> MatchState:
    game = state.game
    if game is None or not game.over:
        raise IllegalEventError(
            "the referee decides a result only after time-up",
            rule="판정승",
            ko="심판 판정은 시간 종료 뒤에만 내릴 수 있습니다",
        )
    if state.decided_by not in (None, "referee"):
        how = _DECIDED_KO.get(state.decided_by or "", state.decided_by)
        raise IllegalEventError(
            f"the result is already decided ({state.decided_by}); undo first to change it",
            rule="판정승",
            ko=f"승부가 이미 정해졌습니다({how}): 바꾸려면 먼저 되돌리기를 하세요",
        )
    return replace(state, winner=e.winner, decided_by="referee")


# --- clocks ----------------------------------------------------------------------------


def _start(state: MatchState, e: ev.Start, t: float) -> MatchState:
    if state.started:
        raise IllegalEventError(
            "the match clock has already started", rule="경기 시간", ko="경기 시계가 이미 시작되었습니다"
        )
    new = replace(state, started=True)
    return replace(new, shot=_fresh_shot(new, t))


def _stoppage(state: MatchState, e: ev.Stoppage, t: float) -> MatchState:
    if not state.started:
        raise IllegalEventError(
            "the match clock has not started", rule="경기 시간", ko="경기 시계가 아직 시작되지 않았습니다"
        )
    if state.stopped is not None:
        raise IllegalEventError(
            f"the clock is already stopped ({state.stopped})",
            rule="경기 중단",
            ko=f"경기가 이미 중단되어 있습니다 (사유: {state.stopped})",
        )
    return replace(state, stopped=e.reason or "심판 중단")


def _resume(state: MatchState, e: ev.Resume, t: float) -> MatchState:
    if state.stopped is None:
        raise IllegalEventError("the clock is not stopped", rule="경기 중단", ko="경기가 중단되어 있지 않습니다")
    return replace(state, stopped=None)


def _clock_set(state: MatchState, e: ev.ClockSet, t: float) -> MatchState:
    """A correction of the match clock; the shot clock keeps its remaining time."""
    if not state.started:
        raise IllegalEventError(
            "the match clock has not started", rule="경기 시간", ko="경기 시계가 아직 시작되지 않았습니다"
        )
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
        raise IllegalEventError("작전타임 is already running", rule=rule, ko="작전타임이 이미 진행 중입니다")
    if state.timeouts_used[e.team] >= clock.TIMEOUTS_PER_TEAM:
        raise IllegalEventError(
            f"team {e.team} has used both of its 작전타임",
            rule=rule,
            ko=f"{_team_ko(state, e.team)}은 작전타임 {clock.TIMEOUTS_PER_TEAM}회를 이미 모두 썼습니다",
        )
    if clock.MATCH_SECONDS - t <= clock.TIMEOUT_CUTOFF:
        left = clock.format_clock(clock.MATCH_SECONDS - t, tenths=False)
        raise IllegalEventError(
            f"작전타임 refused: only {left} left (2:00 or less)",
            rule=rule,
            ko=f"경기 시간이 {left}밖에 남지 않아 작전타임을 요청할 수 없습니다 (2:00 이하 남으면 요청 불가)",
        )
    used = list(state.timeouts_used)
    used[e.team] += 1
    shot = state.shot
    if shot is not None:
        shot = replace(shot, paused_at=t)
    return replace(state, timeout=(e.team, t), timeouts_used=tuple(used), shot=shot)


def _timeout_end(state: MatchState, e: ev.TimeoutEnd, t: float) -> MatchState:
    if state.timeout is None:
        raise IllegalEventError("no 작전타임 is running", rule="작전타임", ko="진행 중인 작전타임이 없습니다")
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
                f"an over-time warning goes to the team on the clock, not team {e.team}",
                rule="시간 규정",
                ko=f"시간 초과 경고는 지금 시간을 재는 팀에 줍니다: {_team_ko(state, e.team)}의 차례가 아닙니다",
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
        raise IllegalEventError(
            f"it is not team {e.team}'s turn to throw",
            rule="공격 순서",
            ko=f"{_team_ko(state, e.team)}이 던질 차례가 아닙니다 (지금은 {_team_ko(state, game.turn)} 차례)",
        )
    order = list(state.next_thrower)
    order[e.team] += 1
    new = replace(state, game=engine.void_turn(game), next_thrower=tuple(order), turn_time_warnings=0)
    return _after_game_change(new, game, t)


def _substitution(state: MatchState, e: ev.Substitution, t: float) -> MatchState:
    rule = "선수교체: 경기당 1회, 등록된 선수만, 20초 이내"
    if state.substitutions_used[e.team] >= clock.SUBSTITUTIONS_PER_TEAM:
        raise IllegalEventError(
            f"team {e.team} has already made its one substitution",
            rule=rule,
            ko=f"{_team_ko(state, e.team)}은 이번 경기의 선수교체 {clock.SUBSTITUTIONS_PER_TEAM}회를 이미 썼습니다",
        )
    team = state.lineups[e.team]
    registered = state.header.teams[e.team].registered
    throwers = list(e.throwers) if e.throwers is not None else list(team.throwers)
    mover = e.mover if e.mover is not None else team.mover
    if e.out is not None and e.into is not None:
        if e.out not in (*team.throwers, team.mover):
            raise IllegalEventError(
                f"{e.out!r} is not playing for team {e.team}",
                rule=rule,
                ko=f"{_player_ko(e.out)}는 지금 {_team_ko(state, e.team)}에서 뛰는 선수가 아닙니다",
            )
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
        raise IllegalEventError(
            f"not registered for team {e.team}: {', '.join(strangers)}",
            rule=rule,
            ko=f"{_team_ko(state, e.team)}에 등록되지 않은 선수입니다: {', '.join(strangers)} "
            "(선수교체는 등록된 선수끼리만 할 수 있습니다)",
        )
    if len(set(everyone)) != len(everyone) or not 2 <= len(throwers) <= 3:
        raise IllegalEventError(
            f"a line-up is 3 different throwers and a mover, not {everyone}",
            rule=rule,
            ko="선수 명단은 서로 다른 윷 던지는 선수 3명과 윷말 놓는 선수 1명이어야 합니다 "
            f"(받은 명단: {', '.join(everyone)})",
        )
    bench = tuple(n for n in registered if n not in everyone)
    lineups = list(state.lineups)
    lineups[e.team] = Team(team.name, tuple(throwers), mover, tuple(sorted(bench)))
    used = list(state.substitutions_used)
    used[e.team] += 1
    return replace(state, lineups=tuple(lineups), substitutions_used=tuple(used))


# --- Korean wording of refusals --------------------------------------------------------

#: How a result was decided, in the referee's words.
_DECIDED_KO: Final[dict[str, str]] = {
    WIN_ALL_FINISHED: WIN_ALL_FINISHED,
    "referee": "심판 판정",
    "finished": "판정승: 난 말 수",
    "on_board": "판정승: 판 위의 말 수",
    "remaining_steps": "판정승: 남은 걸음",
}

_TEAM_NUMBER: Final = re.compile(r"(?<![0-9])([0-9]+)팀")


def _team_ko(state: MatchState, team: int) -> str:
    """A team by its registered name, always ending in 팀 (so particles fit): "청룡 팀"."""
    name = state.lineups[team].name
    return name if name.endswith("팀") else f"{name} 팀"


def _named(state: MatchState, ko: str) -> str:
    """A rules message's "0팀"/"1팀" with the teams' names."""

    def name(m: re.Match[str]) -> str:
        team = int(m.group(1))
        return _team_ko(state, team) if team < len(state.lineups) else m.group(0)

    return _TEAM_NUMBER.sub(name, ko)


def _player_ko(name: str) -> str:
    """A player quoted, so a name like 나 is not read as a word: "'나' 선수"."""
    return f"'{name}' 선수"


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
