"""Numbers from many games -> distributions and 95% intervals (Wilson, paired differences), standard library only."""
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
    return {"a": pa, "b": pb, "difference": diff, "interval": [max(-1.0, low), min(1.0, high)]}


def paired_mean_difference(a: list[float], b: list[float]) -> dict | None:
    """mean(b) - mean(a) over the same games, with the t interval of the per-game differences, and the
    relative change mean(b) / mean(a) - 1 with a delta-method interval (None where mean(a) is 0)."""
    n = len(a)
    if n == 0:
        return None
    diffs = [y - x for x, y in zip(a, b)]
    mean_a, mean_b = statistics.fmean(a), statistics.fmean(b)
    out = {"a": mean_a, "b": mean_b, "difference": mean_b - mean_a, "interval": None,
           "relative": None, "relative_interval": None}
    interval = mean_interval(diffs)
    if interval is not None:
        out["interval"] = list(interval)
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
