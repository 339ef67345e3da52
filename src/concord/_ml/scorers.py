"""scikit-learn scorers of weighted kappa, for grades and for cut regressors' scores.

scikit-learn is imported inside the functions: ``import concord.ml`` does not
need it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from concord._coefficients.kappa.cohen import cohen_kappa
from concord._common.errors import check_option, param_error
from concord._common.extras import require
from concord._tables.weights import KINDS

# kinds whose disagreement is a function of the difference of the two grades' scores
_DIFFERENCE_KINDS = {"unweighted": 0, "linear": 1, "quadratic": 2}


def tolerant_weights(labels: Any, kind: Any, tolerance: int, func: str) -> np.ndarray:
    """Return the disagreement matrix with differences up to ``tolerance`` counted as agreement.

    The difference d = |x_i − x_j| of two grades' scores (the labels
    themselves when they are numbers, their positions otherwise) becomes
    max(d − tolerance, 0) before the kind's function applies: [d > 0],
    d or d². This is SKLL's ``allow_off_by_one`` (tolerance 1) on integer grades.
    """
    name = "unweighted" if kind is None else kind
    if not isinstance(name, str) or name not in _DIFFERENCE_KINDS:
        param_error(
            func,
            "weights",
            "None, 'unweighted', 'linear' or 'quadratic' when tolerance > 0",
            kind,
            fix="Pass tolerance=0 to use other weights.",
        )
    values = np.asarray(labels)
    scores = values.astype(np.float64) if values.dtype.kind in "iuf" else np.arange(values.size)
    d = np.maximum(np.abs(scores[:, None] - scores[None, :]) - tolerance, 0.0)
    power = _DIFFERENCE_KINDS[name]
    out: np.ndarray = (d > 0).astype(np.float64) if power == 0 else d**power
    return out


def check_weights(weights: Any, func: str) -> None:
    """Check named weights when the scorer is made: inside cross-validation errors become nan."""
    if isinstance(weights, str):
        check_option(func, "weights", weights, KINDS)


def _check_tolerance(tolerance: Any, weights: Any, func: str) -> int:
    if isinstance(tolerance, bool) or not isinstance(tolerance, int | np.integer) or tolerance < 0:
        param_error(func, "tolerance", "a non-negative integer", tolerance)
    if tolerance:
        tolerant_weights([0, 1], weights, int(tolerance), func)  # raises for other weights
    return int(tolerance)


def kappa_score(
    y_true: Any,
    y_pred: Any,
    *,
    weights: Any = "quadratic",
    labels: Any = None,
    tolerance: int = 0,
    sample_weight: Any = None,
) -> float:
    """Return weighted kappa as a float (the score function of :func:`kappa_scorer`)."""
    if tolerance:
        if labels is None:
            labels = np.unique(np.concatenate([np.ravel(y_true), np.ravel(y_pred)]))
            if labels.dtype.kind not in "biuf":  # text: its order must be declared
                from concord._data.labels import Labels

                name = "unweighted" if weights is None else str(weights)
                Labels(tuple(labels.tolist()), ordered=False).scores("kappa_scorer", name)
        weights = tolerant_weights(labels, weights, tolerance, "kappa_scorer")
    result = cohen_kappa(
        y_true, y_pred, weights=weights, labels=labels, sample_weight=sample_weight
    )
    return float(result.statistic)


def kappa_scorer(*, weights: Any = "quadratic", labels: Any = None, tolerance: int = 0) -> Any:
    """Return a scikit-learn scorer of weighted kappa for a classifier's grades.

    Pass it as ``scoring=`` to ``GridSearchCV``, ``cross_val_score`` or
    ``cross_validate``; higher is better. Quadratic weights by default, as
    every ML helper of concord (``weights=None`` for unweighted κ). It
    equals ``make_scorer(cohen_kappa_score, weights="quadratic")`` on
    consecutive integer grades (scikit-learn weighs label positions, concord
    the label values: they differ on gapped grades such as 1, 2, 4).
    ``make_scorer(concord.cohen_kappa, ...)`` does not work: the function returns
    a result object, which scikit-learn cannot multiply by the scorer's sign,
    so every fold scores nan. Use this scorer (or ``float(result)``).

    scikit-learn has no registry for third-party scorer names, so there is no
    ``scoring="qwk"`` string: pass the callable.

    Parameters
    ----------
    weights : None, str or array-like (k, k)
        As in :func:`concord.cohen_kappa`; default quadratic (QWK). None
        is unweighted κ.
    labels : sequence, optional
        The ordered grades; default the sorted distinct values of both
        the true and the predicted grades of each fold.
    tolerance : int, default 0
        Grades whose difference is at most ``tolerance`` count as agreement:
        the difference d of two grades' scores (the labels when they are
        numbers, their positions otherwise) becomes max(d − tolerance, 0)
        before the weighting (``[d > 0]``, d or d²) applies. ``tolerance=1``
        is SKLL's "off by one" kappa (``qwk_off_by_one`` and the like).
        Only for unweighted, linear and quadratic weights.

    Returns
    -------
    callable
        A scorer ``scorer(estimator, X, y, sample_weight=None) -> float``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import cross_val_score
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from concord.ml import kappa_scorer
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> y = np.digitize(X[:, 0] + 0.3 * rng.normal(size=200), [-1, 0, 1]) + 1
    >>> scores = cross_val_score(
    ...     DecisionTreeClassifier(max_depth=3, random_state=0), X, y, cv=4,
    ...     scoring=kappa_scorer())
    >>> bool(scores.min() > 0.7)
    True
    """
    make_scorer = require("sklearn.metrics", "ml", "concord.ml.kappa_scorer").make_scorer
    check_weights(weights, "kappa_scorer")
    tolerance = _check_tolerance(tolerance, weights, "kappa_scorer")
    return make_scorer(kappa_score, weights=weights, labels=labels, tolerance=tolerance)


def _threshold_step(estimator: Any) -> Any:
    """Return the step that holds fitted cut points: the estimator or a pipeline's last step."""
    last = estimator.steps[-1][1] if hasattr(estimator, "steps") else estimator
    return last if hasattr(last, "thresholds_") else None


def threshold_kappa_scorer(*, weights: Any = "quadratic", labels: Any = None) -> Any:
    """Return a scorer of weighted kappa for a regressor cut at the training fold's cut points.

    A scikit-learn scorer sees only the held-out fold (estimator, X, y), so
    the cut points cannot be fitted inside it without fitting them on the
    data being scored. They are fitted where the training fold is seen, in
    ``fit``: wrap the regressor in :class:`concord.ThresholdClassifier`
    (``ThresholdClassifier(regressor=Ridge())``), whose ``fit`` fits
    :func:`concord.optimize_thresholds` on the regressor's out-of-fold
    predictions within the training fold (its ``cv``), then the regressor on
    the whole training fold. This scorer grades the held-out predictions at
    those cut points and returns the kappa. It refuses an estimator without
    fitted cut points (a bare regressor), rather than fit them on held-out data.

    Parameters
    ----------
    weights : None, str or array-like (k, k)
        As in :func:`concord.cohen_kappa`; default quadratic.
    labels : sequence, optional
        The ordered grades; default the sorted distinct values of the true
        and the predicted grades of each fold.

    Returns
    -------
    callable
        A scorer ``scorer(estimator, X, y, sample_weight=None) -> float``.

    Examples
    --------
    >>> import numpy as np, concord
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn.model_selection import GridSearchCV
    >>> from concord.ml import threshold_kappa_scorer
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 4))
    >>> y = np.clip(np.rint(3 + X[:, 0] + 0.5 * rng.normal(size=300)), 1, 5).astype(int)
    >>> search = GridSearchCV(
    ...     concord.ThresholdClassifier(regressor=Ridge()),
    ...     {"regressor__alpha": [0.1, 10.0]}, cv=3, scoring=threshold_kappa_scorer())
    >>> bool(search.fit(X, y).best_score_ > 0.7)
    True
    """
    check_weights(weights, "threshold_kappa_scorer")

    def scorer(estimator: Any, x: Any, y: Any, sample_weight: Any = None) -> float:
        step = _threshold_step(estimator)
        if step is None:
            param_error(
                "threshold_kappa_scorer",
                "estimator",
                "an estimator with cut points fitted on the training fold (thresholds_)",
                type(estimator).__name__,
                raw=True,
                fix="Wrap the regressor: concord.ThresholdClassifier(regressor=...).",
            )
        grades = estimator.predict(x)
        return kappa_score(y, grades, weights=weights, labels=labels, sample_weight=sample_weight)

    return scorer
