"""Design-based variances: what every coefficient's standard error shares.

Each family module (:mod:`concord._coefficients`) linearises its own
coefficient; here are the pieces that do not depend on which: the square
root that reads rounding noise below 0 as 0, and the sampling fraction
f = n / N of a finite population of N items (0 by default).
"""

from __future__ import annotations

import math

from concord._common.errors import check_population

# rounding leaves the variance of a perfect-agreement sample a few ulps below 0
_ROUNDING = 1e-12


def standard_error(var: float) -> float:
    """Return √var, with rounding noise below 0 read as 0 and a negative variance as nan."""
    if var >= 0:
        return math.sqrt(var)
    return 0.0 if var > -_ROUNDING else float("nan")


def fraction(n: int, population: float | None) -> float:
    """Return the sampling fraction f = n / N (0 for an infinite population)."""
    if population is None or math.isinf(population):
        return 0.0
    check_population(population, "", n)  # the one check of N, here against the items counted
    return n / population
