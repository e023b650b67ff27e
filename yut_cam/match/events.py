"""Events of a match record (DESIGN.md "Contracts"), parsed from their JSON objects.

Game events: ``throw``, ``move``, ``time_up``.  Referee events: ``throwoff``, ``start``,
``stoppage``, ``resume``, ``warning``, ``timeout``, ``timeout_end``, ``substitution``,
``wrong_thrower``, ``clock_set``, ``undo``, ``decide``.  Every event may carry ``t``: seconds on the match
clock (0 at the start, 1200 at time-up).  Unknown fields are ignored; an unknown type is an
error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from yut_cam.match.errors import RecordFormatError
from yut_cam.rules import Throw, parse_throw

WARNING_REASONS: Final[dict[str, str]] = {
    "throw_time": "윷 던지는 시간 초과",
    "move_time": "윷말 쓰는 시간 초과",
    "pickup": "판정 전에 윷가락을 거둠",
    "protest": "감독 외 선수의 항의",
    "wrong_move": "판정과 다르게 윷말을 씀",
    "conduct": "기타 규정 위반",
}


@dataclass(frozen=True, slots=True)
class Event:
    t: float | None


@dataclass(frozen=True, slots=True)
class ThrowEvent(Event):
    team: int
    result: Throw
    thrower: str | None = None


@dataclass(frozen=True, slots=True)
class MoveEvent(Event):
    team: int
    result: Throw
    piece: int
    to: str | None = None


@dataclass(frozen=True, slots=True)
class ThrowOff(Event):
    team: int
    result: Throw


@dataclass(frozen=True, slots=True)
class Start(Event):
    pass


@dataclass(frozen=True, slots=True)
class Stoppage(Event):
    reason: str


@dataclass(frozen=True, slots=True)
class Resume(Event):
    pass


@dataclass(frozen=True, slots=True)
class Warning(Event):
    team: int
    reason: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Timeout(Event):
    team: int


@dataclass(frozen=True, slots=True)
class TimeoutEnd(Event):
    pass


@dataclass(frozen=True, slots=True)
class Substitution(Event):
    team: int
    throwers: tuple[str, ...] | None
    mover: str | None
    out: str | None
    into: str | None


@dataclass(frozen=True, slots=True)
class WrongThrower(Event):
    team: int
    thrower: str
    later: bool


@dataclass(frozen=True, slots=True)
class ClockSet(Event):
    """The referee corrects the match clock to ``to`` seconds (e.g. charging the time the
    service was down); ``t`` is what the clock showed before."""

    to: float
    reason: str


@dataclass(frozen=True, slots=True)
class Undo(Event):
    pass


@dataclass(frozen=True, slots=True)
class TimeUp(Event):
    pass


@dataclass(frozen=True, slots=True)
class Decide(Event):
    winner: int | None
    reason: str


def _team(d: dict[str, Any]) -> int:
    team = d.get("team")
    if team not in (0, 1) or isinstance(team, bool):
        raise RecordFormatError(
            f"\"team\" must be 0 or 1, not {team!r}", ko=f"팀 번호(\"team\")는 0 또는 1이어야 합니다 (받은 값: {team!r})"
        )
    return int(team)


def _result(d: dict[str, Any]) -> Throw:
    if "result" not in d:
        raise RecordFormatError(
            'missing "result" (one of 도 개 걸 윷 모 빽도 낙)',
            ko='윷 결과("result")가 빠졌습니다: 도 개 걸 윷 모 빽도 낙 가운데 하나여야 합니다',
        )
    try:
        return parse_throw(d["result"])
    except ValueError as exc:
        raise RecordFormatError(str(exc), ko=getattr(exc, "ko", "")) from None


def _str(d: dict[str, Any], key: str, default: str | None = None) -> str | None:
    value = d.get(key, default)
    if value is not None and not isinstance(value, str):
        raise RecordFormatError(
            f'"{key}" must be a string, not {value!r}', ko=f'"{key}" 값은 글자여야 합니다 (받은 값: {value!r})'
        )
    return value


def _time(d: dict[str, Any]) -> float | None:
    t = d.get("t")
    if t is None:
        return None
    if isinstance(t, bool) or not isinstance(t, (int, float)) or t < 0 or t != t:
        raise RecordFormatError(
            f'"t" must be match-clock seconds (a number ≥ 0), not {t!r}',
            ko=f'경기 시각("t")은 0 이상의 초여야 합니다 (받은 값: {t!r})',
        )
    return float(t)


def _throw(d: dict[str, Any], t: float | None) -> Event:
    return ThrowEvent(t, _team(d), _result(d), _str(d, "thrower"))


def _move(d: dict[str, Any], t: float | None) -> Event:
    piece = d.get("piece")
    if not isinstance(piece, int) or isinstance(piece, bool) or not 0 <= piece <= 3:
        raise RecordFormatError(
            f'"piece" must be 0..3, not {piece!r}',
            ko=f'말 번호("piece")는 0~3이어야 합니다 (화면의 말 1~4, 받은 값: {piece!r})',
        )
    return MoveEvent(t, _team(d), _result(d), piece, _str(d, "to"))


def _warning(d: dict[str, Any], t: float | None) -> Event:
    reason = _str(d, "reason")
    if reason not in WARNING_REASONS:
        raise RecordFormatError(
            f"warning reason {reason!r}: expected one of {', '.join(WARNING_REASONS)}",
            ko=f"알 수 없는 경고 사유입니다 ({reason!r}): "
            + ", ".join(f"{code}({words})" for code, words in WARNING_REASONS.items())
            + " 가운데 하나여야 합니다",
        )
    return Warning(t, _team(d), reason, _str(d, "note", "") or "")


def _substitution(d: dict[str, Any], t: float | None) -> Event:
    throwers = d.get("throwers")
    if throwers is not None and (
        not isinstance(throwers, list) or not all(isinstance(n, str) for n in throwers)
    ):
        raise RecordFormatError(
            f'"throwers" must be a list of names, not {throwers!r}',
            ko=f'윷 던지는 선수("throwers")는 이름 목록이어야 합니다 (받은 값: {throwers!r})',
        )
    sub = Substitution(
        t, _team(d), tuple(throwers) if throwers is not None else None, _str(d, "mover"),
        _str(d, "out"), _str(d, "in"),
    )  # fmt: skip
    if sub.throwers is None and sub.mover is None and (sub.out is None or sub.into is None):
        raise RecordFormatError(
            'a substitution names "out" and "in", or the new "throwers"/"mover"',
            ko='선수교체에는 나가는 선수("out")와 들어오는 선수("in"), 또는 새 명단("throwers"/"mover")이 필요합니다',
        )
    return sub


def _clock_set(d: dict[str, Any], t: float | None) -> Event:
    to = d.get("to")
    if isinstance(to, bool) or not isinstance(to, (int, float)) or not 0 <= to <= 20 * 60:
        raise RecordFormatError(
            f'"to" must be match-clock seconds 0..1200, not {to!r}',
            ko=f'고칠 경기 시각("to")은 0~1200초여야 합니다 (받은 값: {to!r})',
        )
    return ClockSet(t, float(to), _str(d, "reason", "") or "")


def _decide(d: dict[str, Any], t: float | None) -> Event:
    winner = d.get("winner")
    if winner not in (0, 1, None) or isinstance(winner, bool):
        raise RecordFormatError(
            f'"winner" must be 0, 1 or null, not {winner!r}',
            ko=f'이긴 팀("winner")은 0, 1 또는 null(무승부)이어야 합니다 (받은 값: {winner!r})',
        )
    return Decide(t, winner, _str(d, "reason", "") or "")


_PARSERS: Final = {
    "throw": _throw,
    "move": _move,
    "throwoff": lambda d, t: ThrowOff(t, _team(d), _result(d)),
    "start": lambda d, t: Start(t),
    "stoppage": lambda d, t: Stoppage(t, _str(d, "reason", "") or ""),
    "resume": lambda d, t: Resume(t),
    "warning": _warning,
    "timeout": lambda d, t: Timeout(t, _team(d)),
    "timeout_end": lambda d, t: TimeoutEnd(t),
    "substitution": _substitution,
    "wrong_thrower": lambda d, t: WrongThrower(t, _team(d), _str(d, "thrower", "") or "", bool(d.get("later", False))),
    "clock_set": _clock_set,
    "undo": lambda d, t: Undo(t),
    "time_up": lambda d, t: TimeUp(t),
    "decide": _decide,
}

EVENT_TYPES: Final = frozenset(_PARSERS)


def parse_event(data: Any) -> Event:
    """An :class:`Event` from a record line's object, or :class:`RecordFormatError`."""
    if not isinstance(data, dict):
        raise RecordFormatError(
            f"an event must be a JSON object, not {data!r}", ko=f"기록(이벤트)은 JSON 객체여야 합니다 (받은 값: {data!r})"
        )
    kind = data.get("type")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        known = ", ".join(sorted(_PARSERS))
        raise RecordFormatError(
            f"unknown event type {kind!r} (known: {known})", ko=f"알 수 없는 기록 종류입니다 ({kind!r}): {known}"
        )
    return parser(data, _time(data))
