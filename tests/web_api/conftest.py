"""Fixtures of the web API tests (Flask tutorial style): ``app``, ``client``, ``runner``,
a fake clock, a logged-in ``referee`` client, and a tmp ``web/`` with minimal templates."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from werkzeug.security import generate_password_hash

from tests.web_live import DEFAULT_HEADER
from yut_cam.web import close_app, create_app

PIN = "4321"
#: cheap scrypt parameters for tests only (production uses werkzeug's defaults)
PIN_HASH = generate_password_hash(PIN, method="scrypt:1024:8:1")
HEADER: dict[str, Any] = DEFAULT_HEADER  # the live server's sample match, for the in-process app

TEMPLATES = {
    "scoreboard.html": "scoreboard match={{ match_id }} referee={{ is_referee }}",
    "console.html": "console match={{ match_id }} csrf={{ csrf_token }} referee={{ is_referee }}",
    "login.html": "login error={{ error }}",
}


class FakeClock:
    """Monotonic and wall time that move only when told to."""

    def __init__(self) -> None:
        self.mono = 1000.0
        self.wall = 1_800_000_000.0

    def monotonic(self) -> float:
        return self.mono

    def time(self) -> float:
        return self.wall

    def advance(self, seconds: float) -> None:
        self.mono += seconds
        self.wall += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def web_dir(tmp_path: Path) -> Path:
    d = tmp_path / "web"
    (d / "templates").mkdir(parents=True)
    (d / "static").mkdir()
    for name, text in TEMPLATES.items():
        (d / "templates" / name).write_text(text, encoding="utf-8")
    return d


@pytest.fixture
def config(tmp_path: Path, clock: FakeClock, web_dir: Path) -> dict[str, Any]:
    return {
        "TESTING": True,
        "VAR_DIR": str(tmp_path / "var"),
        "WEB_DIR": str(web_dir),
        "REFEREE_PIN_HASH": PIN_HASH,
        "BACKGROUND": False,
        "HARDWARE": "none",  # the LED/button tests switch the mock pins on
        "ALLOW_INJECTED_READINGS": True,
        "CLOCK_MONOTONIC": clock.monotonic,
        "CLOCK_WALL": clock.time,
    }


@pytest.fixture
def hardware() -> str:
    return "none"


@pytest.fixture
def app(config: dict[str, Any], hardware: str) -> Iterator[Flask]:
    config["HARDWARE"] = hardware
    application = create_app(config)
    yield application
    close_app(application)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


class Referee:
    """A logged-in test client that sends the CSRF token."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        resp = client.post("/referee/login", json={"pin": PIN})
        assert resp.status_code == 200, resp.json
        self.csrf = resp.json["csrf_token"]  # type: ignore[index]

    def post(self, path: str, body: Any = None, **kw: Any) -> Any:
        return self.client.post(path, json={} if body is None else body,
                                headers={"X-CSRF-Token": self.csrf}, **kw)

    def event(self, match_id: int, event: dict[str, Any], **extra: Any) -> Any:
        return self.post(f"/api/matches/{match_id}/events", {"event": event, **extra})

    def ok(self, match_id: int, event: dict[str, Any]) -> dict[str, Any]:
        resp = self.event(match_id, event)
        assert resp.status_code == 200, resp.json
        state: dict[str, Any] = resp.json["state"]
        return state


@pytest.fixture
def referee(client: FlaskClient) -> Referee:
    return Referee(client)


@pytest.fixture
def match_id(referee: Referee) -> int:
    """A match with first attacker 0 and the clock started."""
    resp = referee.post("/api/matches", copy.deepcopy(HEADER))
    assert resp.status_code == 200, resp.json
    mid = int(resp.json["id"])
    referee.ok(mid, {"type": "start"})
    return mid
