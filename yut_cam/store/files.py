"""Throw capture files beside the database, and atomic file writes.

Layout: ``<root>/<match id>/<throw no>/<file>`` (by default ``var/captures``). Files are
written with :func:`atomic_write_bytes`: a temp file in the same directory, fsync,
rename over the target, fsync of the directory. A crash leaves the old file or the
new one, never half of one; leftover temp files start with "." and are ignored.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from yut_cam.store.errors import CaptureError


def fsync_dir(directory: Path) -> None:
    """Make a rename or a new entry in ``directory`` durable."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Replace ``path`` with ``data`` atomically and durably; creates parent directories."""
    target = Path(path)
    parent = target.parent
    if not parent.is_dir():
        parent.mkdir(parents=True, exist_ok=True)
        fsync_dir(parent.parent)
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, target)
    except BaseException:
        try:
            os.unlink(temp_name)
        except FileNotFoundError:
            pass
        raise
    fsync_dir(parent)
    return target


def _positive(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise CaptureError(f"{what} must be a positive integer, got {value!r}")
    return value


def _file_name(name: object) -> str:
    if (
        not isinstance(name, str)
        or not name
        or name.startswith(".")
        or "/" in name
        or "\\" in name
        or "\x00" in name
    ):
        raise CaptureError(
            f"capture file name must be a plain name without '/' or a leading '.', got {name!r}"
        )
    return name


@dataclass(frozen=True)
class CapturedThrow:
    """The files recorded for one throw."""

    throw_no: int
    directory: Path
    files: tuple[str, ...]


class CaptureStore:
    """Files of captured throws: ``<root>/<match id>/<throw no>/``."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    def path_for(self, match_id: int, throw_no: int) -> Path:
        """Directory of one throw's files (not created; :meth:`write` creates it)."""
        return self.root / str(_positive(match_id, "match id")) / str(
            _positive(throw_no, "throw number")
        )

    def write(self, match_id: int, throw_no: int, name: str, data: bytes) -> Path:
        """Atomically write one file of a throw (e.g. "settled.jpg", "reading.json")."""
        return atomic_write_bytes(self.path_for(match_id, throw_no) / _file_name(name), data)

    def list(self, match_id: int) -> list[CapturedThrow]:
        """The match's captured throws in throw order (temp files left by a crash skipped)."""
        base = self.root / str(_positive(match_id, "match id"))
        if not base.is_dir():
            return []
        throws = []
        for entry in base.iterdir():
            if not entry.is_dir() or not entry.name.isdigit() or entry.name.startswith("0"):
                continue
            files = tuple(
                sorted(f.name for f in entry.iterdir() if f.is_file() and not f.name.startswith("."))
            )
            throws.append(CapturedThrow(int(entry.name), entry, files))
        return sorted(throws, key=lambda t: t.throw_no)
