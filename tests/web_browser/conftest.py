"""Real-browser fixtures on the shared ``chromium`` (tests/browser.py): a page per browser
context, and where screenshots go. Every test here is marked ``browser``."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

#: Waiting for something the server pushes: generous, the tests wait for the DOM, never sleep.
PUSH_TIMEOUT_MS = 10_000


@pytest.fixture
def open_page(chromium: Any) -> Iterator[Callable[..., Any]]:
    """``open_page(width, height)`` → a page in a fresh browser context (own cookies); page
    errors and failed script loads are collected on ``page.errors``."""
    contexts: list[Any] = []

    def make(width: int = 1280, height: int = 800) -> Any:
        context = chromium.new_context(viewport={"width": width, "height": height}, device_scale_factor=1,
                                       locale="ko-KR")
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(PUSH_TIMEOUT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
        page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.errors = errors
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def shots_dir(tmp_path: Path) -> Iterator[Path]:
    """Where screenshots go: the test's tmp dir; also copied to $YUT_CAM_SHOTS if set."""
    out = tmp_path / "shots"
    out.mkdir()
    yield out
    target = os.environ.get("YUT_CAM_SHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        for png in out.glob("*.png"):
            shutil.copy(png, Path(target) / png.name)
