"""A simulated 20-minute match against a fake monotonic clock with jittered callbacks.

The timer driver's sleeps come back late (and sometimes early, like a spurious wake-up),
the referee stops and restarts the clock, shot clocks start and expire. At every wake-up
the digits read back from the mock pins must equal the true remaining time, and at any
moment in between they may lag it by at most one display step (one second). A naive
driver that counts ticks, run through the same simulation, drifts far beyond that — so
the check can fail.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

import pytest

from yut_cam.hardware.display import PanelView
from yut_cam.hardware.ledtimer import LedTimer
from yut_cam.hardware.timer import LocalClocks, TimerDriver

from .conftest import FakeClock

MATCH = 1200.0
# (seconds after the start, action): two stoppages, shot clocks of both kinds
SCRIPT: list[tuple[float, str]] = [
    (0.0, "start"),
    (0.0, "throw"),
    (7.3, "move"),
    (41.0, "throw"),
    (300.25, "stop"),
    (395.6, "resume"),
    (396.0, "move"),
    (433.0, "clear"),
    (851.9, "stop"),
    (852.4, "resume"),
    (900.0, "throw"),
    (914.7, "clear"),
]


@dataclass
class Truth:
    """The true clocks, computed from the script alone (no anchors, no driver)."""

    t0: float

    def running_intervals(self, until: float) -> list[tuple[float, float]]:
        out, start = [], None
        for at, action in SCRIPT:
            t = self.t0 + at
            if t > until:
                break
            if action in ("start", "resume"):
                start = t
            elif action == "stop" and start is not None:
                out.append((start, t))
                start = None
        if start is not None:
            out.append((start, until))
        return out

    def match_remaining(self, t: float) -> float:
        return MATCH - sum(b - a for a, b in self.running_intervals(t))


def shown(view: PanelView) -> int | None:
    if view.match.strip() == "" or "-" in view.match:
        return None
    return int(view.match[:2]) * 60 + int(view.match[2:])


class Simulation:
    """Fake clock + jittered sleep; applies the script when its time comes (waking the
    driver early, as ``notify()`` does) and checks the panel all along."""

    def __init__(self, seed: int, clock: FakeClock, panel: Any, clocks: LocalClocks) -> None:
        self.rng = random.Random(seed)
        self.clock, self.panel, self.clocks = clock, panel, clocks
        self.t0 = clock.now
        self.truth = Truth(self.t0)
        self.pending = [(self.t0 + at, action) for at, action in SCRIPT]
        self.worst_lag = 0  # largest |shown - true| in display steps, anywhere
        self.worst_after_refresh = 0
        self.wakeups = 0
        self.time_up_seen = False

    def apply_due(self) -> None:
        while self.pending and self.pending[0][0] <= self.clock.now:
            at, action = self.pending.pop(0)
            now = at
            c = self.clocks
            {"start": lambda: c.start_match(now, MATCH), "stop": lambda: c.stop(now),
             "resume": lambda: c.resume(now), "throw": lambda: c.start_shot("throw", 10.0, now),
             "move": lambda: c.start_shot("move", 30.0, now), "clear": c.clear_shot}[action]()

    def check(self, *, just_refreshed: bool) -> None:
        view = self.panel()
        true = self.truth.match_remaining(self.clock.now)
        if true <= 0:
            self.time_up_seen = self.time_up_seen or view.match in ("0000", "    ")
            return
        value = shown(view)
        assert value is not None, f"panel {view.text!r} at {self.clock.now - self.t0:.3f}s"
        lag = abs(value - math.ceil(true))
        self.worst_lag = max(self.worst_lag, lag)
        near_boundary = abs(true - round(true)) < 1e-6
        if just_refreshed and not near_boundary:
            self.worst_after_refresh = max(self.worst_after_refresh, lag)

    def sleep(self, seconds: float) -> None:
        self.wakeups += 1
        self.check(just_refreshed=True)
        r = self.rng.random()
        if r < 0.05:
            jitter = -self.rng.uniform(0, 0.9) * seconds  # spurious early wake-up
        elif r < 0.30:
            jitter = self.rng.uniform(0.02, 0.45)  # a late callback (busy Pi)
        else:
            jitter = self.rng.uniform(0, 0.02)
        target = self.clock.now + max(seconds + jitter, 0.0)
        if self.pending and self.pending[0][0] <= target:
            target = self.pending[0][0]  # a referee action wakes the driver
        for _ in range(3):  # look at the panel in between, too
            self.clock.now = self.rng.uniform(self.clock.now, target)
            self.check(just_refreshed=False)
        self.clock.now = target
        self.check(just_refreshed=False)
        self.apply_due()


@pytest.mark.parametrize("seed", [1, 2])
def test_twenty_minutes_without_drift(mock_factory: Any, seed: int) -> None:
    clock = FakeClock(start=50_000.0 + seed * 0.37)
    clocks = LocalClocks()
    with LedTimer(pin_factory=mock_factory) as led:
        sim = Simulation(seed, clock, led.current_view, clocks)
        sim.apply_due()
        driver = TimerDriver(clocks, led, clock=clock, sleep=sim.sleep)
        stopped = (395.6 - 300.25) + (852.4 - 851.9)
        driver.run(until=sim.t0 + MATCH + stopped + 3.0)
    assert sim.time_up_seen
    assert sim.worst_after_refresh == 0  # right after every wake-up: exactly the true time
    assert sim.worst_lag <= 1  # in between: at most one display step behind
    assert sim.wakeups > 2 * MATCH  # the colon blinks: ~2 refreshes per second


class TickCounter:
    """What not to do: decrement the shown seconds on every 1-second callback."""

    def __init__(self, sim: Simulation, clocks: LocalClocks) -> None:
        self.sim, self.clocks = sim, clocks
        self.seconds = int(MATCH)

    def view(self) -> PanelView:
        s = max(self.seconds, 0)
        return PanelView(f"{s // 60:02d}{s % 60:02d}", True)

    def run(self, until: float) -> None:
        while self.sim.clock.now < until:
            self.sim.sleep(1.0)
            if self.clocks.snapshot(self.sim.clock.now).match_running:
                self.seconds -= 1


def test_tick_counting_would_drift() -> None:
    clock = FakeClock(start=50_000.0)
    clocks = LocalClocks()
    holder: list[TickCounter] = []
    sim = Simulation(1, clock, lambda: holder[0].view(), clocks)
    sim.apply_due()
    naive = TickCounter(sim, clocks)
    holder.append(naive)
    naive.run(until=sim.t0 + 600.0)
    assert sim.worst_lag > 10  # late callbacks add up: tens of seconds behind in 10 minutes
