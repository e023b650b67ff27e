"""Fixtures of the store tests: a fresh store, a fake wall clock, a full-DB snapshot."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from yut_cam.store import EventStore

HEADER: dict[str, Any] = {
    "v": 1,
    "type": "match",
    "rules": "official",
    "teams": [
        {"name": "청룡", "throwers": ["a", "b", "c"], "mover": "d", "reserves": []},
        {"name": "백호", "throwers": ["e", "f", "g"], "mover": "h", "reserves": ["i"]},
    ],
    "first": 0,
}


class FakeWallClock:
    """Unix seconds that advance only when told to."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeWallClock:
    return FakeWallClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "var" / "yut-cam.sqlite3"


@pytest.fixture
def store(db_path: Path, clock: FakeWallClock) -> Iterator[EventStore]:
    with EventStore(db_path, now=clock) as opened:
        yield opened


def snapshot(path: Path) -> list[str]:
    """Every schema object and row of the database, through a separate connection."""
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()
