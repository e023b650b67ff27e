"""Server-Sent Events: ``GET /stream/<id>`` — ``state`` on connect and on every change,
``reading`` when the camera has a new reading, a ``: ping`` comment every 15 s."""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, current_app

from yut_cam.web.pubsub import message
from yut_cam.web.service import MatchService

bp = Blueprint("stream", __name__, url_prefix="/stream")


@bp.get("/<int:match_id>")
def stream(match_id: int) -> Response:
    svc: MatchService = current_app.extensions["yut_cam.service"]
    ping = float(current_app.config["SSE_PING"])
    first = svc.live_state(match_id)  # 404 before the stream opens
    sub = svc.broker.subscribe(match_id)

    def events() -> Iterator[bytes]:
        try:
            yield b"retry: 2000\n\n"
            yield message("state", first).encode()
            while True:
                msg = sub.get(timeout=ping)
                yield b": ping\n\n" if msg is None else msg.encode()
        finally:
            svc.broker.unsubscribe(sub)

    return Response(
        events(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
