"""Counts, the pooled Pearson test, the flat-side rate and the verdict, against hand computation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.stickstats.helpers import simulate_throws, throw_of, throws_with_counts
from yut_cam.replay.intervals import likelihood_ratio_interval, wilson_interval
from yut_cam.replay.stickmodel import IDEAL_ODDS, RESULTS, pool_cells, result_probabilities
from yut_cam.replay.stickstats import (
    Stick,
    StickStatsError,
    Throw,
    analyse_throws,
    pearson_test,
)


def sf5(x: float) -> float:
    """χ²(5) tail in closed form: erfc(√(x/2)) + √(2x/π)·e^{-x/2}·(1 + x/3)."""
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)


def sf3(x: float) -> float:
    """χ²(3) tail in closed form: erfc(√(x/2)) + √(2x/π)·e^{-x/2}."""
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)


def test_ideal_odds_are_the_16_cases_and_the_model_at_one_half() -> None:
    assert [IDEAL_ODDS[r] * 16 for r in RESULTS] == [3, 6, 4, 1, 1, 1]
    assert sum(IDEAL_ODDS.values()) == 1
    half = result_probabilities(0.5)
    for r in RESULTS:
        assert half[r] == pytest.approx(float(IDEAL_ODDS[r]), abs=1e-15)
    for p in (0.0, 0.3, 0.6, 1.0):
        assert sum(result_probabilities(p).values()) == pytest.approx(1.0, abs=1e-15)


def test_hundred_fair_looking_throws_by_hand() -> None:
    # 100 throws: 도 20, 개 35, 걸 25, 윷 8, 모 7, 빽도 5. Expected 18.75 37.5 25 6.25 6.25 6.25.
    #   도   (20 − 18.75)² / 18.75 = 1.5625 / 18.75 = 0.083333
    #   개   (35 − 37.5)²  / 37.5  = 6.25   / 37.5  = 0.166667
    #   걸   (25 − 25)²    / 25    = 0
    #   윷   (8 − 6.25)²   / 6.25  = 3.0625 / 6.25  = 0.49
    #   모   (7 − 6.25)²   / 6.25  = 0.5625 / 6.25  = 0.09
    #   빽도 (5 − 6.25)²   / 6.25  = 1.5625 / 6.25  = 0.25
    #   X² = 1.08 with 5 df (no cell expects under 5); p = sf5(1.08) ≈ 0.956
    # 배 shown: 20·1 + 35·2 + 25·3 + 8·4 + 7·0 + 5·1 = 202 of 400 faces → p̂ = 0.505
    counts = {"도": 20, "개": 35, "걸": 25, "윷": 8, "모": 7, "빽도": 5}
    stats = analyse_throws(throws_with_counts(counts) + [Throw("낙")] * 4)
    assert stats.throws == 100 and stats.nak == 4
    assert dict(stats.counts) == counts
    assert [stats.expected[r] for r in RESULTS] == [18.75, 37.5, 25.0, 6.25, 6.25, 6.25]
    assert stats.test is not None
    assert stats.test.statistic == pytest.approx(1.08, abs=1e-12)
    assert stats.test.df == 5 and not stats.test.pooled
    assert stats.test.p_value == pytest.approx(sf5(1.08), rel=1e-10)
    assert stats.test.p_value == pytest.approx(0.956, abs=1e-3)
    assert stats.flat_rate is not None
    assert (stats.flat_rate.successes, stats.flat_rate.trials) == (202, 400)
    assert stats.flat_rate.rate == pytest.approx(0.505)
    assert stats.verdict.code == "fair"
    assert stats.verdict.ko.startswith("공정 범위 (던진 100번으로 알 수 있는 한")
    assert stats.verdict.en.startswith("fair within what 100 throws can tell")
    assert stats.plan.throws_more == 0 and "more throws" not in stats.verdict.en


def test_hundred_biased_throws_by_hand() -> None:
    # 도 10, 개 35, 걸 35, 윷 15, 모 2, 빽도 3:
    #   (10−18.75)²/18.75 = 4.083333, (35−37.5)²/37.5 = 0.166667, (35−25)²/25 = 4,
    #   (15−6.25)²/6.25 = 12.25, (2−6.25)²/6.25 = 2.89, (3−6.25)²/6.25 = 1.69  → X² = 25.08
    # 배: 10 + 70 + 105 + 60 + 0 + 3 = 248 of 400 → p̂ = 0.62
    counts = {"도": 10, "개": 35, "걸": 35, "윷": 15, "모": 2, "빽도": 3}
    stats = analyse_throws(throws_with_counts(counts))
    assert stats.test is not None
    assert stats.test.statistic == pytest.approx(25.08, abs=1e-12)
    assert stats.test.p_value == pytest.approx(sf5(25.08), rel=1e-9)
    assert stats.test.p_value < 0.001
    assert stats.flat_rate is not None and stats.flat_rate.rate == pytest.approx(0.62)
    assert stats.verdict.code == "biased"
    assert stats.verdict.ko.startswith("치우침 의심 (배가 위로 ~62%")
    assert stats.verdict.en.startswith("biased: flat side up ~62%")
    assert any("half-cylinder" in n.en for n in stats.notes)


def test_forty_throws_are_pooled_by_hand() -> None:
    # 40 throws expect 도 7.5 개 15 걸 10 윷 2.5 모 2.5 빽도 2.5. 윷 joins 걸 (12.5), then 모 joins
    # 빽도 (5.0): cells 모+빽도, 도, 개, 걸+윷 with 3 df.
    # Observed 도 6 개 16 걸 11 윷 3 모 1 빽도 3:
    #   모+빽도 (4 − 5)²/5 = 0.2, 도 (6 − 7.5)²/7.5 = 0.3, 개 (16 − 15)²/15 = 0.066667,
    #   걸+윷 (14 − 12.5)²/12.5 = 0.18  → X² = 0.746667
    counts = {"도": 6, "개": 16, "걸": 11, "윷": 3, "모": 1, "빽도": 3}
    test = pearson_test(counts)
    assert test is not None and test.pooled and test.df == 3
    assert [c.results for c in test.cells] == [("모", "빽도"), ("도",), ("개",), ("걸", "윷")]
    assert [c.observed for c in test.cells] == [4, 6, 16, 14]
    assert [c.expected for c in test.cells] == [5.0, 7.5, 15.0, 12.5]
    assert test.statistic == pytest.approx(0.746667, abs=1e-6)
    assert test.p_value == pytest.approx(sf3(0.746667), rel=1e-5)
    stats = analyse_throws(throws_with_counts(counts))
    assert any("모+빽도, 도, 개, 걸+윷" in n.ko and "3 degrees of freedom" in n.en for n in stats.notes)


POOLING = [
    (200, (("모",), ("빽도",), ("도",), ("개",), ("걸",), ("윷",))),
    (80, (("모",), ("빽도",), ("도",), ("개",), ("걸",), ("윷",))),
    (79, (("모", "빽도"), ("도",), ("개",), ("걸", "윷"))),
    (40, (("모", "빽도"), ("도",), ("개",), ("걸", "윷"))),
    (39, (("모", "빽도", "도"), ("개",), ("걸", "윷"))),
    (16, (("모", "빽도", "도"), ("개",), ("걸", "윷"))),
    (15, (("모", "빽도", "도", "개", "걸", "윷"),)),
    (1, (("모", "빽도", "도", "개", "걸", "윷"),)),
]


@pytest.mark.parametrize(("n", "groups"), POOLING)
def test_pooling_table(n: int, groups: tuple[tuple[str, ...], ...]) -> None:
    assert pool_cells(n) == groups


@pytest.mark.parametrize("n", range(1, 200))
def test_pooled_cells_expect_at_least_five(n: int) -> None:
    groups = pool_cells(n)
    assert sorted(r for g in groups for r in g) == sorted(RESULTS)
    if len(groups) > 1:
        assert all(n * sum(float(IDEAL_ODDS[r]) for r in g) >= 5 for g in groups)


def test_too_few_throws() -> None:
    stats = analyse_throws(throws_with_counts({"개": 3, "걸": 2}))
    assert stats.test is None and stats.verdict.code == "too_few"
    assert stats.plan.throws_more == stats.plan.throws_needed - 5
    assert f"{stats.plan.throws_more}번 더" in stats.verdict.ko
    empty = analyse_throws([Throw("낙")])
    assert empty.throws == 0 and empty.nak == 1 and empty.flat_rate is None
    assert empty.verdict.code == "too_few"


def test_flat_rate_mle_maximises_the_multinomial_likelihood() -> None:
    counts = {"도": 13, "개": 41, "걸": 30, "윷": 9, "모": 2, "빽도": 5}
    stats = analyse_throws(throws_with_counts(counts))
    assert stats.flat_rate is not None
    grid = np.linspace(0.001, 0.999, 9981)

    def loglik(p: float) -> float:
        probs = result_probabilities(p)
        return sum(c * math.log(probs[r]) for r, c in counts.items())

    best = max(grid, key=loglik)
    assert stats.flat_rate.rate == pytest.approx(best, abs=1e-4)
    # the LR interval ends where the log-likelihood has dropped by χ²₁(0.95)/2 = 1.92
    drop = loglik(stats.flat_rate.rate) - 3.841458820694124 / 2
    assert loglik(stats.flat_rate.low) == pytest.approx(drop, abs=1e-6)
    assert loglik(stats.flat_rate.high) == pytest.approx(drop, abs=1e-6)


@pytest.mark.parametrize(("p", "seed"), [(0.6, 1), (0.5, 2), (0.45, 3), (0.62, 4)])
def test_mle_recovers_a_known_rate_from_results_alone(p: float, seed: int) -> None:
    throws = simulate_throws(1500, np.random.default_rng(seed), p, faces=False)
    stats = analyse_throws(throws)
    assert stats.flat_rate is not None
    assert stats.flat_rate.low < p < stats.flat_rate.high
    assert abs(stats.flat_rate.rate - p) < 0.02
    assert stats.marked_stick is None and stats.plain_sticks is None


def test_lr_interval_covers_about_95_percent() -> None:
    rng = np.random.default_rng(11)
    hits = 0
    runs = 2000
    for k in rng.binomial(200, 0.6, size=runs):
        est = likelihood_ratio_interval(int(k), 200)
        hits += est.low < 0.6 < est.high
    assert 0.935 <= hits / runs <= 0.965


def test_wilson_known_values() -> None:
    # 60 of 100: Wilson 95% interval 0.5020–0.6906 (textbook value)
    w = wilson_interval(60, 100)
    assert (round(w.low, 4), round(w.high, 4)) == (0.5020, 0.6906)
    zero = wilson_interval(0, 20)
    assert zero.low == 0.0 and zero.high == pytest.approx(3.8415 / (20 + 3.8415), abs=1e-4)
    with pytest.raises(StickStatsError, match="5"):
        wilson_interval(5, 4)


def test_per_stick_rates_follow_the_marked_stick() -> None:
    # marked stick shows 배 85% of the time, the plain ones 45%
    throws = simulate_throws(600, np.random.default_rng(5), [0.85, 0.45, 0.45, 0.45])
    stats = analyse_throws(throws)
    assert stats.marked_stick is not None and stats.plain_sticks is not None
    assert stats.marked_stick.trials == 600 and stats.plain_sticks.trials == 1800
    assert stats.marked_stick.low < 0.85 < stats.marked_stick.high
    assert stats.plain_sticks.low < 0.45 < stats.plain_sticks.high
    assert stats.marked_stick.method == "wilson"
    assert any("marked stick differs" in n.en for n in stats.notes)


def test_faces_that_disagree_with_the_result_are_left_out_of_stick_rates() -> None:
    good = throw_of([True, False, True, False])  # 개
    overridden = Throw("걸", good.sticks)  # the referee said 걸 where the camera saw 개
    stats = analyse_throws([good, overridden, Throw("낙", good.sticks)])
    assert stats.counts["개"] == 1 and stats.counts["걸"] == 1 and stats.nak == 1
    assert stats.throws_with_faces == 1 and stats.faces_disagree == 1
    assert stats.marked_stick is not None and stats.marked_stick.trials == 1
    assert any("disagree" in n.en for n in stats.notes)


def test_faces_result_reads_backdo_from_the_marked_stick() -> None:
    assert throw_of([True, False, False, False], marked=0).result == "빽도"
    assert throw_of([True, False, False, False], marked=2).result == "도"
    assert throw_of([False] * 4).result == "모" and throw_of([True] * 4).result == "윷"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Throw("삼"), "'삼'"),
        (lambda: Stick("옆"), "'옆'"),
        (lambda: Throw("개", (Stick("배", True), Stick("배"), Stick("등"))), "got 3"),
        (lambda: Throw("개", (Stick("배", True), Stick("배", True), Stick("등"), Stick("등"))), "got 2"),
        (lambda: pearson_test({"낙": 3}), "'낙'"),
        (lambda: analyse_throws([], alternative=0.5), "0.5"),
    ],
)
def test_bad_input_is_refused_with_the_value(make: object, message: str) -> None:
    with pytest.raises(StickStatsError, match=message):
        make()  # type: ignore[operator]


def test_uneven_verdict_when_sticks_differ_but_average_one_half() -> None:
    # Two sticks nearly always 배, two nearly always 등: 개 every time, flat rate 50%.
    stats = analyse_throws(throws_with_counts({"개": 120}))
    assert stats.flat_rate is not None and stats.flat_rate.rate == 0.5
    assert stats.test is not None and stats.test.p_value < 1e-10
    assert stats.verdict.code == "uneven"
    assert "check the sticks one by one" in stats.verdict.en


def test_round_side_bias_is_named() -> None:
    stats = analyse_throws(simulate_throws(300, np.random.default_rng(9), 0.35, faces=False))
    assert stats.verdict.code == "biased"
    assert stats.verdict.en.startswith("biased: round side up more often")
