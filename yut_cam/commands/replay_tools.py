"""`yut-cam replay-serve`, `replay-export`, `reread` and `sheet`: reviewing recorded matches.

MATCH is a match id in the event store (``--db``, captures under ``--captures``); FILE is a
``.yutlog`` record; DIR is an exported match (``match.yutlog`` + ``captures/``), as
``replay-export`` writes it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

DEFAULT_DB = "var/yut-cam.sqlite3"
DEFAULT_CAPTURES = "var/captures"


def _store_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=DEFAULT_DB, metavar="PATH", help=f"event store (default {DEFAULT_DB})")
    p.add_argument("--captures", default=None, metavar="DIR",
                   help="throw captures folder (default: 'captures' beside the store)")


def register(subparsers: Any) -> None:
    s = subparsers.add_parser("replay-serve", help="serve the replay page of an exported match (FILE or DIR)")
    s.add_argument("source", metavar="FILE|DIR", help="a .yutlog record or a directory with match.yutlog + captures/")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    s.set_defaults(handler=_serve)

    e = subparsers.add_parser("replay-export", help="write a stored match as DIR (match.yutlog + captures/)")
    e.add_argument("match", metavar="MATCH", type=int, help="match id in the store")
    e.add_argument("out", metavar="DIR", help="directory to create (must not exist or be empty)")
    _store_args(e)
    e.set_defaults(handler=_export)

    r = subparsers.add_parser("reread", help="re-read every recorded throw with the current reader; HTML report")
    r.add_argument("source", metavar="MATCH|DIR", help="a match id in the store, or an exported match")
    r.add_argument("--calibration", required=True, metavar="CAL.json", help="calibration of the camera")
    r.add_argument("--out", default="reread/report.html", metavar="report.html",
                   help="report to write; its images go to <stem>-images/ beside it (default reread/report.html)")
    r.add_argument("--json", action="store_true", help="also print the disagreements as JSON")
    _store_args(r)
    r.set_defaults(handler=_reread)

    h = subparsers.add_parser("sheet", help="the record sheet (기록지) of a match as CSV and/or printable HTML")
    h.add_argument("source", metavar="MATCH|FILE", help="a match id in the store, a .yutlog record or an exported DIR")
    h.add_argument("--csv", metavar="OUT.csv", help="write CSV (UTF-8 with BOM, for Excel)")
    h.add_argument("--html", metavar="OUT.html", help="write the printable A4 page")
    _store_args(h)
    h.set_defaults(handler=_sheet)


def _fail(command: str, message: str) -> int:
    print(f"yut-cam {command}: error: {message}", file=sys.stderr)
    return 2


def _captures(args: argparse.Namespace) -> str:
    return str(args.captures) if args.captures else str(Path(args.db).parent / "captures")


def _resolve(args: argparse.Namespace) -> Any:
    from yut_cam.replay.source import resolve

    return resolve(str(args.source), args.db, _captures(args))


def _serve(args: argparse.Namespace) -> int:
    from werkzeug.serving import make_server

    from yut_cam.replay.source import SourceError, from_path
    from yut_cam.replay.web import create_replay_app

    try:
        app = create_replay_app(from_path(args.source))
    except SourceError as exc:
        return _fail("replay-serve", str(exc))
    try:
        server = make_server(args.host, args.port, app, threaded=True)
    except OSError as exc:
        return _fail("replay-serve", f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    print(f"replay of {args.source}: http://{args.host}:{server.server_port}/replay/1  (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _export(args: argparse.Namespace) -> int:
    import shutil

    from yut_cam.replay.source import CAPTURES_NAME, RECORD_NAME, SourceError, from_store
    from yut_cam.store import EventStore, StoreError, export_match

    out = Path(args.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        return _fail("replay-export", f"{args.out} exists and is not an empty directory")
    try:
        source = from_store(args.db, _captures(args), args.match)
        out.mkdir(parents=True, exist_ok=True)
        with EventStore(args.db, create=False) as store:
            export_match(store, args.match, out / RECORD_NAME)
        copied = 0
        if source.captures is not None:
            shutil.copytree(source.captures, out / CAPTURES_NAME,
                            ignore=shutil.ignore_patterns(".*"))
            copied = len(source.capture_numbers())
    except (SourceError, StoreError) as exc:
        return _fail("replay-export", str(exc))
    except OSError as exc:
        return _fail("replay-export", f"cannot write {args.out}: {exc.strerror or exc}")
    print(f"exported match {args.match} ({len(source.events)} events, {copied} captures) to {out}/")
    return 0


def _reread(args: argparse.Namespace) -> int:
    from yut_cam.match import MatchError
    from yut_cam.replay.reread import summary_json, write_report
    from yut_cam.replay.source import SourceError
    from yut_cam.replay.timeline import TimelineError
    from yut_cam.vision.calibration import Calibration
    from yut_cam.vision.errors import VisionError

    try:
        source = _resolve(args)
    except SourceError as exc:
        return _fail("reread", str(exc))
    try:
        calibration = Calibration.load(args.calibration)
    except VisionError as exc:
        return _fail("reread", str(exc))
    out = Path(args.out)
    try:
        report = write_report(source, calibration, out, calibration_label=str(args.calibration))
    except (MatchError, TimelineError) as exc:
        return _fail("reread", f"{source.label}: {exc}")
    except OSError as exc:
        return _fail("reread", f"cannot write {args.out}: {exc.strerror or exc}")
    bad = report.disagreements
    missing = f" ({len(report.missing)} throws of the record have no recording)" if report.missing else ""
    print(f"{len(report.rows)} recorded throws{missing}, {report.read} re-read, {len(bad)} disagree with the "
          f"referee; report: {out}")
    for r in bad:
        print(f"  capture {r.capture} (event {r.index}, {r.clock}, {r.team}): referee {r.decided}, "
              f"reader now {r.new}" + (f", at the time {r.old}" if r.old else ""))
    if args.json:
        print(json.dumps(summary_json(report), ensure_ascii=False))
    return 0


def _sheet(args: argparse.Namespace) -> int:
    from yut_cam.match import MatchError
    from yut_cam.replay import sheet as sh
    from yut_cam.replay.source import SourceError
    from yut_cam.replay.timeline import TimelineError, build
    from yut_cam.store import atomic_write_bytes

    try:
        source = _resolve(args)
        record_sheet = sh.build_sheet(build(source.header, source.events, strict=False))
    except (SourceError, MatchError, TimelineError) as exc:
        return _fail("sheet", str(exc))
    try:
        if args.csv:
            atomic_write_bytes(args.csv, sh.sheet_csv(record_sheet).encode("utf-8"))
        if args.html:
            atomic_write_bytes(args.html, sh.sheet_html(record_sheet).encode("utf-8"))
    except OSError as exc:
        return _fail("sheet", f"cannot write: {exc.strerror or exc}")
    if not args.csv and not args.html:
        sys.stdout.write(sh.sheet_csv(record_sheet).removeprefix("\ufeff").replace("\r\n", "\n"))
        return 0
    print(f"{record_sheet.title}: {record_sheet.decided_by}")
    if record_sheet.error:
        print(f"note: the record stops at an illegal event: {record_sheet.error}", file=sys.stderr)
    for what, path in (("CSV", args.csv), ("HTML", args.html)):
        if path:
            print(f"{what}: {path}")
    return 0
