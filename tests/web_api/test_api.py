"""The JSON API with the Flask test client: every endpoint, and every refusal changes nothing."""

from __future__ import annotations

import copy
import math
import random
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web_api.conftest import HEADER, Referee


def snapshot(app: Flask, client: FlaskClient, match_id: int) -> tuple[Any, Any, Any]:
    """Memory (LIVE STATE, event list) and the store's own event log."""
    store = app.extensions["yut_cam.service"].store
    return (client.get(f"/api/matches/{match_id}").json, client.get(f"/api/matches/{match_id}/events").json,
            store.events(match_id))


def test_board(client: FlaskClient) -> None:
    data = client.get("/api/board").json
    assert len(data["stations"]) == 29
    assert data["stations"][0] == {"id": 0, "name": "참먹이", "slug": "chammeogi",
                                   "x": data["stations"][0]["x"], "y": data["stations"][0]["y"]}
    assert data["stations"][22]["name"] == "방" and (data["stations"][22]["x"], data["stations"][22]["y"]) == (0.0, 0.0)
    assert [0, 1] in data["edges"] and len(data["edges"]) == 32
    assert data["rotation"] == 0.0


def test_matches_list_and_create(client: FlaskClient, referee: Referee, match_id: int) -> None:
    rows = client.get("/api/matches").json
    assert [(r["id"], r["title"], r["status"]) for r in rows] == [(match_id, "청룡 대 백호", "open")]
    header = copy.deepcopy(HEADER)
    header["title"] = "결승"
    del header["type"]  # the server fills "type": "match"
    second = referee.post("/api/matches", header).json["id"]
    assert client.get(f"/api/matches/{second}").json["title"] == "결승"


@pytest.mark.parametrize("header, words", [
    ({"teams": []}, "exactly two teams"),
    ({**HEADER, "rules": "nope"}, "nope"),
    ({**HEADER, "first": 2}, "first must be 0, 1 or null"),
    ({**HEADER, "teams": [HEADER["teams"][0], HEADER["teams"][0]]}, "both teams"),
    ([1, 2], "JSON object"),
])
def test_create_match_refuses_bad_headers(client: FlaskClient, referee: Referee, header: Any, words: str) -> None:
    resp = referee.post("/api/matches", header)
    assert resp.status_code == 400
    assert words in resp.json["error"]
    assert client.get("/api/matches").json == []


def test_live_state_has_contract_keys(client: FlaskClient, match_id: int) -> None:
    state = client.get(f"/api/matches/{match_id}").json
    for key in ("teams", "turn", "phase", "pending", "bonus_throws", "winner", "judged", "match", "id", "seq",
                "title", "legal_moves", "clock_sync", "reading", "last_throw_image", "history", "last_move",
                "led", "offline_gap"):
        assert key in state, key
    assert state["seq"] == 1 and state["phase"] == "throw" and state["turn"] == 0
    sync = state["clock_sync"]
    assert sync["running"] is True and sync["t"] == 0.0 and sync["shot_deadline"] == 10.0
    assert state["led"] is None  # no LED timer in this app


def test_unknown_match_is_404(client: FlaskClient, referee: Referee) -> None:
    assert client.get("/api/matches/99").status_code == 404
    assert client.get("/api/matches/99/events").status_code == 404
    assert referee.event(99, {"type": "start"}).status_code == 404
    assert client.get("/stream/99").status_code == 404


def test_throw_move_and_events(client: FlaskClient, referee: Referee, match_id: int, clock: Any) -> None:
    clock.advance(4.0)
    state = referee.ok(match_id, {"type": "throw", "team": 0, "result": "걸"})
    assert state["pending"] == ["걸"] and state["phase"] == "move"
    assert state["legal_moves"] == [{"type": "move", "team": 0, "result": "걸", "piece": 0, "to": "걸",
                                     "from": "대기", "pieces": [0], "route": ["도", "개", "걸"]}]
    clock.advance(2.5)
    state = referee.ok(match_id, {"type": "move", "team": 0, "result": "걸", "piece": 0})
    assert state["teams"][0]["pieces"][0] == {"id": 0, "at": "걸"}
    assert state["last_move"] == {"team": 0, "pieces": [0], "route": ["도", "개", "걸"], "result": "걸",
                                  "from": "대기", "to": "걸"}
    events = client.get(f"/api/matches/{match_id}/events").json
    assert [e["seq"] for e in events] == [1, 2, 3]
    assert events[1]["event"] == {"type": "throw", "team": 0, "result": "걸", "t": 4.0}
    assert events[2]["event"]["t"] == 6.5  # the server stamps t from its match clock
    assert [h["type"] for h in state["history"]] == ["start", "throw", "move"]


def test_client_t_is_ignored(referee: Referee, match_id: int, clock: Any) -> None:
    clock.advance(3.0)
    state = referee.ok(match_id, {"type": "throw", "team": 0, "result": "도", "t": 999})
    assert state["history"][-1]["t"] == 3.0


@pytest.mark.parametrize("event, status, words", [
    ({"type": "move", "team": 0, "result": "개", "piece": 0}, 422, "cannot move"),
    ({"type": "throw", "team": 1, "result": "개"}, 422, "team 1"),
    ({"type": "throw", "team": 0, "result": "개", "thrower": "보람"}, 422, "next thrower"),
    ({"type": "start"}, 422, "already started"),
    ({"type": "resume"}, 422, "not stopped"),
    ({"type": "throw", "team": 0, "result": "삼"}, 400, "삼"),
    ({"type": "jump"}, 400, "unknown event type"),
    ({"type": "throw", "team": 5, "result": "도"}, 400, "team"),
])
def test_refused_events_change_nothing(app: Flask, client: FlaskClient, referee: Referee, match_id: int,
                                       event: dict[str, Any], status: int, words: str) -> None:
    before = snapshot(app, client, match_id)
    resp = referee.event(match_id, event)
    assert resp.status_code == status, resp.json
    assert words in resp.json["error"] or words in resp.json["rule"]
    assert set(resp.json) == {"error", "rule"}
    assert snapshot(app, client, match_id) == before


def test_illegal_move_names_the_rule(app: Flask, client: FlaskClient, referee: Referee, match_id: int) -> None:
    referee.ok(match_id, {"type": "throw", "team": 0, "result": "개"})
    before = snapshot(app, client, match_id)
    resp = referee.event(match_id, {"type": "move", "team": 0, "result": "윷", "piece": 0})
    assert resp.status_code == 422
    assert "윷 is not a pending result" in resp.json["error"] and resp.json["rule"]
    assert snapshot(app, client, match_id) == before


@pytest.mark.parametrize("data, content_type", [
    ("{not json", "application/json"),
    ("[1, 2]", "application/json"),
    ("event=1", "application/x-www-form-urlencoded"),
    ('{"expect_seq": 1}', "application/json"),
    ('{"event": [1]}', "application/json"),
    ('{"event": {"type": "start"}, "expect_seq": "1"}', "application/json"),
])
def test_malformed_bodies_are_400(app: Flask, client: FlaskClient, referee: Referee, match_id: int,
                                  data: str, content_type: str) -> None:
    before = snapshot(app, client, match_id)
    resp = client.post(f"/api/matches/{match_id}/events", data=data, content_type=content_type,
                       headers={"X-CSRF-Token": referee.csrf})
    assert resp.status_code == 400, resp.json
    assert resp.json["error"]
    assert snapshot(app, client, match_id) == before


def test_expect_seq(app: Flask, client: FlaskClient, referee: Referee, match_id: int) -> None:
    ok = referee.event(match_id, {"type": "throw", "team": 0, "result": "개"}, expect_seq=1)
    assert ok.status_code == 200 and ok.json["seq"] == 2
    before = snapshot(app, client, match_id)
    stale = referee.event(match_id, {"type": "move", "team": 0, "result": "개", "piece": 0}, expect_seq=1)
    assert stale.status_code == 409
    assert "#1" in stale.json["error"] and "#2" in stale.json["error"]
    assert snapshot(app, client, match_id) == before


def test_undo_is_recorded_not_erased(client: FlaskClient, referee: Referee, match_id: int) -> None:
    referee.ok(match_id, {"type": "throw", "team": 0, "result": "개"})
    referee.ok(match_id, {"type": "move", "team": 0, "result": "개", "piece": 0})
    state = referee.ok(match_id, {"type": "undo"})
    assert state["pending"] == ["개"] and state["teams"][0]["pieces"][0]["at"] == "대기"
    assert state["last_move"] is None
    assert [e["event"]["type"] for e in client.get(f"/api/matches/{match_id}/events").json] == \
        ["start", "throw", "move", "undo"]


def test_a_doubtful_reading_tells_the_referee_why_in_korean(client: FlaskClient, referee: Referee,
                                                             match_id: int) -> None:
    why = ["stick 2: at the mat's edge (3 px inside its outline), check it touches the mat",
           "빽도 mark not learned at calibration: is stick 1 (배 up) the marked stick? (빽도 or 도)"]
    referee.post(f"/api/matches/{match_id}/reading", {"result": "도", "needs_referee": True, "reasons": why})
    reading = client.get(f"/api/matches/{match_id}").json["reading"]
    assert reading["reasons"] == why
    assert reading["reasons_ko"] == ["2번 윷이 멍석 가장자리에 있습니다: 멍석에 닿았는지 보세요 (닿지 않았으면 낙)",
                                     "보정에서 빽도 표시를 배우지 못했습니다: 1번 윷(배)이 빽도 윷인지 보세요 (빽도 또는 도)"]
    for bad in ("edge", [1], [None]):
        resp = referee.post(f"/api/matches/{match_id}/reading", {"result": "도", "reasons": bad})
        assert resp.status_code == 400 and "reasons" in resp.json["error"]
    assert client.get(f"/api/matches/{match_id}").json["reading"]["reasons"] == why  # unchanged


def test_a_doubtful_reading_offers_what_else_it_may_be(client: FlaskClient, referee: Referee,
                                                       match_id: int) -> None:
    why = ["stick 2: face unsure (margin 0.12)", "stick 4: at the mat's edge (3 px inside its outline),"
           " check it touches the mat"]
    referee.post(f"/api/matches/{match_id}/reading", {"result": "개", "needs_referee": True, "reasons": why,
                                                      "alternatives": ["걸", "낙"]})
    assert client.get(f"/api/matches/{match_id}").json["reading"]["alternatives"] == ["걸", "낙"]
    for bad in ("걸", ["개"], ["빽"], [2]):
        resp = referee.post(f"/api/matches/{match_id}/reading", {"result": "개", "alternatives": bad})
        assert resp.status_code == 400 and "alternatives" in resp.json["error"]
    assert client.get(f"/api/matches/{match_id}").json["reading"]["alternatives"] == ["걸", "낙"]  # unchanged
    referee.post(f"/api/matches/{match_id}/reading", {"result": "윷"})
    assert client.get(f"/api/matches/{match_id}").json["reading"]["alternatives"] == []


def test_reading_confirm_and_capture(client: FlaskClient, referee: Referee, match_id: int) -> None:
    reading = referee.post(f"/api/matches/{match_id}/reading", {"result": "윷", "confidence": 0.91}).json
    assert reading["n"] == 1 and reading["image"] == f"/api/matches/{match_id}/captures/1/annotated.jpg"
    state = client.get(f"/api/matches/{match_id}").json
    assert state["reading"]["result"] == "윷"
    with client.get(reading["image"]) as image:
        assert image.status_code == 200 and image.data[:2] == b"\xff\xd8"
    # the referee corrects the camera: 윷 was really 모
    resp = referee.post(f"/api/matches/{match_id}/reading/confirm", {"result": "모"})
    assert resp.status_code == 200
    state = resp.json["state"]
    assert state["reading"] is None and state["pending"] == ["모"]
    assert state["history"][-1] | {"t": 0} == {"seq": 2, "type": "throw", "team": 0, "result": "모",
                                              "thrower": "가람", "capture": 1, "t": 0}
    assert state["last_throw_image"] == reading["image"]
    assert state["match"]["lineups"][0]["next_thrower"] == "나래"


def test_confirm_without_reading_and_in_the_wrong_phase(app: Flask, client: FlaskClient, referee: Referee,
                                                        match_id: int) -> None:
    assert referee.post(f"/api/matches/{match_id}/reading/confirm", {"result": "개"}).status_code == 200
    before = snapshot(app, client, match_id)
    resp = referee.post(f"/api/matches/{match_id}/reading/confirm", {"result": "도"})
    assert resp.status_code == 422
    assert referee.post(f"/api/matches/{match_id}/reading/confirm", {"result": 3}).status_code == 400
    assert snapshot(app, client, match_id) == before


def test_throwoff_through_readings(client: FlaskClient, referee: Referee) -> None:
    header = copy.deepcopy(HEADER)
    header["first"] = None
    mid = referee.post("/api/matches", header).json["id"]
    assert client.get(f"/api/matches/{mid}").json["match"]["throwoff"] == {"results": [None, None], "rounds": 0}
    referee.post(f"/api/matches/{mid}/reading/confirm", {"result": "개"})
    state = referee.post(f"/api/matches/{mid}/reading/confirm", {"result": "모"}).json["state"]
    assert state["match"]["first"] == 1 and state["turn"] == 1
    assert [h["type"] for h in state["history"]] == ["throwoff", "throwoff"]
    assert [h["team"] for h in state["history"]] == [0, 1]


def test_dismiss_reading(client: FlaskClient, referee: Referee, match_id: int) -> None:
    referee.post(f"/api/matches/{match_id}/reading", {"result": "개"})
    assert referee.post(f"/api/matches/{match_id}/reading/dismiss").json["state"]["reading"] is None
    assert client.get(f"/api/matches/{match_id}").json["seq"] == 1


def test_injected_readings_need_the_switch(app: Flask, match_id: int, referee: Referee) -> None:
    app.config["ALLOW_INJECTED_READINGS"] = False
    assert referee.post(f"/api/matches/{match_id}/reading", {"result": "개"}).status_code == 403


@pytest.mark.parametrize("path", ["/captures/1/settled.jpg", "/captures/1/secret.txt", "/captures/0/annotated.jpg",
                                  "/captures/1/..%2Fx"])
def test_missing_captures_are_404(client: FlaskClient, match_id: int, path: str) -> None:
    assert client.get(f"/api/matches/{match_id}{path}").status_code == 404


def test_finish_and_export(client: FlaskClient, referee: Referee, match_id: int) -> None:
    referee.ok(match_id, {"type": "throw", "team": 0, "result": "도"})
    state = referee.post(f"/api/matches/{match_id}/finish").json["state"]
    assert state["status"] == "finished" and state["legal_moves"] == []
    assert referee.event(match_id, {"type": "undo"}).status_code == 409
    text = client.get(f"/api/matches/{match_id}/export").data.decode()
    lines = text.splitlines()
    assert len(lines) == 3 and '"type":"match"' in lines[0] and '"result":"도"' in lines[2]


@pytest.mark.parametrize("hardware", ["mock"])
def test_timer_reads_the_mock_pins(client: FlaskClient, referee: Referee, match_id: int, clock: Any) -> None:
    assert client.get("/api/timer").json == {"text": "20:00 10", "match": "20:00", "shot": "10", "alert": False}
    assert client.get(f"/api/matches/{match_id}").json["led"] == {"text": "20:00 10"}
    clock.advance(61.0)
    referee.ok(match_id, {"type": "stoppage", "reason": "부상"})
    timer = client.get("/api/timer").json
    assert timer["match"] in ("18:59", "18 59")


def _seconds(mm_ss: str) -> int:
    return int(mm_ss[:2]) * 60 + int(mm_ss[3:5])


@pytest.mark.parametrize("hardware", ["mock"])
def test_timer_shows_the_match_clocks_second(app: Flask, client: FlaskClient, referee: Referee, match_id: int,
                                             clock: Any) -> None:
    """Driven by the service's clock and woken when it asks (on time or a little late), the
    digits read back from the mock pins show the match clock's remaining seconds rounded up,
    at every wake-up and just before the next one, through a stoppage: the LED does not
    trail the match clock."""
    driver = app.extensions["yut_cam.hardware"].driver
    rng = random.Random(20261130)

    def led_and_clock() -> tuple[int, int]:
        remaining = client.get(f"/api/matches/{match_id}").json["clock_sync"]["remaining"]
        return _seconds(client.get("/api/timer").json["match"]), math.ceil(remaining)

    due = driver.refresh()
    for step in range(240):
        if step in (80, 120):
            referee.ok(match_id, {"type": "stoppage", "reason": "부상"} if step == 80 else {"type": "resume"})
            due = driver.refresh()
        assert due is not None
        if due > clock.monotonic() + 0.002:
            clock.advance(due - clock.monotonic() - 0.001)
            led, match = led_and_clock()
            assert led == match, f"just before a change, {clock.monotonic() - 1000:.3f} s in"
        clock.advance(max(0.0, due - clock.monotonic()) + rng.choice([0.0, 0.0005, 0.02, 0.1]))
        due = driver.refresh()
        led, match = led_and_clock()
        assert led == match, f"at a wake-up, {clock.monotonic() - 1000:.3f} s in"


def test_timer_without_hardware(client: FlaskClient) -> None:
    resp = client.get("/api/timer")
    assert resp.status_code == 503 and "LED" in resp.json["error"]


def test_unknown_api_path_is_json_404(client: FlaskClient) -> None:
    resp = client.get("/api/nope")
    assert resp.status_code == 404 and "error" in resp.json


def test_replay_pages_are_mounted(client: FlaskClient, referee: Referee, match_id: int) -> None:
    referee.ok(match_id, {"type": "throw", "team": 0, "result": "개"})
    resp = client.get(f"/replay/{match_id}/timeline.json")
    assert resp.status_code == 200 and resp.is_json


def test_a_broken_store_is_503_and_acknowledges_nothing(app: Flask, client: FlaskClient, referee: Referee,
                                                        match_id: int) -> None:
    app.extensions["yut_cam.service"].store.close()
    resp = referee.event(match_id, {"type": "throw", "team": 0, "result": "개"})
    assert resp.status_code == 503 and "store is unavailable" in resp.json["error"]
    assert client.get(f"/api/matches/{match_id}").json["seq"] == 1


def test_capture_images_are_served_when_var_is_a_relative_path(
    config: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`make demo` runs with VAR_DIR "var" relative to the working directory; Flask's
    send_file would look for relative paths inside the package instead."""
    from yut_cam.web import close_app, create_app

    monkeypatch.chdir(tmp_path)
    config["VAR_DIR"] = "var"
    app = create_app(config)
    try:
        referee = Referee(app.test_client())
        mid = referee.post("/api/matches", copy.deepcopy(HEADER)).json["id"]
        reading = referee.post(f"/api/matches/{mid}/reading", {"result": "개"}).json
        with app.test_client().get(reading["image"]) as image:
            assert image.status_code == 200 and image.data[:2] == b"\xff\xd8"  # a JPEG
    finally:
        close_app(app)
