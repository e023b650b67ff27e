"""Referee buttons → callbacks: start/stop clock, confirm reading, 낙, undo.

Each button is wired from a GPIO to GND with the internal pull-up (and a 10 kΩ external one
on long cables), read through gpiozero's ``Button`` with ``bounce_time`` set. Mock pins do
not simulate bounce, and not every pin library filters it well, so a :class:`Debouncer`
with an injectable clock also guards every button: a press counts only when the line has
been released for at least ``debounce_s`` before it. Chatter on pressing (press, release,
press within milliseconds) and on letting go therefore yields exactly one call.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from yut_cam.hardware.errors import DeviceClosedError, SettingsError
from yut_cam.hardware.settings import BUTTON_ACTIONS, ButtonSettings
from yut_cam.hardware.shiftchain import open_device, close_all

log = logging.getLogger(__name__)


class Debouncer:
    """Leading-edge debounce: a press is accepted at once if the button has been up for at
    least ``quiet_s``; presses during chatter are ignored. Pure (times are given)."""

    def __init__(self, quiet_s: float) -> None:
        if quiet_s < 0:
            raise SettingsError(f"debounce time must be >= 0 s, got {quiet_s!r}")
        self.quiet_s = quiet_s
        self._released_at: float | None = None
        self._down = False

    def press(self, t: float) -> bool:
        """The line went down at ``t``; true if this is a real press."""
        was_down, self._down = self._down, True
        if was_down:
            return False
        return self._released_at is None or t - self._released_at >= self.quiet_s

    def release(self, t: float) -> None:
        self._down = False
        self._released_at = t


class RefereeButtons:
    """The four referee buttons. ``callbacks`` maps an action of
    :data:`~yut_cam.hardware.settings.BUTTON_ACTIONS` (``start_stop``, ``confirm``,
    ``nak``, ``undo``) to a function of no arguments; actions without a callback are still
    read (and counted in :attr:`presses`) but do nothing. Callbacks run in gpiozero's event
    thread; an exception in one is logged and does not stop the buttons."""

    def __init__(
        self,
        callbacks: Mapping[str, Callable[[], None]],
        settings: ButtonSettings | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Any = None,
    ) -> None:
        unknown = [a for a in callbacks if a not in BUTTON_ACTIONS]
        if unknown:
            raise SettingsError(f"unknown button action {unknown[0]!r}; actions: {', '.join(BUTTON_ACTIONS)}")
        self.settings = settings or ButtonSettings()
        self.callbacks = dict(callbacks)
        self.clock = clock
        self.presses: dict[str, int] = {a: 0 for a in BUTTON_ACTIONS}
        self._lock = threading.Lock()
        self._closed = False
        self._debouncers = {a: Debouncer(self.settings.debounce_s) for a in BUTTON_ACTIONS}
        self.devices: dict[str, Any] = {}
        try:
            for action in BUTTON_ACTIONS:
                button = open_device(
                    "Button",
                    self.settings.pin(action),
                    pin_factory,
                    pull_up=True,
                    bounce_time=self.settings.bounce_s or None,
                )
                button.when_pressed = self._pressed_handler(action)
                button.when_released = self._released_handler(action)
                self.devices[action] = button
        except BaseException:
            close_all(list(self.devices.values()))
            self._closed = True
            raise

    def _pressed_handler(self, action: str) -> Callable[[], None]:
        def handler() -> None:
            with self._lock:
                if self._closed or not self._debouncers[action].press(self.clock()):
                    return
                self.presses[action] += 1
                callback = self.callbacks.get(action)
            if callback is not None:
                try:
                    callback()
                except Exception:
                    log.exception("referee button %s: callback failed", action)

        return handler

    def _released_handler(self, action: str) -> Callable[[], None]:
        def handler() -> None:
            with self._lock:
                self._debouncers[action].release(self.clock())

        return handler

    @property
    def closed(self) -> bool:
        return self._closed

    def pin(self, action: str) -> Any:
        """The gpiozero pin of a button (a ``MockPin`` in tests: ``drive_low()`` presses)."""
        if self._closed:
            raise DeviceClosedError("the referee buttons are closed")
        return self.devices[action].pin

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        close_all(list(self.devices.values()))

    def __enter__(self) -> RefereeButtons:
        if self._closed:
            raise DeviceClosedError("the referee buttons are closed")
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
