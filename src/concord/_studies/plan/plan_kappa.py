"""Closed-form sample sizes for κ: Cantor (1996) for two raters, kappaSize's models for several.

Cantor's n is the one of R irr's ``N.cohen.kappa``: the large-sample
variance of Cohen's κ for a 2×2 table (Fleiss, Cohen & Everitt 1969) at the
null and at the anticipated κ, in a z test. The several-rater sizes are
R kappaSize's (Donner & Eliasziw 1992; Donner & Rotondi 2010): the counts
of items on which the raters agree follow a multinomial whose cells depend
on κ; a χ² goodness-of-fit test of the null cells against the anticipated
ones has a noncentrality proportional to n.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from concord._common.exact import fsum
from concord._common.extras import require

_Z = NormalDist()


def cantor_variance(kappa: float, rate1: float, rate2: float) -> float:
    """Return n·Var(κ̂) for a 2×2 table with these margins and κ (irr's Q)."""
    q1, q2 = 1 - rate1, 1 - rate2
    pe = rate1 * rate2 + q1 * q2
    po = kappa * (1 - pe) + pe
    p22 = (po - rate1 + q2) / 2
    p11 = po - p22
    p12, p21 = rate1 - p11, rate2 - p11
    terms = (
        p11 * (1 - pe - (rate2 + rate1) * (1 - po)) ** 2
        + p22 * (1 - pe - (q2 + q1) * (1 - po)) ** 2
        + (1 - po) ** 2 * (p12 * (rate2 + q1) ** 2 + p21 * (q2 + rate1) ** 2)
        - (po * pe - 2 * pe + po) ** 2
    )
    return terms / (1 - pe) ** 4


def cantor_n(
    null: float,
    expected: float,
    rates: tuple[float, float],
    alpha: float,
    power: float,
    sides: int,
) -> float:
    """Return Cantor's (unrounded) n for testing κ = null when κ is ``expected``."""
    z_alpha = _Z.inv_cdf(1 - alpha / sides)
    z_beta = _Z.inv_cdf(power)
    spread = z_alpha * math.sqrt(cantor_variance(null, *rates)) + z_beta * math.sqrt(
        cantor_variance(expected, *rates)
    )
    return float((spread / (expected - null)) ** 2)


def cantor_width_n(
    expected: float, rates: tuple[float, float], alpha: float, width: float
) -> float:
    """Return the (unrounded) n whose Wald interval for κ is ``width`` wide."""
    z = _Z.inv_cdf(1 - alpha / 2)
    return float((2 * z) ** 2 * cantor_variance(expected, *rates) / width**2)


def cells(kappa: float, props: np.ndarray, raters: int) -> np.ndarray:
    """Return kappaSize's cell probabilities for ``raters`` raters and category rates ``props``.

    Two categories: the number of positive ratings per item, 0 to m (a mixture:
    with probability κ every rater gives the item's category). More: the item
    on which all m raters say category i, for each i, and "not unanimous"
    first (a Dirichlet-multinomial with intraclass correlation κ).
    """
    m = raters
    if props.size == 2:
        binom = require("scipy.stats", "stats", "concord.plan").binom

        p = float(props[1])
        out: np.ndarray = (1 - kappa) * binom.pmf(np.arange(m + 1), m, p)
        out[0] += kappa * (1 - p)
        out[m] += kappa * p
        return out
    t = np.arange(1, m)
    unanimous = np.array(
        [pi * np.prod(pi * (1 - kappa) + t * kappa) / np.prod(1 + (t - 1) * kappa) for pi in props]
    )
    return np.concatenate([[1 - unanimous.sum()], unanimous])


def separation(at: float, against: float, props: np.ndarray, raters: int) -> float:
    """Return Σ (P(at) − P(against))² / P(against): the χ² noncentrality for one item."""
    p, q = cells(at, props, raters), cells(against, props, raters)
    held = q > 0  # a cell that underflows to 0 under both (many raters) adds nothing
    return fsum((p[held] - q[held]) ** 2 / q[held])  # an exact sum: the same on every CPU


def noncentrality(alpha: float, power: float, sides: int) -> float:
    """Return λ with P(χ²₁(λ) > the critical value) = power (1 − 2α one-sided, as kappaSize)."""
    brentq = require("scipy.optimize", "stats", "concord.plan").brentq
    stats = require("scipy.stats", "stats", "concord.plan")
    chi2, ncx2 = stats.chi2, stats.ncx2

    crit = float(chi2.ppf(1 - alpha * (3 - sides), 1))

    def short(lam: float) -> float:
        return float(ncx2.sf(crit, 1, lam)) - power

    return float(brentq(short, 1e-9, 1e4, xtol=1e-12))


def power_n(
    null: float,
    expected: float,
    props: np.ndarray,
    raters: int,
    alpha: float,
    power: float,
    sides: int,
) -> float:
    """Return kappaSize's (unrounded) n: PowerBinary, Power3Cats, ... for any k and m."""
    return noncentrality(alpha, power, sides) / separation(expected, null, props, raters)


def width_n(expected: float, props: np.ndarray, raters: int, alpha: float, width: float) -> int:
    """Return kappaSize's CI n: the expected interval excludes expected ± width/2 (CIBinary ...).

    As kappaSize, the smallest n above 10 whose χ² distance from each bound
    exceeds the critical value (by its 0.001 margin).
    """
    chi2 = require("scipy.stats", "stats", "concord.plan").chi2
    crit = float(chi2.ppf(1 - alpha, 1)) + 0.001
    bounds = (expected - width / 2, expected + width / 2)
    needed = [math.ceil(crit / separation(expected, b, props, raters)) for b in bounds]
    return max(11, *needed)
