"""Helpers of the browser tests: log in through the PIN pad, open the pages, read the state."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from typing import Any

from tests.web_live import LiveServer

BAD_PIN = "1111"


def login(page: Any, server: LiveServer, pin: str) -> None:
    page.goto(f"{server.url}/referee/login")
    for digit in pin:
        page.click(f'.pad .key[data-key="{digit}"]')
    page.click("#enter")


def console(open_page: Callable[..., Any], server: LiveServer, match_id: int, size: tuple[int, int] = (1280, 800)) -> Any:
    page = open_page(*size)
    login(page, server, server.pin)
    page.wait_for_url(re.compile(r"/referee(\?.*)?$"))
    page.goto(f"{server.url}/referee?m={match_id}")
    page.wait_for_selector("body[data-seq]")
    return page


def scoreboard(open_page: Callable[..., Any], server: LiveServer, match_id: int, size: tuple[int, int] = (1920, 1080)) -> Any:
    page = open_page(*size)
    page.goto(f"{server.url}/m/{match_id}")
    page.wait_for_selector("body[data-seq]")
    return page


def new_match_on_both(open_page: Callable[..., Any], server: LiveServer) -> tuple[int, Any, Any]:
    """A new match, with its scoreboard and the referee's console open on it."""
    match_id = server.create_match()
    return match_id, scoreboard(open_page, server, match_id), console(open_page, server, match_id)


def live_state(server: LiveServer, match_id: int) -> Any:
    with urllib.request.urlopen(f"{server.url}/api/matches/{match_id}", timeout=10) as resp:
        return json.loads(resp.read())


def js_errors(page: Any) -> list[str]:
    return [e for e in page.errors if e.startswith("page error")]
