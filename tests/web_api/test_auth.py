"""Login, sessions, CSRF, the login rate limit, and spectators who can only watch."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web_api.conftest import HEADER, PIN, Referee
from tests.web_api.test_api import snapshot

WRITES = [
    ("/api/matches", HEADER),
    ("/api/matches/{id}/events", {"event": {"type": "throw", "team": 0, "result": "개"}}),
    ("/api/matches/{id}/reading/confirm", {"result": "개"}),
    ("/api/matches/{id}/reading", {"result": "개"}),
    ("/api/matches/{id}/reading/dismiss", {}),
    ("/api/matches/{id}/offline_gap", {"charge": True}),
    ("/api/matches/{id}/finish", {}),
]


@pytest.mark.parametrize("path, body", WRITES)
def test_spectator_writes_are_refused(app: Flask, client: FlaskClient, match_id: int, path: str, body: Any) -> None:
    spectator = app.test_client()
    before = snapshot(app, client, match_id)
    resp = spectator.post(path.format(id=match_id), json=copy.deepcopy(body))
    assert resp.status_code == 401
    assert resp.json["error"].startswith("referee login required")
    assert snapshot(app, client, match_id) == before
    assert len(client.get("/api/matches").json) == 1


@pytest.mark.parametrize("path, body", WRITES)
@pytest.mark.parametrize("token", [None, "wrong-token"])
def test_writes_without_the_csrf_token_are_refused(app: Flask, client: FlaskClient, referee: Referee,
                                                   match_id: int, path: str, body: Any, token: str | None) -> None:
    before = snapshot(app, client, match_id)
    headers = {} if token is None else {"X-CSRF-Token": token}
    resp = client.post(path.format(id=match_id), json=copy.deepcopy(body), headers=headers)
    assert resp.status_code == 403
    assert "CSRF" in resp.json["error"]
    assert snapshot(app, client, match_id) == before


def test_csrf_token_as_form_field(client: FlaskClient, referee: Referee, match_id: int) -> None:
    resp = client.post(f"/api/matches/{match_id}/reading/dismiss", data={"csrf_token": referee.csrf},
                       content_type="application/x-www-form-urlencoded")
    assert resp.status_code == 200  # the form field counts like the header


def test_wrong_pin(client: FlaskClient) -> None:
    resp = client.post("/referee/login", json={"pin": "0000"})
    assert resp.status_code == 401 and resp.json == {"error": "wrong PIN", "rule": "심판 로그인"}
    assert client.get("/referee").status_code == 302


def test_login_form_flow(client: FlaskClient) -> None:
    page = client.post("/referee/login", data={"pin": "9"})
    assert page.status_code == 401 and b"login error=wrong PIN" in page.data
    ok = client.post("/referee/login", data={"pin": PIN})
    assert ok.status_code == 302 and ok.headers["Location"].endswith("/referee")
    cookie = ok.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    console = client.get("/referee")
    assert console.status_code == 200 and b"referee=True" in console.data and b"csrf=" in console.data


def test_rate_limit(client: FlaskClient, clock: Any) -> None:
    for _ in range(5):
        assert client.post("/referee/login", json={"pin": "1111"}).status_code == 401
    limited = client.post("/referee/login", json={"pin": PIN})  # even the right PIN waits
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) > 0 and "too many wrong PINs" in limited.json["error"]
    assert client.post("/referee/login", data={"pin": PIN}).status_code == 429
    clock.advance(301.0)
    assert client.post("/referee/login", json={"pin": PIN}).status_code == 200


def test_rate_limit_is_per_client(app: Flask) -> None:
    a, b = app.test_client(), app.test_client()
    for _ in range(5):
        a.post("/referee/login", json={"pin": "1"}, environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert a.post("/referee/login", json={"pin": PIN}, environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code == 429
    assert b.post("/referee/login", json={"pin": PIN}, environ_base={"REMOTE_ADDR": "10.0.0.2"}).status_code == 200


def test_logout(client: FlaskClient, referee: Referee, match_id: int) -> None:
    assert client.post("/referee/logout", json={}).status_code == 403  # CSRF checked
    assert client.post("/referee/logout", json={}, headers={"X-CSRF-Token": referee.csrf}).json == {"ok": True}
    resp = client.post(f"/api/matches/{match_id}/events", json={"event": {"type": "undo"}},
                       headers={"X-CSRF-Token": referee.csrf})
    assert resp.status_code == 401


def test_old_csrf_token_dies_with_the_session(client: FlaskClient, referee: Referee, match_id: int) -> None:
    old = referee.csrf
    client.post("/referee/logout", json={}, headers={"X-CSRF-Token": old})
    fresh = Referee(client)
    assert fresh.csrf != old
    resp = client.post(f"/api/matches/{match_id}/reading/dismiss", json={}, headers={"X-CSRF-Token": old})
    assert resp.status_code == 403


@pytest.mark.parametrize("path, expected", [
    ("/", b"scoreboard match=None referee=False"),
    ("/m/1", b"scoreboard match=1 referee=False"),
    ("/referee/login", b"login error=None"),
])
def test_pages_for_spectators(client: FlaskClient, path: str, expected: bytes) -> None:
    if path == "/m/1":
        assert client.get(path).status_code == 404
        return
    resp = client.get(path)
    assert resp.status_code == 200 and resp.data == expected


def test_pages_with_a_match(client: FlaskClient, referee: Referee, match_id: int) -> None:
    assert client.get("/").data == f"scoreboard match={match_id} referee=True".encode()
    assert client.get(f"/m/{match_id}").status_code == 200
    console = client.get("/referee").data.decode()
    assert console == f"console match={match_id} csrf={referee.csrf} referee=True"
    assert client.get("/referee?m=77").status_code == 404


def test_console_redirects_spectators(client: FlaskClient) -> None:
    resp = client.get("/referee")
    assert resp.status_code == 302 and "/referee/login" in resp.headers["Location"]


def test_real_templates_render(config: dict[str, Any]) -> None:
    """The frontend's templates (top-level web/) render with the variables we pass."""
    from yut_cam.web import close_app, create_app
    from yut_cam.web.config import REPO

    templates = REPO / "web" / "templates"
    names = ("scoreboard.html", "console.html", "login.html")
    if not all((templates / n).exists() for n in names):
        pytest.skip("web/templates not written yet")
    app = create_app({**config, "WEB_DIR": str(REPO / "web")})
    try:
        client = app.test_client()
        assert client.get("/").status_code == 200
        assert client.get("/referee/login").status_code == 200
        Referee(client)
        assert client.get("/referee").status_code == 200
    finally:
        close_app(app)
