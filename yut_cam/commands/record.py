"""`yut-cam record list|export|import|backup`: the matches recorded in an event store."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

DEFAULT_DB = "var/yut-cam.sqlite3"

Validator = Callable[[dict[str, Any], Sequence[dict[str, Any]]], None]


def register(subparsers: Any) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db", default=DEFAULT_DB, metavar="PATH", help=f"event store (default {DEFAULT_DB})"
    )
    parser = subparsers.add_parser(
        "record", help="list, export and import recorded matches (.yutlog)"
    )
    actions = parser.add_subparsers(dest="record_action", metavar="ACTION")
    actions.required = True

    listing = actions.add_parser("list", parents=[common], help="list the matches in the store")
    listing.add_argument("--json", action="store_true", help="print JSON instead of a table")
    listing.set_defaults(handler=_list)

    export = actions.add_parser("export", parents=[common], help="write one match as .yutlog")
    export.add_argument("match_id", type=int, metavar="MATCH_ID")
    export.add_argument("out", metavar="OUT.yutlog", help='output file ("-": standard output)')
    export.add_argument("--force", action="store_true", help="overwrite an existing file")
    export.set_defaults(handler=_export)

    backup = actions.add_parser(
        "backup", parents=[common], help="consistent copy of the whole store (safe while running)"
    )
    backup.add_argument("out", metavar="OUT.sqlite3")
    backup.add_argument("--force", action="store_true", help="overwrite an existing file")
    backup.set_defaults(handler=_backup)

    imp = actions.add_parser("import", parents=[common], help="add a .yutlog file as a match")
    imp.add_argument("file", metavar="FILE.yutlog")
    imp.add_argument(
        "--open",
        action="store_true",
        help="import as an open match (the service will resume it); default: finished record",
    )
    imp.set_defaults(handler=_import)


def _fail(message: str) -> int:
    print(f"yut-cam record: error: {message}", file=sys.stderr)
    return 2


def _no_store(db: str) -> int | None:
    if Path(db).exists():
        return None
    return _fail(f"no store at {db} (give its path with --db PATH)")


def _when(moment: datetime | None) -> str:
    return "-" if moment is None else moment.strftime("%Y-%m-%d %H:%M:%SZ")


def _list(args: argparse.Namespace) -> int:
    from yut_cam.store import EventStore, StoreError

    if (missing := _no_store(args.db)) is not None:
        return missing
    try:
        with EventStore(args.db, readonly=True) as store:
            summaries = store.matches()
    except StoreError as exc:
        return _fail(str(exc))
    if args.json:
        rows = [
            {
                "id": s.id,
                "title": s.title,
                "status": s.status,
                "events": s.event_count,
                "created": s.created.isoformat(),
                "finished": None if s.finished is None else s.finished.isoformat(),
                "last_event_at": None if s.last_event_at is None else s.last_event_at.isoformat(),
            }
            for s in summaries
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    if not summaries:
        print(f"no matches in {args.db}")
        return 0
    print(f"{'ID':>4}  {'STATUS':8}  {'EVENTS':>6}  {'CREATED (UTC)':20}  {'LAST EVENT (UTC)':20}  TITLE")
    for s in summaries:
        print(
            f"{s.id:>4}  {s.status:8}  {s.event_count:>6}  {_when(s.created):20}  "
            f"{_when(s.last_event_at):20}  {s.title}"
        )
    return 0


def _export(args: argparse.Namespace) -> int:
    from yut_cam.store import EventStore, StoreError, dumps_yutlog, export_match

    out = Path(args.out)
    if (missing := _no_store(args.db)) is not None:
        return missing
    if args.out != "-" and out.exists() and not args.force:
        return _fail(f"{args.out} exists (use --force to overwrite)")
    try:
        with EventStore(args.db, readonly=True) as store:
            if args.out == "-":
                sys.stdout.write(dumps_yutlog(store.header(args.match_id), store.events(args.match_id)))
                return 0
            export_match(store, args.match_id, out)
            count = store.last_seq(args.match_id)
    except StoreError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot write {args.out}: {exc.strerror or exc}")
    print(f"exported match {args.match_id} ({count} events) to {args.out}")
    return 0


def _backup(args: argparse.Namespace) -> int:
    from yut_cam.store import EventStore, StoreError

    if (missing := _no_store(args.db)) is not None:
        return missing
    if Path(args.out).exists() and not args.force:
        return _fail(f"{args.out} exists (use --force to overwrite)")
    try:
        with EventStore(args.db, readonly=True) as store:
            store.backup(args.out)
            count = len(store.matches())
    except StoreError as exc:
        return _fail(str(exc))
    print(f"backed up {args.db} ({count} matches) to {args.out}")
    return 0


def match_validator() -> Validator | None:
    """``yut_cam.match.validate_record`` when the match layer provides it."""
    try:
        module = importlib.import_module("yut_cam.match")
    except ImportError:
        return None
    found = getattr(module, "validate_record", None)
    return found if callable(found) else None


def _import(args: argparse.Namespace) -> int:
    from yut_cam.store import EventStore, StoreError, load_record
    from yut_cam.store.records import default_title

    validate = match_validator()
    if validate is None:
        print(
            "yut-cam record: note: the match layer offers no validate_record; "
            "only the .yutlog format was checked, not the rules",
            file=sys.stderr,
        )
    try:
        # Read and validate first: a bad file must not even create the store.
        header, events = load_record(args.file, check_all=validate)
        with EventStore(args.db) as store:
            match_id = store.create_match(header, events=events, finished=not args.open)
    except StoreError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot open the store {args.db}: {exc.strerror or exc}")
    state = "open" if args.open else "finished"
    title = default_title(header) or "untitled"
    print(f"imported {args.file} as match {match_id} ({title}, {len(events)} events, {state})")
    return 0
