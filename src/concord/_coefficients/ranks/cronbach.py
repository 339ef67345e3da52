"""Cronbach's alpha of the raters' scores, with Feldt's interval (as pingouin)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from concord._coefficients.continuous.icc import ratings_matrix
from concord._coefficients.ranks.ranking import has_missing, undefined
from concord._common.errors import check_option, param_error
from concord._inference.intervals import check_level
from concord._results.continuous.reliability import CronbachResult

_FUNC = "cronbach_alpha"


def cronbach_alpha(
    ratings: Any, /, *, confidence_level: float = 0.95, nan_policy: str = "pairwise"
) -> CronbachResult:
    r"""Cronbach's alpha: the reliability of the sum (or mean) of the k raters' scores.

    .. math::

        \alpha = \frac{k}{k - 1}\Big(1 - \frac{\sum_j s_j^2}{s_T^2}\Big)
               = \frac{k}{k - 1}\Big(1 - \frac{\operatorname{tr} C}{\sum_{jk} C_{jk}}\Big)

    with C the raters' covariance matrix (n − 1 denominators), s_j² its
    diagonal and s_T² the variance of the items' total scores (Cronbach
    1951). It equals the consistency ICC of the average, ICC(C,k), on
    complete data.

    Parameters
    ----------
    ratings : array-like (n_items, n_raters) or DataFrame
        Numeric scores, one row per item (a subject), one column per rater
        (a questionnaire item); NaN or None for a missing score.
    confidence_level : float
        The level of ``interval`` (Feldt's), default 0.95.
    nan_policy : {"pairwise", "listwise"}
        Missing scores: "pairwise" (default) estimates each covariance from
        the items both raters scored (pandas' ``DataFrame.cov``, R psych's
        ``use="pairwise"``); "listwise" first drops every item with a missing
        score (psych's ``use="complete.obs"``).

    Returns
    -------
    CronbachResult
        ``statistic`` (α), ``interval``, ``confidence_interval()``,
        ``summary()``, ``explain()``, ``to_dict()``, ``to_frame()``.

    Notes
    -----
    Feldt's (1965; Feldt, Woodruff & Salih 1987) interval:
    1 − (1 − α) F_{1−γ/2} to 1 − (1 − α) F_{γ/2}, with F's quantiles on n − 1
    and (n − 1)(k − 1) df, as pingouin's ``cronbach_alpha``. n is the number
    of items used: all the items under "pairwise" (as pingouin), the complete
    ones under "listwise" (pingouin keeps the n before the deletion there).
    α is nan, with an :class:`~concord.UndefinedKappaWarning`, when the
    total scores do not vary.

    References
    ----------
    Cronbach, L. J. (1951). Coefficient alpha and the internal structure of
    tests. Psychometrika 16(3), 297-334.

    Feldt, L. S., Woodruff, D. J. & Salih, F. A. (1987). Statistical
    inference for coefficient alpha. Applied Psychological Measurement 11(1), 93-103.

    Examples
    --------
    Four subjects, three questions (scores 1 to 5):

    >>> import concord
    >>> r = concord.cronbach_alpha([[1, 2, 2], [2, 3, 2], [4, 4, 5], [5, 4, 4]])
    >>> round(r.statistic, 4)
    0.9265
    """
    level = check_level(confidence_level, _FUNC)
    check_option(_FUNC, "nan_policy", nan_policy, ("pairwise", "listwise"))
    x, _, _ = ratings_matrix(ratings, _FUNC)
    x = x.astype(np.float64, copy=False)
    missing = np.isnan(x) if has_missing(x) else np.zeros(x.shape, dtype=bool)
    if nan_policy == "listwise" and missing.any():
        x = x[~missing.any(axis=1)]
        missing = np.zeros(x.shape, dtype=bool)
    n, k = x.shape
    if n < 2:
        param_error(_FUNC, "ratings", "at least 2 items with scores", f"{n}", raw=True)
    cov = _covariance(x, missing)
    total, trace = float(cov.sum()), float(np.trace(cov))
    if not (math.isfinite(total) and total > 0):
        undefined(_FUNC, "the total scores do not vary")
        alpha = math.nan
    else:
        alpha = k / (k - 1) * (1 - trace / total)
    off = (total - trace) / (k * (k - 1))
    return CronbachResult(
        statistic=alpha,
        confidence_level=level,
        n_items=n,
        n_raters=k,
        nan_policy=nan_policy,
        mean_variance=trace / k,
        mean_covariance=off,
    )


def _covariance(x: np.ndarray, missing: np.ndarray) -> np.ndarray:
    """Return the covariances, each from the rows both columns hold (n − 1 denominators)."""
    if not missing.any():
        return np.atleast_2d(np.cov(x, rowvar=False))
    k = x.shape[1]
    cov = np.full((k, k), np.nan)
    for a in range(k):
        for b in range(a, k):
            both = ~(missing[:, a] | missing[:, b])
            if both.sum() > 1:
                u, v = x[both, a], x[both, b]
                cov[a, b] = cov[b, a] = ((u - u.mean()) @ (v - v.mean())) / (both.sum() - 1)
    return cov
