"""Bland–Altman limits of agreement of two raters' continuous ratings.

The exact core, the limits' intervals and the regression on the means are in
:mod:`concord._coefficients.continuous.bland_altman_core`; the sums come from
:mod:`concord._tables.moments`.
"""

from __future__ import annotations

import math
import warnings
from functools import partial
from statistics import NormalDist
from typing import Any

from concord._coefficients.continuous.bland_altman_core import (
    BiasSampler,
    differences,
    limit_intervals,
    regression,
)
from concord._coefficients.continuous.bland_altman_repeated import (
    check_scale,
    from_subjects,
    on_scale,
)
from concord._coefficients.continuous.concordance import empty_error
from concord._common.docs import fill
from concord._common.errors import UndefinedKappaWarning, check_option, param_error
from concord._data.names import rater_names
from concord._data.two import two_raters
from concord._inference.intervals import ConfidenceInterval, Deferred, Inference, _level
from concord._results.continuous.agreement_continuous import BlandAltmanResult
from concord._results.protocol import named
from concord._results.spec import Spec
from concord._tables.moments import Moments, bootstrap_pairs, exact_sums, paired_ratings

SPEC = Spec(
    "bland_altman", "Bland–Altman bias", interval="t", scale=None, bounds=(-math.inf, math.inf)
)
_FUNC = SPEC.name


def checked(options: dict[str, Any]) -> dict[str, Any]:
    """Validate the options: level, limits, proportional and scale (the registry's hook)."""
    out = dict(options)
    out["confidence_level"] = _level(options["confidence_level"], _FUNC)
    try:
        limits = float(options["limits"])
    except (TypeError, ValueError):
        param_error(_FUNC, "limits", "a number in (0, 1)", options["limits"], exc=TypeError)
    if not 0 < limits < 1:
        param_error(_FUNC, "limits", "in (0, 1)", options["limits"], fix="Pass 0.95 for 95%.")
    out["limits"] = limits
    if not isinstance(options["proportional"], bool):
        param_error(_FUNC, "proportional", "True or False", options["proportional"], exc=TypeError)
    out["scale"] = check_scale(options.get("scale", "difference"), _FUNC)
    out["true_value"] = check_option(
        _FUNC, "true_value", options.get("true_value", "varies"), ("varies", "constant")
    )
    if out["scale"] == "percent" and out["proportional"]:
        param_error(
            _FUNC,
            "proportional",
            "False on the percent scale (the percentage already scales d by the mean)",
            True,
            fix="Use scale='ratio' or scale='difference' to regress d on the mean.",
        )
    return out


def _inference(bias: float, se: float, n: int, pairs: Any) -> Inference:
    pairs = pairs() if callable(pairs) else pairs
    sampler = None
    if pairs is not None:
        offset = (pairs[0] @ pairs[2] - pairs[1] @ pairs[2]) / pairs[2].sum()
        sampler = BiasSampler(pairs[0], pairs[1], pairs[2], offset=float(offset))
    return Inference(bias, se, max(n - 1, 0), SPEC.bounds, SPEC.interval, sampler)


def ba_result(sums: Moments, options: dict[str, Any], pairs: Any = None) -> BlandAltmanResult:
    """Build the :class:`BlandAltmanResult` of exact sums.

    ``pairs``: the distinct pairs, for the bootstrap, or a function computing
    them; then the result's inference is deferred until it is first read.
    """
    opts = checked(options)
    level, limits = opts["confidence_level"], opts["limits"]
    d = differences(sums)
    if d.n < 2:
        warnings.warn(
            "bland_altman's SD of the differences, limits of agreement and intervals are "
            f"undefined (nan): {d.n} pair gives no spread. Measure two items or more.",
            UndefinedKappaWarning,
            stacklevel=3,
        )
    z = NormalDist().inv_cdf((1 + limits) / 2)
    se = d.sd / math.sqrt(d.n) if d.n > 1 else math.nan
    inference = _inference(d.bias, se, d.n, None if callable(pairs) else pairs)
    deferred: Deferred = inference
    if callable(pairs):  # the bias's t interval needs no sampler
        deferred = partial(_inference, d.bias, se, d.n, pairs)
    exact = limit_intervals(d.n, d.bias, d.sd, z, level, "exact")
    approx = limit_intervals(d.n, d.bias, d.sd, z, level, "approximate")
    fit = regression(sums) if opts["proportional"] else None
    extra: dict[str, Any] = {}
    if fit is not None:
        extra = {
            "slope": fit.slope,
            "intercept": fit.intercept,
            "slope_se": fit.slope_se,
            "slope_pvalue": fit.slope_pvalue,
            "residual_sd": fit.residual_sd,
        }
    return BlandAltmanResult(
        statistic=d.bias,
        bias=d.bias,
        sd=d.sd,
        lower_limit=d.bias - z * d.sd,
        upper_limit=d.bias + z * d.sd,
        n=d.n,
        confidence_level=level,
        coverage=limits,
        bias_interval=ConfidenceInterval(*inference.interval(level, "t", 2, None, _FUNC)),
        lower_interval=exact[0],
        upper_interval=exact[1],
        lower_interval_approximate=approx[0],
        upper_interval_approximate=approx[1],
        proportional=opts["proportional"],
        scale=opts["scale"],
        _inference=deferred,
        _spec=SPEC,
        **extra,
    )


def count(data: tuple[Any, ...], options: dict[str, Any], sample_weight: Any) -> Moments | None:
    """Validate and sum one batch of a stream, as the one-shot function does."""
    x, y = paired_ratings(data[0], data[1], _FUNC, options.get("nan_policy", "raise"))
    x, y = on_scale(x, y, options.get("scale", "difference"), _FUNC)
    return exact_sums(x, y) if x.size else None


def from_counts(sums: Moments, options: dict[str, Any]) -> BlandAltmanResult:
    """Return the result of a stream's merged sums, as the one-shot function computes it."""
    return ba_result(sums, options)


@fill
def bland_altman(
    x: Any,
    y: Any = None,
    /,
    *,
    confidence_level: float = 0.95,
    limits: float = 0.95,
    proportional: bool = False,
    nan_policy: str = "raise",
    subject: Any = None,
    scale: str = "difference",
    true_value: str = "varies",
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    raters: Any = None,
) -> BlandAltmanResult:
    r"""Bland–Altman limits of agreement of two raters' continuous ratings.

    With the differences d = x − y, the bias is their mean d̄, s their SD
    (n − 1), and the limits of agreement d̄ ∓ z s hold the share ``limits``
    of the differences if they are normal (z = 1.96 for 0.95).

    Parameters
    ----------
    x, y : array-like, shape (n,)
        The two raters' (methods') numeric ratings of the same n items.
        ${series_pairing}
    confidence_level : float
        The level of the intervals of the bias and of the limits; default 0.95.
    limits : float
        The share of differences the limits hold; default 0.95.
    proportional : bool
        Also regress d on the mean m = (x + y) / 2 (Bland & Altman 1999,
        §3.2): its slope with a t test, and limits that depend on the mean
        (``limits_at(m)``).
    nan_policy : {"raise", "omit"}
        What to do with a missing rating: raise, or drop the pair.
    subject : array-like, shape (n,), optional
        The subject of each pair, for repeated measurements: several pairs
        per subject, made at the same time by the two methods, while the true
        value varies (Bland & Altman 2007). Paired by position with x and y.
    true_value : {"varies", "constant"}
        With ``subject``: "varies" (default) when each row is a pair made at
        the same time and the subject's true value changes between pairs;
        "constant" when each method measures the subject several times, the
        replicates are not paired and the true value does not change (Bland
        & Altman 1999, §5.2; 2007, §2). A row then holds one replicate of
        each method, either of which may be missing with
        ``nan_policy="omit"``, and the numbers of replicates may differ.
    scale : {"difference", "ratio", "percent"}
        The differences analysed: x − y; ln x − ln y, whose bias and limits
        back-transform to ratios x / y (``ratio_bias``, ``ratio_limits``);
        or 100 (x − y) / ((x + y) / 2), the percentage of the mean (Bland &
        Altman 1999, §3). The ratio and percent scales need positive values.
    ${pair_long}

    Returns
    -------
    BlandAltmanResult
        ``bias``, ``sd``, ``lower_limit``, ``upper_limit``, ``bias_interval``,
        the limits' intervals (exact and approximate), ``explain()``.

    Notes
    -----
    The sums are exact and d̄ and s² are rounded once from them; a merged
    accumulator gives the one-shot result bit for bit. The bias interval is
    d̄ ± t_{n−1} s / √n (also ``confidence_interval()``; its bootstrap
    resamples the pairs). The limits' exact intervals are Carkeet's (2015):
    (limit − d̄)√n / s is non-central t with n − 1 degrees of freedom and
    non-centrality z√n. The approximate ones are Bland & Altman's (1999):
    limit ± t_{n−1} s √(1/n + z²/(2(n − 1))).

    With ``subject``, the SD of a difference is √(σ²_b + σ²_w), from the
    one-way ANOVA of the differences by subject (Bland & Altman 2007, §3);
    the bias is the mean of all the differences, its interval t on
    (subjects − 1) df with the SE of that model; the limits' intervals are
    not computed (nan), nor the regression (``proportional``), the
    bootstrap or the accumulators. Subjects with one pair count in the
    between-subjects term only; at least one needs two pairs.

    With ``true_value="constant"`` the differences are of the subjects'
    means, d_i = x̄_i − ȳ_i; the bias is their mean, and the variance of a
    difference between single measurements is s²_d̄ + (1 − 1/m_x) s²_xw +
    (1 − 1/m_y) s²_yw, with the pooled within-subject variances of each
    method and m the harmonic mean of the numbers of replicates (Bland &
    Altman 1999, eq. 5.2; Zou 2013). The bias interval is t on (subjects −
    1) df; the limits' intervals are Zou's (2013) MOVER intervals. A subject
    measured by one method only is dropped with ``nan_policy="omit"``; the
    percent scale needs pairs and is refused.

    On the ratio scale ``bias``, ``sd`` and the limits are of ln(x / y);
    ``ratio_bias`` = exp(bias) is the geometric mean ratio and
    ``ratio_limits`` the limits for x / y. The accumulators and
    :mod:`concord.dask` take ``scale`` as the one-shot function does.

    References
    ----------
    Bland, J. M., Altman, D. G. (1986). Statistical methods for assessing
    agreement between two methods of clinical measurement. Lancet 327(8476),
    307-310. doi:10.1016/S0140-6736(86)90837-8

    Bland, J. M., Altman, D. G. (1999). Measuring agreement in method
    comparison studies. Statistical Methods in Medical Research 8(2),
    135-160. doi:10.1177/096228029900800204

    Bland, J. M., Altman, D. G. (2007). Agreement between methods of
    measurement with multiple observations per individual. Journal of
    Biopharmaceutical Statistics 17(4), 571-582. doi:10.1080/10543400701329422

    Zou, G. Y. (2013). Confidence interval estimation for the Bland-Altman
    limits of agreement with multiple observations per individual.
    Statistical Methods in Medical Research 22(6), 630-642.
    doi:10.1177/0962280211402548

    Carkeet, A. (2015). Exact parametric confidence intervals for
    Bland-Altman limits of agreement. Optometry and Vision Science 92(3),
    e71-e80. doi:10.1097/OPX.0000000000000513

    Examples
    --------
    Bland & Altman's (1986) PEFR data (l/min), first readings of the Wright
    and the mini Wright meter; the paper gives bias −2.1 and SD 38.8:

    >>> import concord
    >>> wright = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656,
    ...           267, 478, 178, 423, 427]
    >>> mini = [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626,
    ...         260, 477, 259, 350, 451]
    >>> r = concord.bland_altman(wright, mini)
    >>> round(r.bias, 1), round(r.sd, 1)
    (-2.1, 38.8)
    >>> round(r.lower_limit, 1), round(r.upper_limit, 1)
    (-78.1, 73.9)
    """
    x, y, _, _ = two_raters("bland_altman", x, y, (item, rater, rating), raters, None, None)
    options = checked(
        {
            "confidence_level": confidence_level,
            "limits": limits,
            "proportional": proportional,
            "scale": scale,
            "true_value": true_value,
        }
    )
    if subject is not None:
        return from_subjects(x, y, subject, options, nan_policy, SPEC)
    if options["true_value"] == "constant":
        param_error(
            _FUNC,
            "true_value",
            "'varies' without subject= (the replicates need their subjects)",
            true_value,
            fix="Pass subject=, the subject of each row.",
        )
    vx, vy = on_scale(*paired_ratings(x, y, _FUNC, nan_policy), options["scale"], _FUNC)
    sums = exact_sums(vx, vy)
    if sums.n == 0:
        empty_error(_FUNC)
    result = ba_result(sums, options, bootstrap_pairs(vx, vy))
    return named(result, rater_names(x, y, ("x", "y")), "names")
