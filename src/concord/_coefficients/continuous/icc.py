"""The intraclass correlation: :func:`icc`, in the vocabulary of R irr's ``icc``.

The ratings are counted into additive sums (:mod:`concord._coefficients.continuous.icc_core`),
exact on integer scores; the ANOVA, the six forms, their F tests and
intervals follow from them (:mod:`concord._results.continuous.icc_anova`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from concord._coefficients.continuous.icc_core import _CHUNK, ItemSampler, Sums, anova, sums_of
from concord._coefficients.continuous.icc_sums import loaded, scan
from concord._common.errors import check_option, param_error
from concord._data.arrays import is_device_array, to_host
from concord._data.long import Wide, long_ratings
from concord._results.continuous.continuous import IccResult
from concord._results.continuous.icc_anova import coefficient, f_test
from concord._results.spec import Spec

ICC = Spec(
    "icc",
    "Intraclass correlation",
    interval="f",
    scale="koo-li",
    bounds=(-math.inf, 1.0),
)
_MODELS = ("oneway", "twoway")
_TYPES = ("agreement", "consistency")
_UNITS = ("single", "average")


def icc(
    ratings: Any,
    /,
    *,
    model: str = "twoway",
    type: str = "agreement",
    unit: str = "single",
    confidence_level: float = 0.95,
    r0: float = 0.0,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    form: str = "auto",
) -> IccResult:
    r"""Return the intraclass correlation of continuous or long ordinal ratings, complete or not.

    The forms of R irr's ``icc`` (McGraw & Wong 1996), with Shrout & Fleiss'
    (1979) names:

    ========  ============  =======  =========  ==================
    model     type          unit     McGraw-W.  Shrout & Fleiss
    ========  ============  =======  =========  ==================
    oneway    (any)         single   ICC(1)     ICC(1,1)
    oneway    (any)         average  ICC(k)     ICC(1,k)
    twoway    agreement     single   ICC(A,1)   ICC(2,1)
    twoway    agreement     average  ICC(A,k)   ICC(2,k)
    twoway    consistency   single   ICC(C,1)   ICC(3,1)
    twoway    consistency   average  ICC(C,k)   ICC(3,k)
    ========  ============  =======  =========  ==================

    Parameters
    ----------
    ratings : array-like (n_items, n_raters) or DataFrame
        Numeric scores, one row per item, one column per rater; NaN or None
        for a missing rating.
    model : {"twoway", "oneway"}
        One-way: each item has its own raters; two-way: the raters are the
        same (random for agreement, fixed for consistency).
    type : {"agreement", "consistency"}
        Absolute agreement counts the raters' mean differences as error;
        consistency does not. Ignored by the one-way model.
    unit : {"single", "average"}
        The reliability of one rating, or of the mean of the k ratings.
    confidence_level : float
        The level of ``confidence_interval()`` by default.
    r0 : float
        The ICC under the null hypothesis of the F test.
    item, rater, rating : optional
        Long form: the columns of a table with one row per rating.
    form : {"auto", "wide"}
        Without the long form, "auto" refuses a table that looks long (an
        item column whose values repeat, a column of rater names, a column
        of ratings), naming its columns and the long-form call; "wide" says
        the columns are raters.

    Returns
    -------
    IccResult
        ``statistic``, the F test (``f_statistic``, ``df1``, ``df2``,
        ``pvalue``), ``confidence_interval()``, ``mean_squares``,
        ``variance_components``, ``explain()``, ``interpret()`` (Koo & Li
        2016) and ``forms()``, the six forms.

    Notes
    -----
    Missing ratings are neither imputed nor dropped with their item: the
    sums of squares are the method-of-moments estimates for unbalanced data
    of R irrNA's ``iccNA`` (Brueckl 2011, with its default ``oneG=TRUE``):
    the one-way ANOVA of Ebel (1951) with k₀ = (N − Σk_i²/N)/(n − 1) ratings
    per item; for the two-way forms each rater's mean is first moved to the
    grand mean (Greer & Dunlap 1997), the error has (n − 1)(N/n − 1) degrees
    of freedom. On complete data these are the balanced formulas exactly.
    Items and raters with no rating are left out.

    All of it comes from a few additive sums (Σx², per rater sums, and per
    number of ratings per item Σ T_i², Σ T_i m_i and Σ m_i m_iᵀ), so on
    integer scores the result is exact (rounded once) and an accumulator's
    merge equals the one-shot result bit for bit; memory is O(raters²)
    beyond the input (O(raters) on complete data), in chunks of rows.

    The F test and interval are McGraw & Wong's (1996) (R irr's ``icc``);
    for the two-way agreement forms the test's second degrees of freedom
    (Satterthwaite's, of a mix of two mean squares) are taken at ``r0``, the
    value under test (McGraw & Wong 1996, Table 8; iccNA), where irr takes
    them at the estimate: ``df2`` and ``pvalue`` differ from irr's, the
    estimate, F and the interval do not. With ``r0 = 0`` the test is the exact
    F test on (n − 1)(k − 1) df. On irr's ``anxiety`` data, ICC(A,1): df2 38
    here and 39.75 in irr at r0 = 0 (p 0.0562 and 0.0543), 38.83 and 39.75 at
    r0 = 0.3 (p 0.7458 and 0.7462). ``pvalue`` is one-sided, P(F > f).

    References
    ----------
    Shrout, P. E. & Fleiss, J. L. (1979). Intraclass correlations: uses in
    assessing rater reliability. Psychological Bulletin 86(2), 420-428.

    McGraw, K. O. & Wong, S. P. (1996). Forming inferences about some
    intraclass correlation coefficients. Psychological Methods 1(1), 30-46.

    Ebel, R. L. (1951). Estimation of the reliability of ratings.
    Psychometrika 16(4), 407-424.

    Brueckl, M. (2011). Statistische Verfahren zur Ermittlung der
    Urteileruebereinstimmung. Berlin: Logos, 88-103 (R package irrNA).

    Examples
    --------
    Shrout & Fleiss (1979), Tables 2 and 4: they report .17, .29, .71, .44,
    .62 and .91 for ICC(1,1), (2,1), (3,1), (1,k), (2,k), (3,k).

    >>> import concord
    >>> x = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> r = concord.icc(x)
    >>> r.name, round(r.statistic, 4)
    ('ICC(A,1)', 0.2898)
    >>> [round(f.statistic, 2) for f in r.forms().results]
    [0.17, 0.44, 0.29, 0.62, 0.71, 0.91]
    >>> round(concord.icc(x, type="consistency").f_statistic, 2)
    11.03
    """
    func = ICC.name
    chosen = _form(model, type, unit, func)
    level = _level(confidence_level, func)
    r0 = _r0(r0, func)
    wide = long_ratings(ratings, (item, rater, rating), func, form)
    x, names, integral = ratings_matrix(wide, func)
    sums = sums_of(x, names, integral)
    return icc_result(sums, chosen, level, r0, ItemSampler(x, chosen))


def _form(model: str, type: str, unit: str, func: str) -> tuple[str, str, str]:
    check_option(func, "model", model, _MODELS)
    check_option(func, "type", type, _TYPES)
    check_option(func, "unit", unit, _UNITS)
    return model, ("agreement" if model == "oneway" else type), unit


def _level(value: Any, func: str) -> float:
    if not isinstance(value, int | float) or not 0 < value < 1:
        param_error(func, "confidence_level", "a number in (0, 1)", value)
    return float(value)


def _r0(value: Any, func: str) -> float:
    if not isinstance(value, int | float) or not 0 <= value < 1:
        param_error(func, "r0", "a number in [0, 1)", value)
    return float(value)


def ratings_matrix(
    ratings: Any, func: str, batch: bool = False
) -> tuple[np.ndarray, tuple[Any, ...], bool]:
    """Return the 2-D numeric ratings (NaN missing), the rater names, whether integral.

    A ``batch`` of a stream may hold only missing ratings (the stream has others).
    """
    names: tuple[Any, ...] | None = None
    if isinstance(ratings, Wide):
        names, ratings = ratings.raters, ratings.numeric
        if ratings is None:
            param_error(func, "rating", "numeric scores", "non-numeric ratings", raw=True)
    elif hasattr(ratings, "columns") and hasattr(ratings, "to_numpy"):
        names = tuple(ratings.columns)
        ratings = ratings.to_numpy(dtype=np.float64, na_value=np.nan)
    elif is_device_array(ratings):
        ratings = to_host(ratings)
    x = _numeric(ratings, func)
    if x.ndim != 2 or x.shape[1] < 2:
        param_error(func, "ratings", "a 2-D array of items × raters, with 2 raters or more", x)
    names = names if names is not None else tuple(range(x.shape[1]))
    if x.dtype.kind == "b":
        x = x.astype(np.int64)
    if x.dtype.kind in "iu":
        return x, names, True
    infinite, rated, integral = _scan(x)
    if infinite:
        param_error(
            func, "ratings", "finite numbers or NaN (missing)", "infinite values", raw=True
        )
    if not rated and not batch:  # a stream's batch may hold only missing ratings
        param_error(func, "ratings", "at least one rating", "only missing ratings", raw=True)
    return x, names, integral


def _scan(x: np.ndarray) -> tuple[bool, bool, bool]:
    """Whether x holds an infinity, a rating, and only whole numbers under 2**53.

    One pass of the numba kernel where loaded; else numpy chunk by chunk, so
    that the temporaries stay O(chunk × raters).
    """
    found = scan(x, loaded())
    if found is not None:
        return found
    infinite, rated, integral = False, False, True
    for start in range(0, x.shape[0], _CHUNK):
        chunk = x[start : start + _CHUNK]
        if np.isfinite(chunk.sum()):  # no NaN nor infinity: one pass, no temporary
            present = chunk
        else:
            infinite = infinite or bool(np.isinf(chunk).any())
            present = chunk[~np.isnan(chunk)]
        if present.size:
            rated = True
            integral = integral and _whole(present)
    return infinite, rated, integral


def _whole(x: np.ndarray) -> bool:
    """Whether every value is a whole number under 2**53.

    A few rows first: scores with decimals show it at once.
    """
    for part in (x[:64], x):
        if not (np.all(part == np.round(part)) and np.abs(part).max() < 2**53):
            return False
    return True


def _numeric(ratings: Any, func: str) -> np.ndarray:
    x = np.asarray(ratings)
    if x.dtype.kind in "biuf":
        return x.astype(np.float64, copy=False) if x.dtype.kind == "f" else x
    if x.dtype.kind == "O":
        x = np.where(x == np.array(None), np.nan, x)
        _exact_in_floats(x, func)
    try:
        return np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        param_error(func, "ratings", "numeric scores", "non-numeric values", raw=True)


def _exact_in_floats(x: np.ndarray, func: str) -> None:
    """Refuse Python integers that float64 would round (|v| > 2**53): the ICC sums floats."""
    for v in x.ravel():
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**53:
            param_error(
                func,
                "ratings",
                "scores that float64 holds exactly (whole numbers up to 2**53 in size)",
                f"the integer {v}",
                raw=True,
                fix="Rescale the scores (e.g. subtract a common offset) or pass them as floats.",
            )


def icc_result(
    sums: Sums, form: tuple[str, str, str], level: float, r0: float, sampler: Any
) -> IccResult:
    """Return the ICC of one form from the sums (one-shot and accumulators)."""
    table = anova(sums)
    if table.n_items < 2 or table.n_raters < 2:
        param_error(
            ICC.name,
            "ratings",
            "at least 2 items and 2 raters with ratings",
            f"{table.n_items} items, {table.n_raters} raters",
            raw=True,
        )
    value = float(coefficient(table, *form))
    f, df1, df2 = f_test(table, *form, r0)
    return IccResult(
        statistic=value,
        model=form[0],
        type=form[1],
        unit=form[2],
        f_statistic=f,
        df1=df1,
        df2=df2,
        r0=r0,
        confidence_level=level,
        n_items=table.n_items,
        n_raters=table.n_raters,
        n_ratings=table.n_ratings,
        k0=float(table.k0),
        _anova=table,
        _sampler=sampler,
    )


def count(data: tuple[Any, ...], options: dict[str, Any], sample_weight: Any) -> Sums | None:
    """Count one batch of a stream into sums, as :func:`icc` does."""
    x, names, integral = (
        ratings_matrix(data[0], ICC.name, batch=True) if np.size(data[0]) else (None, (), True)
    )
    if x is None or not (~np.isnan(np.asarray(x, dtype=np.float64))).any():
        return None
    return sums_of(x, names, integral)


def checked(options: dict[str, Any]) -> dict[str, Any]:
    """Validate an accumulator's options as :func:`icc` does."""
    func = ICC.name
    _, type, _ = _form(options["model"], options["type"], options["unit"], func)
    level = _level(options["confidence_level"], func)
    r0 = _r0(options["r0"], func)
    return {**options, "type": type, "confidence_level": level, "r0": r0}


def from_counts(sums: Sums, options: dict[str, Any]) -> IccResult:
    """Return the ICC of a stream's merged sums."""
    o = options
    form = (o["model"], o["type"], o["unit"])
    return icc_result(sums, form, o["confidence_level"], o["r0"], None)
