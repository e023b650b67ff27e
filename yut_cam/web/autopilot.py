"""The demo's autopilot: plays the demo match at a watchable pace.

Every 2-3 s it takes one referee action on the current match: start the clock, confirm
the camera's reading (or, with no camera reading for a while, call a throw with the ideal
odds), or make a sensible legal move (capture > finish > stack > enter > advance the
furthest).  While a logged-in referee has acted in the last 30 s it stands aside.  When a
match is over it opens a new one after a pause.  Every action goes through the service,
so the autopilot can do nothing the rules refuse.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

from yut_cam.rules import IDEAL_ODDS
from yut_cam.web.background import spawn
from yut_cam.web.errors import ServiceError
from yut_cam.web.service import MatchService

log = logging.getLogger(__name__)


def choose_move(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The move event the autopilot plays from a LIVE STATE (None: no legal move)."""
    moves = state["legal_moves"]
    if not moves:
        return None
    team = moves[0]["team"]
    theirs = {p["at"] for p in state["teams"][1 - team]["pieces"]}
    ours = {p["at"] for p in state["teams"][team]["pieces"]}

    def score(m: dict[str, Any]) -> float:
        s = 0.0
        if m["to"] in theirs:
            s += 100
        if m["to"] == "났음":
            s += 60
        if m["to"] in ours and m["from"] != "대기":
            s += 20
        if m["from"] == "대기":
            s += 10
        if m["result"] == "빽도":
            s -= 5
        s += len(m["route"]) + rng.random()
        return s

    best = max(moves, key=score)
    return {"type": "move", "team": best["team"], "result": best["result"], "piece": best["piece"], "to": best["to"]}


class Autopilot:
    def __init__(self, service: MatchService, *, seed: int = 1, pace: tuple[float, float] = (2.0, 3.0),
                 referee_quiet: float = 30.0, reading_wait: float = 8.0, restart_after: float = 20.0,
                 header: dict[str, Any] | None = None) -> None:
        from yut_cam.web.demo import DEMO_HEADER

        self.service = service
        self.rng = random.Random(seed)
        self.pace = pace
        self.referee_quiet = referee_quiet
        self.reading_wait = reading_wait
        self.restart_after = restart_after
        self.header = header or DEMO_HEADER
        self._stop = threading.Event()
        self._waiting: tuple[int, int, float] | None = None  # (match, seq, since) of a throw wait
        self._over_since: float | None = None
        self.actions = 0

    def start(self) -> None:
        spawn(self.run, "yut-cam-autopilot")

    def stop(self) -> None:
        self._stop.set()

    def run(self) -> None:
        while not self._stop.is_set():
            try:
                self.step()
            except ServiceError as exc:
                log.info("autopilot: refused: %s [%s]", exc.message, exc.rule)
            except Exception:
                log.exception("autopilot step failed")
            self._stop.wait(self.rng.uniform(*self.pace))

    def _ideal_result(self) -> str:
        results = list(IDEAL_ODDS)
        weights = [float(IDEAL_ODDS[r]) for r in results]
        return str(self.rng.choices(results, weights)[0].value)

    def step(self) -> str:
        """One decision; returns what it did (for logs and tests)."""
        svc = self.service
        now = svc.monotonic()
        if now - svc.last_referee_action < self.referee_quiet:
            return "stand aside"
        match_id = svc.current_id()
        if match_id is None:
            svc.create_match(dict(self.header))
            return "new match"
        state = svc.live_state(match_id)
        clock = state["match"]["clock"]
        if state["phase"] == "over":
            if self._over_since is None:
                self._over_since = now
            if now - self._over_since >= self.restart_after:
                self._over_since = None
                svc.finish(match_id)
                svc.create_match(dict(self.header))
                return "new match"
            return "over"
        self._over_since = None
        if not clock["started"]:
            return self._act(match_id, {"type": "start"})
        if clock["stopped"] is not None:
            return self._act(match_id, {"type": "resume"})
        if state["match"]["timeout"] is not None:
            return self._act(match_id, {"type": "timeout_end"})
        if state["phase"] == "move":
            move = choose_move(state, self.rng)
            if move is not None:
                return self._act(match_id, move)
            return "no move"
        reading = state["reading"]
        if reading is not None:
            svc.confirm_reading(match_id, reading["result"])
            self.actions += 1
            return f"confirm {reading['result']}"
        if self._waiting is None or self._waiting[:2] != (match_id, state["seq"]):
            self._waiting = (match_id, state["seq"], now)
        if now - self._waiting[2] >= self.reading_wait:
            result = self._ideal_result()
            svc.confirm_reading(match_id, result)
            self.actions += 1
            return f"call {result}"
        return "wait for the camera"

    def _act(self, match_id: int, event: dict[str, Any]) -> str:
        self.service.submit(match_id, event)
        self.actions += 1
        return str(event["type"])
