"""Intervals for a binomial proportion x/n: Clopper–Pearson ("exact") and Wilson.

As R epiR's ``epi.tests`` computes them (its ``zexact`` and ``zwilson``):
Clopper & Pearson (1934) from beta quantiles, 0 and 1 at the ends; Wilson
(1927) from the score test. scipy (the ``stats`` extra) gives the beta
quantiles; it is imported only when an exact interval is asked for.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

from concord._common.extras import require

METHODS = ("exact", "wilson")


def _betaincinv() -> Any:
    return require("scipy.special", "stats", "Clopper-Pearson intervals").betaincinv


def z_value(level: float) -> float:
    """Return the two-sided normal quantile of ``level``: 1.959964 for 0.95."""
    return NormalDist().inv_cdf(1 - (1 - level) / 2)


def proportion_interval(x: float, n: float, level: float, method: str) -> tuple[float, float]:
    """Return the (low, high) interval of x/n; (nan, nan) when n is 0.

    Examples
    --------
    epiR ``epi.tests`` example 1: 670 of 744 diseased test positive.

    >>> [round(b, 3) for b in proportion_interval(670, 744, 0.95, "exact")]
    [0.877, 0.921]
    """
    if n <= 0:
        return math.nan, math.nan
    alpha = 1 - level
    if method == "exact":
        beta = _betaincinv()
        low = 0.0 if x <= 0 else float(beta(x, n - x + 1, alpha / 2))
        high = 1.0 if x >= n else float(beta(x + 1, n - x, 1 - alpha / 2))
        return low, high
    z = z_value(level)
    p = x / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt((p * (1 - p) + z * z / (4 * n)) / n) / (1 + z * z / n)
    return max(centre - half, 0.0), min(centre + half, 1.0)
