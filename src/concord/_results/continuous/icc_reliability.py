"""What an ICC says about one measurement: its SEM, MDC and Spearman–Brown prophecy.

The standard error of measurement, the minimal detectable change, and the
reliability with another number of raters.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

from concord._common.errors import param_error
from concord._inference.intervals import check_level


def score_sd(result: Any) -> float:
    """Return the SD of the scores the ICC is the reliability of.

    One rating (single unit): the SD of all the ratings, √(SS_total / (N − 1)).
    The mean of k ratings (average unit): the SD of the items' mean scores,
    √(SS_items / (k₀ (n − 1))).
    """
    anova = result._anova
    if result.unit == "single":
        return math.sqrt(float(anova.ss_total) / (float(anova.n_ratings) - 1))
    return math.sqrt(float(anova.ss_items) / (float(anova.k0) * (float(anova.n_items) - 1)))


def sem(result: Any) -> float:
    """Return SD √(1 − ICC) (Weir 2005, eq. 9); nan when the ICC is nan or above 1."""
    icc = result.statistic
    if not math.isfinite(icc) or icc > 1:
        return math.nan
    return score_sd(result) * math.sqrt(1 - icc)


def mdc(result: Any, confidence_level: float) -> float:
    """Return z_{(1+c)/2} √2 SEM: the smallest change beyond two measurements' error."""
    level = check_level(confidence_level, "IccResult.mdc")
    return NormalDist().inv_cdf(0.5 + level / 2) * math.sqrt(2) * sem(result)


def spearman_brown(result: Any, raters: Any) -> float:
    """Return the ICC of the mean of ``raters`` ratings, from this form's single-rating ICC."""
    if isinstance(raters, bool) or not isinstance(raters, int | float) or not raters > 0:
        param_error("IccResult.spearman_brown", "raters", "a positive number of raters", raters)
    rho = single(result)
    return raters * rho / (1 + (raters - 1) * rho)


def single(result: Any) -> float:
    """Return the single-rating ICC: the result's, or its average form's, stepped down from k₀."""
    rho = float(result.statistic)
    if result.unit == "single":
        return rho
    k = float(result.k0)
    return rho / (k - (k - 1) * rho)
