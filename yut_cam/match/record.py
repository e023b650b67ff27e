"""Reading and replaying ``.yutlog`` records (JSON Lines; line 1 is the header).

The parser takes a string or an open text handle; it never opens files itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from yut_cam.match import events as ev
from yut_cam.match.errors import MatchError, RecordFormatError
from yut_cam.match.roster import Header
from yut_cam.match.state import MatchState, apply, start_state


@dataclass(frozen=True, slots=True)
class Record:
    header: dict[str, Any]
    events: tuple[dict[str, Any], ...]
    #: the line number of each event in the source (blank lines are skipped but counted)
    lines: tuple[int, ...] = ()


def read_record(source: str | IO[str] | Iterable[str]) -> Record:
    """Parse a record's lines into the header and event objects (not yet validated)."""
    # split on \n only: U+2028 and friends may stand inside JSON strings
    lines = source.split("\n") if isinstance(source, str) else source
    header: dict[str, Any] | None = None
    events: list[dict[str, Any]] = []
    numbers: list[int] = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordFormatError(f"not valid JSON: {exc.msg} (column {exc.colno})", line=number) from None
        if not isinstance(obj, dict):
            raise RecordFormatError(f"each line must be a JSON object, not {text[:40]!r}", line=number)
        if header is None:
            if obj.get("type") != "match":
                raise RecordFormatError('the first line must be the match header {"type":"match", ...}', line=number)
            header = obj
        else:
            events.append(obj)
            numbers.append(number)
    if header is None:
        raise RecordFormatError("empty record: no match header", line=1)
    return Record(header, tuple(events), tuple(numbers))


def replay(
    header: dict[str, Any] | Header, events: Sequence[dict[str, Any]], lines: Sequence[int] = ()
) -> MatchState:
    """The state after every event, or a :class:`MatchError` located at the failing line
    (``lines`` gives each event's line number; by default events follow the header)."""
    parsed = header if isinstance(header, Header) else _header(header)
    state = start_state(parsed)
    for index, raw in enumerate(events):
        try:
            state = apply(state, ev.parse_event(raw))
        except MatchError as exc:
            line = lines[index] if index < len(lines) else index + 2
            raise exc.at_line(line, raw) from None
    return state


def _header(data: dict[str, Any]) -> Header:
    try:
        return Header.from_json(data)
    except MatchError as exc:
        raise exc.at_line(1, data) from None


def replay_text(source: str | IO[str] | Iterable[str]) -> MatchState:
    record = read_record(source)
    return replay(record.header, record.events, record.lines)


def validate_record(header: dict[str, Any], events: Sequence[dict[str, Any]]) -> MatchState:
    """Raise :class:`MatchError` (a ValueError) if the record is malformed or illegal."""
    return replay(header, events)


def dumps_event(event: dict[str, Any]) -> str:
    """One record line: UTF-8 JSON, Korean kept readable."""
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))
