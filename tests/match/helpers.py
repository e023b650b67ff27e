from __future__ import annotations

from typing import Any

from yut_cam.match import Header, MatchState, apply, parse_event, start_state

TEAMS = [
    {"name": "청룡", "throwers": ["가", "나", "다"], "mover": "라", "reserves": ["마"]},
    {"name": "백호", "throwers": ["A", "B", "C"], "mover": "D", "reserves": ["E", "F"]},
]


def header(first: int | None = 0, rules: str = "official") -> dict[str, Any]:
    return {"v": 1, "type": "match", "rules": rules, "teams": TEAMS, "first": first}


class Ref:
    """Drives a match through events, like the console does, with a fake clock."""

    def __init__(self, first: int | None = 0, rules: str = "official", start: bool = True) -> None:
        self.state: MatchState = start_state(Header.from_json(header(first, rules)))
        self.t = 0.0
        if start:
            self("start")

    def __call__(self, kind: str, **fields: Any) -> MatchState:
        self.state = apply(self.state, parse_event({"type": kind, "t": self.t, **fields}))
        return self.state

    def wait(self, seconds: float) -> Ref:
        self.t += seconds
        return self

    def throw(self, *results: str, team: int | None = None) -> MatchState:
        for r in results:
            g = self.state.game
            assert g is not None
            self("throw", team=g.turn if team is None else team, result=r)
        return self.state

    def shot_left(self) -> float:
        assert self.state.shot is not None
        return self.state.shot.remaining(self.t)
