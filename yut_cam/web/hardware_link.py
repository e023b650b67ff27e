"""The LED timer, its buzzer and the referee buttons, wired to the match service.

The timer follows the current match's clocks through :meth:`MatchService.timer_snapshot`
(a :class:`~yut_cam.hardware.timer.TimerSource`); every accepted event wakes the driver.
What the panel shows is read back from the pins after each change (with mock pins that is
the decode of the pin history, which also keeps the history from growing).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from yut_cam.hardware.buttons import RefereeButtons
from yut_cam.hardware.buzzer import TimerBuzzer
from yut_cam.hardware.display import PanelView
from yut_cam.hardware.ledtimer import LedTimer, mock_pin_factory
from yut_cam.hardware.settings import HardwareSettings, settings_from_env
from yut_cam.hardware.timer import TimerDriver, TimerState
from yut_cam.web import actions
from yut_cam.web.service import MatchService

log = logging.getLogger(__name__)


class _Clocks:
    def __init__(self, service: MatchService) -> None:
        self.service = service

    def snapshot(self, now: float) -> TimerState:
        return self.service.timer_snapshot(now)


class _ReadBackPanel:
    def __init__(self, led: LedTimer) -> None:
        self.led = led
        self.text: str | None = None

    def show(self, view: PanelView) -> None:
        self.led.show(view)
        self.text = self.led.current_text()


class HardwareLink:
    """``mode``: "mock" (gpiozero MockFactory pins) or "gpio" (the default pin factory).

    Pins, digit encoding, brightness and alert times come from ``settings``, by default the
    venue's file named by ``$YUT_CAM_HARDWARE`` (the systemd unit sets it), else built-in.
    """

    def __init__(self, service: MatchService, mode: str = "mock", *,
                 settings: HardwareSettings | None = None,
                 dispatch: Callable[[Callable[[], None]], None] | None = None) -> None:
        if mode not in ("mock", "gpio"):
            raise ValueError(f"hardware mode must be 'mock' or 'gpio', not {mode!r}")
        self.service = service
        self.settings = settings if settings is not None else settings_from_env()
        self.pin_factory: Any = mock_pin_factory() if mode == "mock" else None
        self.led = LedTimer(self.settings, pin_factory=self.pin_factory)
        self.buzzer = TimerBuzzer(self.settings.buzzer, pin_factory=self.pin_factory)
        self.panel = _ReadBackPanel(self.led)
        self.driver = TimerDriver(
            _Clocks(service), self.panel, buzzer=self.buzzer, alert=self.settings.alert, clock=service.monotonic
        )
        self._dispatch = dispatch or (lambda fn: fn())
        self.buttons = RefereeButtons(
            {name: self._press(name) for name in actions.ACTIONS}, self.settings.buttons,
            clock=service.monotonic, pin_factory=self.pin_factory,
        )
        self.running = False

    def _press(self, action: str) -> Callable[[], None]:
        def pressed() -> None:
            self._dispatch(lambda: self._act(action))

        return pressed

    def _act(self, action: str) -> None:
        actions.run(self.service, action)

    def start(self) -> None:
        self.driver.start()
        self.running = True

    def notify(self, _match_id: int | None = None) -> None:
        self.driver.notify()

    def text(self) -> str | None:
        if self.panel.text is None:
            self.driver.refresh()
        return self.panel.text

    def close(self) -> None:
        self.driver.stop()
        for device in (self.buttons, self.buzzer, self.led):
            try:
                device.close()
            except Exception:
                log.exception("closing %r failed", device)
