"""Errors of the web service: one base; each carries its HTTP status and the rule in words.

A refusal answers ``{"error": <English>, "rule": <규정>}``.  A client that asks for Korean
(``Accept-Language: ko``, as the referee console and Korean browsers do) gets the referee's
sentence instead: ``{"error": <한국어, or English if there is none>, "error_en": <English>,
"rule": ...}``.  Scripts, logs and the CLI keep the English message.
"""

from __future__ import annotations


class ServiceError(Exception):
    """Base of every error the live match service raises to the HTTP layer."""

    status = 500

    def __init__(self, message: str, rule: str = "", *, ko: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.ko = ko

    def to_json(self, korean: bool | None = None) -> dict[str, str]:
        """The JSON body; ``korean`` None: as the current request's Accept-Language asks."""
        if korean is None:
            korean = wants_korean()
        if korean:
            return {"error": self.ko or self.message, "error_en": self.message, "rule": self.rule}
        return {"error": self.message, "rule": self.rule}


def wants_korean() -> bool:
    """Whether the current request (if any) prefers Korean to English."""
    from flask import has_request_context, request

    return has_request_context() and request.accept_languages.best_match(("en", "ko")) == "ko"


class BadRequestError(ServiceError, ValueError):
    """Malformed input: not JSON, not an object, an event or header that does not parse."""

    status = 400


class NotLoggedInError(ServiceError):
    status = 401


class ForbiddenError(ServiceError):
    """Logged in but the CSRF token is missing or wrong, or the action is switched off."""

    status = 403


class NotFoundError(ServiceError, LookupError):
    status = 404


class ConflictError(ServiceError):
    """Stale ``expect_seq`` (someone else recorded an event first) or a finished match."""

    status = 409


class IllegalError(ServiceError, ValueError):
    """A well-formed event the rules do not allow now; nothing was written."""

    status = 422


class TooManyAttemptsError(ServiceError):
    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, rule="로그인 시도 제한")
        self.retry_after = retry_after


class UnavailableError(ServiceError):
    """A device the request needs is not there (no LED timer, no camera)."""

    status = 503
