"""`yut-cam replay` and `yut-cam moves`: read a .yutlog record, print the state or moves."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("replay", help="replay a .yutlog match record and print the final state")
    p.add_argument("file", type=Path, help="match record (.yutlog, JSON Lines)")
    p.add_argument("--json", action="store_true", help="print the documented JSON state")
    p.set_defaults(handler=_replay)
    m = sub.add_parser("moves", help="list the legal moves after a .yutlog record")
    m.add_argument("file", type=Path)
    m.add_argument("--json", action="store_true")
    m.set_defaults(handler=_moves)


def _load(path: Path) -> Any:
    from yut_cam.match import MatchError, replay_text

    try:
        with path.open(encoding="utf-8") as handle:
            return replay_text(handle)
    except FileNotFoundError:
        print(f"yut-cam: no such record: {path}", file=sys.stderr)
    except UnicodeDecodeError as exc:
        print(f"yut-cam: {path}: not UTF-8 text ({exc.reason} at byte {exc.start})", file=sys.stderr)
    except MatchError as exc:
        event = f" {json.dumps(exc.event, ensure_ascii=False)}" if exc.event is not None else ""
        print(f"yut-cam: {path}: {exc}{event}", file=sys.stderr)
    return None


def _replay(args: argparse.Namespace) -> int:
    from yut_cam.match import state_json
    from yut_cam.match.text import summary

    state = _load(args.file)
    if state is None:
        return 2
    if args.json:
        print(json.dumps(state_json(state), ensure_ascii=False))
    else:
        print(summary(state))
    return 0


def _moves(args: argparse.Namespace) -> int:
    from yut_cam.match import moves_json

    state = _load(args.file)
    if state is None:
        return 2
    moves = moves_json(state)
    if args.json:
        print(json.dumps(moves, ensure_ascii=False))
    else:
        for m in moves:
            print(f"piece {m['piece']} {m['result']}: {' → '.join(m['route'])}")
        if not moves:
            print("no moves: it is not a move phase")
    return 0
