"""Seeded random legal matches for the replay tests: a game driven through
``yut_cam.rules.legal_moves`` with random throws, plus referee events."""

from __future__ import annotations

import random
from typing import Any

from yut_cam.match import Header, MatchState, apply, parse_event, start_state
from yut_cam.rules import IDEAL_ODDS, Throw, legal_moves

TEAMS = [
    {"name": "청룡", "throwers": ["김민수", "이서준", "박도윤"], "mover": "최감독", "reserves": ["정후보"]},
    {"name": "백호", "throwers": ["한지우", "오하준", "윤시우"], "mover": "강감독", "reserves": ["서후보"]},
]

_RESULTS = [t for t in IDEAL_ODDS if t is not Throw.NAK]
_WEIGHTS = [float(IDEAL_ODDS[t]) for t in _RESULTS]


def header(first: int | None = None, title: str = "") -> dict[str, Any]:
    h: dict[str, Any] = {"v": 1, "type": "match", "rules": "official", "teams": TEAMS, "first": first}
    if title:
        h["title"] = title
    return h


def _throw(rng: random.Random, nak: float = 0.03) -> str:
    if rng.random() < nak:
        return "낙"
    return rng.choices(_RESULTS, _WEIGHTS)[0].value


class Driver:
    """Builds a record event by event, applying each so every event is legal."""

    def __init__(self, seed: int, first: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.header = header(first)
        self.state: MatchState = start_state(Header.from_json(self.header))
        self.events: list[dict[str, Any]] = []
        self.t = 0.0

    def add(self, event: dict[str, Any], dt: float = 0.0) -> None:
        self.t = min(self.t + dt, 1200.0) if event["type"] != "time_up" else max(self.t, 1200.0)
        event = {**event, "t": round(self.t, 1)}
        self.state = apply(self.state, parse_event(event))
        self.events.append(event)

    def throwoff(self) -> None:
        while self.state.game is None:
            for team in (0, 1):
                if self.state.game is None and self.state.throwoff[team] is None:
                    self.add({"type": "throwoff", "team": team, "result": _throw(self.rng, 0.1)}, 2.0)

    def referee(self) -> None:
        """Now and then a warning, 작전타임, substitution or stoppage (all legal now)."""
        rng, st = self.rng, self.state
        game = st.game
        if game is None or game.over:
            return
        roll = rng.random()
        if roll < 0.03:
            reason = "throw_time" if game.phase.value == "throw" else "move_time"
            self.add({"type": "warning", "team": game.turn, "reason": reason}, 11.0)
        elif roll < 0.04:
            self.add({"type": "warning", "team": rng.randrange(2), "reason": "conduct", "note": "항의"}, 1.0)
        elif roll < 0.055 and st.timeout is None and 1200 - self.t > 130:
            team = rng.randrange(2)
            if st.timeouts_used[team] < 2:
                self.add({"type": "timeout", "team": team}, 1.0)
                self.add({"type": "timeout_end"}, 40.0)
        elif roll < 0.065:
            team = rng.randrange(2)
            if st.substitutions_used[team] == 0:
                lineup = st.lineups[team]
                out = rng.choice(list(lineup.throwers))
                into = lineup.reserves[0] if lineup.reserves else None
                if into is not None:
                    self.add({"type": "substitution", "team": team, "out": out, "in": into}, 5.0)
        elif roll < 0.07 and st.stopped is None:
            self.add({"type": "stoppage", "reason": "윷가락 교체"}, 1.0)
            self.add({"type": "resume"}, 0.0)
        elif roll < 0.08 and self.events and self.events[-1]["type"] in ("throw", "move"):
            self.add({"type": "undo"}, 2.0)  # the referee takes the last throw or move back

    def play(self, max_events: int = 400, pace: tuple[float, float] = (2.0, 9.0)) -> None:
        rng = self.rng
        if self.state.game is None:
            self.throwoff()
        self.add({"type": "start"}, 1.0)
        while len(self.events) < max_events:
            game = self.state.game
            assert game is not None
            if game.over:
                return
            if self.t >= 1200.0 - pace[1]:
                break
            self.referee()
            game = self.state.game
            assert game is not None
            if game.over:
                return
            dt = rng.uniform(*pace)
            if game.phase.value == "throw":
                team = game.turn
                self.add({"type": "throw", "team": team, "result": _throw(rng),
                          "thrower": self.state.next_thrower_name(team)}, dt)
            else:
                move = rng.choice(legal_moves(game))
                j = move.to_json()
                self.add({"type": "move", "team": j["team"], "result": j["result"], "piece": j["piece"],
                          "to": j["to"]}, dt)
        self.add({"type": "time_up"})
        if self.state.winner is None:
            self.add({"type": "decide", "winner": 0, "reason": "재경기 없이 심판 판정"})


def match(seed: int, **kw: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    d = Driver(seed)
    d.play(**kw)
    return d.header, d.events
