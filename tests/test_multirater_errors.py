"""Degenerate cases under the one undefined-value policy, and one test per bad input."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import concord
from concord import UndefinedKappaWarning
from concord._coefficients.registry import REGISTRY
from tests.registry import DEFINED_ON_ONE_CATEGORY

MULTI = [
    c.function for c in REGISTRY if c.arity == 1 and c.table != "sums"
]  # the shared registry's
ALL = [f for f in MULTI if f.__name__ not in DEFINED_ON_ONE_CATEGORY]  # chance-corrected


def raises(exc, *fragments):
    return pytest.raises(exc, match=re.compile(".*".join(re.escape(f) for f in fragments), re.S))


@pytest.mark.parametrize("func", ALL)
def test_one_category(func):
    ratings = [["a", "a", "a"], ["a", "a", None]]
    with pytest.warns(UndefinedKappaWarning, match="undefined"):
        r = func(ratings)
    assert np.isnan(r.statistic)


def test_one_category_percent_agreement_is_defined():
    assert concord.percent_agreement([["a", "a"], ["a", "a"]]).statistic == 1.0


@pytest.mark.parametrize("func", MULTI)
def test_single_rater(func):
    with pytest.warns(UndefinedKappaWarning, match="no item has two ratings|only one rater"):
        r = func([[1], [2], [3]])
    assert np.isnan(r.statistic)


@pytest.mark.parametrize("func", MULTI)
def test_no_item_with_two_ratings(func):
    nan = np.nan
    ratings = [[1, nan, nan], [nan, 2, nan], [nan, nan, 1]]
    with pytest.warns(UndefinedKappaWarning):
        assert np.isnan(func(ratings).statistic)


def test_items_nobody_rated_are_dropped():
    nan = np.nan
    r = concord.fleiss_kappa([[1, 1], [nan, nan], [1, 2], [2, 2]])
    assert r.n_items == 3
    assert r.statistic == concord.fleiss_kappa([[1, 1], [1, 2], [2, 2]]).statistic


def test_light_pair_without_common_items():
    nan = np.nan
    ratings = [[1, 1, nan], [2, 2, nan], [nan, 1, 1], [nan, 2, 2]]
    with pytest.warns(UndefinedKappaWarning, match="some pair of raters"):
        r = concord.light_kappa(ratings)
    assert np.isnan(r.pairwise[(0, 2)].statistic) and r.pairwise[(0, 1)].statistic == 1.0


def test_rater_identity_is_needed():
    counts = concord.CategoryCounts([[2, 0], [1, 1]])
    for func in (concord.conger_kappa, concord.light_kappa):
        with raises(TypeError, "'ratings'", "ratings matrix", "which rater gave which rating"):
            func(counts)


def test_ratings_must_be_2d():
    with raises(
        ValueError, "'ratings' parameter of fleiss_kappa", "2-D", "(3,)", "np.column_stack"
    ):
        concord.fleiss_kappa([1, 2, 3])
    with raises(TypeError, "'ratings'", "2-D array-like"):
        concord.fleiss_kappa("abc")


def test_all_missing():
    with raises(ValueError, "'ratings'", "at least one rating"):
        concord.fleiss_kappa([[None, None], [None, None]])


def test_empty_matrix():
    with raises(ValueError, "'ratings'", "at least one item"):
        concord.fleiss_kappa(np.empty((0, 3)))


def test_regression_outputs_are_refused():
    with raises(ValueError, "integral", "np.rint"):
        concord.fleiss_kappa([[1.5, 2.0], [1.0, 2.0]])


def test_rating_outside_labels():
    with raises(ValueError, "'labels'", "every rating", "9 (1×)"):
        concord.gwet_ac([[1, 2], [9, 2]], labels=[1, 2, 3])


def test_weighted_strings_need_order():
    with raises(ValueError, "'labels'", "no natural order"):
        concord.fleiss_kappa([["lo", "hi"], ["hi", "hi"]], weights="linear")


def test_dataframe_columns_are_raters():
    frame = pd.DataFrame(
        {"ann1": ["x", "y", "x"], "ann2": ["x", "y", "y"], "ann3": [None, "y", "x"]}
    )
    r = concord.light_kappa(frame)
    assert set(r.pairwise) == {("ann1", "ann2"), ("ann1", "ann3"), ("ann2", "ann3")}
    assert r.n_raters == 3


def test_ordered_categoricals_in_a_dataframe():
    order = ["low", "mid", "high"]
    frame = pd.DataFrame(
        {
            c: pd.Categorical(v, categories=order, ordered=True)
            for c, v in {"a": ["low", "mid", "high"], "b": ["low", "high", "high"]}.items()
        }
    )
    r = concord.fleiss_kappa(frame, weights="linear")
    assert r.labels == tuple(order)
    assert (
        r.statistic == concord.fleiss_kappa([[0, 0], [1, 2], [2, 2]], weights="linear").statistic
    )


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ([[1, -1]], "non-negative whole numbers"),
        ([[1.5, 1]], "non-negative whole numbers"),
        ([1, 2], "2-D"),
        ("x", "2-D array of counts"),
    ],
)
def test_bad_counts(counts, message):
    with pytest.raises((ValueError, TypeError), match=re.escape(message)):
        concord.CategoryCounts(counts)


def test_counts_labels_must_match():
    with raises(ValueError, "'labels' parameter of CategoryCounts", "2 categories", "3 labels"):
        concord.CategoryCounts([[1, 1]], labels=["a", "b", "c"])
    counts = concord.CategoryCounts([[1, 1]], labels=["a", "b"])
    with raises(ValueError, "'labels' parameter of fleiss_kappa", "counts' own labels"):
        concord.fleiss_kappa(counts, labels=["b", "a"])
    with pytest.raises(AttributeError, match="immutable"):
        counts.labels = ("x", "y")


def test_krippendorff_level():
    with raises(
        ValueError,
        "'level'",
        "'nominal', 'ordinal', 'interval', 'ratio'",
        "Did you mean 'interval'?",
    ):
        concord.krippendorff_alpha([[1, 2]], level="intervall")
    with raises(ValueError, "'level'", "2×2 matrix"):
        concord.krippendorff_alpha([[1, 2], [1, 1]], level=np.ones((3, 3)))
    with raises(ValueError, "'level'", "'ratio' only for non-negative"):
        concord.krippendorff_alpha([[-1, 2], [1, 1]], level="ratio")


def test_ratio_weights_need_non_negative_labels():
    with raises(ValueError, "'weights'", "non-negative"):
        concord.fleiss_kappa([[-1, 2], [1, 1]], weights="ratio")


def test_continuous_alpha_levels_accept_floats_nominal_does_not():
    data = [[1.5, 1.6], [2.25, 2.0], [3.1, 3.0]]
    assert concord.krippendorff_alpha(data, level="interval").statistic > 0.9
    with raises(ValueError, "integral"):
        concord.krippendorff_alpha(data)


def test_explain_and_repr():
    data = [[1, 1, 2], [2, 2, 2], [1, 2, None], [3, 3, 3]]
    fleiss = concord.fleiss_kappa(data)
    text = fleiss.explain()
    for fragment in (
        "Fleiss' kappa, unweighted: 4 items, 3 raters, 3 categories",
        "Observed agreement p_a",
        "Chance agreement",
        "(p_a − p_e) / (1 − p_e)",
    ):
        assert fragment in text
    assert repr(fleiss).startswith("FleissResult(coefficient='fleiss_kappa', statistic=")
    alpha = concord.krippendorff_alpha(data, level="interval")
    text = alpha.explain()
    for fragment in (
        "Coincidence matrix o_ck",
        "Distances δ²_ck (interval metric)",
        "D_o =",
        "α = 1 − D_o / D_e",
    ):
        assert fragment in text
    assert concord.gwet_ac(data, weights="linear").name == "Gwet's AC2"
    assert "W (disagreement" in concord.gwet_ac(data, weights="linear").explain()
    assert float(alpha) == alpha.statistic and alpha.interpret("krippendorff") in (
        "unacceptable",
        "tentative",
        "acceptable",
    )
