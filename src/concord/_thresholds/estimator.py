"""A scikit-learn estimator that cuts scores into grades at the kappa-optimal thresholds.

This module imports scikit-learn; ``concord.ThresholdClassifier`` loads it on
first use, so ``import concord`` does not need scikit-learn.
"""

from __future__ import annotations

from typing import Any

from concord._common.extras import require

require("sklearn", "ml", "concord.ThresholdClassifier")  # without it: one line naming the extra

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import check_cv, cross_val_predict
from sklearn.utils.validation import check_is_fitted

from concord._coefficients.kappa.cohen import cohen_kappa
from concord._common.errors import param_error
from concord._thresholds.optimize import optimize_thresholds


class ThresholdClassifier(ClassifierMixin, BaseEstimator):  # type: ignore[misc]
    """Grade continuous scores with the cut points that maximise weighted kappa.

    ``fit(X, y)`` finds the cut points of :func:`optimize_thresholds`;
    ``predict(X)`` grades new scores with them; ``score(X, y)`` is the kappa.
    X is one column of scores; or, with ``regressor``, the features of a
    regressor whose predictions are cut. It works in pipelines,
    ``GridSearchCV`` and ``cross_val_predict``.

    With a regressor, the cut points are fitted on its *out-of-fold*
    predictions (``cv``), as scikit-learn's ``TunedThresholdClassifierCV``
    tunes a binary threshold: a regressor's predictions on its own training
    data fit the truth better than its predictions on new data will, and cut
    points fitted on them are too narrow. The regressor is then refitted on
    all of X to grade new data.

    Parameters
    ----------
    weights : None, str or array-like (k, k)
        As in :func:`cohen_kappa`; default quadratic.
    labels : sequence, optional
        The ordered grades; default the distinct values of y.
    regressor : estimator, optional
        A scikit-learn regressor whose predictions are the scores.
    cv : int, splitter, iterable, "prefit" or None, default 5
        Only with ``regressor``: the folds of the out-of-fold predictions the
        cut points are fitted on (``sklearn.model_selection.cross_val_predict``;
        an int or None, 5 folds, is ``StratifiedKFold`` on y, unshuffled, as in
        ``TunedThresholdClassifierCV``). ``"prefit"``: the regressor is
        already fitted, on other data; X is held-out data for the cut points.
        Without ``regressor`` the scores are cut as given (make them
        out-of-sample predictions) and ``cv`` is not used.

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
        self,
        weights: Any = "quadratic",
        labels: Any = None,
        regressor: Any = None,
        cv: Any = 5,
    ) -> None:
        self.weights = weights
        self.labels = labels
        self.regressor = regressor
        self.cv = cv

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

    def _fit_scores(self, x: Any, y: Any) -> np.ndarray:
        """Return the scores the cut points are fitted on, fitting the regressor (if any)."""
        if self.regressor is None:
            return self._scores(x)
        if isinstance(self.cv, str):
            if self.cv != "prefit":
                param_error(
                    "ThresholdClassifier", "cv", "an int, a splitter, None or 'prefit'", self.cv
                )
            check_is_fitted(self.regressor)
            self.regressor_ = self.regressor
            return self._scores(x)
        folds = check_cv(5 if self.cv is None else self.cv, y, classifier=True)
        held_out = cross_val_predict(clone(self.regressor), x, y, cv=folds)
        self.regressor_ = clone(self.regressor).fit(x, y)
        return np.asarray(held_out, dtype=np.float64).ravel()

    def fit(self, x: Any, y: Any, sample_weight: Any = None) -> ThresholdClassifier:
        """Fit the kappa-optimal cut points (on out-of-fold predictions), then the regressor."""
        self.result_ = optimize_thresholds(
            y,
            self._fit_scores(x, y),
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
