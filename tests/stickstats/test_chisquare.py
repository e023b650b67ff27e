"""The chi-square functions against printed tables and closed forms."""

from __future__ import annotations

import math

import pytest

from yut_cam.replay.chisquare import (
    ChiSquareDomainError,
    chi2_isf,
    chi2_sf,
    ncx2_noncentrality_for_power,
    ncx2_sf,
    regularized_gamma_p,
    regularized_gamma_q,
)
from yut_cam.replay.stickmodel import StickStatsError

# Upper critical values as printed in the usual χ² table (e.g. NIST/SEMATECH e-Handbook
# 1.3.6.7.4), to the table's 3 decimals: (x, df, upper-tail probability).
TABLE = [
    (3.841, 1, 0.05),
    (6.635, 1, 0.01),
    (10.828, 1, 0.001),
    (2.706, 1, 0.10),
    (5.991, 2, 0.05),
    (7.815, 3, 0.05),
    (9.488, 4, 0.05),
    (11.070, 5, 0.05),
    (15.086, 5, 0.01),
    (20.515, 5, 0.001),
    (9.236, 5, 0.10),
    (1.145, 5, 0.95),
    (0.554, 5, 0.99),
    (18.307, 10, 0.05),
    (31.410, 20, 0.05),
    (124.342, 100, 0.05),
    (70.065, 100, 0.99),
]


@pytest.mark.parametrize(("x", "df", "tail"), TABLE)
def test_sf_matches_table(x: float, df: int, tail: float) -> None:
    # The table rounds x to 3 decimals; the density there is below 1, so 1e-3 in x moves
    # the tail by less than 1e-3 · density (relative tolerance 1% covers it).
    assert chi2_sf(x, df) == pytest.approx(tail, rel=0.01)


@pytest.mark.parametrize(("x", "df", "tail"), TABLE)
def test_isf_inverts_sf(x: float, df: int, tail: float) -> None:
    crit = chi2_isf(tail, df)
    assert crit == pytest.approx(x, abs=2e-3)
    assert chi2_sf(crit, df) == pytest.approx(tail, rel=1e-9)


def test_sf_at_the_95_percent_point_of_five_df() -> None:
    assert chi2_sf(11.07, 5) == pytest.approx(0.05, abs=2e-4)
    assert chi2_isf(0.05, 5) == pytest.approx(11.0705, abs=1e-4)


XS = [0.01, 0.3, 1.0, 2.5, 4.0, 7.9, 12.0, 25.0, 60.0, 150.0]


@pytest.mark.parametrize("x", XS)
def test_closed_forms(x: float) -> None:
    # df = 1: P(Z² > x) = erfc(√(x/2)); df = 2: e^{-x/2}
    assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-12, abs=1e-300)
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12, abs=1e-300)
    # even df = 2m: Poisson sum e^{-x/2} Σ_{k<m} (x/2)^k / k!
    for m in (2, 3, 5, 10):
        poisson = math.exp(-x / 2) * sum((x / 2) ** k / math.factorial(k) for k in range(m))
        assert chi2_sf(x, 2 * m) == pytest.approx(poisson, rel=1e-11, abs=1e-300)
    # odd df, by the recurrence sf(x; k+2) = sf(x; k) + (x/2)^{k/2} e^{-x/2} / Γ(k/2 + 1)
    for k in (1, 3, 5, 7):
        step = math.exp((k / 2) * math.log(x / 2) - x / 2 - math.lgamma(k / 2 + 1))
        assert chi2_sf(x, k + 2) == pytest.approx(chi2_sf(x, k) + step, rel=1e-11, abs=1e-300)


@pytest.mark.parametrize("a", [0.5, 1.0, 2.5, 7.0, 30.0])
@pytest.mark.parametrize("x", [0.0, 0.2, 1.0, 3.0, 8.0, 31.0, 90.0])
def test_p_plus_q_is_one_and_q_decreases(a: float, x: float) -> None:
    assert regularized_gamma_p(a, x) + regularized_gamma_q(a, x) == pytest.approx(1.0, abs=1e-14)
    assert regularized_gamma_q(a, x + 0.5) <= regularized_gamma_q(a, x)
    assert regularized_gamma_p(a, x + 0.5) > regularized_gamma_p(a, x) or regularized_gamma_p(a, x) > 1 - 1e-15


def test_edges_and_errors() -> None:
    assert chi2_sf(0.0, 5) == 1.0
    assert chi2_sf(-3.0, 5) == 1.0
    assert chi2_sf(math.inf, 5) == 0.0
    with pytest.raises(ChiSquareDomainError, match="-1"):
        chi2_sf(1.0, -1)
    with pytest.raises(ChiSquareDomainError, match="1.5"):
        chi2_isf(1.5, 3)
    with pytest.raises(ChiSquareDomainError, match="nan"):
        chi2_sf(math.nan, 3)
    with pytest.raises(StickStatsError):  # one base for the package's bad input
        regularized_gamma_q(0.0, 1.0)


# Cohen (1988), Table 7.4.15: λ giving power .80 at α = .05 for u degrees of freedom.
COHEN = [(1, 7.85), (2, 9.64), (3, 10.90), (4, 11.94), (5, 12.83), (6, 13.62)]


@pytest.mark.parametrize(("df", "lam"), COHEN)
def test_noncentrality_for_80_percent_power_matches_cohen(df: int, lam: float) -> None:
    assert ncx2_noncentrality_for_power(df, 0.05, 0.8) == pytest.approx(lam, abs=0.006)


@pytest.mark.parametrize("lam", [0.0, 0.5, 4.0, 7.85, 20.0, 60.0])
@pytest.mark.parametrize("x", [0.5, 3.841, 10.0])
def test_noncentral_one_df_is_a_shifted_normal(lam: float, x: float) -> None:
    # X = (Z + √λ)², so P(X > x) = Φ(−√x − √λ) + Φ(−√x + √λ)
    c, s = math.sqrt(x), math.sqrt(lam)

    def upper(z: float) -> float:
        return 0.5 * math.erfc(z / math.sqrt(2))

    assert ncx2_sf(x, 1, lam) == pytest.approx(upper(c + s) + upper(c - s), rel=1e-10)
