"""KappaResult.kappa_max: the largest kappa the raters' marginal totals allow."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.optimize import linprog

import concord


def test_unweighted_by_hand():
    # row totals (2, 2), column totals (1, 3): at most min(2,1) + min(2,3) = 3 agreements of 4,
    # p_e = (2·1 + 2·3) / 16 = 1/2, so κ_max = (3/4 − 1/2) / (1/2) = 1/2
    r = concord.cohen_kappa([1, 1, 2, 2], [1, 2, 2, 2])
    assert r.kappa_max == pytest.approx(0.5, abs=1e-15)
    assert r.statistic == pytest.approx(0.5, abs=1e-15)  # this table reaches it


def test_equal_marginals_allow_one():
    r = concord.cohen_kappa([1, 2, 3, 1], [2, 1, 3, 1], weights="quadratic")
    assert r.kappa_max == pytest.approx(1.0, abs=1e-12)


def _lp_kappa_max(r):
    k = len(r.labels)
    eq = np.zeros((2 * k, k * k))
    for i in range(k):
        eq[i, i * k : (i + 1) * k] = 1
        eq[k + i, i::k] = 1
    b = np.r_[r.observed.sum(axis=1), r.observed.sum(axis=0)]
    least = linprog(r.weights.ravel(), A_eq=eq, b_eq=b, bounds=(0, None), method="highs").fun
    p_max = 1 - least / (r.n * r.weights.max())
    return (p_max - r.chance_agreement) / (1 - r.chance_agreement)


@given(
    st.integers(3, 40).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 4), min_size=n, max_size=n),
            st.lists(st.integers(0, 4), min_size=n, max_size=n),
        )
    ),
    st.sampled_from(["linear", "quadratic", "ordinal", "radical", "circular"]),
)
def test_north_west_coupling_equals_the_linear_programme(pair, weights):
    a, b = pair
    assume(len(set(a) | set(b)) >= 2 and len(set(a)) >= 2 and len(set(b)) >= 2)
    r = concord.cohen_kappa(a, b, weights=weights, labels=range(5))
    assert r.kappa_max == pytest.approx(_lp_kappa_max(r), abs=1e-9)
    assert r.statistic <= r.kappa_max + 1e-12


def test_numeric_labels_in_a_declared_order():
    a, b = [3, 1, 2, 2, 1], [1, 1, 2, 3, 3]
    forward = concord.cohen_kappa(a, b, weights="linear", labels=[1, 2, 3])
    shuffled = concord.cohen_kappa(a, b, weights="linear", labels=[3, 1, 2])
    assert forward.kappa_max == pytest.approx(shuffled.kappa_max, abs=1e-12)


def test_undefined_kappa_has_undefined_max():
    with pytest.warns(concord.UndefinedKappaWarning):
        r = concord.cohen_kappa([1, 1], [1, 1])
    assert np.isnan(r.kappa_max)
