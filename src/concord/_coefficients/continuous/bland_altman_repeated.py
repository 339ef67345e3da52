"""Bland–Altman on the ratio and percent scales, and with repeated measurements per subject.

* :func:`on_scale`: the pairs to count for ``scale``: logs for "ratio" (Bland &
  Altman 1999, §3.1), the percentage differences 100(x − y)/((x + y)/2) paired with
  0 for "percent"; zero or negative values are refused, naming the row.
* :func:`repeated`: the limits when each subject gives several pairs and the
  true value varies between them (Bland & Altman 2007, §3; 1999, §5.3): the
  variance of a difference is the between-subjects plus the within-subject
  component of a one-way ANOVA of the differences by subject.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np

from concord._common.errors import check_option, param_error
from concord._common.exact import fdot, fmean, fsum
from concord._inference.intervals import ConfidenceInterval, Inference, t_quantile
from concord._results.continuous.agreement_continuous import BlandAltmanResult
from concord._results.spec import Spec
from concord._tables.moments import paired_ratings

SCALES = ("difference", "ratio", "percent")
_NAN = ConfidenceInterval(math.nan, math.nan)


def check_scale(scale: Any, func: str) -> str:
    """Return ``scale`` if it is one of the three, else raise the error sentence."""
    return check_option(func, "scale", scale, SCALES)


def on_scale(x: np.ndarray, y: np.ndarray, scale: str, func: str) -> tuple[np.ndarray, np.ndarray]:
    """Return the pairs whose difference is the scale's: x − y, ln x − ln y, or the percentage."""
    if scale == "difference":
        return x, y
    for values, name in ((x, "x"), (y, "y")):
        bad = np.flatnonzero(~(values > 0))
        if bad.size:
            row = int(bad[0])
            param_error(
                func,
                name,
                f"positive numbers on the {scale} scale",
                f"{values[row].item()!r} in row {row} (of the pairs, from 0)",
                raw=True,
                fix="Use scale='difference' for values that can be zero or negative.",
            )
    fx, fy = x.astype(np.float64), y.astype(np.float64)
    if scale == "ratio":
        return np.log(fx), np.log(fy)
    return 100.0 * (fx - fy) / ((fx + fy) / 2.0), np.zeros_like(fx)


def repeated(
    d: np.ndarray, subject: np.ndarray, options: dict[str, Any], spec: Spec, func: str
) -> BlandAltmanResult:
    """Return the limits of differences ``d`` with several pairs per subject (true value varies).

    With m_i pairs of subject i, N pairs and n subjects: MS_b and MS_w of the
    one-way ANOVA of d by subject, σ²_w = MS_w, σ²_b = (MS_b − MS_w) / λ with
    λ = (N² − Σm_i²) / ((n − 1) N) (0 if negative), and the SD of a
    difference √(σ²_b + σ²_w). The bias is the mean of all N differences; its
    SE √(σ²_b Σm_i² / N² + σ²_w / N), with t on n − 1 df. Every sum is correctly
    rounded (``concord._common.exact``), so the printed digits are the same on every CPU.
    """
    codes, counts = np.unique(subject, return_inverse=True, return_counts=True)[1:]
    n, big_n = counts.size, d.size
    if n < 2 or big_n - n < 1:
        param_error(
            func,
            "subject",
            "at least 2 subjects, one of them with 2 pairs or more",
            f"{n} subject(s) and {big_n} pair(s)",
            raw=True,
            fix="With one pair per subject, leave subject=None.",
        )
    bias = fmean(d)
    # bincount adds each subject's differences one by one in row order: the same everywhere
    means = np.bincount(codes, weights=d) / counts
    ms_between = fdot(counts, (means - bias) ** 2) / (n - 1)
    ms_within = fsum((d - means[codes]) ** 2) / (big_n - n)
    squares = int(np.dot(counts.astype(np.int64), counts.astype(np.int64)))  # ≤ N² < 2**62
    divisor = (big_n**2 - squares) / ((n - 1) * big_n)
    var_between = max((ms_between - ms_within) / divisor, 0.0)
    sd = math.sqrt(var_between + ms_within)
    se = math.sqrt(var_between * squares / big_n**2 + ms_within / big_n)
    level, limits = options["confidence_level"], options["limits"]
    z = NormalDist().inv_cdf((1 + limits) / 2)
    half = t_quantile(1 - (1 - level) / 2, n - 1) * se
    inference = Inference(bias, se, n - 1, spec.bounds, spec.interval, None)
    return BlandAltmanResult(
        statistic=bias,
        bias=bias,
        sd=sd,
        lower_limit=bias - z * sd,
        upper_limit=bias + z * sd,
        n=big_n,
        confidence_level=level,
        coverage=limits,
        bias_interval=ConfidenceInterval(bias - half, bias + half),
        lower_interval=_NAN,
        upper_interval=_NAN,
        lower_interval_approximate=_NAN,
        upper_interval_approximate=_NAN,
        scale=options["scale"],
        n_subjects=n,
        sd_between=math.sqrt(var_between),
        sd_within=math.sqrt(ms_within),
        _inference=inference,
        _spec=spec,
    )


def subjects(subject: Any, n: int, func: str) -> np.ndarray:
    """Return the subject labels as an array of n, or raise the error sentence."""
    labels = np.asarray(subject.to_numpy() if hasattr(subject, "to_numpy") else subject)
    if labels.ndim != 1 or labels.size != n:
        param_error(
            func, "subject", f"one label per pair ({n})", f"shape {labels.shape}", raw=True
        )
    return labels


def from_subjects(
    x: Any, y: Any, subject: Any, options: dict[str, Any], nan_policy: str, spec: Spec
) -> BlandAltmanResult:
    """Validate the pairs and their subjects and return :func:`repeated`'s result."""
    func = spec.name
    if options["proportional"]:
        param_error(
            func,
            "proportional",
            "False with subject= (the regression on the mean ignores the subjects)",
            True,
        )
    fx, fy = _array(x), _array(y)
    labels = subjects(subject, fx.size, func)
    if options.get("true_value") == "constant":
        return _replicates(fx, fy, labels, options, nan_policy, spec)
    if nan_policy == "omit" and fx.shape == fy.shape:
        keep = ~(_gone(fx) | _gone(fy))
        fx, fy, labels = fx[keep], fy[keep], labels[keep]
    vx, vy = on_scale(*paired_ratings(fx, fy, func, nan_policy), options["scale"], func)
    if vx.size == 0:
        param_error(func, "x", "at least one pair of ratings", "none", raw=True)
    d = vx.astype(np.float64) - vy.astype(np.float64)
    return repeated(d, labels, options, spec, func)


def _replicates(
    fx: np.ndarray,
    fy: np.ndarray,
    labels: np.ndarray,
    options: dict[str, Any],
    policy: str,
    spec: Spec,
) -> BlandAltmanResult:
    """Validate unpaired replicates (true value constant) and return their limits."""
    func = spec.name
    if options["scale"] == "percent":
        param_error(
            func,
            "scale",
            "'difference' or 'ratio' with true_value='constant' (percentages need pairs)",
            "percent",
            fix="Use scale='ratio' for differences proportional to the size.",
        )
    if fx.shape != fy.shape:
        param_error(func, "y", f"one value per row of x ({fx.size})", f"{fy.size}", raw=True)
    gx, gy = _gone(fx), _gone(fy)
    if policy != "omit" and (gx.any() or gy.any()):
        paired_ratings(fx, fy, func, policy)  # raises the missing-rating error, naming the row
    vx = np.asarray(fx[~gx], dtype=np.float64)
    vy = np.asarray(fy[~gy], dtype=np.float64)
    sx, sy = labels[~gx], labels[~gy]
    both = np.intersect1d(sx, sy)  # a subject measured by one method only is dropped
    keep_x, keep_y = np.isin(sx, both), np.isin(sy, both)
    vx, sx, vy, sy = vx[keep_x], sx[keep_x], vy[keep_y], sy[keep_y]
    if options["scale"] == "ratio":
        vx = on_scale(vx, np.ones_like(vx), "ratio", func)[0]
        vy = on_scale(np.ones_like(vy), vy, "ratio", func)[1]
    from concord._coefficients.continuous.bland_altman_replicates import replicates

    return replicates(vx, sx, vy, sy, options, spec)


def _array(values: Any) -> np.ndarray:
    """Return the ratings as an array: numbers as they are, anything else as objects."""
    out = np.asarray(values.to_numpy() if hasattr(values, "to_numpy") else values)
    return out if out.dtype.kind in "biuf" else out.astype(object)


def _gone(values: np.ndarray) -> np.ndarray:
    """Where a rating is missing: None or NaN."""
    missing: np.ndarray = np.asarray((values == None) | (values != values), dtype=bool)  # noqa: E711
    return missing
