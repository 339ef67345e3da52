"""The long form (issue 14): ``item=``, ``rater=``, ``rating=`` on every multi-rater function,
on ``accumulate`` and on ``CategoryCounts.from_long``.

Expected values: the wide form of the same ratings (the long form is a layout,
so the coefficient must be the wide form's, bit for bit), and Krippendorff
(2011)'s published alphas for his reliability data (data/krippendorff2011.csv).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import concord
from concord._data.long import first_repeat
from tests.registry import VARIANTS, ids, same, sample

MULTI = [v for v in VARIANTS if v.coefficient.arity == 1]
KRIPPENDORFF = Path(__file__).parents[1] / "data" / "krippendorff2011.csv"


def long_rows(x: np.ndarray, keep_missing: bool = False) -> dict[str, list]:
    """The cells of a wide matrix as long rows (items "i0", "i1", ...; raters "r0", ...)."""
    rows = [
        (f"i{i}", f"r{j}", v)
        for i, row in enumerate(x)
        for j, v in enumerate(row)
        if keep_missing or v is not None
    ]
    order = np.random.default_rng(1).permutation(len(rows))  # rows in any order
    doc, who, label = zip(*(rows[k] for k in order), strict=True)
    return {"doc": list(doc), "annotator": list(who), "label": list(label)}


def summary(result):
    if isinstance(result, float):
        return (result,)
    return result.statistic, result.standard_error, result.n_items


@pytest.mark.parametrize("variant", MULTI, ids=ids(MULTI))
def test_long_equals_wide(variant):
    (x,) = sample(variant, 60, seed=3)
    x[0] = None  # an item nobody rated: dropped in both forms
    wide = variant((x,))
    rows = long_rows(x)
    # raters in order of first appearance in the rows: the wide matrix in that order
    raters = list(dict.fromkeys(rows["annotator"]))
    ordered = x[:, [int(r[1:]) for r in raters]]
    expected = summary(variant((ordered,)))
    # rater order changes only the order of sums (Light's mean of pairs): to rounding
    assert same(summary(wide)[0], expected[0])
    for data in (rows, pd.DataFrame(rows)):
        got = variant((data,), item="doc", rater="annotator", rating="label")
        assert summary(got) == expected
    # a row whose rating is missing is a missing rating, as an absent row is
    got = variant(
        (long_rows(x, keep_missing=True),), item="doc", rater="annotator", rating="label"
    )
    assert summary(got)[0] == expected[0]


@pytest.mark.parametrize("variant", MULTI, ids=ids(MULTI))
def test_accumulated_long_batches_equal_one_shot(variant):
    (x,) = sample(variant, 50, seed=5)
    frame = pd.DataFrame(long_rows(x)).sort_values("doc", kind="stable")
    whole = variant((frame,), item="doc", rater="annotator", rating="label")
    acc = concord.accumulate(
        variant.coefficient.function,
        item="doc",
        rater="annotator",
        rating="label",
        **variant.options,
    )
    for docs in np.array_split(frame["doc"].unique(), 4):  # whole items per batch
        acc.update(frame[frame["doc"].isin(docs)])
    assert summary(acc.result()) == summary(whole)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_krippendorff_2011_in_long_form(level):
    wide = pd.read_csv(KRIPPENDORFF)
    rows = wide.melt(id_vars="unit", var_name="observer", value_name="value")
    r = concord.krippendorff_alpha(
        rows, item="unit", rater="observer", rating="value", level=level
    )
    # Krippendorff (2011) reports α = 0.743 nominal, 0.815 ordinal, 0.849 interval, 0.797 ratio
    published = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}
    assert round(r.statistic, 3) == published[level]
    assert (
        r.statistic == concord.krippendorff_alpha(wide.drop(columns="unit"), level=level).statistic
    )


def test_pyarrow_table_and_categorical_ratings():
    pa = pytest.importorskip("pyarrow")
    rows = {
        "doc": ["a", "a", "a", "b", "b", "c", "c", "c"],
        "who": ["x", "y", "z", "x", "y", "x", "y", "z"],
        "label": ["lo", "lo", "hi", "hi", "hi", "mid", "lo", "mid"],
    }
    order = ["lo", "mid", "hi"]
    frame = pd.DataFrame(rows)
    frame["label"] = pd.Categorical(frame["label"], categories=order, ordered=True)
    wide = pd.DataFrame(
        {
            "x": pd.Categorical(["lo", "hi", "mid"], categories=order, ordered=True),
            "y": pd.Categorical(["lo", "hi", "lo"], categories=order, ordered=True),
            "z": pd.Categorical(["hi", None, "mid"], categories=order, ordered=True),
        }
    )
    long = dict(item="doc", rater="who", rating="label", level="ordinal")
    expected = concord.krippendorff_alpha(wide, level="ordinal")
    got = concord.krippendorff_alpha(frame, **long)
    assert got.labels == ("lo", "mid", "hi")  # the Categorical's order, not sorted
    assert got.statistic == expected.statistic
    table = pa.Table.from_pandas(frame)  # the Categorical travels as a dictionary column
    assert concord.krippendorff_alpha(table, **long).statistic == expected.statistic


def test_integers_beyond_float64_stay_exact():
    big = 2**53
    rows = {"doc": [1, 1, 2, 2, 3], "who": [1, 2, 1, 2, 1], "label": [big, big + 1, big, big, 5]}
    r = concord.fleiss_kappa(rows, item="doc", rater="who", rating="label")
    assert r.labels == (5, big, big + 1)  # float64 would merge 2**53 + 1 into 2**53


# --- errors --------------------------------------------------------------------------------------
ROWS = {"doc": ["a", "a", "b", "b"], "who": ["x", "y", "x", "y"], "label": [1, 2, 2, 2]}


def message(call, *args, **kwargs):
    with pytest.raises((ValueError, TypeError)) as info:
        call(*args, **kwargs)
    return str(info.value)


def test_partial_keywords_are_an_error():
    assert message(concord.gwet_ac, ROWS, item="doc", rating="label") == (
        "The 'rater' parameter of gwet_ac must be a column name: the long form takes item=, "
        "rater= and rating= together. Got None instead. Only item='doc', rating='label' was "
        "given; name all three, or none for one column per rater."
    )
    assert message(concord.gwet_ac, ROWS, item="doc", rater="who", rating="doc") == (
        "The 'rating' parameter of gwet_ac must be a third column, neither item nor rater. "
        "Got 'doc' instead."
    )


def test_long_keywords_need_a_table():
    assert message(concord.light_kappa, [[1, 2], [2, 2]], item=0, rater=1, rating=2) == (
        "The 'ratings' parameter of light_kappa must be a table with one row per rating (a "
        "DataFrame, a pyarrow Table or a mapping of columns) when item=, rater= and rating= "
        "are given. Got a list instead. Pass the long table, or leave out item=, rater= and "
        "rating= for a matrix with one column per rater."
    )
    assert message(concord.light_kappa, ROWS, item="doc", rater="who", rating="score") == (
        "The 'rating' parameter of light_kappa must be a column of ratings: 'doc', 'who', "
        "'label'. Got 'score' instead."
    )


def test_a_pair_rated_twice_is_an_error_naming_the_row():
    frame = pd.DataFrame(ROWS, index=[10, 11, 12, 13])
    twice = pd.concat([frame, frame.iloc[[2]]])
    assert message(concord.conger_kappa, twice, item="doc", rater="who", rating="label") == (
        "The 'ratings' parameter of conger_kappa must be one rating per (item, rater) pair. "
        "Got row 4 (index label 12) rating item 'b' by rater 'x' a second time instead. Keep "
        "one rating per pair, e.g. ratings.drop_duplicates([item, rater])."
    )
    twice = {k: [*v, v[0]] for k, v in ROWS.items()}  # a dict: positions only
    assert "Got row 4 rating item 'a' by rater 'x' a second time" in message(
        concord.fleiss_kappa, twice, item="doc", rater="who", rating="label"
    )


def test_a_missing_item_or_rater_is_an_error_naming_the_row():
    rows = {**ROWS, "doc": ["a", None, "b", "b"]}
    assert message(concord.percent_agreement, rows, item="doc", rater="who", rating="label") == (
        "The 'item' parameter of percent_agreement must be a column with an item on every "
        "row. Got no item at row 1 instead. Every rating needs its item and its rater; fill "
        "in the item or drop the row."
    )
    frame = pd.DataFrame({**ROWS, "who": ["x", "y", np.nan, "y"]}, index=list("pqrs"))
    assert "Got no rater at row 2 (index label 'r') instead." in message(
        concord.brennan_prediger, frame, item="doc", rater="who", rating="label"
    )


@pytest.mark.parametrize("seed", range(5))
def test_first_repeat_is_pandas_duplicated(seed):
    # the command line's rule, by pandas' duplicated(): the first row that repeats a pair
    rng = np.random.default_rng(seed)
    item, rater = rng.integers(0, 30, 60), rng.integers(0, 3, 60)
    repeated = pd.DataFrame({"i": item, "r": rater}).duplicated().to_numpy()
    expected = int(np.argmax(repeated)) if repeated.any() else None
    assert first_repeat(item, rater, 3) == expected
    big = rater * 10**9  # sparse keys take the sort
    repeated = pd.DataFrame({"i": item, "r": big}).duplicated().to_numpy()
    expected = int(np.argmax(repeated)) if repeated.any() else None
    assert first_repeat(item, big, 10**9 * 3) == expected


# --- the accumulator -----------------------------------------------------------------------------
def test_an_item_split_across_batches_is_an_error():
    acc = concord.accumulate(concord.fleiss_kappa, item="doc", rater="who", rating="label")
    acc.update({k: v[:3] for k, v in ROWS.items()})
    rest = {k: v[3:] for k, v in ROWS.items()}
    assert message(acc.update, rest) == (
        "The 'ratings' parameter of Accumulator.update must be rows of items not counted "
        "before (all of an item's ratings in one batch). Got item 'b' again, which an earlier "
        "batch rated instead. Batch the rows by item, e.g. sort them by item before splitting."
    )
    assert acc.n == 2  # the refused batch counted nothing
    other = concord.accumulate(concord.fleiss_kappa, item="doc", rater="who", rating="label")
    other.update({k: v[2:] for k, v in ROWS.items()})
    assert "one that counted 1 of the same items" in message(acc.merge, other)


def test_new_raters_and_merges_in_any_rater_order_equal_one_shot():
    rows = {
        "doc": [1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 5],
        "who": ["a", "b", "a", "b", "c", "a", "b", "b", "c", "c", "b", "a"],
        "label": [1, 1, 2, 1, 2, 2, 2, 1, 1, 3, 3, 2],
    }
    frame = pd.DataFrame(rows)
    keys = dict(item="doc", rater="who", rating="label")
    whole = concord.conger_kappa(frame, **keys)
    one = concord.accumulate(concord.conger_kappa, **keys)
    one.update(frame[frame.doc <= 2]).update(frame[frame.doc > 2])  # rater c comes later
    assert summary(one.result()) == summary(whole)
    late = concord.accumulate(concord.conger_kappa, **keys).update(frame[frame.doc > 2])
    early = concord.accumulate(concord.conger_kappa, **keys).update(frame[frame.doc <= 2])
    for merged in (early.merge(late), late.merge(early)):
        assert merged.result().statistic == pytest.approx(whole.statistic, abs=1e-15)
    assert early.merge(late).result().statistic == whole.statistic  # the rows' rater order


def test_the_long_form_is_for_many_raters():
    assert message(concord.accumulate, concord.cohen_kappa, item="doc", rater="w", rating="l") == (
        "The 'item' parameter of accumulate must be None for cohen_kappa, which takes two "
        "raters' ratings. Got 'doc' instead. The long form is for the many-rater functions."
    )
    acc = concord.accumulate(concord.gwet_ac, item="doc", rater="who", rating="label")
    assert re.fullmatch(
        r"Accumulator\(gwet_ac, item='doc', rater='who', rating='label', n=2, k=2\)",
        repr(acc.update(ROWS)),
    )


# --- the count form ------------------------------------------------------------------------------
def test_category_counts_from_long():
    rows = {
        "doc": [1, 1, 1, 2, 2, 2, 3, 3, 3, 3],
        "who": ["a", "b", "c", "a", "b", "c", "a", "b", "c", "d"],
        "label": ["n", "n", "n", "n", "y", "y", "y", "y", "y", None],
    }
    table = concord.CategoryCounts.from_long(rows, item="doc", rating="label", rater="who")
    assert table.counts.tolist() == [[3, 0], [1, 2], [0, 3]] and table.labels == ("n", "y")
    # the class docstring's table: p_a = 7/9, p_e = 41/81, κ = (63 − 41) / 40
    assert concord.fleiss_kappa(table).statistic == 0.55
    declared = concord.CategoryCounts.from_long(
        rows, item="doc", rating="label", labels=["y", "n", "x"]
    )
    assert declared.counts.tolist() == [[0, 3, 0], [2, 1, 0], [3, 0, 0]]
    twice = {k: [*v, v[0]] for k, v in rows.items()}
    assert "Got row 10 rating item 1 by rater 'a' a second time" in message(
        concord.CategoryCounts.from_long, twice, item="doc", rating="label", rater="who"
    )
    # without rater= every row counts
    counted = concord.CategoryCounts.from_long(twice, item="doc", rating="label")
    assert counted.counts.tolist() == [[4, 0], [1, 2], [0, 3]]
