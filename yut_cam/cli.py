"""The `yut-cam` command line.

Each module in :mod:`yut_cam.commands` contributes sub-commands through a
``register(subparsers)`` function; heavy imports (OpenCV, Flask) stay inside the
command handlers so ``yut-cam --help`` is quick and works on any machine.
Handlers return the process exit status.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from yut_cam import __version__, commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="yut-cam",
        description="Referee companion for tournament 윷놀이: rules engine, throw reader, scoreboard.",
    )
    parser.add_argument("--version", action="version", version=f"yut-cam {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
    except BrokenPipeError:  # `yut-cam replay x | head`
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
