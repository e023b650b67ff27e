"""`yut-cam timer-test`: run the LED timer through a short match sequence and print it.

With ``--mock`` (or off a Pi) the pins are gpiozero mock pins, time is simulated and what
is printed is read back from the pins' state history — what the digits would show.
On a Pi it drives the real chain in real time (about 30 s) so the panel can be checked.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# (seconds from the start, action, what the referee should see)
SEQUENCE: tuple[tuple[float, str, str], ...] = (
    (0.0, "reset", "before the match: --:--"),
    (1.0, "start", "match starts, throw clock 10 s: 20:00 10"),
    (2.0, "look", "one second later: 19:59"),
    (8.0, "look", "throw clock at 3 s stands out (alert lamp, '!')"),
    (11.5, "move", "shot clock expired at 11.0 (beeps); move clock 30 s"),
    (13.2, "stop", "referee stoppage: time frozen, colon steady"),
    (18.0, "look", "still stopped"),
    (18.5, "resume", "clock runs again (colon blinks)"),
    (19.0, "correct", "referee corrects the match clock to 0:03"),
    (22.1, "look", "time-up: 00:00 flashing (on), long beep"),
    (22.6, "look", "time-up: 00:00 flashing (off)"),
)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "timer-test",
        help="run the LED match timer through a short sequence and print what it shows",
    )
    p.add_argument("--mock", action="store_true", help="use gpiozero mock pins and simulated time (no Pi needed)")
    p.add_argument("--settings", type=Path, metavar="F", help="hardware settings JSON (default: built-in = firmware/hardware.json)")
    p.set_defaults(handler=_timer_test)


def _timer_test(args: argparse.Namespace) -> int:
    from yut_cam.hardware import HardwareError
    from yut_cam.hardware.settings import HardwareSettings, load_settings

    import warnings

    from gpiozero.exc import PinFactoryFallback  # type: ignore[import-untyped]

    try:
        settings = load_settings(args.settings) if args.settings else HardwareSettings()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PinFactoryFallback)
            run_sequence(settings, mock=args.mock, out=print)
    except HardwareError as exc:
        hint = "" if args.mock else " (off a Pi, use --mock)"
        print(f"yut-cam timer-test: {exc}{hint}", file=sys.stderr)
        return 2
    return 0


def run_sequence(settings: Any, *, mock: bool, out: Callable[[str], None]) -> list[str]:
    """Play :data:`SEQUENCE`; return the panel texts shown at each step."""
    from yut_cam.hardware.buzzer import TimerBuzzer
    from yut_cam.hardware.ledtimer import LedTimer, mock_pin_factory
    from yut_cam.hardware.timer import LocalClocks, TimerDriver

    factory = mock_pin_factory() if mock else None
    sim = [1000.0]
    clock: Callable[[], float] = (lambda: sim[0]) if mock else time.monotonic
    texts: list[str] = []
    with LedTimer(settings, pin_factory=factory) as led, TimerBuzzer(
        settings.buzzer, pin_factory=factory, sleep=(lambda s: None) if mock else None
    ) as buzzer:
        clocks = LocalClocks()
        driver = TimerDriver(clocks, led, buzzer=buzzer, alert=settings.alert, clock=clock)
        if not mock:
            driver.start()
        t0 = clock()
        out(f"{'time':>7}  {'LED timer':<10} what to check  [lamps lit]")
        try:
            for at, action, note in SEQUENCE:
                if mock:
                    _simulate_until(driver, sim, t0 + at)
                else:
                    time.sleep(max(0.0, t0 + at - clock()))
                now = clock()
                _apply(clocks, action, now)
                driver.notify()
                if mock:
                    driver.refresh()
                else:
                    time.sleep(0.05)
                view = led.current_view()
                text = led.current_text()
                lamps = view.describe()[len(view.text.rstrip("!")):].strip()
                beeps = ", ".join(buzzer.played)
                buzzer.played.clear()
                texts.append(text)
                extra = (f"  {lamps}" if lamps else "") + (f"  ♪ {beeps}" if beeps else "")
                out(f"{at:6.1f}s  {text:<10} {note}{extra}")
        finally:
            driver.stop()
    return texts


def _simulate_until(driver: Any, sim: list[float], target: float) -> None:
    """Advance simulated time to ``target``, refreshing at every change like the loop."""
    while True:
        due = driver.refresh()
        if due is None or due >= target:
            sim[0] = target
            return
        sim[0] = due


def _apply(clocks: Any, action: str, now: float) -> None:
    if action == "reset":
        clocks.reset()
    elif action == "start":
        clocks.start_match(now)
        clocks.start_shot("throw", 10.0, now)
    elif action == "move":
        clocks.start_shot("move", 30.0, now)
    elif action == "stop":
        clocks.stop(now)
    elif action == "resume":
        clocks.resume(now)
    elif action == "correct":
        clocks.correct(3.0, now)
