"""Optimal cut points: exact against brute force, invariances, degenerate inputs,
cross-validation, the scikit-learn estimator, and where the kappa is lost."""

from __future__ import annotations

import itertools
import re
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import concord
from tests.exact_reference import fraction_kappa, positions_weights


@st.composite
def graded_scores(draw, k):
    n = draw(st.integers(4, 40))
    truth = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    distinct = draw(st.integers(2, 10))  # few distinct scores: many ties
    scores = draw(st.lists(st.integers(0, distinct - 1), min_size=n, max_size=n))
    assume(len(set(truth)) >= 2)
    return truth, [s / 2 for s in scores]


def brute_force(truth, scores, k, weights):
    """The best kappa over every grading by k − 1 cut positions among the distinct scores."""
    values = sorted(set(scores))
    best = None
    for cuts in itertools.combinations_with_replacement(range(len(values) + 1), k - 1):
        grades = [sum(values.index(s) >= c for c in cuts) for s in scores]
        table = np.zeros((k, k), dtype=int)
        for a, g in zip(truth, grades, strict=True):
            table[a, g] += 1
        try:
            kappa = fraction_kappa(table, weights)
        except ZeroDivisionError:
            continue
        best = kappa if best is None or kappa > best else best
    return best


@settings(max_examples=60)
@given(
    st.sampled_from([3, 4]).flatmap(lambda k: st.tuples(st.just(k), graded_scores(k))),
    st.sampled_from(["quadratic", "linear", "unweighted"]),
)
def test_exact_against_brute_force(case, kind):
    k, (truth, scores) = case
    weights = positions_weights(k, kind)
    best = concord.optimize_thresholds(
        truth, scores, labels=range(k), weights=None if kind == "unweighted" else kind
    )
    assert best.statistic == float(brute_force(truth, scores, k, weights))
    assert best.gap >= -1e-9


@settings(max_examples=30)
@given(graded_scores(3), st.data())
def test_exact_with_asymmetric_weights(data, draw):
    truth, scores = data
    w = np.array(
        [
            [0, draw.draw(st.integers(1, 5)), draw.draw(st.integers(1, 9))],
            [draw.draw(st.integers(1, 5)), 0, draw.draw(st.integers(1, 5))],
            [draw.draw(st.integers(1, 9)), draw.draw(st.integers(1, 5)), 0],
        ],
        float,
    )
    best = concord.optimize_thresholds(truth, scores, labels=range(3), weights=w)
    assert best.statistic == float(brute_force(truth, scores, 3, w))


@given(graded_scores(4))
def test_ties_stay_together_and_cuts_sit_at_midpoints(data):
    truth, scores = data
    best = concord.optimize_thresholds(truth, scores, labels=range(4))
    grades = best.apply(scores)
    for s in set(scores):
        assert len({g for g, x in zip(grades, scores, strict=True) if x == s}) == 1
    values = sorted(set(scores))
    midpoints = {(a + b) / 2 for a, b in itertools.pairwise(values)}
    assert all(t in midpoints or np.isinf(t) for t in best.thresholds)
    assert all(a <= b for a, b in itertools.pairwise(best.thresholds))


@given(graded_scores(4))
def test_increasing_transform_moves_thresholds_not_grades(data):
    truth, scores = data
    before = concord.optimize_thresholds(truth, scores, labels=range(4))
    transformed = [np.exp(3 * s) + 5 for s in scores]
    after = concord.optimize_thresholds(truth, transformed, labels=range(4))
    assert after.statistic == before.statistic
    np.testing.assert_array_equal(after.apply(transformed), before.apply(scores))
    finite = np.isfinite(before.thresholds)
    if finite.any():  # the cut points moved with the scores
        assert not np.allclose(after.thresholds[finite], before.thresholds[finite])


def test_sample_weights_replicate_items():
    truth = [0, 0, 1, 1, 2, 2, 1]
    scores = [0.1, 0.5, 0.4, 1.2, 1.9, 2.5, 2.0]
    weights = [1, 3, 2, 1, 1, 2, 1]
    weighted = concord.optimize_thresholds(truth, scores, sample_weight=weights)
    replicated = concord.optimize_thresholds(np.repeat(truth, weights), np.repeat(scores, weights))
    assert weighted.statistic == pytest.approx(replicated.statistic, rel=1e-12)
    np.testing.assert_array_equal(weighted.thresholds, replicated.thresholds)


def test_new_scores_on_a_cut_point_take_the_lower_grade():
    best = concord.optimize_thresholds([1, 1, 2, 2], [0.0, 1.0, 2.0, 3.0])
    assert best.thresholds.tolist() == [1.5]
    assert best.apply([1.5, 1.5000001]).tolist() == [1, 2]  # like pd.cut: intervals (a, b]


def test_fewer_distinct_scores_than_grades():
    best = concord.optimize_thresholds([1, 2, 3, 4, 5, 3], [0.0, 0.0, 1.0, 1.0, 1.0, 0.0])
    assert len(best.thresholds) == 4 and np.isfinite(best.statistic)
    assert len(set(best.apply([0.0, 1.0]))) == 2  # only two grades can be used


def test_string_grades_need_an_order():
    with pytest.raises(ValueError, match="no natural order"):
        concord.optimize_thresholds(["lo", "hi", "lo"], [0.1, 0.9, 0.2])
    best = concord.optimize_thresholds(["lo", "hi", "lo"], [0.1, 0.9, 0.2], labels=["lo", "hi"])
    assert best.apply([0.0, 1.0]).tolist() == ["lo", "hi"]


def raises(exc, *fragments):
    return pytest.raises(exc, match=re.compile(".*".join(re.escape(f) for f in fragments), re.S))


def test_degenerate_inputs():
    with raises(ValueError, "'y_true'", "at least two classes", "Kappa is undefined"):
        concord.optimize_thresholds([2, 2, 2], [0.1, 0.2, 0.3])
    with raises(ValueError, "'y_score'", "finite", "1 NaN", "Drop or impute"):
        concord.optimize_thresholds([1, 2, 2], [0.1, np.nan, 0.3])
    with raises(ValueError, "'y_score'", "length 3"):
        concord.optimize_thresholds([1, 2, 2], [0.1, 0.3])
    with raises(ValueError, "'y_true'", "free of missing values"):
        concord.optimize_thresholds([1, np.nan, 2], [0.1, 0.2, 0.3])
    best = concord.optimize_thresholds([1, 2], [0.1, 0.2])
    with raises(ValueError, "'scores'", "free of NaN"):
        best.apply([np.nan])


def test_result_carries_the_kappa_at_the_optimum():
    truth = [1, 1, 2, 2, 3, 3, 3, 2]
    scores = [0.9, 1.4, 1.6, 2.1, 2.2, 3.5, 2.9, 1.2]
    best = concord.optimize_thresholds(truth, scores)
    direct = concord.cohen_kappa(truth, best.apply(scores), weights="quadratic")
    assert best.kappa.statistic == direct.statistic == best.statistic
    np.testing.assert_array_equal(best.kappa.observed, direct.observed)
    assert best.iterations >= 1 and repr(best).startswith("ThresholdResult(statistic=")


def _regression(n, seed=0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 6, n)
    return truth, truth * 0.8 + rng.normal(0, 0.9, n)


def test_cross_validated_kappa():
    truth, scores = _regression(2000)
    cv = concord.cross_validated_kappa(truth, scores, rng=1)
    assert len(cv.fold_kappas) == 5 and len(cv.fold_thresholds) == 5
    assert cv.statistic == concord.cohen_kappa(truth, cv.grades, weights="quadratic").statistic
    assert cv.in_sample == concord.optimize_thresholds(truth, scores).statistic
    assert cv.optimism == cv.in_sample - cv.statistic and 0 <= cv.optimism < 0.05


def test_cross_validated_kappa_takes_splitters_and_pairs():
    from sklearn.model_selection import StratifiedKFold

    truth, scores = _regression(600)
    by_sklearn = concord.cross_validated_kappa(truth, scores, cv=StratifiedKFold(3))
    pairs = list(StratifiedKFold(3).split(np.zeros((600, 1)), truth))
    by_pairs = concord.cross_validated_kappa(truth, scores, cv=pairs)
    assert by_sklearn.statistic == by_pairs.statistic and len(by_pairs.fold_kappas) == 3
    with raises(ValueError, "'cv'", "between 2 and n"):
        concord.cross_validated_kappa(truth, scores, cv=1)


def test_sklearn_estimator():
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import GridSearchCV, cross_val_predict, cross_val_score

    truth, scores = _regression(600)
    x = scores.reshape(-1, 1)
    model = concord.ThresholdClassifier().fit(x, truth)
    assert model.score(x, truth) == concord.optimize_thresholds(truth, scores).statistic
    assert list(model.classes_) == [0, 1, 2, 3, 4, 5]
    oof = cross_val_predict(concord.ThresholdClassifier(), x, truth, cv=5)
    assert oof.shape == truth.shape
    search = GridSearchCV(
        concord.ThresholdClassifier(), {"weights": ["linear", "quadratic"]}, cv=3
    ).fit(x, truth)
    assert search.best_params_["weights"] in ("linear", "quadratic")
    features = np.column_stack([scores, np.random.default_rng(1).normal(size=600)])
    wrapped = concord.ThresholdClassifier(regressor=Ridge())
    assert cross_val_score(wrapped, features, truth, cv=3).mean() > 0.5
    with pytest.raises(ValueError, match="one column of scores"):
        concord.ThresholdClassifier().fit(features, truth)


def test_contributions_name_the_costly_confusions():
    # seed 000's experiment: shifting every grade by +2 loses more kappa than by +1
    y = np.array([1, 1, 1, 2, 2, 2])
    plus_one = concord.cohen_kappa(y, y + 1, weights="quadratic", labels=range(1, 7))
    plus_two = concord.cohen_kappa(y, y + 2, weights="quadratic", labels=range(1, 7))
    for r in (plus_one, plus_two):
        parts = r.contributions()
        assert parts.loss.sum() == pytest.approx(1 - r.statistic, rel=1e-12)
        assert parts.observed.sum() == pytest.approx(
            1.0
        ) and parts.expected.sum() == pytest.approx(1.0)
    assert [cell[:2] for cell in plus_two.contributions().ranked()] == [(1, 3), (2, 4)]
    assert plus_two.contributions().loss.sum() > plus_one.contributions().loss.sum()
    assert "κ lost" in str(plus_one.contributions())


def test_contributions_of_an_undefined_kappa():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parts = concord.cohen_kappa([1, 1], [1, 1]).contributions()
    assert parts.ranked() == []
