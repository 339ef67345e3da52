"""Bowker's symmetry test and Cochran's Q against statsmodels and pingouin.

Sources: statsmodels 0.15's ``SquareTable.symmetry`` (Bowker 1948), ``mcnemar`` and
``cochrans_q``; pingouin's ``cochran`` docstring example on its bundled ``cochran`` data
(tests/reference/ranks/pingouin_cochran.csv, pingouin GPL-3; data from
www.real-statistics.com): Q = 6.706, p-unc = 0.034981.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import concord

pd = pytest.importorskip("pandas")
tables = pytest.importorskip("statsmodels.stats.contingency_tables")

COCHRAN = pd.read_csv(Path(__file__).parent / "reference" / "ranks" / "pingouin_cochran.csv")


@pytest.mark.parametrize("seed", range(5))
def test_symmetry_matches_statsmodels(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, 60)
    b = np.where(rng.random(60) < 0.6, a, rng.integers(0, 4, 60))
    r = concord.symmetry_test(a, b, labels=[0, 1, 2, 3])
    table = np.zeros((4, 4))
    np.add.at(table, (a, b), 1)
    ref = tables.SquareTable(table, shift_zeros=False).symmetry()
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert r.df == ref.df and r.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def test_symmetry_two_categories_is_mcnemar():
    a = [0, 0, 0, 1, 1, 0, 1, 0, 0, 1]
    b = [1, 1, 0, 1, 0, 1, 1, 1, 0, 1]
    r = concord.symmetry_test(a, b)
    ref = tables.mcnemar([[3, 4], [1, 2]], exact=False, correction=False)
    assert r.statistic == pytest.approx(ref.statistic) and r.pvalue == pytest.approx(ref.pvalue)


def test_symmetry_protocol():
    r = concord.symmetry_test(["a", "b", "b", "c"], ["b", "a", "c", "b"])
    assert r.table.tolist() == [[0, 1, 0], [1, 0, 1], [0, 1, 0]] and r.statistic == 0
    assert r.summary() == "Bowker's test of symmetry: χ²(3) = 0.00, p = 1.000, n = 4 pairs."
    json.dumps(r.to_dict(), allow_nan=False)
    assert r.to_frame().loc[0, "coefficient"] == "Bowker's symmetry test"
    with pytest.raises(ValueError, match="symmetry_test"):
        concord.symmetry_test([1, 2], [1])


def test_cochran_q_pingouin_and_statsmodels():
    wide = COCHRAN.pivot(index="Subject", columns="Time", values="Energetic")
    r = concord.cochran_q(wide)
    assert round(r.statistic, 3) == 6.706 and round(r.pvalue, 6) == 0.034981  # pingouin
    ref = tables.cochrans_q(wide.to_numpy())
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-13) and r.df == ref.df
    assert r.raters == ("Friday", "Monday", "Wednesday")
    assert r.proportions.tolist() == pytest.approx([0.7, 0.3, 0.65])


def test_cochran_q_labels_and_symmetry_in_the_categories():
    x = np.array([[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 0, 0], [1, 0, 1], [1, 0, 0]])
    words = np.where(x == 1, "yes", "no")
    assert concord.cochran_q(words).statistic == concord.cochran_q(x).statistic
    assert concord.cochran_q(1 - x).statistic == concord.cochran_q(x).statistic


def test_cochran_q_bad_input():
    with pytest.raises(ValueError, match="a missing rating in row 1"):
        concord.cochran_q([[1, 0], [None, 1], [0, 0]])
    r = concord.cochran_q([[1, 0], [np.nan, 1], [0, 0], [1, 1], [1, 0]], nan_policy="omit")
    assert r.n_items == 4
    with pytest.raises(ValueError, match="two categories"):
        concord.cochran_q([[1, 0], [2, 1]])
    with pytest.warns(concord.UndefinedKappaWarning, match="cochran_q is undefined"):
        assert math.isnan(concord.cochran_q([[1, 1], [0, 0]]).statistic)


def test_cochran_q_keeps_the_raters_names_and_escapes_them_in_html():
    frame = pd.DataFrame({"<script>": [1, 0, 1, 1], "b&c": [0, 0, 1, 0], "gpt": [1, 1, 1, 0]})
    r = concord.cochran_q(frame)
    assert r.raters == ("<script>", "b&c", "gpt") and "<script> 0.75" in r.explain()
    html = r._repr_html_()
    assert "&lt;script&gt;" in html and "<script>" not in html and "b&amp;c" in html
