"""concord.rater_diagnostics: leave one rater out, against the panel, pairwise.

Expected values: the public functions themselves on the panel without the
rater (bit for bit), concord.compare's paired SE (pairedCAC's method, checked
in tests/test_compare.py), Cohen's kappa of hand-made references.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import concord
from concord._studies.raters.diagnostics_panel import panel_reference

NAN = float("nan")
# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", reliability data
KRIPPENDORFF = [
    [1, 1, NAN, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
    [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [NAN, 5, 5, 5], [NAN, NAN, 1, 1], [NAN, NAN, 3, NAN],
]  # fmt: skip
FUNCTIONS = [
    concord.krippendorff_alpha,
    concord.fleiss_kappa,
    concord.gwet_ac,
    concord.brennan_prediger,
    concord.percent_agreement,
    concord.conger_kappa,
    concord.light_kappa,
]


def _panel(seed: int, n: int = 80, raters: int = 5, missing: float = 0.1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 5, n)
    x = np.where(rng.random((n, raters)) < 0.7, truth[:, None], rng.integers(1, 5, (n, raters)))
    x = x.astype(float)
    x[rng.random((n, raters)) < missing] = np.nan
    x[:, 0] = np.where(np.isnan(x[:, 0]), truth, x[:, 0])  # every item rated
    return x


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.__name__)
def test_without_is_the_function_on_the_other_raters(function: object) -> None:
    x = np.array(KRIPPENDORFF)
    d = concord.rater_diagnostics(x, function=function)
    assert d.full.statistic == function(x).statistic  # type: ignore[operator]
    for r in range(4):
        sub = np.delete(x, r, axis=1)
        sub = sub[~np.isnan(sub).all(axis=1)]
        expected = function(sub, labels=[1, 2, 3, 4, 5]).statistic  # type: ignore[operator]
        assert d.without[r].statistic == expected


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.__name__)
def test_change_is_compare_paired(function: object) -> None:
    x = _panel(1)
    d = concord.rater_diagnostics(x, function=function)
    for r in (0, 3):
        c = concord.compare(function, x, np.delete(x, r, axis=1), labels=[1, 2, 3, 4])  # type: ignore[arg-type]
        assert d.changes[r].difference == pytest.approx(c.difference, abs=1e-14)
        assert d.changes[r].standard_error == pytest.approx(c.standard_error, rel=1e-10)
        assert d.changes[r].pvalue == pytest.approx(c.pvalue, rel=1e-9)


def test_groups_as_compare() -> None:
    x = _panel(2)
    groups = np.arange(x.shape[0]) // 4
    d = concord.rater_diagnostics(x, function=concord.fleiss_kappa, groups=groups)
    c = concord.compare(concord.fleiss_kappa, x, x[:, 1:], groups=groups, labels=[1, 2, 3, 4])
    assert d.changes[0].standard_error == pytest.approx(c.standard_error, rel=1e-10)
    assert d.changes[0].df == c.df


def test_a_random_rater_is_flagged() -> None:
    x = _panel(4, n=400, missing=0.0)
    x[:, 2] = np.random.default_rng(9).integers(1, 5, 400)
    d = concord.rater_diagnostics(x, function=concord.fleiss_kappa)
    # with 400 items every change is significant: leaving a good rater out lowers kappa
    assert 2 in d.flagged and d.table()["flagged"].iloc[2]
    assert [c.difference > 0 for c in d.changes] == [False, False, True, False, False]


def test_versus_panel_majority_by_hand() -> None:
    x = np.array([[1, 1, 2], [2, 2, 2], [1, 2, 1], [3, 3, 3], [1, 2, 3]])
    d = concord.rater_diagnostics(x, function=concord.fleiss_kappa)
    # rater 0 against raters 1 and 2: majorities 1? no: (1,2) tie, 2, (2,1) tie, 3, (2,3) tie
    expected = concord.cohen_kappa([2, 3], [2, 3], labels=[1, 2, 3])
    assert d.versus_panel[0].statistic == expected.statistic
    assert d.versus_panel[0].n_items == 2
    assert d.pairwise[0, 1] == concord.cohen_kappa(x[:, 0], x[:, 1], labels=[1, 2, 3]).statistic
    assert d.pairwise[1, 0] == d.pairwise[0, 1] and d.pairwise[2, 2] == 1


def test_panel_reference() -> None:
    counts = np.array([[2, 1, 0], [1, 1, 0], [0, 0, 0], [1, 0, 2], [1, 1, 1]])
    assert panel_reference(counts, False).tolist() == [0, -1, -1, 2, -1]
    # lower medians: 1 1 2 → 1; 1 2 → 1; none; 1 3 3 → 3; 1 2 3 → 2
    assert panel_reference(counts, True).tolist() == [0, 0, -1, 2, 1]


def test_weighted_and_interval_levels_use_weighted_kappa() -> None:
    x = _panel(6)
    d = concord.rater_diagnostics(x, level="interval")
    w = concord.rater_diagnostics(x, function=concord.fleiss_kappa, weights="quadratic")
    for r in (d, w):
        assert r.pairwise[1, 2] == pytest.approx(
            concord.cohen_kappa(x[:, 1], x[:, 2], weights="quadratic", nan_policy="omit",
                                labels=[1, 2, 3, 4]).statistic
        )  # fmt: skip


def test_long_form_and_names() -> None:
    x = _panel(7, n=30)
    frame = pd.DataFrame(x, columns=["ann", "bo", "cy", "di", "ed"])
    wide = concord.rater_diagnostics(frame)
    long = frame.reset_index().melt(id_vars="index", var_name="who", value_name="score").dropna()
    d = concord.rater_diagnostics(long, item="index", rater="who", rating="score")
    assert d.raters == wide.raters == ("ann", "bo", "cy", "di", "ed")
    assert [r.statistic for r in d.without] == [r.statistic for r in wide.without]
    assert list(d.table().index) == ["ann", "bo", "cy", "di", "ed"]


def test_category_distributions() -> None:
    x = np.array(KRIPPENDORFF)
    d = concord.rater_diagnostics(x)
    assert d.category_counts[0].tolist() == [3, 3, 2, 1, 0]
    assert d.panel_counts.tolist() == [9, 13, 11, 5, 3]  # counted by hand
    assert d.panel_shares.sum() == pytest.approx(1)
    assert d.table()["share_1"].iloc[0] == pytest.approx(3 / 9)


def test_records_and_refusals() -> None:
    d = concord.rater_diagnostics(KRIPPENDORFF)
    record = d.to_dict()
    assert record["coefficient"] == "krippendorff_alpha" and len(record["raters"]) == 4
    assert "Leaving out 2" in d.explain()
    assert str(d).splitlines()[0] == "krippendorff_alpha of the panel: 0.743"  # the table
    assert d.summary().startswith("Krippendorff's alpha of the 4 raters was 0.74; leaving out")
    assert d.pairwise_frame().shape == (4, 4)
    with pytest.raises(TypeError, match="many raters"):
        concord.rater_diagnostics(KRIPPENDORFF, function=concord.cohen_kappa)
    with pytest.raises(ValueError, match="three raters"):
        concord.rater_diagnostics([[1, 2], [2, 2]])


def test_marginal_homogeneity_against_the_majority_by_hand() -> None:
    x = np.array([[1, 1, 2], [2, 2, 2], [1, 2, 1], [3, 3, 3], [1, 2, 3], [1, 1, 1], [2, 1, 1]])
    d = concord.rater_diagnostics(x, function=concord.fleiss_kappa)
    # rater 0 against the majority of raters 1 and 2, items with no tie (by hand):
    # item 1: (2,2) → 2, item 3: (3,3) → 3, item 5: (1,1) → 1, item 6: (1,1) → 1
    expected = concord.marginal_homogeneity([2, 3, 1, 2], [2, 3, 1, 1], labels=[1, 2, 3])
    test = d.homogeneity[0]
    assert (test.statistic, test.df, test.pvalue) == (
        expected.statistic,
        expected.df,
        expected.pvalue,
    )
    row = d.table().iloc[0]
    assert row["homogeneity_pvalue"] == expected.pvalue and row["homogeneity_df"] == expected.df


def test_a_rater_who_overuses_a_category_is_flagged_for_marginals() -> None:
    x = _panel(11, n=100, missing=0.0)
    # rater 3 says 1 wherever it would say 2: a shift of the marginals
    x[:, 3] = np.where(x[:, 3] == 2, 1, x[:, 3])
    d = concord.rater_diagnostics(x, function=concord.fleiss_kappa)
    # the shifted rater also tilts the others' references, a little: p ≈ 0.2 for them here
    assert d.homogeneity[3].pvalue < 1e-4 and d.marginals_flagged == (3,)
    assert d.table()["marginals_flagged"].tolist() == [False, False, False, True, False]
    assert "†" in str(d) and "Stuart–Maxwell" in d.explain()
    assert d.summary().endswith("categories unlike the panel's: 3.")


def test_marginal_homogeneity_is_against_the_majority_with_weights_too() -> None:
    x = _panel(12, n=120)
    plain = concord.rater_diagnostics(x, function=concord.fleiss_kappa)
    weighted = concord.rater_diagnostics(x, function=concord.fleiss_kappa, weights="quadratic")
    # the kappas take the lower median; the marginals test keeps the majority, which leans
    # to no side (the lower median of two raters who disagree is always the lower label)
    for a, b in zip(plain.homogeneity, weighted.homogeneity, strict=True):
        assert (a.statistic, a.df, a.pvalue) == (b.statistic, b.df, b.pvalue)
    assert weighted.versus_panel[0].statistic != plain.versus_panel[0].statistic


def test_an_option_the_coefficient_does_not_take_names_rater_diagnostics():
    # krippendorff_alpha takes level=, not weights=: the error says so, in concord's words
    ratings = np.random.default_rng(0).integers(0, 3, (30, 4))
    with pytest.raises(TypeError, match=r"'options' parameter of rater_diagnostics.*level"):
        concord.rater_diagnostics(ratings, weights="linear")


@pytest.mark.parametrize(
    "weights", [None, "linear", "quadratic", "ratio", "custom thirds", "custom object"]
)
def test_pairwise_kappas_are_the_per_pair_kappas_bit_for_bit(weights):
    # every pair's kappa comes from one product of one-hot codes, not a result per pair:
    # the same floats as Cohen's kappa of the pair's table (cohen_kappa's core), nan alike
    from concord._data.labels import Labels
    from concord._studies.raters import diagnostics_panel as panel

    rng = np.random.default_rng(11)
    k = 4
    if weights == "custom thirds":
        weights = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) / 3
    elif weights == "custom object":  # weights beyond int64's exact range: the per-pair path
        weights = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) * 2.0**70
        weights[weights > 0] += np.array([1.0, 2.0**-40, 3.0] * 4)[: int((weights > 0).sum())]
    labels = Labels((1, 2, 5, 9), ordered=True)
    codes = rng.integers(-1, k, (60, 7))
    codes[:, 3] = 2  # one rater with one category: nan against anyone whose table has B = 0
    codes[:30, 4] = -1
    got = panel.pairwise_kappas(codes, labels, weights)
    with pytest.MonkeyPatch.context() as mp:  # blocks of raters and chunks of items
        mp.setattr(panel, "_CELLS", 90)
        np.testing.assert_array_equal(panel.pairwise_kappas(codes, labels, weights), got)
    for g in range(7):
        for h in range(g + 1, 7):
            want = panel._kappa(codes[:, g], codes[:, h], labels, weights).statistic
            assert got[g, h] == got[h, g]
            assert (np.isnan(want) and np.isnan(got[g, h])) or got[g, h] == want


def test_pairwise_kappa_divides_wide_sums_as_python_ints():
    # B and B − nA past 2**53: the int64 sums are divided as Python ints, rounded once
    from concord._coefficients.kappa.cohen_core import weighted_kappa_core
    from concord._studies.raters.diagnostics_panel import _kappas

    table = np.array([[2**26, 2**25 + 1], [2**25, 2**26 + 3]], dtype=np.int64)
    w = 1 - np.eye(2, dtype=np.int64)
    want = weighted_kappa_core(table, w.astype(np.float64))[0]
    assert _kappas(table[None], w)[0] == want


def test_a_panel_rated_by_one_rater_only_is_refused_in_one_sentence():
    # leaving that rater out leaves no rating: nothing can be computed (was ZeroDivisionError)
    for function in FUNCTIONS:
        with pytest.raises(ValueError, match=r"ratings by two raters or more.*Got ratings by 2"):
            concord.rater_diagnostics([[None, None, 1]], function=function)


@pytest.mark.parametrize("function", FUNCTIONS)
def test_an_undefined_side_is_nan_with_the_warning(function):
    # one category only ([[None, 1, 1]]: chance agreement 1), or no item rated twice without
    # a rater: that side is undefined, nan with UndefinedKappaWarning (was ZeroDivisionError
    # in Gwet's per-item terms)
    for panel in ([[None, 1, 1]], [[1, None, None], [None, 2, 2]]):
        with pytest.warns(concord.UndefinedKappaWarning):
            d = concord.rater_diagnostics(panel, function=function)
        assert np.isnan(d.without[1].statistic) and np.isnan(d.changes[1].difference)
