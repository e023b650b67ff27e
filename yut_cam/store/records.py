"""Values read from the store: stored events, match summaries, headers and titles."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, overload

from yut_cam.store import jsonvalue
from yut_cam.store.errors import InvalidEventError, SchemaError, StoreClosedError

Event = dict[str, Any]


def at(stamp: float) -> datetime:
    return datetime.fromtimestamp(stamp, tz=timezone.utc)


def utc(stamp: float | None) -> datetime | None:
    return None if stamp is None else at(stamp)


@dataclass(frozen=True)
class StoredEvent:
    """An event as stored: its 1-based sequence number and the wall time it was recorded."""

    seq: int
    event: Event
    recorded_at: datetime


@dataclass(frozen=True)
class MatchSummary:
    """One line of :meth:`EventStore.matches`."""

    id: int
    title: str
    status: str  # "open" | "finished"
    created: datetime
    finished: datetime | None
    event_count: int
    last_event_at: datetime | None


def default_title(header: Event) -> str:
    """The header's "title", else "청룡 대 백호" from its team names, else ""."""
    title = header.get("title")
    if isinstance(title, str) and title.strip():
        return title.strip()
    teams = header.get("teams")
    if isinstance(teams, list):
        names = [t["name"] for t in teams if isinstance(t, dict) and isinstance(t.get("name"), str)]
        if names:
            return " 대 ".join(names)
    return ""


def check_header(header: object) -> Event:
    """A match header: a JSON object with ``"type": "match"`` (the .yutlog line 1)."""
    checked = jsonvalue.check_object(header, "match header")
    if checked["type"] != "match":
        raise InvalidEventError(f'match header must have "type": "match", got {checked["type"]!r}')
    return checked


def decode_row(text: str, match_id: int, seq: int) -> Event:
    # Rows were checked when written (and json_valid by the schema): plain json.loads.
    value = json.loads(text)
    if not isinstance(value, dict):
        raise SchemaError(f"match {match_id} event #{seq} is not a JSON object: {text[:80]}")
    return value


class PreviousEvents(Sequence[Event]):
    """The events before the one being checked, read lazily inside the write transaction.

    ``len()`` costs nothing; items are decoded on access, a fresh copy each time, so a
    check that keeps its own state pays nothing and one that mutates what it reads
    cannot corrupt anything. Usable only while the check runs.
    """

    def __init__(self, conn: sqlite3.Connection, match_id: int, count: int) -> None:
        self._conn: sqlite3.Connection | None = conn
        self._match_id = match_id
        self._count = count
        self._texts: list[str] | None = None

    def expire(self) -> None:
        self._conn = None
        self._texts = None

    def _all(self) -> list[str]:
        if self._conn is None:
            raise StoreClosedError("previous events are readable only during the check")
        if self._texts is None:
            self._texts = [
                row[0]
                for row in self._conn.execute(
                    "SELECT body FROM events WHERE match_id = ? ORDER BY seq", (self._match_id,)
                )
            ]
        return self._texts

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> list[Event]: ...

    def __getitem__(self, index: int | slice) -> Event | list[Event]:
        texts = self._all()
        if isinstance(index, slice):
            positions = range(*index.indices(len(texts)))
            return [decode_row(texts[i], self._match_id, i + 1) for i in positions]
        position = index + len(texts) if index < 0 else index
        if not 0 <= position < len(texts):
            raise IndexError(f"event index {index} out of range ({len(texts)} events)")
        return decode_row(texts[position], self._match_id, position + 1)

    def __iter__(self) -> Iterator[Event]:
        texts = self._all()
        return (decode_row(t, self._match_id, i) for i, t in enumerate(texts, start=1))
