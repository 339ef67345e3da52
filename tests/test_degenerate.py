"""The degenerate cases, one policy: κ is nan, with an UndefinedKappaWarning, exactly when
the chance disagreement ΣW·E is 0. Every other case has a defined value."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import concord
from concord import UndefinedKappaWarning


def test_single_category():
    with pytest.warns(UndefinedKappaWarning, match="only one category, 3"):
        r = concord.cohen_kappa([3, 3, 3], [3, 3, 3])
    assert np.isnan(r.statistic) and r.labels == (3,)
    assert r.observed_agreement == 1.0 and r.chance_agreement == 1.0
    assert r.interpret() == "undefined"


def test_both_raters_constant_on_the_same_declared_category():
    with pytest.warns(UndefinedKappaWarning, match="both raters used only the category 'b'"):
        r = concord.cohen_kappa(["b", "b"], ["b", "b"], weights="linear", labels=["a", "b", "c"])
    assert np.isnan(r.statistic)


def test_qwk_undefined():
    with pytest.warns(UndefinedKappaWarning, match="one and the same rating"):
        assert np.isnan(concord.quadratic_weighted_kappa([2, 2], [2, 2]))


def test_zero_weight_on_every_chance_pair():
    # a custom matrix that ignores the 1-vs-2 confusion, with ratings only 1 and 2
    w = [[0, 0, 1], [0, 0, 1], [1, 1, 0]]
    with pytest.warns(UndefinedKappaWarning, match="disagreement weight 0"):
        r = concord.cohen_kappa([1, 2], [2, 1], weights=w, labels=[1, 2, 3])
    assert np.isnan(r.statistic)


def test_perfect_agreement():
    assert concord.cohen_kappa([1, 2, 3], [1, 2, 3], weights="quadratic").statistic == 1.0


def test_one_rater_constant_gives_zero():
    r = concord.cohen_kappa([1, 2, 3, 1], [2, 2, 2, 2], weights="linear")
    np.testing.assert_array_equal(r.observed, r.expected)
    assert r.statistic == 0.0


def test_disjoint_label_sets():
    # no agreement is possible: p_o = 0 and κ = -p_e / (1 - p_e) = 0 here (p_e = 0 too)
    r = concord.cohen_kappa(["a", "b", "a"], ["c", "d", "d"])
    assert r.observed_agreement == 0.0 and r.chance_agreement == 0.0
    assert r.statistic == 0.0


def test_mean_kappa_of_an_undefined_kappa():
    with pytest.warns(UndefinedKappaWarning, match="kappa number 1 is nan"):
        assert np.isnan(concord.mean_kappa([0.5, float("nan")]))


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=30))
def test_nan_only_with_a_warning(pairs):
    a, b = zip(*pairs, strict=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = concord.cohen_kappa(list(a), list(b), weights="quadratic").statistic
    warned = any(issubclass(w.category, UndefinedKappaWarning) for w in caught)
    assert np.isnan(value) == warned
