"""A chain of TPIC6B595 power shift registers on three GPIO lines plus output enable.

gpiozero has no shift-register class, so the chain is driven with three
:class:`gpiozero.DigitalOutputDevice` (SER IN = data, SRCK = clock, RCK = latch) and the
active-low output enable /G as a :class:`gpiozero.PWMOutputDevice` whose value is the
brightness. The registers latch their outputs, so a frame is written once per change —
there is no refresh thread and nothing flickers when the Pi is busy.

Write protocol (idle: clock and latch low): for every byte, farthest register first, for
every bit (``msb_first`` or ``lsb_first``): set data, clock high, clock low; then latch
high, latch low. A frame of ``length`` bytes takes ``length × 8`` clock pulses.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

from yut_cam.hardware.errors import DeviceClosedError, EncodingError, HardwareError, PinSetupError

log = logging.getLogger(__name__)

BIT_ORDERS = ("msb_first", "lsb_first")


def bits_of(value: int, bit_order: str) -> list[int]:
    """The 8 bits of ``value`` in the order they are clocked out."""
    order = range(7, -1, -1) if bit_order == "msb_first" else range(8)
    return [(value >> i) & 1 for i in order]


def open_device(kind: str, pin: int | str, pin_factory: Any, **kwargs: Any) -> Any:
    import gpiozero  # type: ignore[import-untyped]
    from gpiozero.exc import GPIOZeroError, PinPWMUnsupported  # type: ignore[import-untyped]

    try:
        return getattr(gpiozero, kind)(pin, pin_factory=pin_factory, **kwargs)
    except PinPWMUnsupported as exc:
        raise PinSetupError(
            f"GPIO{pin} cannot do PWM with this pin factory; with mock pins use "
            "yut_cam.hardware.ledtimer.mock_pin_factory() or set GPIOZERO_MOCK_PIN_CLASS=mockpwmpin"
        ) from exc
    except (GPIOZeroError, OSError, RuntimeError) as exc:
        raise PinSetupError(f"cannot open GPIO{pin} as {kind}: {exc}") from exc


def close_all(devices: Sequence[Any]) -> None:
    for device in reversed(devices):
        try:
            device.close()
        except Exception:  # noqa: BLE001 - best effort while cleaning up
            pass


class ShiftChain:
    """``length`` TPIC6B595 registers in a chain.

    ``frame[i]`` of :meth:`write` goes to register i counted from the Pi (i = 0 is wired
    to the Pi's data line). ``output_enable`` may be ``None`` when /G is tied low (then
    ``brightness`` is fixed at 1).
    """

    def __init__(
        self,
        data: int | str,
        clock: int | str,
        latch: int | str,
        output_enable: int | str | None,
        *,
        length: int,
        bit_order: str = "msb_first",
        brightness: float = 1.0,
        pwm_frequency: int = 400,
        pin_factory: Any = None,
    ) -> None:
        if length < 1:
            raise EncodingError(f"a chain has at least one register, got length {length!r}")
        if bit_order not in BIT_ORDERS:
            raise EncodingError(f"bit_order must be msb_first or lsb_first, got {bit_order!r}")
        _check_brightness(brightness)
        self.length, self.bit_order = length, bit_order
        self._lock = threading.RLock()
        self._devices: list[Any] = []
        self._closed = False
        self._frame = bytes(length)
        self._brightness = brightness
        try:
            self.data = self._add(open_device("DigitalOutputDevice", data, pin_factory))
            self.clock = self._add(open_device("DigitalOutputDevice", clock, pin_factory))
            self.latch = self._add(open_device("DigitalOutputDevice", latch, pin_factory))
            self.output_enable = None
            self.dimmable = False
            if output_enable is not None:
                self.output_enable, self.dimmable = self._open_output_enable(output_enable, pwm_frequency, pin_factory)
            self._shift(self._frame)  # clear whatever the registers woke up with
            if self.output_enable is not None:
                self._set_oe(brightness)
        except BaseException:
            close_all(self._devices)
            self._closed = True
            raise

    def _open_output_enable(self, pin: int | str, frequency: int, pin_factory: Any) -> tuple[Any, bool]:
        """/G as PWM (value = brightness). gpiozero's plain ``MockPin`` (what
        ``GPIOZERO_PIN_FACTORY=mock`` gives) cannot do PWM; then /G becomes an on/off line
        (any brightness above 0 = full) so the demo still runs. Every real pin library
        (lgpio, RPi.GPIO, pigpio) does PWM on every pin."""
        from gpiozero.exc import PinPWMUnsupported

        try:
            # active_high=False: value 0 = /G high = all outputs off.
            device = open_device("PWMOutputDevice", pin, pin_factory, active_high=False,
                                 initial_value=0, frequency=frequency)
            return self._add(device), True
        except PinSetupError as exc:
            if not isinstance(exc.__cause__, PinPWMUnsupported):
                raise
        device = open_device("DigitalOutputDevice", pin, pin_factory, active_high=False, initial_value=False)
        log.info("GPIO%s cannot do PWM with this pin factory: brightness is on/off only", pin)
        return self._add(device), False

    def _set_oe(self, value: float) -> None:
        assert self.output_enable is not None
        if self.dimmable:
            self.output_enable.value = value
        else:
            self.output_enable.value = value > 0

    def _add(self, device: Any) -> Any:
        self._devices.append(device)
        return device

    @property
    def closed(self) -> bool:
        return self._closed

    def _check(self) -> None:
        if self._closed:
            raise DeviceClosedError("the shift chain is closed")

    @property
    def frame(self) -> bytes:
        """The frame last latched."""
        return self._frame

    def write(self, frame: bytes) -> None:
        """Shift ``frame`` into the chain and latch it."""
        with self._lock:
            self._check()
            if len(frame) != self.length:
                raise EncodingError(f"the chain has {self.length} registers, got a frame of {len(frame)} bytes")
            self._shift(bytes(frame))

    def _shift(self, frame: bytes) -> None:
        data, clock, latch = self.data, self.clock, self.latch
        for value in reversed(frame):
            for bit in bits_of(value, self.bit_order):
                data.value = bit
                clock.on()
                clock.off()
        latch.on()
        latch.off()
        self._frame = frame

    @property
    def brightness(self) -> float:
        return self._brightness if self.output_enable is not None else 1.0

    @brightness.setter
    def brightness(self, value: float) -> None:
        with self._lock:
            self._check()
            _check_brightness(value)
            if self.output_enable is None:
                raise HardwareError("no output_enable line: brightness is fixed")
            self._set_oe(value)
            self._brightness = value

    def close(self) -> None:
        """Blank the chain and release the pins; idempotent."""
        with self._lock:
            if self._closed:
                return
            try:
                if self.output_enable is not None:
                    self._set_oe(0)
                self._shift(bytes(self.length))
            finally:
                self._closed = True
                close_all(self._devices)

    def __enter__(self) -> ShiftChain:
        self._check()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _check_brightness(value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise EncodingError(f"brightness must be a number from 0 to 1, got {value!r}")
