"""Defaults of concord.ml and ThresholdClassifier that do not mislead (issue 24, item 12).

* ``kappa_scorer()`` is quadratic, as every other ML helper;
* ``ThresholdClassifier(regressor=...)`` fits its cut points on the regressor's out-of-fold
  predictions (``cv``), as scikit-learn's ``TunedThresholdClassifierCV`` does for a binary
  threshold; the references below are scikit-learn's own ``cross_val_predict`` and
  ``cohen_kappa_score``;
* ``concord thresholds`` says that its cross-validated kappa is honest only for
  out-of-sample scores.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sklearn")

from click.testing import CliRunner
from sklearn.base import BaseEstimator, RegressorMixin, clone
from sklearn.linear_model import Ridge
from sklearn.metrics import cohen_kappa_score
from sklearn.model_selection import KFold, StratifiedKFold, cross_val_predict
from sklearn.neighbors import KNeighborsRegressor

import concord
from concord._cli.main import main
from concord.ml import kappa_scorer


class _Fixed(RegressorMixin, BaseEstimator):  # type: ignore[misc]
    """An estimator that predicts fixed grades."""

    def __init__(self, grades: np.ndarray) -> None:
        self.grades = grades

    def predict(self, x: object) -> np.ndarray:
        return self.grades


def _data(seed: int, n: int = 400) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 5))
    latent = x[:, 0] + 0.6 * x[:, 1] + 0.8 * rng.normal(size=n)
    return x, np.digitize(latent, [-1.2, -0.4, 0.4, 1.2]) + 1


def test_kappa_scorer_is_quadratic_by_default() -> None:
    rng = np.random.default_rng(0)
    y_true = rng.integers(1, 6, 200)
    y_pred = np.clip(y_true + rng.integers(-2, 3, 200), 1, 5)
    default = kappa_scorer()(_Fixed(y_pred), None, y_true)
    # scikit-learn's QWK on consecutive integer grades is the reference
    assert default == pytest.approx(cohen_kappa_score(y_true, y_pred, weights="quadratic"), 1e-12)
    unweighted = kappa_scorer(weights=None)(_Fixed(y_pred), None, y_true)
    assert unweighted == pytest.approx(cohen_kappa_score(y_true, y_pred), 1e-12)
    assert abs(default - unweighted) > 0.1  # the two defaults would rank models differently


def test_the_ml_helpers_share_one_default() -> None:
    import inspect

    from concord import ml

    for name in ("kappa_scorer", "threshold_kappa_scorer"):
        assert inspect.signature(getattr(ml, name)).parameters["weights"].default == "quadratic"
    assert inspect.signature(concord.ThresholdClassifier).parameters["weights"].default == (
        "quadratic"
    )


def test_cut_points_are_fitted_on_out_of_fold_predictions() -> None:
    x, y = _data(1)
    model = concord.ThresholdClassifier(regressor=Ridge()).fit(x, y)
    # the reference: scikit-learn's out-of-fold predictions, 5 stratified folds (unshuffled)
    held_out = cross_val_predict(Ridge(), x, y, cv=StratifiedKFold(5))
    expected = concord.optimize_thresholds(y, held_out)
    np.testing.assert_array_equal(model.thresholds_, expected.thresholds)
    assert model.cv == 5
    # and not on the in-sample predictions (the old behaviour)
    in_sample = concord.optimize_thresholds(y, Ridge().fit(x, y).predict(x))
    assert not np.array_equal(model.thresholds_, in_sample.thresholds)
    # new data are graded by the regressor refitted on all of X
    refit = Ridge().fit(x, y)
    np.testing.assert_array_equal(model.predict(x[:50]), expected.apply(refit.predict(x[:50])))


def test_cv_takes_a_splitter_and_prefit() -> None:
    x, y = _data(2)
    folds = KFold(4, shuffle=True, random_state=0)
    model = concord.ThresholdClassifier(regressor=Ridge(), cv=folds).fit(x, y)
    expected = concord.optimize_thresholds(y, cross_val_predict(Ridge(), x, y, cv=folds))
    np.testing.assert_array_equal(model.thresholds_, expected.thresholds)
    # prefit: a regressor fitted elsewhere; X is the calibration data
    fitted = Ridge().fit(x[:200], y[:200])
    calibrated = concord.ThresholdClassifier(regressor=fitted, cv="prefit").fit(x[200:], y[200:])
    assert calibrated.regressor_ is fitted
    expected = concord.optimize_thresholds(y[200:], fitted.predict(x[200:]))
    np.testing.assert_array_equal(calibrated.thresholds_, expected.thresholds)
    with pytest.raises(ValueError, match="'cv' parameter of ThresholdClassifier"):
        concord.ThresholdClassifier(regressor=Ridge(), cv="in-sample").fit(x, y)


def test_the_fitted_kappa_is_what_new_data_get() -> None:
    # a flexible regressor (3 nearest neighbours) fits its training grades far better than
    # new ones: the kappa of cut points fitted on its in-sample scores is a promise new data
    # do not keep; fitted on out-of-fold scores, it is about what new data get
    x, y = _data(3, n=1200)
    train, test = slice(0, 800), slice(800, None)
    knn = KNeighborsRegressor(n_neighbors=3)
    honest = concord.ThresholdClassifier(regressor=knn).fit(x[train], y[train])
    # cv="prefit" on the training data is the former behaviour: in-sample scores
    fitted = clone(knn).fit(x[train], y[train])
    naive = concord.ThresholdClassifier(regressor=fitted, cv="prefit").fit(x[train], y[train])
    new_honest = concord.quadratic_weighted_kappa(y[test], honest.predict(x[test]))
    new_naive = concord.quadratic_weighted_kappa(y[test], naive.predict(x[test]))
    assert naive.result_.statistic > new_naive + 0.1  # the in-sample promise overstates
    # here 0.837 promised, 0.715 got in-sample; 0.681 promised, 0.707 got out of fold
    assert abs(honest.result_.statistic - new_honest) < 0.05  # within sampling error
    assert naive.result_.statistic - new_naive > 3 * abs(honest.result_.statistic - new_honest)


def test_without_a_regressor_the_scores_are_cut_as_given() -> None:
    x, y = _data(4)
    scores = x[:, :1] + 0.6 * x[:, 1:2]
    model = concord.ThresholdClassifier(cv=3).fit(scores, y)
    expected = concord.optimize_thresholds(y, scores[:, 0])
    np.testing.assert_array_equal(model.thresholds_, expected.thresholds)


def test_the_cli_says_when_its_cross_validated_kappa_is_honest(tmp_path) -> None:
    rows = ["truth,score"] + [f"{t},{t + 0.3 * ((i * 7) % 5 - 2)}" for i, t in
                              enumerate([1, 2, 3, 4] * 10)]  # fmt: skip
    path = tmp_path / "s.csv"
    path.write_text("\n".join(rows) + "\n")
    out = CliRunner().invoke(main, ["thresholds", str(path), "--truth", "truth", "--score",
                                    "score", "--seed", "0"])  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "report this one" not in out.output
    assert "5-fold cross-validated" in out.output
    assert "out of sample" in out.output and "own training data overstate" in out.output
