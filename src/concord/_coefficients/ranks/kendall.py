"""Kendall's coefficient of concordance W, as R irr's ``kendall`` and irrNA's ``kendallNA``."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from concord._coefficients.continuous.icc import ratings_matrix
from concord._coefficients.ranks.ranking import (
    chi2_sf,
    has_missing,
    midranks,
    pearson,
    rank_sums,
    undefined,
)
from concord._common.errors import param_error
from concord._common.exact import rounded
from concord._common.extras import require
from concord._results.continuous.ranks import KendallResult

_FUNC = "kendall_w"


def kendall_w(ratings: Any, /, *, correct: bool = True) -> KendallResult:
    r"""Kendall's coefficient of concordance W of m raters ranking n items.

    Each rater's ratings are ranked (tied ratings share their mean rank);
    with R_i the sum of item i's ranks over the m raters,

    .. math::

        W = \frac{12 \sum_i (R_i - m(n+1)/2)^2}{m^2 (n^3 - n) - m \sum_j T_j},
        \qquad T_j = \sum (t^3 - t)

    over the groups of t tied ratings of rater j (Kendall & Babington Smith
    1939; the tie correction of Kendall 1948). W is 0 when the raters'
    rankings are unrelated and 1 when they all rank the items alike.

    Parameters
    ----------
    ratings : array-like (n_items, n_raters) or DataFrame
        Ordinal or numeric ratings, one row per item, one column per rater;
        NaN or None for a missing rating.
    correct : bool
        Correct for ties (Wt, R irr's ``kendall(correct=TRUE)``); False gives
        the uncorrected W (``correct=FALSE``), which ties bias downwards.

    Returns
    -------
    KendallResult
        ``statistic`` (W), the χ² test (``chi_square``, ``df``, ``pvalue``),
        the F test (``f_statistic``, ``f_df1``, ``f_df2``, ``f_pvalue``),
        ``summary()``, ``explain()``, ``to_dict()``, ``to_frame()``.

    Notes
    -----
    The χ² test is m(n − 1)W on n − 1 df (Friedman's statistic); the F test,
    better in small samples, is F = (m − 1)W / (1 − W) on ν₁ = n − 1 − 2/m
    and ν₂ = (m − 1)ν₁ df (Kendall & Babington Smith 1939; Legendre 2005).

    Complete ratings: W is the ratio of two integers (3 Σ(2R_i − m(n + 1))²
    over m²(n³ − n) − m ΣT_j), rounded once, so every machine prints the same
    digits. Whole-number ratings of a small range are ranked by counting
    (O(n)); other columns by one sort each.

    Missing ratings: W is computed as irrNA's ``kendallNA`` (Brückl 2011),
    from Kendall's (1962) relation W = (1 + (k̄ − 1) ρ̄) / k̄, where ρ̄ is the
    mean of the raters' pairwise Spearman correlations, each on the items
    both rated and weighted by that number less one (Taylor 1987), and k̄ is
    the mean number of ratings per item; χ² = k̄(n − 1)W and the F test uses
    k̄ for m. Spearman's correlation ranks ties by their midranks, so
    ``correct`` has no effect there. Raters with fewer than two ratings are
    left out (with a warning); items with no rating are left out too (irrNA
    would count them in n).

    Undefined: if every rater gives every item the same rating (all ties),
    W is 0/0, nan with an :class:`~concord.UndefinedKappaWarning`.

    References
    ----------
    Kendall, M. G. & Babington Smith, B. (1939). The problem of m rankings.
    Annals of Mathematical Statistics 10(3), 275-287.

    Legendre, P. (2005). Species associations: the Kendall coefficient of
    concordance revisited. JABES 10(2), 226-245.

    Taylor, J. M. G. (1987). Kendall's and Spearman's correlation
    coefficients in the presence of a blocking variable. Biometrics 43, 409-416.

    Examples
    --------
    Three raters, five essays ranked 1 (best) to 5; the third rater swaps two:

    >>> import concord
    >>> r = concord.kendall_w([[1, 1, 2], [2, 2, 1], [3, 3, 3], [4, 4, 4], [5, 5, 5]])
    >>> round(r.statistic, 4), r.df, round(r.chi_square, 2)
    (0.9556, 4, 11.47)
    """
    if not isinstance(correct, bool | np.bool_):
        param_error(_FUNC, "correct", "True or False", correct, exc=TypeError)
    x, names, integral = ratings_matrix(ratings, _FUNC)
    if has_missing(x):
        return _pairwise(x, names)
    return _complete(x, names, bool(correct), integral)


def _enough_items(n: int) -> None:
    if n < 2:
        param_error(_FUNC, "ratings", "at least 2 items with ratings", f"{n} item", raw=True)


def _complete(
    x: np.ndarray, names: tuple[Any, ...], correct: bool, integral: bool
) -> KendallResult:
    n, m = x.shape
    _enough_items(n)
    sums, ties = rank_sums(x, integral)
    # 12 Σ(R_i − m(n + 1)/2)² = 3 Σ(2R_i − m(n + 1))², on integers: W is rounded once
    spread = 3 * _square_sum(np.rint(2.0 * sums).astype(np.int64) - m * (n + 1))
    full = m * m * (n**3 - n)
    corrected = full - m * ties
    if corrected <= 0:  # every rater gave every item one rating
        undefined(_FUNC, "every rater gave all the items the same rating, so nothing is ranked")
        w = math.nan
    else:
        w = rounded(spread, corrected if correct else full)
    return _result(
        w, n, float(m), m, names, correct, float(ties), "complete", (m * w - 1) / (m - 1)
    )


def _square_sum(v: np.ndarray) -> int:
    """Return Σ v² of an int64 vector exactly: in int64 chunks that cannot overflow."""
    if not v.size:
        return 0
    top = max(int(v.max()), -int(v.min()), 1)
    if top >= 1 << 31:  # squares beyond int64: Python ints
        return sum(int(e) ** 2 for e in v.tolist())
    step = max((1 << 62) // (top * top), 1)
    return sum(int(np.dot(v[i : i + step], v[i : i + step])) for i in range(0, v.size, step))


def _pairwise(x: np.ndarray, names: tuple[Any, ...]) -> KendallResult:
    rated = ~np.isnan(x)
    keep = rated.sum(axis=0) > 1
    if not keep.all():
        dropped = [names[j] for j in np.flatnonzero(~keep)]
        warnings.warn(
            f"{_FUNC}: rater(s) {dropped} gave fewer than two ratings and are left out.",
            RuntimeWarning,
            stacklevel=3,
        )
    x, rated = x[:, keep], rated[:, keep]
    names = tuple(n for n, k in zip(names, keep, strict=True) if k)
    items = rated.any(axis=1)
    x, rated = x[items], rated[items]
    n, m = x.shape
    _enough_items(n)
    if m < 2:
        param_error(_FUNC, "ratings", "2 raters with 2 ratings or more", f"{m}", raw=True)
    weighted, weights = 0.0, 0.0
    for a in range(m):
        for b in range(a + 1, m):
            both = rated[:, a] & rated[:, b]
            w = int(both.sum()) - 1
            if w < 1:
                continue
            rho = pearson(midranks(x[both, a])[0], midranks(x[both, b])[0])
            weighted += w * (0.0 if math.isnan(rho) else rho)  # irrNA: a constant rater gives 0
            weights += w
    k_bar = float(rated.sum()) / n
    if weights == 0:
        undefined(_FUNC, "no two raters rated two items in common")
        mean_rho = math.nan
    else:
        mean_rho = weighted / weights
    w_value = (1 + mean_rho * (k_bar - 1)) / k_bar
    return _result(w_value, n, k_bar, m, names, True, math.nan, "pairwise", mean_rho)


def _result(
    w: float,
    n: int,
    k: float,
    m: int,
    names: tuple[Any, ...],
    correct: bool,
    ties: float,
    method: str,
    mean_rho: float,
) -> KendallResult:
    stats = require("scipy.stats", "stats", "concord.kendall_w")

    chi = k * (n - 1) * w
    df1 = n - 1 - 2 / k
    f = (k - 1) * w / (1 - w) if w < 1 else (math.inf if w == 1 else math.nan)
    return KendallResult(
        statistic=float(w),
        chi_square=float(chi),
        df=n - 1,
        pvalue=chi2_sf(chi, n - 1),
        f_statistic=float(f),
        f_df1=df1,
        f_df2=(k - 1) * df1,
        f_pvalue=float(stats.f.sf(f, df1, (k - 1) * df1)) if df1 > 0 else math.nan,
        mean_rho=float(mean_rho),
        n_items=n,
        n_raters=m,
        mean_raters=k,
        correct=correct,
        ties=ties,
        method=method,
        raters=names,
    )
