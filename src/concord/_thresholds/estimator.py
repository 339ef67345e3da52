"""A scikit-learn estimator that cuts scores into grades at the kappa-optimal thresholds.

This module imports scikit-learn; ``concord.ThresholdClassifier`` loads it on
first use, so ``import concord`` does not need scikit-learn.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import check_is_fitted

from concord._coefficients.cohen import cohen_kappa
from concord._thresholds.optimize import optimize_thresholds


class ThresholdClassifier(ClassifierMixin, BaseEstimator):  # type: ignore[misc]
    """Grade continuous scores with the cut points that maximise weighted kappa.

    ``fit(X, y)`` finds the cut points of :func:`optimize_thresholds`;
    ``predict(X)`` grades new scores with them; ``score(X, y)`` is the kappa.
    X is one column of scores; or, with ``regressor``, the features of a
    regressor that is fitted first and whose predictions are cut. It works in
    pipelines, ``GridSearchCV`` and ``cross_val_predict``.

    Parameters
    ----------
    weights : None, str or array-like (k, k)
        As in :func:`cohen_kappa`; default quadratic.
    labels : sequence, optional
        The ordered grades; default the distinct values of y.
    regressor : estimator, optional
        A scikit-learn regressor whose predictions are the scores.

    Attributes
    ----------
    thresholds_ : numpy.ndarray
        The fitted cut points.
    classes_ : numpy.ndarray
        The grades.
    result_ : ThresholdResult
        The full result of the fit.

    Examples
    --------
    >>> import numpy as np, concord
    >>> from sklearn.model_selection import cross_val_predict
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(1, 6, 300)
    >>> scores = (y + rng.normal(0, 0.7, 300)).reshape(-1, 1)
    >>> grades = cross_val_predict(concord.ThresholdClassifier(), scores, y, cv=5)
    >>> bool(concord.quadratic_weighted_kappa(y, grades) > 0.8)
    True
    """

    def __init__(
        self, weights: Any = "quadratic", labels: Any = None, regressor: Any = None
    ) -> None:
        self.weights = weights
        self.labels = labels
        self.regressor = regressor

    def _scores(self, x: Any) -> np.ndarray:
        if self.regressor is not None:
            return np.asarray(self.regressor_.predict(x), dtype=np.float64).ravel()
        array = np.asarray(x, dtype=np.float64)
        if array.ndim == 2 and array.shape[1] == 1:
            array = array[:, 0]
        if array.ndim != 1:
            raise ValueError(
                "ThresholdClassifier needs one column of scores (X of shape (n, 1)); got shape "
                f"{array.shape}. To grade a model's predictions, pass regressor=... instead."
            )
        return array

    def fit(self, x: Any, y: Any, sample_weight: Any = None) -> ThresholdClassifier:
        """Fit the regressor (if any), then the kappa-optimal cut points."""
        if self.regressor is not None:
            self.regressor_ = clone(self.regressor).fit(x, y)
        self.result_ = optimize_thresholds(
            y,
            self._scores(x),
            labels=self.labels,
            weights=self.weights,
            sample_weight=sample_weight,
        )
        self.thresholds_ = self.result_.thresholds
        self.classes_ = np.asarray(self.result_.labels)
        return self

    def predict(self, x: Any) -> np.ndarray:
        """Return the grade of each score."""
        check_is_fitted(self, "thresholds_")
        return self.result_.apply(self._scores(x))

    def score(self, x: Any, y: Any, sample_weight: Any = None) -> float:
        """Return the weighted kappa of the predicted grades against y."""
        predicted = self.predict(x)
        labels = list(self.result_.labels)
        return cohen_kappa(
            y, predicted, weights=self.weights, labels=labels, sample_weight=sample_weight
        ).statistic
