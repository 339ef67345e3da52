"""concord.against_gold: each rater against gold labels, the mean and its jackknife SE.

Expected values: R kappaGold's ``kappam_gold`` (its help-page example),
transcribed below in exact fractions from kappaGold's R/kappa.R (``kappa2``,
``kappam_gold``) and R/utils.R (``victorinox``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import concord

# kappaGold's man/kappam_gold.Rd example; the first column is the gold standard
HELP = [["O", "G", "O"], ["G", "G", "R"], ["R", "R", "R"], ["G", "G", "O"]]


def _kappa2(pairs: list[tuple[str, str]], scale: list[str]) -> Fraction:
    """kappaGold's kappa2 (robust=FALSE), in fractions."""
    n = len(pairs)
    agree = Fraction(sum(a == b for a, b in pairs), n)
    rows = [sum(a == s for a, _ in pairs) for s in scale]
    cols = [sum(b == s for _, b in pairs) for s in scale]
    chance = Fraction(sum(r * c for r, c in zip(rows, cols, strict=True)), n * n)
    k2 = agree - chance
    return k2 / (1 - chance) if k2 != 0 and chance < 1 else k2


def _kappam_gold(m: list[list[str]]) -> tuple[Fraction, Fraction, float]:
    """kappam_gold's value0, value and se_j (victorinox's jackknife)."""
    scale = sorted({v for row in m for v in row})

    def value0(idx: list[int]) -> Fraction:
        kappas = [_kappa2([(m[i][0], m[i][r]) for i in idx], scale) for r in (1, 2)]
        return sum(kappas, Fraction(0)) / 2  # equal weights: no rating is missing

    n = len(m)
    full = value0(list(range(n)))
    estd = [value0([j for j in range(n) if j != i]) for i in range(n)]
    mean = sum(estd, Fraction(0)) / n
    se = math.sqrt((n - 1) * sum((e - mean) ** 2 for e in estd) / n)
    return full, full - (n - 1) * (mean - full), se


def test_kappam_gold_help_example() -> None:
    g = concord.against_gold([row[1:] for row in HELP], [row[0] for row in HELP])
    value0, value, se = _kappam_gold(HELP)
    assert g.mean == pytest.approx(float(value0), abs=1e-15)
    assert g.estimate == pytest.approx(float(value), abs=1e-12)
    assert g.standard_error == pytest.approx(se, abs=1e-12)
    low, high = g.confidence_interval()
    assert high - low == pytest.approx(2 * 1.959963984540054 * se, rel=1e-9)


def test_each_rater_is_cohen_kappa_with_gold_as_rater1() -> None:
    rng = np.random.default_rng(3)
    gold = rng.integers(0, 3, 60)
    ratings = np.where(rng.random((60, 4)) < 0.7, gold[:, None], rng.integers(0, 3, (60, 4)))
    ratings = ratings.astype(float)
    ratings[rng.random((60, 4)) < 0.1] = np.nan
    g = concord.against_gold(ratings, gold, weights="quadratic")
    for r in range(4):
        keep = ~np.isnan(ratings[:, r])
        expected = concord.cohen_kappa(gold[keep], ratings[keep, r], weights="quadratic")
        assert g.results[r].statistic == expected.statistic
    sizes = np.array([r.n_items for r in g.results])
    assert g.mean == pytest.approx(sizes @ [r.statistic for r in g.results] / sizes.sum())


def test_jackknife_matches_recomputing_without_each_item() -> None:
    """The cell-wise replicates equal the mean recomputed with each item left out."""
    rng = np.random.default_rng(5)
    gold = rng.integers(0, 3, 25)
    ratings = np.where(rng.random((25, 3)) < 0.6, gold[:, None], rng.integers(0, 3, (25, 3)))
    g = concord.against_gold(ratings, gold)
    n = len(gold)

    def mean(idx: np.ndarray) -> float:
        ks = [concord.cohen_kappa(gold[idx], ratings[idx, r], labels=[0, 1, 2]) for r in range(3)]
        return float(np.mean([k.statistic for k in ks]))

    estd = np.array([mean(np.delete(np.arange(n), i)) for i in range(n)])
    se = math.sqrt((n - 1) * np.mean((estd - estd.mean()) ** 2))
    assert g.standard_error == pytest.approx(se, rel=1e-12)
    assert g.estimate == pytest.approx(g.mean - (n - 1) * (estd.mean() - g.mean), rel=1e-12)


def test_refuses_two_rater_less_functions() -> None:
    with pytest.raises(TypeError, match="two-rater"):
        concord.against_gold([[1, 2], [2, 2]], [1, 2], function=concord.fleiss_kappa)
    with pytest.raises(TypeError, match="returns a result"):
        concord.against_gold([[1, 2], [2, 2]], [1, 2], function=concord.quadratic_weighted_kappa)


def test_records() -> None:
    g = concord.against_gold([row[1:] for row in HELP], [row[0] for row in HELP])
    assert list(g.table().columns) == ["n_items", "statistic", "standard_error", "low", "high"]
    assert g.to_dict()["raters"][0]["rater"] == 0
    assert "kappam_gold" in g.explain()
    assert g.summary().startswith("The 2 raters' mean Cohen's kappa with the gold labels was")
    assert str(g).startswith("mean cohen_kappa")  # the short text table


def test_gold_series_pairs_with_a_dataframe_by_index_label() -> None:
    # kappam_gold's help example with the rows shuffled: a gold Series in the original
    # order must pair by label (as two Series do in concord), giving the example's 4/9
    import pandas as pd

    order = [3, 1, 0, 2]
    frame = pd.DataFrame([HELP[i][1:] for i in order], index=order)
    gold = pd.Series([row[0] for row in HELP])
    assert concord.against_gold(frame, gold).mean == pytest.approx(4 / 9, rel=1e-15)
    with pytest.raises(ValueError, match="'gold' parameter of against_gold"):
        concord.against_gold(frame, gold.set_axis([10, 11, 12, 13]))
    # numpy ratings have no index: a gold Series pairs by position
    rows = np.array([row[1:] for row in HELP], dtype=object)
    assert concord.against_gold(rows, gold.set_axis([10, 11, 12, 13])).mean == pytest.approx(4 / 9)


def test_edges_get_the_documented_policy() -> None:
    m = [row[1:] for row in HELP]
    with pytest.raises(ValueError, match="'confidence_level' parameter of against_gold"):
        concord.against_gold(m, [row[0] for row in HELP], confidence_level=95)
    with pytest.raises(ValueError, match="'gold' parameter of against_gold"):
        concord.against_gold(m, [None] * 4)
    # one item: nothing to leave out, so the jackknife is nan, without numpy's warnings
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g = concord.against_gold([["a", "b"], ["b", "b"]], ["a", None])
    assert g.n_items == 1 and math.isnan(g.standard_error) and math.isnan(g.estimate)


def test_an_undefined_leave_one_out_kappa_makes_the_jackknife_undefined_not_above_one():
    # 10 items on which rater and gold agree (category 1), one where they do not: leaving that
    # item out leaves one category, so κ is undefined; kappaGold's 0 would give an estimate of 1.9
    gold = [1] * 10 + [2]
    ratings = np.column_stack([gold, [1] * 11])  # rater 1 = gold; rater 2 says 1 everywhere
    with pytest.warns(concord.UndefinedKappaWarning, match="jackknife"):
        r = concord.against_gold(ratings, gold)
    assert np.isnan(r.estimate) and np.isnan(r.standard_error)
    assert r.mean == pytest.approx(0.5)  # (1 + 0) / 2: rater 1 agrees everywhere, rater 2 κ = 0


def test_an_option_the_coefficient_does_not_take_is_a_clear_error():
    ratings = np.array([[1, 2], [2, 2], [1, 1], [3, 3]])
    with pytest.raises(TypeError, match=r"'options' parameter of against_gold.*'weightz'"):
        concord.against_gold(ratings, [1, 2, 1, 3], weightz="linear")
