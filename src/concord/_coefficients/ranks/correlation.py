"""The mean of the raters' pairwise correlations, as R irr's ``meancor`` and ``meanrho``."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from concord._coefficients.continuous.icc import ratings_matrix
from concord._coefficients.ranks.ranking import has_missing, midranks, undefined
from concord._common.errors import check_option, param_error
from concord._common.exact import fmean
from concord._inference.intervals import normal_pvalue
from concord._results.continuous.ranks import MeanCorrelationResult

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
    """Return the pairwise correlations, pairs (1, 2), (1, 3), …, (2, 3), …; nan if constant."""
    m = x.shape[1]
    if method == "spearman":
        x = np.column_stack([midranks(np.ascontiguousarray(x[:, j]))[0] for j in range(m)])
    centred = x - x.mean(axis=0)
    cov = centred.T @ centred
    sd = np.sqrt(np.diag(cov))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.clip(cov / np.outer(sd, sd), -1.0, 1.0)
    r[:, sd == 0] = np.nan
    upper: np.ndarray = r[np.triu_indices(m, 1)]
    # a perfect correlation computed in floats can miss ±1 by an ulp or two: snap it
    near = np.abs(np.abs(upper) - 1) < _PERFECT
    upper[near] = np.sign(upper[near])
    return upper


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
