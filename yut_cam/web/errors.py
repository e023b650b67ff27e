"""Errors of the web service: one base; each carries its HTTP status and the rule in words."""

from __future__ import annotations


class ServiceError(Exception):
    """Base of every error the live match service raises to the HTTP layer."""

    status = 500

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def to_json(self) -> dict[str, str]:
        return {"error": self.message, "rule": self.rule}


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
