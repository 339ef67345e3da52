"""The mean of the raters' pairwise correlations, as R irr's ``meancor`` and ``meanrho``."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from concord._coefficients.continuous.icc import ratings_matrix
from concord._coefficients.ranks.ranking import has_missing, midranks, undefined
from concord._common.errors import check_option, param_error
from concord._common.exact import fmean, root_ratio
from concord._inference.intervals import normal_pvalue
from concord._results.continuous.ranks import MeanCorrelationResult
from concord._tables.dyadic_rows import digits, product_total

_FUNC = "mean_correlation"
_PERFECT = 1e-12  # |r| this close to 1 is a perfect correlation


def mean_correlation(ratings: Any, /, *, method: str = "pearson") -> MeanCorrelationResult:
    r"""Return the mean of the raters' pairwise correlations, averaged through Fisher's z.

    .. math::

        \bar r = \tanh\Big(\frac{1}{P} \sum_{j<k} \operatorname{artanh} r_{jk}\Big)

    over the P pairs of raters (Fisher 1921), with Pearson's r or
    Spearman's ρ (Pearson's r of the midranks).

    Parameters
    ----------
    ratings : array-like (n_items, n_raters) or DataFrame
        Numeric ratings, one row per item, one column per rater; NaN or None
        for a missing rating: an item with a missing rating is left out
        (listwise, as irr's ``na.omit``).
    method : {"pearson", "spearman"}
        R irr's ``meancor`` or ``meanrho``.

    Returns
    -------
    MeanCorrelationResult
        ``statistic`` (r̄), ``z``, ``pvalue``, the pairwise ``correlations``,
        ``summary()``, ``explain()``, ``to_dict()``, ``to_frame()``.

    Notes
    -----
    As irr: perfect correlations (±1 within 10⁻¹², whose z is infinite) are left out of
    the mean, with a warning (``n_dropped`` counts them; if every pair is
    perfect and of one sign, r̄ is that value), and the test is
    z = r̄ √(n − 3) with a two-sided normal p-value. That z takes the
    back-transformed r̄ where Fisher's test of one correlation takes its z
    (artanh r̄ √(n − 3)); the two agree for small r̄. A constant rater has no
    correlation: r̄ is then nan, with an :class:`~concord.UndefinedKappaWarning`.

    References
    ----------
    Fisher, R. A. (1921). On the "probable error" of a coefficient of
    correlation deduced from a small sample. Metron 1, 3-32.

    Gamer, M., Lemon, J., Fellows, I. & Singh, P. (2019). irr: Various
    coefficients of interrater reliability and agreement. R package 0.84.1.

    Examples
    --------
    Three raters' scores of four items:

    >>> import concord
    >>> r = concord.mean_correlation([[1, 2, 1], [2, 2, 3], [3, 4, 3], [4, 3, 5]])
    >>> [round(c, 4) for c in r.correlations], round(r.statistic, 4)
    ([0.6742, 0.9487, 0.4264], 0.7742)
    """
    check_option(_FUNC, "method", method, ("pearson", "spearman"))
    x, _, _ = ratings_matrix(ratings, _FUNC)
    x = x[~np.isnan(x).any(axis=1)] if has_missing(x) else x.astype(np.float64, copy=False)
    n, m = x.shape
    if n < 4:
        param_error(
            _FUNC,
            "ratings",
            "at least 4 items rated by every rater (the z test divides by n − 3)",
            f"{n}",
            raw=True,
        )
    rs = _correlations(x, method)
    value, dropped = _fisher_mean(rs)
    z = value * math.sqrt(n - 3)
    return MeanCorrelationResult(
        statistic=value,
        z=z,
        pvalue=normal_pvalue(z) if math.isfinite(z) else math.nan,
        method=method,
        correlations=tuple(float(r) for r in rs),
        n_dropped=dropped,
        n_items=n,
        n_raters=m,
    )


def _correlations(x: np.ndarray, method: str) -> np.ndarray:
    """Return the pairwise correlations, pairs (1, 2), (1, 3), …, (2, 3), …; nan if constant.

    r_ab = C_ab / √(C_aa C_bb) with C_ab = n Σ x_a x_b − Σ x_a Σ x_b in
    integers (:func:`_centred`), so each r is correctly rounded
    (:func:`concord._common.exact.root_ratio`): the same on every CPU.
    """
    m = x.shape[1]
    if method == "spearman":
        x = np.column_stack([midranks(np.ascontiguousarray(x[:, j]))[0] for j in range(m)])
    c = _centred(x, halves=method == "spearman")
    upper = np.empty(m * (m - 1) // 2)
    at = 0
    for a in range(m):
        for b in range(a + 1, m):
            if c[a][a] == 0 or c[b][b] == 0:
                upper[at] = np.nan
            else:
                size = root_ratio(c[a][b] * c[a][b], c[a][a] * c[b][b])
                upper[at] = math.copysign(size, c[a][b]) if c[a][b] else 0.0
            at += 1
    # irr's convention: |r| within 1e-12 of 1 is a perfect correlation
    near = np.abs(np.abs(upper) - 1) < _PERFECT
    upper[near] = np.sign(upper[near])
    return upper


def _centred(x: np.ndarray, halves: bool = False) -> list[list[int]]:
    """Return C_ab = n Σ x_a x_b − Σ x_a Σ x_b of the columns, exact (up to a power of two).

    Small integers, or halves (``halves``: mid-ranks), take float products
    whose every partial sum is an integer (or a quarter) below 2**53: exact
    in any order, on 2x where halves. Other scores take their dyadic digits
    (:mod:`concord._tables.dyadic_rows`). The powers of two cancel in r.
    """
    n, m = x.shape
    step = 2 if halves else 1  # 2x is an integer
    top = max(float(x.max(initial=0.0)), -float(x.min(initial=0.0)), 1.0) * step
    if n * top * top < 2**53 and (halves or bool((x == np.floor(x)).all())):
        products = (x.T @ x * (step * step)).astype(np.int64).tolist()
        sums = (x.sum(axis=0) * step).astype(np.int64).tolist()
        return [[n * products[a][b] - sums[a] * sums[b] for b in range(m)] for a in range(m)]
    d = [digits(np.ascontiguousarray(x[:, a])) for a in range(m)]
    totals = [v.total() for v in d]
    return [
        [n * product_total(d[a], d[b]) - totals[a] * totals[b] for b in range(m)] for a in range(m)
    ]


def _fisher_mean(rs: np.ndarray) -> tuple[float, int]:
    """Return tanh(mean artanh r) of the imperfect r, and how many perfect r were left out."""
    if np.isnan(rs).any():
        undefined(_FUNC, "a rater gave every item the same rating, so has no correlation")
        return math.nan, 0
    perfect = np.abs(rs) == 1
    dropped = int(perfect.sum())
    if dropped == rs.size and np.unique(rs).size == 1:
        return float(rs[0]), dropped
    if dropped:
        warnings.warn(
            f"{_FUNC}: {dropped} perfect correlation(s) (±1) left out of the mean, as R irr does.",
            RuntimeWarning,
            stacklevel=3,
        )
    kept = rs[~perfect]
    if kept.size == 0:
        undefined(_FUNC, "every correlation is perfect, some +1 and some −1")
        return math.nan, dropped
    return float(np.tanh(fmean(np.arctanh(kept)))), dropped
