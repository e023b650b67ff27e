"""The live match clock: match-clock seconds ``t`` anchored at a monotonic instant.

Pure value arithmetic; the service hands in the monotonic time.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MatchClock:
    """``t_at_anchor`` match-clock seconds at monotonic ``anchor``; running when ``anchor``
    is not None (t then grows one second per second)."""

    t_at_anchor: float = 0.0
    anchor: float | None = None

    @property
    def running(self) -> bool:
        return self.anchor is not None

    def t(self, now: float) -> float:
        if self.anchor is None:
            return self.t_at_anchor
        return self.t_at_anchor + max(0.0, now - self.anchor)

    def run(self, now: float) -> MatchClock:
        return self if self.running else MatchClock(self.t_at_anchor, now)

    def stop(self, now: float) -> MatchClock:
        return MatchClock(self.t(now)) if self.running else self

    def set(self, t: float, now: float, running: bool) -> MatchClock:
        return MatchClock(t, now if running else None)

    def shifted(self, seconds: float, now: float) -> MatchClock:
        """The same clock with ``seconds`` added (the referee charges an offline gap)."""
        return MatchClock(self.t(now) + seconds, now if self.running else None)


def stamp(t: float) -> float:
    """Match-clock seconds as recorded in an event: milliseconds are enough."""
    return round(t, 3)
