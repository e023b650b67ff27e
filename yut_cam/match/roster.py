"""Team registration: 3 throwers in order, 1 piece mover who is the captain, reserves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yut_cam.match.errors import RecordFormatError


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
            raise RecordFormatError(f"team {index} must be an object, not {data!r}")
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise RecordFormatError(f"team {index} needs a name")
        throwers = _names(data.get("throwers"), f"team {name!r} throwers")
        if not 2 <= len(throwers) <= 3:
            raise RecordFormatError(
                f"team {name!r} registers {len(throwers)} throwers: a team has 3 (2 if its captain is absent)"
            )
        mover = data.get("mover")
        if not isinstance(mover, str) or not mover.strip():
            raise RecordFormatError(f"team {name!r} needs a piece mover (감독)")
        reserves = _names(data.get("reserves", []), f"team {name!r} reserves")
        everyone = [*throwers, mover, *reserves]
        if len(set(everyone)) != len(everyone):
            raise RecordFormatError(f"team {name!r} lists a player twice: {everyone}")
        return cls(name.strip(), tuple(throwers), mover, tuple(reserves))


def _names(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise RecordFormatError(f"{what} must be a list of names, not {value!r}")
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
            raise RecordFormatError('the first line must be the match header {"type":"match", ...}')
        version = data.get("v", 1)
        if version != 1:
            raise RecordFormatError(f"record version {version!r} is not supported (this reads v 1)")
        teams_data = data.get("teams")
        if not isinstance(teams_data, list) or len(teams_data) != 2:
            raise RecordFormatError("a match has exactly two teams")
        teams = tuple(Team.from_json(t, i) for i, t in enumerate(teams_data))
        if teams[0].name == teams[1].name:
            raise RecordFormatError(f"both teams are called {teams[0].name!r}")
        rules = data.get("rules", "official")
        try:
            get_profile(rules)
        except ValueError as exc:
            raise RecordFormatError(str(exc)) from None
        first = data.get("first")
        if first is not None and first not in (0, 1):
            raise RecordFormatError(f"first must be 0, 1 or null (throw-off), not {first!r}")
        title = data.get("title", "")
        return cls(teams, rules, first, 1, title if isinstance(title, str) else "")
