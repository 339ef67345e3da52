"""Coefficients that need to know which rater gave which rating: Conger's and Light's kappas.

Their exact chance term, float twins and variances are in
:mod:`concord._coefficients.multirater.raters_core`.
"""

from __future__ import annotations

import itertools
import warnings
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from concord._coefficients.clustered import with_groups
from concord._coefficients.kappa.cohen import COHEN, kappa_result
from concord._coefficients.kappa.cohen_core import kappa_fractions
from concord._coefficients.multirater import agreement_core as core
from concord._coefficients.multirater.gwet import assemble, undefined
from concord._coefficients.multirater.raters_core import (
    CongerSampler,
    LightSampler,
    OnDemand,
    chance_conger,
    conger_terms,
    conger_variance,
    light_influence,
    light_variance,
)
from concord._common.docs import fill
from concord._common.errors import UndefinedKappaWarning, check_population
from concord._common.exact import fmean, fsum
from concord._data.long import long_groups
from concord._inference.design import fraction, standard_error
from concord._inference.intervals import Inference, deferred
from concord._inference.resampling import Resampled
from concord._results.kappa.kappa import KappaResult
from concord._results.multirater.agreement import AgreementResult, LightResult
from concord._results.spec import Spec
from concord._tables.item_rows import item_codes
from concord._tables.item_table import Items
from concord._tables.items import batch_items, item_data
from concord._tables.weights import Weighting, resolve

CONGER = Spec(
    "conger_kappa",
    "Conger's kappa",
    chance="p_e = Σ_kl (1 − W_kl) (p̄_k p̄_l − s²_kl / r), from each rater's own shares",
)
LIGHT = Spec("light_kappa", "Light's kappa", chance="p_e = mean of the pairwise Cohen p_e")


def count(
    spec: Spec, data: tuple[Any, ...], options: dict[str, Any], sample_weight: Any
) -> Items | None:
    """Validate and count one batch of a stream, with who rated what."""
    return batch_items(data[0], options["labels"], spec.name, need_raters=True)


def conger_from_counts(items: Items, options: dict[str, Any]) -> AgreementResult:
    """Conger's kappa of a stream's merged patterns."""
    weighting = resolve(options["weights"], items.labels, CONGER.name)
    return conger_result(items, weighting, options["population_size"])


def light_from_counts(items: Items, options: dict[str, Any]) -> LightResult:
    """Light's kappa of a stream's merged patterns."""
    weighting = resolve(options["weights"], items.labels, LIGHT.name)
    return light_result(items, weighting, options["population_size"])


@fill
def conger_kappa(
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
    r"""Conger's kappa: Cohen's kappa generalised to any number of raters.

    .. math::

        p_e = \sum_{kl} (1 - W_{kl}) \left(\bar p_k \bar p_l - \frac{s^2_{kl}}{r}\right)

    where p_gk is the share of rater g's ratings in category k, p̄_k their
    mean over the r raters, and s²_kl the covariance of p_gk and p_gl over
    raters. Two raters without missing ratings give Cohen's kappa (for
    symmetric weights). A rater who rated nothing is ignored.

    Parameters
    ----------
    ratings : array-like (n_items, n_raters) or DataFrame
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
    Inference: ``standard_error`` is Gwet's (2014) variance of Conger's
    kappa (R irrCAC's ``conger.kappa.raw``), each item's linearised
    contribution including its own chance term. ``pvalue`` is two-sided,
    from Gwet's t test with n_items − 1 degrees of freedom. The bootstrap
    resamples items with who rated them.
    ${fisher_z_default}

    A rater (column) who rated no item makes the coefficient undefined: that
    rater's category shares are 0/0. The result is nan, with an
    :class:`UndefinedKappaWarning` naming the rater, as R irrCAC's
    ``conger.kappa.raw`` gives NaN; drop the column to leave the rater out.

    References
    ----------
    Conger, A. J. (1980). Integration and generalization of kappas for
    multiple raters. Psychological Bulletin 88(2), 322-328.
    doi:10.1037/0033-2909.88.2.322

    Examples
    --------
    >>> import concord
    >>> r = concord.conger_kappa([[1, 1], [1, 2], [2, 2], [2, 2]])
    >>> r.statistic == concord.cohen_kappa([1, 1, 2, 2], [1, 2, 2, 2]).statistic
    True
    """
    func = CONGER.name
    population = check_population(population_size, func)
    ratings, groups = long_groups(ratings, (item, rater, rating), groups, func, form)
    items = item_data(ratings, labels, func, need_raters=True, codes_only=True)
    result = conger_result(items, resolve(weights, items.labels, func), population)
    options = {"weights": weights, "labels": labels, "population_size": population_size}
    rows = partial(item_codes, ratings, items.labels.values, func)
    terms = partial(conger_item_terms, (ratings,), options)
    return with_groups(result, groups, ratings, func, rows, terms)


def conger_result(items: Items, weighting: Weighting, population: float | None) -> AgreementResult:
    """Conger's kappa from the item and rater patterns (one-shot and accumulators)."""
    s = core.shares(items.stats, weighting.exact)
    by_rater = items.by_rater()
    silent = np.flatnonzero(by_rater.sum(axis=1) == 0)
    if silent.size:
        return _no_ratings(items, weighting, s.pa, silent)
    pe = chance_conger(by_rater, weighting.exact)
    statistic = core.coefficient(s.pa, pe)
    inference = deferred(
        population, _conger_inference, items, weighting, float(pe), statistic, population
    )
    return assemble(
        CONGER,
        items.stats,
        items.labels,
        weighting,
        s.pa,
        pe,
        items.n_raters,
        _inference=inference,
    )


def _no_ratings(
    items: Items, weighting: Weighting, pa: Fraction | None, silent: np.ndarray
) -> AgreementResult:
    """Conger's kappa when a rater rated nothing: nan, as R irrCAC's ``conger.kappa.raw``.

    That rater's category shares are 0/0, so Conger's chance agreement (the
    raters' mean shares and their covariance) is undefined; leaving the rater
    out silently would report a kappa of fewer raters than were given.
    """
    names = items.names if items.names is not None else tuple(range(items.n_raters or 0))
    who = ", ".join(repr(names[g]) for g in silent[:5])
    undefined(
        CONGER.name,
        f"rater {who} rated no item, so its category shares are 0/0 (R irrCAC's "
        "conger.kappa.raw is NaN too). Drop that rater's column, or use fleiss_kappa or "
        "krippendorff_alpha, which do not keep who rated what",
    )
    nan = float("nan")
    return AgreementResult(
        statistic=nan,
        observed_agreement=float(pa) if pa is not None else nan,
        chance_agreement=nan,
        labels=items.labels.values,
        weights=weighting.matrix,
        weighting=weighting.name,
        n_items=items.stats.n_items,
        n_raters=items.n_raters,
        coefficient=CONGER.name,
        category_totals=items.stats.category_totals,
        _spec=CONGER,
        _inference=deferred(None, _undefined_inference, items.stats.n_items),
    )


def _undefined_inference(n_items: int) -> Inference:
    """Return the inference of an undefined coefficient: nan SE, p-value and intervals."""
    nan = float("nan")
    return Inference(nan, nan, max(n_items - 1, 0), CONGER.bounds, CONGER.interval)


def _conger_inference(
    items: Items,
    weighting: Weighting,
    pe: float,
    statistic: float,
    population: float | None,
) -> Inference:
    """Conger's kappa's SE and sampler, computed when first read (the sampler when resampled)."""
    var = conger_variance(items, weighting.agreement(), pe, statistic, population)

    def form() -> CongerSampler:
        return CongerSampler(items.rater_patterns(), items.labels.k, weighting.floats())

    # kept codes: the patterns are formed (a sort) only if a bootstrap needs them
    sampler = form() if items.codes is None else OnDemand(form)
    return _rater_inference(CONGER, items, statistic, var, sampler)


def _light_inference(
    items: Items,
    terms: list[tuple[Any, ...]],
    weighting: Weighting,
    statistic: float,
    population: float | None,
) -> Inference:
    """Light's kappa's SE and sampler, computed when first read."""
    assert items.raters is not None
    var = light_variance(items.raters, terms, weighting.agreement(), population)
    sampler = LightSampler(items.raters, items.labels.k, weighting.floats())
    return _rater_inference(LIGHT, items, statistic, var, sampler)


def _rater_inference(
    spec: Spec, items: Items, statistic: float, var: float, sampler: Resampled
) -> Inference:
    """Inference for the coefficients that need to know who rated what (Conger, Light)."""
    n = items.codes.rows.shape[0] if items.codes is not None else items.rater_patterns().n
    return Inference(
        statistic=statistic,
        standard_error=standard_error(var),
        df=max(n - 1, 0),
        bounds=spec.bounds,
        default_method=spec.interval,
        sampler=sampler,
    )


@fill
def light_kappa(
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
) -> LightResult:
    r"""Light's kappa: the mean of Cohen's kappa over every pair of raters.

    .. math::

        \kappa_L = \binom{r}{2}^{-1} \sum_{g < h} \kappa_{gh}

    Each pair's kappa uses the items both raters rated (pairwise deletion),
    with the same categories and weights. If any pair's kappa is undefined,
    so is the mean.

    Parameters
    ----------
    ratings : array-like (n_items, n_raters) or DataFrame
        One row per item, one column per rater; NaN/None/pd.NA for missing.
        ${device_ratings}
    weights : None, str or array-like (q, q)
        Disagreement weights, as in :func:`cohen_kappa`.
    labels : sequence, optional
        The ordered categories.
    ${population_size}
    ${long_form}
    ${groups}

    Returns
    -------
    LightResult
        An :class:`AgreementResult` whose ``pairwise`` maps each pair of
        raters to its :class:`KappaResult`.

    Notes
    -----
    Inference: no published variance covers Light's mean with pairwise
    deletion, so ``standard_error`` linearises it: each item contributes the
    mean of its influence on every pairwise Cohen kappa (Gwet's linearisation
    of Cohen's kappa), and var = Σ_i Ψ_i² / (n (n − 1)). ``pvalue`` is
    two-sided, from the t test with n_items − 1 degrees of freedom.
    ${fisher_z_default}

    References
    ----------
    Light, R. J. (1971). Measures of response agreement for qualitative data:
    some generalizations and alternatives. Psychological Bulletin 76(5),
    365-377. doi:10.1037/h0031643

    Examples
    --------
    >>> import concord
    >>> r = concord.light_kappa([[1, 1, 1], [1, 2, 2], [2, 2, 2], [2, 1, 2]])
    >>> sorted(r.pairwise)
    [(0, 1), (0, 2), (1, 2)]
    >>> round(r.statistic, 4)
    0.3333
    """
    func = LIGHT.name
    population = check_population(population_size, func)
    ratings, groups = long_groups(ratings, (item, rater, rating), groups, func, form)
    items = item_data(ratings, labels, func, need_raters=True)
    result = light_result(items, resolve(weights, items.labels, func), population)
    rows = partial(item_codes, ratings, items.labels.values, func)
    return with_groups(result, groups, ratings, func, rows)


def light_result(items: Items, weighting: Weighting, population: float | None) -> LightResult:
    """Light's kappa from the rater patterns (one-shot and accumulators)."""
    func = LIGHT.name
    assert items.names is not None and items.raters is not None
    pairs = list(itertools.combinations(range(len(items.names)), 2))
    pairwise = {(items.names[g], items.names[h]): _pair(items, g, h, weighting) for g, h in pairs}
    values = np.array([r.statistic for r in pairwise.values()])
    if values.size == 0:
        undefined(func, "there is only one rater")
    elif np.isnan(values).any():
        undefined(func, "some pair of raters has an undefined kappa (see .pairwise)")

    exact = [kappa_fractions(r.observed, weighting.exact) for r in pairwise.values()]

    def mean(attribute: str) -> float:
        """Return the mean of the pairs' exact values, rounded once (nan if one is undefined)."""
        if exact and all(e is not None for e in exact):
            at = ("statistic", "observed_agreement", "chance_agreement").index(attribute)
            return float(sum(e[at] for e in exact if e is not None) / len(exact))
        got = [getattr(r, attribute) for r in pairwise.values()]
        return fsum(np.array(got, dtype=np.float64)) / len(got) if got else float("nan")

    stats = items.stats
    terms = [
        (g, h, r.observed, r.observed_agreement, r.chance_agreement, r.statistic)
        for (g, h), r in zip(pairs, pairwise.values(), strict=True)
    ]
    return LightResult(
        statistic=mean("statistic"),
        observed_agreement=mean("observed_agreement"),
        chance_agreement=mean("chance_agreement"),
        labels=items.labels.values,
        weights=weighting.matrix,
        weighting=weighting.name,
        n_items=stats.n_items,
        n_raters=items.n_raters,
        coefficient=func,
        category_totals=stats.category_totals,
        pairwise=pairwise,
        _inference=deferred(
            population, _light_inference, items, terms, weighting, mean("statistic"), population
        ),
        _spec=LIGHT,
    )


def _pair(items: Items, g: int, h: int, weighting: Weighting) -> KappaResult:
    """Cohen's kappa of raters g and h on the items both rated (nan if none)."""
    table = items.pair_table(g, h)
    if table.sum() == 0:
        nan = float("nan")
        return KappaResult(
            nan,
            table,
            np.zeros(table.shape),
            weighting.matrix,
            items.labels.values,
            0,
            nan,
            nan,
            weighting.name,
            _spec=COHEN.spec,
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)  # reported once, for the mean
        return kappa_result(table, items.labels, weighting, COHEN)


def conger_item_terms(data: tuple[Any, ...], options: dict[str, Any]) -> np.ndarray:
    """Per-item terms of Conger's kappa, items in order (the registry's ``terms`` hook)."""
    func = CONGER.name
    population = check_population(options["population_size"], func)
    items = item_data(data[0], options["labels"], func, need_raters=True)
    weighting = resolve(options["weights"], items.labels, func)
    s = core.shares(items.stats, weighting.exact)
    by_rater = items.by_rater()
    pe = chance_conger(by_rater[by_rater.sum(axis=1) > 0], weighting.exact)
    codes = item_codes(data[0], items.labels.values, func)
    return conger_terms(
        codes, by_rater, weighting.agreement(), float(pe), core.coefficient(s.pa, pe), population
    )


def light_item_terms(data: tuple[Any, ...], options: dict[str, Any]) -> np.ndarray:
    """Per-item terms of Light's kappa, items in order (the registry's ``terms`` hook).

    u_i = (Ψ_i − Ψ̄) √((1 − f) / (n (n − 1))), Ψ the linearised mean of the
    pairwise kappas of :func:`light_variance`, so Σ u_i² is its variance.
    """
    func = LIGHT.name
    population = check_population(options["population_size"], func)
    items = item_data(data[0], options["labels"], func, need_raters=True)
    weighting = resolve(options["weights"], items.labels, func)
    result = light_result(items, weighting, population)
    assert items.names is not None
    pairs = [
        (g, h, r.observed, r.observed_agreement, r.chance_agreement, r.statistic)
        for (g, h), r in zip(
            itertools.combinations(range(len(items.names)), 2),
            result.pairwise.values(),
            strict=True,
        )
    ]
    codes = item_codes(data[0], items.labels.values, func)
    n = codes.shape[0]
    psi = light_influence(codes, n, pairs, weighting.agreement())
    if psi is None or n < 2 or not pairs:
        return np.full(n, np.nan)
    f = fraction(n, population)
    out: np.ndarray = (psi - fmean(psi)) * np.sqrt((1 - f) / (n * (n - 1)))  # an exact mean
    return out
