"""Categories and marginals: marginal homogeneity, specific agreement, PABAK, Bangdiwala's B.

Expected values and their sources:
- Stuart's vision data (R irr's ``vision``, Stuart 1953): irr 0.84.1's
  ``stuart.maxwell.mh`` χ²(3) = 11.9565696229826, p = 0.0075334250548, and
  ``bhapkar`` χ²(3) = 11.97572015552567, p = 0.00746679746972, both run in
  R 4 from github:cran/irr's R/ sources and data/vision.rda.
- epiR 2.0.57 ``epi.kappa(matrix(c(19, 6, 10, 256), 2))`` (its example 1,
  IFAT), run in R: PABAK 0.8900343643 [0.8244906155, 0.9364991377], prevalence
  index −0.8144329897, bias index 0.01374570447, McNemar χ² 1, p 0.3173105079.
- irrCAC's README (Gwet): ``bangdiwala.table(cont3x3abstractors)`` B 0.8059604,
  SE 0.05449465, CI (0.698, 0.914).
- vcd 1.4-13's ``agreementplot`` (R/agreementplot.R from github:cran/vcd, run in
  R): ``t(SexualFun)`` B 0.146462370437, B^w 0.498172349907 (default weights);
  the abstractors table with weights c(1, 0.75, 0): B^w 0.951490102241.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import concord
from concord._coefficients.kappa.categories import homogeneity_of_table

VISION = np.array(
    [[1520, 266, 124, 66], [234, 1512, 432, 78], [117, 362, 1772, 205], [36, 82, 179, 492]]
)
IFAT = np.array([[256, 6], [10, 19]])  # epiR's table with "positive" as the second label
ABSTRACTORS = np.array([[13, 0, 0], [0, 20, 7], [0, 4, 56]])
SEXUAL_FUN = np.array([[7, 7, 2, 3], [2, 8, 3, 7], [1, 5, 4, 9], [2, 8, 9, 14]]).T


def pairs(table: np.ndarray, labels: list | None = None) -> tuple[list, list]:
    """Expand a k×k count table into two raters' ratings (rows: rater1)."""
    k = table.shape[0]
    names = labels or list(range(k))
    r1 = [names[i] for i in range(k) for j in range(k) for _ in range(table[i, j])]
    r2 = [names[j] for i in range(k) for j in range(k) for _ in range(table[i, j])]
    return r1, r2


@pytest.mark.parametrize(
    ("method", "statistic", "pvalue"),
    [
        ("stuart-maxwell", 11.9565696229826, 0.0075334250548),
        ("bhapkar", 11.97572015552567, 0.00746679746972),
    ],
)
def test_vision_data_as_irr(method: str, statistic: float, pvalue: float) -> None:
    r = concord.marginal_homogeneity(*pairs(VISION), method=method)
    assert r.df == 3
    assert r.statistic == pytest.approx(statistic, rel=1e-12)
    assert r.pvalue == pytest.approx(pvalue, rel=1e-9)
    assert r.differences.tolist() == [69, 34, -51, -52]  # row minus column totals, by hand
    assert r.to_dict()["rater1_totals"] == [1976, 2256, 2456, 789]
    assert "χ²(3) = 11.96" in r.summary() or "χ²(3) = 11.98" in r.summary()


def test_mcnemar_as_epir_and_statsmodels() -> None:
    r = concord.marginal_homogeneity(*pairs(IFAT), method="mcnemar")
    assert (r.statistic, r.df) == (1.0, 1)
    assert r.pvalue == pytest.approx(0.3173105079, rel=1e-9)
    sm = pytest.importorskip("statsmodels.stats.contingency_tables")
    ref = sm.mcnemar(IFAT, exact=False, correction=False)
    assert r.statistic == pytest.approx(ref.statistic) and r.pvalue == pytest.approx(ref.pvalue)
    # on a 2×2 table Stuart–Maxwell's χ² is McNemar's (Stuart 1955)
    assert concord.marginal_homogeneity(*pairs(IFAT)).statistic == pytest.approx(1.0)


def test_mcnemar_refuses_more_than_two_categories() -> None:
    with pytest.raises(ValueError, match="'method' parameter of marginal_homogeneity"):
        concord.marginal_homogeneity([1, 2, 3], [1, 3, 2], method="mcnemar")


def test_unused_and_undisputed_categories_drop_their_degree_of_freedom() -> None:
    # category 4 declared, never used; category 1 used only on agreed items
    r1, r2 = pairs(np.array([[3, 0, 0], [0, 2, 5], [0, 1, 4]]), [1, 2, 3])
    full = concord.marginal_homogeneity(r1, r2, labels=[1, 2, 3, 4])
    assert full.df == 1 and full.differences.tolist() == [0, 4, -4, 0]
    # McNemar by hand on the 2 and 3 categories: (5 − 1)² / (5 + 1)
    assert full.statistic == pytest.approx(float(Fraction(16, 6)), rel=1e-14)
    same = concord.marginal_homogeneity([1, 2, 2], [1, 2, 2])
    assert (same.statistic, same.df, same.pvalue) == (0.0, 0, 1.0)


def test_table_core_takes_labels() -> None:
    r = homogeneity_of_table(VISION, ("1st", "2nd", "3rd", "4th"))
    assert r.labels[0] == "1st" and r.n == 7477


def test_epir_example_one_kappa_indices() -> None:
    k = concord.cohen_kappa(*pairs(IFAT))
    assert k.pabak == pytest.approx(0.8900343643, abs=1e-10)
    low, high = k.pabak_interval()
    assert (low, high) == pytest.approx((0.8244906155, 0.9364991377), abs=1e-9)
    assert k.prevalence_index == pytest.approx(-0.8144329897, abs=1e-10)
    assert k.bias_index == pytest.approx(0.01374570447, abs=1e-10)
    # PABAK is Brennan–Prediger with q = 2
    bp = concord.brennan_prediger(np.column_stack(pairs(IFAT)))
    assert bp.statistic == pytest.approx(k.pabak, rel=1e-15)


def test_indices_are_nan_beyond_two_categories() -> None:
    k = concord.cohen_kappa([1, 2, 3], [1, 2, 2])
    assert np.isnan(k.prevalence_index) and np.isnan(k.bias_index) and np.isnan(k.pabak)
    assert np.isnan(k.pabak_interval().low)


def test_specific_agreement_epir_example_one() -> None:
    r = concord.specific_agreement(*pairs(IFAT))
    # epiR: positive 0.704, negative 0.970; by hand 2·19/54 and 2·256/528
    assert r.positive == float(Fraction(38, 54)) and r.negative == float(Fraction(512, 528))
    assert round(r.positive, 3) == 0.704 and round(r.negative, 3) == 0.970
    low, high = r.confidence_interval()
    assert low[1] < r.positive < high[1] and low.min() >= 0 and high.max() <= 1


def test_specific_agreement_se_is_the_multinomial_delta_method() -> None:
    # ∂/∂p of 2a / (2a + b + c) by central differences, Var = (Σ g² p − (Σ g p)²) / n
    n = IFAT.sum()
    p = IFAT.ravel() / n

    def ps(q: np.ndarray) -> float:
        return float(2 * q[3] / (2 * q[3] + q[1] + q[2]))

    eps = 1e-7
    g = np.array([(ps(p + eps * e) - ps(p - eps * e)) / (2 * eps) for e in np.eye(4)])
    se = np.sqrt((g * g @ p - (g @ p) ** 2) / n)
    assert concord.specific_agreement(*pairs(IFAT)).standard_error[1] == pytest.approx(se, 1e-6)


def test_specific_agreement_many_raters_by_hand() -> None:
    ratings = [[1, 1, 1], [1, 1, 2], [2, 2, 2], [1, 2, None]]
    r = concord.specific_agreement(ratings)
    # category 1: Σ n(n−1) = 6 + 2 + 0 + 0 = 8 over Σ n(m−1) = 6 + 4 + 0 + 1 = 11
    # category 2: 0 + 0 + 6 + 0 = 6 over 0 + 2 + 6 + 1 = 9
    assert r.agreement.tolist() == [8 / 11, 6 / 9]
    assert (r.n_items, r.n_raters) == (4, 3)
    assert r.positive == 6 / 9  # two categories: the second is "positive"
    # two raters as a matrix equal the two-rater path
    two = concord.specific_agreement(np.column_stack(pairs(IFAT)))
    assert two.agreement.tolist() == concord.specific_agreement(*pairs(IFAT)).agreement.tolist()


def test_bangdiwala_as_irrcac() -> None:
    r = concord.bangdiwala_b(*pairs(ABSTRACTORS))
    assert r.statistic == float(Fraction(3705, 4597))  # Σ n_ii² / Σ r_i c_i, by hand
    assert round(r.statistic, 7) == 0.8059604
    assert r.standard_error == pytest.approx(0.05449465, abs=5e-9)
    low, high = r.confidence_interval()
    assert (round(low, 3), round(high, 3)) == (0.698, 0.914)


@pytest.mark.parametrize(
    ("table", "weights", "expected"),
    [
        (SEXUAL_FUN, None, 0.146462370437),
        (SEXUAL_FUN, [1, 1 - 1 / 9], 0.498172349907),
        (ABSTRACTORS, "quadratic", 0.951490102241),
        (ABSTRACTORS, [1, 0.75], 0.951490102241),
    ],
)
def test_bangdiwala_weighted_as_vcd(table: np.ndarray, weights: object, expected: float) -> None:
    assert concord.bangdiwala_b(*pairs(table), weights=weights).statistic == pytest.approx(
        expected, abs=1e-12
    )


@pytest.mark.parametrize("weights", [[0.5, 1], ["a", "b"], [[1, 0.5]], [1, None], {"a": 1}])
def test_bangdiwala_refuses_bad_weights(weights: object) -> None:
    # credits that are not numbers, or a 2-D array, name the parameter (not numpy's float())
    with pytest.raises(ValueError, match="'weights' parameter of bangdiwala_b"):
        concord.bangdiwala_b([1, 2], [1, 2], weights=weights)


def test_agreement_chart() -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from concord._render.plotting_chart import rectangles
    from concord.plot import AgreementChartDisplay

    r = concord.bangdiwala_b(*pairs(ABSTRACTORS))
    rects = rectangles(r.observed, r.partial_weights)
    exact = [w * h for *_, w, h, credit in rects if credit == 1]
    # the black squares fill B of the rectangles' area (Bangdiwala 1985)
    outer = [w * h for *_, w, h, credit in rects if credit is None]
    assert sum(exact) / sum(outer) == pytest.approx(r.statistic, rel=1e-12)
    d = AgreementChartDisplay.from_result(r).plot()
    assert d.ax_.get_xlabel() == "rater2" and len(d.ax_.patches) == len(rects)
    k = AgreementChartDisplay.from_result(concord.cohen_kappa(*pairs(ABSTRACTORS)))
    assert k.statistic == pytest.approx(r.statistic, rel=1e-15)
    matplotlib.pyplot.close("all")


def test_string_labels_and_unused_categories() -> None:
    r1 = ["yes", "no", "no", "maybe", "yes"]
    r2 = ["yes", "no", "yes", "maybe", "no"]
    labels = ["no", "maybe", "yes", "never"]
    with pytest.warns(
        concord.UndefinedKappaWarning, match="undefined \\(nan\\) for category 'never'"
    ):
        s = concord.specific_agreement(r1, r2, labels=labels)
    # by hand: no 2·1/(2 + 2), maybe 2·1/2, yes 2·1/(2 + 2); "never" unused: nan, said
    assert s.agreement[:3].tolist() == [0.5, 1.0, 0.5] and np.isnan(s.agreement[3])
    m = concord.marginal_homogeneity(r1, r2, labels=labels)
    assert m.labels == tuple(labels) and m.differences.tolist() == [0, 0, 0, 0]
    assert m.df == 1 and m.statistic == 0.0  # one discordant pair each way: b = c
    b = concord.bangdiwala_b(r1, r2, labels=labels)
    assert b.statistic == float(Fraction(1 + 1 + 1, 2 * 2 + 1 * 1 + 2 * 2))


def test_weighted_b_se_is_the_multinomial_delta_method() -> None:
    from concord._coefficients.kappa.categories_core import bangdiwala

    partial = np.array([1.0, 0.5])
    n = SEXUAL_FUN.sum()
    p = SEXUAL_FUN / n

    def value(q: np.ndarray) -> float:
        return bangdiwala(q.reshape(4, 4) * 1e6, partial)[0]  # B^w is scale-free in the table

    eps = 1e-7
    flat = p.ravel()
    g = np.array([(value(flat + eps * e) - value(flat - eps * e)) / (2 * eps) for e in np.eye(16)])
    se = np.sqrt((g * g @ flat - (g @ flat) ** 2) / n)
    assert concord.bangdiwala_b(*pairs(SEXUAL_FUN), weights=[1, 0.5]).standard_error == (
        pytest.approx(se, rel=1e-5)
    )


@pytest.mark.parametrize("r1, r2", [([1, 1, 1], [2, 2, 2]), ([3] * 7, [1] * 7)])
def test_bhapkar_is_infinite_when_every_pair_disagrees_one_way(
    r1: list[int], r2: list[int]
) -> None:
    # Q = n here (every v = e_1 − e_2), so Bhapkar's Q / (1 − Q/n) is infinite (Keefe 1982);
    # the pseudo-inverse gives Q a few ulps under n, which must not read as 9e15
    r = concord.marginal_homogeneity(r1, r2, method="bhapkar")
    assert r.statistic == float("inf") and r.pvalue == 0.0
    # one concordant item makes Q = 3 < n = 4: 3 / (1 − 3/4) = 12 by hand
    finite = concord.marginal_homogeneity([1, 1, 1, 2], [2, 2, 2, 2], method="bhapkar")
    assert finite.statistic == pytest.approx(12.0, rel=1e-12)
