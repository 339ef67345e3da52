"""Invariances every coefficient must have, run on every variant of the shared registry
(tests/registry.py): items permuted, raters permuted, ratings relabelled by a map the
scale cannot see, the data counted twice, identical raters, and two raters against the
two-rater counterpart. A coefficient added to the library's registry is checked here
without an edit."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import concord
from concord._coefficients.registry import by_name
from tests.registry import (
    IN_RATING_UNITS,
    RELABEL,
    SAMPLE_SIZE_CORRECTED,
    TWO_RATER_COUNTERPART,
    VARIANTS,
    data,
    ids,
    same,
    statistic,
)

EXAMPLES = settings(max_examples=6)
# the agreement indices: a bias in the ratings' units has other invariances
AGREEMENT = [v for v in VARIANTS if v.coefficient.name not in IN_RATING_UNITS]


def defined(variant, x):
    """The statistic, where it is defined (no UndefinedKappaWarning, no error)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", concord.UndefinedKappaWarning)
        try:
            return statistic(variant(x))
        except (concord.UndefinedKappaWarning, ValueError):
            assume(False)


@pytest.mark.parametrize("v", VARIANTS, ids=ids(VARIANTS))
@EXAMPLES
@given(st.data(), st.randoms(use_true_random=False))
def test_items_permuted(v, draw, rnd):
    x = draw.draw(data(v))
    value = defined(v, x)
    order = list(range(len(x[0])))
    rnd.shuffle(order)
    shuffled = tuple([c[i] for i in order] if isinstance(c, list) else c[order] for c in x)
    assert same(statistic(v(shuffled)), value)


@pytest.mark.parametrize("v", AGREEMENT, ids=ids(AGREEMENT))
@EXAMPLES
@given(st.data(), st.randoms(use_true_random=False))
def test_raters_permuted(v, draw, rnd):
    # every registered coefficient treats its raters alike (custom asymmetric weights
    # aside: test_asymmetric_weights_see_the_order_of_the_raters)
    x = draw.draw(data(v))
    value = defined(v, x)
    if v.pairs:
        swapped = x[::-1]
    else:
        order = list(range(x[0].shape[1]))
        rnd.shuffle(order)
        swapped = (x[0][:, order],)
    assert same(statistic(v(swapped)), value)


@pytest.mark.parametrize("v", AGREEMENT, ids=ids(AGREEMENT))
@EXAMPLES
@given(st.data())
def test_ratings_relabelled(v, draw):
    # nominal: any bijection of the categories; ordered scales: the map in RELABEL
    x = draw.draw(data(v))
    value = defined(v, x)
    if v.relabel == "any":
        mapping = dict(zip(v.pool, draw.draw(st.permutations(v.pool)), strict=True)).__getitem__
    else:
        mapping = RELABEL[v.relabel]
    assert same(v.relabelled(x, mapping), value)


@pytest.mark.parametrize("v", VARIANTS, ids=ids(VARIANTS))
@EXAMPLES
@given(st.data(), st.integers(2, 3))
def test_data_counted_twice(v, draw, times):
    x = draw.draw(data(v))
    value = defined(v, x)
    repeated = tuple(c * times if isinstance(c, list) else np.concatenate([c] * times) for c in x)
    kept = same(statistic(v(repeated)), value)
    if v.coefficient.name in SAMPLE_SIZE_CORRECTED:
        assert kept == (value == 1.0)  # only perfect agreement has no correction to move
    else:
        assert kept


@pytest.mark.parametrize("v", AGREEMENT, ids=ids(AGREEMENT))
@EXAMPLES
@given(st.data(), st.integers(2, 5))
def test_identical_raters_give_exactly_one(v, draw, raters):
    column = draw.draw(st.lists(st.sampled_from(v.pool), min_size=2, max_size=20))
    assume(len(set(column)) >= 2)  # one category: undefined for the chance-corrected ones
    if v.pairs:
        x = (column, list(column))
    else:
        x = (np.array([[c] * raters for c in column], dtype=object),)
    assert statistic(v(x)) == 1.0


COUNTERPARTS = [v for v in VARIANTS if v.coefficient.name in TWO_RATER_COUNTERPART]


@pytest.mark.parametrize("v", COUNTERPARTS, ids=ids(COUNTERPARTS))
@EXAMPLES
@given(st.data())
def test_two_raters_equal_the_two_rater_counterpart(v, draw):
    name, field = TWO_RATER_COUNTERPART[v.coefficient.name]
    complete = type(v)(v.coefficient, v.options, v.pool, v.relabel, missing=False)
    (x,) = draw.draw(data(complete, raters=2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", concord.UndefinedKappaWarning)
        want = getattr(by_name(name).function(list(x[:, 0]), list(x[:, 1]), **v.options), field)
        assert same(statistic(v((x,))), want)


# --- custom weights, two raters: symmetric weights see no order, asymmetric ones do ----------
CUSTOM = np.array([[0, 1, 3, 4], [1, 0, 1, 2], [3, 1, 0, 5], [4, 2, 5, 0]], float)
ASYMMETRIC = np.array([[0, 1, 2, 3], [2, 0, 1, 2], [1, 3, 0, 1], [4, 1, 2, 0]], float)
LABELS = [0, 1, 2, 3]
pairs = st.integers(2, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.sampled_from(LABELS), min_size=n, max_size=n),
        st.lists(st.sampled_from(LABELS), min_size=n, max_size=n),
    )
)


@given(pairs)
def test_custom_symmetric_weights_are_symmetric_in_raters(ab):
    a, b = ab
    assume(len(set(a) | set(b)) >= 2)  # every off-diagonal weight is positive
    kappa = concord.cohen_kappa(a, b, weights=CUSTOM, labels=LABELS).statistic
    assert kappa == concord.cohen_kappa(b, a, weights=CUSTOM, labels=LABELS).statistic


@given(pairs)
def test_asymmetric_weights_see_the_order_of_the_raters(ab):
    # swapping the raters transposes the table, so it equals the transposed weights
    a, b = ab
    assume(len(set(a) | set(b)) >= 2)
    kappa = concord.cohen_kappa(a, b, weights=ASYMMETRIC, labels=LABELS).statistic
    assert kappa == concord.cohen_kappa(b, a, weights=ASYMMETRIC.T, labels=LABELS).statistic
