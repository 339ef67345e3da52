"""Subgroup labels coded fast: the names and codes of ``np.unique(labels.astype(str))``.

Expected values: numpy's own ``np.unique(labels.astype(str), return_inverse=True)``, the
slow way ``concord.evaluate`` took before (it sorts n strings).
"""

from __future__ import annotations

import numpy as np
import pytest

from concord._studies.evaluate.evaluate_inputs import label_codes

RNG = np.random.default_rng(0)
CASES = {
    "text": np.array(["b", "a", "c", "a"]),
    "objects, one text per type": np.array(["b", "a", 1, 1.0, "1", None, True], dtype=object),
    "integers sort as text": np.array([10, 9, 1, 10]),
    "floats with nan": np.array([4.0, 3.0, 4.0, 2.5, np.nan, np.nan]),
    "signed zeros are two texts": np.array([0.0, -0.0, 1.0]),
    "booleans": np.array([True, False, True]),
    "many floats": RNG.integers(0, 12, 1000).astype(float),
    "many strings (pandas)": RNG.choice(["x", "y", "zz"], 1000).astype(object),
    "accents": np.array(["Ä", "a", "B"], dtype=object),
}


@pytest.mark.parametrize("labels", CASES.values(), ids=CASES.keys())
def test_same_as_numpy_s_slow_way(labels):
    names, codes = np.unique(labels.astype(str), return_inverse=True)
    got_names, got_codes = label_codes(labels)
    assert got_names == names.tolist()
    np.testing.assert_array_equal(got_codes, codes)


@pytest.mark.parametrize(
    "labels, message",
    [
        (np.array(["a", None, "b", None], dtype=object), "2 missing in 'g' .first at position 1"),
        (np.array([1, 2, float("nan")], dtype=object), "1 missing in 'g' .first at position 2"),
        (np.array(["x", "<NA>", "y"], dtype=object), "1 missing in 'g' .first at position 1"),
        (np.array([1, "1", 2], dtype=object), "one group or two"),
        (np.array([1, 1.0, 2], dtype=object), "one group or two"),
        (np.array([0.0, -0.0, 1.0], dtype=object), "one group or two"),
    ],
)
def test_group_labels_checked_on_their_distinct_values(labels, message):
    # the checks look at the distinct labels (one hash pass), as the per-label scan did
    from concord._studies.evaluate.evaluate_inputs import _check_labels

    with pytest.raises(ValueError, match=message):
        _check_labels("g", labels)
    _check_labels("g", np.array(["a", "b", "a"] * 1000, dtype=object))  # fine: no error
    _check_labels("g", np.array([3, 1, 3, 2], dtype=object))


@pytest.mark.parametrize(
    "series",
    [
        ["b", "a", "c", "a", "Ä", "B"],
        list(RNG.choice(["x", "y", "zz"], 1000)),
        [10, 9, 1, 10],
    ],
)
@pytest.mark.parametrize("dtype", ["str", "string", "object", None])
def test_pandas_columns_are_coded_as_their_object_arrays(series, dtype):
    # a Series of text or integers is factorized by pandas as it is; the reference is the
    # object array's path (np.unique of the texts, as above)
    import pandas as pd

    from concord._studies.evaluate.evaluate_inputs import group_columns

    if dtype is not None and isinstance(series[0], int | np.integer) and dtype != "object":
        dtype = None  # integers keep their integer dtype
    column = pd.Series(series, dtype=dtype, name="g")
    names, codes = np.unique(np.asarray(series, dtype=object).astype(str), return_inverse=True)
    got_names, got_codes = group_columns(column, len(series))["g"]
    assert got_names == names.tolist()
    np.testing.assert_array_equal(got_codes, codes)


@pytest.mark.parametrize(
    ("values", "dtype", "message"),
    [
        (["a", None, "b", None], "str", "2 missing in 'g' .first at position 1"),
        (["a", None, "b", None], "string", "2 missing in 'g' .first at position 1"),
        (["x", "<NA>", "y"], "str", "1 missing in 'g' .first at position 1"),
        ([1, None, 2], "Int64", "1 missing in 'g' .first at position 1"),
        (["All data", "b", "b"], "str", "labels other than 'All data'"),
    ],
)
def test_pandas_columns_are_checked_as_object_arrays(values, dtype, message):
    import pandas as pd

    from concord._studies.evaluate.evaluate_inputs import group_columns

    with pytest.raises(ValueError, match=message):
        group_columns(pd.Series(values, dtype=dtype, name="g"), len(values))
    with pytest.raises(ValueError, match=message):
        group_columns(pd.Series(values, dtype=object, name="g"), len(values))
