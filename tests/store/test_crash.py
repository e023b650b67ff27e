"""Nothing is lost: SIGKILL a writer at random moments, restart it, check every ack.

The child (tests/store/crash_child.py) prints a seq only after append() returned. After
≥ 50 kills, every acknowledged event must be in the store with its exact content, seqs
must run 1..n without a gap, and SQLite's integrity check must pass. Kill moments are
drawn from a seeded RNG (the OS scheduling still varies the exact instruction hit).
"""

from __future__ import annotations

import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

import pytest

from tests.store.crash_child import BULK, HEADER, event_for
from yut_cam.store import EventStore

ROOT = Path(__file__).resolve().parents[2]
KILLS = 100
LINE_TIMEOUT_S = 30.0


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line.strip())
    lines.put(None)


def _spawn(
    db: Path, *mode: str
) -> tuple[subprocess.Popen[str], queue.Queue[str | None], threading.Thread]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.store.crash_child", str(db), *mode],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    assert proc.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True)
    reader.start()
    return proc, lines, reader


def _next_line(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> str:
    line = lines.get(timeout=LINE_TIMEOUT_S)
    if line is None:
        assert proc.stderr is not None
        pytest.fail(f"crash child exited early ({proc.wait()}): {proc.stderr.read()[-2000:]}")
    return line


@pytest.mark.slow
def test_sigkill_loop_loses_no_acknowledged_event(tmp_path: Path) -> None:
    rng = random.Random(20261130)
    db = tmp_path / "crash.sqlite3"
    acked: set[int] = set()
    kills_mid_stream = 0
    for _ in range(KILLS):
        proc, lines, reader = _spawn(db)
        if rng.random() < 0.1:
            # Kill while it starts up: opening, migrating, creating the match.
            time.sleep(rng.uniform(0.0, 0.08))
        else:
            ready = _next_line(proc, lines).split()
            assert ready[0] == "ready"
            # A restart sees at least every event acknowledged before.
            assert int(ready[2]) >= max(acked, default=0)
            for _ in range(rng.randint(0, 12)):
                acked.add(int(_next_line(proc, lines)))
            time.sleep(rng.uniform(0.0, 0.004))
            kills_mid_stream += 1
        for line in _kill(proc, lines, reader):
            if not line.startswith("ready"):
                acked.add(int(line))  # printed before the kill: acknowledged

    assert kills_mid_stream >= 50
    assert len(acked) >= 100, "too few acknowledged events to mean anything"

    raw = sqlite3.connect(db)
    try:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        seqs = [r[0] for r in raw.execute("SELECT seq FROM events ORDER BY seq")]
    finally:
        raw.close()
    assert seqs == list(range(1, len(seqs) + 1)), "seqs must be contiguous from 1"
    assert acked <= set(seqs), f"lost acknowledged events: {sorted(acked - set(seqs))[:10]}"

    with EventStore(db, create=False) as store:
        [summary] = store.matches()
        assert store.header(summary.id) == HEADER
        events = store.events(summary.id)
    # Exact content, for acknowledged events and any committed-but-unacknowledged tail.
    assert events == [event_for(seq) for seq in seqs]


def _kill(proc: subprocess.Popen[str], lines: queue.Queue[str | None], reader: threading.Thread) -> list[str]:
    """SIGKILL the child; return the lines it printed that were not read yet."""
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(timeout=LINE_TIMEOUT_S) == -signal.SIGKILL
    reader.join(timeout=LINE_TIMEOUT_S)
    rest = []
    while (line := lines.get_nowait()) is not None:
        rest.append(line)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    proc.stderr.close()
    return rest


@pytest.mark.slow
def test_sigkill_during_whole_record_imports_leaves_whole_records(tmp_path: Path) -> None:
    """A match stored with its events (import) is all there after a kill, or not at all."""
    rng = random.Random(7)
    db = tmp_path / "bulk.sqlite3"
    acked: set[int] = set()
    for _ in range(20):
        proc, lines, reader = _spawn(db, "bulk")
        assert _next_line(proc, lines) == "ready"
        for _ in range(rng.randint(0, 3)):
            acked.add(int(_next_line(proc, lines)))
        time.sleep(rng.uniform(0.0, 0.01))
        acked.update(int(line) for line in _kill(proc, lines, reader) if line != "ready")
    assert len(acked) >= 10
    raw = sqlite3.connect(db)
    try:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        counts = dict(raw.execute("SELECT match_id, COUNT(*) FROM events GROUP BY match_id"))
        ids = {r[0] for r in raw.execute("SELECT id FROM matches")}
    finally:
        raw.close()
    assert acked <= ids
    assert counts == {match_id: BULK for match_id in ids}, "a half-stored record"
    with EventStore(db, readonly=True) as store:
        assert store.events(max(ids)) == [event_for(seq) for seq in range(1, BULK + 1)]
