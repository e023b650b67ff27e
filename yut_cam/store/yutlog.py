"""Reading and writing ``.yutlog`` match records (JSON Lines, UTF-8; DESIGN.md "Contracts").

Line 1 is the match header (``{"v":1,"type":"match",...}``), each further line one event
(a JSON object with a "type"). Generic on purpose: which event types exist and whether
the events are legal is the match/rules layer's decision, handed in as ``known_types``
and ``check_all``. Readers take text or an open handle, never a path; the store helpers
:func:`export_match` and :func:`import_match` do the file handling.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from yut_cam.store import jsonvalue
from yut_cam.store.errors import ImportRefusedError, InvalidEventError, YutlogError
from yut_cam.store.files import atomic_write_bytes

if TYPE_CHECKING:
    from yut_cam.store.events import EventStore

Event = dict[str, Any]
SUPPORTED_VERSION = 1
CheckAll = Callable[[Event, Sequence[Event]], None]


def _text_of(source: str | bytes | IO[str] | IO[bytes]) -> str:
    data: str | bytes = source if isinstance(source, str | bytes) else source.read()
    if isinstance(data, bytes):
        raw = data
        try:
            data = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise YutlogError(line, f"not UTF-8 text (byte {raw[exc.start]:#04x})") from None
    return data.removeprefix("\ufeff")


def _parse_line(number: int, line: str) -> Event:
    try:
        value = jsonvalue.decode(line)
    except json.JSONDecodeError as exc:
        raise YutlogError(number, f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    except ValueError as exc:
        raise YutlogError(number, f"not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise YutlogError(number, f"not a JSON object: {line.strip()[:80]}")
    return value


def read_yutlog(
    source: str | bytes | IO[str] | IO[bytes],
    *,
    known_types: Collection[str] | None = None,
) -> tuple[Event, list[Event]]:
    """Parse a record into ``(header, events)``.

    ``source`` is the text itself (str/bytes) or an open handle. Blank lines are
    skipped but counted, so messages name the line an editor shows. With
    ``known_types`` an event of any other type is an error.
    """
    text = _text_of(source)
    header: Event | None = None
    events: list[Event] = []
    # JSON Lines: only "\n" ends a line (str.splitlines would also split on U+2028 …).
    for number, raw_line in enumerate(text.split("\n"), start=1):
        line = raw_line.removesuffix("\r")
        if not line.strip():
            continue
        value = _parse_line(number, line)
        if header is None:
            if value.get("type") != "match":
                raise YutlogError(
                    number, f'not a match header (expected "type": "match"): {line.strip()[:80]}'
                )
            version = value.get("v", SUPPORTED_VERSION)
            if version != SUPPORTED_VERSION:
                raise YutlogError(
                    number,
                    f"record version {version!r} is not supported (this yut-cam reads "
                    f"v{SUPPORTED_VERSION})",
                )
            header = value
            continue
        kind = value.get("type")
        if not isinstance(kind, str) or not kind.strip():
            raise YutlogError(number, f'event has no "type": {line.strip()[:80]}')
        if known_types is not None and kind not in known_types:
            raise YutlogError(
                number, f"unknown event type {kind!r} (known: {', '.join(sorted(known_types))})"
            )
        events.append(value)
    if header is None:
        raise YutlogError(0, "empty record: no match header line")
    return header, events


def dumps_yutlog(header: Event, events: Iterable[Event]) -> str:
    """The record as text: header line then one line per event, each ending in \\n."""
    from yut_cam.store.records import check_header

    lines = [jsonvalue.encode(check_header(header))]
    for index, event in enumerate(events, start=1):
        try:
            lines.append(jsonvalue.encode(jsonvalue.check_object(event)))
        except InvalidEventError as exc:
            raise InvalidEventError(f"event #{index}: {exc}") from None
    return "\n".join(lines) + "\n"


def write_yutlog(header: Event, events: Iterable[Event], handle: IO[str]) -> None:
    """Write the record to an open text handle (open it with ``encoding="utf-8"``)."""
    handle.write(dumps_yutlog(header, events))


def export_match(store: EventStore, match_id: int, path: str | Path) -> Path:
    """Write a stored match to ``path`` atomically (a crash leaves no half file)."""
    text = "".join(line + "\n" for line in store.dump_lines(match_id))
    target = Path(path)
    atomic_write_bytes(target, text.encode("utf-8"))
    return target


def load_record(
    path: str | Path,
    *,
    check_all: CheckAll | None = None,
    known_types: Collection[str] | None = None,
) -> tuple[Event, list[Event]]:
    """Read and validate a .yutlog file without touching any store.

    Errors name the file and line (:class:`YutlogError`); ``check_all(header, events)``
    raising becomes :class:`ImportRefusedError` quoting its message.
    """
    source = Path(path)
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise YutlogError(0, f"cannot read it: {exc.strerror or exc}", str(source)) from None
    try:
        header, events = read_yutlog(data, known_types=known_types)
    except YutlogError as exc:
        raise YutlogError(exc.line, exc.problem, source.name) from None
    if check_all is not None:
        try:
            check_all(header, events)
        except Exception as exc:
            raise ImportRefusedError(f"{source.name}: record refused: {exc}") from exc
    return header, events


def import_match(
    store: EventStore,
    path: str | Path,
    *,
    check_all: CheckAll | None = None,
    known_types: Collection[str] | None = None,
    finished: bool = True,
    title: str | None = None,
) -> int:
    """Read a .yutlog file into the store as a new match and return its id.

    ``check_all(header, events)`` validates the whole record first (raise to refuse:
    :class:`ImportRefusedError`). Nothing is written unless everything passes; the
    header and all events go in one transaction. ``finished=True`` (default) stores it
    as a finished record so the service does not resume it as a live match.
    """
    header, events = load_record(path, check_all=check_all, known_types=known_types)
    return store.create_match(header, events=events, finished=finished, title=title)
