"""Cronbach's alpha of the raters' scores, with Feldt's interval (as pingouin)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from concord._coefficients.continuous.icc import ratings_matrix
from concord._coefficients.ranks.ranking import has_missing, undefined
from concord._common.errors import check_option, param_error
from concord._common.exact import to_float
from concord._inference.intervals import check_level
from concord._results.continuous.reliability import CronbachResult
from concord._tables.dyadic_rows import Digits, digits, product_total, scaled

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
    total, trace = _sums(x, missing)
    if total is None or trace is None or not total > 0:
        undefined(_FUNC, "the total scores do not vary")
        alpha = math.nan
    else:
        alpha = to_float(k * (1 - trace / total) / (k - 1))  # exact, rounded once
    mean_variance = math.nan if trace is None else to_float(trace / k)
    off = math.nan if total is None or trace is None else to_float((total - trace) / (k * (k - 1)))
    return CronbachResult(
        statistic=alpha,
        confidence_level=level,
        n_items=n,
        n_raters=k,
        nan_policy=nan_policy,
        mean_variance=mean_variance,
        mean_covariance=off,
    )


def _sums(x: np.ndarray, missing: np.ndarray) -> tuple[Fraction | None, Fraction | None]:
    """Return (Σ_ab cov_ab, Σ_a var_a) exactly: each covariance from the rows both columns hold.

    cov_ab = (Σ uv − Σu Σv / n) / (n − 1) on the n rows, in integers on the
    values' powers of two (:mod:`concord._tables.dyadic_rows`), so α and the
    mean (co)variances are rounded once: the same on every CPU. A sum is None
    where one of its pairs of columns shares fewer than two rows.
    """
    k = x.shape[1]
    gram = _integer_gram(x, missing)
    whole = None if missing.any() or gram is not None else [digits(x[:, a]) for a in range(k)]
    # numerators by denominator n (n − 1): one Fraction per distinct n at the end
    total: dict[int, Any] | None = {}
    trace: dict[int, Any] | None = {}
    for a in range(k):
        for b in range(a, k):
            found = _covariance(x, missing, whole, a, b) if gram is None else gram(a, b)
            if found is None:
                total = None
                trace = None if a == b else trace
                continue
            num, den = found
            if total is not None:
                total[den] = total.get(den, 0) + (num if a == b else 2 * num)
            if trace is not None and a == b:
                trace[den] = trace.get(den, 0) + num
    return _fraction(total), _fraction(trace)


def _fraction(parts: dict[int, Any] | None) -> Fraction | None:
    if parts is None:
        return None
    return sum((Fraction(num) / den for den, num in parts.items()), Fraction(0))


def _integer_gram(x: np.ndarray, missing: np.ndarray) -> Any:
    """Return cov(a, b) from exact integer sums when the scores are small integers, else None.

    With 0 for a missing score and M the present-score indicator, Σ uv over
    the rows both columns hold is (XᵀX)_ab, Σu is (XᵀM)_ab and n is (MᵀM)_ab.
    Every product and partial sum is an integer below 2**53, so the float
    products are exact in any order of addition, fused or not: the same on every CPU.
    """
    complete = not missing.any()
    values = x if complete else np.where(missing, 0.0, x)
    top = max(float(values.max(initial=0.0)), -float(values.min(initial=0.0)), 1.0)
    if not (x.shape[0] * top * top < 2**53 and bool((values == np.floor(values)).all())):
        return None
    products = (values.T @ values).astype(np.int64).tolist()
    if complete:  # integer column sums below 2**53: exact in any order
        column = values.sum(axis=0).astype(np.int64).tolist()
        sums = [[column[a]] * x.shape[1] for a in range(x.shape[1])]  # Σ of column a
        counts = [[x.shape[0]] * x.shape[1]] * x.shape[1]
    else:
        present = (~missing).astype(np.float64)
        sums = (values.T @ present).astype(np.int64).tolist()
        counts = (present.T @ present).astype(np.int64).tolist()

    def cov(a: int, b: int) -> tuple[int, int] | None:
        n = counts[a][b]
        if n < 2:
            return None
        return n * products[a][b] - sums[a][b] * sums[b][a], n * (n - 1)

    return cov


def _covariance(
    x: np.ndarray, missing: np.ndarray, whole: list[Digits] | None, a: int, b: int
) -> tuple[Any, int] | None:
    """Return columns a and b's covariance over the rows both hold, exactly, as (num, den).

    None under two rows.
    """
    if whole is not None:
        n, u, v = x.shape[0], whole[a], whole[b]
    else:
        both = ~(missing[:, a] | missing[:, b])
        n = int(both.sum())
        u, v = digits(x[both, a]), digits(x[both, b])
    if n < 2:
        return None
    cross = scaled(n * product_total(u, v) - u.total() * v.total(), u.low + v.low)
    return cross, n * (n - 1)
