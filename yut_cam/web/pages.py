"""Server-rendered page shells: the scoreboard (public) and the referee's login/console."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as WerkzeugResponse

from yut_cam.web import auth
from yut_cam.web.errors import NotFoundError, NotLoggedInError, ServiceError, TooManyAttemptsError
from yut_cam.web.service import MatchService

scoreboard = Blueprint("scoreboard", __name__)
referee = Blueprint("referee", __name__, url_prefix="/referee")


def _service() -> MatchService:
    svc: MatchService = current_app.extensions["yut_cam.service"]
    return svc


def _default_match() -> int | None:
    svc = _service()
    current = svc.current_id()
    if current is not None:
        return current
    ids = [m["id"] for m in svc.matches()]
    return max(ids) if ids else None


def _known(match_id: int) -> int:
    try:
        _service().live_state(match_id)
    except NotFoundError:
        abort(404)
    return match_id


@scoreboard.get("/")
def index() -> str:
    return render_template("scoreboard.html", match_id=_default_match(), is_referee=auth.is_referee())


@scoreboard.get("/m/<int:match_id>")
def match(match_id: int) -> str:
    return render_template("scoreboard.html", match_id=_known(match_id), is_referee=auth.is_referee())


@referee.get("")
def console() -> str | WerkzeugResponse:
    if not auth.is_referee():
        return redirect(url_for("referee.login_page", next=request.full_path))
    wanted = request.args.get("m", type=int)
    match_id = _known(wanted) if wanted is not None else _default_match()
    return render_template("console.html", match_id=match_id, csrf_token=auth.csrf_token(), is_referee=True)


@referee.get("/login")
def login_page() -> str:
    return render_template("login.html", match_id=None, is_referee=auth.is_referee(), error=None)


@referee.post("/login")
def login() -> Any:
    wants_json = request.is_json
    data: Any = request.get_json(silent=True) if wants_json else request.form
    pin = data.get("pin") if data is not None and hasattr(data, "get") else None
    try:
        if not isinstance(pin, str) or not pin:
            raise NotLoggedInError("enter the referee PIN", rule="심판 로그인")
        token = auth.login(pin)
    except ServiceError as exc:
        if wants_json:
            raise
        page = render_template("login.html", match_id=None, is_referee=False, error=exc.message)
        headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, TooManyAttemptsError) else {}
        return page, exc.status, headers
    if wants_json:
        return {"ok": True, "csrf_token": token}
    return redirect(url_for("referee.console"))


@referee.post("/logout")
def logout() -> Any:
    if auth.is_referee():
        auth.check_csrf()
    from flask import session

    session.clear()
    if request.is_json:
        return {"ok": True}
    return redirect(url_for("scoreboard.index"))
