"""The web app: Flask factory with the ``scoreboard``, ``referee``, ``api`` and ``stream``
blueprints around one :class:`~yut_cam.web.service.MatchService`.

Templates and static files live in the top-level ``web/`` directory (found relative to the
repository, or through the ``WEB_DIR`` setting / ``YUT_CAM_WEB_DIR``).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from yut_cam.store import CaptureStore, EventStore, StoreError
from yut_cam.web.config import defaults, resolve
from yut_cam.web.errors import ServiceError, TooManyAttemptsError
from yut_cam.web.service import MatchService


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    settings = defaults()
    if config:
        settings.update(config)
    resolve(settings)
    web_dir = Path(settings["WEB_DIR"])
    app = Flask(
        __name__,
        template_folder=str(web_dir / "templates"),
        static_folder=str(web_dir / "static"),
        static_url_path="/static",
    )
    app.config.update(settings)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]

    wall = settings.get("CLOCK_WALL") or time.time
    store = EventStore(settings["DB_PATH"], now=wall)
    service = MatchService(
        store,
        CaptureStore(settings["CAPTURE_DIR"]),
        monotonic=settings.get("CLOCK_MONOTONIC") or time.monotonic,
        wall=wall,
        rotation=float(settings["BOARD_ROTATION"]),
    )
    from yut_cam.web.auth import LoginLimiter

    app.extensions["yut_cam.service"] = service
    app.extensions["yut_cam.limiter"] = LoginLimiter(
        int(settings["LOGIN_ATTEMPTS"]), float(settings["LOGIN_WINDOW"]),
        settings.get("CLOCK_MONOTONIC") or time.monotonic,
    )  # fmt: skip

    from yut_cam.web import api, calibrate, pages, stream

    app.register_blueprint(pages.scoreboard)
    app.register_blueprint(pages.referee)
    app.register_blueprint(api.bp)
    app.register_blueprint(calibrate.bp)
    app.register_blueprint(stream.bp)
    from yut_cam.replay.web import replay_bp  # the recorded-match review pages (read only)

    app.register_blueprint(replay_bp)
    _error_handlers(app)

    from yut_cam.web.background import attach_hardware, start_background

    attach_hardware(app, service)
    if settings["BACKGROUND"]:
        start_background(app)
    return app


def _error_handlers(app: Flask) -> None:
    @app.errorhandler(ServiceError)
    def service_error(exc: ServiceError) -> tuple[Response, int, dict[str, str]]:
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, TooManyAttemptsError) else {}
        return jsonify(exc.to_json()), exc.status, headers

    @app.errorhandler(StoreError)
    @app.errorhandler(sqlite3.Error)
    def store_error(exc: Exception) -> tuple[Response, int]:
        # nothing was acknowledged: the client may retry once the store is back
        return jsonify({"error": f"the match store is unavailable: {exc}", "rule": "기록 저장"}), 503

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        if request.path.startswith(("/api/", "/stream/")) or request.is_json:
            return jsonify({"error": exc.description or exc.name, "rule": ""}), exc.code or 500
        return exc


def close_app(app: Flask) -> None:
    """Stop the background tasks and close the store (tests; process exit)."""
    stop = app.extensions.get("yut_cam.stop")
    if stop is not None:
        stop()
    link = app.extensions.get("yut_cam.hardware")
    if link is not None:
        link.close()
    service: MatchService = app.extensions["yut_cam.service"]
    service.store.close()


__all__ = ["create_app", "close_app"]
