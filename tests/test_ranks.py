"""Kendall's W, the mean correlation, Cronbach's alpha and the OCCC against R and pingouin.

Sources: tests/reference/ranks/ranks_values.json, written by tests/reference/ranks/ranks.R
from R irr 0.84.1's ``kendall``, ``meancor`` and ``meanrho``, irrNA 0.2.3's ``kendallNA``
(and its data sets ConsistNA, IndepNA, IndepW, GPL-3) and epiR's ``epi.occc``; the
``anxiety`` data of irr (tests/reference/icc/anxiety.csv, GPL ≥ 2). pingouin 0.7's
``cronbach_alpha`` docstring examples on its bundled data sets ``cronbach_alpha`` and
``cronbach_wide_missing`` (tests/reference/ranks/pingouin_*.csv, pingouin GPL-3; the data
from www.real-statistics.com). scipy's ``friedmanchisquare`` (χ² = m(n − 1)Wt).
"""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import concord

pd = pytest.importorskip("pandas")
stats = pytest.importorskip("scipy.stats")

HERE = Path(__file__).parent / "reference"
R = json.loads((HERE / "ranks" / "ranks_values.json").read_text())
ANXIETY = pd.read_csv(HERE / "icc" / "anxiety.csv")
ANXIETY_NA = pd.read_csv(HERE / "ranks" / "anxiety_na.csv")


def ranks(name: str) -> pd.DataFrame:
    return pd.read_csv(HERE / "ranks" / f"{name}.csv")


# --- Kendall's W --------------------------------------------------------------------------


def test_kendall_w_irr_anxiety_acceptance():
    # the acceptance: irr kendall(anxiety): W = 0.502, chi2(19) = 28.6, p = 0.0724;
    # kendall(anxiety, TRUE): Wt = 0.540, chi2 = 30.76, p = 0.0429
    plain = concord.kendall_w(ANXIETY, correct=False)
    assert (round(plain.statistic, 3), plain.df, round(plain.chi_square, 1)) == (0.502, 19, 28.6)
    assert round(plain.pvalue, 4) == 0.0724
    tied = concord.kendall_w(ANXIETY)
    assert (round(tied.statistic, 3), round(tied.chi_square, 2)) == (0.540, 30.76)
    assert round(tied.pvalue, 4) == 0.0429


@pytest.mark.parametrize(
    ("key", "correct"), [("kendall_anxiety", False), ("kendall_anxiety_correct", True)]
)
def test_kendall_w_matches_irr_to_full_precision(key, correct):
    r = concord.kendall_w(ANXIETY, correct=correct)
    ref = R[key]
    assert r.statistic == pytest.approx(ref["value"], rel=1e-13)
    assert r.chi_square == pytest.approx(ref["statistic"], rel=1e-13)
    assert r.pvalue == pytest.approx(ref["p"], rel=1e-10)


def test_kendall_w_exact_small_case():
    # rank sums 4, 5, 9, 12, 15 of m = 3 raters, n = 5: W = 12·86 / (9·120) = 43/45
    r = concord.kendall_w([[1, 1, 2], [2, 2, 1], [3, 3, 3], [4, 4, 4], [5, 5, 5]])
    assert r.statistic == float(Fraction(43, 45))
    assert r.chi_square == pytest.approx(float(3 * 4 * Fraction(43, 45)))
    assert r.mean_rho == pytest.approx((3 * 43 / 45 - 1) / 2)


def test_kendall_w_tie_corrected_chi_square_is_friedmans():
    # scipy's Friedman test with the raters as blocks and the items as treatments
    rng = np.random.default_rng(7)
    x = rng.integers(1, 5, size=(12, 6))
    r = concord.kendall_w(x)
    friedman = stats.friedmanchisquare(*x)
    assert r.chi_square == pytest.approx(friedman.statistic, rel=1e-12)
    assert r.pvalue == pytest.approx(friedman.pvalue, rel=1e-10)


def test_kendall_w_float_and_integer_paths_agree():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 9, size=(200, 5))
    assert concord.kendall_w(x).statistic == pytest.approx(
        concord.kendall_w(x + 0.5).statistic, rel=1e-14
    )
    y = rng.normal(size=(300, 4))  # no ties: W = Wt
    assert concord.kendall_w(y).statistic == concord.kendall_w(y, correct=False).statistic


def test_kendall_w_f_test_legendre():
    # Legendre (2005): F = (m − 1)W/(1 − W) on n − 1 − 2/m and (m − 1)(n − 1 − 2/m) df
    r = concord.kendall_w(ANXIETY)
    w, m, n = r.statistic, 3, 20
    df1 = n - 1 - 2 / m
    assert r.f_statistic == pytest.approx((m - 1) * w / (1 - w))
    assert (r.f_df1, r.f_df2) == pytest.approx((df1, (m - 1) * df1))
    assert r.f_pvalue == pytest.approx(stats.f.sf(r.f_statistic, df1, (m - 1) * df1))


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("anxiety_na", "kendallna_anxiety_na"),
        ("irrna_consistna", "kendallna_consistna"),
        ("irrna_indepna", "kendallna_indepna"),
        ("irrna_indepw", "kendallna_indepw"),
    ],
)
def test_kendall_w_missing_ratings_match_irrna(name, key):
    r = concord.kendall_w(ranks(name))
    ref = R[key]
    assert r.method == "pairwise"
    assert r.statistic == pytest.approx(ref["W"], rel=1e-7, abs=1e-12)
    assert r.mean_rho == pytest.approx(ref["amrho"], rel=1e-7, abs=1e-12)
    assert r.mean_raters == pytest.approx(ref["amk"])
    assert r.chi_square == pytest.approx(ref["chisqu"], rel=1e-7)
    assert r.pvalue == pytest.approx(ref["p"], rel=1e-6)


def test_kendall_w_constant_ratings_are_undefined():
    with pytest.warns(concord.UndefinedKappaWarning, match="kendall_w is undefined"):
        r = concord.kendall_w([[3, 3], [3, 3], [3, 3]])
    assert math.isnan(r.statistic) and math.isnan(r.pvalue)
    assert r.to_dict()["statistic"] is None


def test_kendall_w_one_rater_all_ties_is_defined():
    # rater 2 ties every item: T = n³ − n; Wt stays defined, below 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = concord.kendall_w([[1, 2, 1], [2, 2, 2], [3, 2, 3], [4, 2, 4]])
    assert 0 < r.statistic < 1


def test_kendall_w_rater_with_one_rating_is_left_out():
    x = ANXIETY_NA.copy()
    x["lonely"] = [5.0] + [np.nan] * (len(x) - 1)
    with pytest.warns(RuntimeWarning, match=r"\['lonely'\] gave fewer than two ratings"):
        r = concord.kendall_w(x)
    assert r.statistic == concord.kendall_w(ANXIETY_NA).statistic
    assert r.n_raters == 3


def test_kendall_w_bad_input():
    with pytest.raises(
        ValueError, match="'ratings' parameter of kendall_w must be at least 2 items"
    ):
        concord.kendall_w([[1, 2, 3]])
    with pytest.raises(ValueError, match="2 raters or more"):
        concord.kendall_w([[1], [2], [3]])
    with pytest.raises(TypeError, match="'correct' parameter of kendall_w"):
        concord.kendall_w(ANXIETY, correct="yes")


def test_kendall_w_protocol():
    r = concord.kendall_w(ANXIETY)
    assert "KendallResult(statistic=0.539657" in repr(r)
    assert r.summary() == (
        "Kendall's Wt = 0.54 for 3 raters ranking 20 items, χ²(19) = 30.76, p = 0.043."
    )
    assert "m²(n³ − n) − m·ΣT_j" in r.explain()
    d = r.to_dict()
    json.dumps(d, allow_nan=False)
    frame = r.to_frame()
    assert list(frame.columns[:7]) == [
        "coefficient",
        "statistic",
        "standard_error",
        "ci_low",
        "ci_high",
        "pvalue",
        "n",
    ]
    assert frame.loc[0, "n"] == 20 and float(r) == r.statistic
    assert "<table>" in r._repr_html_() and "χ²(19)" in r._repr_html_()


# --- mean correlation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "key"), [("pearson", "meancor_anxiety"), ("spearman", "meanrho_anxiety")]
)
def test_mean_correlation_matches_irr(method, key):
    r = concord.mean_correlation(ANXIETY, method=method)
    ref = R[key]
    assert r.statistic == pytest.approx(ref["value"], rel=1e-13)
    assert r.z == pytest.approx(ref["statistic"], rel=1e-13)
    assert r.pvalue == pytest.approx(ref["p"], rel=1e-10)


def test_mean_correlation_is_fisher_mean_of_scipy_correlations():
    r = concord.mean_correlation(ANXIETY, method="spearman")
    x = ANXIETY.to_numpy()
    rhos = [stats.spearmanr(x[:, a], x[:, b])[0] for a, b in [(0, 1), (0, 2), (1, 2)]]
    assert r.correlations == pytest.approx(rhos)
    assert r.statistic == pytest.approx(np.tanh(np.mean(np.arctanh(rhos))))


def test_mean_correlation_missing_is_listwise():
    complete = ANXIETY_NA.dropna()
    assert (
        concord.mean_correlation(ANXIETY_NA).statistic
        == concord.mean_correlation(complete).statistic
    )


def test_mean_correlation_perfect_pairs_are_dropped_as_irr():
    x = np.array([[1, 1, 2], [2, 2, 1], [3, 3, 5], [4, 4, 3], [5, 5, 4]], dtype=float)
    with pytest.warns(RuntimeWarning, match="1 perfect correlation"):
        r = concord.mean_correlation(x)
    assert r.n_dropped == 1
    kept = [np.corrcoef(x[:, 0], x[:, 2])[0, 1], np.corrcoef(x[:, 1], x[:, 2])[0, 1]]
    assert r.statistic == pytest.approx(np.tanh(np.mean(np.arctanh(kept))))
    same = concord.mean_correlation([[1, 1], [2, 2], [3, 3], [4, 4]])
    assert same.statistic == 1.0


def test_mean_correlation_bad_input():
    with pytest.warns(concord.UndefinedKappaWarning):
        assert math.isnan(concord.mean_correlation([[1, 2], [1, 3], [1, 4], [1, 6]]).statistic)
    with pytest.raises(ValueError, match="at least 4 items"):
        concord.mean_correlation([[1, 2], [2, 3], [3, 3]])
    with pytest.raises(ValueError, match="Did you mean 'spearman'"):
        concord.mean_correlation(ANXIETY, method="spearmann")


# --- Cronbach's alpha ---------------------------------------------------------------------


def test_cronbach_alpha_pingouin_likert_acceptance():
    # pingouin's docstring: (0.5917188485995826, array([0.195, 0.84]))
    long = ranks("pingouin_cronbach_alpha")
    wide = long.pivot(index="Subj", columns="Items", values="Scores")
    r = concord.cronbach_alpha(wide)
    assert r.statistic == pytest.approx(0.5917188485995826, rel=1e-12)
    assert [round(v, 3) for v in r.interval] == [0.195, 0.840]


def test_cronbach_alpha_pingouin_missing():
    # pingouin: pairwise (0.732660835214447, [0.435, 0.909]); listwise 0.8016949152542373
    data = ranks("pingouin_cronbach_wide_missing")
    r = concord.cronbach_alpha(data)
    assert r.statistic == pytest.approx(0.732660835214447, rel=1e-12)
    assert [round(v, 3) for v in r.interval] == [0.435, 0.909]
    listwise = concord.cronbach_alpha(data, nan_policy="listwise")
    assert listwise.statistic == pytest.approx(0.8016949152542373, rel=1e-12)
    assert listwise.n_items == len(data.dropna())  # pingouin's interval keeps n = 12


def test_cronbach_alpha_is_icc_consistency_average():
    # on complete data alpha = ICC(C,k) (McGraw & Wong 1996)
    r = concord.cronbach_alpha(ANXIETY)
    icc = concord.icc(ANXIETY, type="consistency", unit="average")
    assert r.statistic == pytest.approx(icc.statistic, rel=1e-12)


def test_cronbach_alpha_bad_input_and_protocol():
    with pytest.warns(concord.UndefinedKappaWarning, match="total scores do not vary"):
        assert math.isnan(concord.cronbach_alpha([[2, 2], [2, 2], [2, 2]]).statistic)
    with pytest.raises(ValueError, match="nan_policy"):
        concord.cronbach_alpha(ANXIETY, nan_policy="omit")
    with pytest.raises(ValueError, match="at least 2 items"):
        concord.cronbach_alpha([[1, 2]])
    r = concord.cronbach_alpha(ANXIETY)
    assert r.confidence_interval(0.9).low > r.interval.low
    d = r.to_dict(0.9)
    assert d["ci_method"] == "feldt" and d["ci_low"] == r.confidence_interval(0.9).low
    assert r.summary().startswith("Cronbach's α was ")


# --- overall concordance correlation ------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "key"), [(ANXIETY, "occc_anxiety"), (ANXIETY_NA, "occc_anxiety_na")]
)
def test_overall_concordance_matches_epir(data, key):
    r = concord.overall_concordance(data)
    ref = R[key]
    assert r.statistic == pytest.approx(ref["occc"], rel=1e-12)
    assert r.precision == pytest.approx(ref["oprec"], rel=1e-12)
    assert r.accuracy == pytest.approx(ref["oaccu"], rel=1e-12)


def test_overall_concordance_jackknife_interval():
    # the jackknife SE of artanh(OCCC), by leaving each item out in a loop
    x = ANXIETY.to_numpy(dtype=float)
    r = concord.overall_concordance(x)
    z = np.array(
        [
            np.arctanh(concord.overall_concordance(np.delete(x, i, axis=0)).statistic)
            for i in range(20)
        ]
    )
    se = math.sqrt(19 / 20 * np.sum((z - z.mean()) ** 2))
    assert r.z_standard_error == pytest.approx(se, rel=1e-10)
    low, high = r.interval
    half = 1.959963984540054 * se
    assert (low, high) == pytest.approx(
        (math.tanh(math.atanh(r.statistic) - half), math.tanh(math.atanh(r.statistic) + half))
    )
    assert r.to_dict()["ci_method"] == "jackknife-fisher-z"


def test_overall_concordance_constant_is_undefined():
    with pytest.warns(concord.UndefinedKappaWarning):
        r = concord.overall_concordance([[1, 1], [1, 1], [1, 1]])
    assert math.isnan(r.statistic) and math.isnan(r.interval.low)


# --- concord agree --coefficients kendall-w,... --------------------------------------------


def test_cli_agree_rank_statistics():
    from click.testing import CliRunner

    from concord._cli.main import main

    path = str(HERE / "icc" / "anxiety.csv")
    names = "kendall-w,cronbach-alpha,mean-correlation,overall-concordance"
    run = CliRunner().invoke(main, ["agree", path, "--coefficients", names, "--format", "json"])
    assert run.exit_code == 0, run.output
    rows = json.loads(run.output)["rank_statistics"]
    assert [r["coefficient"] for r in rows] == [
        "Kendall's Wt",
        "Cronbach's alpha",
        "mean Pearson r",
        "overall concordance correlation",
    ]
    assert rows[0]["statistic"] == concord.kendall_w(ANXIETY).statistic
    assert rows[3]["statistic"] == pytest.approx(R["occc_anxiety"]["occc"])
    both = CliRunner().invoke(main, ["agree", path, "--coefficients", "fleiss,kendall"])
    assert both.exit_code == 0 and "Fleiss' kappa" in both.output and "Kendall's Wt" in both.output
    chunked = CliRunner().invoke(
        main, ["agree", path, "--coefficients", "kendall", "--chunk-rows", "5"]
    )
    assert chunked.exit_code == 2 and "--chunk-rows" in chunked.output
    wrong = CliRunner().invoke(main, ["agree", path, "--coefficients", "kendal"])
    assert wrong.exit_code == 2 and "kendall (kendall_w)" in wrong.output


def test_kendall_w_threaded_ranking_equals_the_sequential(monkeypatch):
    from concord._coefficients.ranks import ranking

    rng = np.random.default_rng(11)
    x = np.column_stack([rng.normal(size=3000), rng.integers(0, 40, 3000), rng.normal(size=3000)])
    x[::7, 2] = 0.5  # ties in a float column
    sequential = concord.kendall_w(x)
    monkeypatch.setattr(ranking, "_THREADED", 1)
    monkeypatch.setattr(ranking.os, "cpu_count", lambda: 4)
    threaded = concord.kendall_w(x)
    assert threaded.statistic == sequential.statistic and threaded.ties == sequential.ties
    assert threaded.chi_square == pytest.approx(stats.friedmanchisquare(*x).statistic, rel=1e-12)


def _exact_w(x: np.ndarray) -> Fraction:
    """Kendall's Wt from its definition in Python integers: scipy's rankdata midranks (halves
    of integers, so 2R is whole) and numpy's unique counts of each column's ties."""
    n, m = x.shape
    twice = [int(v) for v in np.rint(2 * stats.rankdata(x, axis=0).sum(axis=1)).tolist()]
    spread = 3 * sum((t - m * (n + 1)) ** 2 for t in twice)
    ties = sum(
        int(t) ** 3 - int(t) for j in range(m) for t in np.unique(x[:, j], return_counts=True)[1]
    )
    return Fraction(spread, m * m * (n**3 - n) - m * ties)


@pytest.mark.parametrize("kind", ["binary", "floats with ties"])
def test_kendall_w_is_the_exact_ratio_rounded_once(kind):
    # Σ(t³ − t) of a tie of 3·10⁵ and Σ(R_i − R̄)² exceed 2**53: float sums round (and their
    # order differs between CPUs); W must be the exact ratio, correctly rounded (issue 24 item 9)
    rng = np.random.default_rng(1)
    n = 600_001
    if kind == "binary":  # the float formula before issue 29's fix missed W here by one ulp
        x = (rng.random((n, 3)) < [0.5, 0.45, 0.55]).astype(np.int64)
        x[:, 1] = np.where(rng.random(n) < 0.3, x[:, 0], x[:, 1])
    else:
        x = np.round(rng.normal(size=(n, 3)), 1) + 0.25  # ~60 tied values a column, not whole
    r = concord.kendall_w(x)
    exact = _exact_w(x)
    assert r.statistic == float(exact)
    counts = [np.unique(x[:, j], return_counts=True)[1].tolist() for j in range(3)]
    assert r.ties == float(sum(t**3 - t for c in counts for t in c))


@pytest.mark.parametrize(
    "case", ["normal", "tiny", "rounded", "low bits only", "zeros and infinities", "nan"]
)
def test_packed_sort_gives_argsorts_midranks(case):
    # large float columns sort packed (value key, index) integers: the midranks and tie
    # sums of np.argsort's order, bit for bit, including runs that differ in the low bits
    from concord._coefficients.ranks import ranking

    rng = np.random.default_rng(8)
    n = 70_000
    x = rng.normal(size=n)
    if case == "tiny":
        x *= 1e-300
    elif case == "rounded":
        x = np.round(x, 2)
    elif case == "low bits only":  # equal top bits: every run is re-sorted by value
        x = 1.0 + rng.integers(0, 1000, n) * 2.0**-52
    elif case == "zeros and infinities":
        x[::7], x[::11], x[::13], x[::17] = 0.0, -0.0, np.inf, -np.inf
    elif case == "nan":
        x[5] = -np.nan
    order, ordered = ranking.sorted_order(x)
    np.testing.assert_array_equal(ordered, x[order])
    assert np.array_equal(np.sort(order), np.arange(n))
    reference = np.argsort(x)
    new = np.empty(n, dtype=bool)
    new[:1] = True
    np.not_equal(x[reference][1:], x[reference][:-1], out=new[1:])
    ranks, ties = ranking.midranks(x)
    np.testing.assert_array_equal(ranks, ranking._from_sorted(reference, new))
    assert ties == ranking.tie_sum(np.diff(np.append(np.flatnonzero(new), n)), n)
    np.testing.assert_array_equal(ranking.column_ranks(x, False)[0], ranks)
