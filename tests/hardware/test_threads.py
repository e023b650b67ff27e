"""The driver and the buzzer in their own threads (real clock; waits are bounded, nothing
asserts how long anything took)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from yut_cam.hardware import HardwareError
from yut_cam.hardware.buzzer import TimerBuzzer
from yut_cam.hardware.ledtimer import LedTimer
from yut_cam.hardware.timer import LocalClocks, TimerDriver


def eventually(condition: Callable[[], bool], limit: float = 10.0) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def test_driver_thread_follows_notify(mock_factory: Any) -> None:
    clocks = LocalClocks()
    with LedTimer(pin_factory=mock_factory) as led:
        driver = TimerDriver(clocks, led)
        driver.start()
        try:
            with pytest.raises(HardwareError, match="already running"):
                driver.start()
            assert eventually(lambda: led.current_text() == "--:--   ")
            now = time.monotonic()
            clocks.start_match(now, seconds=754.5)
            clocks.stop(now)
            driver.notify()
            assert eventually(lambda: led.current_text() == "12:35   ")
        finally:
            driver.stop()
        driver.stop()  # idempotent
        assert not any(t.name == "yut-cam-timer" for t in threading.enumerate())


def test_buzzer_pattern_in_background_is_cut_by_close(mock_factory: Any) -> None:
    buzzer = TimerBuzzer(pin_factory=mock_factory)
    pin = buzzer.device.pin
    buzzer.time_up()  # a 2 s beep, in its thread
    assert eventually(lambda: bool(pin.state))
    buzzer.close()
    assert not pin.state or pin.function == "input"
    assert not any(t.name == "yut-cam-buzzer" and t.is_alive() for t in threading.enumerate())
