"""Where a recorded match comes from: the live service's store, or a match exported
elsewhere (a ``.yutlog`` file, or a directory holding ``match.yutlog`` and ``captures/``).

A :class:`MatchSource` is the header, the events and the folder of throw captures
(``<captures>/<n>/settled.jpg`` ...; ``n`` as :mod:`yut_cam.replay.timeline` maps it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from yut_cam.store import EventStore

#: Name of the record inside an exported match directory.
RECORD_NAME = "match.yutlog"
CAPTURES_NAME = "captures"
DEFAULT_DB = "var/yut-cam.sqlite3"
DEFAULT_CAPTURES = "var/captures"

#: Clip files a browser plays in <video> as they are.
PLAYABLE = (".mp4", ".webm", ".ogv", ".ogg", ".m4v")
#: Clip files OpenCV can decode into frames for the page's flip-book.
DECODABLE = (".avi", ".mjpeg", ".mjpg", ".mkv", ".mov", ".h264")
_FRAME = re.compile(r"^(?:frame[_-]?)?(\d{1,6})\.(?:jpe?g|png)$", re.IGNORECASE)
_SAFE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$")


class SourceError(ValueError):
    """A match source that cannot be read (the message names the path or id)."""


@dataclass(frozen=True)
class MatchSource:
    header: dict[str, Any]
    events: tuple[dict[str, Any], ...]
    captures: Path | None  # folder holding one sub-folder per throw capture
    label: str  # where it came from, for messages and the page

    def capture_dir(self, n: int) -> Path | None:
        if self.captures is None or n < 1:
            return None
        path = self.captures / str(n)
        return path if path.is_dir() else None

    def capture_numbers(self) -> list[int]:
        if self.captures is None or not self.captures.is_dir():
            return []
        return sorted(int(p.name) for p in self.captures.iterdir()
                      if p.is_dir() and p.name.isdigit() and not p.name.startswith("0"))

    def capture_file(self, n: int, name: str) -> Path | None:
        """A file of capture ``n`` if ``name`` is a plain file name that exists there."""
        folder = self.capture_dir(n)
        if folder is None or not safe_name(name):
            return None
        path = folder / name
        return path if path.is_file() else None


def safe_name(name: str) -> bool:
    return bool(_SAFE.match(name)) and ".." not in name


def clip_of(files: list[str]) -> dict[str, Any] | None:
    """What the page can play of a capture's clip: a video it plays as is, a video the
    server decodes into frames, or an image sequence (frame_0001.jpg ...)."""
    lower = {f.lower(): f for f in files}
    for f in sorted(files):
        if f.lower().endswith(PLAYABLE):
            return {"kind": "video", "file": f}
    for f in sorted(files):
        if f.lower().endswith(DECODABLE):
            return {"kind": "decoded", "file": f}
    frames = sorted((int(m.group(1)), f) for f in files if (m := _FRAME.match(f)) and f.lower() in lower)
    if len(frames) >= 2:
        return {"kind": "frames", "files": [f for _, f in frames]}
    return None


def _read_yutlog(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from yut_cam.store import StoreError, load_record

    try:
        return load_record(path)
    except StoreError as exc:
        raise SourceError(str(exc)) from None


def from_path(path: str | Path) -> MatchSource:
    """A match exported elsewhere: ``FILE.yutlog`` (captures from a ``captures/`` folder
    beside it, if any) or a directory with ``match.yutlog`` (or one ``*.yutlog``) and
    ``captures/``."""
    p = Path(path)
    if p.is_dir():
        record = p / RECORD_NAME
        if not record.is_file():
            found = sorted(p.glob("*.yutlog"))
            if len(found) != 1:
                raise SourceError(
                    f"{str(p)!r} holds no {RECORD_NAME}" + (f" and {len(found)} .yutlog files" if found else "")
                )
            record = found[0]
        folder = p / CAPTURES_NAME
    elif p.is_file():
        record = p
        folder = p.parent / CAPTURES_NAME
    else:
        raise SourceError(f"no such record or directory: {str(p)!r}")
    header, events = _read_yutlog(record)
    return MatchSource(header, tuple(events), folder if folder.is_dir() else None, str(record))


def from_store(db: str | Path, captures: str | Path | None, match_id: int) -> MatchSource:
    """A match of an event store file (opened read only for the call, never created)."""
    from yut_cam.store import EventStore, StoreError

    try:
        with EventStore(db, create=False) as store:
            return from_open_store(store, captures, match_id)
    except StoreError as exc:
        raise SourceError(str(exc)) from None


def from_open_store(store: EventStore, captures: str | Path | None, match_id: int) -> MatchSource:
    """A match of an already open store (the live service's own)."""
    from yut_cam.store import StoreError

    try:
        header = store.header(match_id)
        events = store.events(match_id)
    except StoreError as exc:
        raise SourceError(str(exc)) from None
    folder = Path(captures) / str(match_id) if captures is not None else None
    return MatchSource(header, tuple(events), folder if folder is not None and folder.is_dir() else None,
                       f"match {match_id} in {store.path}")


def resolve(target: str, db: str | Path, captures: str | Path | None) -> MatchSource:
    """``MATCH|DIR|FILE`` of the command line: a number is a match id in the store."""
    if target.isdigit() and not Path(target).exists():
        return from_store(db, captures, int(target))
    return from_path(target)


__all__ = [
    "CAPTURES_NAME", "DECODABLE", "DEFAULT_CAPTURES", "DEFAULT_DB", "PLAYABLE", "RECORD_NAME",
    "MatchSource", "SourceError", "clip_of", "from_open_store", "from_path", "from_store", "resolve", "safe_name",
]  # fmt: skip
