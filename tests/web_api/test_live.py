"""End to end: the production server (gunicorn, one gevent worker) as a subprocess."""

from __future__ import annotations

import json
import threading
import urllib.request
from typing import Any

from tests.web_live import LiveServer


def read_sse(url: str, want: int, out: list[tuple[str, Any]], ready: threading.Event) -> None:
    with urllib.request.urlopen(url, timeout=20) as resp:
        event = ""
        for raw in resp:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                out.append((event, json.loads(line[6:])))
                ready.set()
                if len(out) >= want:
                    return


def test_gunicorn_streams_an_event(live_server: LiveServer) -> None:
    match_id = live_server.create_match()
    got: list[tuple[str, Any]] = []
    connected = threading.Event()
    reader = threading.Thread(target=read_sse, args=(f"{live_server.url}/stream/{match_id}", 2, got, connected))
    reader.start()
    assert connected.wait(20)
    live_server.post_event(match_id, {"type": "throw", "team": 0, "result": "모"})
    reader.join(20)
    assert [kind for kind, _ in got] == ["state", "state"]
    assert got[0][1]["seq"] == 1 and got[1][1]["seq"] == 2 and got[1][1]["pending"] == ["모"]


def test_spectator_write_refused_over_http(live_server: LiveServer) -> None:
    from tests.web_live import RefereeHttp

    match_id = live_server.create_match()
    status, body = RefereeHttp(live_server.url).post(f"/api/matches/{match_id}/events",
                                                     {"event": {"type": "undo"}})
    assert status == 401 and "referee login required" in body["error"]
    reading = live_server.inject_reading(match_id, "걸")
    status, timer = RefereeHttp(live_server.url).get("/api/timer")
    assert status == 200 and timer["shot"] == "10"
    with urllib.request.urlopen(live_server.url + reading["image"], timeout=5) as resp:
        assert resp.read(2) == b"\xff\xd8"


def test_sigkill_and_restart_resume_the_match(tmp_path: Any) -> None:
    import os
    import signal

    from tests.web_live import start_live_server, stop_live_server

    server = start_live_server(tmp_path)
    try:
        match_id = server.create_match()
        for event in ({"type": "throw", "team": 0, "result": "걸"},
                      {"type": "move", "team": 0, "result": "걸", "piece": 0}):
            acked = server.post_event(match_id, event)
        before = acked["state"]
    finally:
        os.killpg(server.process.pid, signal.SIGKILL)  # no goodbye: the acknowledged events must be on disk
        server.process.wait(10)
    again = start_live_server(tmp_path)
    try:
        with urllib.request.urlopen(f"{again.url}/api/matches/{match_id}", timeout=10) as resp:
            after = json.loads(resp.read())
        for key in ("teams", "turn", "phase", "pending", "seq", "history", "last_move"):
            assert after[key] == before[key], key
        assert after["clock_sync"]["running"] is True and after["offline_gap"] is not None
        assert after["clock_sync"]["t"] >= before["history"][-1]["t"]
    finally:
        stop_live_server(again)
