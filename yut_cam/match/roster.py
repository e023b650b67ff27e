"""Team registration: 3 throwers in order, 1 piece mover who is the captain, reserves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yut_cam.match.errors import RecordFormatError
from yut_cam.rules.errors import josa


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    throwers: tuple[str, ...]
    mover: str
    reserves: tuple[str, ...] = ()

    @property
    def captain(self) -> str:
        """The piece mover is the captain (감독); a substitution moves both roles together."""
        return self.mover

    @property
    def registered(self) -> frozenset[str]:
        return frozenset((*self.throwers, self.mover, *self.reserves))

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "throwers": list(self.throwers),
            "mover": self.mover,
            "reserves": list(self.reserves),
        }

    @classmethod
    def from_json(cls, data: Any, index: int) -> Team:
        if not isinstance(data, dict):
            raise RecordFormatError(
                f"team {index} must be an object, not {data!r}", ko=f"{index}번 팀 정보는 JSON 객체여야 합니다"
            )
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise RecordFormatError(f"team {index} needs a name", ko=f"{index}번 팀의 이름이 없습니다")
        throwers = _names(data.get("throwers"), f"team {name!r} throwers", f"{_team_label(name)}의 윷 던지는 선수")
        if not 2 <= len(throwers) <= 3:
            raise RecordFormatError(
                f"team {name!r} registers {len(throwers)} throwers: a team has 3 (2 if its captain is absent)",
                ko=f"{_team_label(name)}의 윷 던지는 선수가 {len(throwers)}명입니다: 한 팀은 3명"
                "(감독이 없으면 2명)을 등록합니다",
            )
        mover = data.get("mover")
        if not isinstance(mover, str) or not mover.strip():
            raise RecordFormatError(
                f"team {name!r} needs a piece mover (감독)", ko=f"{_team_label(name)}의 윷말 놓는 선수(감독)가 없습니다"
            )
        reserves = _names(data.get("reserves", []), f"team {name!r} reserves", f"{_team_label(name)}의 후보 선수")
        everyone = [*throwers, mover, *reserves]
        if len(set(everyone)) != len(everyone):
            twice = sorted({n for n in everyone if everyone.count(n) > 1})
            raise RecordFormatError(
                f"team {name!r} lists a player twice: {everyone}",
                ko=f"{_team_label(name)} 명단에 같은 선수가 두 번 있습니다: {', '.join(twice)}",
            )
        return cls(name.strip(), tuple(throwers), mover, tuple(reserves))


def _team_label(name: str) -> str:
    """A team name ending in 팀, for Korean messages: "청룡 팀"."""
    return name if name.endswith("팀") else f"{name} 팀"


def _names(value: Any, what: str, what_ko: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise RecordFormatError(
            f"{what} must be a list of names, not {value!r}", ko=f"{what_ko}{josa(what_ko, '은/는')} 이름 목록이어야 합니다 (받은 값: {value!r})"
        )
    return list(value)


@dataclass(frozen=True, slots=True)
class Header:
    """Line 1 of a ``.yutlog`` record."""

    teams: tuple[Team, ...]
    rules: str = "official"
    first: int | None = None
    version: int = 1
    title: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "v": self.version,
            "type": "match",
            "rules": self.rules,
            "teams": [t.to_json() for t in self.teams],
            "first": self.first,
        }
        if self.title:
            out["title"] = self.title
        return out

    @classmethod
    def from_json(cls, data: Any) -> Header:
        from yut_cam.rules import get_profile

        if not isinstance(data, dict) or data.get("type") != "match":
            raise RecordFormatError(
                'the first line must be the match header {"type":"match", ...}',
                ko='첫 줄은 경기 정보({"type":"match", ...})여야 합니다',
            )
        version = data.get("v", 1)
        if version != 1:
            raise RecordFormatError(
                f"record version {version!r} is not supported (this reads v 1)",
                ko=f"기록 형식 {version!r}판은 읽을 수 없습니다 (1판만 읽습니다)",
            )
        teams_data = data.get("teams")
        if not isinstance(teams_data, list) or len(teams_data) != 2:
            raise RecordFormatError("a match has exactly two teams", ko="한 경기는 꼭 두 팀이 합니다")
        teams = tuple(Team.from_json(t, i) for i, t in enumerate(teams_data))
        if teams[0].name == teams[1].name:
            raise RecordFormatError(
                f"both teams are called {teams[0].name!r}", ko=f"두 팀의 이름이 같습니다: {teams[0].name}"
            )
        rules = data.get("rules", "official")
        try:
            get_profile(rules)
        except ValueError as exc:
            raise RecordFormatError(str(exc), ko=getattr(exc, "ko", "")) from None
        first = data.get("first")
        if first is not None and first not in (0, 1):
            raise RecordFormatError(
                f"first must be 0, 1 or null (throw-off), not {first!r}",
                ko=f"먼저 공격할 팀(\"first\")은 0, 1 또는 null(감독 던지기로 결정)이어야 합니다 (받은 값: {first!r})",
            )
        title = data.get("title", "")
        return cls(teams, rules, first, 1, title if isinstance(title, str) else "")
