"""A long table read as wide (issue 24, item 2): refused, naming its columns and the long call.

Before: a table of (item, annotator, label) rows passed without ``item=``,
``rater=``, ``rating=`` was read as three raters, and ``krippendorff_alpha``,
``fleiss_kappa`` and ``agree`` gave α ≈ −0.05 where the long-form call gives
0.6, with no word. Now such a table is refused with the long-form call, unless
``form="wide"`` says its columns are raters; genuine wide tables (the bundled
data, numeric rater columns, random panels) are never refused.

Expected values: the long-form call on the same rows, and the same rows
pivoted by pandas (``DataFrame.pivot``): one layout, one number.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import concord
from concord._data.form import SAMPLE_ROWS, looks_long
from concord._data.long import foreign_wide
from tests.registry import REGISTRY

ROOT = Path(__file__).parents[1]
MULTI = [c for c in REGISTRY if c.arity == 1]
LABELS = ["neg", "neu", "pos"]


def annotation_export(n_items: int = 30, seed: int = 0) -> pd.DataFrame:
    """What an annotation tool exports: one row per (item, annotator, label)."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n_items):
        truth = rng.integers(0, 3)
        for who in ("ann_a", "ann_b", "ann_c"):
            label = truth if rng.random() < 0.8 else rng.integers(0, 3)
            rows.append((f"doc{i}", who, LABELS[label]))
    return pd.DataFrame(rows, columns=["item", "annotator", "label"])


LONG = {"item": "item", "rater": "annotator", "rating": "label"}
CALL = 'krippendorff_alpha(df, item="item", rater="annotator", rating="label")'


def test_the_issue_case_is_refused_with_the_long_call():
    df = annotation_export()
    with pytest.raises(ValueError) as caught:
        concord.krippendorff_alpha(df)
    message = str(caught.value)
    assert CALL in message and "form='wide'" in message
    for column in ("'item' repeats its values", "'annotator' holds names", "'label' holds"):
        assert column in message
    long = concord.krippendorff_alpha(df, **LONG).statistic
    pivoted = df.pivot(index="item", columns="annotator", values="label")
    assert long == concord.krippendorff_alpha(pivoted).statistic
    assert long > 0.5  # the agreement the rows hold; read as wide it was below 0
    wide = concord.krippendorff_alpha(df, form="wide").statistic
    assert wide < 0 and wide == concord.krippendorff_alpha(df.to_numpy()).statistic


@pytest.mark.parametrize("c", MULTI, ids=[c.name for c in MULTI])
def test_every_multi_rater_function_refuses(c):
    df = annotation_export()
    if c.table == "sums":  # the ICC rates numbers
        df["label"] = df["label"].map({"neg": 1, "neu": 2, "pos": 3})
        df["item"] = df["item"].str[3:].astype(int)
        df["annotator"] = df["annotator"].map({"ann_a": 101, "ann_b": 102, "ann_c": 103})
    with pytest.raises(ValueError, match=rf'{c.name}\(df, item="item", rater="annotator"'):
        c.function(df)
    c.function(df, form="wide")  # said to be wide: read as before


@pytest.mark.parametrize(
    "call",
    [
        lambda df, **k: concord.agree(df, **k),
        lambda df, **k: concord.rater_diagnostics(df, **k),
        lambda df, **k: concord.specific_agreement(df, **k),
    ],
    ids=["agree", "rater_diagnostics", "specific_agreement"],
)
def test_the_panel_functions_refuse(call):
    df = annotation_export()
    with pytest.raises(ValueError, match="looks long"):
        call(df)
    call(df, form="wide")


def test_polars_and_pyarrow_long_tables_are_refused():
    df = annotation_export()
    for frame in (pl.from_pandas(df), pl.from_pandas(df).lazy(), pa.Table.from_pandas(df)):
        with pytest.raises(ValueError, match="looks long"):
            concord.fleiss_kappa(frame)
        assert concord.fleiss_kappa(frame, **LONG).statistic == (
            concord.fleiss_kappa(df, **LONG).statistic
        )


def test_two_rater_functions_and_the_judge_study_show_their_long_calls():
    df = annotation_export()
    with pytest.raises(ValueError, match=r'cohen_kappa\(df, item="item", .*raters='):
        concord.cohen_kappa(df)
    with pytest.raises(ValueError, match=r'alt_test\(df, "ann_c", item="item"'):
        concord.alt_test(df, "ann_c")  # a rater name, not a column
    with pytest.raises(ValueError, match=r'against_gold\(df, "ann_a", item="item"'):
        concord.against_gold(df, "ann_a")


def test_a_table_sorted_by_rater_and_a_large_one_are_refused():
    df = annotation_export(n_items=4 * SAMPLE_ROWS, seed=1)
    by_rater = df.sort_values(["annotator", "item"], kind="stable").reset_index(drop=True)
    assert looks_long(by_rater) == ("item", "annotator", "label")
    assert looks_long(df) == ("item", "annotator", "label")
    polars = foreign_wide(pl.from_pandas(by_rater), "test")
    assert looks_long(polars) == ("item", "annotator", "label")


def test_numbers_for_items_raters_and_ratings():
    df = annotation_export()
    numbers = pd.DataFrame(
        {
            "item": df["item"].str[3:].astype(int),
            "rater": df["annotator"].map({"ann_a": 101, "ann_b": 102, "ann_c": 103}),
            "score": df["label"].map({"neg": 1, "neu": 2, "pos": 3}),
        }
    )
    assert looks_long(numbers) == ("item", "rater", "score")
    with pytest.raises(ValueError, match="looks long"):
        concord.icc(numbers)


def test_invalid_form():
    with pytest.raises(ValueError, match="'form' parameter of fleiss_kappa must be 'auto'"):
        concord.fleiss_kappa([[1, 2], [2, 2]], form="long")


# --- no false positives -------------------------------------------------------------------------


# cardiac_output.csv is no panel of raters: two methods measured repeatedly per subject
# (bland_altman's subject=), whose subject and replicate columns do make it look long
@pytest.mark.parametrize(
    "path",
    sorted(p for p in (ROOT / "data").glob("*.csv") if p.name != "cardiac_output.csv"),
    ids=lambda p: p.name,
)
def test_the_bundled_wide_tables_are_not_refused(path):
    frame = pd.read_csv(path)
    assert looks_long(frame) is None
    assert looks_long(frame.iloc[:, 1:]) is None  # without its first (id) column
    assert looks_long(foreign_wide(pl.from_pandas(frame), "test")) is None  # read by narwhals
    for j in range(frame.shape[1] - 2):  # every three neighbouring columns
        assert looks_long(frame.iloc[:, j : j + 3]) is None


def test_random_wide_panels_are_not_refused():
    rng = np.random.default_rng(2024)
    vocabularies = [[1, 2, 3, 4, 5], ["yes", "no"], LABELS, [0.5, 1.5, 2.5], [True, False]]
    for trial in range(300):
        n = int(rng.integers(4, 200))
        r = int(rng.integers(3, 7))
        pool = vocabularies[trial % len(vocabularies)]
        x = np.array(pool, dtype=object)[rng.integers(0, len(pool), (n, r))]
        x[rng.random(x.shape) < 0.05] = None
        frame = pd.DataFrame(x, columns=[f"rater{j}" for j in range(r)])
        assert looks_long(frame) is None, frame


def test_continuous_rater_columns_are_not_refused():
    pefr = pd.read_csv(ROOT / "data" / "pefr.csv")  # subject, two meters: all distinct numbers
    rng = np.random.default_rng(7)
    scores = pd.DataFrame(rng.normal(50, 10, (40, 4)).round(1), columns=list("abcd"))
    for frame in (pefr, scores, scores.astype(int)):
        assert looks_long(frame) is None
        concord.icc(frame if frame is not pefr else frame.iloc[:, 1:])


def test_a_rater_with_another_vocabulary_is_not_a_rater_column():
    rng = np.random.default_rng(3)
    a = rng.choice(["yes", "no"], 40)
    frame = pd.DataFrame({"a": a, "b": rng.choice(["yes", "no"], 40), "c": np.char.upper(a)})
    assert looks_long(frame) is None  # 'c' shares no value, but its pairs repeat
