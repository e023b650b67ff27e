"""Exceptions of :mod:`yut_cam.store`: one base, ValueError where the input is bad."""

from __future__ import annotations


class StoreError(Exception):
    """Base of every error raised by the store, the capture files and the .yutlog I/O."""


class StoreClosedError(StoreError):
    """The store was closed and cannot be used any more."""


class StorageError(StoreError):
    """The database could not be written: disk full or failing, locked too long, read-only."""


class SchemaError(StoreError):
    """The database file is not a yut-cam store, or was written by a newer yut-cam."""


class UnknownMatchError(StoreError, LookupError):
    """No match with this id in the store."""

    def __init__(self, match_id: object) -> None:
        super().__init__(f"no match {match_id!r} in the store")
        self.match_id = match_id


class InvalidEventError(StoreError, ValueError):
    """An event or header is not a JSON object that survives storage unchanged."""


class EventRefusedError(StoreError, ValueError):
    """The caller's check hook refused the event; nothing was written."""


class MatchFinishedError(StoreError, ValueError):
    """Events cannot be appended to a finished match."""


class SeqConflictError(StoreError):
    """Optimistic concurrency: the match moved on since the caller last read it."""

    def __init__(self, match_id: int, expected: int, actual: int) -> None:
        super().__init__(
            f"match {match_id}: expected the last event to be #{expected}, "
            f"but it is #{actual} (someone else recorded an event; reload and retry)"
        )
        self.match_id = match_id
        self.expected = expected
        self.actual = actual


class CaptureError(StoreError, ValueError):
    """Bad match id, throw number or file name for a throw capture."""


class YutlogError(StoreError, ValueError):
    """A .yutlog record is malformed; ``line`` is the 1-based line number (0: whole file)."""

    def __init__(self, line: int, problem: str, source: str | None = None) -> None:
        where = f"line {line}: " if line > 0 else ""
        prefix = f"{source}: " if source else ""
        super().__init__(f"{prefix}{where}{problem}")
        self.line = line
        self.problem = problem
        self.source = source


class ImportRefusedError(StoreError, ValueError):
    """A .yutlog file was read but its content was refused by the validator."""
