"""The replay blueprint and the stand-alone app, through Flask's test client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask

from tests.replay.conftest import write_record
from tests.replay.gen import match
from yut_cam.match import replay, state_json
from yut_cam.replay.web import create_replay_app, replay_bp
from yut_cam.store import CaptureStore, EventStore


def _jpeg(value: int, size: tuple[int, int] = (64, 48)) -> bytes:
    img = np.full((size[1], size[0], 3), value, np.uint8)
    cv2.putText(img, str(value), (5, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 255), 2)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return bytes(buf.tobytes())


def _avi(path: Path, frames: int) -> None:
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25, (64, 48))
    for k in range(frames):
        w.write(np.full((48, 64, 3), 10 * k, np.uint8))
    w.release()


def _fetch(client: Any, url: str) -> tuple[int, bytes]:
    """Status and body of a GET, the response closed (file responses hold the file open)."""
    resp = client.get(url)
    try:
        return resp.status_code, resp.data
    finally:
        resp.close()


@pytest.fixture
def exported(tmp_path: Path) -> tuple[Path, dict[str, Any], list[dict[str, Any]]]:
    """DIR format: match.yutlog + captures/1 (settled, annotated, reading, MJPG clip),
    captures/2 (an image sequence), captures/3 (an mp4 clip), captures/9 (no event)."""
    h, events = match(5)
    root = tmp_path / "exported"
    write_record(root / "match.yutlog", h, events)
    c1 = root / "captures" / "1"
    c1.mkdir(parents=True)
    (c1 / "settled.jpg").write_bytes(_jpeg(100))
    (c1 / "annotated.jpg").write_bytes(_jpeg(150))
    (c1 / "reading.json").write_text(json.dumps({"result": "개", "confidence": 0.9, "sticks": [], "needs_referee": True,
                                                 "reasons": ["only 3 stick(s) found"]}), encoding="utf-8")
    _avi(c1 / "clip.avi", 7)
    c2 = root / "captures" / "2"
    c2.mkdir()
    for k in (1, 2, 10):
        (c2 / f"frame_{k:04d}.jpg").write_bytes(_jpeg(k))
    c3 = root / "captures" / "3"
    c3.mkdir()
    (c3 / "clip.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42")
    (root / "captures" / "9").mkdir()
    return root, h, events


def test_page_and_static_files(exported: Any) -> None:
    client = create_replay_app(exported[0]).test_client()
    assert client.get("/").headers["Location"].endswith("/replay/1")
    page = client.get("/replay/1")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    for needle in ('data-timeline="/replay/1/timeline.json"', "/replay/static/replay.js", "/replay/static/board.css",
                   'href="/replay/1/sheet"', "청룡 대 백호"):
        assert needle in body
    assert "http://" not in body and "https://" not in body  # nothing from the network
    for name in ("replay.js", "replay.css", "board.js"):
        assert _fetch(client, f"/replay/static/{name}")[0] == 200
    assert client.get("/replay/2").status_code == 404


def test_timeline_captures(exported: Any) -> None:
    root, h, events = exported
    client = create_replay_app(root).test_client()
    data = client.get("/replay/1/timeline.json").get_json()
    caps = data["captures"]
    assert set(caps) >= {"1", "2", "3", "9"}
    one = caps["1"]
    assert one["settled"] == "/replay/1/captures/1/settled.jpg"
    assert one["annotated"] == "/replay/1/captures/1/annotated.jpg"
    assert one["reading"]["result"] == "개"
    assert one["reading"]["reasons_ko"] == ["윷을 3개만 찾았습니다"]  # the camera's doubt, in Korean
    assert one["clip"]["kind"] == "decoded"
    assert caps["2"]["clip"] == {"kind": "frames", "fps": 30, "frames": [
        "/replay/1/captures/2/frame_0001.jpg", "/replay/1/captures/2/frame_0002.jpg",
        "/replay/1/captures/2/frame_0010.jpg"]}
    assert caps["3"]["clip"] == {"kind": "video", "url": "/replay/1/captures/3/clip.mp4"}
    assert caps["9"]["settled"] is None
    first_throw = next(s for s in data["steps"] if s["type"] == "throw")
    assert first_throw["capture"] == 1
    assert _fetch(client, one["settled"])[1] == (root / "captures" / "1" / "settled.jpg").read_bytes()
    info = client.get(one["clip"]["info"]).get_json()
    assert info["count"] == 7 and info["fps"] == 25.0
    frame = client.get(f"{one['clip']['frame']}/6.jpg")
    assert frame.status_code == 200 and frame.mimetype == "image/jpeg"
    img = cv2.imdecode(np.frombuffer(frame.data, np.uint8), cv2.IMREAD_COLOR)
    assert img.shape == (48, 64, 3) and abs(float(img.mean()) - 60) < 6
    assert client.get(f"{one['clip']['frame']}/7.jpg").status_code == 404


@pytest.mark.parametrize("path", [
    "/replay/1/captures/1/..%2F..%2Fmatch.yutlog", "/replay/1/captures/1/.hidden", "/replay/1/captures/1/nope.jpg",
    "/replay/1/captures/4/settled.jpg", "/replay/1/captures/2/clip.json", "/replay/1/captures/0/settled.jpg",
])
def test_capture_files_outside_or_missing_are_404(exported: Any, path: str) -> None:
    assert _fetch(create_replay_app(exported[0]).test_client(), path)[0] == 404


def test_sheet_csv_and_sticks_chart(exported: Any) -> None:
    client = create_replay_app(exported[0]).test_client()
    page = client.get("/replay/1/sheet").get_data(as_text=True)
    assert "윷놀이 경기 기록지" in page and 'href="/replay/1"' in page
    resp = client.get("/replay/1/sheet.csv")
    assert resp.mimetype == "text/csv" and "attachment" in resp.headers["Content-Disposition"]
    assert resp.data.startswith("\ufeff윷놀이 경기 기록지".encode())
    svg = client.get("/replay/1/sticks.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert svg.get_data(as_text=True).lstrip().startswith(("<svg", "<?xml"))


def test_a_yutlog_file_alone(tmp_path: Path) -> None:
    h, events = match(3)
    path = write_record(tmp_path / "only.yutlog", h, events)
    data = create_replay_app(path).test_client().get("/replay/1/timeline.json").get_json()
    assert data["captures"] == {} and len(data["steps"]) == len(events)


def test_an_illegal_record_replays_up_to_the_fault(tmp_path: Path) -> None:
    h, events = match(3)
    bad = events[:10] + [{"type": "move", "team": 0, "result": "윷", "piece": 2}]
    data = create_replay_app(write_record(tmp_path / "bad.yutlog", h, bad)).test_client() \
        .get("/replay/1/timeline.json").get_json()
    assert len(data["steps"]) == 10 and data["error_index"] == 11 and "line 12" in data["error"]


def test_blueprint_on_the_store(tmp_path: Path) -> None:
    h, events = match(8)
    db = tmp_path / "var" / "yut.sqlite3"
    with EventStore(db) as store:
        other = store.create_match(h, events=events[:5])
        match_id = store.create_match(h, events=events)
    CaptureStore(tmp_path / "var" / "captures").write(match_id, 2, "settled.jpg", _jpeg(7))
    app = Flask(__name__)
    app.config.update(DB_PATH=str(db), CAPTURE_DIR=str(tmp_path / "var" / "captures"))
    app.register_blueprint(replay_bp)
    client = app.test_client()
    data = client.get(f"/replay/{match_id}/timeline.json").get_json()
    assert data["id"] == match_id
    assert data["steps"][-1]["state"] == json.loads(json.dumps(state_json(replay(h, events))))
    assert data["captures"]["2"]["settled"] == f"/replay/{match_id}/captures/2/settled.jpg"
    assert _fetch(client, data["captures"]["2"]["settled"]) == (200, _jpeg(7))
    assert len(client.get(f"/replay/{other}/timeline.json").get_json()["steps"]) == 5
    index = client.get("/replay/").get_data(as_text=True)
    assert f'href="/replay/{match_id}"' in index and f'href="/replay/{other}"' in index
    assert client.get("/replay/99/timeline.json").status_code == 404
