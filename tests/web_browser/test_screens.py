"""Screenshots of the scoreboard on a 1920×1080 screen and a 390×844 phone (and the console on
a tablet), inspected in the test: the board's size and place, no overflow, and the pixels."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.web_browser.helpers import console, scoreboard
from tests.web_live import LiveServer

pytestmark = pytest.mark.browser

# colours of board.css, BGR
RING = (200, 230, 243)      # #f3e6c8
TEAM0 = (255, 125, 47)      # #2f7dff
TEAM1 = (46, 77, 255)       # #ff4d2e
TARGET_GREEN = (58, 138, 10)  # #0a8a3a ring of a legal destination

MIDGAME = [
    {"type": "throw", "team": 0, "result": "모"},
    {"type": "throw", "team": 0, "result": "걸"},
    {"type": "move", "team": 0, "result": "모", "piece": 0},
    {"type": "move", "team": 0, "result": "걸", "piece": 0, "to": "방"},
    {"type": "throw", "team": 1, "result": "개"},
    {"type": "move", "team": 1, "result": "개", "piece": 0},
    {"type": "throw", "team": 0, "result": "윷"},
    {"type": "throw", "team": 0, "result": "도"},
    {"type": "move", "team": 0, "result": "윷", "piece": 0, "to": "났음"},
    {"type": "move", "team": 0, "result": "도", "piece": 1},
    {"type": "throw", "team": 1, "result": "걸"},
    {"type": "move", "team": 1, "result": "걸", "piece": 0},
    {"type": "throw", "team": 0, "result": "도"},
    {"type": "move", "team": 0, "result": "도", "piece": 2, "to": "도"},
    {"type": "warning", "team": 1, "reason": "pickup"},
    {"type": "throw", "team": 1, "result": "모"},
    {"type": "throw", "team": 1, "result": "개"},
]


def midgame(server: LiveServer) -> int:
    match_id = server.create_match()
    ref = server.referee()
    for event in MIDGAME:
        server.post_event(match_id, event, ref)
    return match_id


def png(page: Any, path: Path) -> np.ndarray:
    page.screenshot(path=str(path))
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert image is not None, path
    return image


def near(image: np.ndarray, bgr: tuple[int, int, int], tol: int = 30) -> int:
    """How many pixels are within ``tol`` of a colour."""
    diff = np.abs(image.astype(np.int16) - np.array(bgr, dtype=np.int16)).max(axis=2)
    return int((diff <= tol).sum())


def crop(image: np.ndarray, box: dict[str, float]) -> np.ndarray:
    x0, y0 = max(0, int(box["x"])), max(0, int(box["y"]))
    x1, y1 = int(box["x"] + box["width"]), int(box["y"] + box["height"])
    return image[y0:y1, x0:x1]


def check_board_pixels(board: np.ndarray) -> None:
    area = board.shape[0] * board.shape[1]
    assert area > 0
    assert float(board.std()) > 25, "the board area is blank"
    assert near(board, RING) > 0.3 * area, "the board's wooden disc is missing"
    piece = 0.0015 * area
    assert near(board, TEAM0) > piece, "no 청 pieces drawn"
    assert near(board, TEAM1) > piece, "no 홍 pieces drawn"


def test_big_screen_1920x1080(live_server_module: LiveServer, open_page: Callable[..., Any], shots_dir: Path) -> None:
    server = live_server_module
    match_id = midgame(server)
    page = scoreboard(open_page, server, match_id, (1920, 1080))
    page.wait_for_selector('.yut-board .piece.team0[data-at="도"][data-count="2"]')   # 업기: a stack of two
    image = png(page, shots_dir / "scoreboard_1920x1080.png")
    assert image.shape[:2] == (1080, 1920)

    size = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert size == [1920, 1080], f"the big screen scrolls: {size}"
    board = page.locator(".yut-board").bounding_box()
    ring = page.locator(".yut-board .ring").bounding_box()
    assert ring["width"] >= 900 and ring["height"] >= 900, ring
    assert board["x"] >= 0 and board["y"] >= 0 and board["x"] + board["width"] <= 1920 and board["y"] + board["height"] <= 1080
    clock = page.locator("#match-clock")
    assert float(clock.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 120
    box = clock.bounding_box()
    assert box["y"] + box["height"] <= 1080 and box["height"] >= 120
    for sel in ("#shot-clock", "#pending", "#team0", "#team1", "#history", "#camera"):
        b = page.locator(sel).bounding_box()
        assert b is not None and b["y"] + b["height"] <= 1080 + 1 and b["x"] + b["width"] <= 1920 + 1, (sel, b)
    chips = page.locator("#pending .chip").all_inner_texts()
    assert chips == ["모", "개"]
    assert page.locator("#team0 .tray-pieces.finished svg").count() == 1
    assert page.locator(".yut-board .piece.team0 .piece-count").all_text_contents() == ["2"]
    check_board_pixels(crop(image, board))
    # the clock digits are white on black and at least 120 px tall (readable from 10 m)
    digits = crop(image, box)
    assert near(digits, (0, 0, 0), 20) > 2000
    lit_rows = np.where((digits.min(axis=2) > 200).sum(axis=1) > 3)[0]
    assert lit_rows.size and lit_rows.max() - lit_rows.min() + 1 >= 120, "clock digits under 120 px"
    lit_cols = np.where((digits.min(axis=2) > 200).sum(axis=0) > 0)[0]
    assert lit_cols.max() < digits.shape[1] - 1, "clock digits cut off on the right"

    # a camera reading awaiting the referee: the scoreboard says 판정 중 over the photo
    server.inject_reading(match_id, result="걸")
    page.wait_for_selector("#reading:not([hidden])")
    page.wait_for_function("document.getElementById('cam-img').naturalWidth > 0")
    judging = png(page, shots_dir / "scoreboard_1920x1080_judging.png")
    cam = crop(judging, page.locator("#camera").bounding_box())
    assert near(cam, (0, 196, 255), 60) > 0.12 * cam.shape[0] * cam.shape[1], "no 판정 중 overlay"
    assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('.reading-big')).fontSize)") >= 56


def test_phone_390x844(live_server_module: LiveServer, open_page: Callable[..., Any], shots_dir: Path) -> None:
    server = live_server_module
    match_id = midgame(server)
    page = scoreboard(open_page, server, match_id, (390, 844))
    page.wait_for_selector('.yut-board .piece.team0[data-at="도"][data-count="2"]')
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{overflow} px of horizontal overflow on a phone"
    image = png(page, shots_dir / "scoreboard_390x844.png")
    board = page.locator(".yut-board").bounding_box()
    assert board["width"] >= 350 and board["x"] >= 0 and board["x"] + board["width"] <= 390, board
    assert board["y"] + board["height"] <= 844, "the board is not on the first screen"
    clock = page.locator("#match-clock").bounding_box()
    assert clock["y"] >= 0 and clock["y"] + clock["height"] <= board["y"] + 1, "the clock is not above the board"
    check_board_pixels(crop(image, board))
    # every block fits the width (single column)
    for sel in (".clocks", "#turn", "#team0", "#team1", ".history-box"):
        b = page.locator(sel).bounding_box()
        assert b["x"] >= 0 and b["x"] + b["width"] <= 390 + 0.5, (sel, b)
    page.screenshot(path=str(shots_dir / "scoreboard_390x844_full.png"), full_page=True)


def test_console_tablet(live_server_module: LiveServer, open_page: Callable[..., Any], shots_dir: Path) -> None:
    server = live_server_module
    match_id = midgame(server)
    ref = console(open_page, server, match_id, (1280, 800))
    ref.click('.yut-board .piece.team1.selectable[data-at="모"]')
    ref.wait_for_selector(".yut-board .target")
    labels = {t.get_attribute("data-to"): t.query_selector(".target-label").text_content() for t in ref.query_selector_all(".yut-board .target")}
    # from 모 with 모 and 개 pending: per destination, which result gets there
    assert labels.get("뒷모") == "모" and labels.get("뒷개") == "개" and labels.get("모개") == "개", labels
    image = png(ref, shots_dir / "console_1280x800.png")
    board = ref.locator(".yut-board").bounding_box()
    assert board["width"] >= 600, board
    assert near(crop(image, board), TARGET_GREEN, 40) > 2000, "legal destinations are not highlighted"
    overflow = ref.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    # touch targets: every button at least 40 px tall
    heights = ref.evaluate("[...document.querySelectorAll('main button:not([hidden])')].filter(b => b.offsetParent).map(b => b.getBoundingClientRect().height)")
    assert heights and min(heights) >= 40, heights


def test_last_minute_shows_tenths_at_full_size(live_server_module: LiveServer, open_page: Callable[..., Any],
                                               shots_dir: Path) -> None:
    server = live_server_module
    match_id = server.create_match()
    page = scoreboard(open_page, server, match_id, (1920, 1080))
    normal = page.locator("#match-clock").bounding_box()
    # the page's clock runs 1150 s ahead from now on: it interpolates into the last minute by itself
    page.evaluate("() => { const real = Date.now; Date.now = () => real() + 1150000; }")
    page.wait_for_selector("#match-clock.last-minute")
    text = page.inner_text("#match-clock")
    assert re.fullmatch(r"[1-5]?\d\.\d", text), text
    image = png(page, shots_dir / "scoreboard_last_minute.png")
    box = page.locator("#match-clock").bounding_box()
    assert box["height"] == normal["height"]
    outer = page.locator(".clock-box").bounding_box()
    digits = crop(image, outer)
    lit_cols = np.where((np.abs(digits.astype(int) - (0, 204, 255)).max(axis=2) < 40).sum(axis=0) > 0)[0]
    assert lit_cols.size and lit_cols.max() < digits.shape[1] - 10, "last-minute digits run out of their box"
