"""The interval arithmetic of simulate and compare: published values, exact cases, and coverage."""
from __future__ import annotations

import random

import pytest

from interpreter.analysis.stats import (detectable, distribution, mean_interval, paired_mean_difference,
                                        paired_proportion_difference, t_quantile, wilson)


@pytest.mark.parametrize("k,n,low,high", [
    # Newcombe, "Two-sided confidence intervals for the single proportion", Stat Med 17 (1998), table II
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (5, 10, 0.2366, 0.7634),
    (10, 10, 0.7225, 1.0),
])
def test_wilson_matches_published_values(k, n, low, high):
    lo, hi = wilson(k, n)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_wilson_without_games_is_none():
    assert wilson(0, 0) is None


@pytest.mark.parametrize("df,table", [(1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776), (5, 2.571),
                                      (10, 2.228), (30, 2.042), (100, 1.984), (1000, 1.962)])
def test_t_quantile_matches_the_tables(df, table):
    assert abs(t_quantile(0.975, df) - table) < (0.004 if df < 5 else 0.001)


def test_mean_interval_by_hand():
    # mean 3, sd sqrt(2.5), n 5: 3 ± 2.776 * 1.5811 / 2.2361
    lo, hi = mean_interval([1, 2, 3, 4, 5])
    assert (round(lo, 3), round(hi, 3)) == (1.037, 4.963)
    assert mean_interval([4]) is None


def test_distribution_percentiles_interpolate_like_pandas():
    d = distribution(range(1, 21))
    assert (d["median"], d["p5"], d["p95"], d["min"], d["max"]) == (10.5, 1.95, 19.05, 1, 20)
    assert distribution([7]) == {"mean": 7, "sd": 0.0, "median": 7, "p5": 7, "p95": 7, "min": 7, "max": 7}
    assert distribution([]) is None


def test_paired_mean_difference_of_a_constant_shift_is_exact():
    d = paired_mean_difference([10, 20, 30, 40], [11, 21, 31, 41])
    assert (d["difference"], d["interval"]) == (1.0, [1.0, 1.0])
    assert d["relative"] == pytest.approx(0.04)
    assert detectable(d["interval"])


def test_relative_change_of_a_proportional_shrink():
    # every game 10% shorter: the relative change is -10% exactly, with no spread
    d = paired_mean_difference([50, 80, 120, 90], [45, 72, 108, 81])
    assert d["relative"] == pytest.approx(-0.1)
    assert d["relative_interval"] == pytest.approx([-0.1, -0.1])


def test_paired_differences_of_identical_runs_are_zero_and_not_detectable():
    rng = random.Random(1)
    a = [rng.random() < 0.4 for _ in range(300)]
    d = paired_proportion_difference(a, a)
    assert d["difference"] == 0 and d["interval"][0] < 0 < d["interval"][1]
    assert not detectable(d["interval"])
    m = paired_mean_difference([float(x) for x in a], [float(x) for x in a])
    assert m["interval"] == [0.0, 0.0] and not detectable(m["interval"])


def test_swapping_the_sides_mirrors_the_proportion_interval():
    rng = random.Random(2)
    a = [rng.random() < 0.3 for _ in range(200)]
    b = [x if rng.random() < 0.7 else rng.random() < 0.5 for x in a]
    ab, ba = paired_proportion_difference(a, b), paired_proportion_difference(b, a)
    assert ab["difference"] == pytest.approx(-ba["difference"])
    assert ab["interval"] == pytest.approx([-ba["interval"][1], -ba["interval"][0]])


def test_uncorrelated_pairs_give_the_independent_newcombe_interval():
    # with no correlation between the pairs (phi = 0) method 10 is Newcombe's interval for two
    # independent proportions: here 30/100 and 50/100, arranged so that the 2x2 table has phi = 0
    a = [True] * 30 + [False] * 70
    b = [True] * 15 + [False] * 15 + [True] * 35 + [False] * 35
    d = paired_proportion_difference(a, b)
    (la, ua), (lb, ub) = wilson(30, 100), wilson(50, 100)
    low = 0.2 - ((0.5 - lb) ** 2 + (ua - 0.3) ** 2) ** 0.5
    high = 0.2 + ((ub - 0.5) ** 2 + (0.3 - la) ** 2) ** 0.5
    assert d["interval"] == pytest.approx([low, high])


@pytest.mark.parametrize("cells", [
    (0.25, 0.05, 0.15, 0.55),   # both won, only A, only B, neither: correlated, B higher by 10 points
    (0.40, 0.10, 0.10, 0.40),   # no difference
    (0.02, 0.08, 0.18, 0.72),   # rare events, B higher by 10 points
])
def test_paired_proportion_interval_covers_the_true_difference_about_95_percent(cells):
    """Many seeded samples of 150 pairs: the interval holds the true difference in 92-98% of them."""
    rng = random.Random(7)
    outcomes = [(True, True), (True, False), (False, True), (False, False)]
    truth = cells[2] - cells[1]
    hits, trials = 0, 600
    for _ in range(trials):
        pairs = rng.choices(outcomes, weights=cells, k=150)
        lo, hi = paired_proportion_difference([x for x, _ in pairs], [y for _, y in pairs])["interval"]
        hits += lo <= truth <= hi
    assert 0.92 <= hits / trials <= 0.98
