"""A real browser (Debian's chromium through Playwright) steps through a replay."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.replay.conftest import write_record
from tests.replay.gen import Driver
from yut_cam.replay import timeline as tl
from yut_cam.replay.web import create_replay_app

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    from werkzeug.serving import make_server

    d = Driver(21)
    d.play(pace=(7.0, 15.0))
    root = tmp_path_factory.mktemp("browser") / "m"
    write_record(root / "match.yutlog", d.header, d.events)
    steps = tl.build(d.header, d.events).steps
    throw = next(s for s in steps if s.capture is not None and s.index > 40 and steps[s.index].capture is None)
    img = np.full((360, 640, 3), 90, np.uint8)
    boxes = [[[100 + 120 * i, 100], [160 + 120 * i, 100], [160 + 120 * i, 115], [100 + 120 * i, 115]] for i in range(4)]
    c = root / "captures" / str(throw.capture)
    c.mkdir(parents=True)
    cv2.imwrite(str(c / "settled.jpg"), img)
    cv2.imwrite(str(c / "annotated.jpg"), img // 2)
    clip = cv2.VideoWriter(str(c / "clip.avi"), cv2.VideoWriter_fourcc(*"MJPG"), 30, (160, 90))
    for k in range(7):  # what the live service records: MJPG in AVI, which browsers cannot play
        clip.write(np.full((90, 160, 3), 30 * k, np.uint8))
    clip.release()
    sticks = [{"face": "배" if i < 2 else "등", "marked": False, "on_mat": True, "box": b} for i, b in enumerate(boxes)]
    reading = {"result": "개", "confidence": 0.6, "needs_referee": True, "sticks": sticks,
               "reasons": ["stick 3: face unsure (margin 0.12)"]}
    (c / "reading.json").write_text(json.dumps(reading, ensure_ascii=False), encoding="utf-8")
    server = make_server("127.0.0.1", 0, create_replay_app(root), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield {"url": f"http://127.0.0.1:{server.server_port}", "steps": steps, "throw": throw}
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _board(page: Any) -> Counter[tuple[int, str, int]]:
    nodes = page.eval_on_selector_all(
        "#board g.piece[data-at]",
        "ns => ns.map(n => [Number(n.dataset.team), n.dataset.at, Number(n.dataset.count)])")
    return Counter((t, at, n) for t, at, n in nodes)


def _expected(state: dict[str, Any]) -> Counter[tuple[int, str, int]]:
    groups: Counter[tuple[int, str]] = Counter()
    for t, team in enumerate(state["teams"]):
        for p in team["pieces"]:
            if p["at"] not in ("대기", "났음"):
                groups[(t, p["at"])] += 1
    return Counter((t, at, n) for (t, at), n in groups.items())


def _state(served: dict[str, Any], k: int) -> dict[str, Any]:
    return served["steps"][k - 1].to_json()["state"]


def test_keyboard_steps_through_the_match(served: dict[str, Any], chromium: Any) -> None:
    page = chromium.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(served["url"] + "/replay/1")
    page.wait_for_selector("body[data-ready='1']")
    assert page.text_content("#step-no") == "0"
    assert page.text_content("#step-total") == str(len(served["steps"]))
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft"):
        page.keyboard.press(key)
    assert page.text_content("#step-no") == "2"
    assert page.get_attribute("#board", "data-step") == "2"
    assert page.input_value("#scrub") == "2"
    assert page.text_content("#event-text").endswith(served["steps"][1].to_json()["text"])
    assert _board(page) == _expected(_state(served, 2))

    # further in: pieces on the board, stacks, trays and clocks follow the state
    page.goto(served["url"] + "/replay/1#step=60")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.text_content("#step-no") == "60"
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft"):
        page.keyboard.press(key)
    assert page.text_content("#step-no") == "62"
    state = _state(served, 62)
    assert _board(page) == _expected(state) and sum(_board(page).values()) > 0
    waiting = sum(p["at"] == "대기" for p in state["teams"][0]["pieces"])
    assert page.get_attribute("#tray0 .pieces.waiting", "data-count") == str(waiting)
    assert page.text_content("#match-clock") == served["steps"][61].to_json()["clock"]["match"]

    page.keyboard.press("End")
    assert page.text_content("#step-no") == str(len(served["steps"]))
    assert page.is_visible("#outcome")
    page.keyboard.press("Home")
    assert page.text_content("#step-no") == "0"
    assert _board(page) == Counter()

    page.keyboard.press(" ")
    page.wait_for_function("Number(document.getElementById('step-no').textContent) >= 2")
    page.keyboard.press(" ")
    assert "playing" not in (page.get_attribute("body", "class") or "")
    stopped = page.text_content("#step-no")
    page.wait_for_timeout(1000)
    assert page.text_content("#step-no") == stopped
    assert errors == []
    assert all(u.startswith(served["url"]) for u in requests), "the page must not reach the network"
    page.close()


def test_throw_step_shows_the_capture_with_the_reading(served: dict[str, Any], chromium: Any) -> None:
    page = chromium.new_page(viewport={"width": 1400, "height": 900})
    throw = served["throw"]
    page.goto(served["url"] + f"/replay/1#step={throw.index}")
    page.wait_for_selector("body[data-ready='1']")
    assert page.get_attribute("#capture", "data-capture") == str(throw.capture)
    page.wait_for_function("document.querySelectorAll('#reading-svg polygon').length === 4")
    # the two pictures load independently of the boxes drawn over them: wait for both
    page.wait_for_function("['settled-img', 'annotated-img'].every(id => document.getElementById(id).complete)")
    assert page.eval_on_selector("#settled-img", "i => i.naturalWidth") == 640
    assert page.eval_on_selector("#annotated-img", "i => i.naturalWidth") == 640
    assert "개" in page.text_content("#reading-svg .reading-result")
    assert page.locator("#capture-why li").all_inner_texts() == ["3번 윷의 배·등이 확실하지 않습니다"]
    # the boxes are numbered as the reasons name them
    assert page.eval_on_selector_all("#reading-svg text:not(.reading-result)", "ts => ts.map(t => t.textContent)") == \
        ["1배", "2배", "3등", "4등"]
    page.wait_for_selector("#clip-controls:not([hidden])")
    page.click("#clip-play")  # the server decodes the AVI into frames; the page flips them
    page.wait_for_function("document.getElementById('clip-pos').textContent === '7 / 7'")
    page.wait_for_function("document.getElementById('clip-frames').complete")
    assert page.eval_on_selector("#clip-frames", "i => i.naturalWidth") == 160
    page.screenshot(path=str(Path("/tmp") / "replay-browser-test.png"))
    page.keyboard.press("ArrowRight")  # the next step still shows this throw, marked as the last one
    assert page.get_attribute("#capture", "data-capture") == str(throw.capture)
    page.close()
