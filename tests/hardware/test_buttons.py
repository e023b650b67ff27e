"""Referee buttons pressed on mock pins with drive_low()/drive_high()."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from yut_cam.hardware import DeviceClosedError, SettingsError
from yut_cam.hardware.buttons import Debouncer, RefereeButtons
from yut_cam.hardware.settings import BUTTON_ACTIONS, ButtonSettings
from yut_cam.hardware.timer import LocalClocks

from .conftest import FakeClock


def press(buttons: RefereeButtons, clock: FakeClock, action: str, edges: list[tuple[float, int]]) -> None:
    """Drive the pin through (seconds from now, level) edges: 0 = pressed (to GND)."""
    pin = buttons.pin(action)
    start = clock.now
    for dt, level in edges:
        clock.now = start + dt
        (pin.drive_low if level == 0 else pin.drive_high)()


CHATTER_PRESS = [(0.0, 0), (0.002, 1), (0.003, 0), (0.006, 1), (0.007, 0)]
CHATTER_RELEASE = [(0.4, 1), (0.401, 0), (0.404, 1), (0.405, 0), (0.409, 1)]


@pytest.fixture
def calls() -> list[str]:
    return []


@pytest.fixture
def buttons(mock_factory: Any, fake_clock: FakeClock, calls: list[str]) -> Any:
    callbacks = {a: (lambda a=a: calls.append(a)) for a in BUTTON_ACTIONS}
    with RefereeButtons(callbacks, clock=fake_clock, pin_factory=mock_factory) as b:
        yield b


@pytest.mark.parametrize("action", BUTTON_ACTIONS)
def test_each_button_calls_its_action_once_despite_chatter(
    buttons: RefereeButtons, fake_clock: FakeClock, calls: list[str], action: str
) -> None:
    press(buttons, fake_clock, action, CHATTER_PRESS + CHATTER_RELEASE)
    assert calls == [action]
    fake_clock.advance(1.0)
    press(buttons, fake_clock, action, [(0.0, 0), (0.2, 1)])
    assert calls == [action, action]


def test_without_software_debounce_chatter_would_count(
    mock_factory: Any, fake_clock: FakeClock
) -> None:
    calls: list[str] = []
    raw = ButtonSettings(debounce_s=0.0)
    with RefereeButtons({"nak": lambda: calls.append("nak")}, raw, clock=fake_clock, pin_factory=mock_factory) as b:
        press(b, fake_clock, "nak", CHATTER_PRESS)
    assert calls == ["nak"] * 3  # mock pins do not simulate bounce_time: the guard is ours


def test_pins_are_pulled_up_and_bounce_time_set(buttons: RefereeButtons) -> None:
    for action in BUTTON_ACTIONS:
        device = buttons.devices[action]
        assert device.pull_up is True
        assert device.pin.bounce == pytest.approx(0.02)
        assert device.is_pressed is False


@pytest.mark.parametrize(
    ("edges", "count"),
    [
        ([(0.0, 0), (0.01, 1)], 1),
        ([(0.0, 0), (0.01, 1), (0.03, 0), (0.2, 1)], 1),  # pressed again 20 ms after release: chatter
        ([(0.0, 0), (0.01, 1), (0.07, 0), (0.2, 1)], 2),  # 60 ms up: a second press
        ([(0.0, 0), (5.0, 1)], 1),  # held long
    ],
)
def test_debouncer_table(edges: list[tuple[float, int]], count: int) -> None:
    d = Debouncer(0.05)
    accepted = 0
    for t, level in edges:
        if level == 0:
            accepted += d.press(t)
        else:
            d.release(t)
    assert accepted == count


def test_buttons_drive_match_actions(mock_factory: Any, fake_clock: FakeClock) -> None:
    """start/stop toggles the clocks, as the console's button would."""
    clocks = LocalClocks()
    clocks.start_match(fake_clock.now)

    def start_stop() -> None:
        if clocks.snapshot(fake_clock.now).match_running:
            clocks.stop(fake_clock.now)
        else:
            clocks.resume(fake_clock.now)

    with RefereeButtons({"start_stop": start_stop}, clock=fake_clock, pin_factory=mock_factory) as b:
        fake_clock.advance(10.0)
        press(b, fake_clock, "start_stop", CHATTER_PRESS + CHATTER_RELEASE)
        assert clocks.snapshot(fake_clock.now).match_running is False
        fake_clock.advance(30.0)
        assert clocks.snapshot(fake_clock.now).match_remaining == pytest.approx(1190.0)
        press(b, fake_clock, "start_stop", CHATTER_PRESS + CHATTER_RELEASE)
        assert clocks.snapshot(fake_clock.now).match_running is True


def test_failing_callback_is_logged_and_buttons_keep_working(
    mock_factory: Any, fake_clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[str] = []

    def broken() -> None:
        raise RuntimeError("store is down")

    with RefereeButtons({"undo": broken, "confirm": lambda: calls.append("confirm")},
                        clock=fake_clock, pin_factory=mock_factory) as b:
        with caplog.at_level(logging.ERROR):
            press(b, fake_clock, "undo", [(0.0, 0), (0.1, 1)])
        assert "undo" in caplog.text and "store is down" in caplog.text
        press(b, fake_clock, "confirm", [(0.5, 0), (0.6, 1)])
    assert calls == ["confirm"]


def test_unknown_action_and_closed(mock_factory: Any) -> None:
    with pytest.raises(SettingsError, match="'pause'"):
        RefereeButtons({"pause": lambda: None}, pin_factory=mock_factory)
    b = RefereeButtons({}, pin_factory=mock_factory)
    b.close()
    b.close()
    with pytest.raises(DeviceClosedError):
        b.pin("nak")
    RefereeButtons({}, pin_factory=mock_factory).close()  # pins were released
