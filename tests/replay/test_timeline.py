"""The timeline: one step per event, each step's state equal to replaying the prefix."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.replay.gen import Driver, header, match
from yut_cam.match import MatchError, replay, state_json
from yut_cam.replay import timeline as tl
from yut_cam.replay.web import create_replay_app

SEEDS = [0, 1, 2, 3, 7, 11]


def _normal(obj: Any) -> Any:
    return json.loads(json.dumps(obj, ensure_ascii=False))


@pytest.mark.parametrize("seed", SEEDS)
def test_every_step_equals_replay_of_the_prefix(seed: int) -> None:
    h, events = match(seed)
    timeline = tl.build(h, events)
    assert [s.index for s in timeline.steps] == list(range(1, len(events) + 1))
    picks = sorted({1, 2, 3, len(events) // 3, len(events) // 2, len(events) - 1, len(events)})
    for k in picks:
        expected = state_json(replay(h, events[:k]))
        assert timeline.steps[k - 1].to_json()["state"] == expected, f"seed {seed} step {k}"
    assert state_json(timeline.final) == state_json(replay(h, events))


@pytest.mark.parametrize("seed", [4, 9])
def test_timeline_json_endpoint_matches_replay(seed: int, record_file: Any) -> None:
    d = Driver(seed)
    d.play(pace=(7.0, 15.0))  # slow: these reach time-up
    path = record_file(d.header, d.events)
    client = create_replay_app(path).test_client()
    data = client.get("/replay/1/timeline.json").get_json()
    assert len(data["steps"]) == len(d.events)
    assert data["start"]["state"] == _normal(state_json(replay(d.header, [])))
    for k in (1, 5, 17, len(d.events) // 2, len(d.events)):
        step = data["steps"][k - 1]
        assert step["index"] == k
        assert step["event"]["type"] == d.events[k - 1]["type"]
        assert step["t"] == d.events[k - 1]["t"]
        assert step["state"] == _normal(state_json(replay(d.header, d.events[:k])))
    assert data["steps"][-1]["state"]["phase"] == "over"
    assert {s["name"] for s in data["board"]["stations"]} >= {"참먹이", "방", "모", "뒷모", "찌모"}


def test_clock_text_at_a_step() -> None:
    h = header(first=0)
    events = [{"type": "start", "t": 0}, {"type": "throw", "team": 0, "result": "윷", "t": 65.2},
              {"type": "throw", "team": 0, "result": "개", "t": 70}]
    steps = tl.build(h, events).steps
    assert steps[0].to_json()["clock"] == {"elapsed": "00:00", "match": "20:00", "shot": 10, "shot_kind": "throw"}
    # 1134.8 s left: the LED shows the second it is in, 18:55 (and 01:05 played)
    assert steps[1].to_json()["clock"] == {"elapsed": "01:05", "match": "18:55", "shot": 10, "shot_kind": "throw"}
    assert steps[2].to_json()["clock"]["shot_kind"] == "move"
    assert steps[2].to_json()["clock"]["shot"] == 30


def _throws(*results: str, **extra: Any) -> list[dict[str, Any]]:
    return [{"type": "throw", "team": 0, "result": r, **extra} for r in results]


CAPTURE_CASES = [
    # no "capture" anywhere: the n-th throw event is capture n (undone throws count)
    ([{"type": "throwoff", "team": 0, "result": "모"}, {"type": "throwoff", "team": 1, "result": "도"},
      {"type": "throw", "team": 0, "result": "윷"}, {"type": "undo"}, {"type": "throw", "team": 0, "result": "윷"},
      {"type": "throw", "team": 0, "result": "개"}],
     [None, None, 1, None, 2, 3]),
    # the service's records: explicit numbers, hand-entered throws have none, throw-offs may have one
    ([{"type": "throwoff", "team": 0, "result": "모", "capture": 1}, {"type": "throwoff", "team": 1, "result": "도"},
      {"type": "throw", "team": 0, "result": "윷", "capture": 3}, {"type": "throw", "team": 0, "result": "개"}],
     [1, None, 3, None]),
]


@pytest.mark.parametrize(("events", "expected"), CAPTURE_CASES)
def test_capture_numbers(events: list[dict[str, Any]], expected: list[int | None]) -> None:
    assert tl.capture_numbers(events) == expected
    steps = tl.build(header(), events).steps
    assert [s.capture for s in steps] == expected


@pytest.mark.parametrize("bad", [0, -2, "3", 1.5, True])
def test_bad_capture_number_is_refused(bad: Any) -> None:
    with pytest.raises(tl.TimelineError, match="capture"):
        tl.capture_numbers([{"type": "throw", "team": 0, "result": "도", "capture": bad}])


def test_illegal_event_strict_and_lenient() -> None:
    h, events = match(2)
    broken = events[:20] + [{"type": "move", "team": 1, "result": "모", "piece": 3, "_line": 22}] + events[20:]
    with pytest.raises(MatchError) as err:
        tl.build(h, broken)
    assert err.value.line == 22
    lenient = tl.build(h, broken, strict=False)
    assert len(lenient.steps) == 20
    assert lenient.error_index == 21
    assert lenient.error is not None and "line 22" in lenient.error


def test_describe_words() -> None:
    h, events = match(1)
    texts = [s.to_json()["text"] for s in tl.build(h, events).steps]
    assert texts[0].startswith("선공 결정: 청룡 감독")
    assert any(t.startswith("청룡 윷 던짐 (김민수)") for t in texts)
    assert any("번 말" in t and "→" in t for t in texts)


def test_undone_steps_are_flagged() -> None:
    h = header(first=0)
    events = [{"type": "start"}, {"type": "throw", "team": 0, "result": "윷"}, {"type": "throw", "team": 0, "result": "개"},
              {"type": "undo"}, {"type": "undo"}, {"type": "throw", "team": 0, "result": "도"}]
    steps = tl.build(h, events).to_json()["steps"]
    assert [s["undone"] for s in steps] == [False, True, True, False, False, False]
    assert steps[4]["state"]["pending"] == [] and steps[5]["state"]["pending"] == ["도"]
