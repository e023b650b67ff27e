"""Event store benchmark: durable appends per second and read-back of a long match.

Run: ``.venv/bin/python -m bench.store [--dir DIR] [--appends N] [--events N]``.
The database goes in DIR (default: a temporary directory under ``var/``, i.e. the disk
the real store uses). Every append is its own fsync'ed transaction, so the numbers are
mostly the disk's fsync latency; on a Pi's SD card expect far fewer appends per second.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from yut_cam.store import EventStore, export_match, read_yutlog

HEADER: dict[str, Any] = {
    "v": 1,
    "type": "match",
    "rules": "official",
    "teams": [
        {"name": "청룡", "throwers": ["가", "나", "다"], "mover": "라", "reserves": []},
        {"name": "백호", "throwers": ["마", "바", "사"], "mover": "아", "reserves": []},
    ],
    "first": 0,
}
RESULTS = ("도", "개", "걸", "윷", "모", "빽도", "낙")


def throw_event(n: int) -> dict[str, Any]:
    """A realistic throw event (~450 bytes with the camera reading attached)."""
    return {
        "type": "throw",
        "team": n % 2,
        "result": RESULTS[n % len(RESULTS)],
        "t": round(n * 7.3, 1),
        "reading": {
            "confidence": 0.97,
            "sticks": [
                {"face": "배" if (n >> k) & 1 else "등", "marked": k == 0, "on_mat": True,
                 "box": [[10 * k, 20], [10 * k + 80, 22], [10 * k + 78, 40], [10 * k, 38]]}
                for k in range(4)
            ],
        },
    }


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def _row(name: str, value: str, note: str = "") -> None:
    print(f"{name:44} {value:>14}  {note}")


def _appends(store: EventStore, match_id: int, count: int, **kwargs: Any) -> list[float]:
    times = []
    last = store.last_seq(match_id)
    for n in range(count):
        times.append(_timed(lambda: store.append(match_id, throw_event(last + n), **kwargs)))
    return times


def _summary(name: str, times: Sequence[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    _row(name, f"{len(ms) / sum(times):,.0f} /s", f"median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms")


def run(directory: Path, appends: int, events: int) -> None:
    db = directory / "bench.sqlite3"
    probe = directory / "fsync-probe"
    fsyncs = []
    with open(probe, "wb") as handle:
        for _ in range(200):
            handle.write(b"x" * 64)
            handle.flush()
            fsyncs.append(_timed(lambda: os.fsync(handle.fileno())))
    _row("raw fsync of a small write (context)", f"{statistics.median(fsyncs) * 1000:.3f} ms", "median of 200")

    with EventStore(db) as store:
        match_id = store.create_match(HEADER)
        _summary(f"durable append ({appends}, no check)", _appends(store, match_id, appends))

        long_match = store.create_match(HEADER, events=[throw_event(n) for n in range(events)])
        times = _appends(
            store, long_match, 50, check=lambda previous, event: None, expect_seq=None
        )
        _summary(f"append + check ignoring previous ({events} ev.)", times)

        def reads_all(previous: Sequence[dict[str, Any]], event: dict[str, Any]) -> None:
            if sum(1 for _ in previous) != len(previous):
                raise ValueError("short read")

        times = _appends(store, long_match, 20, check=reads_all)
        _summary(f"append + check reading all previous ({events}+ ev.)", times)

        reads = [_timed(lambda: store.events(long_match)) for _ in range(5)]
        _row(f"read back a {events}-event match", f"{min(reads) * 1000:.1f} ms", "best of 5, events()")
        out = directory / "long.yutlog"
        export = min(_timed(lambda: export_match(store, long_match, out)) for _ in range(3))
        _row(f"export a {events}-event match to .yutlog", f"{export * 1000:.1f} ms",
             f"{out.stat().st_size / 1024:.0f} KiB, best of 3")
        parse = min(_timed(lambda: read_yutlog(out.read_bytes())) for _ in range(3))
        _row(f"parse that .yutlog", f"{parse * 1000:.1f} ms", "best of 3")
        reopen = min(_timed(lambda: EventStore(db).close()) for _ in range(3))
        _row("open an existing store (service start)", f"{reopen * 1000:.1f} ms", "best of 3")
    _row("database size", f"{db.stat().st_size / 1024:,.0f} KiB",
         f"{appends + 50 + events} events, 2 matches")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--dir", type=Path, help="where to put the database (default: under var/)")
    parser.add_argument("--appends", type=int, default=500)
    parser.add_argument("--events", type=int, default=2000)
    args = parser.parse_args(argv)
    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
        run(args.dir, args.appends, args.events)
        return
    Path("var").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir="var", prefix="bench-store-") as tmp:
        run(Path(tmp), args.appends, args.events)


if __name__ == "__main__":
    main()
