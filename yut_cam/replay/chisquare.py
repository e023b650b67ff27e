"""Chi-square distribution functions without scipy.

The central chi-square survival function is the regularized upper incomplete gamma
function, ``sf(x; k) = Q(k/2, x/2)``, computed as in Numerical Recipes (§6.2): the power
series for ``P(a, x)`` when ``x < a + 1`` and the Lentz continued fraction for ``Q(a, x)``
otherwise, both to double precision.

The non-central chi-square survival function (used for power) is the Poisson mixture of
central ones, ``sf(x; k, λ) = Σ_j e^{-λ/2} (λ/2)^j / j! · sf(x; k + 2j)``, summed until
the remaining Poisson mass is below 1e-15.

Everything here is pure and uses only :mod:`math`.
"""

from __future__ import annotations

import functools
import math

from yut_cam.replay.stickmodel import StickStatsError

__all__ = [
    "ChiSquareDomainError",
    "regularized_gamma_p",
    "regularized_gamma_q",
    "chi2_sf",
    "chi2_isf",
    "ncx2_sf",
    "ncx2_noncentrality_for_power",
]

_EPS = 1e-16
_FPMIN = 1e-300
_MAX_ITER = 10_000


class ChiSquareDomainError(StickStatsError):
    """An argument outside the domain of a distribution function (quoted in the message)."""


def _check_gamma_args(a: float, x: float) -> None:
    if not (a > 0.0 and math.isfinite(a)):
        raise ChiSquareDomainError(f"shape a must be positive and finite, got {a!r}")
    if not (x >= 0.0):  # also rejects NaN
        raise ChiSquareDomainError(f"x must be >= 0, got {x!r}")


def _log_prefactor(a: float, x: float) -> float:
    """log of x^a e^{-x} / Γ(a)."""
    return a * math.log(x) - x - math.lgamma(a)


def _series_p(a: float, x: float) -> float:
    """P(a, x) by its power series; converges quickly for x < a + 1."""
    ap = a
    term = 1.0 / a
    total = term
    for _ in range(_MAX_ITER):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    else:  # pragma: no cover - unreachable for x < a + 1
        raise ChiSquareDomainError(f"gamma series did not converge for a={a!r}, x={x!r}")
    return total * math.exp(_log_prefactor(a, x))


def _continued_fraction_q(a: float, x: float) -> float:
    """Q(a, x) by the continued fraction (modified Lentz); converges for x >= a + 1."""
    b = x + 1.0 - a
    c = 1.0 / _FPMIN
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < _FPMIN:
            d = _FPMIN
        c = b + an / c
        if abs(c) < _FPMIN:
            c = _FPMIN
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    else:  # pragma: no cover - unreachable for x >= a + 1
        raise ChiSquareDomainError(f"gamma continued fraction did not converge for a={a!r}, x={x!r}")
    return math.exp(_log_prefactor(a, x)) * h


def regularized_gamma_p(a: float, x: float) -> float:
    """Lower regularized incomplete gamma P(a, x) = γ(a, x) / Γ(a)."""
    _check_gamma_args(a, x)
    if x == 0.0:
        return 0.0
    if math.isinf(x):
        return 1.0
    if x < a + 1.0:
        return _series_p(a, x)
    return 1.0 - _continued_fraction_q(a, x)


def regularized_gamma_q(a: float, x: float) -> float:
    """Upper regularized incomplete gamma Q(a, x) = Γ(a, x) / Γ(a) = 1 - P(a, x)."""
    _check_gamma_args(a, x)
    if x == 0.0:
        return 1.0
    if math.isinf(x):
        return 0.0
    if x < a + 1.0:
        return 1.0 - _series_p(a, x)
    return _continued_fraction_q(a, x)


def _check_df(df: float) -> None:
    if not (df > 0.0 and math.isfinite(df)):
        raise ChiSquareDomainError(f"degrees of freedom must be positive, got {df!r}")


def chi2_sf(x: float, df: float) -> float:
    """P(X > x) for X ~ χ²(df). ``chi2_sf(11.0705, 5)`` ≈ 0.05."""
    _check_df(df)
    if math.isnan(x):
        raise ChiSquareDomainError(f"x must be a number, got {x!r}")
    if x <= 0.0:
        return 1.0
    return regularized_gamma_q(df / 2.0, x / 2.0)


@functools.lru_cache(maxsize=256)
def chi2_isf(prob: float, df: float) -> float:
    """The x with ``chi2_sf(x, df) == prob`` (the upper critical value), by bisection."""
    _check_df(df)
    if not (0.0 < prob < 1.0):
        raise ChiSquareDomainError(f"probability must be strictly between 0 and 1, got {prob!r}")
    lo, hi = 0.0, max(1.0, df)
    while chi2_sf(hi, df) > prob:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if chi2_sf(mid, df) > prob:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-13 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)


def ncx2_sf(x: float, df: float, noncentrality: float) -> float:
    """P(X > x) for X ~ non-central χ²(df, λ) as a Poisson mixture of central ones."""
    _check_df(df)
    lam = noncentrality
    if not (lam >= 0.0 and math.isfinite(lam)):
        raise ChiSquareDomainError(f"non-centrality must be >= 0 and finite, got {noncentrality!r}")
    if lam == 0.0:
        return chi2_sf(x, df)
    half = lam / 2.0
    # Sum outward from the Poisson mode so that the weights never underflow to nothing.
    mode = int(half)
    log_w_mode = -half + mode * math.log(half) - math.lgamma(mode + 1.0) if mode > 0 else -half
    total = 0.0
    log_w = log_w_mode
    j = mode
    while True:  # upward from the mode
        w = math.exp(log_w)
        total += w * chi2_sf(x, df + 2.0 * j)
        j += 1
        log_w += math.log(half) - math.log(j)
        if w < 1e-17 and j > mode + 10:
            break
    log_w = log_w_mode
    j = mode
    while j > 0:  # downward from the mode
        log_w += math.log(j) - math.log(half)
        j -= 1
        w = math.exp(log_w)
        total += w * chi2_sf(x, df + 2.0 * j)
        if w < 1e-17:
            break
    return min(1.0, max(0.0, total))


def ncx2_noncentrality_for_power(df: float, alpha: float, power: float) -> float:
    """The λ at which a level-``alpha`` χ²(df) test has the given power (Cohen's λ tables)."""
    if not (0.0 < power < 1.0):
        raise ChiSquareDomainError(f"power must be strictly between 0 and 1, got {power!r}")
    critical = chi2_isf(alpha, df)
    if power <= alpha:
        return 0.0
    lo, hi = 0.0, 1.0
    while ncx2_sf(critical, df, hi) < power:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if ncx2_sf(critical, df, mid) < power:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * hi:
            break
    return 0.5 * (lo + hi)
