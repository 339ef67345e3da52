"""Every input, every function (issue 25, item 4): the long form and column names everywhere.

Every function that takes ratings takes the long form (``item=``, ``rater=``,
``rating=``); the two-rater functions pick their two raters with ``raters=``
(or take the only two a long table has), and ``raters=`` also names two
columns of a wide frame; ``alt_test`` takes the candidate and
``against_gold`` the gold as a column name or, in the long form, a rater name.

Expected values: the same function called on the same ratings as two columns
(a layout changes no number, so the results must be equal), and, as anchors,
the published values the functions' docstrings name: scikit-learn's
``cohen_kappa_score`` for seed 003 (0.545454...), R kappaGold's
``kappam_gold`` help-page example, Bland & Altman (1986)'s PEFR data.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import concord
from tests.registry import REGISTRY, VARIANTS, ids, same, sample, statistic

ROOT = Path(__file__).parents[1]
PAIRS = [v for v in VARIANTS if v.pairs]
SUMS = [c for c in REGISTRY if c.table == "sums" and c.arity == 2]

GOLD = ["positive", "neutral", "negative", "positive", "neutral"]
GOLD += ["positive", "negative", "neutral", "positive", "negative"]
MODEL = ["positive", "neutral", "negative", "neutral", "neutral"]
MODEL += ["positive", "positive", "neutral", "positive", "neutral"]


def long_table(columns: dict[str, list], order_seed: int = 3) -> dict[str, list]:
    """Wide columns (one per rater) as long rows in a shuffled order; None ratings kept."""
    rows = [(f"i{i}", r, v) for r, col in columns.items() for i, v in enumerate(col)]
    order = np.random.default_rng(order_seed).permutation(len(rows))
    doc, who, label = zip(*(rows[k] for k in order), strict=True)
    return {"doc": list(doc), "who": list(who), "label": list(label)}


LONG = {"item": "doc", "rater": "who", "rating": "label"}


def kinds(table: dict[str, list]) -> list:
    """The same long table as a dict, pandas, polars (eager, lazy) and pyarrow."""
    frame = pd.DataFrame(table)
    return [table, frame, pl.DataFrame(table), pl.DataFrame(table).lazy(), pa.table(table)]


def test_cohen_kappa_long_form_is_scikit_learns_value():
    # scikit-learn's cohen_kappa_score(GOLD, MODEL) = 0.5454545454545454 (seed 003)
    table = long_table({"gold": GOLD, "model": MODEL})
    for data in kinds(table):
        r = concord.cohen_kappa(data, **LONG, raters=("gold", "model"))
        assert (r.statistic, r.n) == (concord.cohen_kappa(GOLD, MODEL).statistic, 10)
        assert r.statistic == pytest.approx(0.5454545454545454, abs=1e-15)
        # a long table of exactly two raters needs no raters=
        assert concord.cohen_kappa(data, **LONG).statistic == r.statistic


@pytest.mark.parametrize("variant", PAIRS, ids=ids(PAIRS))
def test_every_two_rater_function_takes_the_long_form(variant):
    a, b = sample(variant, 40, seed=5)
    if variant.options.get("nan_policy") == "omit":
        a[3], b[7] = None, None
    wide = statistic(variant((a, b)))
    table = long_table({"a": a, "b": b, "c": list(reversed(a))})
    for data in kinds(table)[:3]:
        assert same(statistic(variant((data,), **LONG, raters=("a", "b"))), wide)
    # the raters in the other order: rater1 is the first named
    swapped = statistic(variant((table,), **LONG, raters=("b", "a")))
    assert same(swapped, statistic(variant((b, a))))


@pytest.mark.parametrize("variant", PAIRS, ids=ids(PAIRS))
def test_raters_names_two_columns_of_a_wide_frame(variant):
    a, b = sample(variant, 30, seed=8)
    columns = {"a": a, "x": b, "b": b}
    wide = statistic(variant((a, b)))
    for data in (pd.DataFrame(columns).astype(object), pl.DataFrame(columns)):
        assert same(statistic(variant((data,), raters=("a", "b"))), wide)


@pytest.mark.parametrize("c", SUMS, ids=[c.name for c in SUMS])
def test_continuous_two_rater_functions_take_the_long_form(c):
    pefr = pd.read_csv(ROOT / "data" / "pefr.csv")  # Bland & Altman (1986), Table 1
    x, y = pefr["wright"].tolist(), pefr["mini_wright"].tolist()
    wide = c.function(x, y)
    table = long_table({"wright": x, "mini": y})
    for data in kinds(table):
        got = c.function(data, **LONG, raters=("wright", "mini"))
        assert got.statistic == wide.statistic and got.n == wide.n
    frame = pd.DataFrame({"wright": x, "mini": y})
    assert c.function(frame, raters=("wright", "mini")).statistic == wide.statistic


def test_bland_altman_long_form_is_bland_altmans_table_1():
    # Bland & Altman (1986): bias -2.1 l/min, SD 38.8 (Wright minus mini Wright)
    pefr = pd.read_csv(ROOT / "data" / "pefr.csv")
    melted = pefr.melt(id_vars="subject", var_name="meter", value_name="pefr")
    r = concord.bland_altman(
        pl.from_pandas(melted),
        item="subject",
        rater="meter",
        rating="pefr",
        raters=("wright", "mini_wright"),
    )
    assert round(r.bias, 1) == -2.1 and round(r.sd, 1) == 38.8


def test_specific_agreement_long_form_many_and_two_raters():
    columns = {"a": list("xxyyxyxx"), "b": list("xyyyxyxy"), "c": list("xxyyyyxx")}
    table = long_table(columns)
    matrix = np.column_stack(list(columns.values()))
    many = concord.specific_agreement(matrix)
    for data in kinds(table):
        got = concord.specific_agreement(data, **LONG)
        np.testing.assert_array_equal(got.agreement, many.agreement)
    two = concord.specific_agreement(columns["a"], columns["b"])
    got = concord.specific_agreement(table, **LONG, raters=("a", "b"))
    np.testing.assert_array_equal(got.agreement, two.agreement)


def test_icc_long_form_of_polars_and_pyarrow():
    sf = pd.read_csv(ROOT / "data" / "shrout_fleiss1979.csv")  # Shrout & Fleiss (1979)
    wide = concord.icc(sf)
    melted = sf.reset_index().melt(id_vars="index", var_name="judge", value_name="score")
    for data in (melted, pl.from_pandas(melted), pa.Table.from_pandas(melted)):
        got = concord.icc(data, item="index", rater="judge", rating="score")
        assert got.statistic == wide.statistic


def test_groups_and_sample_weight_name_columns_of_the_long_table():
    a, b = list("xxyyxyxxyx"), list("xyyyxyxyyx")
    weights = [1.0, 2.0, 1.0, 0.5, 1.0, 3.0, 1.0, 1.0, 2.0, 1.0]
    clusters = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    rows = []
    for i in range(10):
        for who, v in (("a", a[i]), ("b", b[i])):
            rows.append((f"i{i}", who, v, weights[i], clusters[i]))
    table = pd.DataFrame(rows, columns=["doc", "who", "label", "w", "g"])
    want = concord.cohen_kappa(a, b, sample_weight=weights)
    got = concord.cohen_kappa(table, **LONG, sample_weight="w")
    assert got.statistic == want.statistic
    want = concord.cohen_kappa(a, b, groups=clusters)
    got = concord.cohen_kappa(table, **LONG, groups="g")
    assert (got.statistic, got.standard_error) == (want.statistic, want.standard_error)
    with pytest.raises(ValueError, match="name of a column of the long table"):
        concord.cohen_kappa(table, **LONG, sample_weight=weights)


def test_alt_test_takes_the_candidate_by_name():
    truth = np.tile(["yes", "no", "no", "yes", "maybe"], 8)
    humans = np.column_stack([truth, truth, truth]).astype(object)
    humans[[0, 5, 10, 15, 20, 25], 0] = "maybe"
    humans[[1, 6, 11, 16], 1] = "yes"
    humans[[2, 7, 12, 17, 22], 2] = "yes"
    judge = truth.astype(object)
    judge[[3, 8]] = "no"
    # the docstring's example: ω = 1.0 and ρ = 0.95 for the judge
    want = concord.alt_test(humans, judge, epsilon=0.2)
    frame = pd.DataFrame(humans, columns=["h1", "h2", "h3"]).assign(gpt_judge=judge)
    melted = frame.reset_index().melt(id_vars="index", var_name="who", value_name="label")
    calls = [
        concord.alt_test(frame, "gpt_judge", epsilon=0.2),
        concord.alt_test(pl.from_pandas(frame), "gpt_judge", epsilon=0.2),
        concord.alt_test(
            melted, "gpt_judge", item="index", rater="who", rating="label", epsilon=0.2
        ),
        concord.alt_test(
            pl.from_pandas(melted),
            "gpt_judge",
            item="index",
            rater="who",
            rating="label",
            epsilon=0.2,
        ),
    ]
    for got in calls:
        assert (got.winning_rate, got.advantage_probability) == (1.0, want.advantage_probability)
        np.testing.assert_array_equal(got.pvalues, want.pvalues)
    assert round(want.advantage_probability, 3) == 0.95
    with pytest.raises(ValueError, match="'candidate' parameter of alt_test must be a column"):
        concord.alt_test(frame, "nobody")
    with pytest.raises(ValueError, match="a rater of the long table"):
        concord.alt_test(melted, "nobody", item="index", rater="who", rating="label")


def test_against_gold_takes_the_gold_by_name():
    # kappaGold's kappam_gold help-page example: κ 0.5556 and 0.3333, mean 0.4444
    m = [["O", "G", "O"], ["G", "G", "R"], ["R", "R", "R"], ["G", "G", "O"]]
    frame = pd.DataFrame(m, columns=["gold", "r1", "r2"])
    melted = frame.reset_index().melt(id_vars="index", var_name="who", value_name="label")
    calls = [
        concord.against_gold(frame, "gold"),
        concord.against_gold(pl.from_pandas(frame), "gold"),
        concord.against_gold(melted, "gold", item="index", rater="who", rating="label"),
        concord.against_gold(
            pa.Table.from_pandas(melted), "gold", item="index", rater="who", rating="label"
        ),
    ]
    for got in calls:
        assert [round(r.statistic, 4) for r in got.results] == [0.5556, 0.3333]
        assert round(got.mean, 4) == 0.4444 and tuple(got.raters) == ("r1", "r2")


def test_errors_name_the_raters():
    table = long_table({"a": [1, 2, 3, 1], "b": [1, 2, 2, 1], "c": [2, 2, 3, 1]})
    # raters in order of first appearance in the (shuffled) table
    with pytest.raises(ValueError, match=r"raters of the long table \('c', 'b', 'a'\)"):
        concord.cohen_kappa(table, **LONG, raters=("a", "z"))
    with pytest.raises(ValueError, match="two rater names"):
        concord.cohen_kappa(table, **LONG)  # three raters: which two?
    with pytest.raises(ValueError, match="two different raters"):
        concord.cohen_kappa(table, **LONG, raters=("a", "a"))
    with pytest.raises(TypeError, match="'rater2' parameter of cohen_kappa must be left out"):
        concord.cohen_kappa(table, [1, 2], **LONG, raters=("a", "b"))
    frame = pd.DataFrame({"a": [1, 2], "b": [1, 2]})
    with pytest.raises(ValueError, match=r"columns of the frame: 'a', 'b'\. Got 'z'"):
        concord.cohen_kappa(frame, raters=("a", "z"))
    with pytest.raises(TypeError, match="'rater2' parameter of cohen_kappa must be the second"):
        concord.cohen_kappa([1, 2, 3])


def test_ordered_rater_of_a_long_table_declares_its_order():
    # a pl.Enum rating column orders weighted kappa as labels= would
    order = ["low", "mid", "high"]
    a = ["low", "mid", "high", "mid", "low", "high"]
    b = ["low", "high", "high", "mid", "mid", "high"]
    table = long_table({"a": a, "b": b})
    frame = pl.DataFrame(table).with_columns(pl.col("label").cast(pl.Enum(order)))
    got = concord.cohen_kappa(frame, **LONG, raters=("a", "b"), weights="quadratic")
    assert got.statistic == concord.cohen_kappa(a, b, weights="quadratic", labels=order).statistic
