"""Errors of the rules engine. All are :class:`ValueError`: they report bad input."""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error raised by :mod:`yut_cam.rules`."""


class UnknownStationError(RulesError):
    """A station name or slug that is not on the board."""


class UnknownThrowError(RulesError):
    """A throw result that is not 도 개 걸 윷 모 빽도 낙."""


class UnknownProfileError(RulesError):
    """A rule profile name that is not registered."""


class IllegalMoveError(RulesError):
    """An action the rules do not allow in the current state.

    ``rule`` names the rule in words, so a console can show it to the referee.
    """

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


class AmbiguousMoveError(IllegalMoveError):
    """A move with more than one legal destination and no ``to`` to pick one."""
