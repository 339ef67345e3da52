"""Tests on square tables beside marginal homogeneity: Bowker's symmetry and Cochran's Q.

:func:`symmetry_test` counts two raters' ratings as :func:`concord.marginal_homogeneity`
does (:func:`concord._tables.pairs.confusion_table`); :func:`cochran_q` reads a matrix
of two categories.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from concord._coefficients.ranks.ranking import chi2_sf, undefined
from concord._common.errors import check_option, param_error
from concord._results.continuous.square import CochranQResult, SymmetryResult
from concord._tables.pairs import confusion_table


def symmetry_test(
    rater1: Any, rater2: Any, /, *, labels: Any = None, nan_policy: str = "raise"
) -> SymmetryResult:
    r"""Test the symmetry of two raters' table (Bowker): do disagreements go both ways equally.

    .. math::

        \chi^2 = \sum_{i<j} \frac{(n_{ij} - n_{ji})^2}{n_{ij} + n_{ji}}

    on k(k − 1)/2 df, for the k×k table n of rater1 (rows) by rater2
    (Bowker 1948). It is McNemar's test for k = 2. Symmetry implies
    marginal homogeneity; the converse fails, so
    :func:`marginal_homogeneity` is the test of whether the raters use the
    categories at the same rates.

    Parameters
    ----------
    rater1, rater2 : array-like, shape (n,)
        The two raters' ratings of the same items, as for :func:`cohen_kappa`.
    labels : sequence, optional
        The categories, in order.
    nan_policy : {"raise", "omit"}
        What to do with a missing rating, as for :func:`cohen_kappa`.

    Returns
    -------
    SymmetryResult
        ``statistic``, ``df``, ``pvalue``, the ``table``; ``summary()``,
        ``explain()``, ``to_dict()``, ``to_frame()``.

    Notes
    -----
    As statsmodels' ``SquareTable.symmetry``: a pair of cells that are both
    empty adds 0 to χ² and keeps its degree of freedom (R's
    ``mcnemar.test`` gives NaN there).

    References
    ----------
    Bowker, A. H. (1948). A test for symmetry in contingency tables.
    JASA 43(244), 572-574.

    Examples
    --------
    >>> import concord
    >>> r = concord.symmetry_test([1, 1, 2, 2, 3, 1, 3], [2, 1, 3, 2, 3, 2, 1])
    >>> round(r.statistic, 4), r.df
    (4.0, 3)
    """
    func = "symmetry_test"
    counted = confusion_table(
        rater1, rater2, labels=labels, nan_policy=nan_policy, sample_weight=None, func=func
    )
    table = np.asarray(counted.table)
    upper = np.triu_indices(table.shape[0], 1)
    above, below = table[upper].astype(np.float64), table.T[upper].astype(np.float64)
    both = above + below
    terms = np.divide((above - below) ** 2, both, out=np.zeros_like(both), where=both > 0)
    statistic = float(terms.sum())
    df = int(upper[0].size)
    return SymmetryResult(
        statistic=statistic,
        df=df,
        pvalue=chi2_sf(statistic, df),
        labels=tuple(counted.labels.values),
        table=table,
        n=int(table.sum()),
    )


def cochran_q(ratings: Any, /, *, nan_policy: str = "raise") -> CochranQResult:
    r"""Test whether k raters use one of two categories equally often (Cochran's Q).

    .. math::

        Q = (k - 1)\frac{k \sum_j C_j^2 - N^2}{k N - \sum_i R_i^2}

    on k − 1 df, with C_j rater j's count of the category, R_i item i's and
    N the total (Cochran 1950). For k = 2 it is McNemar's test. Q does not
    depend on which of the two categories is counted.

    Parameters
    ----------
    ratings : array-like (n_items, n_raters) or DataFrame
        Two categories (0/1, False/True, "no"/"yes", …), one row per item,
        one column per rater; NaN or None for a missing rating.
    nan_policy : {"raise", "omit"}
        What to do with a missing rating: raise, or leave out the item.

    Returns
    -------
    CochranQResult
        ``statistic`` (Q), ``df``, ``pvalue``, each rater's ``proportions``;
        ``summary()``, ``explain()``, ``to_dict()``, ``to_frame()``.

    Notes
    -----
    As statsmodels' ``cochrans_q`` (the asymptotic χ² test). Items that
    every rater put in the same category add nothing; if all do, Q is 0/0:
    nan with an :class:`~concord.UndefinedKappaWarning`.

    References
    ----------
    Cochran, W. G. (1950). The comparison of percentages in matched
    samples. Biometrika 37(3/4), 256-266.

    Examples
    --------
    >>> import concord
    >>> r = concord.cochran_q([[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 0, 0], [1, 0, 1]])
    >>> round(r.statistic, 4), r.df
    (2.6667, 2)
    """
    func = "cochran_q"
    check_option(func, "nan_policy", nan_policy, ("raise", "omit"))
    x, names = _matrix(ratings, func)
    missing = _missing(x)
    if missing.any():
        if nan_policy == "raise":
            row = int(np.flatnonzero(missing.any(axis=1))[0])
            param_error(
                func,
                "ratings",
                "complete rows (Cochran's Q compares the raters on the same items)",
                f"a missing rating in row {row}",
                raw=True,
                fix="Pass nan_policy='omit' to leave out the items with a missing rating.",
            )
        x = x[~missing.any(axis=1)]
    values = _categories(x)
    if values.size > 2:
        param_error(func, "ratings", "two categories", f"{values.size}: {values[:5]}", raw=True)
    if x.shape[0] < 1:
        param_error(func, "ratings", "at least one complete item", "none", raw=True)
    success = (x == values[-1]).astype(np.float64)
    return _q(success, names, tuple(values.tolist()))


def _q(success: np.ndarray, names: tuple[Any, ...], labels: tuple[Any, ...]) -> CochranQResult:
    n, k = success.shape
    columns, rows = success.sum(axis=0), success.sum(axis=1)
    total = float(rows.sum())
    denominator = k * total - float(rows @ rows)
    if denominator == 0:
        undefined("cochran_q", "every item got one category from all the raters")
        q = math.nan
    else:
        q = (k - 1) * (k * float(columns @ columns) - total**2) / denominator
    return CochranQResult(
        statistic=q,
        df=k - 1,
        pvalue=chi2_sf(q, k - 1),
        proportions=columns / n,
        labels=labels,
        raters=names,
        n_items=n,
    )


def _categories(x: np.ndarray) -> np.ndarray:
    """Return the sorted distinct values; numbers with two values found without a sort."""
    if x.dtype.kind in "biuf" and x.size:
        low, high = x.min(), x.max()
        if bool(np.all((x == low) | (x == high))):
            found: np.ndarray = np.unique(np.array([low, high]))
            return found
    return np.unique(x.ravel())


def _matrix(ratings: Any, func: str) -> tuple[np.ndarray, tuple[Any, ...]]:
    names: tuple[Any, ...] | None = None
    if hasattr(ratings, "columns") and hasattr(ratings, "to_numpy"):
        names = tuple(ratings.columns)
        ratings = ratings.to_numpy()
    x = np.asarray(ratings)
    if x.ndim != 2 or x.shape[1] < 2:
        param_error(func, "ratings", "a 2-D array of items × raters, with 2 raters or more", x)
    return x, names if names is not None else tuple(range(x.shape[1]))


def _missing(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "f":
        nan: np.ndarray = np.isnan(x)
        return nan
    if x.dtype.kind == "O":
        found: np.ndarray = np.asarray((x == None) | (x != x), dtype=bool)  # noqa: E711
        return found  # elementwise: None, or NaN (the one value unequal to itself)
    return np.zeros(x.shape, dtype=bool)
