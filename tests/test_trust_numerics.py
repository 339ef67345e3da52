"""The last digit (issue 24, items 6-9, 14, 15): exact values of float inputs far from zero.

Every expected value here is a ``fractions.Fraction`` recomputation written
from the published formulas (McGraw & Wong 1996 for the ICC, Krippendorff
2011 for α), rounded once; concord must return that float exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import concord

# ---------------------------------------------------------------------------
# references


def icc_forms(x: np.ndarray) -> dict[str, float]:
    """McGraw & Wong (1996), Tables 4 and 5, complete data, in Fractions, rounded once."""
    rows = [[Fraction(v) for v in row] for row in x.tolist()]
    n, k = len(rows), len(rows[0])
    grand = sum(sum(r) for r in rows) / (n * k)
    row_means = [sum(r) / k for r in rows]
    col_means = [sum(r[j] for r in rows) / n for j in range(k)]
    ssr = k * sum((m - grand) ** 2 for m in row_means)
    ssc = n * sum((m - grand) ** 2 for m in col_means)
    sst = sum((v - grand) ** 2 for r in rows for v in r)
    sse = sst - ssr - ssc
    msr, msc = ssr / (n - 1), ssc / (k - 1)
    mse, msw = sse / ((n - 1) * (k - 1)), (sst - ssr) / (n * (k - 1))
    return {
        "ICC(1)": float((msr - msw) / (msr + (k - 1) * msw)),
        "ICC(k)": float((msr - msw) / msr),
        "ICC(A,1)": float((msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n)),
        "ICC(A,k)": float((msr - mse) / (msr + (msc - mse) / n)),
        "ICC(C,1)": float((msr - mse) / (msr + (k - 1) * mse)),
        "ICC(C,k)": float((msr - mse) / msr),
    }


def concord_forms(x: np.ndarray) -> dict[str, float]:
    return {r.name: r.statistic for r in concord.icc(x).forms().results}


def alpha_interval(x: np.ndarray) -> float:
    """Krippendorff (2011), interval δ²: 1 − (n.. − 1) Σ_u Σ_{g≠h} δ²/(m_u − 1) / Σ_{c,k} δ²."""
    units = [[Fraction(v) for v in row if not math.isnan(v)] for row in x.tolist()]
    units = [u for u in units if len(u) >= 2]
    n = sum(len(u) for u in units)
    observed = sum(sum((a - b) ** 2 for a in u for b in u) / (len(u) - 1) for u in units)
    values = sorted(v for u in units for v in u)
    # Σ_{c,k} (v_c − v_k)² = 2(n Σv² − (Σv)²)
    expected = 2 * (n * sum(v * v for v in values) - sum(values) ** 2)
    return float(1 - (n - 1) * observed / expected)


# ---------------------------------------------------------------------------
# 6. floats far from zero: the ICC


@pytest.mark.parametrize(
    ("offset", "sd", "decimals"),
    [(1e6, 0.01, 3), (1e4, 0.5, None), (1e8, 1.0, None), (0.0, 1.0, None), (-3e5, 0.1, 4)],
)
def test_icc_of_float_scores_is_the_correctly_rounded_value(offset, sd, decimals):
    rng = np.random.default_rng(24)
    x = offset + rng.normal(0, sd, (40, 1)) + rng.normal(0, sd / 2, (40, 3))
    if decimals is not None:
        x = np.round(x, decimals)
    assert concord_forms(x) == icc_forms(x)


def test_icc_issue_case_near_a_million_is_not_negative():
    # issue 24: ICC(A,1) = −0.205 where the exact value is 0.764 (SD 0.01, 3 decimals)
    rng = np.random.default_rng(7)
    x = np.round(1e6 + rng.normal(0, 0.01, (25, 1)) + rng.normal(0, 0.005, (25, 4)), 3)
    expected = icc_forms(x)
    assert concord.icc(x).statistic == expected["ICC(A,1)"]
    assert concord.icc(x, type="consistency", unit="average").statistic == expected["ICC(C,k)"]


@pytest.mark.parametrize("scale", [1e300, 1e100, 1e-160, 1e-300])
def test_icc_of_extreme_scores_is_exact_and_tested(scale):
    # issue 24, item 14: nan near 1e300, an OverflowError near 1e100, digits lost near 1e-160
    rng = np.random.default_rng(14)
    x = scale * (1 + rng.normal(0, 1e-3, (20, 3)))
    assert concord_forms(x) == icc_forms(x)
    r = concord.icc(x)
    assert math.isfinite(r.f_statistic) and math.isfinite(r.df2)
    low, high = r.confidence_interval()
    assert low < r.statistic < high


def test_incomplete_float_scores_equal_the_exact_integer_path():
    # x = (z + 2**30) / 2**10 holds the same information as the integers z, exactly;
    # every ICC form is shift and scale invariant, and integer scores are summed exactly
    rng = np.random.default_rng(3)
    z = rng.integers(-500, 500, (60, 4)).astype(float)
    z[rng.random(z.shape) < 0.2] = np.nan
    x = (z + 2.0**30) / 2.0**10
    for model, type_, unit in [
        ("oneway", "agreement", "single"),
        ("twoway", "agreement", "single"),
        ("twoway", "agreement", "average"),
        ("twoway", "consistency", "single"),
    ]:
        a = concord.icc(z, model=model, type=type_, unit=unit)
        b = concord.icc(x, model=model, type=type_, unit=unit)
        assert a.statistic == b.statistic
        assert a.f_statistic == b.f_statistic


def test_float_icc_stream_merges_to_the_one_shot_result():
    rng = np.random.default_rng(5)
    x = 1e6 + rng.normal(0, 0.3, (300, 3))
    acc = concord.accumulate(concord.icc)
    for part in np.array_split(x, 7):
        acc.update(part)
    assert acc.result().statistic == concord.icc(x).statistic == icc_forms(x)["ICC(A,1)"]


# ---------------------------------------------------------------------------
# 6 and 15. Krippendorff's alpha, interval level, far from zero


@pytest.mark.parametrize("offset", [1e8, 1e4, 0.0, -2.5e7])
def test_alpha_of_many_continuous_values_is_the_correctly_rounded_value(offset):
    # more than 256 distinct values: the decomposition engine
    rng = np.random.default_rng(8)
    x = offset + rng.normal(0, 1, (100, 1)) + rng.normal(0, 0.5, (100, 4))
    x[rng.random(x.shape) < 0.1] = np.nan
    assert len(np.unique(x[~np.isnan(x)])) > 256
    assert concord.krippendorff_alpha(x, level="interval").statistic == alpha_interval(x)


@pytest.mark.parametrize("scale", [1e300, 1e-300, 1e150])
def test_alpha_interval_of_extreme_values_is_defined_and_exact(scale):
    # issue 24, item 15: nan near 1e300, where the exact value is defined
    x = scale * (1 + np.array([[0, 1, 2, 3, 4.0], [0, 1, 2, 3, 5.0], [1, 1, 2, 4, 4.0]]).T / 64)
    r = concord.krippendorff_alpha(x, level="interval")
    assert r.statistic == alpha_interval(x)
    assert np.isfinite(r.weights).all() and r.weights.max() == 1.0


def test_alpha_ordinal_and_interval_dense_values_stay_exact():
    rng = np.random.default_rng(2)
    x = np.round(1e8 + rng.normal(0, 2, (30, 3)), 1)
    assert concord.krippendorff_alpha(x, level="interval").statistic == alpha_interval(x)


# ---------------------------------------------------------------------------
# 8. a zero variance is zero


@pytest.mark.parametrize("n", [95, 96, 101, 110])
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_kappa_zero_with_a_constant_rater_has_a_point_interval(n, weights):
    # Fleiss, Cohen & Everitt (1969): with one rater constant, X_ij = w_ij − (w̄_i. + w̄_.j)(1 − κ)
    # is the same on every occupied cell, so var κ = 0 exactly (the float sum left ~1e-17)
    a = (np.arange(n) * 7 % 5) + 1
    b = np.full(n, 3)
    r = concord.cohen_kappa(a, b, weights=weights)
    assert r.statistic == 0.0
    assert r.standard_error == 0.0
    assert tuple(r.confidence_interval()) == (0.0, 0.0)
    assert r.pvalue == 1.0  # a null distribution that is a point, at the observed 0


# ---------------------------------------------------------------------------
# 9. the same digits on every machine


def _models(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, 500)
    a = np.clip(truth + rng.integers(-1, 2, 500) * (rng.random(500) < 0.5), 1, 5)
    b = np.where(rng.random(500) < 0.7, a, truth)
    return truth, a, b


@pytest.mark.parametrize("seed", range(6))
def test_paired_difference_se_does_not_depend_on_the_order_of_addition(seed):
    # the SE of a paired difference sums per-item terms with math.fsum (correctly rounded),
    # so no summation order (items permuted here; SIMD width on another CPU) changes a bit
    truth, a, b = _models(seed)
    order = np.random.default_rng(seed + 100).permutation(truth.size)
    one = concord.compare(concord.cohen_kappa, (truth, a), (truth, b), weights="quadratic")
    t, a2, b2 = truth[order], a[order], b[order]
    two = concord.compare(concord.cohen_kappa, (t, a2), (t, b2), weights="quadratic")
    assert one.difference == two.difference
    assert one.standard_error == two.standard_error
    assert one.confidence_interval() == two.confidence_interval()


def test_exact_sums_are_correctly_rounded():
    from concord._common import exact

    rng = np.random.default_rng(9)
    x = rng.normal(0, 1, 1001) * 10.0 ** rng.integers(-8, 8, 1001)
    assert exact.fsum(x) == float(sum(Fraction(v) for v in x.tolist()))
    assert exact.fsum(x[::-1]) == exact.fsum(x)
    y = rng.normal(0, 1, 1001)
    products = [Fraction(float(u * v)) for u, v in zip(x, y, strict=True)]
    assert exact.fdot(x, y) == float(sum(products))


def test_an_interval_prints_its_meaningful_digits():
    truth, a, b = _models(0)
    r = concord.compare(concord.cohen_kappa, (truth, a), (truth, b), weights="quadratic")
    low, high = r.confidence_interval()
    assert repr(r.confidence_interval()) == f"ConfidenceInterval(low={low:.4g}, high={high:.4g})"
    assert repr(concord.ConfidenceInterval(0.0, 1.0)) == "ConfidenceInterval(low=0.0, high=1.0)"


# ---------------------------------------------------------------------------
# 14. evaluate: scores near 1e200


def _decimal_sqrt(x: Fraction) -> float:
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 60
        return float((Decimal(x.numerator) / Decimal(x.denominator)).sqrt())


def test_evaluate_sd_and_rmse_of_a_huge_score_are_finite_and_exact():
    human = np.array([1, 2, 3, 4, 5, 3, 2, 4.0])
    machine = human.copy()
    machine[0] = 1e200
    row = concord.evaluate(human, machine).to_dict()["tables"]["eval"]["raw"]
    h, m = [Fraction(v) for v in human.tolist()], [Fraction(v) for v in machine.tolist()]
    n = len(m)
    mean = sum(m) / n
    assert row["sys_sd"] == _decimal_sqrt(sum((v - mean) ** 2 for v in m) / (n - 1))
    assert row["RMSE"] == _decimal_sqrt(sum((a - b) ** 2 for a, b in zip(h, m, strict=True)) / n)
    assert row["h_sd"] == float(np.std(human, ddof=1))  # in range: RSMTool's own arithmetic


# ---------------------------------------------------------------------------
# 15. CategoryCounts with 2**63 − 1 ratings in a cell (a guard: Python ints where int64
# could overflow; the category totals of two such items pass 2**63)


def _fleiss_counts(rows: list[list[int]]) -> float:
    """Fleiss (1971) on category counts, items with different numbers of ratings as irrCAC."""
    rows = [r for r in rows if sum(r) > 0]
    n, k = len(rows), len(rows[0])
    pi = [sum(Fraction(r[j], sum(r)) for r in rows) / n for j in range(k)]
    pe = sum(p * p for p in pi)
    two = [r for r in rows if sum(r) >= 2]
    pa = sum(Fraction(sum(x * (x - 1) for x in r), sum(r) * (sum(r) - 1)) for r in two)
    return float((pa / len(two) - pe) / (1 - pe))


def test_fleiss_of_counts_near_int64_is_exact():
    big = 2**63 - 1
    for rows in (
        [[big, 0, 0], [0, big - 3, 3], [1, 2, 3], [4, 0, 1]],
        [[big, 0, 0], [big, 0, 0], [0, 2, 2], [1, 1, 1]],
        [[big - 7, 7, 0], [3, big - 3, 0], [2, 2, 2]],
    ):
        r = concord.fleiss_kappa(concord.CategoryCounts(rows))
        assert r.statistic == _fleiss_counts(rows)


def test_cli_icc_of_scores_near_1e300_reports_the_icc(tmp_path):
    # issue 24, item 14: the CLI said the scores do not vary (their float variance was nan)
    from click.testing import CliRunner

    from concord._cli.main import main

    rng = np.random.default_rng(1)
    x = 1e300 * (1 + rng.normal(0, 1e-3, (20, 3)))
    path = tmp_path / "scores.csv"
    np.savetxt(path, x, delimiter=",", header="a,b,c", comments="")
    out = CliRunner().invoke(main, ["icc", str(path), "--raters", "a,b,c"])
    assert out.exit_code == 0, out.output
    expected = icc_forms(x)["ICC(A,1)"]
    assert f"{expected:.4f}" in out.output and "vary" not in out.output


# ---------------------------------------------------------------------------
# 7. "correctly rounded" with rational weights


def _rational_weight(x: list[Fraction], i: int, j: int, kind: str) -> Fraction:
    """Gwet (2014), ch. 3 (irrCAC weights.gen): ratio and bipolar disagreement, before scaling."""
    if kind == "ratio":
        total = x[i] + x[j]
        return ((x[i] - x[j]) / total) ** 2 if total else Fraction(0)
    lo, hi = min(x), max(x)
    den = (x[i] + x[j] - 2 * lo) * (2 * hi - x[i] - x[j])
    return (x[i] - x[j]) ** 2 / den if den and i != j else Fraction(0)


def _cohen_rational(a: list, b: list, labels: list, kind: str) -> float:
    """κ = 1 − n ΣW·O / ΣW r_i c_j (Cohen 1968) with the exact rational weights."""
    x = [Fraction(v) for v in labels]
    at = {v: i for i, v in enumerate(labels)}
    k, n = len(labels), len(a)
    observed = sum(_rational_weight(x, at[p], at[q], kind) for p, q in zip(a, b, strict=True))
    rows = [sum(at[p] == i for p in a) for i in range(k)]
    cols = [sum(at[q] == i for q in b) for i in range(k)]
    chance = sum(
        _rational_weight(x, i, j, kind) * rows[i] * cols[j] for i in range(k) for j in range(k)
    )
    return float(1 - n * observed / chance)


@pytest.mark.parametrize("kind", ["ratio", "bipolar"])
def test_ratio_and_bipolar_weighted_kappa_is_correctly_rounded(kind):
    # before: about one case in ten was one ulp off (the weights were rounded first)
    rng = np.random.default_rng(7)
    for _ in range(60):
        k = int(rng.integers(3, 9))
        labels = [float(v) for v in rng.choice(np.arange(1, 20) / 2, k, replace=False)]
        labels.sort()
        a = rng.choice(labels, 40)
        b = np.array([labels[min(k - 1, labels.index(v) + int(rng.integers(0, 2)))] for v in a])
        got = concord.cohen_kappa(a, b, weights=kind, labels=labels).statistic
        assert got == _cohen_rational(a.tolist(), b.tolist(), labels, kind)


def test_fleiss_with_ratio_weights_is_correctly_rounded():
    # Fleiss (1971) with Gwet's (2014) agreement weights a = 1 − W/max W
    rng = np.random.default_rng(1)
    for _ in range(30):
        rows = rng.integers(0, 4, (8, 5)).tolist()
        labels = [1, 2, 3, 4, 5]
        x = [Fraction(v) for v in labels]
        w = [[_rational_weight(x, i, j, "ratio") for j in range(5)] for i in range(5)]
        top = max(max(r) for r in w)
        agree = [[1 - v / top for v in r] for r in w]
        items = [r for r in rows if sum(r) > 0]
        n = len(items)
        pi = [sum(Fraction(r[j], sum(r)) for r in items) / n for j in range(5)]
        pe = sum(agree[i][j] * pi[i] * pi[j] for i in range(5) for j in range(5))
        two = [r for r in items if sum(r) >= 2]
        pa = sum(
            Fraction(
                sum(r[i] * (sum(agree[i][j] * r[j] for j in range(5)) - 1) for i in range(5)),
                sum(r) * (sum(r) - 1),
            )
            for r in two
        ) / len(two)
        counts = concord.CategoryCounts(rows, labels=labels)
        assert concord.fleiss_kappa(counts, weights="ratio").statistic == float(
            (pa - pe) / (1 - pe)
        )


def _alpha_ratio(x: np.ndarray) -> float:
    """Krippendorff (2011), ratio metric δ² = ((c − k)/(c + k))², from the values."""
    units = [[Fraction(v) for v in row if not math.isnan(v)] for row in x.tolist()]
    units = [u for u in units if len(u) >= 2]

    def d(a: Fraction, b: Fraction) -> Fraction:
        return ((a - b) / (a + b)) ** 2 if a + b else Fraction(0)

    n = sum(len(u) for u in units)
    observed = sum(sum(d(a, b) for a in u for b in u) / (len(u) - 1) for u in units)
    values = [v for u in units for v in u]
    expected = sum(d(a, b) for a in values for b in values)
    return float(1 - (n - 1) * observed / expected)


def test_alpha_ratio_level_is_correctly_rounded():
    rng = np.random.default_rng(4)
    for _ in range(40):
        x = rng.integers(1, 8, (15, 3)).astype(float)
        x[rng.random(x.shape) < 0.1] = np.nan
        assert concord.krippendorff_alpha(x, level="ratio").statistic == _alpha_ratio(x)
