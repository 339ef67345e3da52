"""Multi-rater agreement from pooled category shares: percent agreement, Fleiss, Gwet, BP.

Every function takes a ratings matrix (items × raters; a DataFrame with one
column per rater; missing ratings as NaN, None or pd.NA) or the count form
(:class:`CategoryCounts`), and follows Gwet (2014), which generalises each
coefficient to items rated by different numbers of raters. p_a is always the
percent agreement; the coefficients differ in their chance agreement p_e.
Conger's and Light's kappas, which need rater identity, are in
:mod:`concord._coefficients.raters`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from concord._coefficients import agreement_core as core
from concord._common.docs import fill
from concord._common.errors import UndefinedKappaWarning, check_population, describe
from concord._data.labels import Labels
from concord._inference import design as _variance
from concord._inference.intervals import Inference
from concord._inference.resampling import PatternSampler
from concord._results.agreement import AgreementResult, FleissResult
from concord._tables.item_table import Items, ItemStats
from concord._tables.items import item_data
from concord._tables.weights import Weighting, resolve

Chance = Callable[[core.Shares, np.ndarray], Fraction]


# The default interval of each coefficient, from the coverage study in
# benchmarks/coverage.py (results/coverage.md): for n >= 100, Fisher's z
# interval came closest to 95% for every chance-corrected coefficient. Percent
# agreement is not chance-corrected and lives on [0, 1], where the z transform
# of [-1, 1] does not apply; it keeps Student's t interval.
DEFAULT_METHOD = {
    "percent_agreement": "t",
    "fleiss_kappa": "fisher-z",
    "gwet_ac": "fisher-z",
    "brennan_prediger": "fisher-z",
    "conger_kappa": "fisher-z",
    "light_kappa": "fisher-z",
    "krippendorff_alpha": "fisher-z",
}
_KIND = {
    "percent_agreement": "none",
    "fleiss_kappa": "fleiss",
    "gwet_ac": "gwet",
    "brennan_prediger": "uniform",
}


_CHANCE: dict[str, Chance] = {
    "percent_agreement": lambda s, w: Fraction(0),
    "fleiss_kappa": core.chance_fleiss,
    "gwet_ac": core.chance_gwet,
    "brennan_prediger": lambda s, w: core.chance_uniform(w),
}


def _gwet_family(
    func: str, ratings: Any, weights: Any, labels: Any, population_size: Any
) -> AgreementResult:
    """Validate the ratings and compute a coefficient of the family (see :func:`from_items`)."""
    population = check_population(population_size, func)
    items = item_data(ratings, labels, func)
    return from_items(func, items, resolve(weights, items.labels, func), population)


def from_items(
    func: str, items: Items, weighting: Weighting, population: float | None
) -> AgreementResult:
    """Compute a coefficient whose p_a is the percent agreement, from the item patterns.

    The one-shot functions and the accumulators (:mod:`concord._streaming.accumulator`)
    both end here. Fleiss' kappa adds the kappa of each category when unweighted.
    """
    assert items.counts is not None
    s = core.shares(items.stats, weighting.exact)
    pe = _CHANCE[func](s, weighting.exact)
    inference = _gwet_inference(func, items, weighting, s, pe, population)
    cls: type[AgreementResult] = AgreementResult
    extra: dict[str, Any] = {}
    if func == "fleiss_kappa":
        kappas = core.category_kappas(items.stats) if weighting.name == "unweighted" else []
        cls = FleissResult
        extra["category_kappas"] = dict(zip(items.labels.values, kappas, strict=False))
    return assemble(
        func,
        items.stats,
        items.labels,
        weighting,
        s.pa,
        pe,
        items.n_raters,
        cls,
        _inference=inference,
        **extra,
    )


def _gwet_inference(
    func: str,
    items: Items,
    weighting: Weighting,
    s: core.Shares,
    pe: Fraction,
    population: float | None,
) -> Inference:
    """Gwet's (2014) design-based SE, his t test, and the item-pattern bootstrap."""
    assert items.counts is not None
    statistic = core.coefficient(s.pa, pe)
    agreement = weighting.agreement()
    pi = np.array([float(Fraction(int(p), s.D)) for p in s.P])
    kind = _KIND[func]
    t = _variance.terms(items.counts, agreement)
    var = _variance.gwet_family(kind, t, agreement, pi, float(pe), statistic, population)
    return Inference(
        statistic=statistic,
        standard_error=_variance.standard_error(var),
        df=max(t.n - 1, 0),
        bounds=(0.0, 1.0) if kind == "none" else (-1.0, 1.0),
        default_method=DEFAULT_METHOD[func],
        sampler=PatternSampler(items.counts, agreement, kind),
        null_z=_fleiss_null_z(items, weighting, statistic, population)
        if kind == "fleiss"
        else None,
    )


def _fleiss_null_z(
    items: Items, weighting: Weighting, statistic: float, population: float | None
) -> float | None:
    """Fleiss, Nee & Landis (1979) z, for unweighted kappa with m ratings on every item."""
    stats = items.stats
    if weighting.name != "unweighted" or stats.sizes.size != 1 or stats.sizes[0] < 2:
        return None  # Gwet's t test instead
    var0 = _variance.fleiss_null(stats.category_totals, stats.n_items, int(stats.sizes[0]))
    var0 *= 1 - _variance.fraction(stats.n_items, population)
    return statistic / float(np.sqrt(var0)) if var0 > 0 else float("nan")


def undefined(func: str, reason: str) -> None:
    """Warn that a coefficient is nan, and why."""
    warnings.warn(f"{func} is undefined (nan): {reason}.", UndefinedKappaWarning, stacklevel=3)


def _reason(pa: Fraction | None, labels: Labels, totals: np.ndarray) -> str:
    if pa is None:
        return "no item has two ratings, so there is no agreement to measure"
    used = np.flatnonzero(totals)
    if labels.k == 1 or used.size == 1:
        return f"every rating is {describe(labels.values[used[0]], 40)}, so chance agreement is 1"
    return "the chance agreement is 1"


def assemble(
    func: str,
    stats: ItemStats,
    labels: Labels,
    weighting: Weighting,
    pa: Fraction | None,
    pe: Fraction,
    n_raters: int | None,
    cls: type[AgreementResult] = AgreementResult,
    **extra: Any,
) -> AgreementResult:
    """Build the result of a coefficient from its exact p_a and p_e."""
    statistic = core.coefficient(pa, pe)
    if np.isnan(statistic):
        undefined(func, _reason(pa, labels, stats.category_totals))
    return cls(
        statistic=statistic,
        observed_agreement=float(pa) if pa is not None else float("nan"),
        chance_agreement=float(pe),
        labels=labels.values,
        weights=weighting.matrix,
        weighting=weighting.name,
        n_items=stats.n_items,
        n_raters=n_raters,
        coefficient=func,
        category_totals=stats.category_totals,
        **extra,
    )


@fill
def percent_agreement(
    ratings: Any,
    /,
    *,
    weights: Any = None,
    labels: Any = None,
    population_size: float | None = None,
) -> AgreementResult:
    r"""Percent agreement among any number of raters, with missing ratings.

    .. math::

        p_a = \frac{1}{n_2} \sum_{i: r_i \ge 2} \sum_k
              \frac{r_{ik} (r^*_{ik} - 1)}{r_i (r_i - 1)}, \qquad
        r^*_{ik} = \sum_l (1 - W_{kl}) r_{il}

    the share of agreeing pairs of ratings per item, averaged over the n₂
    items with at least two ratings (Gwet 2014, eq. 2.5). It is not
    corrected for chance (p_e = 0).

    Parameters
    ----------
    ratings : array-like (n_items, n_raters), DataFrame or CategoryCounts
        One row per item, one column per rater; NaN/None/pd.NA for missing.
        ${device_ratings}
    weights : None, str or array-like (q, q)
        As in :func:`cohen_kappa`, plus 'ordinal', 'radical', 'ratio',
        'circular', 'bipolar' (see :func:`weight_matrix`).
    labels : sequence, optional
        The ordered categories.
    ${population_size}

    Returns
    -------
    AgreementResult

    Notes
    -----
    Inference: ${gwet_se}
    ``confidence_interval()`` defaults to ``method="t"``, clipped to [0, 1]
    (Fisher's z is a transform of [−1, 1] and does not apply).

    References
    ----------
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced Analytics.

    Examples
    --------
    >>> import concord
    >>> ratings = [[1, 1, 1], [1, 2, 2], [2, 2, None]]
    >>> concord.percent_agreement(ratings).statistic  # (1 + 1/3 + 1) / 3
    0.7777777777777778
    """
    return _gwet_family("percent_agreement", ratings, weights, labels, population_size)


@fill
def fleiss_kappa(
    ratings: Any,
    /,
    *,
    weights: Any = None,
    labels: Any = None,
    population_size: float | None = None,
) -> FleissResult:
    r"""Fleiss' kappa for any number of raters, with missing ratings.

    .. math::

        \kappa = \frac{p_a - p_e}{1 - p_e}, \qquad
        p_e = \sum_{kl} (1 - W_{kl}) \pi_k \pi_l, \qquad
        \pi_k = \frac{1}{n} \sum_i \frac{r_{ik}}{r_i}

    with p_a the percent agreement (:func:`percent_agreement`). With every
    item rated by the same m raters this is Fleiss (1971); items rated by
    fewer raters enter as in Gwet (2014, ch. 5), which R irrCAC's
    ``fleiss.kappa.raw`` also follows. Two raters without missing ratings
    give Scott's pi.

    Parameters
    ----------
    ratings : array-like (n_items, n_raters), DataFrame or CategoryCounts
        One row per item, one column per rater; NaN/None/pd.NA for missing.
        ${device_ratings}
    weights : None, str or array-like (q, q)
        Disagreement weights, as in :func:`percent_agreement`.
    labels : sequence, optional
        The ordered categories.
    ${population_size}

    Returns
    -------
    FleissResult
        An :class:`AgreementResult` with ``category_kappas``, the kappa of
        each category against the others (Fleiss 1971, eq. 20; irr's
        ``detail=TRUE``).

    Notes
    -----
    Inference: ${gwet_se}
    For unweighted kappa with every item rated by the same m raters,
    ``pvalue`` is instead the z test of Fleiss, Nee & Landis (1979), the z of
    R irr's ``kappam.fleiss``.
    ${fisher_z_default}

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many
    raters. Psychological Bulletin 76(5), 378-382. doi:10.1037/h0031619

    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced Analytics.

    Examples
    --------
    Seed 003's three sentiment raters; statsmodels gives 0.3856655290102387
    (the seed's hand computation prints 0.3939 because it reuses Cohen's p_e):

    >>> import concord
    >>> gold = "pos neu neg pos neu pos neg neu pos neg".split()
    >>> m1 = "pos neu neg neu neu pos pos neu pos neu".split()
    >>> m2 = "neu neu neg pos pos pos neg neu neu neg".split()
    >>> import numpy as np
    >>> r = concord.fleiss_kappa(np.column_stack([gold, m1, m2]))
    >>> r.statistic
    0.3856655290102389
    """
    result = _gwet_family("fleiss_kappa", ratings, weights, labels, population_size)
    assert isinstance(result, FleissResult)
    return result


@fill
def gwet_ac(
    ratings: Any,
    /,
    *,
    weights: Any = None,
    labels: Any = None,
    population_size: float | None = None,
) -> AgreementResult:
    r"""Gwet's AC1 (unweighted) or AC2 (weighted) for any number of raters.

    .. math::

        p_e = \frac{\sum_{kl} (1 - W_{kl})}{q (q - 1)} \sum_k \pi_k (1 - \pi_k)

    with π_k as in :func:`fleiss_kappa` and p_a the percent agreement; q is
    the number of categories (declared ``labels``, or those used).

    Parameters
    ----------
    ratings : array-like (n_items, n_raters), DataFrame or CategoryCounts
        One row per item, one column per rater; NaN/None/pd.NA for missing.
        ${device_ratings}
    weights : None, str or array-like (q, q)
        Disagreement weights, as in :func:`percent_agreement`.
    labels : sequence, optional
        The ordered categories.
    ${population_size}

    Returns
    -------
    AgreementResult

    Notes
    -----
    Inference: ${gwet_se}
    ${fisher_z_default}

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in
    the presence of high agreement. British Journal of Mathematical and
    Statistical Psychology 61(1), 29-48. doi:10.1348/000711006X126600

    Examples
    --------
    >>> import concord
    >>> r = concord.gwet_ac([[1, 1], [1, 1], [1, 2], [2, 2]])
    >>> r.name, round(r.statistic, 4)
    ("Gwet's AC1", 0.5)
    """
    return _gwet_family("gwet_ac", ratings, weights, labels, population_size)


@fill
def brennan_prediger(
    ratings: Any,
    /,
    *,
    weights: Any = None,
    labels: Any = None,
    population_size: float | None = None,
) -> AgreementResult:
    r"""Brennan & Prediger's coefficient (Randolph's free-marginal kappa), any number of raters.

    .. math::

        p_e = \frac{1}{q^2} \sum_{kl} (1 - W_{kl})

    (1/q unweighted), where q is the number of categories: the declared
    ``labels``, or those used when none are declared. Declare every
    category the raters could choose, used or not.

    Parameters
    ----------
    ratings : array-like (n_items, n_raters), DataFrame or CategoryCounts
        One row per item, one column per rater; NaN/None/pd.NA for missing.
        ${device_ratings}
    weights : None, str or array-like (q, q)
        Disagreement weights, as in :func:`percent_agreement`.
    labels : sequence, optional
        The ordered categories.
    ${population_size}

    Returns
    -------
    AgreementResult

    Notes
    -----
    Inference: ${gwet_se}
    ${fisher_z_default}

    References
    ----------
    Brennan, R. L. & Prediger, D. J. (1981). Coefficient kappa: some uses,
    misuses, and alternatives. Educational and Psychological Measurement
    41(3), 687-699. doi:10.1177/001316448104100307

    Randolph, J. J. (2005). Free-marginal multirater kappa. Joensuu Learning
    and Instruction Symposium.

    Examples
    --------
    >>> import concord
    >>> ratings = [[1, 1, 1], [1, 2, 2], [2, 2, 2]]
    >>> round(concord.brennan_prediger(ratings, labels=[1, 2, 3]).statistic, 4)  # q = 3
    0.6667
    """
    return _gwet_family("brennan_prediger", ratings, weights, labels, population_size)
