"""Throw capture files and atomic writes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from yut_cam.store import CaptureError, CaptureStore, atomic_write_bytes


def test_atomic_write_creates_replaces_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "settled.jpg"
    atomic_write_bytes(target, b"first")
    atomic_write_bytes(target, b"second")
    assert target.read_bytes() == b"second"
    assert os.listdir(target.parent) == ["settled.jpg"]


def test_atomic_write_failure_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "reading.json"
    atomic_write_bytes(target, b"old")

    def broken_replace(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space"):
        atomic_write_bytes(target, b"new")
    monkeypatch.undo()
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["reading.json"]


def test_capture_layout_and_listing(tmp_path: Path) -> None:
    captures = CaptureStore(tmp_path / "captures")
    assert captures.path_for(3, 12) == tmp_path / "captures" / "3" / "12"
    assert captures.list(3) == []
    captures.write(3, 2, "settled.jpg", b"\xff\xd8")
    captures.write(3, 10, "reading.json", b"{}")
    captures.write(3, 2, "reading.json", b'{"result":"\xea\xb0\x9c"}')
    (captures.path_for(3, 2) / ".settled.jpg.x.tmp").write_bytes(b"half")  # crash leftover
    (captures.root / "3" / "notes").mkdir()
    listed = captures.list(3)
    assert [(t.throw_no, t.files) for t in listed] == [
        (2, ("reading.json", "settled.jpg")),
        (10, ("reading.json",)),
    ]
    assert listed[0].directory == captures.path_for(3, 2)
    assert captures.list(4) == []


@pytest.mark.parametrize(
    ("match_id", "throw_no", "name", "message"),
    [
        (0, 1, "a.jpg", "match id must be a positive integer, got 0"),
        ("3", 1, "a.jpg", "match id must be a positive integer, got '3'"),
        (1, -2, "a.jpg", "throw number must be a positive integer, got -2"),
        (1, True, "a.jpg", "throw number must be a positive integer, got True"),
        (1, 1, "../../etc/passwd", "plain name"),
        (1, 1, ".hidden", "plain name"),
        (1, 1, "", "plain name"),
    ],
)
def test_bad_capture_names_are_refused_and_write_nothing(
    tmp_path: Path, match_id: Any, throw_no: Any, name: Any, message: str
) -> None:
    captures = CaptureStore(tmp_path / "captures")
    with pytest.raises(CaptureError, match=message):
        captures.write(match_id, throw_no, name, b"x")
    assert not (tmp_path / "captures").exists()
