"""One test per bad input: each error names the parameter, what was expected, what was given
and how to fix it."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import concord

ck = concord.cohen_kappa


def raises(exc, *fragments):
    pattern = ".*".join(re.escape(f) for f in fragments)
    return pytest.raises(exc, match=re.compile(pattern, re.S))


def test_mismatched_lengths():
    with raises(ValueError, "'rater2' parameter of cohen_kappa", "3 ratings", "2 ratings"):
        ck([1, 2, 3], [1, 2])


def test_two_dimensional_input():
    with raises(ValueError, "'rater1'", "must be 1-D", "(2, 2)", "data[:, 0]"):
        ck([[1, 2], [3, 4]], [1, 2])


def test_empty_input():
    with raises(ValueError, "'rater1'", "non-empty", "empty array"):
        ck([], [])


def test_scalar_input():
    with raises(TypeError, "'rater1'", "1-D array-like", "5"):
        ck(5, [1])


def test_string_input():
    with raises(TypeError, "'rater2'", "1-D array-like", "'abc'"):
        ck([1, 2, 3], "abc")


def test_complex_input():
    with raises(TypeError, "'rater1'", "real or categorical"):
        ck(np.array([1j, 2j]), [1, 2])


def test_regression_output_suggests_rounding_or_thresholds():
    with raises(ValueError, "'rater2'", "integral", "2.5", "np.rint", "np.digitize", "labels="):
        ck([1, 2, 3], [1.0, 2.5, 3.2])


def test_infinite_rating():
    with raises(ValueError, "'rater1'", "finite", "inf"):
        ck([1.0, np.inf], [1, 2])


def test_missing_rating_with_raise_policy():
    with raises(ValueError, "'nan_policy'", "1 pairs with a missing rating", "nan_policy='omit'"):
        ck([1, 2, np.nan], [1, 2, 3])


def test_everything_missing_with_omit():
    with raises(ValueError, "every item has a missing rating"):
        ck([np.nan, 1], [2, None], nan_policy="omit")


def test_unknown_nan_policy_with_hint():
    with raises(ValueError, "'nan_policy'", "'raise', 'omit'", "'omitt'", "Did you mean 'omit'?"):
        ck([1, 2], [1, 2], nan_policy="omitt")


def test_unknown_weights_with_hint():
    with raises(
        ValueError,
        "'weights'",
        "None, one of 'linear', 'quadratic'",
        "k×k array",
        "quadratc",
        "Did you mean 'quadratic'?",
    ):
        ck([1, 2], [1, 2], weights="quadratc")


def test_weights_of_wrong_type():
    with raises(TypeError, "'weights'", "k×k array"):
        ck([1, 2], [1, 2], weights=object())


def test_custom_weights_wrong_shape():
    with raises(ValueError, "'weights'", "2×2 matrix", "(3, 3)", "labels are (1, 2)"):
        ck([1, 2], [1, 2], weights=np.ones((3, 3)) - np.eye(3))


@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        ([[0, -1], [1, 0]], "non-negative"),
        ([[1, 1], [1, 0]], "zero on the diagonal"),
        ([[0, 0], [0, 0]], "not all zero"),
        ([[0, np.nan], [1, 0]], "finite"),
    ],
)
def test_custom_weights_values(matrix, message):
    with raises(ValueError, "'weights'", message, "W = 1 − A"):
        ck([1, 2], [1, 2], weights=matrix)


def test_weighted_strings_need_an_order():
    with raises(
        ValueError,
        "'labels'",
        "weights='linear'",
        "('high', 'low')",
        "never sorts them alphabetically",
        "labels=[...]",
    ):
        ck(["low", "high"], ["high", "high"], weights="linear")


def test_rating_outside_integer_labels():
    with raises(ValueError, "'labels'", "every rating", "7 (2×)", "9 (1×)", "Add those"):
        ck([1, 7, 7, 9], [1, 2, 3, 1], labels=[1, 2, 3])


def test_rating_outside_string_labels():
    with raises(ValueError, "'labels'", "'rater2'", "'huge' (1×)"):
        ck(["low", "high"], ["low", "huge"], labels=["low", "high"])


def test_rating_outside_float_labels_is_not_rounded():
    with raises(ValueError, "'labels'", "0.30000000000000004"):
        ck([0.1, 0.2], [0.1 + 0.2, 0.1], labels=[0.1, 0.2, 0.3])


def test_duplicate_labels():
    with raises(ValueError, "'labels'", "distinct", "Repeated: 2."):
        ck([1, 2], [1, 2], labels=[1, 2, 2])


def test_labels_must_be_a_list():
    with raises(TypeError, "'labels'", "list of categories", "'abc'"):
        ck(["a"], ["b"], labels="abc")


def test_empty_labels():
    with raises(ValueError, "'labels'", "non-empty"):
        ck([1], [1], labels=[])


def test_missing_value_in_labels():
    with raises(ValueError, "'labels'", "free of missing values"):
        ck([1], [1], labels=[1, None])


@pytest.mark.parametrize(
    ("weights", "message"),
    [([1, -1, 1], "finite and non-negative"), ([1, 1], "length 3"), ([1, np.nan, 1], "finite")],
)
def test_bad_sample_weight(weights, message):
    with raises(ValueError, "'sample_weight'", message):
        ck([1, 2, 3], [1, 2, 3], sample_weight=weights)


def test_conflicting_ordered_categoricals():
    a = pd.Categorical(["lo", "hi"], categories=["lo", "hi"], ordered=True)
    b = pd.Categorical(["lo", "hi"], categories=["hi", "lo"], ordered=True)
    with raises(ValueError, "'labels'", "ordered Categoricals differ"):
        ck(a, b, weights="linear")


def test_qwk_bounds():
    qwk = concord.quadratic_weighted_kappa
    with raises(ValueError, "'max_rating'", "at least min_rating=5", "3"):
        qwk([1, 2], [1, 2], min_rating=5, max_rating=3)
    with raises(ValueError, "'min_rating'", "at most the lowest rating, 1", "2"):
        qwk([1, 2], [1, 2], min_rating=2)
    with raises(ValueError, "'max_rating'", "at least the highest rating, 4", "3"):
        qwk([1, 4], [1, 2], max_rating=3)
    with raises(TypeError, "'min_rating'", "integer rating", "1.5"):
        qwk([1, 2], [1, 2], min_rating=1.5)
    with raises(ValueError, "'labels'", "every rating", "4 (1×)"):
        qwk([1.0, 4.0], [1.0, 2.0], min_rating=1, max_rating=3)


def test_mean_kappa_inputs():
    with raises(ValueError, "'kappas'", "non-empty"):
        concord.mean_kappa([])
    with raises(TypeError, "'kappas'", "numbers"):
        concord.mean_kappa(["a"])
    with raises(ValueError, "'weights'", "length 2"):
        concord.mean_kappa([0.1, 0.2], weights=[1])
    with raises(ValueError, "'weights'", "not all zero"):
        concord.mean_kappa([0.1, 0.2], weights=[0, 0])


def test_grouped_kappa_missing_column_lists_columns():
    df = pd.DataFrame({"set": [1], "a": [1], "b": [1]})
    with raises(ValueError, "'rater2'", "one of ['set', 'a', 'b']", "'c'"):
        concord.grouped_kappa(df, by="set", rater1="a", rater2="c")


def test_grouped_kappa_needs_a_dataframe():
    with raises(TypeError, "'data'", "pandas DataFrame", "dict"):
        concord.grouped_kappa({"a": [1]}, by="a", rater1="a", rater2="a")


def test_grouped_kappa_group_weight_not_constant():
    df = pd.DataFrame({"set": [1, 1], "a": [1, 2], "b": [1, 2], "w": [1, 2]})
    with raises(ValueError, "'group_weights'", "constant within each group"):
        concord.grouped_kappa(df, by="set", rater1="a", rater2="b", group_weights="w")


def test_unknown_interpretation_scale():
    r = ck([1, 2], [1, 2])
    with raises(ValueError, "'scale'", "'landis-koch'", "Did you mean 'landis-koch'?"):
        r.interpret("landis_koch")


def test_weight_matrix_kind():
    with raises(ValueError, "'kind' parameter of weight_matrix", "'quadratic'", "Did you mean"):
        concord.weight_matrix(4, "quadratik")
    with raises(ValueError, "'labels' parameter of weight_matrix", "positive"):
        concord.weight_matrix(0)
