"""Multi-rater agreement: percent agreement, Fleiss, Conger, Light, Brennan-Prediger, Gwet.

Every function takes a ratings matrix (items × raters; a DataFrame with one
column per rater; missing ratings as NaN, None or pd.NA) and follows
Gwet (2014), which generalises each coefficient to items rated by different
numbers of raters. Fleiss, Brennan-Prediger, Gwet and percent agreement
also take the count form, :class:`CategoryCounts`.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from concord import _agreement as core
from concord import _count
from concord import _patterns as patterns
from concord._agreement_result import AgreementResult, FleissResult, LightResult
from concord._cohen import kappa_result
from concord._errors import UndefinedKappaWarning, param_error
from concord._kappa_result import KappaResult
from concord._labels import Labels
from concord._ratings import CategoryCounts, RatingMatrix, rating_matrix
from concord._weights import Weighting, resolve


@dataclass(frozen=True)
class Items:
    """What a multi-rater coefficient needs from the ratings.

    ``counts``: the distinct rows of the items × categories counts with their
    frequencies (None when not formed: continuous data with many values);
    ``raters``: the distinct rows of label codes + 1 (0 = missing), which
    keep which rater gave which rating (formed when asked for); the number of
    raters (None for the count form); the label-encoded ``matrix`` when the
    numpy path formed it.
    """

    labels: Labels
    counts: patterns.Patterns | None
    raters: patterns.Patterns | None = None
    names: tuple[Any, ...] | None = None
    matrix: RatingMatrix | None = None

    @property
    def n_raters(self) -> int | None:
        return None if self.names is None else len(self.names)

    def by_rater(self) -> np.ndarray:
        """Raters × categories counts, from the rater patterns."""
        assert self.raters is not None
        k, rows, freq = self.labels.k, self.raters.rows, self.raters.freq
        return np.array(
            [
                np.bincount(rows[:, g], weights=freq, minlength=k + 1)[1:]
                for g in range(rows.shape[1])
            ]
        ).astype(np.int64)

    def pair_table(self, g: int, h: int) -> np.ndarray:
        """Return the k×k table of raters g and h over the items both rated."""
        assert self.raters is not None
        k, rows, freq = self.labels.k, self.raters.rows, self.raters.freq
        both = (rows[:, g] > 0) & (rows[:, h] > 0)
        cells = (rows[both, g] - 1) * k + rows[both, h] - 1
        return (
            np.bincount(cells, weights=freq[both], minlength=k * k).astype(np.int64).reshape(k, k)
        )

    @property
    def stats(self) -> core.ItemStats:
        assert self.counts is not None
        return core.item_stats(self.counts)


def item_data(
    ratings: Any,
    labels: Any,
    func: str,
    *,
    need_raters: bool = False,
    dense_limit: int | None = None,
    continuous: bool = False,
) -> Items:
    """Validate the ratings and return what the coefficient needs (see :class:`Items`).

    Numeric matrices take a one-pass route (``_count.matrix_patterns``).
    With more than ``dense_limit`` categories the count patterns are not
    formed (``counts`` is None) and the ``matrix`` of codes is kept instead.
    """
    if isinstance(ratings, CategoryCounts):
        return _count_form(ratings, labels, func, need_raters)
    fast = _one_pass(ratings, labels, dense_limit, need_raters)
    if fast is not None:
        return fast
    matrix = rating_matrix(ratings, labels, func, continuous=continuous)
    k = matrix.labels.k
    dense = dense_limit is None or k <= dense_limit
    raters = patterns.distinct(matrix.codes + 1) if need_raters else None
    counts = patterns.distinct(matrix.counts()) if dense else None
    return Items(matrix.labels, counts, raters, matrix.raters, None if dense else matrix)


def _count_form(counts: CategoryCounts, labels: Any, func: str, need_raters: bool) -> Items:
    if need_raters:
        param_error(
            func,
            "ratings",
            "a ratings matrix (items × raters)",
            "CategoryCounts",
            exc=TypeError,
            raw=True,
            fix=f"{func} needs to know which rater gave which rating; "
            "the count form has lost that.",
        )
    if labels is not None and tuple(labels) != counts.labels:
        param_error(
            func,
            "labels",
            f"None or the counts' own labels {counts.labels!r}",
            labels,
            fix="Set the labels when building CategoryCounts.",
        )
    table = counts.counts[counts.counts.sum(axis=1) > 0]
    if table.shape[0] == 0:
        param_error(func, "ratings", "at least one rating", "only empty items", raw=True)
    # the columns of the count form are declared categories, in their declared order
    return Items(Labels(counts.labels, ordered=True), patterns.distinct(table))


def _one_pass(
    ratings: Any, labels: Any, dense_limit: int | None, need_raters: bool
) -> Items | None:
    """Return the items of a numeric matrix with inferred labels via numba, or None."""
    if labels is not None:
        return None
    if isinstance(ratings, np.ndarray):
        x = ratings
    elif hasattr(ratings, "dtypes") and all(
        getattr(t, "kind", "O") in "iuf" for t in ratings.dtypes
    ):
        x = ratings.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        return None
    if x.ndim != 2 or x.dtype.kind not in "iuf":
        return None
    found = _count.matrix_patterns(
        x, max_range=dense_limit or _count.MAX_RANGE, rows_too=need_raters
    )
    if found is None:
        return None
    lo, k, count_codes, row_codes = found
    r = x.shape[1]
    counts = patterns.from_codes(count_codes, r + 1, k)
    used = np.flatnonzero(counts.rows.sum(axis=0))  # categories someone used
    if used.size == 0:
        return None  # nothing rated: the numpy path explains
    counts = patterns.Patterns(counts.rows[:, used], counts.freq)
    raters = None
    if need_raters:
        rows = patterns.from_codes(row_codes, k + 1, r)
        remap = np.zeros(k + 1, dtype=np.int64)
        remap[used + 1] = np.arange(1, used.size + 1)
        raters = patterns.Patterns(remap[rows.rows], rows.freq)
    labels_found = Labels(tuple(int(lo + j) for j in used), ordered=True)
    names = tuple(ratings.columns) if hasattr(ratings, "columns") else tuple(range(r))
    return Items(labels_found, counts, raters, names)


Chance = Callable[[core.Shares, np.ndarray], Fraction]


def _gwet_family(
    func: str,
    ratings: Any,
    weights: Any,
    labels: Any,
    chance: Chance,
    cls: type[AgreementResult] = AgreementResult,
    extra: Callable[[core.ItemStats, Labels], dict[str, Any]] | None = None,
) -> AgreementResult:
    """Compute a coefficient whose p_a is the percent agreement and p_e is ``chance``."""
    items = item_data(ratings, labels, func)
    assert items.stats is not None
    weighting = resolve(weights, items.labels, func)
    s = core.shares(items.stats, weighting.exact)
    pe = chance(s, weighting.exact)
    more = extra(items.stats, items.labels) if extra is not None else {}
    return assemble(
        func, items.stats, items.labels, weighting, s.pa, pe, items.n_raters, cls, **more
    )


def undefined(func: str, reason: str) -> None:
    """Warn that a coefficient is nan, and why."""
    warnings.warn(f"{func} is undefined (nan): {reason}.", UndefinedKappaWarning, stacklevel=3)


def _reason(pa: Fraction | None, labels: Labels, totals: np.ndarray) -> str:
    if pa is None:
        return "no item has two ratings, so there is no agreement to measure"
    used = np.flatnonzero(totals)
    if labels.k == 1 or used.size == 1:
        return f"every rating is {labels.values[used[0]]!r}, so chance agreement is 1"
    return "the chance agreement is 1"


def assemble(
    func: str,
    stats: core.ItemStats,
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


def percent_agreement(
    ratings: Any, /, *, weights: Any = None, labels: Any = None
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
    weights : None, str or array-like (q, q)
        As in :func:`cohen_kappa`, plus 'ordinal', 'radical', 'ratio',
        'circular', 'bipolar' (see :func:`weight_matrix`).
    labels : sequence, optional
        The ordered categories.

    Returns
    -------
    AgreementResult

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
    return _gwet_family("percent_agreement", ratings, weights, labels, lambda s, w: Fraction(0))


def fleiss_kappa(ratings: Any, /, *, weights: Any = None, labels: Any = None) -> FleissResult:
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
    weights : None, str or array-like (q, q)
        Disagreement weights, as in :func:`percent_agreement`.
    labels : sequence, optional
        The ordered categories.

    Returns
    -------
    FleissResult
        An :class:`AgreementResult` with ``category_kappas``, the kappa of
        each category against the others (Fleiss 1971, eq. 20; irr's
        ``detail=TRUE``).

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

    def per_category(stats: core.ItemStats, found: Labels) -> dict[str, Any]:
        kappas = core.category_kappas(stats) if weights is None else []
        return {"category_kappas": dict(zip(found.values, kappas, strict=False))}

    result = _gwet_family(
        "fleiss_kappa", ratings, weights, labels, core.chance_fleiss, FleissResult, per_category
    )
    assert isinstance(result, FleissResult)
    return result


def gwet_ac(ratings: Any, /, *, weights: Any = None, labels: Any = None) -> AgreementResult:
    r"""Gwet's AC1 (unweighted) or AC2 (weighted) for any number of raters.

    .. math::

        p_e = \frac{\sum_{kl} (1 - W_{kl})}{q (q - 1)} \sum_k \pi_k (1 - \pi_k)

    with π_k as in :func:`fleiss_kappa` and p_a the percent agreement; q is
    the number of categories (declared ``labels``, or those used).

    Parameters
    ----------
    ratings : array-like (n_items, n_raters), DataFrame or CategoryCounts
        One row per item, one column per rater; NaN/None/pd.NA for missing.
    weights : None, str or array-like (q, q)
        Disagreement weights, as in :func:`percent_agreement`.
    labels : sequence, optional
        The ordered categories.

    Returns
    -------
    AgreementResult

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
    return _gwet_family("gwet_ac", ratings, weights, labels, core.chance_gwet)


def brennan_prediger(
    ratings: Any, /, *, weights: Any = None, labels: Any = None
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
    weights : None, str or array-like (q, q)
        Disagreement weights, as in :func:`percent_agreement`.
    labels : sequence, optional
        The ordered categories.

    Returns
    -------
    AgreementResult

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
    uniform: Chance = lambda s, w: core.chance_uniform(w)  # noqa: E731
    return _gwet_family("brennan_prediger", ratings, weights, labels, uniform)


def conger_kappa(ratings: Any, /, *, weights: Any = None, labels: Any = None) -> AgreementResult:
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
    weights : None, str or array-like (q, q)
        Disagreement weights, as in :func:`percent_agreement`.
    labels : sequence, optional
        The ordered categories.

    Returns
    -------
    AgreementResult

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
    func = "conger_kappa"
    items = item_data(ratings, labels, func, need_raters=True)
    weighting = resolve(weights, items.labels, func)
    s = core.shares(items.stats, weighting.exact)
    by_rater = items.by_rater()
    pe = core.chance_conger(by_rater[by_rater.sum(axis=1) > 0], weighting.exact)
    return assemble(func, items.stats, items.labels, weighting, s.pa, pe, items.n_raters)


def light_kappa(ratings: Any, /, *, weights: Any = None, labels: Any = None) -> LightResult:
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
    weights : None, str or array-like (q, q)
        Disagreement weights, as in :func:`cohen_kappa`.
    labels : sequence, optional
        The ordered categories.

    Returns
    -------
    LightResult
        An :class:`AgreementResult` whose ``pairwise`` maps each pair of
        raters to its :class:`KappaResult`.

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
    func = "light_kappa"
    items = item_data(ratings, labels, func, need_raters=True)
    weighting = resolve(weights, items.labels, func)
    assert items.names is not None
    pairs = itertools.combinations(range(len(items.names)), 2)
    pairwise = {(items.names[g], items.names[h]): _pair(items, g, h, weighting) for g, h in pairs}
    values = np.array([r.statistic for r in pairwise.values()])
    if values.size == 0:
        undefined(func, "there is only one rater")
    elif np.isnan(values).any():
        undefined(func, "some pair of raters has an undefined kappa (see .pairwise)")

    def mean(attribute: str) -> float:
        got = [getattr(r, attribute) for r in pairwise.values()]
        return float(np.mean(got)) if got else float("nan")

    stats = items.stats
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
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)  # reported once, for the mean
        return kappa_result(table, items.labels, weighting, "cohen_kappa")
