"""Durable storage: the SQLite event store, throw capture files and .yutlog records.

The store knows nothing of the rules: a match is a header (the .yutlog line 1) and a
sequence of JSON events. Validation belongs to the caller, through ``check`` hooks.
"""

from yut_cam.store.errors import (
    CaptureError,
    EventRefusedError,
    ImportRefusedError,
    InvalidEventError,
    MatchFinishedError,
    SchemaError,
    SeqConflictError,
    StorageError,
    StoreClosedError,
    StoreError,
    UnknownMatchError,
    YutlogError,
)
from yut_cam.store.events import EventStore
from yut_cam.store.records import MatchSummary, StoredEvent
from yut_cam.store.files import CapturedThrow, CaptureStore, atomic_write_bytes
from yut_cam.store.yutlog import (
    dumps_yutlog,
    export_match,
    import_match,
    load_record,
    read_yutlog,
    write_yutlog,
)

__all__ = [
    "CaptureError",
    "CaptureStore",
    "CapturedThrow",
    "EventRefusedError",
    "EventStore",
    "ImportRefusedError",
    "InvalidEventError",
    "MatchFinishedError",
    "MatchSummary",
    "SchemaError",
    "SeqConflictError",
    "StorageError",
    "StoreClosedError",
    "StoreError",
    "StoredEvent",
    "UnknownMatchError",
    "YutlogError",
    "atomic_write_bytes",
    "dumps_yutlog",
    "export_match",
    "import_match",
    "load_record",
    "read_yutlog",
    "write_yutlog",
]
