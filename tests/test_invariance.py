"""The invariance registry: properties every two-rater statistic must have.

Add a statistic to ``STATISTICS`` (name -> callable(r1, r2) -> float) and it is
checked for every property whose set lists it.
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

import concord

CUSTOM = np.array([[0, 1, 3, 4], [1, 0, 1, 2], [3, 1, 0, 5], [4, 2, 5, 0]], float)
ASYMMETRIC = np.array([[0, 1, 2, 3], [2, 0, 1, 2], [1, 3, 0, 1], [4, 1, 2, 0]], float)
LABELS = [0, 1, 2, 3]

STATISTICS = {
    "cohen_unweighted": lambda a, b: concord.cohen_kappa(a, b, labels=LABELS).statistic,
    "cohen_linear": lambda a, b: (
        concord.cohen_kappa(a, b, weights="linear", labels=LABELS).statistic
    ),
    "cohen_quadratic": lambda a, b: (
        concord.cohen_kappa(a, b, weights="quadratic", labels=LABELS).statistic
    ),
    "cohen_custom_symmetric": lambda a, b: (
        concord.cohen_kappa(a, b, weights=CUSTOM, labels=LABELS).statistic
    ),
    "cohen_custom_asymmetric": lambda a, b: (
        concord.cohen_kappa(a, b, weights=ASYMMETRIC, labels=LABELS).statistic
    ),
    "quadratic_weighted_kappa": lambda a, b: concord.quadratic_weighted_kappa(
        np.asarray(a), np.asarray(b)
    ),
}
SYMMETRIC_IN_RATERS = set(STATISTICS) - {"cohen_custom_asymmetric"}
LABEL_PERMUTATION_INVARIANT = {"cohen_unweighted"}

pairs = st.integers(2, 50).flatmap(
    lambda n: st.tuples(
        st.lists(st.sampled_from(LABELS), min_size=n, max_size=n),
        st.lists(st.sampled_from(LABELS), min_size=n, max_size=n),
    )
)


def _defined(name, a, b):
    # every weight off the diagonal is positive, so the chance disagreement is 0
    # (κ undefined) exactly when both raters use one and the same category
    assume(len(set(a) | set(b)) >= 2)
    return STATISTICS[name](a, b)


@given(st.sampled_from(sorted(SYMMETRIC_IN_RATERS)), pairs)
def test_symmetric_in_raters(name, data):
    a, b = data
    assert _defined(name, a, b) == STATISTICS[name](b, a)


@given(st.sampled_from(sorted(LABEL_PERMUTATION_INVARIANT)), pairs, st.permutations(LABELS))
def test_label_permutation(name, data, perm):
    a, b = data
    relabel = dict(zip(LABELS, perm, strict=True))
    pa, pb = [relabel[v] for v in a], [relabel[v] for v in b]
    assert _defined(name, a, b) == STATISTICS[name](pa, pb)


@given(st.sampled_from(sorted(STATISTICS)), pairs, st.integers(2, 4))
def test_duplicating_data(name, data, times):
    a, b = data
    assert _defined(name, a, b) == STATISTICS[name](a * times, b * times)


@given(st.sampled_from(sorted(STATISTICS)), st.lists(st.sampled_from(LABELS), min_size=2))
def test_identical_raters_give_exactly_one(name, a):
    assume(len(set(a)) >= 2)
    assert STATISTICS[name](a, a) == 1.0


@given(st.sampled_from(sorted(STATISTICS)), pairs, st.randoms(use_true_random=False))
def test_item_order(name, data, rnd):
    a, b = data
    order = list(range(len(a)))
    rnd.shuffle(order)
    assert _defined(name, a, b) == STATISTICS[name]([a[i] for i in order], [b[i] for i in order])
