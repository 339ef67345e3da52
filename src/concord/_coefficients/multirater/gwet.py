"""Multi-rater agreement from pooled category shares: percent agreement, Fleiss, Gwet, BP.

Every function takes a ratings matrix (items × raters; a DataFrame with one
column per rater; missing ratings as NaN, None or pd.NA) or the count form
(:class:`CategoryCounts`), and follows Gwet (2014), which generalises each
coefficient to items rated by different numbers of raters. p_a is always the
percent agreement; the coefficients differ in their chance agreement p_e.
Conger's and Light's kappas, which need rater identity, are in
:mod:`concord._coefficients.multirater.raters`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from concord._coefficients.clustered import with_groups
from concord._coefficients.multirater import agreement_core as core
from concord._common.docs import fill
from concord._common.errors import UndefinedKappaWarning, check_population, describe
from concord._data.labels import Labels
from concord._data.long import long_groups
from concord._data.sets import empty_sets
from concord._inference.design import fraction, standard_error
from concord._inference.intervals import Inference, deferred
from concord._results.multirater.agreement import AgreementResult, FleissResult
from concord._results.spec import Spec
from concord._tables.item_rows import item_counts
from concord._tables.item_table import Items, ItemStats
from concord._tables.items import batch_items, item_data
from concord._tables.weights import Weighting, resolve


@dataclass(frozen=True)
class Member:
    """A coefficient of the family: its spec, its chance term, and Fleiss' extras.

    ``per_category``: the result is a :class:`FleissResult` with each
    category's kappa, and unweighted complete data get the z test of Fleiss,
    Nee & Landis (1979).
    """

    spec: Spec
    chance: core.Chance
    per_category: bool = False


PERCENT = Member(
    # not chance-corrected and on [0, 1], where the z transform of [-1, 1] does not
    # apply: Student's t interval; no benchmark scale is made for it
    Spec(
        "percent_agreement",
        "Percent agreement",
        interval="t",
        scale=None,
        bounds=(0.0, 1.0),
        chance="p_e = 0 (no correction for chance)",
    ),
    core.NONE,
)
FLEISS = Member(
    Spec("fleiss_kappa", "Fleiss' kappa", chance="p_e = Σ_kl (1 − W_kl) π_k π_l"),
    core.FLEISS,
    per_category=True,
)
GWET = Member(
    Spec(
        "gwet_ac",
        "Gwet's AC1",
        "Gwet's AC2",
        chance="p_e = Σ_kl (1 − W_kl) / (q(q − 1)) · Σ_k π_k (1 − π_k)",
    ),
    core.GWET,
)
BRENNAN_PREDIGER = Member(
    Spec(
        "brennan_prediger",
        "Brennan-Prediger coefficient",
        chance="p_e = Σ_kl (1 − W_kl) / q² (every category equally likely)",
    ),
    core.UNIFORM,
)


def _gwet_family(
    member: Member,
    ratings: Any,
    weights: Any,
    labels: Any,
    population_size: Any,
    long: tuple[Any, Any, Any],
    groups: Any = None,
    form: str = "auto",
) -> AgreementResult:
    """Validate the ratings and compute a coefficient of the family (see :func:`from_items`)."""
    func = member.spec.name
    population = check_population(population_size, func)
    ratings, groups = long_groups(ratings, long, groups, func, form)
    items = item_data(ratings, labels, func)
    result = from_items(member, items, resolve(weights, items.labels, func), population)
    options = {"weights": weights, "labels": labels, "population_size": population_size}
    rows = partial(item_counts, ratings, items.labels.values, func)
    terms = partial(item_terms, member, (ratings,), options)
    return with_groups(result, groups, ratings, func, rows, terms)


def from_items(
    member: Member, items: Items, weighting: Weighting, population: float | None
) -> AgreementResult:
    """Compute a coefficient whose p_a is the percent agreement, from the item patterns.

    The one-shot functions and the accumulators (:mod:`concord._streaming.accumulator`)
    both end here. Fleiss' kappa adds the kappa of each category when unweighted.
    """
    assert items.counts is not None
    s = core.shares(items.stats, weighting.exact)
    pe = member.chance.exact(s, weighting.exact)
    inference = deferred(population, _gwet_inference, member, items, weighting, s, pe, population)
    cls: type[AgreementResult] = AgreementResult
    extra: dict[str, Any] = {}
    if member.per_category:
        kappas = core.category_kappas(items.stats) if weighting.name == "unweighted" else []
        cls = FleissResult
        extra["category_kappas"] = dict(zip(items.labels.values, kappas, strict=False))
    return assemble(
        member.spec,
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
    member: Member,
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
    t = core.terms(items.counts, agreement)
    var = core.variance(member.chance, t, agreement, pi, float(pe), statistic, population)
    return Inference(
        statistic=statistic,
        standard_error=standard_error(var),
        df=max(t.n - 1, 0),
        bounds=member.spec.bounds,
        default_method=member.spec.interval,
        sampler=core.PatternSampler(items.counts, agreement, member.chance),
        null_z=_fleiss_null_z(items, weighting, statistic, population)
        if member.per_category
        else None,
    )


def _fleiss_null_z(
    items: Items, weighting: Weighting, statistic: float, population: float | None
) -> float | None:
    """Fleiss, Nee & Landis (1979) z, for unweighted kappa with m ratings on every item."""
    stats = items.stats
    if weighting.name != "unweighted" or stats.sizes.size != 1 or stats.sizes[0] < 2:
        return None  # Gwet's t test instead
    var0 = core.fleiss_null(stats.category_totals, stats.n_items, int(stats.sizes[0]))
    var0 *= 1 - fraction(stats.n_items, population)
    return statistic / float(np.sqrt(var0)) if var0 > 0 else float("nan")


def count(
    member: Member, data: tuple[Any, ...], options: dict[str, Any], sample_weight: Any
) -> Items | None:
    """Validate and count one batch of a stream (whole items), as the one-shot function does."""
    with empty_sets(options.get("empty", "missing"), member.spec.name):
        return batch_items(data[0], options["labels"], member.spec.name)


def from_counts(member: Member, items: Items, options: dict[str, Any]) -> AgreementResult:
    """Return the result of merged item patterns, as the one-shot function computes it."""
    weighting = resolve(options["weights"], items.labels, member.spec.name)
    return from_items(member, items, weighting, options["population_size"])


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
    spec: Spec,
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
        undefined(spec.name, _reason(pa, labels, stats.category_totals))
    return cls(
        statistic=statistic,
        observed_agreement=float(pa) if pa is not None else float("nan"),
        chance_agreement=float(pe),
        labels=labels.values,
        weights=weighting.matrix,
        weighting=weighting.name,
        n_items=stats.n_items,
        n_raters=n_raters,
        coefficient=spec.name,
        category_totals=stats.category_totals,
        _spec=spec,
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
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    form: str = "auto",
    groups: Any = None,
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
    ${long_form}
    ${groups}

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
    return _gwet_family(
        PERCENT, ratings, weights, labels, population_size, (item, rater, rating), groups, form
    )


@fill
def fleiss_kappa(
    ratings: Any,
    /,
    *,
    weights: Any = None,
    labels: Any = None,
    population_size: float | None = None,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    form: str = "auto",
    groups: Any = None,
    empty: str = "missing",
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
    ${long_form}
    ${groups}
    ${empty}

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
    with empty_sets(empty, FLEISS.spec.name):
        result = _gwet_family(
            FLEISS, ratings, weights, labels, population_size, (item, rater, rating), groups, form
        )
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
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    form: str = "auto",
    groups: Any = None,
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
    ${long_form}
    ${groups}

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
    return _gwet_family(
        GWET, ratings, weights, labels, population_size, (item, rater, rating), groups, form
    )


@fill
def brennan_prediger(
    ratings: Any,
    /,
    *,
    weights: Any = None,
    labels: Any = None,
    population_size: float | None = None,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    form: str = "auto",
    groups: Any = None,
) -> AgreementResult:
    r"""Brennan & Prediger's coefficient (Randolph's free-marginal kappa), any number of raters.

    .. math::

        p_e = \frac{1}{q^2} \sum_{kl} (1 - W_{kl})

    (1/q unweighted), where q is the number of categories: the declared
    ``labels``, or those used when none are declared. Declare every
    category the raters could choose, used or not.

    With two raters and q = 2 it is PABAK, the prevalence- and bias-adjusted
    kappa 2 p_o − 1 of Byrt, Bishop & Carlin (1993), which
    :attr:`KappaResult.pabak` also reports (with its exact interval,
    :meth:`KappaResult.pabak_interval`, as R epiR's ``epi.kappa``).

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
    ${long_form}
    ${groups}

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

    Byrt, T., Bishop, J. & Carlin, J. B. (1993). Bias, prevalence and kappa.
    J Clin Epidemiol 46(5), 423-429.

    Randolph, J. J. (2005). Free-marginal multirater kappa. Joensuu Learning
    and Instruction Symposium.

    Examples
    --------
    >>> import concord
    >>> ratings = [[1, 1, 1], [1, 2, 2], [2, 2, 2]]
    >>> round(concord.brennan_prediger(ratings, labels=[1, 2, 3]).statistic, 4)  # q = 3
    0.6667
    """
    return _gwet_family(
        BRENNAN_PREDIGER,
        ratings,
        weights,
        labels,
        population_size,
        (item, rater, rating),
        groups,
        form,
    )


def item_terms(member: Member, data: tuple[Any, ...], options: dict[str, Any]) -> np.ndarray:
    """Per-item terms of the coefficient, items in order: Σ u_i² is its variance.

    The registry's ``terms`` hook, which :func:`concord.compare` pairs item by item.
    """
    func = member.spec.name
    population = check_population(options["population_size"], func)
    items = item_data(data[0], options["labels"], func)
    weighting = resolve(options["weights"], items.labels, func)
    s = core.shares(items.stats, weighting.exact)
    pe = member.chance.exact(s, weighting.exact)
    pi = np.array([float(Fraction(int(p), s.D)) for p in s.P])
    rows = item_counts(data[0], items.labels.values, func)
    statistic = core.coefficient(s.pa, pe)
    return core.item_terms(
        member.chance, rows, weighting.agreement(), pi, float(pe), statistic, population
    )
