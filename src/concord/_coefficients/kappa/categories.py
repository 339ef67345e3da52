"""Which categories the raters disagree on: marginal homogeneity, specific agreement, B.

The public functions count two raters' ratings with the same code as
:func:`concord.cohen_kappa` (:func:`concord._tables.pairs.confusion_table`),
or a ratings matrix as the multi-rater coefficients do, and hand the table to
the cores in :mod:`concord._coefficients.kappa.categories_core`.
:func:`homogeneity_of_table` is the core's entry on a k×k count table, for
callers that already hold one.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from concord._coefficients.kappa import categories_core as core
from concord._common.errors import UndefinedKappaWarning, check_option, param_error
from concord._common.extras import require
from concord._data.labels import Labels
from concord._data.long import long_ratings
from concord._data.names import rater_names
from concord._data.two import two_raters
from concord._results.kappa.categories import (
    BangdiwalaResult,
    MarginalHomogeneityResult,
    SpecificAgreementResult,
)
from concord._results.protocol import named
from concord._tables.items import item_data
from concord._tables.pairs import confusion_table

_TESTS = {"stuart-maxwell": core.stuart_maxwell, "bhapkar": core.bhapkar}


def homogeneity_of_table(
    table: np.ndarray, labels: tuple[Any, ...], method: str = "stuart-maxwell"
) -> MarginalHomogeneityResult:
    """Test marginal homogeneity on a k×k count table (rows: rater1) with these labels."""
    func = "marginal_homogeneity"
    check_option(func, "method", method, ("stuart-maxwell", "bhapkar", "mcnemar"))
    t = np.asarray(table)
    if method == "mcnemar":
        if t.shape != (2, 2):
            param_error(
                func,
                "method",
                "'stuart-maxwell' or 'bhapkar' for more than two categories",
                "'mcnemar'",
                fix="McNemar's test is for two categories; Stuart–Maxwell is its extension.",
            )
        statistic, df = core.mcnemar(t)
    else:
        statistic, df = _TESTS[method](t)
    stats = require("scipy.stats", "stats", "concord.marginal_homogeneity")
    pvalue = float(stats.chi2.sf(statistic, df)) if df > 0 else 1.0
    return marginal_result(t, (statistic, df, pvalue), labels, method)


def marginal_result(
    table: np.ndarray,
    tested: tuple[float, int, float],
    labels: tuple[Any, ...],
    method: str = "stuart-maxwell",
) -> MarginalHomogeneityResult:
    """Return the result of a marginal homogeneity test: (χ², df, p-value) of a k×k table."""
    statistic, df, pvalue = tested
    t = np.asarray(table)
    rows, cols = t.sum(axis=1), t.sum(axis=0)
    return MarginalHomogeneityResult(
        statistic=float(statistic),
        df=df,
        pvalue=pvalue,
        method=method,
        labels=tuple(labels),
        rater1_totals=rows,
        rater2_totals=cols,
        differences=rows - cols,
        n=t.sum().item(),
    )


def marginal_homogeneity(
    rater1: Any,
    rater2: Any = None,
    /,
    *,
    method: str = "stuart-maxwell",
    labels: Any = None,
    nan_policy: str = "raise",
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    raters: Any = None,
) -> MarginalHomogeneityResult:
    r"""Test whether two raters use the categories at the same rates.

    With d = rater1's category totals − rater2's, and S the covariance of d
    estimated from the k×k table, Stuart–Maxwell's χ² is dᵀ S⁻¹ d on k − 1
    df (Stuart 1955, Maxwell 1970); Bhapkar's (1966) uses S − d dᵀ/n, so it
    is Q / (1 − Q/n), slightly larger; McNemar's (1947) is the 2×2 case,
    (b − c)² / (b + c).

    Parameters
    ----------
    rater1, rater2 : array-like, shape (n,)
        The two raters' ratings of the same items, as for :func:`cohen_kappa`.
    method : {"stuart-maxwell", "bhapkar", "mcnemar"}
        The test; "mcnemar" needs exactly two categories.
    labels : sequence, optional
        The categories, in order. A declared category nobody used is kept in
        ``differences`` (as 0) and adds no degree of freedom.
    nan_policy : {"raise", "omit"}
        What to do with a missing rating, as for :func:`cohen_kappa`.
    item, rater, rating : column name, optional
        Long form: the first argument is a table with one row per rating
        (pandas, polars, pyarrow or a mapping of columns) and these name its
        item, rater and rating columns; ``raters`` picks the two raters.
    raters : pair of names, optional
        The two raters: of the long table (default: its only two), or two
        columns of a DataFrame (pandas, polars, pyarrow) given as the first
        argument; the second rater is then left out.

    Returns
    -------
    MarginalHomogeneityResult
        ``statistic``, ``df``, ``pvalue``, ``method``, per-category totals
        and ``differences``; ``summary()`` and ``to_dict()``.

    Notes
    -----
    McNemar's test is the asymptotic χ² without continuity correction
    (statsmodels' ``mcnemar(exact=False, correction=False)``; epiR's
    ``epi.kappa``); it equals Stuart–Maxwell's χ² on a 2×2 table.

    Singular covariance, one policy: the df is the rank of S, and the χ²
    uses its pseudo-inverse. A category on which the raters never disagree
    (unused, or used by both on the same items only) adds nothing to d and
    S, so it drops out and takes one df with it; raters who never disagree
    give χ² = 0 on 0 df and ``pvalue`` 1. With full rank this is the
    textbook test (R irr's ``stuart.maxwell.mh``, which instead drops every
    category whose two totals are equal).

    References
    ----------
    Stuart, A. (1955). A test for homogeneity of the marginal distributions
    in a two-way classification. Biometrika 42, 412-416.

    Maxwell, A. E. (1970). Comparing the classification of subjects by two
    independent judges. British Journal of Psychiatry 116, 651-655.

    Bhapkar, V. P. (1966). A note on the equivalence of two test criteria
    for hypotheses in categorical data. JASA 61, 228-235.

    Examples
    --------
    Two raters, three grades: rater2 grades higher.

    >>> import concord
    >>> r = concord.marginal_homogeneity([1, 1, 2, 2, 3, 1], [2, 1, 3, 2, 3, 2])
    >>> r.df, [int(d) for d in r.differences]
    (2, [2, -1, -1])
    """
    rater1, rater2, labels, _ = two_raters(
        "marginal_homogeneity", rater1, rater2, (item, rater, rating), raters, labels, None
    )
    func = "marginal_homogeneity"
    counted = confusion_table(
        rater1, rater2, labels=labels, nan_policy=nan_policy, sample_weight=None, func=func
    )
    result = homogeneity_of_table(counted.table, counted.labels.values, method)
    return named(result, rater_names(rater1, rater2))


def specific_agreement(
    rater1_or_ratings: Any,
    rater2: Any = None,
    /,
    *,
    labels: Any = None,
    nan_policy: str = "raise",
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    raters: Any = None,
    form: str = "auto",
) -> SpecificAgreementResult:
    r"""Each category's proportion of specific agreement, for two or more raters.

    .. math::

        p_s(j) = \frac{\sum_i n_{ij}(n_{ij} - 1)}{\sum_i n_{ij}(n_i - 1)}

    where n_ij raters put item i in category j and n_i rated it: of the
    pairs of ratings of the same item that involve category j, the share
    that agree on it (Uebersax). For two raters it is 2 n_jj / (r_j + c_j),
    the positive and negative agreement of a 2×2 table (Cicchetti &
    Feinstein 1990).

    Parameters
    ----------
    rater1_or_ratings : array-like
        rater1's ratings, shape (n,), with ``rater2``; or without it a matrix
        (n_items, n_raters), a DataFrame or CategoryCounts, as for
        :func:`fleiss_kappa` (NaN for a missing rating).
    rater2 : array-like, shape (n,), optional
        rater2's ratings of the same items.
    labels : sequence, optional
        The categories, in order; one nobody used has p_s = nan.
    nan_policy : {"raise", "omit"}
        For two raters, as in :func:`cohen_kappa`; a matrix skips missing ratings.
    item, rater, rating : column name, optional
        Long form: the first argument is a table with one row per rating and
        these name its columns; every rater counts, or the two ``raters``.
    raters : pair of names, optional
        Two raters: of the long table, or two columns of a wide frame.
    form : {"auto", "wide"}
        For a matrix, "auto" refuses a table that looks long (an item column
        whose values repeat, a column of rater names, a column of ratings);
        "wide" says the columns are raters.

    Returns
    -------
    SpecificAgreementResult
        ``agreement`` and ``standard_error`` per category,
        ``confidence_interval()``; ``positive`` and ``negative`` for two categories.

    Notes
    -----
    The SE is the delta method over items (the ratio estimator's), which
    for two raters is the multinomial delta-method SE of Graham & Bull
    (1998); the interval is Wald, clipped to [0, 1].

    References
    ----------
    Cicchetti, D. V. & Feinstein, A. R. (1990). High agreement but low
    kappa: II. Resolving the paradoxes. J Clin Epidemiol 43(6), 551-558.

    Graham, P. & Bull, B. (1998). Approximate standard errors and confidence
    intervals for indices of positive and negative agreement. J Clin
    Epidemiol 51(9), 763-771.

    Uebersax, J. S. Raw agreement indices.
    https://www.john-uebersax.com/stat/raw.htm

    Examples
    --------
    epiR's ``epi.kappa`` example 1 (IFAT, 1 = positive): 19 both positive, 256 both
    negative, 10 and 6 discordant.

    >>> import concord
    >>> r1 = [1] * 19 + [1] * 10 + [0] * 6 + [0] * 256
    >>> r2 = [1] * 19 + [0] * 10 + [1] * 6 + [0] * 256
    >>> r = concord.specific_agreement(r1, r2)
    >>> round(r.positive, 3), round(r.negative, 3)
    (0.704, 0.97)
    """
    func = "specific_agreement"
    long = (item, rater, rating)
    if rater2 is not None or raters is not None:
        rater1_or_ratings, rater2, labels, _ = two_raters(
            func, rater1_or_ratings, rater2, long, raters, labels
        )
        counted = confusion_table(
            rater1_or_ratings,
            rater2,
            labels=labels,
            nan_policy=nan_policy,
            sample_weight=None,
            func=func,
        )
        found: Labels = counted.labels
        patterns = core.pair_patterns(counted.table)
        n_raters = 2
    else:
        items = item_data(long_ratings(rater1_or_ratings, long, func, form), labels, func)
        assert items.counts is not None
        found, patterns = items.labels, items.counts
        n_raters = items.n_raters or int(patterns.rows.sum(axis=1).max())
    return of_patterns(patterns, found, n_raters)


def of_patterns(patterns: Any, found: Labels, n_raters: int) -> SpecificAgreementResult:
    """:func:`specific_agreement` of items already counted: their count ``patterns``.

    For a caller that shares one encoding of the ratings between analyses (the report).
    """
    ps, se, n_items = core.specific(patterns)
    unused = [found.values[j] for j in np.flatnonzero(np.isnan(ps))]
    if unused:
        warnings.warn(
            f"specific agreement is undefined (nan) for {_listing(unused)}: no item with two "
            "ratings or more uses it (a declared category nobody used, or one rated only "
            "beside a missing rating).",
            UndefinedKappaWarning,
            stacklevel=3,
        )
    return SpecificAgreementResult(found.values, ps, se, n_items, n_raters)


def _listing(labels: list[Any]) -> str:
    shown = ", ".join(repr(v) for v in labels[:5])
    more = f" and {len(labels) - 5} more" if len(labels) > 5 else ""
    return f"categor{'y' if len(labels) == 1 else 'ies'} {shown}{more}"


def _partial(weights: Any, k: int, func: str) -> tuple[str, tuple[float, ...]]:
    """Resolve ``weights`` to the partial-agreement credit by distance, w_0 = 1."""
    if weights is None:
        return "unweighted", (1.0,)
    top = max(k - 1, 1)
    if isinstance(weights, str):
        check_option(func, "weights", weights, ("linear", "quadratic"))
        power = 1 if weights == "linear" else 2
        return weights, tuple(1.0 - (b / top) ** power for b in range(k))
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        w = np.full(1, np.nan)  # not numbers: refused below with the parameter's sentence
    if w.ndim != 1 or w.size == 0 or w[0] != 1 or not np.all((w >= 0) & (w <= 1)):
        param_error(
            func,
            "weights",
            "None, 'linear', 'quadratic' or a sequence of credits in [0, 1] starting at 1",
            weights,
            fix="Give w_0 = 1 for exact agreement, then w_1, w_2, … for 1, 2, … apart.",
        )
    return "custom", tuple(float(v) for v in w)


def bangdiwala_b(
    rater1: Any,
    rater2: Any = None,
    /,
    *,
    weights: Any = None,
    labels: Any = None,
    nan_policy: str = "raise",
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    raters: Any = None,
) -> BangdiwalaResult:
    r"""Bangdiwala's B, or B^w with partial credit for near misses, with its SE.

    .. math::

        B = \frac{\sum_i n_{ii}^2}{\sum_i n_{i+} n_{+i}}

    the share of the agreement chart's k rectangles (n_i+ by n_+i) filled by
    the squares of exact agreement (Bangdiwala 1985); B^w adds, with weight
    w_b, the part of each rectangle filled by ratings b categories apart, as
    R vcd's ``agreementplot``. Draw it with
    :class:`concord.plot.AgreementChartDisplay`.

    Parameters
    ----------
    rater1, rater2 : array-like, shape (n,)
        The two raters' ratings of the same items, as for :func:`cohen_kappa`.
    weights : None, {"linear", "quadratic"} or sequence of float
        None for B; otherwise B^w with credit w_b for ratings b categories
        apart (by position in ``labels``): "linear" 1 − b/(k − 1),
        "quadratic" 1 − (b/(k − 1))², or the credits (1, w_1, w_2, …), as
        vcd's ``weights`` (vcd's default is (1, 1 − 1/(k − 1)²)).
    labels : sequence, optional
        The ordered categories.
    nan_policy : {"raise", "omit"}
        What to do with a missing rating.
    item, rater, rating : column name, optional
        Long form: the first argument is a table with one row per rating
        (pandas, polars, pyarrow or a mapping of columns) and these name its
        item, rater and rating columns; ``raters`` picks the two raters.
    raters : pair of names, optional
        The two raters: of the long table (default: its only two), or two
        columns of a DataFrame (pandas, polars, pyarrow) given as the first
        argument; the second rater is then left out.

    Returns
    -------
    BangdiwalaResult
        ``statistic``, ``standard_error`` (multinomial delta method; Gwet's
        irrCAC ``bangdiwala.table`` for B), ``confidence_interval()``.

    References
    ----------
    Bangdiwala, S. I. (1985). A graphical test for observer agreement.
    Proceedings of the 45th International Statistical Institute Meeting, 307-308.

    Friendly, M. & Meyer, D. (2016). Discrete Data Analysis with R, §4.8.

    Examples
    --------
    irrCAC's ``cont3x3abstractors`` table (Gwet), B = 3705 / 4597:

    >>> import concord
    >>> table = {("Ectopic", "Ectopic"): 13, ("AIU", "AIU"): 20, ("AIU", "NIU"): 7,
    ...          ("NIU", "AIU"): 4, ("NIU", "NIU"): 56}
    >>> r1 = [a for (a, b), m in table.items() for _ in range(m)]
    >>> r2 = [b for (a, b), m in table.items() for _ in range(m)]
    >>> r = concord.bangdiwala_b(r1, r2, labels=["Ectopic", "AIU", "NIU"])
    >>> round(r.statistic, 7), round(r.standard_error, 7)
    (0.8059604, 0.0544947)
    """
    rater1, rater2, labels, _ = two_raters(
        "bangdiwala_b", rater1, rater2, (item, rater, rating), raters, labels, None
    )
    func = "bangdiwala_b"
    counted = confusion_table(
        rater1, rater2, labels=labels, nan_policy=nan_policy, sample_weight=None, func=func
    )
    table = counted.table
    weighting, partial = _partial(weights, table.shape[0], func)
    if weighting != "unweighted" and not counted.labels.ordered:
        counted.labels.scores(func, weighting)  # raises: text is never sorted alphabetically
    statistic, se = core.bangdiwala(table, np.asarray(partial))
    if weighting == "unweighted":  # Σ n_ii² / Σ r_i c_i of integers, correctly rounded
        rows, cols = table.sum(axis=1), table.sum(axis=0)
        den = int(rows.astype(object) @ cols.astype(object))
        statistic = int((np.diag(table).astype(object) ** 2).sum()) / den if den else np.nan
    return BangdiwalaResult(
        statistic=float(statistic),
        standard_error=se,
        weighting=weighting,
        partial_weights=partial,
        observed=table,
        labels=counted.labels.values,
        n=table.sum().item(),
        raters=rater_names(rater1, rater2),
    )
