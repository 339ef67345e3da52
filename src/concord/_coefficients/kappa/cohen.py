"""Cohen's kappa and Scott's pi, unweighted and weighted, from the k×k confusion table.

The exact core, its float twin and its variance are in
:mod:`concord._coefficients.kappa.cohen_core`; here are the public functions and
the results they build.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from concord._coefficients.kappa.cohen_core import (
    TableSampler,
    fce,
    pair_terms,
    undefined_reason,
    weighted_kappa_core,
)
from concord._common import exact_rows
from concord._common.docs import fill
from concord._common.errors import UndefinedKappaWarning, check_population
from concord._data.labels import Labels
from concord._data.names import rater_names
from concord._data.sets import empty_sets
from concord._data.two import two_raters
from concord._inference.design import fraction, standard_error
from concord._inference.intervals import Inference, deferred
from concord._results.kappa.kappa import KappaResult
from concord._results.protocol import named
from concord._results.spec import Spec
from concord._tables.item_rows import pair_codes
from concord._tables.pair_table import PairTable
from concord._tables.pairs import batch_table, confusion_table
from concord._tables.patterns import Patterns
from concord._tables.weights import Weighting, resolve


@dataclass(frozen=True)
class Pair:
    """A two-rater coefficient: its spec, and whether chance pools the raters' shares."""

    spec: Spec
    pooled: bool = False


COHEN = Pair(Spec("cohen_kappa", "Cohen's kappa"))
SCOTT = Pair(Spec("scott_pi", "Scott's pi"), pooled=True)


def _inference(
    table: np.ndarray,
    weighting: Weighting,
    statistic: float,
    pair: Pair,
    population: float | None,
    units: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
) -> Inference:
    """SE, test and sampler of a two-rater result (see the module docstring)."""
    agreement = weighting.agreement()
    n = float(table.sum())
    f = fraction(round(n), population)
    null_z = None
    pooled = pair.pooled
    if pooled:  # Scott's pi is Fleiss' kappa of two raters: Gwet's raw-ratings variance
        k = table.shape[0]
        cells = np.flatnonzero(table)
        rows = np.eye(k, dtype=np.int64)[cells // k] + np.eye(k, dtype=np.int64)[cells % k]
        from concord._coefficients.multirater import agreement_core

        pairs = Patterns(rows, table.ravel()[cells].astype(np.int64))
        pi = (table.sum(axis=0) + table.sum(axis=1)) / (2 * n)
        pe = exact_rows.form(agreement, pi)  # exact, rounded once: the same on every CPU
        t = agreement_core.terms(pairs, agreement)
        var = agreement_core.variance(
            agreement_core.FLEISS, t, agreement, pi, pe, statistic, population
        )
    elif n > 0 and np.isfinite(statistic):
        var, var0 = fce(table, agreement, statistic, weighting.exact)
        var, var0 = (1 - f) * var, (1 - f) * var0
        if var0 > 0:
            null_z = statistic / np.sqrt(var0)
        else:  # κ = 0 exactly under a null distribution that is a point: P(|Z| ≥ 0) = 1
            null_z = 0.0 if var0 == 0 and statistic == 0 else float("nan")
    else:
        var = float("nan")
    sampler = (
        TableSampler(table, weighting.floats(), pooled)
        if units is None
        else TableSampler(table, weighting.floats(), pooled, *units)
    )
    return Inference(
        statistic=statistic,
        standard_error=standard_error(var),
        df=max(round(n) - 1, 0),
        bounds=pair.spec.bounds,
        default_method=pair.spec.interval,
        sampler=sampler,
        null_z=null_z,
    )


def kappa_result(
    table: np.ndarray,
    labels: Labels,
    weighting: Weighting,
    pair: Pair,
    *,
    population: float | None = None,
    units: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    caller: str | None = None,
) -> KappaResult:
    """Build the :class:`KappaResult` of a confusion table; warn if κ is undefined.

    ``pair`` is :data:`COHEN` or :data:`SCOTT` (chance from the pooled shares);
    ``units`` are the distinct (cell, sample weight) pairs and their
    frequencies, when the pairs carry sample weights; ``caller`` names the
    function in the warning (default: the coefficient's own).
    """
    func, pooled = pair.spec.name, pair.pooled
    add = np.add.reduce  # ndarray.sum's own reduction, without its Python wrapper
    n, rows, cols = add(table, axis=None), add(table, axis=1), add(table, axis=0)
    statistic, p_o, p_e = weighted_kappa_core(
        table, weighting.exact, pooled=pooled, split=weighting.split, margins=(rows, cols)
    )
    if math.isnan(statistic):
        warnings.warn(
            f"{caller or func} is undefined (nan) because the chance disagreement ΣW·E is 0: "
            f"{undefined_reason(table, labels)}.",
            UndefinedKappaWarning,
            stacklevel=3,
        )
    if pooled:
        rows = cols = (rows + cols) / 2
    expected = np.multiply.outer(rows, cols) / n  # np.outer, without its checks
    return KappaResult(
        statistic=statistic,
        observed=table,
        expected=expected,
        weights=weighting.matrix,
        labels=labels.values,
        n=n.item(),
        observed_agreement=p_o,
        chance_agreement=p_e,
        weighting=weighting.name,
        coefficient=func,
        _inference=deferred(
            population, _inference, table, weighting, statistic, pair, population, units
        ),
        _spec=pair.spec,
    )


def count(
    pair: Pair, data: tuple[Any, ...], options: dict[str, Any], sample_weight: Any
) -> PairTable | None:
    """Validate and count one batch of a stream, as the one-shot function does."""
    with empty_sets(options.get("empty", "missing"), pair.spec.name):
        return batch_table(
            *data,
            labels=options["labels"],
            nan_policy=options["nan_policy"],
            sample_weight=sample_weight,
            func=pair.spec.name,
        )


def from_counts(pair: Pair, counted: PairTable, options: dict[str, Any]) -> KappaResult:
    """Return the result of a stream's merged table, as the one-shot function computes it."""
    weighting = resolve(options["weights"], counted.labels, pair.spec.name)
    population = options["population_size"]
    return kappa_result(
        counted.table, counted.labels, weighting, pair, population=population, units=counted.units
    )


def _one_shot(
    pair: Pair,
    rater1: Any,
    rater2: Any,
    weights: Any,
    labels: Any,
    sample_weight: Any,
    nan_policy: str,
    population_size: Any,
    groups: Any = None,
) -> KappaResult:
    """Validate and count two raters' ratings, then compute the result (cohen_kappa, scott_pi)."""
    func = pair.spec.name
    counted = confusion_table(
        rater1,
        rater2,
        labels=labels,
        nan_policy=nan_policy,
        sample_weight=sample_weight,
        func=func,
    )
    weighting = resolve(weights, counted.labels, func)
    population = check_population(population_size, func)
    result = kappa_result(
        counted.table, counted.labels, weighting, pair, population=population, units=counted.units
    )
    result = named(result, rater_names(rater1, rater2))
    if groups is None:
        return result
    if sample_weight is not None:
        raise NotImplementedError(f"{func}: groups= with sample_weight is not available yet.")
    values = counted.labels.values
    rows = partial(_cells, rater1, rater2, values, func)
    options = {"weights": weights, "labels": labels, "nan_policy": nan_policy}
    options["population_size"] = population_size
    terms = partial(pair_item_terms, pair, (rater1, rater2), options)
    from concord._coefficients.clustered import with_groups  # clustered SEs: on first use

    return with_groups(result, groups, rater1, func, rows, terms, corrected=pair.pooled)


def _cells(rater1: Any, rater2: Any, labels: tuple[Any, ...], func: str) -> np.ndarray:
    from concord._coefficients.clustered import cell_rows

    return cell_rows(pair_codes(rater1, rater2, labels, func), len(labels))


@fill
def cohen_kappa(
    rater1: Any,
    rater2: Any = None,
    /,
    *,
    weights: Any = None,
    labels: Any = None,
    sample_weight: Any = None,
    nan_policy: str = "raise",
    population_size: float | None = None,
    groups: Any = None,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    raters: Any = None,
    empty: str = "missing",
) -> KappaResult:
    r"""Cohen's kappa of two raters, unweighted or weighted.

    .. math::

        \kappa = 1 - \frac{\sum_{ij} w_{ij} O_{ij}}{\sum_{ij} w_{ij} E_{ij}},
        \qquad E_{ij} = \frac{r_i c_j}{n}

    where O is the k×k table of observed counts, r and c its row and column
    totals, n the number of pairs and w the disagreement weights (0 on the
    diagonal). Unweighted kappa (Cohen 1960) has w_ij = 1 off the diagonal;
    weighted kappa (Cohen 1968) any non-negative w.

    Parameters
    ----------
    rater1, rater2 : array-like, shape (n,)
        The two raters' ratings of the same n items: lists, numpy arrays of
        bool, int, float, str or object dtype, pandas Series or Categorical.
        Floats must be whole numbers unless ``labels`` are given.
        ${series_pairing}
        ${device_pair}
    weights : None, {"linear", "quadratic"} or array-like, shape (k, k)
        None for unweighted kappa; "linear" (|x_i − x_j|) or "quadratic"
        ((x_i − x_j)²) disagreement weights; or a k×k matrix of disagreement
        weights ordered as ``labels`` (zero diagonal, finite, non-negative,
        not all zero; asymmetric matrices are allowed).
    labels : sequence, optional
        The ordered categories. Default for numeric ratings: the sorted
        distinct values, and linear/quadratic distances use the values
        themselves, so an unused category inside an integer scale keeps its
        distance. Non-numeric ratings need ``labels`` for weighted kappa:
        concord never sorts them alphabetically. An ordered pandas
        Categorical supplies its own order.
    sample_weight : array-like, shape (n,), optional
        A non-negative finite weight for each pair. With the long form, the
        name of a column of the table (the same weight on each item's rows).
        Whole weights keep κ exact; non-whole ones are added into the table's
        cells in floating point, and κ is the exact value of that table.
    nan_policy : {"raise", "omit"}
        What to do with a missing rating (NaN, None, pd.NA): raise, or drop
        the pairs in which either rating is missing. Without ``labels`` the
        categories are those of every rating, of both raters, before pairs
        are dropped: a category rated only beside a missing rating keeps its
        place (its row and column hold no pair), so the weights do not change
        with the missing ratings.
    ${population_size}
    ${groups}
    ${pair_long}
    ${empty}

    Returns
    -------
    KappaResult
        ``statistic`` (κ), ``observed`` (O), ``expected`` (E), ``weights``
        (W), ``labels``, ``n``, ``observed_agreement`` and
        ``chance_agreement`` (p_o and p_e), ``explain()`` and ``interpret()``.

    Warns
    -----
    UndefinedKappaWarning
        When the chance disagreement ΣW·E is 0 (for example, both raters used
        one and the same category); ``statistic`` is then nan.

    Notes
    -----
    Inference: ``standard_error`` is the large-sample SE of Fleiss, Cohen
    & Everitt (1969), as SAS PROC FREQ, statsmodels' ``std_kappa`` and R vcd
    report it, for any weights, asymmetric ones included. ``pvalue`` is
    two-sided for H0: κ = 0, from their SE under the null hypothesis
    (statsmodels' ``std_kappa0``, the z of R irr's ``kappa2``). The
    bootstrap resamples pairs as one multinomial draw on the k×k table (on
    the weighted units with ``sample_weight``).
    ${fisher_z_default}

    Degenerate cases, one policy: κ is nan with a warning exactly when
    ΣW·E = 0 (a single category; both raters constant on the same category).
    It is defined otherwise: perfect agreement gives 1; one constant rater
    gives O = E, hence 0; disjoint category sets give p_o = 0.

    Counts are integers and the final ratio is computed in exact rational
    arithmetic and rounded once, so κ is the correctly rounded value of its
    definition.

    scikit-learn's ``cohen_kappa_score`` weights by the positions of the
    labels it sees, not their values. The two agree whenever the labels are
    consecutive integers; to reproduce scikit-learn otherwise, pass the
    ratings' positions (``np.searchsorted(labels, ratings)``).

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales.
    Educational and Psychological Measurement 20(1), 37-46.
    doi:10.1177/001316446002000104

    Cohen, J. (1968). Weighted kappa. Psychological Bulletin 70(4), 213-220.
    doi:10.1037/h0026256

    Examples
    --------
    Seed 003's gold standard against a model (scikit-learn gives 0.545454...):

    >>> import concord
    >>> gold = ["positive", "neutral", "negative", "positive", "neutral",
    ...         "positive", "negative", "neutral", "positive", "negative"]
    >>> model = ["positive", "neutral", "negative", "neutral", "neutral",
    ...          "positive", "positive", "neutral", "positive", "neutral"]
    >>> r = concord.cohen_kappa(gold, model)
    >>> r
    KappaResult(statistic=0.545455, weighting='unweighted', n=10, k=3)
    >>> r.observed_agreement, r.chance_agreement
    (0.7, 0.34)
    >>> r.interpret()
    'moderate'

    Weighted kappa needs the order of the categories:

    >>> order = ["negative", "neutral", "positive"]
    >>> float(concord.cohen_kappa(gold, model, weights="quadratic", labels=order))
    0.47368421052631576
    """
    with empty_sets(empty, "cohen_kappa"):
        rater1, rater2, labels, per = two_raters(
            "cohen_kappa",
            rater1,
            rater2,
            (item, rater, rating),
            raters,
            labels,
            {"sample_weight": sample_weight, "groups": groups},
        )
        return _one_shot(
            COHEN,
            rater1,
            rater2,
            weights,
            labels,
            per["sample_weight"],
            nan_policy,
            population_size,
            per["groups"],
        )


@fill
def scott_pi(
    rater1: Any,
    rater2: Any = None,
    /,
    *,
    weights: Any = None,
    labels: Any = None,
    nan_policy: str = "raise",
    population_size: float | None = None,
    groups: Any = None,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    raters: Any = None,
) -> KappaResult:
    r"""Scott's pi of two raters: kappa with chance from the raters' pooled shares.

    .. math::

        \pi = 1 - \frac{\sum_{ij} w_{ij} O_{ij}}{\sum_{ij} w_{ij} E_{ij}},
        \qquad E_{ij} = n \, \bar p_i \bar p_j, \quad
        \bar p_i = \frac{r_i + c_i}{2n}

    Both raters are assumed to share one distribution over the categories,
    estimated from all 2n ratings. Fleiss' kappa of two raters without
    missing ratings is Scott's pi.

    Parameters
    ----------
    rater1, rater2 : array-like, shape (n,)
        As in :func:`cohen_kappa`. ${series_pairing}
    weights : None, str or array-like (k, k)
        Disagreement weights, as in :func:`cohen_kappa`.
    labels : sequence, optional
        The ordered categories.
    nan_policy : {"raise", "omit"}
        As in :func:`cohen_kappa`.
    ${population_size}
    ${groups}
    ${pair_long}

    Returns
    -------
    KappaResult
        ``expected`` holds n p̄ p̄ᵀ.

    Notes
    -----
    Inference: Scott's pi is Fleiss' kappa of two raters, and gets its
    ${gwet_se}
    ${fisher_z_default}

    References
    ----------
    Scott, W. A. (1955). Reliability of content analysis: the case of nominal
    scale coding. Public Opinion Quarterly 19(3), 321-325. doi:10.1086/266577

    Examples
    --------
    p_o = 3/4; the pooled shares are 3/8 and 5/8, so p_e = 34/64 and
    π = (3/4 − 34/64) / (1 − 34/64) = 7/15, where Cohen's κ is 1/2:

    >>> import concord
    >>> concord.scott_pi([1, 1, 2, 2], [1, 2, 2, 2]).statistic
    0.4666666666666667
    >>> concord.cohen_kappa([1, 1, 2, 2], [1, 2, 2, 2]).statistic
    0.5
    """
    rater1, rater2, labels, per = two_raters(
        "scott_pi", rater1, rater2, (item, rater, rating), raters, labels, {"groups": groups}
    )
    groups = per["groups"]
    return _one_shot(
        SCOTT, rater1, rater2, weights, labels, None, nan_policy, population_size, groups
    )


def pair_item_terms(pair: Pair, data: tuple[Any, ...], options: dict[str, Any]) -> np.ndarray:
    """Per-pair terms, pairs in order: Σ u_i² is the variance (the registry's ``terms`` hook).

    Cohen's kappa: its influence terms (:func:`pair_terms`), whose squares
    sum to Fleiss, Cohen & Everitt's variance; Scott's pi: Gwet's
    linearisation of Fleiss' kappa of two raters, as its SE uses.
    """
    func = pair.spec.name
    if options.get("sample_weight") is not None:
        raise NotImplementedError(f"{func}: compare() does not take sample_weight yet.")
    population = check_population(options["population_size"], func)
    counted = confusion_table(
        *data,
        labels=options["labels"],
        nan_policy=options["nan_policy"],
        sample_weight=None,
        func=func,
    )
    weighting = resolve(options["weights"], counted.labels, func)
    a, b = pair_codes(data[0], data[1], counted.labels.values, func)
    from concord._coefficients.multirater import agreement_core

    pooled = partial(agreement_core.item_terms, agreement_core.FLEISS)
    return pair_linear_terms(pair, counted.table, weighting, (a, b), population, pooled)


def pair_linear_terms(
    pair: Pair,
    table: np.ndarray,
    weighting: Weighting,
    codes: tuple[np.ndarray, np.ndarray],
    population: float | None,
    pooled: Callable[..., np.ndarray],
) -> np.ndarray:
    """Per-row terms of ``codes`` (pairs, or distinct pairs) of Cohen's kappa or Scott's pi.

    Cohen's kappa: its influence terms (:func:`pair_terms`) times √(1 − f).
    Scott's pi: ``pooled(rows, agreement, pi, pe, statistic, population)``, the rows
    being each pair's category counts (Gwet's linearisation of Fleiss' kappa).
    """
    a, b = codes
    statistic, _, _ = weighted_kappa_core(table, weighting.exact, pooled=pair.pooled)
    agreement = weighting.agreement()
    if not pair.pooled:
        f = fraction(int(table.sum()), population)
        out: np.ndarray = pair_terms(a, b, table, agreement, statistic) * np.sqrt(1 - f)
        return out
    k = table.shape[0]
    rows = np.eye(k, dtype=np.int64)[a] + np.eye(k, dtype=np.int64)[b]
    pi = (table.sum(axis=0) + table.sum(axis=1)) / (2 * float(table.sum()))
    pe = exact_rows.form(agreement, pi)  # exact, rounded once: the same on every CPU
    terms: np.ndarray = pooled(rows, agreement, pi, pe, statistic, population)
    return terms
