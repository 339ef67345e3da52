"""Bland–Altman limits of agreement: the exact core, the limits' intervals, the regression.

* :func:`differences`: the bias d̄ and the variance s² of the differences
  d = x − y from the exact sums, each rounded once;
* :func:`limit_intervals`: the confidence intervals of a limit d̄ ± z_p s,
  exact (Carkeet 2015: non-central t) or approximate (Bland & Altman 1999);
* :func:`regression`: the differences regressed on the means (Bland & Altman
  1999, §3.2), for limits that depend on the mean;
* :func:`bias_of_sums` and :class:`BiasSampler`: the bias in floating point
  for the bootstrap.

With the sums of :class:`~concord._tables.moments.Moments` and d = x − y::

    Σd = Σx − Σy,  Σd² = Σx² − 2Σxy + Σy²,  Σ(x + y) = Σx + Σy,
    Σd(x + y) = Σx² − Σy²,  Σ(x + y)² = Σx² + 2Σxy + Σy².
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from concord._coefficients.continuous.concordance_core import PairSampler, sqrt_ratio
from concord._common.exact import rounded
from concord._common.extras import require
from concord._inference.intervals import ConfidenceInterval, t_quantile, t_sf
from concord._tables.moments import Moments


def _float(x: Fraction) -> float:
    return rounded(x.numerator, x.denominator)


@dataclass(frozen=True)
class Differences:
    """The bias and the SD of the differences, rounded once from the exact sums."""

    n: int
    bias: float
    variance: float  # s², on n − 1 degrees of freedom
    sd: float


def differences(s: Moments) -> Differences:
    """Return d̄ = Σd / n and s² = (nΣd² − (Σd)²) / (n(n − 1)), exactly rounded."""
    n = s.n
    sd_ = s.sx - s.sy
    sdd = s.sxx - 2 * s.sxy + s.syy
    scale = Fraction(2) ** s.exp
    bias = _float(Fraction(sd_, n) * scale) if n else math.nan
    if n < 2:
        return Differences(n, bias, math.nan, math.nan)
    num, den = n * sdd - sd_ * sd_, n * (n - 1)
    var = Fraction(num, den) * scale**2
    root = sqrt_ratio(var.numerator, var.denominator)
    return Differences(n, bias, _float(var), root)


def _nct() -> Any:
    what = "concord.bland_altman's exact interval of the limits of agreement"
    return require("scipy.stats", "stats", what).nct


def limit_intervals(
    n: int, bias: float, sd: float, z: float, level: float, method: str
) -> tuple[ConfidenceInterval, ConfidenceInterval]:
    """Return the intervals of the lower and upper limits d̄ ∓ z s.

    ``method="exact"`` (Carkeet 2015): (L − d̄)√n / s is a non-central t on
    n − 1 degrees of freedom with non-centrality z√n, so the upper limit's
    interval is d̄ + s/√n · [t'_{α/2}, t'_{1−α/2}], and the lower limit's its
    mirror image. ``method="approximate"`` (Bland & Altman 1999, §2.2): the
    limit ± t_{n−1} · s √(1/n + z² / (2(n − 1))).
    """
    nan = ConfidenceInterval(math.nan, math.nan)
    if n < 2 or not math.isfinite(sd):
        return nan, nan
    alpha = 1 - level
    root = math.sqrt(n)
    if method == "exact":
        q_lo, q_hi = (float(v) for v in _nct().ppf([alpha / 2, 1 - alpha / 2], n - 1, z * root))
        upper = ConfidenceInterval(bias + sd * q_lo / root, bias + sd * q_hi / root)
        lower = ConfidenceInterval(bias - sd * q_hi / root, bias - sd * q_lo / root)
        return lower, upper
    se = sd * math.sqrt(1 / n + z * z / (2 * (n - 1)))
    t = t_quantile(1 - alpha / 2, n - 1)
    lo, hi = bias - z * sd, bias + z * sd
    return (
        ConfidenceInterval(lo - t * se, lo + t * se),
        ConfidenceInterval(hi - t * se, hi + t * se),
    )


@dataclass(frozen=True)
class Regression:
    """The differences regressed on the means: d = intercept + slope · m + e."""

    slope: float
    intercept: float
    slope_se: float
    slope_pvalue: float
    residual_sd: float  # on n − 2 degrees of freedom


def regression(s: Moments) -> Regression:
    """Return the least-squares regression of d = x − y on m = (x + y) / 2, exactly rounded."""
    n = s.n
    nan = Regression(math.nan, math.nan, math.nan, math.nan, math.nan)
    if n < 3:
        return nan
    sd_, s2m = s.sx - s.sy, s.sx + s.sy
    sdd = s.sxx - 2 * s.sxy + s.syy
    smm = s.sxx + 2 * s.sxy + s.syy  # Σ(2m)²
    sdm = s.sxx - s.syy  # Σ d · 2m
    cmm, cdm, cdd = n * smm - s2m * s2m, n * sdm - sd_ * s2m, n * sdd - sd_ * sd_
    if cmm == 0:
        return nan
    scale = Fraction(2) ** s.exp
    slope = Fraction(2 * cdm, cmm)  # d per unit of m = 2 × d per unit of 2m
    intercept = (Fraction(sd_) - slope * Fraction(s2m, 2)) / n * scale
    rss = Fraction(cdd * cmm - cdm * cdm, n * cmm) * scale**2
    var = rss / (n - 2)
    # var(slope) = s² / Σ(m − m̄)², Σ(m − m̄)² = cmm / (4n) on the sums' scale
    var_slope = var / (Fraction(cmm, 4 * n) * scale**2)
    se = sqrt_ratio(var_slope.numerator, var_slope.denominator)
    b = _float(slope)
    p = 2 * t_sf(abs(b / se), n - 2) if se > 0 else (0.0 if b else math.nan)
    return Regression(
        slope=b,
        intercept=_float(intercept),
        slope_se=se,
        slope_pvalue=p,
        residual_sd=sqrt_ratio(var.numerator, var.denominator),
    )


def bias_of_sums(sums: np.ndarray) -> np.ndarray:
    """Return the bias Σd / n of a stack of sums (n, Σx, Σy, ...), in floating point."""
    with np.errstate(invalid="ignore", divide="ignore"):
        out: np.ndarray = (sums[:, 1] - sums[:, 2]) / sums[:, 0]
    return out


@dataclass(frozen=True)
class BiasSampler(PairSampler):
    """Resample the pairs and recompute the bias (on the ratings centred on their means)."""

    offset: float = 0.0  # the observed bias, added back to the centred one

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        """Return d̄ for each row of counts per distinct pair, shape (B, pairs)."""
        out: np.ndarray = bias_of_sums(self.sums(counts)) + self.offset
        return out
