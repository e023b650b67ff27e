"""SSE through the Flask test client: state on connect, state after an event, readings."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.web_api.conftest import Referee


def sse_messages(chunks: Iterator[bytes]) -> Iterator[tuple[str, Any]]:
    """(event, data) pairs from an SSE byte stream; comments come back as ("comment", text)."""
    buffer = b""
    for chunk in chunks:
        buffer += chunk
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            event, data = "message", []
            for line in block.decode().split("\n"):
                if line.startswith(":"):
                    yield "comment", line[1:].strip()
                elif line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif line.startswith("retry: "):
                    event = "retry"
            if event != "retry" and data:
                yield event, json.loads("\n".join(data))


def test_stream_sends_state_on_connect_and_on_change(app: Flask, client: FlaskClient, referee: Referee,
                                                     match_id: int) -> None:
    resp = client.get(f"/stream/{match_id}", buffered=False)
    assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
    assert resp.headers["Cache-Control"] == "no-cache"
    messages = sse_messages(iter(resp.response))
    kind, first = next(messages)
    assert kind == "state" and first["seq"] == 1 and first["id"] == match_id
    assert app.extensions["yut_cam.service"].broker.count(match_id) == 1
    referee.ok(match_id, {"type": "throw", "team": 0, "result": "걸"})
    kind, state = next(messages)
    assert kind == "state" and state["seq"] == 2 and state["pending"] == ["걸"]
    referee.post(f"/api/matches/{match_id}/reading", {"result": "모", "confidence": 0.5})
    kinds = [next(messages), next(messages)]
    assert [k for k, _ in kinds] == ["reading", "state"]
    assert kinds[0][1]["result"] == "모" and kinds[1][1]["reading"]["n"] == 1
    resp.close()
    assert app.extensions["yut_cam.service"].broker.count(match_id) == 0


def test_stream_pings_when_quiet(app: Flask, client: FlaskClient, match_id: int) -> None:
    app.config["SSE_PING"] = 0.01
    resp = client.get(f"/stream/{match_id}", buffered=False)
    messages = sse_messages(iter(resp.response))
    assert next(messages)[0] == "state"
    assert next(messages) == ("comment", "ping")
    resp.close()


def test_refused_event_publishes_nothing(client: FlaskClient, referee: Referee, match_id: int) -> None:
    resp = client.get(f"/stream/{match_id}", buffered=False)
    sub_queue = client.application.extensions["yut_cam.service"].broker._subs[match_id]
    messages = sse_messages(iter(resp.response))
    next(messages)
    assert referee.event(match_id, {"type": "start"}).status_code == 422
    assert all(s.queue.empty() for s in sub_queue)
    resp.close()


def test_slow_subscriber_drops_the_stale_backlog() -> None:
    from yut_cam.web.pubsub import QUEUE_SIZE, Broker, message

    broker = Broker()
    sub, other = broker.subscribe(1), broker.subscribe(2)
    for n in range(QUEUE_SIZE + 5):
        assert broker.publish(1, message("state", {"seq": n})) == 1
    seen = []
    while (got := sub.get(timeout=0)) is not None:
        seen.append(json.loads(got.data)["seq"])
    assert seen == list(range(QUEUE_SIZE, QUEUE_SIZE + 5)) and sub.dropped == QUEUE_SIZE
    assert other.get(timeout=0) is None  # other matches hear nothing
    broker.unsubscribe(sub)
    assert broker.count(1) == 0 and broker.count() == 1
