"""Bland–Altman with replicates per subject when the true value is constant.

Each subject is measured several times by each method, the replicates are not
paired, and the subject's true value does not change between them (Bland &
Altman 1999, §5.2; 2007, §2). The differences are of the subject means,
d_i = x̄_i − ȳ_i, and the variance of a difference between single measurements
adds back the within-subject variance the means removed:

    s² = s²_d̄ + (1 − 1/m_x) s²_xw + (1 − 1/m_y) s²_yw,

with s²_d̄ the variance of the d_i over the n subjects, s²_xw and s²_yw the
pooled within-subject variances of each method (one-way ANOVA), and m_x, m_y
the harmonic means of the numbers of replicates (n / Σ 1/m_xi), which reduce
to the common number when it is the same for every subject. The limits'
intervals are Zou's (2013) method of variance estimates recovery (MOVER).
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np

from concord._common.errors import param_error
from concord._common.exact import fmean, fsum
from concord._common.extras import require
from concord._inference.intervals import ConfidenceInterval, Inference, t_quantile
from concord._results.continuous.agreement_continuous import BlandAltmanResult
from concord._results.spec import Spec

_NAN = ConfidenceInterval(math.nan, math.nan)


def _method(values: np.ndarray, codes: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Return one method's replicate counts, subject means and pooled within variance."""
    counts = np.bincount(codes, minlength=n)
    means = np.bincount(codes, weights=values, minlength=n) / counts
    df = values.size - n
    within = fsum((values - means[codes]) ** 2) / df if df > 0 else math.nan
    return counts, means, within


def _gaps(n: int, big_x: int, big_y: int, parts: tuple[float, float, float], p: float) -> float:
    """Zou's (2013) MOVER distance of the variance sum s² at the chi-squared quantile p."""
    chi2 = require("scipy.stats", "stats", "the limits' intervals (chi-squared)").chi2
    total = 0.0
    for part, df in zip(parts, (n - 1, big_x - n, big_y - n), strict=True):
        if part > 0 and df > 0:
            total += (part * (1 - df / float(chi2.ppf(p, df)))) ** 2
    return math.sqrt(total)


def replicates(
    x: np.ndarray,
    xs: np.ndarray,
    y: np.ndarray,
    ys: np.ndarray,
    options: dict[str, Any],
    spec: Spec,
) -> BlandAltmanResult:
    """Return the limits when the true value is constant: replicates x (subjects xs), y (ys).

    Every subject has at least one replicate by each method (the caller checks).
    """
    labels, codes = np.unique(np.concatenate([xs, ys]), return_inverse=True)
    n = labels.size
    if n < 2:
        param_error(spec.name, "subject", "at least 2 subjects", n, raw=True)
    cx, cy = codes[: xs.size], codes[xs.size :]
    mx, mean_x, within_x = _method(x, cx, n)
    my, mean_y, within_y = _method(y, cy, n)
    if not (math.isfinite(within_x) and math.isfinite(within_y)):
        param_error(
            spec.name,
            "subject",
            "a subject with 2 replicates or more by each method (the within-subject variance)",
            "one replicate per subject",
            raw=True,
            fix="With one pair per subject, leave subject=None.",
        )
    d = mean_x - mean_y
    bias = fmean(d)
    var_d = fsum((d - bias) ** 2) / (n - 1)
    share_x = 1 - fsum(1 / mx) / n  # 1 − 1/m_x with m_x the harmonic mean
    share_y = 1 - fsum(1 / my) / n
    parts = (var_d, share_x * within_x, share_y * within_y)
    total = parts[0] + parts[1] + parts[2]
    sd = math.sqrt(total)
    level, coverage = options["confidence_level"], options["limits"]
    z = NormalDist().inv_cdf((1 + coverage) / 2)
    lower, upper = bias - z * sd, bias + z * sd
    tail = (1 - level) / 2
    zc = NormalDist().inv_cdf(1 - tail)
    big = (n, x.size, y.size)
    low_var = max(total - _gaps(*big, parts, 1 - tail), 0.0)
    high_var = total + _gaps(*big, parts, tail)
    left = math.sqrt(zc**2 * var_d / n + z**2 * (math.sqrt(high_var) - sd) ** 2)
    right = math.sqrt(zc**2 * var_d / n + z**2 * (sd - math.sqrt(low_var)) ** 2)
    se = math.sqrt(var_d / n)
    half = t_quantile(1 - tail, n - 1) * se
    return BlandAltmanResult(
        statistic=bias,
        bias=bias,
        sd=sd,
        lower_limit=lower,
        upper_limit=upper,
        n=int(x.size + y.size),
        confidence_level=level,
        coverage=coverage,
        bias_interval=ConfidenceInterval(bias - half, bias + half),
        lower_interval=ConfidenceInterval(lower - left, lower + right),
        upper_interval=ConfidenceInterval(upper - right, upper + left),
        lower_interval_approximate=_NAN,
        upper_interval_approximate=_NAN,
        scale=options["scale"],
        n_subjects=n,
        sd_between=math.sqrt(var_d),
        sd_within=math.sqrt(parts[1] + parts[2]),
        true_value="constant",
        _inference=Inference(bias, se, n - 1, spec.bounds, spec.interval, None),
        _spec=spec,
    )
