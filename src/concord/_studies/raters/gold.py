"""Agreement with a gold standard: each rater against the gold labels, and the panel's mean.

As R kappaGold's ``kappam_gold`` (Vanbelle & Albert 2009): each rater's
two-rater coefficient against the gold labels (gold as rater1), their mean
weighted by each rater's number of items, and the jackknife over items of
that mean, which gives its SE and a bias-corrected estimate; the raters
share the items, so the jackknife carries their covariance. Leaving one item
out takes one count from one cell of each of its raters' tables, so every
jackknife replicate is a table already computed: at most k² per rater.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from concord._coefficients.kappa.cohen import cohen_kappa
from concord._coefficients.registry import entry
from concord._common import exact as _exact
from concord._common.errors import UndefinedKappaWarning, describe, param_error
from concord._common.extras import require
from concord._data.columns import paired
from concord._data.labels import Labels
from concord._data.matrix import rating_matrix
from concord._data.two import split_one, wide_values
from concord._data.wide import Wide
from concord._inference.intervals import _level
from concord._results.studies.gold import GoldResult
from concord._studies.compare.compare import _options
from concord._tables.pair_table import PairTable

_FUNC = "against_gold"
_GOLD = "__gold__"


def _table(ratings: Any) -> Any:
    """Return the ratings as a DataFrame (items × raters), or raise naming ``ratings``."""
    pd = require("pandas", "pandas", "concord.against_gold")

    if hasattr(ratings, "columns"):
        return pd.DataFrame(ratings).copy()
    values = None
    if isinstance(ratings, dict):  # a mapping of rater → ratings
        try:
            return pd.DataFrame(ratings)
        except ValueError:
            pass
    elif not isinstance(ratings, str | bytes) and ratings is not None:
        values = np.asarray(ratings, dtype=object)
    if values is not None and values.ndim == 2:
        return pd.DataFrame(values)
    param_error(
        _FUNC,
        "ratings",
        "an items × raters table (a 2-D array, a DataFrame or a dict of columns)",
        f"shape {values.shape}" if values is not None and values.ndim else describe(ratings),
        raw=True,
        exc=ValueError if values is not None else TypeError,
        fix="For one rater pass [[r] for r in ratings]; a long table goes wide first "
        "(one column per rater).",
    )


def _codes(ratings: Any, gold: Any, labels: Any) -> tuple[np.ndarray, Labels, tuple[Any, ...]]:
    """Label codes of the gold (column 0) and the raters, under one set of labels."""
    pd = require("pandas", "pandas", "concord.against_gold")

    if isinstance(ratings, Wide):  # long form, or a polars or pyarrow frame
        names, values = wide_values(ratings)
        frame = pd.DataFrame(values, columns=pd.Index(list(names), dtype=object))
    elif hasattr(ratings, "columns"):
        frame = pd.DataFrame(ratings).copy()
    else:
        frame = _table(ratings)
    pandas_frame = hasattr(ratings, "columns") and not isinstance(ratings, Wide)
    if pandas_frame and hasattr(gold, "iloc"):  # DataFrame, Series: by label
        gold = paired(pd.Series(0, index=frame.index), gold, _FUNC, ("ratings", "gold"))[1]
    gold_values = np.asarray(gold, dtype=object)
    if gold_values.shape != (frame.shape[0],):
        param_error(
            _FUNC,
            "gold",
            f"one label per item ({frame.shape[0]})",
            f"shape {gold_values.shape}",
            raw=True,
        )
    frame.insert(0, _GOLD, pd.Series(gold_values, index=frame.index, dtype=object))
    matrix = rating_matrix(frame.infer_objects(), labels, _FUNC)
    assert matrix is not None
    codes = matrix.codes[matrix.codes[:, 0] >= 0]  # items with a gold label, as kappam_gold
    return codes, matrix.labels, tuple(matrix.raters[1:])


def _statistic(c: Any, table: np.ndarray, labels: Labels, opts: dict[str, Any]) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined replicates: see _replicates
        value = c.core(PairTable(table, labels, declared=True), opts)
    return float(getattr(value, "statistic", value))


def _replicates(c: Any, table: np.ndarray, labels: Labels, opts: dict[str, Any]) -> np.ndarray:
    """Return the coefficient of ``table`` less one count in each cell (nan: empty cells).

    An undefined replicate (one category on both sides) stays nan: kappaGold's
    ``kappa2`` returns 0 for it, which can put the bias-corrected estimate
    above 1 (10 agreeing items and one odd one: 1.9); concord reports the
    jackknife as undefined instead (``against_gold``'s Notes).
    """
    out = np.full(table.shape, np.nan)
    for cell in zip(*np.nonzero(table), strict=True):
        less = table.copy()
        less[cell] -= 1
        value = _statistic(c, less, labels, opts) if less.sum() else np.nan
        out[cell] = value
    return out


def against_gold(
    ratings: Any,
    gold: Any,
    /,
    *,
    function: Any = cohen_kappa,
    confidence_level: float = 0.95,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    form: str = "auto",
    **options: Any,
) -> GoldResult:
    """Each rater's agreement with gold labels, and the panel's mean with a jackknife SE.

    Parameters
    ----------
    ratings : array-like or DataFrame
        Items × raters; missing ratings as NaN or None.
    gold : array-like or a name
        The gold label of each item; items without one are left out. A
        column name picks the gold column out of the ``ratings`` frame (the
        other columns are the raters); with the long form it names the gold
        among the raters.
    function : callable, default concord.cohen_kappa
        A two-rater coefficient, computed with the gold labels as rater1.
    confidence_level : float, default 0.95
        The level of the mean's normal interval around the bias-corrected estimate.
    item, rater, rating : column name, optional
        Long form: ``ratings`` is a table with one row per rating (pandas,
        polars, pyarrow or a mapping of columns), these name its columns, and
        ``gold`` names the gold standard among the raters.
    form : {"auto", "wide"}
        Without the long form, "auto" refuses a table that looks long (an
        item column whose values repeat, a column of rater names, a column
        of ratings); "wide" says the columns are raters.
    **options
        The function's own options (``weights``, ``labels``, ...).

    Returns
    -------
    GoldResult

    Notes
    -----
    As kappaGold's ``kappam_gold``: the mean of the raters' coefficients,
    weighted by their numbers of items, and its jackknife over items (each
    replicate leaves one item out of every rater's table), whose SE accounts
    for the items the raters share; ``estimate`` is the jackknife's
    bias-corrected mean, and the interval is normal around it. Where leaving
    one item out leaves a rater's table with one category (the coefficient
    undefined), kappaGold counts that replicate as 0, which can push the
    estimate above 1; concord warns (``UndefinedKappaWarning``) and reports
    the estimate and SE as nan, keeping the mean.

    References
    ----------
    Vanbelle, S. & Albert, A. (2009). Agreement between two independent
    groups of raters. Psychometrika 74(3), 477-491.

    Examples
    --------
    kappaGold's ``kappam_gold`` help-page example, the gold standard in the
    first column:

    >>> import concord
    >>> m = [["O", "G", "O"], ["G", "G", "R"], ["R", "R", "R"], ["G", "G", "O"]]
    >>> g = concord.against_gold([row[1:] for row in m], [row[0] for row in m])
    >>> [round(r.statistic, 4) for r in g.results], round(g.mean, 4)
    ([0.5556, 0.3333], 0.4444)
    """
    c = entry(function, _FUNC)
    if c.arity != 2 or not c.returns_result:
        param_error(
            _FUNC,
            "function",
            "a two-rater coefficient that returns a result (concord.cohen_kappa, ...)",
            function,
            exc=TypeError,
            fix='For quadratic weighted kappa pass weights="quadratic" to cohen_kappa.',
        )
    level = _level(confidence_level, _FUNC)
    long = (item, rater, rating)
    ratings, gold, order = split_one(_FUNC, ratings, gold, ("ratings", "gold"), long, form)
    if order is not None and options.get("labels") is None:  # the gold's declared order
        options = {**options, "labels": list(order)}
    codes, labels, raters = _codes(ratings, gold, options.get("labels"))
    if codes.shape[0] == 0:
        param_error(
            _FUNC,
            "gold",
            "a label for at least one item",
            "only missing labels",
            raw=True,
            fix="Items without a gold label are left out; give the gold label of each item.",
        )
    opts = _options(c, (None, None), {**options, "labels": list(labels.values)}, _FUNC)
    k, n = labels.k, codes.shape[0]
    replicate = np.empty((n, len(raters)))
    weight = np.empty((n, len(raters)))
    tables, results = [], []
    for r in range(len(raters)):
        a, b = codes[:, 0], codes[:, r + 1]
        both = b >= 0
        table = np.bincount(a[both] * k + b[both], minlength=k * k).reshape(k, k)
        tables.append(table)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            results.append(c.core(PairTable(table, labels, declared=True), opts))
        less = _replicates(c, table, labels, opts)
        cells = np.where(both, a * k + np.maximum(b, 0), 0)
        replicate[:, r] = np.where(both, less.ravel()[cells], float(results[-1].statistic))
        weight[:, r] = table.sum() - both
    sizes = np.array([t.sum() for t in tables], dtype=np.float64)
    stats = np.array([float(r.statistic) for r in results])
    mean = _exact.fdot(sizes, stats) / _exact.fsum(sizes)
    if n < 2:  # no item to leave out: the jackknife (estimate, SE) is undefined
        return GoldResult(
            c.name, raters, labels.values, tuple(results), n, mean, np.nan, np.nan, level
        )
    if np.isnan(replicate[weight > 0]).any():
        warnings.warn(
            f"{_FUNC}: leaving one item out makes a rater's {c.name} undefined (one category "
            "left), so the jackknife estimate and SE are nan; the mean is defined",
            UndefinedKappaWarning,
            stacklevel=2,
        )
        return GoldResult(
            c.name, raters, labels.values, tuple(results), n, mean, np.nan, np.nan, level
        )
    # sums the same on every CPU (math.fsum): the estimate and SE are printed
    ones = np.ones(weight.shape[1])
    estd = _exact.fmatvec(replicate * weight, ones) / _exact.fmatvec(weight, ones)
    centre = _exact.fmean(estd)
    bias = (n - 1) * (centre - mean)
    se = math.sqrt((n - 1) * _exact.fmean((estd - centre) ** 2))
    return GoldResult(
        c.name, raters, labels.values, tuple(results), n, mean, mean - bias, se, level
    )
