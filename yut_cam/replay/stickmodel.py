"""The probability model of one throw of four 윷 sticks, and the pooled Pearson test.

Each stick lands flat side (배) up with probability ``p``; one of the four carries the mark
that turns a lone 배 into 빽도. A result is fixed by the number of 배 (and, for one 배,
whether it is the marked stick), so every result's probability is ``c · p^a (1-p)^(4-a)``:

=====  ===  =================
result  a   probability
=====  ===  =================
모      0   (1-p)^4
도      1   3 p (1-p)^3   (a plain stick is the only 배)
빽도    1   p (1-p)^3     (the marked stick is the only 배)
개      2   6 p² (1-p)²
걸      3   4 p³ (1-p)
윷      4   p^4
=====  ===  =================

At ``p = 1/2`` these are the ideal 16-case odds 3/6/4/1/1/1 of 16 (DESIGN "Rules decisions").

Pooling: Pearson's statistic is trusted when every expected count is at least 5. Cells are
kept in the order of their number of 배 (모, 빽도, 도, 개, 걸, 윷) and a sparse cell is merged
with its smaller neighbour in that order, smallest first (ties: the earlier result in
도 개 걸 윷 모 빽도 order), until every pooled cell expects 5 or more. Merging neighbours by
number of 배 keeps the direction of a bias visible: 윷 goes with 걸 and 모 with 빽도, never
윷 with 모. With the ideal odds:

===========  ==========================  ==
throws       cells                       df
===========  ==========================  ==
under 16     (no test: one cell)         –
16 to 39     모+빽도+도, 개, 걸+윷         2
40 to 79     모+빽도, 도, 개, 걸+윷         3
80 and more  모, 빽도, 도, 개, 걸, 윷       5
===========  ==========================  ==
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from yut_cam.vision.types import FLAT_UP

__all__ = [
    "RESULTS",
    "ALL_RESULTS",
    "NAK",
    "FLAT",
    "ROUND",
    "IDEAL_ODDS",
    "FLAT_COUNT",
    "MIN_EXPECTED",
    "StickStatsError",
    "PooledCell",
    "result_probabilities",
    "pool_cells",
    "pearson_statistic",
]

RESULTS: tuple[str, ...] = ("도", "개", "걸", "윷", "모", "빽도")
NAK = "낙"
ALL_RESULTS: tuple[str, ...] = RESULTS + (NAK,)
FLAT = "배"
ROUND = "등"
IDEAL_ODDS: Mapping[str, Fraction] = {
    "도": Fraction(3, 16),
    "개": Fraction(6, 16),
    "걸": Fraction(4, 16),
    "윷": Fraction(1, 16),
    "모": Fraction(1, 16),
    "빽도": Fraction(1, 16),
}
FLAT_COUNT: Mapping[str, int] = FLAT_UP
MIN_EXPECTED = 5.0
_POOL_ORDER: tuple[str, ...] = ("모", "빽도", "도", "개", "걸", "윷")


class StickStatsError(ValueError):
    """Bad input to the stick statistics (the message quotes it)."""


def result_probabilities(flat_rate: float) -> dict[str, float]:
    """Probability of each result when every stick shows 배 with probability ``flat_rate``."""
    p = float(flat_rate)
    if not (0.0 <= p <= 1.0):
        raise StickStatsError(f"flat-side-up rate must be within 0..1, got {flat_rate!r}")
    q = 1.0 - p
    return {
        "도": 3.0 * p * q**3,
        "개": 6.0 * p**2 * q**2,
        "걸": 4.0 * p**3 * q,
        "윷": p**4,
        "모": q**4,
        "빽도": p * q**3,
    }


@dataclass(frozen=True)
class PooledCell:
    """One cell of the chi-square test: one or more results counted together."""

    results: tuple[str, ...]
    observed: int
    expected: float

    @property
    def label(self) -> str:
        return "+".join(self.results)


def pool_cells(throws: int, probabilities: Mapping[str, float] | None = None) -> tuple[tuple[str, ...], ...]:
    """The groups of results the test uses at ``throws`` throws (see the module doc).

    The grouping depends only on the number of throws and the null odds, never on the
    observed counts, so the test's size and power can be computed in advance.
    """
    if throws < 0:
        raise StickStatsError(f"number of throws must be >= 0, got {throws!r}")
    probs = {r: float(IDEAL_ODDS[r]) for r in RESULTS} if probabilities is None else dict(probabilities)
    groups: list[tuple[str, ...]] = [(r,) for r in _POOL_ORDER]

    def expected(group: Sequence[str]) -> float:
        return throws * sum(probs[r] for r in group)

    while len(groups) > 1:
        i = min(range(len(groups)), key=lambda k: (expected(groups[k]), RESULTS.index(groups[k][0])))
        if expected(groups[i]) >= MIN_EXPECTED:
            break
        neighbours = [k for k in (i - 1, i + 1) if 0 <= k < len(groups)]
        j = min(neighbours, key=lambda k: (expected(groups[k]), k))
        a, b = sorted((i, j))
        groups[a] = groups[a] + groups[b]
        del groups[b]
    return tuple(groups)


def pearson_statistic(cells: Sequence[PooledCell]) -> float:
    """Σ (observed − expected)² / expected over the cells."""
    total = 0.0
    for cell in cells:
        if cell.expected <= 0.0:
            raise StickStatsError(f"cell {cell.label} has no expected count")
        total += (cell.observed - cell.expected) ** 2 / cell.expected
    return total
