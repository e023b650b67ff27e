"""Stick statistics for the referee's equipment check (issue 7 item 4).

Over any set of recorded throws: the counts of 도 개 걸 윷 모 빽도 against the ideal 16-case
odds (3/6/4/1/1/1 of 16), Pearson's chi-square test, the flat-side-up (배) rate of the set
and of each identifiable stick, and a plain verdict with the number of throws still needed.

What is estimated, and how:

* **The test.** Pearson's X² of the six results against the ideal odds, 5 degrees of
  freedom; below 80 throws sparse cells are pooled with their neighbour by number of 배
  (see :mod:`.stickmodel`: 2 df from 16 to 39 throws, 3 df from 40 to 79, no test under
  16) and the report says so. The p-value is the χ² survival function of :mod:`.chisquare` (no scipy). 낙 throws
  are counted apart and left out.
* **The common flat-side-up rate p.** If every stick shows 배 with probability p, each
  result has probability ``c·p^a(1−p)^(4−a)`` with a its number of 배, so the multinomial
  likelihood of the results is, up to a constant, ``p^F (1−p)^(4N−F)`` with F the total
  number of 배 shown. The maximum is therefore p̂ = F / 4N, read from the results alone,
  and its 95% interval is the likelihood-ratio interval of that likelihood. (If the sticks
  differ from each other the faces are less variable than binomial, and the interval is
  conservative.)
* **Each stick.** A record's ``sticks`` list gives each stick's face and which one is
  marked. Only the marked stick (the 빽도 stick) can be followed from throw to throw; the
  three plain sticks cannot be told apart in a record, so they share one rate over 3 faces
  per throw. Both get a Wilson 95% interval. Throws whose faces disagree with the recorded
  result (the referee overrode the camera) are left out of these and counted.
* **Throws needed.** The number of throws at which this same test catches a stick set
  showing 배 60% of the time (instead of 50%) with 80% power at α = 0.05, computed exactly
  by :mod:`.stickpower` (81 throws); the verdict says how many more are needed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from yut_cam.replay.chisquare import chi2_sf
from yut_cam.replay.intervals import RateEstimate, likelihood_ratio_interval, wilson_interval
from yut_cam.replay.stickmodel import (
    ALL_RESULTS,
    FLAT,
    FLAT_COUNT,
    IDEAL_ODDS,
    NAK,
    RESULTS,
    ROUND,
    PooledCell,
    StickStatsError,
    pearson_statistic,
    pool_cells,
    result_probabilities,
)
from yut_cam.replay.stickpower import MAX_EXACT_THROWS, approximate_power, exact_power, throws_needed

__all__ = [
    "StickStatsError",
    "YutlogError",
    "Stick",
    "Throw",
    "PearsonTest",
    "PowerPlan",
    "Note",
    "Verdict",
    "StickStats",
    "pearson_test",
    "analyse_throws",
    "read_yutlog",
    "throws_from_results",
    "RESULTS",
    "IDEAL_ODDS",
]


class YutlogError(StickStatsError):
    """A malformed line in a ``.yutlog`` record (the message names the file and line)."""


@dataclass(frozen=True)
class Stick:
    """One stick as the camera saw it: face up (배 flat / 등 round) and whether it is marked."""

    face: str
    marked: bool = False

    def __post_init__(self) -> None:
        if self.face not in (FLAT, ROUND):
            raise StickStatsError(f"stick face must be 배 or 등, got {self.face!r}")
        if not isinstance(self.marked, bool):
            raise StickStatsError(f"stick 'marked' must be true or false, got {self.marked!r}")


@dataclass(frozen=True)
class Throw:
    """One throw: its result and, when the camera read them, the four sticks."""

    result: str
    sticks: tuple[Stick, ...] | None = None

    def __post_init__(self) -> None:
        if self.result not in ALL_RESULTS:
            raise StickStatsError(f"throw result must be one of {' '.join(ALL_RESULTS)}, got {self.result!r}")
        if self.sticks is not None and self.result != NAK:
            if len(self.sticks) != 4:
                raise StickStatsError(f"a throw has 4 sticks, got {len(self.sticks)}")
            marked = sum(1 for s in self.sticks if s.marked)
            if marked != 1:
                raise StickStatsError(f"exactly one stick is marked, got {marked}")

    @property
    def faces_result(self) -> str | None:
        """The result the stick faces show (None without sticks)."""
        if self.sticks is None or self.result == NAK:
            return None
        flats = [s for s in self.sticks if s.face == FLAT]
        if len(flats) == 1 and flats[0].marked:
            return "빽도"
        return {0: "모", 1: "도", 2: "개", 3: "걸", 4: "윷"}[len(flats)]


@dataclass(frozen=True)
class PearsonTest:
    """Pearson's chi-square of the (pooled) result counts against the ideal odds."""

    statistic: float
    df: int
    p_value: float
    cells: tuple[PooledCell, ...]

    @property
    def pooled(self) -> bool:
        return any(len(c.results) > 1 for c in self.cells)


@dataclass(frozen=True)
class PowerPlan:
    """How many throws the test needs to catch sticks showing 배 at ``alternative``."""

    alternative: float
    alpha: float
    power: float
    throws_needed: int
    power_at_needed: float
    exact: bool
    throws_more: int
    power_now: float | None


@dataclass(frozen=True)
class Note:
    ko: str
    en: str


@dataclass(frozen=True)
class Verdict:
    code: str  # "too_few" | "fair" | "biased" | "uneven"
    ko: str
    en: str


@dataclass(frozen=True)
class StickStats:
    throws: int
    nak: int
    counts: Mapping[str, int]
    expected: Mapping[str, float]
    test: PearsonTest | None
    flat_rate: RateEstimate | None
    marked_stick: RateEstimate | None
    plain_sticks: RateEstimate | None
    throws_with_faces: int
    faces_disagree: int
    plan: PowerPlan
    verdict: Verdict
    notes: tuple[Note, ...] = field(default_factory=tuple)

    def as_json(self) -> dict[str, object]:
        test = self.test
        return {
            "throws": self.throws,
            "nak": self.nak,
            "results": [
                {
                    "result": r,
                    "observed": self.counts[r],
                    "expected": self.expected[r],
                    "ideal": f"{int(IDEAL_ODDS[r] * 16)}/16",
                }
                for r in RESULTS
            ],
            "chi_square": None
            if test is None
            else {
                "statistic": test.statistic,
                "df": test.df,
                "p_value": test.p_value,
                "pooled": test.pooled,
                "cells": [
                    {"results": list(c.results), "observed": c.observed, "expected": c.expected} for c in test.cells
                ],
            },
            "flat_rate": None if self.flat_rate is None else self.flat_rate.as_json(),
            "sticks": {
                "marked": None if self.marked_stick is None else self.marked_stick.as_json(),
                "plain": None if self.plain_sticks is None else self.plain_sticks.as_json(),
                "throws_with_faces": self.throws_with_faces,
                "faces_disagree": self.faces_disagree,
            },
            "plan": {
                "alternative_flat_rate": self.plan.alternative,
                "alpha": self.plan.alpha,
                "power": self.plan.power,
                "throws_needed": self.plan.throws_needed,
                "power_at_needed": self.plan.power_at_needed,
                "exact": self.plan.exact,
                "throws_more": self.plan.throws_more,
                "power_now": self.plan.power_now,
            },
            "verdict": {"code": self.verdict.code, "ko": self.verdict.ko, "en": self.verdict.en},
            "notes": [{"ko": n.ko, "en": n.en} for n in self.notes],
        }


def pearson_test(counts: Mapping[str, int]) -> PearsonTest | None:
    """The pooled Pearson test of ``counts`` (results → count) against the ideal odds.

    None when the throws are too few for even two cells expecting 5 each (under 16 throws).
    """
    for r in counts:
        if r not in RESULTS:
            raise StickStatsError(f"unknown result {r!r} in counts (낙 is not part of the test)")
    n = sum(counts.get(r, 0) for r in RESULTS)
    groups = pool_cells(n)
    if len(groups) < 2:
        return None
    cells = tuple(
        PooledCell(g, sum(counts.get(r, 0) for r in g), n * float(sum(IDEAL_ODDS[r] for r in g))) for g in groups
    )
    stat = pearson_statistic(cells)
    df = len(cells) - 1
    return PearsonTest(stat, df, chi2_sf(stat, df), cells)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _plan(n: int, alternative: float, alpha: float, power: float) -> PowerPlan:
    needed, at_needed, exact = throws_needed(alternative, alpha, power)
    more = max(0, needed - n)
    now: float | None = None
    if 0 < n < needed:
        if n <= MAX_EXACT_THROWS:
            now = exact_power(n, result_probabilities(alternative), alpha)
        else:
            now = approximate_power(n, alternative, alpha)
    return PowerPlan(alternative, alpha, power, needed, at_needed, exact, more, now)


def _verdict(n: int, test: PearsonTest | None, rate: RateEstimate | None, plan: PowerPlan) -> Verdict:
    alt = _pct(plan.alternative)
    need_ko = (
        f" — 배 {alt}와 50%를 가리려면 {plan.throws_more}번 더 던져야 함"
        f" (검정력 {_pct(plan.power)}, 유의수준 {plan.alpha:g})"
    )
    need_en = (
        f"; {plan.throws_more} more throws needed to tell {alt} flat side up from 50%"
        f" ({_pct(plan.power)} power, alpha {plan.alpha:g})"
    )
    if test is None or rate is None:
        return Verdict("too_few", f"판단 보류 (던진 횟수 {n}번, 너무 적음){need_ko}", f"too few throws to tell ({n}){need_en}")
    tail_ko = need_ko if plan.throws_more > 0 else ""
    tail_en = need_en if plan.throws_more > 0 else ""
    rng_ko = f"{_pct(rate.rate)}, 95% 구간 {100 * rate.low:.0f}–{_pct(rate.high)}"
    rng_en = f"{_pct(rate.rate)}, 95% CI {100 * rate.low:.0f}–{_pct(rate.high)}"
    if test.p_value >= plan.alpha:
        return Verdict(
            "fair",
            f"공정 범위 (던진 {n}번으로 알 수 있는 한; 배 {rng_ko}){tail_ko}",
            f"fair within what {n} throws can tell (flat side up {rng_en}){tail_en}",
        )
    if rate.low > 0.5:
        return Verdict("biased", f"치우침 의심 (배가 위로 ~{rng_ko})", f"biased: flat side up ~{rng_en}")
    if rate.high < 0.5:
        return Verdict(
            "biased",
            f"치우침 의심 (등이 더 자주 위로: 배 ~{rng_ko})",
            f"biased: round side up more often, flat side up ~{rng_en}",
        )
    return Verdict(
        "uneven",
        f"분포 이상 의심 (배 비율은 ~{_pct(rate.rate)}로 반반에 가깝지만 결과가 이상적 확률과 다름: 가락을 하나씩 확인)",
        f"results deviate from the ideal odds although the flat side comes up ~{_pct(rate.rate)}:"
        " check the sticks one by one",
    )


def analyse_throws(
    throws: Iterable[Throw], *, alpha: float = 0.05, power: float = 0.8, alternative: float = 0.6
) -> StickStats:
    """Everything the equipment check reports, from a sequence of throws."""
    counts = {r: 0 for r in RESULTS}
    nak = 0
    marked_flat = marked_n = plain_flat = plain_n = with_faces = disagree = 0
    for t in throws:
        if t.result == NAK:
            nak += 1
            continue
        counts[t.result] += 1
        if t.sticks is None:
            continue
        if t.faces_result != t.result:
            disagree += 1
            continue
        with_faces += 1
        for s in t.sticks:
            if s.marked:
                marked_n += 1
                marked_flat += s.face == FLAT
            else:
                plain_n += 1
                plain_flat += s.face == FLAT
    n = sum(counts.values())
    expected = {r: n * float(IDEAL_ODDS[r]) for r in RESULTS}
    test = pearson_test(counts)
    flats = sum(FLAT_COUNT[r] * c for r, c in counts.items())
    rate = likelihood_ratio_interval(flats, 4 * n) if n else None
    marked = wilson_interval(marked_flat, marked_n) if marked_n else None
    plain = wilson_interval(plain_flat, plain_n) if plain_n else None
    plan = _plan(n, alternative, alpha, power)
    notes: list[Note] = []
    if test is not None and test.pooled:
        label = ", ".join(c.label for c in test.cells)
        notes.append(
            Note(
                f"기대 횟수가 5 미만인 칸을 합침: {label} (자유도 {test.df})",
                f"cells expecting fewer than 5 were pooled: {label} ({test.df} degrees of freedom)",
            )
        )
    if disagree:
        notes.append(
            Note(
                f"가락 면이 기록된 결과와 다른 던짐 {disagree}번은 가락별 비율에서 뺌",
                f"{disagree} throws whose stick faces disagree with the recorded result are left out of the per-stick rates",
            )
        )
    if rate is not None and test is not None and test.p_value < alpha and 0.55 <= rate.rate <= 0.65:
        notes.append(
            Note(
                "반원통 가락에서 흔히 재는 정도의 치우침 (배 약 60%)",
                "a bias typical of real half-cylinder sticks (flat side up about 60%)",
            )
        )
    if marked is not None and plain is not None and (marked.low > plain.high or marked.high < plain.low):
        notes.append(
            Note(
                f"표시 가락이 다른 가락과 다름: 배 {_pct(marked.rate)} 대 {_pct(plain.rate)}",
                f"the marked stick differs from the others: flat side up {_pct(marked.rate)} vs {_pct(plain.rate)}",
            )
        )
    return StickStats(
        n, nak, counts, expected, test, rate, marked, plain, with_faces, disagree, plan, _verdict(n, test, rate, plan),
        tuple(notes),
    )


def _parse_stick(raw: object, where: str) -> Stick:
    if not isinstance(raw, dict):
        raise YutlogError(f"{where}: each stick must be an object like {{\"face\":\"배\",\"marked\":false}}, got {raw!r}")
    face = raw.get("face")
    marked = raw.get("marked", False)
    if not isinstance(face, str) or face not in (FLAT, ROUND):
        raise YutlogError(f"{where}: stick face must be 배 or 등, got {face!r}")
    if not isinstance(marked, bool):
        raise YutlogError(f"{where}: stick 'marked' must be true or false, got {marked!r}")
    return Stick(face, marked)


def read_yutlog(lines: Iterable[str], source: str = "<yutlog>") -> list[Throw]:
    """The throws of one ``.yutlog`` record (JSON Lines; line 1 the match header).

    Lines are read by :func:`yut_cam.match.read_record`; events other than ``throw`` are
    skipped. A malformed line, a throw without a valid ``result`` or with a malformed
    ``sticks`` list raises :class:`YutlogError` naming ``source`` and the line number.
    """
    from yut_cam.match import MatchError, read_record

    try:
        record = read_record(lines)
    except MatchError as exc:
        raise YutlogError(f"{source}:{exc.line}: {exc.message}") from None
    out: list[Throw] = []
    for number, event in zip(record.lines, record.events):
        where = f"{source}:{number}"
        kind = event.get("type")
        if not isinstance(kind, str):
            raise YutlogError(f"{where}: event without a \"type\": {json.dumps(event, ensure_ascii=False)[:80]}")
        if kind != "throw":
            continue
        result = event.get("result")
        if result not in ALL_RESULTS:
            raise YutlogError(f"{where}: throw result must be one of {' '.join(ALL_RESULTS)}, got {result!r}")
        raw_sticks = event.get("sticks")
        sticks: tuple[Stick, ...] | None = None
        if raw_sticks is not None and result != NAK:
            if not isinstance(raw_sticks, list):
                raise YutlogError(f"{where}: \"sticks\" must be a list of 4 sticks, got {raw_sticks!r}")
            sticks = tuple(_parse_stick(s, where) for s in raw_sticks)
        try:
            out.append(Throw(result, sticks))
        except StickStatsError as exc:
            raise YutlogError(f"{where}: {exc}") from None
    return out


def throws_from_results(results: Sequence[str]) -> list[Throw]:
    """Throws from bare results (도 개 걸 윷 모 빽도 낙), e.g. a paper record."""
    return [Throw(r) for r in results]
