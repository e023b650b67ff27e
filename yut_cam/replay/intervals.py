"""Confidence intervals for a proportion: Wilson score and likelihood ratio."""

from __future__ import annotations

import math
from dataclasses import dataclass

from yut_cam.replay.chisquare import chi2_isf
from yut_cam.replay.stickmodel import StickStatsError

__all__ = ["RateEstimate", "wilson_interval", "likelihood_ratio_interval"]


@dataclass(frozen=True)
class RateEstimate:
    """A proportion ``successes / trials`` with a two-sided confidence interval."""

    successes: int
    trials: int
    rate: float
    low: float
    high: float
    confidence: float
    method: str  # "wilson" | "likelihood-ratio"

    def as_json(self) -> dict[str, float | int | str]:
        return {
            "estimate": self.rate,
            "low": self.low,
            "high": self.high,
            "successes": self.successes,
            "trials": self.trials,
            "confidence": self.confidence,
            "method": self.method,
        }


def _check(successes: int, trials: int, confidence: float) -> None:
    if trials < 1 or not (0 <= successes <= trials):
        raise StickStatsError(f"need 0 <= successes <= trials and trials >= 1, got {successes!r}/{trials!r}")
    if not (0.0 < confidence < 1.0):
        raise StickStatsError(f"confidence must be strictly between 0 and 1, got {confidence!r}")


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> RateEstimate:
    """Wilson score interval: the p whose score test (z) does not reject at 1 − confidence."""
    _check(successes, trials, confidence)
    z2 = chi2_isf(1.0 - confidence, 1)  # z² of the two-sided normal quantile
    n = float(trials)
    phat = successes / n
    centre = (phat + z2 / (2 * n)) / (1 + z2 / n)
    half = math.sqrt(z2) / (1 + z2 / n) * math.sqrt(phat * (1 - phat) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return RateEstimate(successes, trials, phat, low, high, confidence, "wilson")


def _loglik(k: int, n: int, p: float) -> float:
    total = 0.0
    if k > 0:
        total += k * math.log(p) if p > 0 else -math.inf
    if n - k > 0:
        total += (n - k) * math.log1p(-p) if p < 1 else -math.inf
    return total


def likelihood_ratio_interval(successes: int, trials: int, confidence: float = 0.95) -> RateEstimate:
    """The p with 2·(ℓ(p̂) − ℓ(p)) ≤ χ²₁ critical value (binomial likelihood), by bisection."""
    _check(successes, trials, confidence)
    k, n = successes, trials
    phat = k / n
    cut = _loglik(k, n, phat) - chi2_isf(1.0 - confidence, 1) / 2.0

    def bound(outside: float) -> float:
        # ℓ is monotone between p̂ and the end; find where it crosses the cut.
        if _loglik(k, n, outside) >= cut:
            return outside
        inside = phat
        for _ in range(200):
            mid = 0.5 * (inside + outside)
            if _loglik(k, n, mid) >= cut:
                inside = mid
            else:
                outside = mid
            if abs(outside - inside) < 1e-14:
                break
        return 0.5 * (inside + outside)

    return RateEstimate(k, n, phat, bound(0.0), bound(1.0), confidence, "likelihood-ratio")
