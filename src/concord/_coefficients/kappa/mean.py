"""The Fisher-z mean of several kappas, and one kappa per group (the ASAP evaluation)."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from concord._coefficients.kappa.cohen import cohen_kappa
from concord._common.errors import UndefinedKappaWarning, describe, param_error
from concord._common.exact import fdot, fsum
from concord._data.frames import is_foreign, to_pandas
from concord._results.kappa.grouped import GroupedKappaResult, fisher_z, z_errors
from concord._results.kappa.kappa import KappaResult
from concord._results.kappa.mean import MeanKappaResult

__all__ = ["GroupedKappaResult", "MeanKappaResult", "grouped_kappa", "mean_kappa"]

_INVERSE_VARIANCE = "inverse-variance"


def mean_kappa(kappas: Any, /, *, weights: Any = None) -> MeanKappaResult:
    r"""Return the Fisher-z mean of several kappas, as Hamner's ``mean_quadratic_weighted_kappa``.

    .. math::

        \bar\kappa = \tanh\left(\frac{\sum_g w_g \operatorname{artanh}(\kappa_g)}
                                     {\sum_g w_g}\right)

    Each κ is first clipped to [−0.999, 0.999], because artanh(±1) is
    infinite: a perfect group counts as 0.999. The weights act in z-space.

    Parameters
    ----------
    kappas : array-like of float or of results, shape (g,)
        The kappas to average: floats, or result objects (their
        ``statistic``; with ``weights="inverse-variance"`` also their
        ``standard_error``).
    weights : array-like of float, shape (g,), or "inverse-variance", optional
        Non-negative weights, not all zero; default equal weights.
        ``"inverse-variance"`` weighs each result by 1 / SE(z)², with
        SE(z) = SE(κ) / (1 − κ²) by the delta method (at the clipped κ): the
        fixed-effect mean of Fisher's z (Hedges & Olkin 1985, ch. 6;
        Borenstein et al. 2009, ch. 11), the mean of least variance when the
        kappas are independent. It needs every SE finite and positive.

    Returns
    -------
    MeanKappaResult
        The mean, a ``float`` (as before) that also carries the standard
        error and Fisher-z interval of the mean (from the results' SEs, the
        kappas taken as independent; nan for bare floats). nan with an
        :class:`~concord.UndefinedKappaWarning` if any κ is nan.

    Examples
    --------
    >>> import concord
    >>> round(concord.mean_kappa([0.6, 0.8]), 6)  # tanh((artanh 0.6 + artanh 0.8) / 2) = 5/7
    0.714286
    >>> round(concord.mean_kappa([0.6, 0.8], weights=[3, 1]), 6)
    0.660958
    >>> float(concord.mean_kappa([1.0, 1.0]))  # clipped: a perfect kappa counts as 0.999
    0.999

    Two studies' kappas (0.619 on 8 items, 0.95 on 60), weighed equally and by 1 / SE(z)²:

    >>> a = concord.cohen_kappa([1, 2, 3, 1, 2, 3, 1, 2], [1, 2, 3, 2, 2, 3, 1, 1])
    >>> b = concord.cohen_kappa([1, 2, 3] * 20, [1, 2, 3] * 19 + [1, 3, 2])
    >>> equal = concord.mean_kappa([a, b])
    >>> precise = concord.mean_kappa([a, b], weights="inverse-variance")
    >>> round(equal, 4), round(precise, 4)
    (0.8558, 0.8692)
    >>> round(precise.standard_error, 4)  # 1 / √Σ(1 / SE(z)²), times 1 − κ̄²
    0.0645
    """
    func = "mean_kappa"
    k = _kappas(kappas, func)
    inverse = isinstance(weights, str) and weights == _INVERSE_VARIANCE
    w = None if inverse else _group_weights(weights, k.size, func)
    if np.isnan(k).any():
        warnings.warn(
            f"{func} is undefined (nan) because kappa number "
            f"{int(np.flatnonzero(np.isnan(k))[0])} is nan.",
            UndefinedKappaWarning,
            stacklevel=2,
        )
        mean = float("nan")
    else:
        if w is None:
            w = _inverse_variance(kappas, k, func)
        z = fisher_z(k)
        mean = float(np.tanh(fdot(w, z) / fsum(w)))
    kind = "inverse-variance" if inverse else "equal" if weights is None else "given"
    return MeanKappaResult(mean, k, np.ones(k.size) if w is None else w, _errors(kappas), kind)


def _errors(kappas: Any) -> np.ndarray:
    """Return each kappa's standard error: a result's, nan for a bare number."""
    items = list(np.atleast_1d(np.asarray(kappas, dtype=object)))
    return np.array([float(getattr(v, "standard_error", np.nan)) for v in items])


def _kappas(kappas: Any, func: str) -> np.ndarray:
    try:
        k = np.array([float(v) for v in np.atleast_1d(np.asarray(kappas, dtype=object))])
    except (TypeError, ValueError):
        param_error(func, "kappas", "a 1-D array of numbers", kappas, exc=TypeError)
    if k.ndim != 1 or k.size == 0:
        param_error(func, "kappas", "a non-empty 1-D array", kappas)
    outside = np.flatnonzero(np.abs(k) > 1)  # nan passes: it is undefined, not out of range
    if outside.size:
        param_error(
            func,
            "kappas",
            "between -1 and 1",
            f"kappa number {outside[0]} = {float(k[outside[0]])!r}",
            raw=True,
            fix="Kappas lie in [-1, 1]; artanh is undefined beyond. Check what was passed.",
        )
    return k


def _inverse_variance(kappas: Any, k: np.ndarray, func: str) -> np.ndarray:
    """Return 1 / SE(z)² of each result (Hedges & Olkin 1985): the weights of least variance."""
    items = list(np.atleast_1d(np.asarray(kappas, dtype=object)))
    bare = next((i for i, v in enumerate(items) if not hasattr(v, "standard_error")), None)
    if bare is not None:
        param_error(
            func,
            "kappas",
            'result objects with weights="inverse-variance"',
            f"kappa number {bare} = {describe(items[bare], 40)}, which has no standard_error",
            raw=True,
            fix="Pass the results themselves (e.g. cohen_kappa's), or give weights=.",
        )
    se = z_errors(k, np.array([float(v.standard_error) for v in items]))
    bad = np.flatnonzero(~(np.isfinite(se) & (se > 0)))
    if bad.size:
        param_error(
            func,
            "kappas",
            'results with a finite, positive standard error with weights="inverse-variance"',
            f"kappa number {bad[0]} with standard error {float(items[bad[0]].standard_error)!r}",
            raw=True,
            fix="A kappa known without error would take all the weight; give weights= instead.",
        )
    w: np.ndarray = 1 / (se * se)
    return w


def _group_weights(weights: Any, size: int, func: str) -> np.ndarray:
    if weights is None:
        return np.ones(size)
    if isinstance(weights, str):
        param_error(
            func, "weights", f"None, an array of numbers or {_INVERSE_VARIANCE!r}", weights
        )
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        param_error(func, "weights", "an array of numbers", weights, exc=TypeError)
    if w.shape != (size,):
        param_error(func, "weights", f"1-D of length {size}", f"shape {w.shape}", raw=True)
    if not np.isfinite(w).all() or (w < 0).any() or not w.any():
        param_error(func, "weights", "finite, non-negative and not all zero", weights)
    return w


def _require_columns(data: Any, names: dict[str, Any], func: str) -> None:
    if not hasattr(data, "columns") or not hasattr(data, "groupby"):
        param_error(
            func, "data", "a pandas DataFrame", type(data).__name__, exc=TypeError, raw=True
        )
    columns = list(data.columns)
    for param, col in names.items():
        if col not in columns:
            param_error(func, param, f"a column of 'data', one of {columns}", col)


def grouped_kappa(
    data: Any,
    /,
    *,
    by: str,
    rater1: str,
    rater2: str,
    weights: Any = "quadratic",
    group_weights: Any = None,
    labels: Any = None,
) -> GroupedKappaResult:
    """One kappa per group, and their Fisher-z mean: the ASAP essay-scoring evaluation.

    Parameters
    ----------
    data : DataFrame
        One row per rated item: pandas, or polars (eager, lazy) and pyarrow,
        which are grouped as pandas frames.
    by : str
        The column that defines the groups (ASAP: ``essay_set``).
    rater1, rater2 : str
        The columns of the two raters' ratings.
    weights : None, {"linear", "quadratic"} or array-like
        As in :func:`cohen_kappa`; default quadratic.
    group_weights : str or mapping, optional
        The weight of each group in the mean: a column that is constant
        within each group (ASAP: ``essay_weight``), or a mapping group → weight.
        Default: equal weights.
    labels : sequence, optional
        The ordered categories, the same for every group. Default: each
        group's own ratings.

    Returns
    -------
    GroupedKappaResult

    Examples
    --------
    >>> import pandas as pd, concord
    >>> df = pd.DataFrame({"set": [1, 1, 1, 2, 2, 2],
    ...                    "human": [1, 2, 3, 2, 3, 4], "model": [1, 2, 2, 2, 4, 4]})
    >>> g = concord.grouped_kappa(df, by="set", rater1="human", rater2="model")
    >>> {k: round(r.statistic, 4) for k, r in g.results.items()}  # 1 − 1/3 and 1 − 1/5
    {1: 0.6667, 2: 0.8}
    >>> round(g.statistic, 4)
    0.7406
    """
    func = "grouped_kappa"
    names = {"by": by, "rater1": rater1, "rater2": rater2}
    if isinstance(group_weights, str):
        names["group_weights"] = group_weights
    data = to_pandas(data, func) if is_foreign(data) else data  # polars, pyarrow: grouped
    _require_columns(data, names, func)
    _check_keys(data[by], by, func)
    results: dict[Any, KappaResult] = {}
    gw: dict[Any, float] = {}
    for key, group in data.groupby(by, sort=True):
        key = key[0] if isinstance(key, tuple) and len(key) == 1 else key
        results[key] = cohen_kappa(group[rater1], group[rater2], weights=weights, labels=labels)
        gw[key] = _weight_of(group, key, group_weights, func)
    statistic = mean_kappa([r.statistic for r in results.values()], weights=list(gw.values()))
    return GroupedKappaResult(statistic, results, gw, by)


def _check_keys(keys: Any, by: str, func: str) -> None:
    """Refuse missing group keys: pandas' groupby would drop their rows without a word."""
    missing = np.flatnonzero(np.asarray(keys.isna(), dtype=bool))
    if missing.size:
        param_error(
            func,
            "by",
            "a column with a group key in every row",
            f"{missing.size:,} rows whose {by!r} is missing (NaN or None), "
            f"the first at position {missing[0]} (index {describe(keys.index[missing[0]], 40)})",
            raw=True,
            fix=f"Drop those rows, or give them a group of their own with "
            f"data[{by!r}].fillna(...).",
        )


def _weight_of(group: Any, key: Any, group_weights: Any, func: str) -> float:
    if group_weights is None:
        return 1.0
    if isinstance(group_weights, str):
        values = group[group_weights].unique()
        if len(values) != 1:
            param_error(
                func,
                "group_weights",
                f"a column constant within each group ({describe(key, 40)})",
                f"{len(values)} different values",
                raw=True,
            )
        return float(values[0])
    if isinstance(group_weights, Mapping):
        if key not in group_weights:
            param_error(
                func,
                "group_weights",
                f"a mapping with a weight for group {describe(key, 40)}",
                f"keys {list(group_weights)}",
                raw=True,
            )
        return float(group_weights[key])
    param_error(
        func, "group_weights", "None, a column name or a mapping", group_weights, exc=TypeError
    )
