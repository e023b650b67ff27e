"""The demo autopilot plays only legal actions, yields to a referee, and starts over."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.web_api.conftest import FakeClock, Referee
from yut_cam.match import validate_record
from yut_cam.web.autopilot import Autopilot, choose_move


def test_autopilot_plays_a_whole_match(app: Flask, client: FlaskClient, referee: Referee, match_id: int,
                                       clock: FakeClock) -> None:
    service = app.extensions["yut_cam.service"]
    pilot = Autopilot(service, seed=5, reading_wait=0.0, restart_after=10.0)
    assert pilot.step() == "stand aside"  # the referee just started the match
    clock.advance(31.0)
    done: list[str] = []
    for _ in range(600):
        done.append(pilot.step())
        clock.advance(2.5)
        service.tick()
        if "new match" in done:
            break
    assert "new match" in done and "move" in done and any(d.startswith("call ") for d in done)
    store = service.store
    events = store.events(match_id)
    final = validate_record(store.header(match_id), events)  # every recorded event replays
    assert final.over
    assert client.get(f"/api/matches/{match_id}").json["status"] == "finished"
    assert service.current_id() == match_id + 1


def test_autopilot_confirms_the_camera_reading(app: Flask, client: FlaskClient, referee: Referee, match_id: int,
                                               clock: FakeClock) -> None:
    service = app.extensions["yut_cam.service"]
    referee.post(f"/api/matches/{match_id}/reading", {"result": "걸"})
    clock.advance(31.0)
    pilot = Autopilot(service, seed=1)
    assert pilot.step() == "confirm 걸"
    assert pilot.step() == "move"
    state = client.get(f"/api/matches/{match_id}").json
    assert state["teams"][0]["pieces"][0]["at"] == "걸"
    assert pilot.step() == "wait for the camera"


def test_choose_move_prefers_a_capture() -> None:
    import random

    state: dict[str, Any] = {
        "teams": [{"pieces": [{"id": 0, "at": "도"}]}, {"pieces": [{"id": 0, "at": "걸"}]}],
        "legal_moves": [
            {"team": 0, "result": "개", "piece": 0, "from": "도", "to": "걸", "route": ["개", "걸"]},
            {"team": 0, "result": "개", "piece": 1, "from": "대기", "to": "개", "route": ["도", "개"]},
        ],
    }
    assert choose_move(state, random.Random(0)) == {"type": "move", "team": 0, "result": "개", "piece": 0, "to": "걸"}
    assert choose_move({**state, "legal_moves": []}, random.Random(0)) is None
