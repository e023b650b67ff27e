"""Buzzer patterns on mock pins, and when the timer driver asks for them."""

from __future__ import annotations

from typing import Any

import pytest

from yut_cam.hardware import DeviceClosedError
from yut_cam.hardware.buzzer import TimerBuzzer
from yut_cam.hardware.display import PanelView
from yut_cam.hardware.settings import BuzzerSettings
from yut_cam.hardware.timer import LocalClocks, TimerDriver

from .conftest import FakeClock


def levels(pin: Any) -> list[bool]:
    return [bool(s.state) for s in pin.states]


def test_active_buzzer_patterns(mock_factory: Any) -> None:
    slept: list[float] = []
    with TimerBuzzer(pin_factory=mock_factory, sleep=slept.append) as buzzer:
        pin = buzzer.device.pin
        buzzer.time_up()
        assert levels(pin) == [False, True, False]
        assert slept == [2.0]
        pin.clear_states()
        slept.clear()
        buzzer.shot_expired()
        assert levels(pin) == [False, True, False, True, False, True, False]
        assert slept == [0.15, 0.1] * 3


def test_tonal_buzzer_plays_a_pitch(mock_factory: Any) -> None:
    with TimerBuzzer(BuzzerSettings(pin=12, kind="tonal"), pin_factory=mock_factory, sleep=lambda s: None) as buzzer:
        pin = buzzer.device.pwm_device.pin
        pin.clear_states()
        buzzer.time_up()
        assert [s.state for s in pin.states] == [0.0, 0.5, 0.0]


def test_closed_buzzer(mock_factory: Any) -> None:
    buzzer = TimerBuzzer(pin_factory=mock_factory)
    buzzer.close()
    buzzer.close()
    with pytest.raises(DeviceClosedError):
        buzzer.time_up()


class Recorder:
    def __init__(self) -> None:
        self.views: list[PanelView] = []

    def show(self, view: PanelView) -> None:
        self.views.append(view)


class Cues:
    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.log: list[tuple[str, float]] = []

    def time_up(self) -> None:
        self.log.append(("time_up", self.clock.now))

    def shot_expired(self) -> None:
        self.log.append(("shot_expired", self.clock.now))


def test_driver_cues_shot_expiry_overtime_and_time_up(fake_clock: FakeClock) -> None:
    clocks, cues = LocalClocks(), Cues(fake_clock)
    driver = TimerDriver(clocks, Recorder(), buzzer=cues, clock=fake_clock)
    t0 = fake_clock.now
    clocks.start_match(t0, seconds=60.0)
    clocks.start_shot("move", 30.0, t0)

    def run_to(t: float) -> None:
        while True:
            due = driver.refresh()
            if due is None or due > t:
                fake_clock.now = t
                driver.refresh()
                return
            fake_clock.now = due

    run_to(t0 + 42.0)  # expired at 30, overtime marks at 35 and 40
    assert cues.log == [("shot_expired", pytest.approx(t0 + 30)), ("shot_expired", pytest.approx(t0 + 35)),
                        ("shot_expired", pytest.approx(t0 + 40))]
    clocks.start_shot("throw", 10.0, fake_clock.now)  # a new clock: no beep
    run_to(t0 + 45.0)
    assert len(cues.log) == 3
    clocks.clear_shot()
    run_to(t0 + 70.0)
    assert cues.log[3:] == [("time_up", pytest.approx(t0 + 60))]  # once
