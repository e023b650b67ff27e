"""The durable event store: one SQLite file holding matches and their event logs.

Every event is appended in its own ``BEGIN IMMEDIATE … COMMIT`` transaction with
``journal_mode=WAL`` and ``synchronous=FULL``, so when :meth:`EventStore.append`
returns the event is on disk. A refused event (bad JSON, the caller's ``check``
raising, a stale ``expect_seq``, an unknown or finished match) rolls back and leaves
the file exactly as it was.

One connection guarded by a lock serves all threads (and gevent greenlets, whose
monkey-patched lock is greenlet-aware). Other processes may open the same file;
``BEGIN IMMEDIATE`` plus a busy timeout serialises writers.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from yut_cam.store import jsonvalue
from yut_cam.store.errors import (
    EventRefusedError,
    InvalidEventError,
    MatchFinishedError,
    SchemaError,
    SeqConflictError,
    StorageError,
    StoreClosedError,
    UnknownMatchError,
)
from yut_cam.store.files import fsync_dir
from yut_cam.store.records import (
    MatchSummary,
    PreviousEvents,
    StoredEvent,
    at,
    check_header,
    decode_row,
    default_title,
    utc,
)
from yut_cam.store.schema import SCHEMA_VERSION, current_version, migrate

Event = dict[str, Any]
Check = Callable[[Sequence[Event], Event], None]
_T = TypeVar("_T")

BUSY_TIMEOUT_MS = 10_000


def _clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class EventStore:
    """Matches and their append-only event logs in one SQLite file.

    ``EventStore(path)`` creates the file (and its directory) and migrates the schema;
    with ``create=False`` a missing file is an error instead; ``readonly=True`` opens an
    existing, up-to-date store for reading only (``record list``/``export`` next to a
    running service, or a store owned by another user). ``now`` supplies wall time
    (unix seconds) for ``created`` / ``recorded_at``; tests hand in a fake.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        create: bool = True,
        readonly: bool = False,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._now = now
        self._lock = threading.RLock()
        if not self.path.exists():
            if readonly or not create:
                raise SchemaError(f"no store at {str(self.path)!r}")
            self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(
            f"{self.path.resolve().as_uri()}?mode=ro" if readonly else str(self.path),
            uri=readonly,
            isolation_level=None,  # we issue BEGIN/COMMIT ourselves
            check_same_thread=False,  # guarded by self._lock
            timeout=BUSY_TIMEOUT_MS / 1000,
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA foreign_keys = ON")
            if readonly:
                self.schema_version = current_version(conn)
                if self.schema_version != SCHEMA_VERSION:
                    raise SchemaError(
                        f"{str(self.path)!r} is at schema version {self.schema_version}, "
                        f"this yut-cam uses {SCHEMA_VERSION}; open it writable to migrate"
                    )
            else:
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if str(mode).lower() != "wal":
                    raise SchemaError(f"{str(self.path)!r}: cannot use WAL journal (got {mode!r})")
                conn.execute("PRAGMA synchronous = FULL")
                self.schema_version = migrate(conn, now=now())
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise SchemaError(f"{str(self.path)!r} is not a usable yut-cam store: {exc}") from exc
        except BaseException:
            conn.close()
            raise
        self._conn: sqlite3.Connection | None = conn

    # -- lifecycle -------------------------------------------------------------------

    def close(self) -> None:
        """Close the connection; calling it again does nothing."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    @property
    def closed(self) -> bool:
        return self._conn is None

    def __enter__(self) -> EventStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreClosedError(f"store {str(self.path)!r} is closed")
        return self._conn

    def _write(self, body: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``body`` in one immediate transaction; COMMIT (durable) or ROLLBACK."""
        with self._lock:
            conn = self._db()
            if self.readonly:
                raise StorageError(f"store {str(self.path)!r} is open read-only")
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    result = body(conn)
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise StorageError(f"could not write to {str(self.path)!r}: {exc}") from exc
            return result

    # -- writing ---------------------------------------------------------------------

    def create_match(
        self,
        header: Event,
        *,
        title: str | None = None,
        events: Sequence[Event] = (),
        finished: bool = False,
    ) -> int:
        """Record a new match (durably) and return its id.

        ``events`` are stored with it in the same transaction (used by import): all of
        them or nothing. ``finished=True`` stores it as a finished record.
        """
        header_text = jsonvalue.encode(check_header(header))
        bodies = [
            jsonvalue.encode(jsonvalue.check_object(e, f"event #{i}"))
            for i, e in enumerate(events, start=1)
        ]
        if title is not None and not isinstance(title, str):
            raise InvalidEventError(f"match title must be text, got {title!r}")
        name = default_title(header) if title is None else title

        def body(conn: sqlite3.Connection) -> int:
            stamp = self._now()
            cursor = conn.execute(
                "INSERT INTO matches (created, header, status, title) VALUES (?, ?, 'open', ?)",
                (stamp, header_text, name),
            )
            match_id = cursor.lastrowid
            assert match_id is not None
            conn.executemany(
                "INSERT INTO events (match_id, seq, body, recorded_at) VALUES (?, ?, ?, ?)",
                [(match_id, seq, text, stamp) for seq, text in enumerate(bodies, start=1)],
            )
            if finished:
                conn.execute(
                    "UPDATE matches SET status = 'finished', finished = ? WHERE id = ?",
                    (stamp, match_id),
                )
            return match_id

        return self._write(body)

    def append(
        self,
        match_id: int,
        event: Event,
        *,
        check: Check | None = None,
        expect_seq: int | None = None,
    ) -> int:
        """Append one event and return its seq (1, 2, …) once it is durable.

        Refusals write nothing: :class:`InvalidEventError` (not a JSON object with a
        "type"), :class:`UnknownMatchError`, :class:`MatchFinishedError`,
        :class:`SeqConflictError` (``expect_seq`` given and the last seq differs),
        :class:`EventRefusedError` (``check(previous_events, event)`` raised; the
        original exception is its ``__cause__``). ``check`` runs inside the write
        transaction, so no other writer can slip in between check and write; it gets
        fresh copies decoded from the store and must not block for long.
        """
        text = jsonvalue.encode(jsonvalue.check_object(event))

        def body(conn: sqlite3.Connection) -> int:
            last = self._last_seq_locked(conn, match_id, for_append=True)
            if expect_seq is not None and last != expect_seq:
                raise SeqConflictError(match_id, expect_seq, last)
            if check is not None:
                previous = PreviousEvents(conn, match_id, last)
                try:
                    check(previous, json.loads(text))
                except Exception as exc:
                    raise EventRefusedError(
                        f"match {match_id}: event refused: {exc} (event: {_clip(text)})"
                    ) from exc
                finally:
                    previous.expire()
            seq = last + 1
            conn.execute(
                "INSERT INTO events (match_id, seq, body, recorded_at) VALUES (?, ?, ?, ?)",
                (match_id, seq, text, self._now()),
            )
            return seq

        return self._write(body)

    def finish(self, match_id: int) -> None:
        """Mark a match finished (no more events). Finishing it again does nothing."""

        def body(conn: sqlite3.Connection) -> None:
            self._status(conn, match_id)
            conn.execute(
                "UPDATE matches SET status = 'finished', finished = ? "
                "WHERE id = ? AND status = 'open'",
                (self._now(), match_id),
            )

        self._write(body)

    def set_title(self, match_id: int, title: str) -> None:
        """Change the display title of a match."""

        if not isinstance(title, str):
            raise InvalidEventError(f"match title must be text, got {title!r}")

        def body(conn: sqlite3.Connection) -> None:
            self._status(conn, match_id)
            conn.execute("UPDATE matches SET title = ? WHERE id = ?", (title, match_id))

        self._write(body)

    # -- reading ---------------------------------------------------------------------

    def header(self, match_id: int) -> Event:
        with self._lock:
            conn = self._db()
            self._status(conn, match_id)
            row = conn.execute("SELECT header FROM matches WHERE id = ?", (match_id,)).fetchone()
        header: Event = json.loads(row[0])
        return header

    def events(self, match_id: int, *, after: int = 0) -> list[Event]:
        """The match's events in order (those with seq > ``after``)."""
        with self._lock:
            conn = self._db()
            self._status(conn, match_id)
            rows = self._rows(conn, match_id, after)
        return [decode_row(text, match_id, seq) for seq, text, _ in rows]

    def records(self, match_id: int, *, after: int = 0) -> list[StoredEvent]:
        """Events with their seq and recorded-at time (those with seq > ``after``)."""
        with self._lock:
            conn = self._db()
            self._status(conn, match_id)
            rows = self._rows(conn, match_id, after)
        return [
            StoredEvent(seq, decode_row(text, match_id, seq), at(stamp))
            for seq, text, stamp in rows
        ]

    def last_seq(self, match_id: int) -> int:
        """Seq of the last event (0 when the match has none)."""
        with self._lock:
            return self._last_seq_locked(self._db(), match_id)

    def status(self, match_id: int) -> str:
        """ "open" or "finished"."""
        with self._lock:
            return self._status(self._db(), match_id)

    def last_event_wall_time(self, match_id: int) -> datetime | None:
        """UTC wall time the last event was recorded (None: no events yet).

        On restart, ``now - last_event_wall_time`` is the gap while the service was down.
        """
        with self._lock:
            conn = self._db()
            self._status(conn, match_id)
            row = conn.execute(
                "SELECT recorded_at FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1",
                (match_id,),
            ).fetchone()
        return None if row is None else utc(row[0])

    _SUMMARY_SQL = (
        "SELECT m.id, m.title, m.status, m.created, m.finished, "
        "(SELECT COUNT(*) FROM events e WHERE e.match_id = m.id), "
        "(SELECT MAX(recorded_at) FROM events e WHERE e.match_id = m.id) "
        "FROM matches m"
    )

    @staticmethod
    def _summary(r: tuple[Any, ...]) -> MatchSummary:
        return MatchSummary(
            id=r[0],
            title=r[1],
            status=r[2],
            created=at(r[3]),
            finished=utc(r[4]),
            event_count=r[5],
            last_event_at=utc(r[6]),
        )

    def matches(self, *, status: str | None = None) -> list[MatchSummary]:
        """Summaries of all matches (or those with ``status``), oldest first."""
        if status not in (None, "open", "finished"):
            raise ValueError(f"status must be 'open' or 'finished', got {status!r}")
        sql, params = self._SUMMARY_SQL, tuple[str, ...]()
        if status is not None:
            sql, params = sql + " WHERE m.status = ?", (status,)
        with self._lock:
            rows = self._db().execute(sql + " ORDER BY m.id", params).fetchall()
        return [self._summary(r) for r in rows]

    def summary(self, match_id: int) -> MatchSummary:
        """The summary of one match."""
        with self._lock:
            conn = self._db()
            self._status(conn, match_id)
            row = conn.execute(self._SUMMARY_SQL + " WHERE m.id = ?", (match_id,)).fetchone()
        return self._summary(row)

    def unfinished(self) -> list[MatchSummary]:
        """Open matches, oldest first: what the service resumes on start."""
        return self.matches(status="open")

    def backup(self, target: str | Path) -> Path:
        """A consistent copy of the whole store (WAL content included) at ``target``.

        Copying the .sqlite3 file alone while the service runs can miss the newest
        events, which live in the -wal file until a checkpoint; this cannot. The copy
        is written beside ``target`` and renamed into place.
        """
        destination = Path(target)
        if destination.resolve() == self.path.resolve():
            raise StorageError(f"backup target {str(destination)!r} is the store itself")
        destination.parent.mkdir(parents=True, exist_ok=True)
        partial = destination.with_name(f".{destination.name}.partial")
        partial.unlink(missing_ok=True)
        try:
            copy = sqlite3.connect(partial)
            try:
                with self._lock:
                    self._db().backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")
            finally:
                copy.close()
            with open(partial, "rb") as handle:
                os.fsync(handle.fileno())
            os.replace(partial, destination)
        except (sqlite3.Error, OSError) as exc:
            partial.unlink(missing_ok=True)
            raise StorageError(f"could not back up to {str(destination)!r}: {exc}") from exc
        fsync_dir(destination.parent)
        return destination

    # -- helpers (call with the lock held) ---------------------------------------------

    @staticmethod
    def _status(conn: sqlite3.Connection, match_id: int) -> str:
        if not isinstance(match_id, int) or isinstance(match_id, bool):
            raise UnknownMatchError(match_id)
        row = conn.execute("SELECT status FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise UnknownMatchError(match_id)
        return str(row[0])

    def _last_seq_locked(
        self, conn: sqlite3.Connection, match_id: int, *, for_append: bool = False
    ) -> int:
        status = self._status(conn, match_id)
        if for_append and status != "open":
            raise MatchFinishedError(f"match {match_id} is finished; it takes no more events")
        row = conn.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE match_id = ?", (match_id,)
        ).fetchone()
        return int(row[0])

    @staticmethod
    def _rows(conn: sqlite3.Connection, match_id: int, after: int) -> list[tuple[int, str, float]]:
        return conn.execute(
            "SELECT seq, body, recorded_at FROM events WHERE match_id = ? AND seq > ? ORDER BY seq",
            (match_id, after),
        ).fetchall()

    def dump_lines(self, match_id: int) -> list[str]:
        """The match as .yutlog lines (header first), straight from the stored JSON text."""
        with self._lock:
            conn = self._db()
            self._status(conn, match_id)
            header = conn.execute("SELECT header FROM matches WHERE id = ?", (match_id,)).fetchone()
            rows = self._rows(conn, match_id, 0)
        return [jsonvalue.one_line(header[0])] + [jsonvalue.one_line(text) for _, text, _ in rows]

