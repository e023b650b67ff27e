"""The scoreboard recovers by itself when the server goes away and comes back (restart)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests import web_live
from tests.web_browser.helpers import js_errors, scoreboard

pytestmark = pytest.mark.browser


def test_scoreboard_survives_a_server_restart(
    tmp_path: Path, open_page: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    server = web_live.start_live_server(tmp_path)
    try:
        match_id = server.create_match()
        page = scoreboard(open_page, server, match_id)
        seq = int(page.evaluate("Number(document.body.dataset.seq)"))
        assert page.locator("#conn").is_hidden()

        web_live.stop_live_server(server)
        page.wait_for_selector("#conn:not([hidden])")
        assert "연결 끊김" in page.inner_text("#conn")

        # the same database on the same port: as after a power cut or `systemctl restart`
        port = int(server.url.rsplit(":", 1)[1])
        monkeypatch.setattr(web_live, "free_port", lambda: port)
        server = web_live.start_live_server(tmp_path)
        server.post_event(match_id, {"type": "throw", "team": 0, "result": "윷"})
        page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}", timeout=30_000)
        page.wait_for_selector("#conn", state="hidden")
        assert page.locator("#pending .chip").all_inner_texts() == ["윷"]
        assert js_errors(page) == []
    finally:
        web_live.stop_live_server(server)


def test_big_screen_waits_for_the_first_match(live_server: web_live.LiveServer, open_page: Callable[..., Any]) -> None:
    page = open_page(1920, 1080)
    page.goto(live_server.url + "/")
    page.wait_for_selector("#empty:not([hidden])")
    assert "진행 중인 경기가 없습니다" in page.inner_text("#empty")
    match_id = live_server.create_match()
    # the page looks for an open match every 5 s and then shows it by itself
    page.wait_for_selector("body[data-seq]", timeout=30_000)
    assert page.evaluate("document.body.dataset.matchId") == str(match_id)
    assert page.locator(".yut-board .station").count() == 29
