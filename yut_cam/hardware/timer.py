"""The LED timer follows the match clocks: state, anchors and the refresh loop.

The match layer owns the clocks; it exposes them through :class:`TimerSource`, whose
:meth:`~TimerSource.snapshot` returns a :class:`TimerState` for a monotonic time. Remaining
times come from a :class:`ClockAnchor` (remaining at an anchor time, and whether it runs),
never from counting ticks, so a late or skipped refresh cannot make the display drift.

:class:`TimerDriver` computes when the panel next changes, sleeps until then, and shows the
new panel; :meth:`TimerDriver.notify` makes it look again at once (clock started, stopped
or corrected). Clock and sleep are injectable, so tests run a 20-minute match in a moment.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from yut_cam.hardware.display import (
    OVERTIME_BEEP_EVERY,
    AlertSeconds,
    PanelView,
    compose,
    next_change,
)
from yut_cam.hardware.errors import HardwareError

log = logging.getLogger(__name__)

ShotKind = Literal["throw", "move"]
MATCH_SECONDS = 20 * 60.0
IDLE_WAIT = 1.0  # seconds between looks when nothing changes on its own


@dataclass(frozen=True)
class TimerState:
    """The clocks as the timer needs them, at one moment.

    ``match_remaining`` is ``None`` before the match (the panel shows ``--:--``) and may be
    ``<= 0`` after time-up; ``shot_remaining`` is ``None`` when no throw/move clock runs and
    may be negative in overtime; ``over`` is true once the match has ended (time-up or win).
    """

    match_remaining: float | None = None
    match_running: bool = False
    shot_remaining: float | None = None
    shot_kind: ShotKind | None = None
    over: bool = False

    def __post_init__(self) -> None:
        if self.shot_kind not in (None, "throw", "move"):
            raise HardwareError(f"shot_kind must be 'throw', 'move' or None, got {self.shot_kind!r}")
        if self.shot_remaining is not None and self.shot_kind is None:
            raise HardwareError("a running shot clock needs shot_kind 'throw' or 'move'")


class TimerSource(Protocol):
    """Anything that can say what the clocks read at a monotonic time ``now``."""

    def snapshot(self, now: float) -> TimerState: ...


@dataclass(frozen=True)
class ClockAnchor:
    """A countdown: ``remaining_at_anchor`` seconds left at monotonic ``anchor_monotonic``,
    running from then on; ``anchor_monotonic=None`` means stopped."""

    remaining_at_anchor: float
    anchor_monotonic: float | None = None

    @property
    def running(self) -> bool:
        return self.anchor_monotonic is not None

    def remaining(self, now: float) -> float:
        """Seconds left at ``now`` (negative once expired; callers clamp if they wish)."""
        if self.anchor_monotonic is None:
            return self.remaining_at_anchor
        return self.remaining_at_anchor - (now - self.anchor_monotonic)

    def started(self, now: float) -> ClockAnchor:
        return self if self.running else ClockAnchor(self.remaining_at_anchor, now)

    def stopped(self, now: float) -> ClockAnchor:
        return ClockAnchor(self.remaining(now)) if self.running else self

    def corrected(self, remaining: float, now: float) -> ClockAnchor:
        """The same running/stopped state with ``remaining`` seconds left at ``now``."""
        return ClockAnchor(remaining, now if self.running else None)


@dataclass
class LocalClocks:
    """A self-contained :class:`TimerSource` built from anchors (for ``timer-test``, the
    demo, tests, and as a template for the match adapter). Thread-safe."""

    match: ClockAnchor | None = None
    shot: ClockAnchor | None = None
    shot_kind: ShotKind | None = None
    finished: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def snapshot(self, now: float) -> TimerState:
        with self._lock:
            m = None if self.match is None else self.match.remaining(now)
            s = None if self.shot is None else self.shot.remaining(now)
            over = self.finished or (m is not None and m <= 0)
            return TimerState(
                match_remaining=m,
                match_running=self.match is not None and self.match.running and not over,
                shot_remaining=s,
                shot_kind=self.shot_kind if s is not None else None,
                over=over,
            )

    def start_match(self, now: float, seconds: float = MATCH_SECONDS) -> None:
        with self._lock:
            self.match, self.finished = ClockAnchor(seconds, now), False

    def stop(self, now: float) -> None:
        """Referee stoppage: the match clock and the shot clock stop."""
        with self._lock:
            if self.match is not None:
                self.match = self.match.stopped(now)
            if self.shot is not None:
                self.shot = self.shot.stopped(now)

    def resume(self, now: float) -> None:
        with self._lock:
            if self.match is not None:
                self.match = self.match.started(now)
            if self.shot is not None:
                self.shot = self.shot.started(now)

    def correct(self, remaining: float, now: float) -> None:
        with self._lock:
            if self.match is not None:
                self.match = self.match.corrected(remaining, now)

    def start_shot(self, kind: ShotKind, seconds: float, now: float) -> None:
        with self._lock:
            self.shot, self.shot_kind = ClockAnchor(seconds, now), kind

    def clear_shot(self) -> None:
        with self._lock:
            self.shot, self.shot_kind = None, None

    def finish(self, now: float) -> None:
        """The match ended before time-up (a team finished all four pieces)."""
        with self._lock:
            if self.match is not None:
                self.match = self.match.stopped(now)
            self.shot, self.shot_kind, self.finished = None, None, True

    def reset(self) -> None:
        with self._lock:
            self.match = self.shot = None
            self.shot_kind, self.finished = None, False


class PanelSink(Protocol):
    """Where panels go: :class:`~yut_cam.hardware.ledtimer.LedTimer`, or a test recorder."""

    def show(self, view: PanelView) -> None: ...


class BuzzerCues(Protocol):
    """The sounds the timer asks for: :class:`~yut_cam.hardware.buzzer.TimerBuzzer`."""

    def time_up(self) -> None: ...

    def shot_expired(self) -> None: ...


def _expiry_mark(state: TimerState) -> int:
    """-1 while the shot clock is above 0, then 0, 1, 2 … at 0 s, -5 s, -10 s …"""
    s = state.shot_remaining
    if s is None or s > 0 or state.over:
        return -1
    return math.floor(-s / OVERTIME_BEEP_EVERY)


def _time_up(state: TimerState) -> bool:
    return state.match_remaining is not None and state.match_remaining <= 0


class TimerDriver:
    """Keeps a panel in step with a :class:`TimerSource`.

    ``refresh()`` shows the panel for *now* and returns when it next changes; ``run()``
    loops refresh/sleep in the calling thread; ``start()`` runs that loop in a daemon
    thread. ``clock`` is a monotonic clock; ``sleep(seconds)`` replaces the default wait
    (which :meth:`notify` interrupts) — tests inject a simulated one. The buzzer sounds at
    time-up and when the shot clock expires (and again each further 5 s over time, when
    rule 000 gives another warning).
    """

    def __init__(
        self,
        source: TimerSource,
        panel: PanelSink,
        *,
        buzzer: BuzzerCues | None = None,
        alert: AlertSeconds = AlertSeconds(),
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.source, self.panel, self.buzzer, self.alert = source, panel, buzzer, alert
        self.clock = clock
        self._sleep = sleep
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._last_view: PanelView | None = None
        self._last_state: TimerState | None = None
        self._flash_origin: float | None = None
        self.refreshes = 0

    @property
    def last_view(self) -> PanelView | None:
        return self._last_view

    def refresh(self) -> float | None:
        """Show the panel for now; return the monotonic time of its next change (or
        ``None`` if it only changes when the source does)."""
        with self._lock:
            now = self.clock()
            state = self.source.snapshot(now)
            if not _time_up(state):
                self._flash_origin = None
            elif self._flash_origin is None:
                self._flash_origin = now
            view = compose(state, now, self.alert, self._flash_origin)
            if view != self._last_view:
                self.panel.show(view)
                self._last_view = view
            self._cue(self._last_state, state)
            self._last_state = state
            self.refreshes += 1
            return next_change(state, now, self._flash_origin)

    def _cue(self, before: TimerState | None, after: TimerState) -> None:
        if self.buzzer is None or before is None:
            return
        if _time_up(after) and not _time_up(before):
            self.buzzer.time_up()
        mark = _expiry_mark(after)
        if mark >= 0 and mark > _expiry_mark(before):
            self.buzzer.shot_expired()

    def notify(self) -> None:
        """The clocks changed other than by running (start, stop, correction, new shot
        clock): refresh now — at once if no loop runs, else by waking the loop."""
        if self._thread is None and self._sleep is None:
            self.refresh()
        self._wake.set()

    def run(self, until: float | None = None) -> None:
        """Refresh and sleep until :meth:`stop` (or until the clock passes ``until``)."""
        if self._thread is None:
            self._stop.clear()
        while not self._stop.is_set():
            due = self.refresh()
            now = self.clock()
            if until is not None and now >= until:
                return
            wait = IDLE_WAIT if due is None else max(due - now, 0.0)
            if until is not None:
                wait = min(wait, max(until - now, 0.0))
            self._pause(wait)

    def _pause(self, seconds: float) -> None:
        if self._sleep is not None:
            self._sleep(seconds)
        else:
            self._wake.wait(seconds)
        self._wake.clear()

    def start(self) -> None:
        """Run the loop in a daemon thread (``stop()`` ends it)."""
        if self._thread is not None:
            raise HardwareError("the timer driver is already running")
        self._stop.clear()
        self._thread = threading.Thread(target=self.run, name="yut-cam-timer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """End the loop (idempotent); waits for the thread if there is one."""
        self._stop.set()
        self._wake.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    def __enter__(self) -> TimerDriver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


__all__ = [
    "ClockAnchor",
    "LocalClocks",
    "TimerDriver",
    "TimerSource",
    "TimerState",
    "PanelSink",
    "BuzzerCues",
]
