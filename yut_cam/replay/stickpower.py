"""How many throws the fairness test needs: power of the pooled Pearson test.

The question the referee asks is "would this many throws have caught a stick set whose flat
side (배) comes up 60% of the time instead of 50%?". The test that decides the verdict is
Pearson's chi-square against the ideal 16-case odds, with sparse cells pooled as
:mod:`.stickmodel` describes; its power is computed for that exact procedure.

Why not just the non-central chi-square approximation? Under the alternative, Pearson's X²
is approximately non-central χ²(df, λ) with λ = N Σ (p₁ − p₀)² / p₀. For this alternative
the approximation is optimistic by one to three points of power around 80% (the 윷 cell
doubles its probability, so X² has more spread than the approximation assumes): it says
76 throws, where seeded simulation gives 79% power. So the approximation only gives the
starting point, and the answer comes from the *exact* power:

    P(X² > χ²₁₋α(df)) under Multinomial(N, p₁),

summed over every possible outcome. The cells are split into two halves of at most three;
for each total t of the first half the compositions of both halves are enumerated
(O(t²) each), the second half's values are sorted once, and each first-half outcome looks
up the probability that the second half pushes X² past the critical value. That is O(N³)
work in numpy: a few milliseconds at N = 80.

The throws needed is the smallest N whose exact power reaches the target and keeps it for
every N after it. Two things make power not quite monotone in N: the exact power of a
discrete test is slightly saw-toothed, and when pooling ends (80 throws, all six cells on
their own, 5 degrees of freedom instead of 3) the test briefly loses power (60% sticks:
80.7% at 79 throws, 79.4% at 80, 80.1% at 81). So the answer is checked up to the last change
of pooling and a few throws past it: 81 throws for the defaults (α = 0.05, 80%, 60%). The alternative 1-df test on the count of 배 alone (binomial on the 4N
stick faces) would need fewer throws (about 49) for this particular alternative, but it is
blind to a stick set whose sticks differ from each other while averaging 50%, or to a
marked stick that behaves differently; the equipment check uses the omnibus test and says
how many throws that test needs.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from yut_cam.replay.chisquare import chi2_isf, ncx2_sf
from yut_cam.replay.stickmodel import IDEAL_ODDS, MIN_EXPECTED, RESULTS, StickStatsError, pool_cells, result_probabilities

__all__ = [
    "pooled_probabilities",
    "approximate_power",
    "exact_power",
    "throws_needed",
    "MAX_EXACT_THROWS",
    "simulate_rejections",
    "pooled_groups_label",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Above this many throws the exact sum is too slow for a Pi; the approximation is used.
MAX_EXACT_THROWS = 400
#: Throws past the answer (and past the last change of pooling) checked to keep the power.
STABLE_WINDOW = 5


def _null() -> dict[str, float]:
    return {r: float(IDEAL_ODDS[r]) for r in RESULTS}


def pooled_probabilities(
    throws: int, probabilities: Mapping[str, float]
) -> tuple[tuple[tuple[str, ...], ...], FloatArray, FloatArray]:
    """The test's groups at ``throws`` throws, with null and given probabilities per group."""
    groups = pool_cells(throws)
    null = _null()
    p0 = np.array([sum(null[r] for r in g) for g in groups], dtype=np.float64)
    p1 = np.array([sum(probabilities[r] for r in g) for g in groups], dtype=np.float64)
    return groups, p0, p1


def _check(throws: int, alpha: float) -> None:
    if throws < 1:
        raise StickStatsError(f"number of throws must be >= 1, got {throws!r}")
    if not (0.0 < alpha < 1.0):
        raise StickStatsError(f"alpha must be strictly between 0 and 1, got {alpha!r}")


def approximate_power(throws: int, flat_rate: float, alpha: float = 0.05) -> float:
    """Non-central χ² approximation of the test's power (0 when nothing can be tested)."""
    _check(throws, alpha)
    groups, p0, p1 = pooled_probabilities(throws, result_probabilities(flat_rate))
    df = len(groups) - 1
    if df < 1:
        return 0.0
    lam = throws * float(np.sum((p1 - p0) ** 2 / p0))
    return ncx2_sf(chi2_isf(alpha, df), df, lam)


def _compositions(total: int, parts: int) -> IntArray:
    """All ways to write ``total`` as an ordered sum of ``parts`` (1 to 3) non-negative integers."""
    if parts == 1:
        return np.array([[total]], dtype=np.int64)
    if parts == 2:
        first = np.arange(total + 1, dtype=np.int64)
        return np.column_stack([first, total - first])
    if parts == 3:
        i, j = np.triu_indices(total + 1)
        return np.column_stack([i, j - i, total - j]).astype(np.int64)
    raise StickStatsError(f"cannot enumerate {parts} cells at once")


def _half_outcomes(
    total: int, probs: FloatArray, weights: FloatArray, log_fact: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Σ w·O² and the conditional multinomial probability of every split of ``total``."""
    comp = _compositions(total, len(probs))
    values = (comp.astype(np.float64) ** 2 * weights).sum(axis=1)
    share = probs.sum()
    if share <= 0.0:
        return values[:1], np.array([1.0 if total == 0 else 0.0])
    cond = probs / share
    safe_log = np.log(np.where(cond > 0, cond, 1.0))
    log_p = log_fact[total] - log_fact[comp].sum(axis=1) + (comp * safe_log).sum(axis=1)
    impossible = (comp[:, cond <= 0] > 0).any(axis=1)
    return values, np.where(impossible, 0.0, np.exp(log_p))


def exact_power(throws: int, probabilities: Mapping[str, float], alpha: float = 0.05) -> float:
    """P(the pooled Pearson test rejects at level ``alpha``) when results follow ``probabilities``.

    With the ideal odds as ``probabilities`` this is the test's exact false-alarm rate.
    """
    _check(throws, alpha)
    groups, p0, p1 = pooled_probabilities(throws, probabilities)
    df = len(groups) - 1
    if df < 1:
        return 0.0
    critical = chi2_isf(alpha, df)
    # X² = Σ O²/(N p0) − N, so reject when Σ O²/(N p0) > critical + N.
    threshold = critical + throws - 1e-9 * max(1.0, critical)
    weights = 1.0 / (throws * p0)
    k = len(groups)
    half = (k + 1) // 2
    pa, pb = p1[:half], p1[half:]
    wa, wb = weights[:half], weights[half:]
    log_fact = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, throws + 1, dtype=np.float64)))])
    share_a = float(pa.sum())
    power = 0.0
    for t in range(throws + 1):
        log_binom = log_fact[throws] - log_fact[t] - log_fact[throws - t]
        if share_a in (0.0, 1.0):
            p_t = 1.0 if t == (throws if share_a == 1.0 else 0) else 0.0
        else:
            p_t = math.exp(log_binom + t * math.log(share_a) + (throws - t) * math.log1p(-share_a))
        if p_t < 1e-300:
            continue
        va, qa = _half_outcomes(t, pa, wa, log_fact)
        vb, qb = _half_outcomes(throws - t, pb, wb, log_fact)
        order = np.argsort(vb)
        vb_sorted = vb[order]
        tail = np.concatenate([np.cumsum(qb[order][::-1])[::-1], [0.0]])
        idx = np.searchsorted(vb_sorted, threshold - va, side="right")
        power += p_t * float(np.sum(qa * tail[idx]))
    return min(1.0, max(0.0, power))


@functools.lru_cache(maxsize=64)
def throws_needed(
    flat_rate: float = 0.6, alpha: float = 0.05, power: float = 0.8, limit: int = 100_000
) -> tuple[int, float, bool]:
    """Smallest number of throws at which the test catches sticks showing 배 at ``flat_rate``.

    Returns ``(throws, power_at_throws, exact)``; ``exact`` is False when the answer lies
    beyond :data:`MAX_EXACT_THROWS` and comes from the non-central approximation.
    """
    if not (0.0 < flat_rate < 1.0) or flat_rate == 0.5:
        raise StickStatsError(f"alternative flat-side-up rate must be in (0, 1) and not 0.5, got {flat_rate!r}")
    if not (alpha < power < 1.0):
        raise StickStatsError(f"power must be between alpha and 1, got {power!r}")
    _check(1, alpha)
    # Approximation first: doubling, then bisection (it is monotone in N).
    hi = 8
    while approximate_power(hi, flat_rate, alpha) < power:
        hi *= 2
        if hi > limit:
            raise StickStatsError(f"more than {limit} throws would be needed to detect {flat_rate!r}")
    lo = hi // 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if approximate_power(mid, flat_rate, alpha) >= power:
            hi = mid
        else:
            lo = mid
    guess = hi
    if guess > MAX_EXACT_THROWS:
        return guess, approximate_power(guess, flat_rate, alpha), False
    probs = result_probabilities(flat_rate)
    n = guess
    at_n = exact_power(n, probs, alpha)
    if at_n >= power:
        while n > 1:
            below = exact_power(n - 1, probs, alpha)
            if below < power:
                break
            n, at_n = n - 1, below
    else:
        while at_n < power:
            n += 1
            at_n = exact_power(n, probs, alpha)
    # The power must also hold for more throws: across the last change of pooling (the
    # test gains degrees of freedom and briefly loses power) and a few saw-teeth beyond.
    settled = math.ceil(MIN_EXPECTED / min(float(v) for v in IDEAL_ODDS.values()) - 1e-9)
    m = n + 1
    while m <= max(n, settled) + STABLE_WINDOW:
        if exact_power(m, probs, alpha) < power:
            n = m + 1
            at_n = exact_power(n, probs, alpha)
            if at_n < power:
                m = n
                continue
        m += 1
    return n, at_n, True


def simulate_rejections(
    throws: int, probabilities: Mapping[str, float], sessions: int, seed: int, alpha: float = 0.05
) -> float:
    """Fraction of seeded simulated sessions in which the pooled test rejects (for checks)."""
    _check(throws, alpha)
    groups, p0, _ = pooled_probabilities(throws, probabilities)
    rng = np.random.default_rng(seed)
    p = np.array([probabilities[r] for r in RESULTS], dtype=np.float64)
    counts = rng.multinomial(throws, p / p.sum(), size=sessions)
    pooled = np.column_stack([counts[:, [RESULTS.index(r) for r in g]].sum(axis=1) for g in groups])
    expected = throws * p0
    stat = ((pooled - expected) ** 2 / expected).sum(axis=1)
    df = len(groups) - 1
    if df < 1:
        return 0.0
    return float(np.mean(stat > chi2_isf(alpha, df)))


def pooled_groups_label(groups: Sequence[Sequence[str]]) -> str:
    """'모+빽도, 도, 개, 걸+윷' — how the cells were pooled."""
    return ", ".join("+".join(g) for g in groups)
