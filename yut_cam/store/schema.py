"""Schema of the event store and its migrations.

Each migration is a version number, a description and a tuple of SQL statements
(no ``executescript``: it would commit halfway). All pending migrations run in one
``BEGIN IMMEDIATE`` transaction, so a crash leaves the store at the old version.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass

from yut_cam.store.errors import SchemaError


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "matches and their events",
        (
            """CREATE TABLE matches (
                id INTEGER PRIMARY KEY,
                created REAL NOT NULL,
                header TEXT NOT NULL CHECK (json_valid(header)),
                status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished')),
                title TEXT NOT NULL DEFAULT '',
                finished REAL
            )""",
            """CREATE TABLE events (
                match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE RESTRICT,
                seq INTEGER NOT NULL CHECK (seq >= 1),
                body TEXT NOT NULL CHECK (json_valid(body)),
                recorded_at REAL NOT NULL,
                PRIMARY KEY (match_id, seq)
            ) WITHOUT ROWID""",
            # Defence in depth for other writers: seqs are contiguous, events are never
            # rewritten or deleted, a finished match takes no more events.
            """CREATE TRIGGER events_contiguous BEFORE INSERT ON events
               WHEN NEW.seq <> (SELECT COALESCE(MAX(seq), 0) + 1 FROM events
                                WHERE match_id = NEW.match_id)
               BEGIN SELECT RAISE(ABORT, 'event seq is not the next one'); END""",
            """CREATE TRIGGER events_open_match BEFORE INSERT ON events
               WHEN (SELECT status FROM matches WHERE id = NEW.match_id) = 'finished'
               BEGIN SELECT RAISE(ABORT, 'match is finished'); END""",
            """CREATE TRIGGER events_no_update BEFORE UPDATE ON events
               BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""",
            """CREATE TRIGGER events_no_delete BEFORE DELETE ON events
               BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""",
            "CREATE INDEX matches_status ON matches(status, id)",
        ),
    ),
)

SCHEMA_VERSION = MIGRATIONS[-1].version


def current_version(conn: sqlite3.Connection) -> int:
    """Version of an open database: 0 for an empty file."""
    tables = {
        row[0]
        for row in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")
    }
    if "schema_version" not in tables:
        if tables:
            raise SchemaError(
                f"not a yut-cam store: it has tables {sorted(tables)} but no schema_version"
            )
        return 0
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def migrate(
    conn: sqlite3.Connection,
    migrations: Sequence[Migration] = MIGRATIONS,
    *,
    now: float | None = None,
) -> int:
    """Bring the database up to the last migration; returns the version reached.

    ``conn`` must be in autocommit mode (``isolation_level=None``).
    """
    latest = migrations[-1].version if migrations else 0
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = current_version(conn)
        if version > latest:
            raise SchemaError(
                f"store is at schema version {version}, newer than this yut-cam "
                f"understands ({latest}); upgrade yut-cam"
            )
        if version == 0:
            conn.execute(
                "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, "
                "description TEXT NOT NULL, applied_at REAL NOT NULL)"
            )
        stamp = time.time() if now is None else now
        for migration in migrations:
            if migration.version <= version:
                continue
            for statement in migration.statements:
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.description, stamp),
            )
            version = migration.version
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return version
