"""Throw results: 도 개 걸 윷 모 빽도 and 낙, their values and ideal odds."""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Final

from yut_cam.rules.errors import UnknownThrowError, josa


class Throw(enum.Enum):
    """One throw of the four sticks, as the referee calls it."""

    DO = "도"
    GAE = "개"
    GEOL = "걸"
    YUT = "윷"
    MO = "모"
    BACKDO = "빽도"
    NAK = "낙"

    @property
    def steps(self) -> int:
        """Steps moved: 1..5 forward, −1 for 빽도, 0 for 낙 (void)."""
        return _STEPS[self]

    @property
    def label(self) -> str:
        return self.value

    @property
    def is_forward(self) -> bool:
        return self.steps > 0

    @property
    def throws_again(self) -> bool:
        """윷 and 모 earn another throw (rule 000)."""
        return self is Throw.YUT or self is Throw.MO

    @property
    def rank(self) -> int:
        """Order for the captains' throw-off: 모 > 윷 > 걸 > 개 > 도 > 빽도 (낙 lowest)."""
        return _RANK[self]

    def __str__(self) -> str:
        return self.value


_STEPS: Final = {
    Throw.DO: 1, Throw.GAE: 2, Throw.GEOL: 3, Throw.YUT: 4, Throw.MO: 5,
    Throw.BACKDO: -1, Throw.NAK: 0,
}  # fmt: skip
_RANK: Final = {
    Throw.MO: 6, Throw.YUT: 5, Throw.GEOL: 4, Throw.GAE: 3, Throw.DO: 2,
    Throw.BACKDO: 1, Throw.NAK: 0,
}  # fmt: skip

_ALIASES: Final = {
    "do": Throw.DO, "gae": Throw.GAE, "geol": Throw.GEOL, "gul": Throw.GEOL,
    "yut": Throw.YUT, "yunt": Throw.YUT, "mo": Throw.MO,
    "backdo": Throw.BACKDO, "빽도": Throw.BACKDO, "뒷도": Throw.BACKDO, "백도": Throw.BACKDO,
    "후도": Throw.BACKDO, "nak": Throw.NAK, "낙": Throw.NAK,
}  # fmt: skip

#: Ideal odds per throw of four fair half-cylinder sticks, one marked (16 equal cases).
IDEAL_ODDS: Final[dict[Throw, Fraction]] = {
    Throw.DO: Fraction(3, 16),
    Throw.GAE: Fraction(6, 16),
    Throw.GEOL: Fraction(4, 16),
    Throw.YUT: Fraction(1, 16),
    Throw.MO: Fraction(1, 16),
    Throw.BACKDO: Fraction(1, 16),
}

#: Results a referee can call, in the order the console shows them.
RESULTS: Final = (Throw.DO, Throw.GAE, Throw.GEOL, Throw.YUT, Throw.MO, Throw.BACKDO, Throw.NAK)


def parse_throw(text: str | Throw) -> Throw:
    """A :class:`Throw` from its Korean name (도 개 걸 윷 모 빽도 낙) or a romanised alias."""
    if isinstance(text, Throw):
        return text
    if isinstance(text, str):
        key = text.strip()
        try:
            return Throw(key)
        except ValueError:
            found = _ALIASES.get(key.lower())
            if found is not None:
                return found
    raise UnknownThrowError(
        f"unknown throw result {text!r}: expected one of 도 개 걸 윷 모 빽도 낙",
        ko=f"{text!r}{josa(str(text), '은/는')} 윷 결과가 아닙니다: 도 개 걸 윷 모 빽도 낙 가운데 하나여야 합니다",
    )


def result_of_faces(flat_up: int, marked_flat_up: bool) -> Throw:
    """The result of four sticks given how many show the flat side (배) up.

    Zero flat sides is 모; one is 도, or 빽도 when that one stick is the marked one.
    """
    if not 0 <= flat_up <= 4:
        raise UnknownThrowError(
            f"{flat_up} sticks flat side up: four sticks have 0..4",
            ko=f"배가 위인 윷가락이 {flat_up}개일 수는 없습니다: 윷가락은 4개이므로 0~4개입니다",
        )
    if flat_up == 1 and marked_flat_up:
        return Throw.BACKDO
    return (Throw.MO, Throw.DO, Throw.GAE, Throw.GEOL, Throw.YUT)[flat_up]
