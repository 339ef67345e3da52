"""Every accepted input form gives the same table and κ as plain integer lists."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import concord
from concord._data.columns import column, omit_missing
from concord._tables.pairs import _count_pairs

A = [1, 2, 3, 3, 2, 1, 4, 4]
B = [1, 3, 3, 2, 2, 1, 4, 3]
REFERENCE = concord.cohen_kappa(A, B, weights="quadratic")


@pytest.mark.parametrize(
    "dtype",
    [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, float],
)
def test_numpy_dtypes(dtype):
    r = concord.cohen_kappa(np.array(A, dtype), np.array(B, dtype), weights="quadratic")
    assert r.statistic == REFERENCE.statistic
    assert r.labels == (1, 2, 3, 4) and all(type(v) is int for v in r.labels)
    np.testing.assert_array_equal(r.observed, REFERENCE.observed)


def test_bool_ratings():
    r = concord.cohen_kappa(np.array([True, False, True]), np.array([True, False, False]))
    assert r.labels == (False, True)
    assert r.statistic == concord.cohen_kappa([1, 0, 1], [1, 0, 0]).statistic


def test_object_arrays_of_numbers_and_strings():
    r = concord.cohen_kappa(
        np.array(A, dtype=object), np.array(B, dtype=object), weights="quadratic"
    )
    assert r.statistic == REFERENCE.statistic
    s = concord.cohen_kappa(np.array(["x", "y"], dtype=object), np.array(["x", "x"], dtype=object))
    assert s.labels == ("x", "y")


def test_pandas_series_and_index():
    r = concord.cohen_kappa(pd.Series(A), pd.Index(B), weights="quadratic")
    assert r.statistic == REFERENCE.statistic


@pytest.mark.parametrize("missing", [np.nan, None, pd.NA])
def test_missing_values_with_omit(missing):
    a = [*A, missing, 2]
    b = [*B, 3, missing]
    r = concord.cohen_kappa(a, b, weights="quadratic", nan_policy="omit")
    assert r.statistic == REFERENCE.statistic and r.n == len(A)


def test_nullable_integer_series():
    a = pd.Series([*A, None], dtype="Int64")
    b = pd.Series([*B, 2], dtype="Int64")
    r = concord.cohen_kappa(a, b, weights="quadratic", nan_policy="omit")
    assert r.statistic == REFERENCE.statistic and r.labels == (1, 2, 3, 4)


def test_nullable_arrays_not_only_series():
    # pd.array(..., dtype="Int64") has no .hasnans: it once raised AttributeError
    big = 2**53 + 1
    a = pd.array([big, big - 1, big, 1, None], dtype="Int64")
    b = pd.array([big, big - 1, big - 1, 1, 1], dtype="Int64")
    r = concord.cohen_kappa(a, b, nan_policy="omit")
    assert r.labels == (1, big - 1, big) and r.n == 4
    flags = pd.array([True, False, None, True], dtype="boolean")
    assert concord.cohen_kappa(flags, flags, nan_policy="omit").n == 3


def test_float_series_with_nan_keeps_integer_labels():
    a = pd.Series([*A, np.nan])
    r = concord.cohen_kappa(a, pd.Series([*B, 1.0]), weights="quadratic", nan_policy="omit")
    assert r.labels == (1, 2, 3, 4)


def test_ordered_categorical_supplies_its_order():
    order = ["low", "mid", "high"]
    a = pd.Categorical(["low", "mid", "high", "high"], categories=order, ordered=True)
    b = pd.Categorical(["low", "high", "high", "mid"], categories=order, ordered=True)
    r = concord.cohen_kappa(a, b, weights="linear")
    assert r.labels == tuple(order)
    same = concord.cohen_kappa([0, 1, 2, 2], [0, 2, 2, 1], weights="linear")
    assert r.statistic == same.statistic
    via_series = concord.cohen_kappa(pd.Series(a), pd.Series(b), weights="linear")
    assert via_series.statistic == r.statistic


def test_ordered_categorical_beside_plain_strings():
    a = pd.Categorical(["lo", "hi", "hi"], categories=["lo", "hi"], ordered=True)
    r = concord.cohen_kappa(a, ["lo", "hi", "lo"], weights="linear")
    assert r.labels == ("lo", "hi")


def test_unordered_categorical_is_nominal():
    a = pd.Categorical(["x", "y", "y"])
    r = concord.cohen_kappa(a, pd.Categorical(["x", "y", "x"]))
    assert r.labels == ("x", "y")
    with pytest.raises(ValueError, match="no natural order"):
        concord.cohen_kappa(a, pd.Categorical(["x", "y", "x"]), weights="linear")


def test_categorical_with_missing_values():
    a = pd.Categorical(["lo", None, "hi"], categories=["lo", "hi"], ordered=True)
    b = pd.Categorical(["lo", "hi", "hi"], categories=["lo", "hi"], ordered=True)
    r = concord.cohen_kappa(a, b, nan_policy="omit")
    assert r.n == 2 and r.statistic == 1.0


def test_declared_labels_keep_unused_categories():
    r = concord.cohen_kappa([1, 2], [1, 2], labels=[1, 2, 3, 4, 5])
    assert r.observed.shape == (5, 5) and r.labels == (1, 2, 3, 4, 5)


def test_numeric_labels_in_a_declared_order():
    # labels may be listed in any order; the table follows it, distances use the values
    r = concord.cohen_kappa(A, B, weights="quadratic", labels=[4, 3, 2, 1])
    assert r.statistic == REFERENCE.statistic
    np.testing.assert_array_equal(r.observed, REFERENCE.observed[::-1, ::-1])


def test_non_integral_floats_with_declared_labels():
    r = concord.cohen_kappa(
        [0.5, 1.5, 2.5], [0.5, 2.5, 2.5], weights="linear", labels=[0.5, 1.5, 2.5]
    )
    assert r.statistic == concord.cohen_kappa([0, 1, 2], [0, 2, 2], weights="linear").statistic


def test_unused_interior_category_keeps_its_distance():
    # 1, 2, 5 on a 1..5 scale: 2-vs-5 is three steps, not one
    gapped = concord.cohen_kappa([1, 2, 5, 5], [1, 5, 5, 2], weights="linear")
    declared = concord.cohen_kappa(
        [1, 2, 5, 5], [1, 5, 5, 2], weights="linear", labels=range(1, 6)
    )
    assert gapped.statistic == declared.statistic
    assert gapped.weights[1, 2] == 0.75 and gapped.weights[0, 1] == 0.25


def test_mixed_numbers_and_strings_are_not_conflated():
    # neither one category nor two silently (issue 24): 1 and "1" are refused
    with pytest.raises(ValueError, match="numbers or text, not both for one value"):
        concord.cohen_kappa([1, "1"], ["1", 1])
    r = concord.cohen_kappa([1, "a"], ["a", 1])  # a number and other text: two categories
    assert len(r.labels) == 2 and r.observed_agreement == 0.0


def test_sample_weight_gives_float_table():
    r = concord.cohen_kappa(A, B, sample_weight=np.full(len(A), 0.5))
    assert r.observed.dtype == np.float64 and r.n == len(A) / 2
    assert r.statistic == concord.cohen_kappa(A, B).statistic


def test_zero_sample_weight_keeps_the_category():
    r = concord.cohen_kappa([1, 2, 3], [1, 2, 3], sample_weight=[1, 1, 0])
    assert r.labels == (1, 2, 3) and r.observed[2, 2] == 0


def test_sample_weight_series_pairs_by_index_like_the_raters():
    # a shuffled weight Series once weighed each item by another item's weight
    a, b = pd.Series([1, 2, 3]), pd.Series([1, 2, 2])
    shuffled = pd.Series([1.0, 1.0, 5.0], index=[2, 1, 0])
    r = concord.cohen_kappa(a, b, sample_weight=shuffled)
    same = concord.cohen_kappa(a, b, sample_weight=shuffled.sort_index().to_numpy())
    assert r.statistic == same.statistic
    # positional inputs stay positional
    r = concord.cohen_kappa([1, 2, 3], [1, 2, 2], sample_weight=shuffled)
    assert (
        r.statistic == concord.cohen_kappa([1, 2, 3], [1, 2, 2], sample_weight=[1, 1, 5]).statistic
    )
    with pytest.raises(ValueError, match=r"'sample_weight' parameter.*index labels of 'rater1'"):
        concord.cohen_kappa(a, b, sample_weight=pd.Series([1.0, 1, 1], index=[7, 8, 9]))
    truth, score = pd.Series([1, 1, 2, 2]), pd.Series([0.1, 0.6, 0.4, 0.9])
    w = pd.Series([1.0, 9, 1, 9], index=[3, 2, 1, 0])
    fit = concord.optimize_thresholds(truth, score, sample_weight=w)
    positional = concord.optimize_thresholds(truth, score, sample_weight=[9.0, 1, 9, 1])
    assert fit.thresholds == positional.thresholds and fit.statistic == positional.statistic


# every form of the same ratings takes its fast path to one and the same result ----------------

_WORDS = ["mild", "none", "severe", "mild", None, "none", "severe", "mild"]
_OTHER = ["none", "none", "severe", "mild", "mild", None, "mild", "severe"]


def _forms(values):
    yield list(values)
    yield np.asarray(values, dtype=object)
    yield pd.Series(values, dtype=object)
    yield pd.Categorical(values)
    try:
        import pyarrow as pa
    except ImportError:  # Arrow forms need pyarrow
        return
    yield pd.Series(values, dtype="string[pyarrow]")
    yield pd.Series(values, dtype=pd.ArrowDtype(pa.string()))


def test_string_forms_give_the_same_table_labels_and_kappa():
    expected = None
    for a in _forms(_WORDS):
        for b in _forms(_OTHER):
            r = concord.cohen_kappa(a, b, nan_policy="omit")
            got = (r.statistic, r.labels, r.observed.tolist())
            expected = expected or got
            assert got == expected
    assert expected[1] == ("mild", "none", "severe")


def test_coded_strings_count_as_the_general_path_does():
    from concord._tables.pairs import _lookup_table

    a = column(np.asarray(_WORDS, dtype=object), "f", "a", coded=True)
    b = column(np.asarray(_OTHER, dtype=object), "f", "b", coded=True)
    assert a.categories == ("mild", "none", "severe")
    (a, b), _ = omit_missing([a, b], None, "omit", "f")
    fast = _count_pairs(a, b, None, "f", "auto")
    slow = _lookup_table(a, b, None, "f")
    assert fast.labels == slow.labels and (fast.table == slow.table).all()


def test_int_lists_are_read_exactly():
    assert column([1, 2, 3], "f", "a").values.dtype == np.int64
    assert column([True, False], "f", "a").values.dtype == np.bool_
    assert column([True, 2], "f", "a").values.tolist() == [1, 2]
    assert column([1, 2**63], "f", "a").values.dtype == np.uint64  # not float64
    assert column([1, 2**64], "f", "a").values.tolist() == [1, 2**64]  # Python ints
    assert column([1, "1"], "f", "a").values.tolist() == [1, "1"]
    assert column([2**53 + 1, 0.5], "f", "a").values.dtype == object  # float64 would round


def test_integer_positions_through_a_table_match_the_sorted_lookup():
    # integer ratings under integer labels of a short range are looked up in a table:
    # the same positions and the same found mask as the sorted search
    from concord._data.labels import label_array, positions

    rng = np.random.default_rng(30)
    for trial in range(400):
        keys = tuple(int(v) for v in rng.choice(np.arange(-5, 40), rng.integers(1, 10), False))
        n = int(rng.integers(1, 50))
        values = rng.integers(-8, 45, n) if trial % 2 else rng.choice(np.array(keys), n)
        if trial % 3 == 0:
            values = values.astype(np.uint8) if values.min() >= 0 else values.astype(np.int16)
        codes, found = positions(values, keys)
        ranked = label_array(keys)
        order = np.argsort(ranked, kind="stable")
        at = np.clip(np.searchsorted(ranked[order], values), 0, len(keys) - 1)
        np.testing.assert_array_equal(found, ranked[order][at] == values)
        np.testing.assert_array_equal(codes[found], order[at][found])
