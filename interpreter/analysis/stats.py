"""Numbers from many games -> distributions, 95% intervals (Wilson, paired and independent differences),
p-values and Holm's correction for many of them; standard library only."""
from __future__ import annotations

import math
import statistics

Z95 = statistics.NormalDist().inv_cdf(0.975)   # 1.959963...


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval for a proportion k/n (good near 0 and 1, unlike p ± z·se); None for n = 0."""
    if n <= 0:
        return None
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # at 0 and n the bound is exactly 0 or 1; rounding would leave a speck
    return (0.0 if k == 0 else centre - half), (1.0 if k == n else centre + half)


def t_quantile(p: float, df: int) -> float:
    """The p-quantile of Student's t with df degrees of freedom.

    Exact for 1 and 2 degrees of freedom; otherwise the Cornish-Fisher expansion around the normal
    quantile (Abramowitz and Stegun 26.7.5): within 0.004 of the tables at 3 degrees of freedom, 0.001
    from 5 on."""
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    z = statistics.NormalDist().inv_cdf(p)
    terms = [
        (z ** 3 + z) / 4,
        (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96,
        (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384,
        (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160,
    ]
    return z + sum(term / df ** (i + 1) for i, term in enumerate(terms))


def mean_interval(values) -> tuple[float, float] | None:
    """A 95% t interval for the mean of `values`; None with fewer than two values."""
    n = len(values)
    if n < 2:
        return None
    mean = statistics.fmean(values)
    half = t_quantile(0.975, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean - half, mean + half


def distribution(values) -> dict | None:
    """Mean, standard deviation, median, 5th and 95th percentiles, minimum and maximum; None when empty.

    Percentiles interpolate between the sorted values (numpy's and pandas' default), so that
    `Series.quantile(0.05)` gives the same number."""
    values = list(values)
    if not values:
        return None
    if len(values) > 1:
        cuts = statistics.quantiles(values, n=20, method="inclusive")
        p5, p95 = cuts[0], cuts[-1]
    else:
        p5 = p95 = values[0]
    return {"mean": statistics.fmean(values), "sd": statistics.stdev(values) if len(values) > 1 else 0.0,
            "median": _whole(statistics.median(values)), "p5": _whole(p5), "p95": _whole(p95),
            "min": _whole(min(values)), "max": _whole(max(values))}


def _whole(x):
    """7.0 -> 7: counts stored as floats read back as the whole numbers they are."""
    # interpolation can leave 122.99999999999999 where the answer is 123
    return round(x) if isinstance(x, float) and abs(x - round(x)) < 1e-9 else x


def paired_proportion_difference(a: list[bool], b: list[bool], z: float = Z95) -> dict | None:
    """p(b) - p(a) for yes/no outcomes observed on the same games, with Newcombe's hybrid score interval
    for paired data (Statistics in Medicine 17, 1998, method 10): the two Wilson intervals combined,
    corrected by the correlation between the pairs. None without games."""
    n = len(a)
    if n == 0:
        return None
    both = sum(1 for x, y in zip(a, b) if x and y)
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    neither = n - both - only_a - only_b
    pa, pb = (both + only_a) / n, (both + only_b) / n
    la, ua = wilson(both + only_a, n, z)
    lb, ub = wilson(both + only_b, n, z)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = (both * neither - only_a * only_b) / math.sqrt(margins) if margins else 0.0
    diff = pb - pa
    low = diff - math.sqrt(max(0.0, (pb - lb) ** 2 - 2 * phi * (pb - lb) * (ua - pa) + (ua - pa) ** 2))
    high = diff + math.sqrt(max(0.0, (ub - pb) ** 2 - 2 * phi * (ub - pb) * (pa - la) + (pa - la) ** 2))
    return {"a": pa, "b": pb, "difference": diff, "interval": [max(-1.0, low), min(1.0, high)],
            "p": sign_test_p(only_b, only_a + only_b)}


def paired_mean_difference(a: list[float], b: list[float]) -> dict | None:
    """mean(b) - mean(a) over the same games, with the t interval of the per-game differences, and the
    relative change mean(b) / mean(a) - 1 with a delta-method interval (None where mean(a) is 0)."""
    n = len(a)
    if n == 0:
        return None
    diffs = [y - x for x, y in zip(a, b)]
    mean_a, mean_b = statistics.fmean(a), statistics.fmean(b)
    out = {"a": mean_a, "b": mean_b, "difference": mean_b - mean_a, "interval": None, "p": None,
           "relative": None, "relative_interval": None}
    interval = mean_interval(diffs)
    if interval is not None:
        out["interval"] = list(interval)
        out["p"] = t_test_p(statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(n), n - 1)
    if mean_a:
        ratio = mean_b / mean_a
        out["relative"] = ratio - 1
        if n > 1:
            # linearised ratio estimator: the spread of b - ratio * a, scaled by mean(a)
            resid = [y - ratio * x for x, y in zip(a, b)]
            half = t_quantile(0.975, n - 1) * statistics.stdev(resid) / math.sqrt(n) / abs(mean_a)
            out["relative_interval"] = [ratio - 1 - half, ratio - 1 + half]
    return out


def detectable(interval) -> bool:
    """Whether a 95% interval for a difference excludes zero."""
    return interval is not None and (interval[0] > 0 or interval[1] < 0)


# tests: p-values, the correction for many of them, and whether two runs' games are paired at all ----------

def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function, evaluated by the modified Lentz method."""
    tiny, eps = 1e-300, 1e-15
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        for aa in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                   -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < eps:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b), for 0 <= x <= 1."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1 - x) / b


def t_test_p(mean: float, se: float, df: int) -> float | None:
    """The two-sided p-value of a t statistic mean / se; None when it cannot be computed."""
    if df <= 0:
        return None
    if se == 0:
        return 1.0 if mean == 0 else 0.0
    t = mean / se
    # P(|T| >= |t|) = I_x(df/2, 1/2) with x = df / (df + t^2)
    return min(1.0, incomplete_beta(df / 2, 0.5, df / (df + t * t)))


def normal_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return min(1.0, 2 * (1 - statistics.NormalDist().cdf(abs(z))))


def sign_test_p(k: int, n: int) -> float:
    """The exact two-sided p-value of k successes in n trials of probability 1/2 (McNemar's exact test
    when k and n - k are the pairs that went either way)."""
    if n == 0:
        return 1.0
    low = min(k, n - k)
    tail = sum(math.comb(n, i) for i in range(low + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def holm(pvalues: list) -> list:
    """Holm's step-down adjustment (Scand. J. Statistics 6, 1979): adjusted p-values such that flagging
    every adjusted p below alpha keeps the chance of any false flag among them at most alpha, whatever
    the dependence between the tests. None stays None (and is not counted)."""
    ranked = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(ranked)
    out = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(ranked):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def correlation(a: list[float], b: list[float], z: float = Z95) -> dict | None:
    """Pearson's r between paired values with its 95% interval (Fisher's z); None where either side does
    not vary or there are fewer than four pairs."""
    n = len(a)
    if n < 4 or len(set(a)) < 2 or len(set(b)) < 2:
        return None
    r = statistics.correlation(a, b)
    r = max(-0.999999, min(0.999999, r))
    centre, half = math.atanh(r), z / math.sqrt(n - 3)
    return {"r": r, "interval": [math.tanh(centre - half), math.tanh(centre + half)]}


def proportion_difference(a: list[bool], b: list[bool], z: float = Z95) -> dict | None:
    """p(b) - p(a) for yes/no outcomes of independent games, with Newcombe's hybrid score interval for
    independent proportions (Stat Med 17, 1998, method 10) and the two-sided p of the pooled z test."""
    na, nb = len(a), len(b)
    if not na or not nb:
        return None
    ka, kb = sum(a), sum(b)
    pa, pb = ka / na, kb / nb
    la, ua = wilson(ka, na, z)
    lb, ub = wilson(kb, nb, z)
    diff = pb - pa
    low = diff - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2)
    high = diff + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)
    pooled = (ka + kb) / (na + nb)
    se = math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
    p = (1.0 if diff == 0 else 0.0) if se == 0 else normal_p(diff / se)
    return {"a": pa, "b": pb, "difference": diff, "interval": [max(-1.0, low), min(1.0, high)], "p": p}


def mean_difference(a: list[float], b: list[float]) -> dict | None:
    """mean(b) - mean(a) for independent games: Welch's t interval and p, and the relative change
    mean(b) / mean(a) - 1 with a delta-method interval (None where mean(a) is 0)."""
    na, nb = len(a), len(b)
    if not na or not nb:
        return None
    mean_a, mean_b = statistics.fmean(a), statistics.fmean(b)
    out = {"a": mean_a, "b": mean_b, "difference": mean_b - mean_a, "interval": None, "p": None,
           "relative": None, "relative_interval": None}
    if na < 2 or nb < 2:
        return out
    va, vb = statistics.variance(a) / na, statistics.variance(b) / nb
    se = math.sqrt(va + vb)
    # Welch-Satterthwaite degrees of freedom (both sides constant: any, the interval is a point)
    df = max(1, round((va + vb) ** 2 / (va ** 2 / (na - 1) + vb ** 2 / (nb - 1)))) if se else na + nb - 2
    half = t_quantile(0.975, df) * se
    out["interval"] = [out["difference"] - half, out["difference"] + half]
    out["p"] = t_test_p(out["difference"], se, df)
    if mean_a:
        ratio = mean_b / mean_a
        out["relative"] = ratio - 1
        # delta method for a ratio of independent means
        rel_se = abs(ratio) * math.sqrt(va / mean_a ** 2 + (vb / mean_b ** 2 if mean_b else 0.0))
        out["relative_interval"] = [ratio - 1 - t_quantile(0.975, df) * rel_se,
                                    ratio - 1 + t_quantile(0.975, df) * rel_se]
    return out
