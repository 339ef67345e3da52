"""concord.ml's LightGBM/XGBoost eval metrics and the QWK objective, in the real libraries."""

from __future__ import annotations

import numpy as np
import pytest

import concord
from concord._ml.objective import gradient_hessian
from concord.ml import lightgbm_metric, qwk_objective, xgboost_metric

NO_LIGHTGBM = "LightGBM is not installed (pip install lightgbm; no wheel for this platform?)"
NO_XGBOOST = "XGBoost is not installed (pip install xgboost; no wheel for this platform?)"


def _essays(seed: int, n: int = 400) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 5))
    y = np.clip(np.rint(3.5 + 1.2 * x[:, 0] + 0.5 * x[:, 1] + 0.6 * rng.normal(size=n)), 1, 6)
    return x, y.astype(np.int64)


def _half_up(preds: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.clip(np.floor(preds + 0.5), y.min(), y.max()).astype(np.int64)


@pytest.mark.parametrize("thresholds", [None, "optimal", [1.5, 2.5, 3.4, 4.6, 5.5]])
def test_metrics_equal_qwk_after_the_same_cut_points(thresholds: object) -> None:
    rng = np.random.default_rng(0)
    y = rng.integers(1, 7, 500)
    preds = y + rng.normal(0, 0.8, 500)
    if thresholds is None:
        grades = _half_up(preds, y)
    elif thresholds == "optimal":
        grades = concord.optimize_thresholds(y, preds).apply(preds)
    else:
        grades = 1 + np.searchsorted(np.asarray(thresholds), preds, side="left")
    expected = concord.quadratic_weighted_kappa(y, grades)
    assert lightgbm_metric(thresholds=thresholds)(y, preds) == ("qwk", expected, True)
    assert xgboost_metric(thresholds=thresholds)(y, preds) == expected


def test_optimal_cut_points_score_at_least_rounding() -> None:
    rng = np.random.default_rng(1)
    y = rng.integers(1, 7, 300)
    preds = 0.7 * y + rng.normal(0, 0.6, 300)  # shrunk towards the mean, as regressors are
    optimal = xgboost_metric(thresholds="optimal")(y, preds)
    assert optimal > xgboost_metric()(y, preds)
    assert optimal == concord.optimize_thresholds(y, preds).statistic


def test_other_weights_and_bad_thresholds() -> None:
    y = np.array([1, 2, 3, 3, 2])
    preds = np.array([1.1, 2.4, 2.6, 3.0, 1.4])
    name, value, better = lightgbm_metric(weights="linear")(y, preds)
    assert (name, better) == ("kappa", True)
    assert value == concord.cohen_kappa(y, [1, 2, 3, 3, 1], weights="linear").statistic
    with pytest.raises(ValueError, match="'weights' parameter of xgboost_metric"):
        xgboost_metric(weights="quadratc")
    with pytest.raises(ValueError, match="'thresholds' parameter of lightgbm_metric"):
        lightgbm_metric(thresholds=[2.5, 1.5])
    with pytest.raises(ValueError, match="'labels' parameter of xgboost_metric"):
        xgboost_metric(thresholds=[1.5])(y, preds)  # three grades, one cut point


def test_weights_as_a_matrix() -> None:
    # the documented k×k array raised "truth value of an array ... is ambiguous"
    y = np.array([1, 2, 3, 3, 2])
    preds = np.array([1.1, 2.4, 2.6, 3.0, 1.4])
    w = concord.weight_matrix(3, "linear")
    expected = concord.cohen_kappa(y, [1, 2, 3, 3, 1], weights=w).statistic
    assert lightgbm_metric(weights=w)(y, preds) == ("kappa", expected, True)
    assert xgboost_metric(weights=w)(y, preds) == expected


@pytest.mark.filterwarnings("ignore:The argument .eval_set. is deprecated")
def test_lightgbm_feval_and_sklearn_api() -> None:
    lgb = pytest.importorskip("lightgbm", reason=NO_LIGHTGBM)
    x, y = _essays(2)
    train, valid = slice(0, 300), slice(300, None)
    dtrain = lgb.Dataset(x[train], y[train])
    dvalid = lgb.Dataset(x[valid], y[valid], reference=dtrain)
    history: dict[str, dict[str, list[float]]] = {}
    booster = lgb.train(
        {"objective": "regression", "verbose": -1, "num_leaves": 7, "metric": "None"},
        dtrain,
        num_boost_round=20,
        valid_sets=[dvalid],
        valid_names=["valid"],
        feval=lightgbm_metric(),
        callbacks=[lgb.record_evaluation(history)],
    )
    last = history["valid"]["qwk"][-1]
    assert last == concord.quadratic_weighted_kappa(
        y[valid], _half_up(booster.predict(x[valid]), y[valid])
    )
    assert last > 0.6
    model = lgb.LGBMRegressor(n_estimators=20, num_leaves=7, verbose=-1)
    model.fit(x[train], y[train], eval_set=[(x[valid], y[valid])], eval_metric=lightgbm_metric())
    scores = model.evals_result_["valid_0"]["qwk"]
    assert scores[-1] == concord.quadratic_weighted_kappa(
        y[valid], _half_up(model.predict(x[valid]), y[valid])
    )


def test_lightgbm_multiclass_probabilities() -> None:
    lgb = pytest.importorskip("lightgbm", reason=NO_LIGHTGBM)
    x, y = _essays(3)
    classes = y - 1  # LightGBM's classes are 0..k-1
    data = lgb.Dataset(x, classes)
    history: dict[str, dict[str, list[float]]] = {}
    booster = lgb.train(
        {"objective": "multiclass", "num_class": 6, "verbose": -1, "metric": "None"},
        data,
        num_boost_round=5,
        valid_sets=[data],
        valid_names=["train"],
        feval=lightgbm_metric(),
        callbacks=[lgb.record_evaluation(history)],
    )
    grades = booster.predict(x).argmax(axis=1)
    assert history["train"]["qwk"][-1] == concord.quadratic_weighted_kappa(classes, grades)


def test_xgboost_custom_metric_and_sklearn_api() -> None:
    xgb = pytest.importorskip("xgboost", reason=NO_XGBOOST)
    x, y = _essays(4)
    train, valid = slice(0, 300), slice(300, None)
    dtrain = xgb.DMatrix(x[train], label=y[train])
    dvalid = xgb.DMatrix(x[valid], label=y[valid])
    history: dict[str, dict[str, list[float]]] = {}
    booster = xgb.train(
        {"max_depth": 3, "disable_default_eval_metric": 1},
        dtrain,
        num_boost_round=20,
        evals=[(dvalid, "valid")],
        custom_metric=xgboost_metric(thresholds="optimal"),
        maximize=True,
        evals_result=history,
    )
    preds = booster.predict(dvalid)
    best = concord.optimize_thresholds(y[valid], preds)
    expected = concord.quadratic_weighted_kappa(y[valid], best.apply(preds))
    # XGBoost logs the metric as a float32-formatted number: compare to its precision
    assert history["valid"]["qwk"][-1] == pytest.approx(expected, abs=1e-6)
    model = xgb.XGBRegressor(n_estimators=20, max_depth=3, eval_metric=xgboost_metric())
    model.fit(x[train], y[train], eval_set=[(x[valid], y[valid])], verbose=False)
    logged = model.evals_result()["validation_0"]["qwk"][-1]
    graded = _half_up(model.predict(x[valid]), y[valid])
    assert logged == pytest.approx(concord.quadratic_weighted_kappa(y[valid], graded), abs=1e-6)


def _surrogate(y: np.ndarray, pred: np.ndarray, w: np.ndarray) -> float:
    """W·N/D written out pair by pair: (1/W) Σ_a Σ_b w_a w_b (y_a − ŷ_b)² is D."""
    total = w.sum()
    n = (w * (y - pred) ** 2).sum()
    d = (w[:, None] * w[None, :] * (y[:, None] - pred[None, :]) ** 2).sum() / total
    return float(total * n / d)


@pytest.mark.parametrize("weighted", [False, True])
def test_objective_gradient_and_hessian_equal_finite_differences(weighted: bool) -> None:
    rng = np.random.default_rng(5)
    y = rng.integers(1, 6, 40).astype(np.float64)
    pred = y + rng.normal(0, 0.7, 40)
    w = rng.uniform(0.5, 2.0, 40) if weighted else np.ones(40)
    grad, hess = gradient_hessian(y, pred, w, exact=True)
    h = 1e-4
    for i in range(0, 40, 7):
        up, down = pred.copy(), pred.copy()
        up[i] += h
        down[i] -= h
        fd_grad = (_surrogate(y, up, w) - _surrogate(y, down, w)) / (2 * h)
        fd_hess = (
            _surrogate(y, up, w) - 2 * _surrogate(y, pred, w) + _surrogate(y, down, w)
        ) / h**2
        assert grad[i] == pytest.approx(fd_grad, rel=1e-6, abs=1e-9)
        assert hess[i] == pytest.approx(fd_hess, rel=1e-4, abs=1e-6)
    # the default Hessian is the numerator's curvature at fixed D: W·2w/D
    _, numerator = gradient_hessian(y, pred, w, exact=False)
    d = _surrogate(y, pred, w) / (w * (y - pred) ** 2).sum()  # = W / D
    np.testing.assert_allclose(numerator, 2 * w * d, rtol=1e-12)


def test_objective_surrogate_is_one_minus_qwk_on_integer_predictions() -> None:
    # the surrogate's value, N/D, is 1 − QWK when the predictions are grades
    rng = np.random.default_rng(6)
    y = rng.integers(1, 6, 200)
    pred = np.clip(y + rng.integers(-1, 2, 200), 1, 5)
    w = np.ones(200)
    value = _surrogate(y.astype(float), pred.astype(float), w) / 200
    assert 1 - value == pytest.approx(concord.quadratic_weighted_kappa(y, pred), abs=1e-12)


def test_objective_trains_lightgbm_and_xgboost() -> None:
    lgb = pytest.importorskip("lightgbm", reason=NO_LIGHTGBM)
    xgb = pytest.importorskip("xgboost", reason=NO_XGBOOST)
    x, y = _essays(7)
    lgb_model = lgb.LGBMRegressor(objective=qwk_objective(), n_estimators=60, verbose=-1)
    lgb_model.fit(x, y)
    booster = lgb.train(
        {"objective": qwk_objective(), "verbose": -1}, lgb.Dataset(x, y), num_boost_round=60
    )
    xgb_model = xgb.XGBRegressor(objective=qwk_objective(), n_estimators=60, max_depth=3)
    xgb_model.fit(x, y)
    native = xgb.train({"max_depth": 3}, xgb.DMatrix(x, label=y), 60, obj=qwk_objective())
    for preds in (
        lgb_model.predict(x),
        booster.predict(x),
        xgb_model.predict(x),
        native.predict(xgb.DMatrix(x)),
    ):
        assert concord.optimize_thresholds(y, preds).statistic > 0.8


def test_objective_rejects_an_unknown_hessian() -> None:
    with pytest.raises(ValueError, match="'hessian' parameter of qwk_objective"):
        qwk_objective(hessian="diagonal")


@pytest.mark.filterwarnings("ignore:The argument .eval_set. is deprecated")
def test_sklearn_apis_pass_sample_weights() -> None:
    """The wrappers' sample weights reach the objective and the metrics.

    LightGBM's wrapper hands them only to a callable of three parameters (it dropped
    them silently: the metric logged the unweighted QWK); XGBoost's as sample_weight=
    (it raised). Expected: the native APIs with the same weights in the Dataset/DMatrix,
    and cohen_kappa with sample_weight.
    """
    lgb = pytest.importorskip("lightgbm", reason=NO_LIGHTGBM)
    xgb = pytest.importorskip("xgboost", reason=NO_XGBOOST)
    x, y = _essays(9, 300)
    w = np.where(x[:, 1] > 0, 4.0, 0.25)  # exact in float32, as both libraries store them
    params = {"objective": qwk_objective(), "verbose": -1, "n_estimators": 5, "num_leaves": 7}
    wrapped = lgb.LGBMRegressor(**params).fit(x, y, sample_weight=w)
    native = lgb.train(
        {"objective": qwk_objective(), "verbose": -1, "num_leaves": 7},
        lgb.Dataset(x, y, weight=w),
        num_boost_round=5,
    )
    assert np.array_equal(wrapped.predict(x, raw_score=True), native.predict(x, raw_score=True))

    valid = (x[:100].copy(), y[:100].copy())
    model = lgb.LGBMRegressor(n_estimators=5, verbose=-1)
    model.fit(x, y, eval_set=[valid], eval_sample_weight=[w[:100]], eval_metric=lightgbm_metric())
    grades = _half_up(model.predict(valid[0]), valid[1])
    expected = concord.cohen_kappa(valid[1], grades, weights="quadratic", sample_weight=w[:100])
    assert model.evals_result_["valid_0"]["qwk"][-1] == pytest.approx(expected.statistic, 1e-12)

    xmodel = xgb.XGBRegressor(n_estimators=5, max_depth=3, eval_metric=xgboost_metric())
    xmodel.fit(x, y, sample_weight=w, eval_set=[valid], sample_weight_eval_set=[w[:100]])
    grades = _half_up(xmodel.predict(valid[0]), valid[1])
    expected = concord.cohen_kappa(valid[1], grades, weights="quadratic", sample_weight=w[:100])
    logged = xmodel.evals_result()["validation_0"]["qwk"][-1]
    assert logged == pytest.approx(expected.statistic, abs=1e-6)  # XGBoost logs 6 digits
    xgb.XGBRegressor(objective=qwk_objective(), n_estimators=2).fit(x, y, sample_weight=w)
