""".yutlog read/write and export/import between the store and files."""

from __future__ import annotations

import io
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.store.conftest import HEADER, snapshot
from yut_cam.store import (
    EventStore,
    ImportRefusedError,
    InvalidEventError,
    UnknownMatchError,
    YutlogError,
    dumps_yutlog,
    export_match,
    import_match,
    read_yutlog,
    write_yutlog,
)

GOOD = (
    '{"v":1,"type":"match","rules":"official","teams":[{"name":"청룡"},{"name":"백호"}],"first":0}\n'
    '{"type":"throw","team":0,"result":"모"}\n'
    '{"type":"throw","team":0,"result":"개"}\n'
    '{"type":"move","team":0,"result":"모","piece":0}\n'
    '{"type":"move","team":0,"result":"개","piece":0,"to":"모개"}\n'
    '{"type":"time_up"}\n'
)
KNOWN = {"throw", "move", "time_up"}


def test_reads_the_design_example() -> None:
    header, events = read_yutlog(GOOD, known_types=KNOWN)
    assert header["teams"][0]["name"] == "청룡"
    assert [e["type"] for e in events] == ["throw", "throw", "move", "move", "time_up"]
    assert events[3]["to"] == "모개"


@pytest.mark.parametrize(
    "source",
    [GOOD.encode(), io.StringIO(GOOD), io.BytesIO(GOOD.encode()), "\ufeff" + GOOD,
     GOOD.replace("\n", "\r\n"), GOOD + "\n\n"],
    ids=["bytes", "text handle", "binary handle", "BOM", "CRLF", "trailing blank lines"],
)
def test_reads_any_source(source: Any) -> None:
    assert read_yutlog(source) == read_yutlog(GOOD)


BROKEN: list[tuple[str, str, int, str]] = [
    # (case, text, line, message fragment)
    ("empty", "", 0, "no match header"),
    ("blank only", "\n  \n", 0, "no match header"),
    ("event first", '{"type":"throw"}\n', 1, "not a match header"),
    ("header not object", "[1]\n", 1, "not a JSON object"),
    ("header bad json", '{"type":"match"\n', 1, "not valid JSON"),
    ("version 2", '{"v":2,"type":"match"}\n', 1, "version 2 is not supported"),
    ("bad json line 3", '{"type":"match"}\n{"type":"throw"}\n{"type": oops}\n', 3, "not valid JSON"),
    ("truncated last line", GOOD[:-10], 6, "not valid JSON"),
    ("no type", '{"type":"match"}\n{"team":0}\n', 2, 'no "type"'),
    ("array event", '{"type":"match"}\n\n["throw"]\n', 3, "not a JSON object"),
    ("NaN", '{"type":"match"}\n{"type":"throw","t":NaN}\n', 2, "NaN is not a JSON number"),
    ("duplicate key", '{"type":"match"}\n{"type":"throw","team":0,"team":1}\n', 2, "duplicate key"),
    ("unknown type", '{"type":"match"}\n{"type":"throw"}\n{"type":"dance"}\n', 3, "unknown event type 'dance'"),
]


@pytest.mark.parametrize(
    ("text", "line", "message"), [c[1:] for c in BROKEN], ids=[c[0] for c in BROKEN]
)
def test_broken_records_name_the_line(text: str, line: int, message: str) -> None:
    with pytest.raises(YutlogError, match=message) as caught:
        read_yutlog(text, known_types=KNOWN)
    assert caught.value.line == line
    if line:
        assert str(caught.value).startswith(f"line {line}: ")


def test_invalid_utf8_names_the_line() -> None:
    data = GOOD.encode().replace("개".encode(), b"\xff\xfe", 1)
    with pytest.raises(YutlogError, match="line 3: not UTF-8") as caught:
        read_yutlog(data)
    assert caught.value.line == 3


def test_write_is_utf8_one_line_per_event() -> None:
    header, events = read_yutlog(GOOD)
    out = io.StringIO()
    write_yutlog(header, events, out)
    assert out.getvalue() == GOOD  # compact separators, Korean kept as is
    with pytest.raises(InvalidEventError, match="event #2"):
        dumps_yutlog(header, [events[0], {"no": "type"}])


# -- export / import ------------------------------------------------------------------------


def test_export_import_round_trip(store: EventStore, tmp_path: Path) -> None:
    header, events = read_yutlog(GOOD)
    match_id = store.create_match(header)
    for event in events:
        store.append(match_id, event)
    path = export_match(store, match_id, tmp_path / "out" / "m.yutlog")
    assert path.read_text(encoding="utf-8") == GOOD
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]
    copy = import_match(store, path)
    assert copy != match_id
    assert store.header(copy) == header and store.events(copy) == events
    assert store.status(copy) == "finished"  # an imported record is not resumed as live
    opened = import_match(store, path, finished=False, title="재경기")
    assert [m.id for m in store.unfinished()] == [match_id, opened]


def test_export_unknown_match_writes_no_file(store: EventStore, tmp_path: Path) -> None:
    with pytest.raises(UnknownMatchError):
        export_match(store, 9, tmp_path / "m.yutlog")
    assert list(tmp_path.iterdir()) == [tmp_path / "var"]


@pytest.mark.parametrize(("text", "line", "message"), [c[1:] for c in BROKEN[:-1]],
                         ids=[c[0] for c in BROKEN[:-1]])
def test_import_of_broken_file_writes_nothing(
    store: EventStore, db_path: Path, tmp_path: Path, text: str, line: int, message: str
) -> None:
    store.create_match(HEADER)
    before = snapshot(db_path)
    path = tmp_path / "broken.yutlog"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(YutlogError, match=message) as caught:
        import_match(store, path)
    assert str(caught.value).startswith("broken.yutlog: ")
    assert caught.value.line == line
    assert snapshot(db_path) == before


def test_import_refused_by_check_all_writes_nothing(
    store: EventStore, db_path: Path, tmp_path: Path
) -> None:
    path = tmp_path / "m.yutlog"
    path.write_text(GOOD, encoding="utf-8")
    before = snapshot(db_path)
    seen: list[int] = []

    def check_all(header: dict[str, Any], events: Sequence[dict[str, Any]]) -> None:
        seen.append(len(events))
        raise ValueError("line 5: 개 cannot reach 모개 from 모도")

    with pytest.raises(ImportRefusedError, match="m.yutlog: record refused: line 5: 개"):
        import_match(store, path, check_all=check_all)
    assert seen == [5]
    assert snapshot(db_path) == before
    with pytest.raises(YutlogError, match="unknown event type 'time_up'"):
        import_match(store, path, known_types={"throw", "move"})
    assert snapshot(db_path) == before


def test_import_of_missing_file(store: EventStore, tmp_path: Path) -> None:
    with pytest.raises(YutlogError, match="cannot read it"):
        import_match(store, tmp_path / "nope.yutlog")


# -- property: arbitrary JSON-able events round-trip ---------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
events_strategy = st.lists(
    st.builds(
        lambda kind, extra: {**extra, "type": kind},
        st.text(min_size=1).filter(lambda s: s.strip() != ""),
        st.dictionaries(st.text(), json_values, max_size=4),
    ),
    max_size=8,
)


@pytest.fixture(scope="module")
def shared_store() -> Iterator[tuple[EventStore, Path]]:
    with tempfile.TemporaryDirectory() as tmp:
        with EventStore(Path(tmp) / "p.sqlite3") as store:
            yield store, Path(tmp)


@settings(max_examples=60, deadline=None)
@given(events=events_strategy, team=st.text(min_size=1))
def test_any_json_events_round_trip_through_store_and_file(
    shared_store: tuple[EventStore, Path], events: list[dict[str, Any]], team: str
) -> None:
    store, tmp = shared_store
    header = {**HEADER, "teams": [{"name": team}, {"name": "백호"}]}
    match_id = store.create_match(header)
    for event in events:
        store.append(match_id, event)
    assert store.events(match_id) == events
    path = export_match(store, match_id, tmp / "p.yutlog")
    assert read_yutlog(path.read_bytes()) == (header, events)
    copy = import_match(store, path)
    assert (store.header(copy), store.events(copy)) == (header, events)


def test_line_separators_inside_strings_stay_on_one_line() -> None:
    header = {**HEADER, "teams": [{"name": "청\u2028룡\x85"}, {"name": "백\u2029호"}]}
    events = [{"type": "note", "text": "a\u2028b\nc\rd"}]
    text = dumps_yutlog(header, events)
    assert len(text.splitlines()) == 2  # even naive readers see one record per line
    assert read_yutlog(text) == (header, events)
