"""Errors of the match layer; all are ValueError (bad input from a record or a console)."""

from __future__ import annotations

from typing import Any


class MatchError(ValueError):
    """Base of every error raised by :mod:`yut_cam.match`.

    ``rule`` names the broken rule in words (for the referee); ``ko`` is the message in
    Korean for the referee's console (``str(exc)`` stays English); ``line`` and ``event``
    are set when the error comes from a line of a record.
    """

    def __init__(
        self, message: str, rule: str = "", line: int | None = None, event: Any = None, *, ko: str = ""
    ) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.line = line
        self.event = event
        self.ko = ko

    def at_line(self, line: int, event: Any) -> MatchError:
        """The same error, located at a line of a record."""
        return type(self)(self.message, self.rule, line, event, ko=self.ko)

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        rule = f" [rule: {self.rule}]" if self.rule else ""
        return f"{where}{self.message}{rule}"


class RecordFormatError(MatchError):
    """A record line that is not valid JSON or not a well-formed event."""


class IllegalEventError(MatchError):
    """A well-formed event the rules or the referee regulations do not allow now."""
