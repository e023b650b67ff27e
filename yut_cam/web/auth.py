"""Referee authentication: PIN hashing, the session, the CSRF token, the login rate limit."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import current_app, request, session
from werkzeug.security import check_password_hash, generate_password_hash

from yut_cam.web.errors import ForbiddenError, NotLoggedInError, TooManyAttemptsError

F = TypeVar("F", bound=Callable[..., Any])
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"


def hash_pin(pin: str) -> str:
    return generate_password_hash(pin, method="scrypt")


def pin_matches(pin_hash: str, pin: str) -> bool:
    return check_password_hash(pin_hash, pin)


class LoginLimiter:
    """At most ``attempts`` failed logins per client within ``window`` seconds."""

    def __init__(self, attempts: int = 5, window: float = 300.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.attempts, self.window, self.clock = attempts, window, clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, client: str, now: float) -> deque[float]:
        q = self._failures.setdefault(client, deque())
        while q and now - q[0] >= self.window:
            q.popleft()
        return q

    def check(self, client: str) -> None:
        with self._lock:
            now = self.clock()
            q = self._recent(client, now)
            if len(q) >= self.attempts:
                retry = int(self.window - (now - q[0])) + 1
                raise TooManyAttemptsError(
                    f"too many wrong PINs from {client}: try again in {retry} s", retry_after=retry
                )

    def failed(self, client: str) -> None:
        with self._lock:
            self._recent(client, self.clock()).append(self.clock())

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._failures.pop(client, None)


def is_referee() -> bool:
    return bool(session.get("referee"))


def csrf_token() -> str:
    """The session's CSRF token (created on first use)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def check_csrf() -> None:
    expected = session.get("csrf")
    given = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD)
    if not isinstance(expected, str) or not given or not hmac.compare_digest(expected, given):
        raise ForbiddenError("missing or wrong CSRF token (send header X-CSRF-Token)", rule="CSRF")


def login(pin: str) -> str:
    """Check the PIN (rate-limited per client); start a referee session; → CSRF token."""
    limiter: LoginLimiter = current_app.extensions["yut_cam.limiter"]
    client = request.remote_addr or "?"
    limiter.check(client)
    if not pin_matches(current_app.config["REFEREE_PIN_HASH"], pin):
        limiter.failed(client)
        raise NotLoggedInError("wrong PIN", rule="심판 로그인")
    limiter.succeeded(client)
    session.clear()
    session["referee"] = True
    session.permanent = True
    return csrf_token()


def referee_required(fn: F) -> F:
    """A write: needs the referee session AND the session's CSRF token."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_referee():
            raise NotLoggedInError("referee login required: spectators can only watch", rule="심판 로그인")
        check_csrf()
        service = current_app.extensions.get("yut_cam.service")
        if service is not None:
            service.last_referee_action = service.monotonic()
        return fn(*args, **kwargs)

    return cast(F, wrapper)
