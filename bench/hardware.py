"""LED timer cost on gpiozero mock pins: what a frame, a refresh and a read-back cost.

    .venv/bin/python -m bench.hardware [--frames 2000]

Mock pins are slower than lgpio's C calls per write only by Python overhead, so the
"frame write" row is an upper-bound sketch of the per-frame CPU on a Pi (measure there
with `yut-cam timer-test` for the real figure). Also counts how many refreshes and frames
a simulated 20-minute match takes (≈ 2 per second: the colon blinks).
"""

from __future__ import annotations

import argparse
import time

from yut_cam.hardware.display import PanelView, compose
from yut_cam.hardware.ledtimer import LedTimer, mock_pin_factory
from yut_cam.hardware.timer import LocalClocks, TimerDriver, TimerState


def per_call(fn, n: int) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    for i in range(n):
        fn(i)
    return (time.perf_counter() - start) / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--frames", type=int, default=2000)
    args = parser.parse_args()
    n = args.frames
    rows: list[tuple[str, str]] = []
    with LedTimer(pin_factory=mock_pin_factory()) as led:
        views = [PanelView(f"{(i // 60) % 100:02d}{i % 60:02d}", i % 2 == 0, f"{i % 100:02d}") for i in range(n)]
        t = per_call(lambda i: led.show(views[i]), n)
        rows.append(("frame write (7 bytes, 56 clocks) on mock pins", f"{t * 1e6:8.0f} µs"))
        t = per_call(lambda i: (led.show(views[i]), led.current_view()), n)
        rows.append(("write + read back from pin history", f"{t * 1e6:8.0f} µs"))
        state = TimerState(1000.5, True, 7.3, "move")
        t = per_call(lambda i: compose(state, 5000.0 + i * 0.01), n * 10)
        rows.append(("compose (pure)", f"{t * 1e6:8.1f} µs"))

        sim = [10_000.0]
        clocks = LocalClocks()
        clocks.start_match(sim[0])
        driver = TimerDriver(clocks, led, clock=lambda: sim[0], sleep=lambda s: sim.__setitem__(0, sim[0] + s))
        before = led.frames_written
        start = time.perf_counter()
        driver.run(until=sim[0] + 1200.0)
        wall = time.perf_counter() - start
        rows.append(("simulated 20:00 match: refreshes", f"{driver.refreshes:8d}"))
        rows.append(("simulated 20:00 match: frames written", f"{led.frames_written - before:8d}"))
        rows.append(("simulated 20:00 match: wall time", f"{wall:8.2f} s"))
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  value")
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
