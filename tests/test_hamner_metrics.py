"""Ben Hamner's Metrics semantics: quadratic_weighted_kappa, mean_kappa and the ASAP grouping.

Expected values are those asserted by Hamner's own test suite
(github.com/benhamner/Metrics, Python/ml_metrics/test/test_kappa.py).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import concord


@pytest.mark.parametrize(
    ("a", "b", "bounds", "expected"),
    [
        ([1, 2, 3], [1, 2, 3], {}, 1.0),
        ([1, 2, 1], [1, 2, 2], {"min_rating": 1, "max_rating": 2}, 0.4),
        ([1, 2, 3, 1, 2, 2, 3], [1, 2, 3, 1, 2, 3, 2], {}, 0.75),
    ],
)
def test_quadratic_weighted_kappa(a, b, bounds, expected):
    got = concord.quadratic_weighted_kappa(a, b, **bounds)
    assert got == pytest.approx(expected, abs=1e-15)
    assert got == concord.cohen_kappa(a, b, weights="quadratic").statistic


def test_bounds_add_empty_categories_without_changing_kappa():
    # Hamner's confusion_matrix([1, 2], [1, 2], 1, 4) has empty rows and columns 3 and 4
    r = concord.cohen_kappa([1, 2], [1, 2], labels=range(1, 5))
    np.testing.assert_array_equal(r.observed, np.diag([1, 1, 0, 0]))
    assert concord.quadratic_weighted_kappa([1, 2, 1], [1, 2, 2], min_rating=0, max_rating=9) == (
        pytest.approx(0.4, abs=1e-15)
    )


@pytest.mark.parametrize(
    ("kappas", "weights", "expected"),
    [([1, 1], None, 0.999), ([0.5, 0.8], [1, 0.5], 0.624536446425734), ([-1, 1], None, 0.0)],
)
def test_mean_kappa(kappas, weights, expected):
    assert concord.mean_kappa(kappas, weights=weights) == pytest.approx(expected, abs=1e-15)


def test_mean_kappa_weights_are_relative():
    assert concord.mean_kappa([0.5, 0.8], weights=[2, 1]) == concord.mean_kappa(
        [0.5, 0.8], weights=[1, 0.5]
    )


def test_mean_kappa_accepts_results():
    r = concord.cohen_kappa([1, 2, 3], [1, 2, 2], weights="quadratic")
    assert concord.mean_kappa([r, r]) == pytest.approx(r.statistic, rel=1e-15)


@pytest.fixture
def asap():
    # two essay sets with weights as in ASAP's solution file (essay_weight constant per set)
    return pd.DataFrame(
        {
            "essay_set": [1] * 6 + [2] * 5,
            "essay_weight": [0.75] * 6 + [0.25] * 5,
            "human": [1, 2, 3, 4, 4, 2, 0, 1, 2, 3, 3],
            "model": [1, 2, 4, 4, 3, 2, 0, 2, 2, 3, 1],
        }
    )


def test_grouped_kappa_is_the_weighted_fisher_mean(asap):
    g = concord.grouped_kappa(
        asap, by="essay_set", rater1="human", rater2="model", group_weights="essay_weight"
    )
    k1 = concord.quadratic_weighted_kappa(asap.human[:6].to_numpy(), asap.model[:6].to_numpy())
    k2 = concord.quadratic_weighted_kappa(asap.human[6:].to_numpy(), asap.model[6:].to_numpy())
    assert [r.statistic for r in g.results.values()] == [k1, k2]
    assert g.group_weights == {1: 0.75, 2: 0.25}
    # the Fisher-z mean, written out
    z = (0.75 * math.atanh(k1) + 0.25 * math.atanh(k2)) / 1.0
    assert g.statistic == pytest.approx(math.tanh(z), rel=1e-14)
    assert float(g) == g.statistic
    assert repr(g).startswith("GroupedKappaResult(statistic=")


def test_grouped_kappa_mapping_weights(asap):
    by_column = concord.grouped_kappa(
        asap, by="essay_set", rater1="human", rater2="model", group_weights="essay_weight"
    )
    by_mapping = concord.grouped_kappa(
        asap, by="essay_set", rater1="human", rater2="model", group_weights={1: 3, 2: 1}
    )
    assert by_mapping.statistic == pytest.approx(by_column.statistic, rel=1e-15)
    with pytest.raises(ValueError, match="weight for group 2"):
        concord.grouped_kappa(
            asap, by="essay_set", rater1="human", rater2="model", group_weights={1: 1}
        )
