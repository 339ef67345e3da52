"""concord.ml's scikit-learn scorers: kappa_scorer and threshold_kappa_scorer."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import concord
from concord.ml import kappa_scorer, threshold_kappa_scorer

sklearn = pytest.importorskip("sklearn", reason="scikit-learn is not installed")
from sklearn.base import BaseEstimator, RegressorMixin  # noqa: E402
from sklearn.linear_model import LogisticRegression, Ridge  # noqa: E402
from sklearn.metrics import cohen_kappa_score, make_scorer  # noqa: E402
from sklearn.model_selection import (  # noqa: E402
    GridSearchCV,
    KFold,
    StratifiedKFold,
    cross_val_predict,
    cross_val_score,
    cross_validate,
)


def _grades(seed: int, n: int = 240) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3))
    y = np.digitize(x[:, 0] + 0.6 * rng.normal(size=n), [-1.0, -0.3, 0.3, 1.0]) + 1
    return x, y


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_kappa_scorer_equals_sklearns_scorer_in_cross_validation(weights: str | None) -> None:
    # the reference: scikit-learn's own cohen_kappa_score (weights on positions), which on
    # consecutive integer grades 1..5 weighs as concord does (on values)
    x, y = _grades(0)
    model = LogisticRegression(max_iter=500)
    cv = KFold(5, shuffle=True, random_state=0)
    ours = cross_val_score(model, x, y, cv=cv, scoring=kappa_scorer(weights=weights))
    theirs = cross_val_score(
        model, x, y, cv=cv, scoring=make_scorer(cohen_kappa_score, weights=weights)
    )
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    assert not np.isnan(ours).any()


def test_kappa_scorer_in_grid_search_picks_sklearns_best() -> None:
    x, y = _grades(1)
    grid = {"C": [0.001, 0.1, 10.0]}
    runs = [
        GridSearchCV(LogisticRegression(max_iter=500), grid, cv=4, scoring=s).fit(x, y)
        for s in (
            kappa_scorer(weights="quadratic"),
            make_scorer(cohen_kappa_score, weights="quadratic"),
        )
    ]
    assert runs[0].best_params_ == runs[1].best_params_
    assert runs[0].best_score_ == pytest.approx(runs[1].best_score_, abs=1e-12)


def _skll_kappa(y_true: np.ndarray, y_pred: np.ndarray, weights: str | None) -> float:
    """SKLL's ``kappa(..., allow_off_by_one=True)`` (skll/metrics.py), from its definition.

    Ratings are shifted to start at 0 over the range min..max of both; the
    difference of two ratings, minus one if non-zero, is the disagreement
    (squared for quadratic, the difference for linear, non-zero for unweighted).
    """
    lo, hi = min(y_true.min(), y_pred.min()), max(y_true.max(), y_pred.max())
    k = int(hi - lo + 1)
    observed = np.zeros((k, k))
    np.add.at(observed, (y_true - lo, y_pred - lo), 1)
    diff = np.abs(np.arange(k)[:, None] - np.arange(k)[None, :])
    diff = np.where(diff > 0, diff - 1, 0)
    w = {None: (diff > 0).astype(float), "linear": diff, "quadratic": diff**2}[weights]
    expected = np.outer(observed.sum(1), observed.sum(0)) / observed.sum()
    return float(1 - (w * observed).sum() / (w * expected).sum())


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_tolerance_one_is_sklls_off_by_one(weights: str | None) -> None:
    rng = np.random.default_rng(2)
    y_true = rng.integers(1, 7, 300)
    y_pred = np.clip(y_true + rng.integers(-3, 4, 300), 1, 6)
    estimator = _Fixed(y_pred)
    ours = kappa_scorer(weights=weights, tolerance=1)(estimator, None, y_true)
    assert ours == pytest.approx(_skll_kappa(y_true, y_pred, weights), abs=1e-12)
    # and adjacent grades now agree: tolerance 1 beats tolerance 0 here
    assert ours > kappa_scorer(weights=weights)(estimator, None, y_true)


def test_tolerance_counts_adjacent_grades_as_agreement_exactly() -> None:
    # by hand: every prediction is off by one, so with tolerance 1 there is no disagreement
    y_true = np.array([1, 2, 3, 4, 5, 1, 2, 3])
    y_pred = np.array([2, 1, 4, 3, 4, 2, 3, 2])
    assert kappa_scorer(weights="quadratic", tolerance=1)(_Fixed(y_pred), None, y_true) == 1.0


def test_tolerance_rejects_weights_it_cannot_shift() -> None:
    # when the scorer is made: inside cross-validation scikit-learn turns errors into nan
    with pytest.raises(ValueError, match="'weights' parameter of kappa_scorer"):
        kappa_scorer(weights="ordinal", tolerance=1)
    with pytest.raises(ValueError, match="'weights' parameter of kappa_scorer"):
        kappa_scorer(weights="quadratc")
    with pytest.raises(ValueError, match="'weights' parameter of threshold_kappa_scorer"):
        threshold_kappa_scorer(weights="quadratc")
    with pytest.raises(ValueError, match="'tolerance' parameter of kappa_scorer"):
        kappa_scorer(tolerance=-1)


class _Fixed(RegressorMixin, BaseEstimator):  # type: ignore[misc]
    """An estimator whose predictions are given: the scorer sees them as a classifier's."""

    def __init__(self, predictions: np.ndarray) -> None:
        self.predictions = predictions

    def predict(self, x: object) -> np.ndarray:
        return self.predictions


def test_the_reported_trap_gives_nan_and_float_of_the_result_works() -> None:
    # make_scorer(concord.cohen_kappa) multiplies a result object by the scorer's sign:
    # scikit-learn catches the TypeError and scores nan (issue 17). Results convert with
    # float(); the decision is not to make them numbers (see kappa_scorer's docstring).
    x, y = _grades(3)
    model = LogisticRegression(max_iter=500)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        trap = cross_val_score(
            model, x, y, cv=3, scoring=make_scorer(concord.cohen_kappa, weights="quadratic")
        )
    assert np.isnan(trap).all()
    result = concord.cohen_kappa(y, y[::-1], weights="quadratic")
    assert float(result) == result.statistic


def test_threshold_scorer_fits_cut_points_on_the_training_fold_only() -> None:
    rng = np.random.default_rng(4)
    x = rng.normal(size=(300, 4))
    y = np.clip(np.rint(3 + x[:, 0] + 0.5 * rng.normal(size=300)), 1, 5).astype(int)
    cv = KFold(3, shuffle=True, random_state=0)
    model = concord.ThresholdClassifier(regressor=Ridge())
    out = cross_validate(
        model, x, y, cv=cv, scoring=threshold_kappa_scorer(), return_estimator=True
    )
    for (train, test), fitted, score in zip(
        cv.split(x), out["estimator"], out["test_score"], strict=True
    ):
        # the reference: optimize_thresholds on the training fold's out-of-fold predictions
        # (ThresholdClassifier's cv=5: stratified, unshuffled), the regressor refitted on it
        held = cross_val_predict(Ridge(), x[train], y[train], cv=StratifiedKFold(5))
        cuts = concord.optimize_thresholds(y[train], held)
        regressor = Ridge().fit(x[train], y[train])
        np.testing.assert_array_equal(fitted.thresholds_, cuts.thresholds)
        held_out = cuts.apply(regressor.predict(x[test]))
        assert score == concord.quadratic_weighted_kappa(y[test], held_out)
    # scrambling the held-out targets changes the scores, not the cut points
    scrambled = y.copy()
    first_train, first_test = next(iter(cv.split(x)))
    scrambled[first_test] = rng.permutation(scrambled[first_test])
    again = cross_validate(
        model, x, scrambled, cv=cv, scoring=threshold_kappa_scorer(), return_estimator=True
    )
    assert (scrambled[first_train] == y[first_train]).all()
    np.testing.assert_array_equal(
        again["estimator"][0].thresholds_, out["estimator"][0].thresholds_
    )
    assert again["test_score"][0] != out["test_score"][0]


def test_threshold_scorer_refuses_a_bare_regressor() -> None:
    x, y = _grades(5)
    with pytest.raises(ValueError, match="ThresholdClassifier"):
        threshold_kappa_scorer()(Ridge().fit(x, y), x, y)


def test_threshold_scorer_in_a_pipeline() -> None:
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    x, y = _grades(6)
    pipe = make_pipeline(StandardScaler(), concord.ThresholdClassifier(regressor=Ridge()))
    scores = cross_val_score(pipe, x, y, cv=3, scoring=threshold_kappa_scorer())
    assert (scores > 0.5).all()
