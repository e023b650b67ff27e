"""The JSON API (docs/web-api.md): board, matches, events, readings, captures, timer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, send_file

from yut_cam.web.auth import referee_required
from yut_cam.web.errors import BadRequestError, ForbiddenError, UnavailableError
from yut_cam.web.service import MatchService
from yut_cam.web.views import board_json

bp = Blueprint("api", __name__, url_prefix="/api")


def service() -> MatchService:
    svc: MatchService = current_app.extensions["yut_cam.service"]
    return svc


def body() -> dict[str, Any]:
    """The request's JSON object, or 400."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raw = request.get_data(as_text=True)[:80]
        raise BadRequestError(f"the body must be a JSON object, not {raw!r}")
    return data


@bp.get("/board")
def board() -> Response:
    return jsonify(board_json(float(current_app.config["BOARD_ROTATION"])))


@bp.get("/matches")
def matches() -> Response:
    return jsonify(service().matches())


@bp.post("/matches")
@referee_required
def create_match() -> Response:
    return jsonify({"id": service().create_match(body())})


@bp.get("/matches/<int:match_id>")
def match_state(match_id: int) -> Response:
    return jsonify(service().live_state(match_id))


@bp.get("/matches/<int:match_id>/events")
def match_events(match_id: int) -> Response:
    return jsonify(service().events(match_id))


@bp.post("/matches/<int:match_id>/events")
@referee_required
def post_event(match_id: int) -> Response:
    data = body()
    if "event" not in data:
        raise BadRequestError('the body must be {"event": {...}, "expect_seq": N?}')
    seq, state = service().submit(match_id, data["event"], data.get("expect_seq"))
    return jsonify({"seq": seq, "state": state})


@bp.post("/matches/<int:match_id>/reading/confirm")
@referee_required
def confirm_reading(match_id: int) -> Response:
    data = body()
    seq, state = service().confirm_reading(match_id, data.get("result"), data.get("expect_seq"))
    return jsonify({"seq": seq, "state": state})


@bp.post("/matches/<int:match_id>/reading/dismiss")
@referee_required
def dismiss_reading(match_id: int) -> Response:
    return jsonify({"state": service().dismiss_reading(match_id)})


@bp.post("/matches/<int:match_id>/reading")
@referee_required
def inject_reading(match_id: int) -> Response:
    """A reading as if the camera had made it (tests and camera-less rehearsals only)."""
    if not current_app.config["ALLOW_INJECTED_READINGS"]:
        raise ForbiddenError("injected readings are switched off (serve --allow-injected-readings)")
    from yut_cam.web.camera_loop import card_image

    data = body()
    svc = service()
    n = svc.reserve_capture(match_id)
    result = data.get("result")
    svc.write_capture(match_id, n, {"annotated.jpg": card_image(str(result)), "settled.jpg": card_image("")})
    return jsonify(svc.set_reading(match_id, n, data))


@bp.post("/matches/<int:match_id>/offline_gap")
@referee_required
def settle_gap(match_id: int) -> Response:
    return jsonify({"state": service().settle_gap(match_id, body().get("charge"))})


@bp.post("/matches/<int:match_id>/finish")
@referee_required
def finish(match_id: int) -> Response:
    return jsonify({"state": service().finish(match_id)})


@bp.get("/matches/<int:match_id>/export")
def export(match_id: int) -> Response:
    text = service().export(match_id)
    return Response(text, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="match-{match_id}.yutlog"'})


@bp.get("/matches/<int:match_id>/captures/<int:n>/<name>")
def capture(match_id: int, n: int, name: str) -> Response:
    path = service().capture_path(match_id, n, name)
    return send_file(Path(path).resolve(), max_age=3600)


@bp.get("/timer")
def timer() -> Response:
    link = current_app.extensions.get("yut_cam.hardware")
    text = None if link is None else link.text()
    if text is None:
        raise UnavailableError("no LED timer (hardware is off)", rule="LED 타이머")
    return jsonify({"text": text, "match": text[:5], "shot": text[6:8].strip(), "alert": text.endswith("!")})
