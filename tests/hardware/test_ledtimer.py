"""The LED timer on gpiozero mock pins: frames are read back from the pins' history."""

from __future__ import annotations

from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yut_cam.hardware import DeviceClosedError, EncodingError, PinSetupError
from yut_cam.hardware.decode import ChainProbe, pin_events
from yut_cam.hardware.display import PanelLayout, PanelView, decode_frame
from yut_cam.hardware.ledtimer import LedTimer
from yut_cam.hardware.settings import ChainPins, HardwareSettings
from yut_cam.hardware.shiftchain import ShiftChain, open_device
from yut_cam.hardware.timer import LocalClocks, TimerDriver

from .conftest import FakeClock


def states(pin: Any) -> list[bool]:
    return [bool(s.state) for s in pin.states]


def test_one_register_bits_on_the_wires(mock_factory: Any) -> None:
    with ShiftChain(10, 11, 8, 18, length=1, pin_factory=mock_factory) as chain:
        data, clock, latch = (mock_factory.pin(n) for n in (10, 11, 8))
        for pin in (data, clock, latch):
            pin.clear_states()
        chain.write(bytes([0b1010_0001]))
        # MSB first: 1 0 1 0 0 0 0 1 -> data changes 1,0,1,0,1 ; 8 clock pulses ; 1 latch pulse
        assert states(data) == [False, True, False, True, False, True]
        assert states(clock) == [False] + [True, False] * 8
        assert states(latch) == [False, True, False]
        assert chain.frame == bytes([0b1010_0001])


def test_output_enable_is_active_low_pwm(mock_factory: Any) -> None:
    with ShiftChain(10, 11, 8, 18, length=2, brightness=0.25, pin_factory=mock_factory) as chain:
        oe = mock_factory.pin(18)
        assert oe.state == pytest.approx(0.75)  # /G low 25 % of the time
        chain.brightness = 1.0
        assert oe.state == 0
    assert oe.state == 0 or oe.function == "input"


@pytest.mark.parametrize("bit_order", ["msb_first", "lsb_first"])
def test_frames_read_back_from_pin_history(mock_factory: Any, bit_order: str) -> None:
    frames = [bytes([1, 2, 3]), bytes([0xFF, 0x00, 0x80]), bytes([0x5A, 0xA5, 0x0F])]
    with ShiftChain(10, 11, 8, None, length=3, bit_order=bit_order, pin_factory=mock_factory) as chain:
        for frame in frames:
            chain.write(frame)
        probe = ChainProbe(chain.data.pin, chain.clock.pin, chain.latch.pin, length=3, bit_order=bit_order)
        assert probe.read() == [bytes(3), *frames]  # the blank frame written on opening first
        assert probe.read() == []
        chain.write(bytes([9, 9, 9]))
        assert probe.read() == [bytes([9, 9, 9])]


def test_pin_events_are_absolute_and_ordered(mock_factory: Any) -> None:
    with ShiftChain(10, 11, 8, None, length=1, pin_factory=mock_factory) as chain:
        chain.write(b"\xff")
        events = pin_events(chain.clock.pin)
        times = [t for t, _ in events]
        assert times == sorted(times)
        assert len(events) == len(chain.clock.pin.states)


def at(clock: FakeClock, driver: TimerDriver, t0: float, seconds: float) -> None:
    """Run the driver up to t0+seconds as its loop would (refresh at every change)."""
    target = t0 + seconds
    while True:
        due = driver.refresh()
        if due is None or due > target:
            clock.now = target
            driver.refresh()
            return
        clock.now = due


@pytest.fixture
def rig(mock_factory: Any, fake_clock: FakeClock) -> Any:
    led = LedTimer(HardwareSettings(), pin_factory=mock_factory)
    clocks = LocalClocks()
    driver = TimerDriver(clocks, led, clock=fake_clock)
    yield led, clocks, driver, fake_clock
    led.close()


def test_display_at_chosen_match_times(rig: Any) -> None:
    led, clocks, driver, clock = rig
    t0 = clock.now = 7000.0  # a whole second: the flash phase starts "on"
    driver.refresh()
    assert led.current_text() == "--:--   "  # before the match

    clocks.start_match(t0)
    clocks.start_shot("throw", 10.0, t0)
    driver.notify()
    assert led.current_text() == "20:00 10"  # start
    at(clock, driver, t0, 0.6)
    assert led.current_text() == "20 00 10"  # colon blinks while running
    at(clock, driver, t0, 1.0)
    assert led.current_text() == "19:59 09"
    at(clock, driver, t0, 7.0)
    assert led.current_text() == "19:53 03!"  # shot clock at 3 s stands out
    assert led.current_view().throw_lamp and led.current_view().alert_lamp

    at(clock, driver, t0, 12.6)
    clocks.clear_shot()
    clocks.stop(clock.now)  # referee stoppage at 19:47.4
    driver.notify()
    frozen = led.current_text()
    assert frozen == "19:48   "
    for later in (13.1, 40.0, 95.5):  # colon steady, time frozen
        at(clock, driver, t0, later)
        assert led.current_text() == frozen
    clocks.resume(clock.now)
    driver.notify()
    clocks.correct(2.0, clock.now)
    driver.notify()
    assert led.current_text() == "00:02   "
    at(clock, driver, t0, 95.5 + 2.0)  # time-up at 97.5: the flash starts lit
    assert led.current_text() == "00:00   "
    at(clock, driver, t0, 98.2)
    assert led.current_text() == "        "  # flashing: off
    at(clock, driver, t0, 98.6)
    assert led.current_text() == "00:00   "


def test_decoded_from_pins_not_from_memory(rig: Any) -> None:
    led, *_ = rig
    led.show(PanelView("1234", True, "56"))
    assert led.current_text() == "12:34 56"
    led.chain.write(bytes(7))  # a blank frame latched behind LedTimer's back
    assert led.current_text() == "        "


def test_write_only_on_change(rig: Any) -> None:
    led, clocks, driver, clock = rig
    clocks.start_match(clock.now)
    clocks.stop(clock.now)
    for _ in range(5):
        driver.refresh()
    assert led.frames_written == 1


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.permutations(["m10", "m1", "s10", "s1", "lamps", "shot10", "shot1", "spare"]),
    st.sampled_from(["msb_first", "lsb_first"]),
    st.text(alphabet="0123456789- ", min_size=4, max_size=4),
    st.text(alphabet="0123456789 ", min_size=2, max_size=2),
    st.booleans(),
)
def test_any_layout_shows_what_was_asked(
    mock_factory: Any, chain: list[str], order: str, match: str, shot: str, colon: bool
) -> None:
    mock_factory.reset()
    layout = PanelLayout(chain=tuple(chain), bit_order=order)
    with LedTimer(HardwareSettings(layout=layout), pin_factory=mock_factory) as led:
        view = PanelView(match, colon, shot, alert_lamp=True)
        led.show(view)
        assert led.current_view() == view


def test_closed_timer_raises_and_close_is_idempotent(mock_factory: Any) -> None:
    led = LedTimer(pin_factory=mock_factory)
    led.show(PanelView("2000", True, "  "))
    led.close()
    led.close()
    assert led.closed
    with pytest.raises(DeviceClosedError):
        led.show(PanelView("1959", True, "  "))
    with pytest.raises(DeviceClosedError):
        led.current_text()
    with pytest.raises(DeviceClosedError):
        with led:
            pass
    # the pins are released: a new timer can take them
    with LedTimer(pin_factory=mock_factory) as again:
        assert again.current_text() == "        "


def test_pin_in_use_and_pwm_less_pins_fail_clearly(mock_factory: Any) -> None:
    with LedTimer(pin_factory=mock_factory):
        with pytest.raises(PinSetupError, match="GPIO10"):
            LedTimer(pin_factory=mock_factory)
    # nothing is left reserved after the failure
    with LedTimer(HardwareSettings(pins=ChainPins(output_enable=18)), pin_factory=mock_factory):
        pass


def test_plain_mock_pins_give_on_off_brightness() -> None:
    """GPIOZERO_PIN_FACTORY=mock gives MockPin, which cannot PWM: /G falls back to on/off."""
    plain = MockFactory()
    with LedTimer(pin_factory=plain) as led:
        assert not led.chain.dimmable
        led.show(PanelView("2000", True, "10"))
        assert led.current_text() == "20:00 10"
        assert led.brightness_now() == 1.0
        led.brightness = 0.0
        assert led.current_text() == "(꺼짐)"
        led.brightness = 0.3
        assert led.brightness_now() == 1.0
    with pytest.raises(PinSetupError, match="mockpwmpin"):
        open_device("PWMOutputDevice", 21, plain)
    plain.reset()


def test_bad_frame_size(mock_factory: Any) -> None:
    with ShiftChain(10, 11, 8, None, length=2, pin_factory=mock_factory) as chain:
        with pytest.raises(EncodingError, match="2 registers"):
            chain.write(b"\x00")
        with pytest.raises(EncodingError):
            decode_frame(b"\x00", PanelLayout())


def test_current_json_for_the_web(mock_factory: Any) -> None:
    with LedTimer(pin_factory=mock_factory) as led:
        led.show(PanelView("1959", False, "03", throw_lamp=True, alert_lamp=True))
        assert led.current_json() == {
            "text": "19 59 03!",
            "match": "19 59",
            "shot": "03",
            "colon": False,
            "lamps": {"throw": True, "move": False, "alert": True},
            "brightness": 0.8,
        }
        led.brightness = 0.0
        assert led.current_text() == "(꺼짐)"
