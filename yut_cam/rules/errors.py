"""Errors of the rules engine. All are :class:`ValueError`: they report bad input.

Every error keeps its English message as ``str(exc)`` (CLI, logs) and may carry a Korean
sentence for the referee in ``exc.ko``.  :func:`josa` picks the particle that fits a word.
"""

from __future__ import annotations

#: Whether the spoken digit ends in a consonant (영 일 이 삼 사 오 육 칠 팔 구), and in ㄹ.
_DIGIT_FINAL = {"0": 21, "1": 8, "2": 0, "3": 16, "4": 0, "5": 0, "6": 1, "7": 8, "8": 8, "9": 0}
_RIEUL = 8


def josa(word: str, pair: str) -> str:
    """The particle of ``pair`` ("은/는", "이/가", "을/를", "과/와", "으로/로") after ``word``.

    A word ending in a Hangul syllable or a digit gets the right form; anything else (a Latin
    name, a quote) gets both, as "은(는)".
    """
    with_final, without = pair.split("/")
    last = word.rstrip(" '\"’)")[-1:] if word.rstrip(" '\"’)") else ""
    if "가" <= last <= "힣":
        final = (ord(last) - ord("가")) % 28
    elif last in _DIGIT_FINAL:
        final = _DIGIT_FINAL[last]
    else:
        return f"{with_final}({without})"
    if with_final == "으로":
        return without if final in (0, _RIEUL) else with_final
    return with_final if final else without


class RulesError(ValueError):
    """Base of every error raised by :mod:`yut_cam.rules`; ``ko`` is the Korean message."""

    def __init__(self, message: str, *, ko: str = "") -> None:
        super().__init__(message)
        self.ko = ko


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

    def __init__(self, message: str, rule: str = "", *, ko: str = "") -> None:
        super().__init__(message, ko=ko)
        self.rule = rule


class AmbiguousMoveError(IllegalMoveError):
    """A move with more than one legal destination and no ``to`` to pick one."""
