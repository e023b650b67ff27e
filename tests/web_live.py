"""A real production server (gunicorn, one gevent worker) for end-to-end and browser tests.

``live_server`` starts ``yut-cam serve`` on a free loopback port with a temporary database and
a known referee PIN, waits until it answers, yields a :class:`LiveServer` and stops it.
See docs/web-api.md ("The live_server test fixture").
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

LIVE_PIN = "2468"
READY_TIMEOUT = 20.0
REPO = Path(__file__).resolve().parent.parent

DEFAULT_HEADER: dict[str, Any] = {
    "v": 1,
    "type": "match",
    "rules": "official",
    "teams": [
        {"name": "청룡", "throwers": ["가람", "나래", "다온"], "mover": "마루", "reserves": ["바다"]},
        {"name": "백호", "throwers": ["라온", "보람", "새봄"], "mover": "소리", "reserves": []},
    ],
    "first": 0,
}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class HttpError(AssertionError):
    def __init__(self, status: int, body: Any, what: str) -> None:
        super().__init__(f"{what}: HTTP {status}: {body!r}")
        self.status = status
        self.body = body


@dataclass
class RefereeHttp:
    """A logged-in referee over plain HTTP: session cookie + CSRF token sent for you."""

    url: str
    cookie: str = ""
    csrf: str = ""

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.cookie:
            req.add_header("Cookie", self.cookie)
        if self.csrf:
            req.add_header("X-CSRF-Token", self.csrf)
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return resp.status, _json_or_text(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, _json_or_text(exc.read())

    def get(self, path: str) -> tuple[int, Any]:
        return self.request("GET", path)

    def post(self, path: str, body: Any = None) -> tuple[int, Any]:
        return self.request("POST", path, {} if body is None else body)

    def login(self, pin: str) -> None:
        """POST the PIN as JSON to /referee/login; keep the cookie and the CSRF token."""
        parsed = urllib.parse.urlsplit(self.url)
        conn = http.client.HTTPConnection(parsed.hostname or "127.0.0.1", parsed.port, timeout=10)
        try:
            conn.request("POST", "/referee/login", json.dumps({"pin": pin}),
                         {"Content-Type": "application/json", "Accept": "application/json"})
            resp = conn.getresponse()
            body = _json_or_text(resp.read())
            if resp.status != 200:
                raise HttpError(resp.status, body, "login")
            cookies = [h.split(";", 1)[0] for k, h in resp.getheaders() if k.lower() == "set-cookie"]
        finally:
            conn.close()
        self.cookie = "; ".join(cookies)
        self.csrf = str(body["csrf_token"])


def _json_or_text(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace")


@dataclass
class LiveServer:
    url: str
    pin: str
    db: Path
    log: Path
    process: subprocess.Popen[bytes] = field(repr=False)

    def __str__(self) -> str:
        return self.url

    def referee(self) -> RefereeHttp:
        ref = RefereeHttp(self.url)
        ref.login(self.pin)
        return ref

    def create_match(self, header: dict[str, Any] | None = None, start: bool = True) -> int:
        ref = self.referee()
        status, body = ref.post("/api/matches", header or DEFAULT_HEADER)
        if status != 200:
            raise HttpError(status, body, "create match")
        match_id = int(body["id"])
        if start:
            self.post_event(match_id, {"type": "start"}, ref)
        return match_id

    def post_event(self, match_id: int, event: dict[str, Any], ref: RefereeHttp | None = None) -> Any:
        ref = ref or self.referee()
        status, body = ref.post(f"/api/matches/{match_id}/events", {"event": event})
        if status != 200:
            raise HttpError(status, body, f"event {event}")
        return body

    def inject_reading(self, match_id: int, result: str = "개", confidence: float = 0.97,
                       reasons: tuple[str, ...] = (), alternatives: tuple[str, ...] = ()) -> Any:
        """A camera reading as the camera loop publishes it; with ``reasons`` it needs the
        referee, and ``alternatives`` are what else it may be."""
        ref = self.referee()
        status, body = ref.post(f"/api/matches/{match_id}/reading",
                                {"result": result, "confidence": confidence,
                                 "needs_referee": bool(reasons), "reasons": list(reasons),
                                 "alternatives": list(alternatives)})
        if status != 200:
            raise HttpError(status, body, "inject reading")
        return body


def start_live_server(tmp: Path, pin: str = LIVE_PIN, extra: tuple[str, ...] = ()) -> LiveServer:
    port = free_port()
    db = tmp / "yut.sqlite3"
    log = tmp / "server.log"
    env = dict(os.environ, YUT_CAM_PIN=pin, GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1")
    cmd = [sys.executable, "-m", "yut_cam.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--db", str(db), "--var", str(tmp / "var"), "--no-camera", "--allow-injected-readings", *extra]
    handle = log.open("wb")
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=handle, stderr=subprocess.STDOUT,
                            start_new_session=True)
    handle.close()
    url = f"http://127.0.0.1:{port}"
    server = LiveServer(url, pin, db, log, proc)
    deadline = time.monotonic() + READY_TIMEOUT
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"yut-cam serve exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url + "/api/matches", timeout=2) as resp:
                if resp.status == 200:
                    return server
        except (OSError, urllib.error.URLError):
            pass
        if time.monotonic() > deadline:
            stop_live_server(server)
            raise RuntimeError(f"yut-cam serve not ready in {READY_TIMEOUT:g} s:\n{log.read_text(errors='replace')}")
        time.sleep(0.1)


def stop_live_server(server: LiveServer) -> None:
    proc = server.process
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = start_live_server(tmp_path)
    try:
        yield server
    finally:
        stop_live_server(server)


@pytest.fixture(scope="module")
def live_server_module(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = start_live_server(tmp_path_factory.mktemp("live"))
    try:
        yield server
    finally:
        stop_live_server(server)
