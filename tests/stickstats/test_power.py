"""The throws-needed figure, checked by seeded simulation of whole sessions."""

from __future__ import annotations

import numpy as np
import pytest

from tests.stickstats.helpers import simulate_throws
from yut_cam.replay.stickmodel import IDEAL_ODDS, RESULTS, result_probabilities
from yut_cam.replay.stickpower import (
    approximate_power,
    exact_power,
    simulate_rejections,
    throws_needed,
)
from yut_cam.replay.stickstats import analyse_throws

NULL = {r: float(IDEAL_ODDS[r]) for r in RESULTS}
ALT = result_probabilities(0.6)


def test_throws_needed_for_sixty_percent() -> None:
    needed, power, exact = throws_needed(0.6, 0.05, 0.8)
    assert exact and needed == 81
    assert power == pytest.approx(exact_power(81, ALT), abs=1e-15) and power >= 0.8
    # 80 throws fall short: the test has just gained its full 5 df there
    assert exact_power(80, ALT) < 0.8 <= exact_power(79, ALT)
    for n in range(81, 96):
        assert exact_power(n, ALT) >= 0.8, n


def test_the_noncentral_approximation_is_optimistic_here() -> None:
    # the reason the tool computes exact power (see stickpower's docstring)
    assert approximate_power(76, 0.6) >= 0.8 > exact_power(76, ALT)


@pytest.mark.parametrize("n", [20, 45, 81, 120])
@pytest.mark.parametrize("probs", [NULL, ALT], ids=["fair", "sixty"])
def test_exact_power_agrees_with_simulation(n: int, probs: dict[str, float]) -> None:
    sessions = 40_000
    simulated = simulate_rejections(n, probs, sessions, seed=n)
    exact = exact_power(n, probs)
    se = max(np.sqrt(exact * (1 - exact) / sessions), 1e-3)
    assert abs(simulated - exact) < 4 * se


@pytest.mark.parametrize("n", [16, 30, 40, 60, 80, 81, 100, 150])
def test_exact_false_alarm_rate_is_near_alpha(n: int) -> None:
    assert 0.04 <= exact_power(n, NULL) <= 0.06


def test_simulated_sessions_at_the_needed_number_of_throws() -> None:
    """Issue 7: the test flags 60% sticks within the number of throws it said it needs."""
    plan = analyse_throws([]).plan
    n = plan.throws_needed
    rng = np.random.default_rng(2026)
    sessions = 3000
    flagged_biased = flagged_fair = 0
    for _ in range(sessions):
        biased = analyse_throws(simulate_throws(n, rng, 0.6))
        fair = analyse_throws(simulate_throws(n, rng, 0.5))
        assert biased.test is not None and fair.test is not None
        flagged_biased += biased.test.p_value < 0.05
        flagged_fair += fair.test.p_value < 0.05
    power = flagged_biased / sessions
    false_alarm = flagged_fair / sessions
    # exact: power 0.801, false alarms 0.050; with 3000 sessions one standard error is
    # 0.0073 and 0.0040, so these bounds sit about 3 standard errors out.
    assert power >= 0.78, power
    assert 0.038 <= false_alarm <= 0.062, false_alarm


def test_power_now_and_throws_more_for_a_short_session() -> None:
    stats = analyse_throws(simulate_throws(30, np.random.default_rng(1), 0.5))
    assert stats.plan.throws_more == 81 - 30
    assert stats.plan.power_now == pytest.approx(exact_power(30, ALT))
    assert "51 more throws needed" in stats.verdict.en


@pytest.mark.parametrize(("rate", "expected"), [(0.4, 71), (0.65, 30)])
def test_other_alternatives(rate: float, expected: int) -> None:
    needed, power, exact = throws_needed(rate, 0.05, 0.8)
    assert exact and needed == expected and power >= 0.8
    assert simulate_rejections(needed, result_probabilities(rate), 20_000, seed=3) >= 0.78


def test_exact_power_with_impossible_results() -> None:
    # sticks that always land 배: every throw is 윷, the test rejects with certainty
    assert exact_power(40, result_probabilities(1.0)) == pytest.approx(1.0)
    assert exact_power(40, result_probabilities(0.0)) == pytest.approx(1.0)
