"""EventStore: schema and migrations, append/read, refusals that change nothing."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import threading
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.store.conftest import HEADER, FakeWallClock, snapshot
from yut_cam.store import (
    EventRefusedError,
    EventStore,
    InvalidEventError,
    MatchFinishedError,
    SchemaError,
    SeqConflictError,
    StorageError,
    StoreClosedError,
    StoreError,
    UnknownMatchError,
)
from yut_cam.store import events as events_module
from yut_cam.store.schema import MIGRATIONS, SCHEMA_VERSION, Migration, migrate

THROWS = [
    {"type": "throw", "team": 0, "result": "모", "t": 3.5},
    {"type": "throw", "team": 0, "result": "개", "t": 7.25},
    {"type": "move", "team": 0, "result": "모", "piece": 0},
    {"type": "move", "team": 0, "result": "개", "piece": 0, "to": "모개"},
]


# -- schema ------------------------------------------------------------------------------


def test_new_store_has_wal_full_sync_foreign_keys_and_version(store: EventStore) -> None:
    conn = store._db()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert store.schema_version == SCHEMA_VERSION
    rows = conn.execute("SELECT version FROM schema_version").fetchall()
    assert [r[0] for r in rows] == [m.version for m in MIGRATIONS]


def test_reopening_keeps_data_and_does_not_migrate_again(db_path: Path) -> None:
    with EventStore(db_path) as first:
        match_id = first.create_match(HEADER)
        first.append(match_id, THROWS[0])
    before = snapshot(db_path)
    with EventStore(db_path) as second:
        assert second.events(match_id) == [THROWS[0]]
    assert snapshot(db_path) == before


def test_migration_step_upgrades_an_old_store_in_place(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "s.sqlite3", isolation_level=None)
    assert migrate(conn, MIGRATIONS, now=1.0) == 1
    conn.execute(
        "INSERT INTO matches (created, header, title) VALUES (1.0, '{\"type\":\"match\"}', 'x')"
    )
    later = (*MIGRATIONS, Migration(2, "notes", ("ALTER TABLE matches ADD COLUMN notes TEXT",)))
    assert migrate(conn, later, now=2.0) == 2
    assert conn.execute("SELECT title, notes FROM matches").fetchall() == [("x", None)]
    assert conn.execute("SELECT version, applied_at FROM schema_version").fetchall() == [
        (1, 1.0),
        (2, 2.0),
    ]
    conn.close()


def test_failed_migration_leaves_the_old_version(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, MIGRATIONS)
    before = snapshot(path)
    broken = (*MIGRATIONS, Migration(2, "bad", ("CREATE TABLE t (a)", "THIS IS NOT SQL")))
    with pytest.raises(sqlite3.OperationalError):
        migrate(conn, broken)
    conn.close()
    assert snapshot(path) == before


def test_store_from_a_newer_yut_cam_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, (*MIGRATIONS, Migration(99, "future", ())))
    conn.close()
    with pytest.raises(SchemaError, match="schema version 99, newer"):
        EventStore(path)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"this is not a database at all, just text" * 40, "not a usable yut-cam store"),
        (None, "not a yut-cam store"),  # an SQLite file of someone else
    ],
)
def test_foreign_files_are_refused(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "other.sqlite3"
    if content is None:
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE photos (id)")
        conn.commit()
        conn.close()
    else:
        path.write_bytes(content)
    with pytest.raises(SchemaError, match=message):
        EventStore(path)


def test_missing_store_without_create(tmp_path: Path) -> None:
    with pytest.raises(SchemaError, match="no store at"):
        EventStore(tmp_path / "nope.sqlite3", create=False)
    assert not (tmp_path / "nope.sqlite3").exists()


# -- writing and reading -------------------------------------------------------------------


def test_append_and_read_back(store: EventStore, clock: FakeWallClock) -> None:
    match_id = store.create_match(HEADER)
    assert store.last_seq(match_id) == 0
    assert store.last_event_wall_time(match_id) is None
    for expected_seq, event in enumerate(THROWS, start=1):
        clock.now += 10
        assert store.append(match_id, event, expect_seq=expected_seq - 1) == expected_seq
    assert store.header(match_id) == HEADER
    assert store.events(match_id) == THROWS
    assert store.events(match_id, after=2) == THROWS[2:]
    records = store.records(match_id)
    assert [r.seq for r in records] == [1, 2, 3, 4]
    assert records[-1].recorded_at == datetime.fromtimestamp(clock.now, tz=timezone.utc)
    assert store.last_event_wall_time(match_id) == records[-1].recorded_at


def test_matches_unfinished_and_finish(store: EventStore, clock: FakeWallClock) -> None:
    first = store.create_match(HEADER)
    second = store.create_match({**HEADER, "teams": [{"name": "주작"}, {"name": "현무"}]})
    store.append(second, THROWS[0])
    assert [(m.id, m.title, m.event_count) for m in store.matches()] == [
        (first, "청룡 대 백호", 0),
        (second, "주작 대 현무", 1),
    ]
    clock.now += 60
    store.finish(first)
    store.finish(first)  # idempotent: keeps the first finishing time
    assert [m.id for m in store.unfinished()] == [second]
    [done] = store.matches(status="finished")
    assert done.finished == datetime.fromtimestamp(clock.now, tz=timezone.utc)
    assert store.status(first) == "finished"
    store.set_title(second, "결승 1경기")
    assert store.unfinished()[0].title == "결승 1경기"


def test_unicode_team_names_round_trip(store: EventStore) -> None:
    header = {**HEADER, "teams": [{"name": "청룡 🐉 Ωmega"}, {"name": "白虎\u00a0팀 \u2028"}]}
    match_id = store.create_match(header)
    event = {"type": "protest", "by": "白虎\u00a0팀 \u2028", "note": "이의제기 — 낙?"}
    store.append(match_id, event)
    assert store.header(match_id) == header
    assert store.events(match_id) == [event]
    assert store.matches()[0].title == "청룡 🐉 Ωmega 대 白虎\u00a0팀 \u2028"


def test_check_hook_sees_previous_events_and_the_new_one(store: EventStore) -> None:
    match_id = store.create_match(HEADER)
    seen: list[tuple[list[dict[str, Any]], dict[str, Any]]] = []

    def check(previous: Sequence[dict[str, Any]], event: dict[str, Any]) -> None:
        seen.append((list(previous), event))

    store.append(match_id, THROWS[0], check=check)
    store.append(match_id, THROWS[1], check=check)
    assert seen == [([], THROWS[0]), ([THROWS[0]], THROWS[1])]


def test_check_hook_previous_events_are_a_lazy_read_only_view(store: EventStore) -> None:
    match_id = store.create_match(HEADER, events=THROWS)
    kept: list[Sequence[dict[str, Any]]] = []

    def check(previous: Sequence[dict[str, Any]], event: dict[str, Any]) -> None:
        assert len(previous) == 4
        assert previous[0] == THROWS[0] and previous[-1] == THROWS[3]
        assert previous[1:3] == THROWS[1:3] and previous[::-1] == THROWS[::-1]
        previous[0]["result"] = "낙"  # a fresh copy: changes nothing
        assert previous[0] == THROWS[0]
        with pytest.raises(IndexError):
            previous[4]
        kept.append(previous)

    store.append(match_id, {"type": "time_up"}, check=check)
    assert store.events(match_id) == [*THROWS, {"type": "time_up"}]
    with pytest.raises(StoreClosedError, match="only during the check"):
        list(kept[0])


def test_stored_event_is_a_copy_not_the_callers_dict(store: EventStore) -> None:
    match_id = store.create_match(HEADER)
    sticks = [1, 2]
    store.append(match_id, {"type": "throw", "sticks": sticks})
    sticks.append(3)
    assert store.events(match_id) == [{"type": "throw", "sticks": [1, 2]}]


# -- refusals change nothing --------------------------------------------------------------


def _refuse(_: Sequence[dict[str, Any]], event: dict[str, Any]) -> None:
    raise ValueError(f"빽도 with no piece on the board: {event['result']}")


BAD_APPENDS: list[tuple[str, object, dict[str, Any], str]] = [
    # (case, event, append kwargs, message fragment)
    ("list", ["throw"], {}, "must be a JSON object"),
    ("string", '{"type":"throw"}', {}, "got str"),
    ("no type", {"team": 0}, {}, 'has no "type"'),
    ("empty type", {"type": " "}, {}, "non-empty text"),
    ("numeric type", {"type": 3}, {}, "non-empty text"),
    ("tuple", {"type": "throw", "sticks": (1, 2)}, {}, "tuple"),
    ("nan", {"type": "throw", "t": float("nan")}, {}, "not a JSON number"),
    ("inf", {"type": "throw", "t": float("inf")}, {}, "not a JSON number"),
    ("int key", {"type": "throw", 1: "x"}, {}, "JSON keys are text"),
    ("set", {"type": "throw", "s": {1}}, {}, "not a JSON value"),
    ("bytes", {"type": "throw", "img": b"\x00"}, {}, "not a JSON value"),
    ("surrogate", {"type": "throw", "by": "\ud800"}, {}, "not valid Unicode"),
    ("check raises", {"type": "move", "result": "빽도"}, {"check": _refuse}, "no piece"),
    ("stale expect_seq", {"type": "throw"}, {"expect_seq": 1}, "expected the last event"),
    ("future expect_seq", {"type": "throw"}, {"expect_seq": 9}, "but it is #2"),
]


@pytest.mark.parametrize(
    ("event", "kwargs", "message"),
    [case[1:] for case in BAD_APPENDS],
    ids=[case[0] for case in BAD_APPENDS],
)
def test_refused_append_changes_nothing(
    store: EventStore, db_path: Path, event: Any, kwargs: dict[str, Any], message: str
) -> None:
    match_id = store.create_match(HEADER)
    store.append(match_id, THROWS[0])
    store.append(match_id, THROWS[1])
    before = snapshot(db_path)
    with pytest.raises(StoreError, match=message):
        store.append(match_id, event, **kwargs)
    assert snapshot(db_path) == before
    assert store.append(match_id, THROWS[2]) == 3  # still usable


def test_refusal_kinds(store: EventStore) -> None:
    match_id = store.create_match(HEADER)
    with pytest.raises(InvalidEventError):
        store.append(match_id, {"no": "type"})
    with pytest.raises(EventRefusedError) as refused:
        store.append(match_id, {"type": "move", "result": "빽도"}, check=_refuse)
    assert isinstance(refused.value.__cause__, ValueError)
    assert "빽도" in str(refused.value)
    with pytest.raises(SeqConflictError) as conflict:
        store.append(match_id, THROWS[0], expect_seq=3)
    assert (conflict.value.expected, conflict.value.actual) == (3, 0)


@pytest.mark.parametrize("match_id", [42, 0, -1, "1", True, None])
def test_unknown_match_changes_nothing(store: EventStore, db_path: Path, match_id: Any) -> None:
    store.create_match(HEADER)
    before = snapshot(db_path)
    with pytest.raises(UnknownMatchError, match="no match"):
        store.append(match_id, THROWS[0])
    for read in (store.events, store.header, store.last_seq, store.finish, store.status):
        with pytest.raises(UnknownMatchError):
            read(match_id)
    assert snapshot(db_path) == before


def test_finished_match_takes_no_events(store: EventStore, db_path: Path) -> None:
    match_id = store.create_match(HEADER)
    store.append(match_id, THROWS[0])
    store.finish(match_id)
    before = snapshot(db_path)
    with pytest.raises(MatchFinishedError, match="finished"):
        store.append(match_id, THROWS[1])
    assert snapshot(db_path) == before


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({"v": 1, "teams": []}, 'has no "type"'),
        ({"v": 1, "type": "throw"}, '"type": "match"'),
        ([1], "must be a JSON object"),
        ({"type": "match", "t": float("nan")}, "not a JSON number"),
    ],
)
def test_bad_header_creates_nothing(
    store: EventStore, db_path: Path, header: Any, message: str
) -> None:
    before = snapshot(db_path)
    with pytest.raises(InvalidEventError, match=message):
        store.create_match(header)
    assert snapshot(db_path) == before


def test_create_match_with_events_is_all_or_nothing(store: EventStore, db_path: Path) -> None:
    before = snapshot(db_path)
    with pytest.raises(InvalidEventError, match="event #3"):
        store.create_match(HEADER, events=[THROWS[0], THROWS[1], {"no": "type"}])
    assert snapshot(db_path) == before
    match_id = store.create_match(HEADER, events=THROWS, finished=True)
    assert store.events(match_id) == THROWS
    assert store.status(match_id) == "finished"


def test_raw_writers_are_held_to_append_only_contiguous_events(
    store: EventStore, db_path: Path
) -> None:
    match_id = store.create_match(HEADER)
    store.append(match_id, THROWS[0])
    conn = sqlite3.connect(db_path)
    try:
        for sql, params in [
            ("INSERT INTO events VALUES (?, 5, '{}', 0)", (match_id,)),
            ("INSERT INTO events VALUES (?, 2, 'not json', 0)", (match_id,)),
            ("INSERT INTO events VALUES (77, 1, '{}', 0)", ()),
            ("UPDATE events SET body = '{}' WHERE match_id = ?", (match_id,)),
            ("DELETE FROM events WHERE match_id = ?", (match_id,)),
        ]:
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute("PRAGMA foreign_keys = ON")
                conn.execute(sql, params)
            conn.rollback()
    finally:
        conn.close()
    assert store.events(match_id) == [THROWS[0]]


# -- lifecycle and concurrency ------------------------------------------------------------


def test_close_is_idempotent_and_closed_store_raises(db_path: Path) -> None:
    store = EventStore(db_path)
    store.close()
    store.close()
    assert store.closed
    with pytest.raises(StoreClosedError, match="closed"):
        store.matches()


def test_threads_appending_get_distinct_contiguous_seqs(store: EventStore) -> None:
    match_id = store.create_match(HEADER)
    seqs: list[int] = []
    lock = threading.Lock()

    def worker(team: int) -> None:
        for n in range(25):
            seq = store.append(match_id, {"type": "throw", "team": team, "n": n})
            with lock:
                seqs.append(seq)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(seqs) == list(range(1, 101))
    events = store.events(match_id)
    for team in range(4):
        assert [e["n"] for e in events if e["team"] == team] == list(range(25))


def test_two_consoles_racing_one_wins_with_expect_seq(db_path: Path) -> None:
    with EventStore(db_path) as console_a, EventStore(db_path) as console_b:
        match_id = console_a.create_match(HEADER)
        seen = console_b.last_seq(match_id)
        console_a.append(match_id, THROWS[0], expect_seq=seen)
        with pytest.raises(SeqConflictError):
            console_b.append(match_id, {"type": "throw", "team": 1}, expect_seq=seen)
        assert console_b.events(match_id) == [THROWS[0]]


def test_readonly_store_reads_live_writes_and_refuses_to_write(db_path: Path) -> None:
    with EventStore(db_path) as writer:
        match_id = writer.create_match(HEADER)
        with EventStore(db_path, readonly=True) as reader:
            writer.append(match_id, THROWS[0])
            assert reader.events(match_id) == [THROWS[0]]
            before = snapshot(db_path)
            with pytest.raises(StorageError, match="read-only"):
                reader.append(match_id, THROWS[1])
            with pytest.raises(StorageError, match="read-only"):
                reader.create_match(HEADER)
            assert snapshot(db_path) == before
    with pytest.raises(SchemaError, match="no store at"):
        EventStore(db_path.parent / "other.sqlite3", readonly=True)


def test_readonly_refuses_a_store_needing_migration(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, (*MIGRATIONS, Migration(2, "later", ())))
    conn.close()
    with pytest.raises(SchemaError, match="schema version 2, this yut-cam uses 1"):
        EventStore(path, readonly=True)


def test_locked_database_is_a_storage_error_and_writes_nothing(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(events_module, "BUSY_TIMEOUT_MS", 50)
    with EventStore(db_path) as store:
        match_id = store.create_match(HEADER)
        other = sqlite3.connect(db_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # another process holding the write lock
            with pytest.raises(StorageError, match="could not write .* locked"):
                store.append(match_id, THROWS[0])
            other.execute("ROLLBACK")
        finally:
            other.close()
        assert store.events(match_id) == []
        assert store.append(match_id, THROWS[0]) == 1


@pytest.mark.parametrize(
    ("header", "title"),
    [
        (HEADER, "청룡 대 백호"),
        ({**HEADER, "title": " 결승 1경기 "}, "결승 1경기"),
        ({**HEADER, "title": ""}, "청룡 대 백호"),
        ({"type": "match"}, ""),
        ({"type": "match", "teams": [{"name": 3}, "x"]}, ""),
    ],
)
def test_default_titles(store: EventStore, header: dict[str, Any], title: str) -> None:
    match_id = store.create_match(header)
    assert [m.title for m in store.matches() if m.id == match_id] == [title]
    other = store.create_match(header, title="준결승")
    assert store.matches()[-1].id == other and store.matches()[-1].title == "준결승"


OPERATIONS = st.lists(
    st.sampled_from(["append", "append_expect", "malformed", "refused", "stale", "read"]),
    max_size=25,
)


@settings(max_examples=40, deadline=None)
@given(ops=OPERATIONS, seed=st.integers(0, 2**16))
def test_any_mix_of_accepted_and_refused_appends_keeps_exactly_the_accepted(
    ops: list[str], seed: int
) -> None:
    with tempfile.TemporaryDirectory() as tmp, EventStore(Path(tmp) / "s.sqlite3") as store:
        match_id = store.create_match(HEADER)
        model: list[dict[str, Any]] = []
        for n, op in enumerate(ops):
            event = {"type": "throw", "team": (seed + n) % 2, "n": n}
            if op == "append":
                assert store.append(match_id, event) == len(model) + 1
                model.append(event)
            elif op == "append_expect":
                assert store.append(match_id, event, expect_seq=len(model)) == len(model) + 1
                model.append(event)
            elif op == "malformed":
                with pytest.raises(InvalidEventError):
                    store.append(match_id, {**event, "type": None})
            elif op == "refused":
                with pytest.raises(EventRefusedError):
                    store.append(match_id, {**event, "result": "빽도"}, check=_refuse)
            elif op == "stale":
                with pytest.raises(SeqConflictError):
                    store.append(match_id, event, expect_seq=len(model) + 1 + seed % 3)
            else:
                assert store.events(match_id) == model
        assert store.events(match_id) == model
        assert [r.seq for r in store.records(match_id)] == list(range(1, len(model) + 1))


def test_backup_includes_events_still_in_the_wal(db_path: Path, tmp_path: Path) -> None:
    with EventStore(db_path) as store:
        match_id = store.create_match(HEADER)
        for event in THROWS:
            store.append(match_id, event)
        store.summary(match_id)
        naive = tmp_path / "naive.sqlite3"
        shutil.copyfile(db_path, naive)  # the main file alone, WAL not checkpointed yet
        copy = store.backup(tmp_path / "usb" / "backup.sqlite3")
    assert copy.is_file() and not list(copy.parent.glob(".*"))
    with EventStore(copy, readonly=True) as restored:
        assert restored.events(match_id) == THROWS
        assert restored.summary(match_id).event_count == 4
    conn = sqlite3.connect(naive)
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_schema")}
        assert "events" not in tables or conn.execute("SELECT COUNT(*) FROM events").fetchone()[0] < 4
    finally:
        conn.close()


def test_backup_onto_the_store_itself_is_refused(store: EventStore, db_path: Path) -> None:
    with pytest.raises(StorageError, match="is the store itself"):
        store.backup(db_path)


def test_summary_of_one_match(store: EventStore, clock: FakeWallClock) -> None:
    match_id = store.create_match(HEADER)
    clock.now += 5
    store.append(match_id, THROWS[0])
    summary = store.summary(match_id)
    assert (summary.id, summary.title, summary.status, summary.event_count) == (
        match_id, "청룡 대 백호", "open", 1,
    )
    assert summary.last_event_at == datetime.fromtimestamp(clock.now, tz=timezone.utc)
    with pytest.raises(UnknownMatchError):
        store.summary(match_id + 1)
