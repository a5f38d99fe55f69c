"""The interval arithmetic of simulate and compare: published values, exact cases, and coverage."""
from __future__ import annotations

import math
import random

import pytest

from interpreter.analysis.stats import (Z95, correlation, detectable, distribution, holm, incomplete_beta,
                                        mean_difference, mean_interval, paired_mean_difference,
                                        paired_proportion_difference, proportion_difference, sign_test_p,
                                        t_quantile, t_test_p, wilson)


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


# p-values, Holm's correction, independent samples ------------------------------------------------------

@pytest.mark.parametrize("t,df,p", [(2.228, 10, 0.05), (12.706, 1, 0.05), (4.303, 2, 0.05), (2.042, 30, 0.05),
                                    (1.984, 100, 0.05), (3.0, 3, 0.0577), (0.0, 5, 1.0)])
def test_t_test_p_matches_the_tables(t, df, p):
    assert t_test_p(t, 1.0, df) == pytest.approx(p, abs=6e-4)


@pytest.mark.parametrize("a,b,x,expected", [(1, 1, 0.3, 0.3), (3, 1, 0.5, 0.125), (2.5, 2.5, 0.5, 0.5),
                                            (1, 3, 0.2, 1 - 0.8 ** 3)])
def test_incomplete_beta_exact_cases(a, b, x, expected):
    assert incomplete_beta(a, b, x) == pytest.approx(expected, abs=1e-12)


def test_holm_by_hand():
    # sorted 0.01, 0.03, 0.04, 0.5 times 4, 3, 2, 1, never decreasing: 0.04, 0.09, 0.09, 0.5
    assert holm([0.01, 0.04, 0.03, None, 0.5]) == pytest.approx([0.04, 0.09, 0.09, None, 0.5])
    assert holm([]) == [] and holm([0.2]) == [0.2]


def test_sign_test_is_exact():
    assert sign_test_p(0, 5) == 2 / 32 and sign_test_p(5, 10) == 1.0
    assert sign_test_p(2, 10) == pytest.approx(2 * (1 + 10 + 45) / 1024)


def test_independent_proportions_match_newcombe():
    # Newcombe, "Interval estimation for the difference between independent proportions", Stat Med 17
    # (1998), example (a): 56/70 against 48/80, difference 0.2000, method 10: 0.0524 to 0.3339
    d = proportion_difference([1] * 48 + [0] * 32, [1] * 56 + [0] * 14)
    assert d["difference"] == pytest.approx(0.2)
    assert [round(x, 4) for x in d["interval"]] == [0.0524, 0.3339]
    assert 0 < d["p"] < 0.05


def test_welch_by_hand():
    # means 3 and 6, variances 2.5 and 10 over 5 each: se sqrt(0.5 + 2) = 1.5811, Welch df 5.88 -> 6
    d = mean_difference([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])
    half = t_quantile(0.975, 6) * math.sqrt(2.5)
    assert d["interval"] == pytest.approx([3 - half, 3 + half])
    assert d["p"] == pytest.approx(t_test_p(3, math.sqrt(2.5), 6))
    assert d["relative"] == pytest.approx(1.0)


def test_correlation_interval_by_fisher_z():
    r = correlation([1, 2, 3, 4, 5, 6, 7], [2, 1, 4, 3, 6, 5, 7])
    assert r["r"] == pytest.approx(0.8928571, abs=1e-6)
    assert r["interval"] == pytest.approx([math.tanh(math.atanh(r["r"]) - Z95 / 2),
                                           math.tanh(math.atanh(r["r"]) + Z95 / 2)])
    assert correlation([1, 1, 1, 1], [1, 2, 3, 4]) is None
