"""Compare agreement: one coefficient on two sets of ratings, with the SE of the difference.

Paired (both sides rate the same items, row for row): each coefficient is
linearised item by item, κ ≈ κ̂ + Σ_i u_i, with the terms its own standard
error sums (the registry's ``terms``: Gwet's 2014 linearisation for the
multi-rater coefficients and Scott's pi, the influence function of the pair
table for Cohen's kappa, whose squares sum to Fleiss, Cohen & Everitt's
variance). The difference's variance is Σ_i (d_i − d̄)², d_i = u₂ᵢ − u₁ᵢ,
which carries the covariance of the two sides (Gwet 2016; R pairedCAC and
Stata ``kappaetc, ttest``); t has n − 1 degrees of freedom, as in pairedCAC.
Unpaired (independent samples): √(SE₁² + SE₂²) with Welch–Satterthwaite's df.
"""

from __future__ import annotations

import functools
import inspect
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from concord._coefficients.clustered import clusters_of
from concord._coefficients.kappa.cohen_core import fce
from concord._coefficients.registry import Coefficient, entry
from concord._common import exact as _exact
from concord._common.errors import UndefinedKappaWarning, check_bool, param_error
from concord._common.extras import require
from concord._inference.clusters import cluster_variance, singletons, t_df
from concord._inference.intervals import Inference, check_level, normal_pvalue, t_sf
from concord._results.studies.comparison import ComparisonResult, HomogeneityResult, check_method
from concord._studies.compare.compare_boot import _sampler, independent_sampler, paired_sampler
from concord._studies.compare.compare_pairs import PairJoint, pair_sampler, paired_pairs
from concord._studies.compare.compare_pairs import difference_se as pair_difference_se

_FUNC = "compare"


def _sides(c: Coefficient, first: Any, second: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Each side's positional data: (rater1, rater2) for two raters, (ratings,) otherwise."""
    if c.arity == 1:
        return (first,), (second,)
    out = []
    for name, side in (("first", first), ("second", second)):
        if not isinstance(side, tuple) or len(side) != 2:
            param_error(
                _FUNC,
                name,
                f"a tuple (rater1, rater2) for {c.name}",
                side,
                exc=TypeError,
                fix=f"Pass {name}=(rater1, rater2).",
            )
        out.append(side)
    return out[0], out[1]


def _check_aligned(first: tuple[Any, ...], second: tuple[Any, ...]) -> None:
    """Paired pandas data must carry the same index: rows are paired by position."""
    for a, b in zip(first, second, strict=True):
        index_a, index_b = getattr(a, "index", None), getattr(b, "index", None)
        if not (hasattr(index_a, "equals") and hasattr(index_b, "equals")):
            continue  # not pandas: rows pair by position
        assert index_a is not None
        if not index_a.equals(index_b):
            param_error(
                _FUNC,
                "second",
                "the same index as first (paired items are matched row for row)",
                "a different index",
                fix="Align both sides on the same items (e.g. second.loc[first.index]).",
            )


def _options(
    c: Coefficient, data: tuple[Any, ...], given: dict[str, Any], func: str = _FUNC
) -> dict[str, Any]:
    """Return the function's keyword options with its defaults filled in."""
    signature = inspect.signature(c.function)
    try:
        bound = signature.bind(*data, **given)
    except TypeError:
        unknown = sorted(set(given) - set(signature.parameters))
        param_error(
            func,
            "options",
            f"keywords of {c.name}: {', '.join(sorted(c.options))}",
            ", ".join(map(repr, unknown)) or repr(given),
            raw=True,
            fix=f"Leave out what {c.name} does not take.",
            exc=TypeError,
        )
    bound.apply_defaults()
    return {k: v for k, v in bound.arguments.items() if k in c.options}


def _paired(
    c: Coefficient,
    d1: tuple[Any, ...],
    d2: tuple[Any, ...],
    options: dict[str, Any],
    groups: Any = None,
) -> tuple[float, float, PairJoint | None]:
    """SE and df of the paired difference, from the per-item terms of both sides.

    Two raters: from the joint table of the pairs' cells, which the bootstrap
    redraws (returned); otherwise from the items' terms (and None).
    """
    assert c.terms is not None
    _check_aligned(d1, d2)
    clusters = None if groups is None else clusters_of(groups, d1[0], _FUNC)
    if c.table == "pairs" and c.pattern_terms is not None:
        sides = (_options(c, d1, options), _options(c, d2, options))
        d, joint = paired_pairs(c, (d1, d2), sides, clusters)
        if joint.item is None:
            return *pair_difference_se(d, joint.freq), joint
        return *difference_se(c, d[joint.item], clusters), joint
    u1 = np.asarray(c.terms(d1, _options(c, d1, options)))
    u2 = np.asarray(c.terms(d2, _options(c, d2, options)))
    if u1.shape != u2.shape:
        param_error(
            _FUNC,
            "second",
            f"the same {u1.shape[0]} items as first (paired=True)",
            f"{u2.shape[0]} items",
            fix="Pass paired=False for independent samples.",
        )
    return *difference_se(c, u2 - u1, clusters), None


def difference_se(
    c: Coefficient, d: np.ndarray, clusters: np.ndarray | None
) -> tuple[float, float]:
    """SE and df of a paired difference from its per-item terms ``d`` (clusters: or None)."""
    if clusters is not None and not singletons(clusters):
        # Cohen's terms carry the delta method's n², the others Gwet's n (n − 1)
        corrected = c.variance is not fce
        var = cluster_variance(d, clusters, corrected)
        return float(np.sqrt(var)), float(t_df(clusters))
    d = np.asarray(d, dtype=np.float64)
    centred = d - _exact.fmean(d)
    return math.sqrt(_exact.fdot(centred, centred)), float(d.shape[0] - 1)


def _side_groups(groups: Any, paired: bool) -> tuple[Any, Any]:
    """Each side's cluster labels: one sequence paired, a pair of sequences unpaired."""
    if groups is None or paired:
        return groups, groups
    if not isinstance(groups, tuple) or len(groups) != 2:
        param_error(
            _FUNC,
            "groups",
            "a tuple (groups of first, groups of second) when paired=False",
            groups,
            exc=TypeError,
            fix="Independent samples have their own clusters: pass groups=(g1, g2).",
        )
    return groups[0], groups[1]


def _welch(first: Any, second: Any) -> tuple[float, float]:
    """√(SE₁² + SE₂²) and Welch–Satterthwaite's df from each side's own df."""
    v1, v2 = first.standard_error**2, second.standard_error**2
    df1, df2 = first._inferred().df, second._inferred().df
    denominator = (v1 * v1 / df1 if df1 else 0.0) + (v2 * v2 / df2 if df2 else 0.0)
    df = (v1 + v2) ** 2 / denominator if denominator > 0 else float("nan")
    return math.sqrt(v1 + v2), df


def compared(function: Any, paired: bool, caller: str, terms: str) -> Coefficient:
    """Return the registry entry of a coefficient ``caller`` can compare (``paired``).

    ``terms`` names the registry field a paired comparison needs: the per-item
    ``terms`` (one shot) or the ``pattern_terms`` (a stream).
    """
    c = entry(function, caller)
    if not c.returns_result:
        param_error(
            caller,
            "function",
            "a coefficient function that returns a result",
            function,
            exc=TypeError,
            fix='Use concord.cohen_kappa with weights="quadratic".',
        )
    if paired and getattr(c, terms) is None:
        raise NotImplementedError(
            f"{caller}: a paired comparison of {c.name} is not available yet; pass paired=False."
        )
    return c


def _bootstrap(
    c: Coefficient,
    sides: tuple[tuple[Any, ...], tuple[Any, ...]],
    results: tuple[Any, Any],
    paired: bool,
    estimate: tuple[float, float, float],
    method: str,
    clusters: np.ndarray | None = None,
    joint: PairJoint | None = None,
) -> Inference:
    """Return the difference's inference with its bootstrap sampler (formed on first use).

    Paired clustered items redraw whole clusters of joint patterns; unpaired ones, each
    side's clusters (each clustered result's own sampler). Two raters' ``joint``
    table, when the SE counted it, is the one the paired bootstrap redraws.
    """
    sampler: Any
    if not paired:
        sampler = independent_sampler(results)
    elif joint is not None:
        sampler = pair_sampler([_sampler(r, _FUNC, items=True) for r in results], joint, clusters)
    else:
        sampler = paired_sampler(c, sides, results, clusters)
    return inference_of(results, estimate, method, sampler)


def inference_of(
    results: tuple[Any, Any], estimate: tuple[float, float, float], method: str, sampler: Any
) -> Inference:
    """Return the difference's inference: its estimate, SE and df, range and ``sampler``.

    The range is that of a difference: [lower₂ − 1, 1 − lower₁] for coefficients in [lower, 1].
    """
    difference, se, df = estimate
    (low1, high1), (low2, high2) = (r._inferred().bounds for r in results)
    return Inference(
        difference,
        se,
        round(df) if math.isfinite(df) else 0,
        (low2 - high1, high2 - low1),
        method,
        sampler,
    )


def compare(
    function: Callable[..., Any],
    first: Any,
    second: Any,
    /,
    *,
    paired: bool = True,
    groups: Any = None,
    confidence_level: float = 0.95,
    method: str | None = None,
    n_resamples: int = 9999,
    rng: Any = None,
    **options: Any,
) -> ComparisonResult:
    """Compare one agreement coefficient on two sets of ratings: second − first, with its SE.

    Parameters
    ----------
    function : callable
        A public coefficient function (``concord.cohen_kappa``, ``concord.fleiss_kappa``, ...).
    first, second : ratings
        That function's data: a tuple ``(rater1, rater2)`` for two-rater
        functions, a ratings matrix, DataFrame or :class:`CategoryCounts`
        for many raters.
    paired : bool, default True
        True: both sides rate the same items, row for row, and the SE uses
        the covariance of the per-item linearised terms (Gwet 2016). False:
        independent samples; the SEs combine without covariance.
    groups : array-like or tuple, optional
        Cluster labels, one per item (such as the patient of each slide):
        the clusters, not the items, are the independent units. Paired: one
        sequence for the shared items; the per-item differences of the
        terms are summed within clusters (see :func:`fleiss_kappa`'s
        ``groups``) and t has C − 1 df. Unpaired: ``(groups_first,
        groups_second)``, each side's clustered SE, combined as without
        clusters. One item per cluster gives the result without ``groups``.
    confidence_level : float, default 0.95
        The default level of the result's interval.
    method : {None, "t", "wald", "bootstrap-percentile", "bootstrap-bca"}
        The default interval method (None: "t"). The paired bootstrap redraws
        the items jointly, one multinomial draw over the joint patterns of
        both sides, never each side on its own; unpaired, each sample is
        redrawn on its own.
    n_resamples : int, default 9999
        Bootstrap resamples.
    rng : None, int or numpy.random.Generator
        Seed of the bootstrap; the same seed gives the same interval.
    **options
        The function's own options (weights, labels, ...), applied to both sides.

    Returns
    -------
    ComparisonResult

    Notes
    -----
    Two raters: Cohen's kappa's per-pair terms are its influence function,
    whose squares sum to Fleiss, Cohen & Everitt's (1969) variance; the
    paired variance is Σ (d_i − d̄)² of their differences (denominator n²,
    the delta method) while pairedCAC's multi-rater terms have Gwet's
    n (n − 1). ``quadratic_weighted_kappa`` returns a float: compare
    ``cohen_kappa`` with ``weights="quadratic"``.

    References
    ----------
    Gwet, K. L. (2016). Testing the difference of correlated agreement
    coefficients for statistical significance. Educational and Psychological
    Measurement 76(4), 609-637. doi:10.1177/0013164415596420

    Examples
    --------
    pairedCAC's README example (R ``ttest.fleiss(ratings1, ratings2)``:
    Δ 0.339184, SE 0.1574322, t 2.154477, p 0.04910569):

    >>> import concord
    >>> ratings1 = [[1, 1, 1, 1], [1, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [1, 2, 1, 1],
    ...             [2, 1, 1, 1], [2, 2, 2, 2], [2, 3, 2, 2], [3, 3, 3, 3], [1, 1, 1, 1],
    ...             [1, 1, 2, 3], [3, 3, 3, 3], [3, 2, 3, 3], [1, 2, 1, 1], [2, 1, 1, 1]]
    >>> ratings2 = [[1, 1, 1, 1], [3, 3, 3, 2], [3, 3, 3, 3], [1, 1, 2, 1], [1, 1, 1, 1],
    ...             [1, 1, 1, 1], [2, 2, 2, 2], [2, 2, 1, 1], [3, 3, 3, 3], [1, 1, 1, 3],
    ...             [2, 2, 2, 2], [3, 3, 3, 3], [3, 3, 3, 3], [1, 2, 1, 1], [3, 3, 3, 3]]
    >>> r = concord.compare(concord.fleiss_kappa, ratings1, ratings2)
    >>> round(r.difference, 6), round(r.standard_error, 7), round(r.pvalue, 8)
    (0.339184, 0.1574322, 0.04910569)

    The paired bootstrap redraws the items of both sides jointly: compared
    with itself, every resample's difference is 0.

    >>> concord.compare(concord.fleiss_kappa, ratings1, ratings1).confidence_interval(
    ...     method="bootstrap-bca", rng=1)
    ConfidenceInterval(low=0.0, high=0.0)
    """
    chosen = check_method("t" if method is None else method, _FUNC)
    confidence_level = check_level(confidence_level, _FUNC)
    paired = check_bool(_FUNC, "paired", paired)
    c = compared(function, paired, _FUNC, "terms")
    d1, d2 = _sides(c, first, second)
    g1, g2 = _side_groups(groups, paired)
    r1 = function(*d1, **options) if g1 is None else function(*d1, groups=g1, **options)
    r2 = function(*d2, **options) if g2 is None else function(*d2, groups=g2, **options)
    se, df, joint = _paired(c, d1, d2, options, groups) if paired else (*_welch(r1, r2), None)
    estimate = (r2.statistic - r1.statistic, se, df)
    clusters = clusters_of(groups, d1[0], _FUNC) if paired and groups is not None else None
    if clusters is not None and singletons(clusters):
        clusters = None  # one item per cluster: the items' bootstrap, as without groups
    inference = functools.partial(
        _bootstrap, c, (d1, d2), (r1, r2), paired, estimate, chosen, clusters, joint
    )
    return finish(r1, r2, se, df, paired, confidence_level, chosen, (n_resamples, rng, inference))


def finish(
    r1: Any,
    r2: Any,
    se: float,
    df: float,
    paired: bool,
    level: float,
    method: str,
    bootstrap: tuple[int, Any, Any] = (9999, None, None),
) -> ComparisonResult:
    """Return the comparison of two results, given the SE and df of their difference.

    ``bootstrap`` is (n_resamples, rng, the deferred inference with its sampler); without
    one (None), the result's bootstrap intervals are refused.
    """
    difference = r2.statistic - r1.statistic
    if se > 0:
        t = difference / se
        p = 2 * t_sf(abs(t), df) if math.isfinite(df) and df > 0 else normal_pvalue(t)
    else:  # the same coefficient on both sides: nothing differs
        t, p = (0.0, 1.0) if difference == 0 else (float("nan"), float("nan"))
    n_resamples, rng, inference = bootstrap
    return ComparisonResult(
        r1, r2, difference, se, t, df, p, paired, level, method, n_resamples, rng, inference
    )


def _estimates(results: tuple[Any, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Return each result's statistic and SE; a clear error for anything that is not a result."""
    expected = "results with a statistic and a standard error (concord.cohen_kappa(...), ...)"
    if len(results) == 1 and isinstance(results[0], list | tuple):
        fix = "Pass the results as separate arguments: homogeneity(*results)."
        param_error("homogeneity", "results", "two or more results", "one list", raw=True, fix=fix)
    if len(results) < 2:
        param_error("homogeneity", "results", "two or more results", f"{len(results)}", raw=True)
    for i, r in enumerate(results):
        if not (hasattr(r, "statistic") and hasattr(r, "standard_error")):
            fix = f"results[{i}] is a {type(r).__name__}; pass the results themselves."
            param_error("homogeneity", "results", expected, r, exc=TypeError, fix=fix)
    k = np.array([r.statistic for r in results], dtype=np.float64)
    se = np.array([r.standard_error for r in results], dtype=np.float64)
    return k, se


def homogeneity(*results: Any) -> HomogeneityResult:
    """Test that several independent coefficients are equal (χ²).

    With κ_g and SE_g of G independent samples, w_g = 1 / SE_g²,
    κ̄ = Σ w_g κ_g / Σ w_g and χ² = Σ w_g (κ_g − κ̄)² on G − 1 df (Fleiss,
    Levin & Paik 2003, §18.1; Cochran's Q of a fixed-effect meta-analysis).

    Parameters
    ----------
    *results
        Two or more results with ``statistic`` and ``standard_error``.

    Returns
    -------
    HomogeneityResult

    References
    ----------
    Fleiss, J. L., Levin, B. & Paik, M. C. (2003). Statistical Methods for
    Rates and Proportions, 3rd ed., §18.1. Wiley.

    Examples
    --------
    Two samples: χ² is the square of the unpaired z of their difference.

    >>> import concord
    >>> a = concord.cohen_kappa([0, 1, 1, 0, 1, 0, 1, 1], [0, 1, 0, 0, 1, 0, 1, 1])
    >>> b = concord.cohen_kappa([0, 1, 1, 0, 1, 0, 1, 1], [1, 1, 0, 0, 1, 1, 1, 0])
    >>> h = concord.homogeneity(a, b)
    >>> z = (a.statistic - b.statistic) ** 2 / (a.standard_error**2 + b.standard_error**2)
    >>> h.df, bool(abs(h.statistic - z) < 1e-12)
    (1, True)
    """
    k, se = _estimates(results)
    if not (np.isfinite(k).all() and np.isfinite(se).all() and (se > 0).all()):
        bad = int(np.flatnonzero(~(np.isfinite(k) & np.isfinite(se) & (se > 0)))[0])
        warnings.warn(
            f"homogeneity is undefined (nan): result {bad} has statistic {float(k[bad])!r} and "
            f"standard error {float(se[bad])!r}; the test weighs each result by 1 / SE², which "
            "needs a finite estimate with a positive SE. Leave that result out.",
            UndefinedKappaWarning,
            stacklevel=2,
        )
        nan = float("nan")
        return HomogeneityResult(tuple(results), nan, nan, len(results) - 1, nan, (nan,) * len(k))
    w = 1 / se**2
    pooled = _exact.fdot(w, k) / _exact.fsum(w)
    parts = w * (k - pooled) ** 2
    chi2 = _exact.fsum(parts)
    df = len(results) - 1
    stats = require("scipy.stats", "stats", "concord.homogeneity")
    p = float(stats.chi2.sf(chi2, df))
    shares = tuple(float(x) for x in (parts / chi2 if chi2 > 0 else np.zeros_like(parts)))
    return HomogeneityResult(tuple(results), pooled, chi2, df, p, shares)
