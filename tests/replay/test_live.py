"""The replay blueprint inside the production server: confirmed camera readings carry
their capture number, and the replay shows each throw with its own capture."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def _get(url: str) -> tuple[int, bytes, str]:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.status, resp.read(), resp.headers.get("Content-Type", "")


def test_replay_of_a_live_match_maps_throws_to_captures(live_server: Any) -> None:
    match_id = live_server.create_match()
    ref = live_server.referee()
    live_server.inject_reading(match_id, "윷")  # capture 1: thrown away, the referee enters 도 by hand
    live_server.post_event(match_id, {"type": "throw", "team": 0, "result": "도"}, ref)
    live_server.post_event(match_id, {"type": "move", "team": 0, "result": "도", "piece": 0}, ref)
    live_server.inject_reading(match_id, "개")  # capture 2: confirmed as read
    status, body = ref.post(f"/api/matches/{match_id}/reading/confirm", {"result": "개"})
    assert status == 200, body
    live_server.post_event(match_id, {"type": "move", "team": 1, "result": "개", "piece": 0}, ref)
    live_server.inject_reading(match_id, "걸")  # capture 3: corrected by the referee to 모
    status, body = ref.post(f"/api/matches/{match_id}/reading/confirm", {"result": "모"})
    assert status == 200, body

    status, raw, kind = _get(f"{live_server.url}/replay/{match_id}/timeline.json")
    assert status == 200 and kind.startswith("application/json")
    data = json.loads(raw)
    throws = [s for s in data["steps"] if s["type"] == "throw"]
    assert [(s["event"]["result"], s["capture"]) for s in throws] == [("도", None), ("개", 2), ("모", 3)]
    assert set(data["captures"]) == {"1", "2", "3"}
    for n, read in (("2", "개"), ("3", "걸")):
        cap = data["captures"][n]
        assert cap["annotated"] == f"/replay/{match_id}/captures/{n}/annotated.jpg"
        assert cap["reading"]["result"] == read
        status, image, kind = _get(live_server.url + cap["annotated"])
        assert status == 200 and kind == "image/jpeg" and image[:2] == b"\xff\xd8"
    status, page, _ = _get(f"{live_server.url}/replay/{match_id}")
    assert status == 200 and f"/replay/{match_id}/timeline.json".encode() in page
    status, sheet, _ = _get(f"{live_server.url}/replay/{match_id}/sheet")
    assert "촬영 3".encode() in sheet
