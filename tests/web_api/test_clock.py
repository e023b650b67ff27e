"""The match clock of the live service: stamping, stoppages, time-up, and resume after a
restart with the offline gap left to the referee."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web_api.conftest import FakeClock, Referee
from yut_cam.web import close_app, create_app

VOLATILE = ("clock_sync", "offline_gap", "led", "match")


def stable(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in VOLATILE}


def play_some(referee: Referee, match_id: int, clock: FakeClock) -> None:
    for event in ({"type": "throw", "team": 0, "result": "윷"}, {"type": "throw", "team": 0, "result": "개"},
                  {"type": "move", "team": 0, "result": "윷", "piece": 0},
                  {"type": "move", "team": 0, "result": "개", "piece": 0}):
        clock.advance(3.0)
        referee.ok(match_id, event)


def test_stoppage_freezes_the_clock(client: FlaskClient, referee: Referee, match_id: int, clock: FakeClock) -> None:
    clock.advance(10.0)
    referee.ok(match_id, {"type": "stoppage", "reason": "부상"})
    clock.advance(50.0)
    state = client.get(f"/api/matches/{match_id}").json
    assert state["clock_sync"]["t"] == 10.0 and state["clock_sync"]["running"] is False
    assert state["clock_sync"]["shot_paused"] is True
    state = referee.ok(match_id, {"type": "resume"})
    assert state["history"][-1]["t"] == 10.0
    clock.advance(2.0)
    assert referee.ok(match_id, {"type": "throw", "team": 0, "result": "도"})["history"][-1]["t"] == 12.0


def test_clock_waits_for_start(client: FlaskClient, referee: Referee, clock: FakeClock) -> None:
    from tests.web_api.conftest import HEADER

    mid = referee.post("/api/matches", HEADER).json["id"]
    clock.advance(30.0)
    state = referee.ok(mid, {"type": "throw", "team": 0, "result": "도"})
    assert state["history"][-1]["t"] == 0.0 and state["clock_sync"]["running"] is False
    referee.ok(mid, {"type": "start"})
    clock.advance(1.5)
    assert client.get(f"/api/matches/{mid}").json["clock_sync"]["t"] == 1.5


def test_timeout_pauses_the_shot_clock_only(client: FlaskClient, referee: Referee, match_id: int,
                                            clock: FakeClock) -> None:
    clock.advance(4.0)
    referee.ok(match_id, {"type": "timeout", "team": 1})
    clock.advance(20.0)
    sync = client.get(f"/api/matches/{match_id}").json["clock_sync"]
    assert sync["running"] is True and sync["t"] == 24.0
    assert sync["shot_paused"] is True and sync["shot_deadline"] == pytest.approx(24.0 + 6.0)


def test_time_up_is_appended_at_twenty_minutes(app: Flask, client: FlaskClient, referee: Referee, match_id: int,
                                               clock: FakeClock) -> None:
    play_some(referee, match_id, clock)
    service = app.extensions["yut_cam.service"]
    clock.advance(600.0)
    service.tick()
    assert client.get(f"/api/matches/{match_id}").json["phase"] != "over"
    clock.advance(700.0)
    wait = service.tick()
    state = client.get(f"/api/matches/{match_id}").json
    assert state["phase"] == "over" and state["history"][-1] == {"seq": 6, "type": "time_up", "t": 1200.0}
    assert state["winner"] == 0 and state["judged"]["decided_by"] == "on_board"
    assert state["clock_sync"]["running"] is False and state["clock_sync"]["t"] == 1200.0
    assert wait == 1.0
    service.tick()  # only once
    assert client.get(f"/api/matches/{match_id}").json["seq"] == 6


def test_event_after_twenty_minutes_records_time_up_first(client: FlaskClient, referee: Referee, match_id: int,
                                                          clock: FakeClock) -> None:
    clock.advance(1300.0)
    resp = referee.event(match_id, {"type": "throw", "team": 0, "result": "개"})
    assert resp.status_code == 422 and "over" in resp.json["error"]
    events = client.get(f"/api/matches/{match_id}/events").json
    assert [e["event"]["type"] for e in events] == ["start", "time_up"]


def test_resume_after_restart(config: dict[str, Any], clock: FakeClock) -> None:
    app = create_app(config)
    referee = Referee(app.test_client())
    from tests.web_api.conftest import HEADER

    mid = referee.post("/api/matches", HEADER).json["id"]
    referee.ok(mid, {"type": "start"})
    play_some(referee, mid, clock)
    before = app.test_client().get(f"/api/matches/{mid}").json
    close_app(app)  # the process dies; 95 s later it is back
    clock.advance(95.0)
    again = create_app(config)
    try:
        after = again.test_client().get(f"/api/matches/{mid}").json
        assert stable(after) == stable(before)
        assert after["offline_gap"] == 95.0
        assert after["clock_sync"]["t"] == before["clock_sync"]["t"] == 12.0  # not silently charged
        assert after["clock_sync"]["running"] is True
        ref = Referee(again.test_client())
        clock.advance(1.0)
        assert ref.ok(mid, {"type": "throw", "team": 1, "result": "도"})["history"][-1]["t"] == 13.0
    finally:
        close_app(again)


@pytest.mark.parametrize("charge, t_after", [(True, 12.0 + 95.0), (False, 12.0)])
def test_referee_settles_the_gap(config: dict[str, Any], clock: FakeClock, charge: bool, t_after: float) -> None:
    from tests.web_api.conftest import HEADER

    app = create_app(config)
    referee = Referee(app.test_client())
    mid = referee.post("/api/matches", HEADER).json["id"]
    referee.ok(mid, {"type": "start"})
    play_some(referee, mid, clock)
    close_app(app)
    clock.advance(95.0)
    again = create_app(config)
    try:
        ref = Referee(again.test_client())
        state = ref.post(f"/api/matches/{mid}/offline_gap", {"charge": charge}).json["state"]
        assert state["offline_gap"] is None and state["clock_sync"]["t"] == t_after
        assert ref.post(f"/api/matches/{mid}/offline_gap", {"charge": charge}).status_code == 422
        assert ref.post(f"/api/matches/{mid}/offline_gap", {"charge": "yes"}).status_code == 400
        recorded = ref.client.get(f"/api/matches/{mid}/events").json[-1]["event"]
        assert recorded["type"] == "clock_set" and recorded["to"] == t_after
    finally:
        close_app(again)
    # the decision is durable: a third start resumes from the corrected clock, no new gap
    third = create_app(config)
    try:
        state = third.test_client().get(f"/api/matches/{mid}").json
        assert state["clock_sync"]["t"] == t_after and state["offline_gap"] == 0.0
    finally:
        close_app(third)


def test_no_gap_for_a_stopped_clock(config: dict[str, Any], clock: FakeClock) -> None:
    from tests.web_api.conftest import HEADER

    app = create_app(config)
    referee = Referee(app.test_client())
    mid = referee.post("/api/matches", HEADER).json["id"]
    referee.ok(mid, {"type": "start"})
    clock.advance(7.0)
    referee.ok(mid, {"type": "stoppage", "reason": "정전"})
    close_app(app)
    clock.advance(300.0)
    again = create_app(config)
    try:
        state = again.test_client().get(f"/api/matches/{mid}").json
        assert state["offline_gap"] is None and state["clock_sync"] == state["clock_sync"] | {"t": 7.0, "running": False}
    finally:
        close_app(again)


def test_a_pending_reading_survives_a_restart(config: dict[str, Any], clock: FakeClock) -> None:
    from tests.web_api.conftest import HEADER

    app = create_app(config)
    referee = Referee(app.test_client())
    mid = referee.post("/api/matches", HEADER).json["id"]
    referee.post(f"/api/matches/{mid}/reading", {"result": "개"})
    referee.post(f"/api/matches/{mid}/reading/confirm", {"result": "개"})
    referee.ok(mid, {"type": "move", "team": 0, "result": "개", "piece": 0})
    pending = referee.post(f"/api/matches/{mid}/reading", {"result": "윷", "confidence": 0.8}).json
    close_app(app)
    again = create_app(config)
    try:
        state = again.test_client().get(f"/api/matches/{mid}").json
        assert state["reading"] == pending and state["last_throw_image"].endswith("/captures/1/annotated.jpg")
        ref = Referee(again.test_client())
        ref.post(f"/api/matches/{mid}/reading/confirm", {"result": "윷"})
    finally:
        close_app(again)
    third = create_app(config)
    try:
        assert third.test_client().get(f"/api/matches/{mid}").json["reading"] is None  # confirmed: gone
    finally:
        close_app(third)


def test_a_dismissed_reading_stays_dismissed_after_a_restart(config: dict[str, Any]) -> None:
    from tests.web_api.conftest import HEADER

    app = create_app(config)
    referee = Referee(app.test_client())
    mid = referee.post("/api/matches", HEADER).json["id"]
    referee.post(f"/api/matches/{mid}/reading", {"result": "개"})
    referee.post(f"/api/matches/{mid}/reading/dismiss")
    close_app(app)
    again = create_app(config)
    try:
        assert again.test_client().get(f"/api/matches/{mid}").json["reading"] is None
    finally:
        close_app(again)
