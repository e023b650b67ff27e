"""The timer's buzzer: one long beep at time-up, short beeps when a shot clock expires.

``kind="active"`` drives a buzzer with its own oscillator through gpiozero's ``Buzzer``
(on/off); ``kind="tonal"`` drives a passive piezo through ``TonalBuzzer`` at a pitch per
cue. Either way it sits behind an NPN transistor (see ``firmware/WIRING.md``). Patterns
play in a background thread; a new cue cuts the one playing. Tests pass ``sleep`` (then
patterns play synchronously in the caller's thread) and read the mock pin's history.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from yut_cam.hardware.errors import DeviceClosedError
from yut_cam.hardware.settings import BuzzerSettings
from yut_cam.hardware.shiftchain import open_device

Pattern = tuple[tuple[float, float], ...]  # (seconds on, seconds off) …
TIME_UP: Pattern = ((2.0, 0.0),)
SHOT_EXPIRED: Pattern = ((0.15, 0.1), (0.15, 0.1), (0.15, 0.1))
TIME_UP_HZ = 880.0
SHOT_EXPIRED_HZ = 1320.0


class TimerBuzzer:
    """Buzzer cues for :class:`~yut_cam.hardware.timer.TimerDriver`."""

    def __init__(
        self,
        settings: BuzzerSettings | None = None,
        *,
        pin_factory: Any = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        self.settings = settings or BuzzerSettings()
        self._sleep = sleep
        self._lock = threading.Lock()
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False
        self.played: list[str] = []
        if self.settings.kind == "tonal":
            from gpiozero.tones import Tone  # type: ignore[import-untyped]

            self._tone = Tone
            self.device = open_device("TonalBuzzer", self.settings.pin, pin_factory, mid_tone=Tone("A4"), octaves=2)
        else:
            self.device = open_device("Buzzer", self.settings.pin, pin_factory)

    @property
    def closed(self) -> bool:
        return self._closed

    def time_up(self) -> None:
        """The match clock reached 0: one long beep."""
        self.play("time_up", TIME_UP, TIME_UP_HZ)

    def shot_expired(self) -> None:
        """A throw/move clock expired (or another 5 s of overtime passed): short beeps."""
        self.play("shot_expired", SHOT_EXPIRED, SHOT_EXPIRED_HZ)

    def play(self, name: str, pattern: Pattern, hz: float) -> None:
        with self._lock:
            if self._closed:
                raise DeviceClosedError("the buzzer is closed")
            self._halt()
            self.played.append(name)
            self._cancel = cancel = threading.Event()
            if self._sleep is not None:
                self._run(pattern, hz, cancel)
                return
            self._thread = threading.Thread(target=self._run, args=(pattern, hz, cancel), name="yut-cam-buzzer", daemon=True)
            self._thread.start()

    def _run(self, pattern: Pattern, hz: float, cancel: threading.Event) -> None:
        try:
            for on, off in pattern:
                if cancel.is_set():
                    return
                self._sound(hz)
                if self._wait(on, cancel):
                    return
                self._silence()
                if off and self._wait(off, cancel):
                    return
        finally:
            if not cancel.is_set():
                self._silence()

    def _wait(self, seconds: float, cancel: threading.Event) -> bool:
        if self._sleep is not None:
            self._sleep(seconds)
            return cancel.is_set()
        return cancel.wait(seconds)

    def _sound(self, hz: float) -> None:
        if self.settings.kind == "tonal":
            self.device.play(self._tone(frequency=hz))
        else:
            self.device.on()

    def _silence(self) -> None:
        if self.settings.kind == "tonal":
            self.device.stop()
        else:
            self.device.off()

    def _halt(self) -> None:
        self._cancel.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=3)
        try:
            self._silence()
        except Exception:  # noqa: BLE001 - the device may already be closed
            pass

    def close(self) -> None:
        """Stop any pattern and release the pin; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._halt()
            self._closed = True
            self.device.close()

    def __enter__(self) -> TimerBuzzer:
        if self._closed:
            raise DeviceClosedError("the buzzer is closed")
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
