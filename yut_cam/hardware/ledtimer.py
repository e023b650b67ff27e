"""The LED match timer: settings + shift chain + panel encoding, as one device.

    from yut_cam.hardware.ledtimer import LedTimer, mock_pin_factory
    with LedTimer(settings, pin_factory=mock_pin_factory()) as led:
        led.show(PanelView("2000", True, "10", throw_lamp=True))
        led.current_text()   # '20:00 10' — read back from the mock pins

With mock pins, :meth:`LedTimer.current_view` decodes the pins' state history (what the
hardware would show); with real pins it decodes the last frame written.
"""

from __future__ import annotations

import threading
from typing import Any

from yut_cam.hardware.decode import ChainProbe, brightness_of, is_mock_pin
from yut_cam.hardware.display import PanelView, decode_frame, encode_view
from yut_cam.hardware.errors import DeviceClosedError
from yut_cam.hardware.settings import HardwareSettings
from yut_cam.hardware.shiftchain import ShiftChain


def mock_pin_factory() -> Any:
    """A gpiozero ``MockFactory`` whose pins can do PWM (the output-enable line needs it)."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin  # type: ignore[import-untyped]

    return MockFactory(pin_class=MockPWMPin)


class LedTimer:
    """The panel of large digits. ``show(view)`` writes a frame only when it changed."""

    def __init__(self, settings: HardwareSettings | None = None, *, pin_factory: Any = None) -> None:
        self.settings = settings or HardwareSettings()
        self.layout = self.settings.layout
        pins = self.settings.pins
        self._lock = threading.Lock()
        self.chain = ShiftChain(
            pins.data,
            pins.clock,
            pins.latch,
            pins.output_enable,
            length=self.layout.length,
            bit_order=self.layout.bit_order,
            brightness=self.settings.brightness,
            pwm_frequency=self.settings.pwm_frequency,
            pin_factory=pin_factory,
        )
        self._view: PanelView | None = None
        self.frames_written = 0
        raw = (self.chain.data.pin, self.chain.clock.pin, self.chain.latch.pin)
        self.probe: ChainProbe | None = None
        if all(is_mock_pin(p) for p in raw):
            self.probe = ChainProbe(*raw, length=self.layout.length, bit_order=self.layout.bit_order, trim=True)

    @property
    def closed(self) -> bool:
        return self.chain.closed

    def show(self, view: PanelView) -> None:
        with self._lock:
            if self.chain.closed:
                raise DeviceClosedError("the LED timer is closed")
            if view == self._view:
                return
            self.chain.write(encode_view(view, self.layout))
            self._view = view
            self.frames_written += 1

    def current_view(self) -> PanelView:
        """What the digits show now: read back from the mock pins when the pins are mock,
        else decoded from the frame last written."""
        with self._lock:
            if self.chain.closed:
                raise DeviceClosedError("the LED timer is closed")
            frame = self.chain.frame
            if self.probe is not None:
                self.probe.read()
                frame = self.probe.latest or frame
            return decode_frame(frame, self.layout)

    def current_text(self) -> str:
        """The panel as text: ``"19:59 08"`` (MM:SS, a space, the shot clock), the colon a
        space while it blinks dark, blank digits as spaces (``"--:--   "`` before a match),
        ``"!"`` appended while the alert lamp is lit, ``"(꺼짐)"`` when the panel is dark."""
        view = self.current_view()
        if self.brightness_now() == 0:
            return "(꺼짐)"
        return view.text

    def current_json(self) -> dict[str, object]:
        """:meth:`PanelView.to_json` of :meth:`current_view` plus ``"brightness"`` (0 = dark)."""
        out = self.current_view().to_json()
        out["brightness"] = self.brightness_now()
        return out

    def brightness_now(self) -> float:
        oe = self.chain.output_enable
        if oe is None:
            return 1.0
        return round(brightness_of(oe.pin), 4) if is_mock_pin(oe.pin) else self.chain.brightness

    @property
    def brightness(self) -> float:
        return self.chain.brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        self.chain.brightness = value

    def close(self) -> None:
        self.chain.close()

    def __enter__(self) -> LedTimer:
        if self.closed:
            raise DeviceClosedError("the LED timer is closed")
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
