"""Eval metrics of weighted kappa for LightGBM and XGBoost, and a QWK objective for both.

Each factory returns one callable that takes either library's argument
order: the native ``(preds, data)``, where ``data`` is a ``lightgbm.Dataset``
or an ``xgboost.DMatrix`` (anything with ``get_label()``), or the
scikit-learn wrappers' ``(y_true, y_pred)``. Neither library is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from concord._coefficients.kappa.cohen import cohen_kappa
from concord._coefficients.kappa.qwk import quadratic_weighted_kappa
from concord._common.errors import param_error
from concord._ml.scorers import check_weights
from concord._thresholds.dinkelbach import grade
from concord._thresholds.optimize import optimize_thresholds


def split(
    a: Any, b: Any, sample_weight: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Return (y_true, predictions, sample weights or None) from either argument order.

    The scikit-learn wrappers hand the weights as a third argument: LightGBM
    positionally (to a callable of three parameters, else it drops them
    without a word), XGBoost as ``sample_weight=`` (else it raises).
    """
    if hasattr(b, "get_label"):  # native: (preds, Dataset or DMatrix)
        weight = b.get_weight()
        weight = None if weight is None or len(weight) == 0 else np.asarray(weight, np.float64)
        return np.asarray(b.get_label()), np.asarray(a, dtype=np.float64), weight
    weight = None if sample_weight is None else np.asarray(sample_weight, np.float64)
    return np.asarray(a), np.asarray(b, dtype=np.float64), weight


def _rounded(y_true: np.ndarray, preds: np.ndarray, labels: Any) -> np.ndarray:
    # half up (2.5 -> 3; RSMTool and skll round half to even), within the grades' range
    values = np.asarray(y_true if labels is None else labels, dtype=np.float64)
    return np.clip(np.floor(preds + 0.5), values.min(), values.max())


def _cut(y_true: np.ndarray, preds: np.ndarray, cuts: np.ndarray, labels: Any, func: str) -> Any:
    grades = np.unique(y_true) if labels is None else np.asarray(labels)
    if grades.size != cuts.size + 1:
        param_error(
            func,
            "labels",
            f"{cuts.size + 1} grades, one more than the cut points",
            f"{grades.size} {'grades in the labels' if labels is None else 'labels'}",
            raw=True,
            fix="Pass labels=[...] with the grades the cut points separate.",
        )
    return grades[grade(preds, cuts)]


def graded(
    y_true: np.ndarray, preds: np.ndarray, thresholds: Any, weights: Any, labels: Any, func: str
) -> np.ndarray:
    """Return the predictions as grades: argmax, rounded, or cut at the given or optimal points."""
    if preds.ndim == 2:  # multiclass probabilities: the likeliest class (its index, or its label)
        index: np.ndarray = preds.argmax(axis=1)
        return index if labels is None else np.asarray(labels)[index]
    if thresholds is None:
        return _rounded(y_true, preds, labels)
    if isinstance(thresholds, str) and thresholds == "optimal":
        best = optimize_thresholds(y_true, preds, labels=labels, weights=weights)
        return best.apply(preds)
    cut: np.ndarray = _cut(y_true, preds, thresholds, labels, func)
    return cut


def _check_thresholds(thresholds: Any, func: str) -> Any:
    if thresholds is None or (isinstance(thresholds, str) and thresholds == "optimal"):
        return thresholds
    try:
        cuts = np.asarray(thresholds, dtype=np.float64)
    except (TypeError, ValueError):
        cuts = np.full(2, np.nan)
    if cuts.ndim != 1 or np.isnan(cuts).any() or (np.diff(cuts) < 0).any():
        param_error(
            func,
            "thresholds",
            "None, 'optimal' or a non-decreasing list of cut points",
            thresholds,
        )
    return cuts


def kappa_value(
    y_true: np.ndarray, grades: np.ndarray, weights: Any, labels: Any, weight: np.ndarray | None
) -> float:
    """Return the kappa of the grades; quadratic_weighted_kappa's fast path where it applies."""
    if isinstance(weights, str) and weights == "quadratic" and labels is None and weight is None:
        return float(quadratic_weighted_kappa(y_true, grades))
    return float(
        cohen_kappa(y_true, grades, weights=weights, labels=labels, sample_weight=weight).statistic
    )


def _metric(thresholds: Any, weights: Any, labels: Any, func: str) -> Callable[..., Any]:
    check_weights(weights, func)
    cuts = _check_thresholds(thresholds, func)
    name = "qwk" if isinstance(weights, str) and weights == "quadratic" else "kappa"

    def value(a: Any, b: Any, sample_weight: Any = None) -> float:
        y_true, preds, weight = split(a, b, sample_weight)
        grades = graded(y_true, preds, cuts, weights, labels, func)
        return kappa_value(y_true, grades, weights, labels, weight)

    value.__name__ = name
    return value


def lightgbm_metric(
    *, thresholds: Any = None, weights: Any = "quadratic", labels: Any = None
) -> Callable[..., tuple[str, float, bool]]:
    """Return a LightGBM eval metric of weighted kappa (higher is better).

    The callable fits both ``lightgbm.train(..., feval=metric)``, as
    ``metric(preds, eval_data)``, and the scikit-learn API's
    ``LGBMRegressor().fit(..., eval_metric=metric)``, as
    ``metric(y_true, y_pred)``; it returns ``(name, value, True)``, the name
    ``"qwk"`` for quadratic weights, ``"kappa"`` otherwise. Dataset weights
    (``eval_sample_weight`` in the scikit-learn API) weigh the items.

    Parameters
    ----------
    thresholds : None, 'optimal' or sequence of float
        How continuous predictions become grades. None: rounded half up to
        the nearest integer and clipped to the range of the grades.
        ``"optimal"``: cut at :func:`concord.optimize_thresholds` fitted to
        the evaluation data itself, so the value is the best any cut points
        reach there, optimistic for new data (use it to compare models, not
        to report). A list: cut at these points (a score on a cut point
        takes the lower grade, as ``ThresholdResult.apply``). Multiclass
        probabilities (n, k) are graded by their likeliest class, the
        class index (LightGBM's labels 0..k−1) unless ``labels`` are given.
    weights : None, str or array-like (k, k)
        As in :func:`concord.cohen_kappa`; default quadratic.
    labels : sequence, optional
        The ordered grades; default the distinct true grades (and, with a
        list of cut points, there must be one more of them than cut points).

    Returns
    -------
    callable
        ``metric(preds, eval_data)`` or ``metric(y_true, y_pred)`` →
        ``(name, value, is_higher_better)``. The value equals
        :func:`concord.quadratic_weighted_kappa` of the true grades and the
        predictions cut at the same points.

    Examples
    --------
    >>> import numpy as np
    >>> from concord.ml import lightgbm_metric
    >>> metric = lightgbm_metric(thresholds=[1.5, 2.5])
    >>> metric(np.array([1, 2, 3, 3]), np.array([1.2, 2.6, 2.7, 3.1]))
    ('qwk', 0.8, True)
    """
    value = _metric(thresholds, weights, labels, "lightgbm_metric")

    def metric(a: Any, b: Any, sample_weight: Any = None) -> tuple[str, float, bool]:
        return value.__name__, value(a, b, sample_weight), True

    return metric


def xgboost_metric(
    *, thresholds: Any = None, weights: Any = "quadratic", labels: Any = None
) -> Callable[..., Any]:
    """Return an XGBoost eval metric of weighted kappa (higher is better).

    The callable fits both ``xgboost.train(..., custom_metric=metric,
    maximize=True)``, as ``metric(predt, dmatrix) -> (name, value)``, and
    the scikit-learn API's ``XGBRegressor(eval_metric=metric)``, as
    ``metric(y_true, y_pred) -> value`` (its name, ``"qwk"`` or
    ``"kappa"``, is the callable's ``__name__``). Early stopping must be
    told to maximise it (``maximize=True``, or
    ``xgboost.callback.EarlyStopping(..., maximize=True)``). DMatrix weights
    (``sample_weight_eval_set`` in the scikit-learn API) weigh the items.

    Parameters
    ----------
    thresholds, weights, labels
        As in :func:`lightgbm_metric`. Multiclass probabilities come from
        ``multi:softprob``.

    Returns
    -------
    callable
        ``metric(predt, dmatrix) -> (name, value)`` or
        ``metric(y_true, y_pred) -> value``.

    Examples
    --------
    >>> import numpy as np
    >>> from concord.ml import xgboost_metric
    >>> metric = xgboost_metric()  # rounded half up: grades 1, 3, 3, 3
    >>> metric(np.array([1, 2, 3, 3]), np.array([1.2, 2.5, 2.7, 3.1]))
    0.8333333333333334
    """
    value = _metric(thresholds, weights, labels, "xgboost_metric")

    def metric(a: Any, b: Any, sample_weight: Any = None) -> Any:
        if hasattr(b, "get_label"):
            return value.__name__, value(a, b)
        return value(a, b, sample_weight)

    metric.__name__ = value.__name__
    return metric
