"""Fixtures of the replay tests: generated records written as files and into a store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from yut_cam.match import dumps_event


def write_record(path: Path, header: dict[str, Any], events: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(header, ensure_ascii=False)] + [dumps_event(e) for e in events]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def record_file(tmp_path: Path) -> Any:
    def make(header: dict[str, Any], events: list[dict[str, Any]], name: str = "match.yutlog") -> Path:
        return write_record(tmp_path / name, header, events)

    return make
