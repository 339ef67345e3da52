"""Lin's concordance correlation and Bland–Altman: published values, identities, exactness.

Sources: Bland & Altman (1986, Lancet) PEFR data (tests/reference/continuous/);
Bland & Altman (1999, Stat Methods Med Res) §2.2, systolic blood pressure J vs S
(published summaries); R epiR's epi.ccc (Lin 1989, 2000); Carkeet (2015) exactness by
simulation.
"""

from __future__ import annotations

import itertools
import json
import math
import pickle
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import concord
from concord._coefficients.continuous.bland_altman_core import limit_intervals

REFERENCE = json.loads(
    (Path(__file__).parent / "reference" / "continuous" / "pefr_1986.json").read_text()
)
WRIGHT, MINI = REFERENCE["wright"], REFERENCE["mini_wright"]


def test_pefr_bias_sd_and_limits_as_bland_altman_1986_print_them():
    # the paper's limits are d̄ ± 2 s: limits= the normal coverage of ±2
    r = concord.bland_altman(WRIGHT, MINI, limits=math.erf(2 / math.sqrt(2)))
    published = REFERENCE["published"]
    assert round(r.bias, 1) == published["bias"]
    assert round(r.sd, 1) == published["sd"]
    # the paper adds 2 × 38.8 to −2.1: its limits are those of the rounded summaries
    assert round(published["bias"] - 2 * published["sd"], 1) == published["lower_limit"]
    assert r.lower_limit == pytest.approx(published["lower_limit"], abs=0.06)
    assert round(r.upper_limit, 1) == published["upper_limit"]
    # exact values: Σd = −36 over 17 pairs
    assert r.bias == -36 / 17
    assert r.z == pytest.approx(2, rel=1e-12)


def test_bland_altman_1999_intervals_from_the_published_summaries():
    # Bland & Altman (1999) §2.2: 85 subjects, J − S: d̄ = −16.29, s = 19.61, limits
    # −54.7 to 22.1; 95% CIs: bias −20.5 to −12.1, lower limit −61.9 to −47.5, upper
    # 14.9 to 29.3. The 85 pairs of Table 1 are not in tests/reference: the check is on
    # the published summaries. The paper rounds the limit (22.1) and the SE (3.68)
    # before adding 1.96 × SE; from unrounded values the interval moves by up to 0.11.
    n, bias, sd, z = 85, -16.29, 19.61, 1.96
    assert round(bias - z * sd, 1) == -54.7 and round(bias + z * sd, 1) == 22.1
    t = 1.9886  # t_{84, 0.975}
    assert round(bias - t * sd / math.sqrt(n), 1) == -20.5
    assert round(bias + t * sd / math.sqrt(n), 1) == -12.1
    lower, upper = limit_intervals(n, bias, sd, z, 0.95, "approximate")
    for got, want in zip([*lower, *upper], [-61.9, -47.5, 14.9, 29.3], strict=True):
        assert got == pytest.approx(want, abs=0.12)
    exact_lower, exact_upper = limit_intervals(n, bias, sd, z, 0.95, "exact")
    # the exact intervals are asymmetric: wider away from the bias (Carkeet 2015)
    assert exact_upper.high - (bias + z * sd) > (bias + z * sd) - exact_upper.low
    assert exact_lower.low < lower.low


def test_bias_interval_is_the_t_interval():
    r = concord.bland_altman(WRIGHT, MINI)
    from scipy import stats

    d = np.subtract(WRIGHT, MINI)
    want = stats.t.interval(0.95, 16, loc=d.mean(), scale=stats.sem(d))
    assert r.bias_interval == pytest.approx(want, rel=1e-12)
    assert r.confidence_interval() == pytest.approx(want, rel=1e-12)
    assert r.sd == pytest.approx(d.std(ddof=1), rel=1e-15)


def test_carkeet_exact_limits_cover_at_their_level():
    # Carkeet (2015): the exact interval of μ + zσ covers it with probability 0.95 for
    # normal differences at any n; 4,000 samples of n = 8 (Monte Carlo SD 0.0034)
    rng = np.random.default_rng(7)
    n, z, reps = 8, 1.959963984540054, 4000
    d = rng.normal(3.0, 2.0, (reps, n))
    bias, sd = d.mean(axis=1), d.std(axis=1, ddof=1)
    unit = limit_intervals(n, 0.0, 1.0, z, 0.95, "exact")[1]  # for bias 0, sd 1
    low, high = bias + sd * unit.low, bias + sd * unit.high
    cover = np.mean((low <= 3 + z * 2) & (3 + z * 2 <= high))
    assert abs(cover - 0.95) < 4 * math.sqrt(0.95 * 0.05 / reps)
    approx = limit_intervals(n, 0.0, 1.0, z, 0.95, "approximate")[1]
    below = np.mean((bias + sd * approx.low <= 3 + z * 2) & (3 + z * 2 <= bias + sd * approx.high))
    assert below < cover  # the approximate interval undercovers at small n


def test_ccc_matches_epir():
    ref = REFERENCE["epir"]
    r = concord.concordance_correlation(WRIGHT, MINI)
    assert r.statistic == pytest.approx(ref["rho_c"], rel=1e-14)
    assert r.interval.low == pytest.approx(ref["lower"], rel=1e-13)
    assert r.interval.high == pytest.approx(ref["upper"], rel=1e-13)
    assert r.accuracy == pytest.approx(ref["c_b"], rel=1e-14)
    # epiR's shifts are of y against x: v = 1 / its s.shift, u = −its l.shift
    assert r.scale_shift == pytest.approx(1 / ref["s_shift_y_over_x"], rel=1e-14)
    assert r.location_shift == pytest.approx(-ref["l_shift_y_minus_x"], rel=1e-13)
    assert r.precision == pytest.approx(np.corrcoef(WRIGHT, MINI)[0, 1], rel=1e-14)
    assert r.statistic == pytest.approx(r.precision * r.accuracy, rel=1e-15)


@pytest.mark.filterwarnings("ignore::concord.UndefinedKappaWarning")  # constant data: nan, said
@settings(max_examples=200)
@given(
    st.lists(st.tuples(st.integers(-50, 50), st.integers(-50, 50)), min_size=2, max_size=40),
)
def test_ccc_is_qwk_on_integer_scores(pairs):
    # with value-spaced weights (x − y)², 1 − Σ(x−y)²/E[Σ(x−y)²] is 2 s_xy/(s_x² + s_y² +
    # (x̄ − ȳ)²) with the same 1/n moments: both cores are exact, so the floats are equal
    x, y = (list(v) for v in zip(*pairs, strict=True))
    assume(len(set(x) | set(y)) >= 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", concord.UndefinedKappaWarning)
        qwk = concord.quadratic_weighted_kappa(x, y)
    ccc = concord.concordance_correlation(x, y).statistic
    assert ccc == qwk or (math.isnan(ccc) and math.isnan(qwk))


@pytest.mark.filterwarnings("ignore::concord.UndefinedKappaWarning")  # constant data: nan, said
@settings(max_examples=60)
@given(
    st.lists(
        st.tuples(
            st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False),
            st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False),
        ),
        min_size=3,
        max_size=30,
    ),
    st.lists(st.integers(0, 30), max_size=3),
)
def test_merged_float_sums_equal_the_one_shot_result(pairs, cuts):
    x, y = (np.array(v) for v in zip(*pairs, strict=True))
    edges = [0, *sorted(min(c, x.size) for c in cuts), x.size]
    for f in (concord.concordance_correlation, concord.bland_altman):
        parts = [
            concord.accumulate(f).update(x[a:b], y[a:b]) for a, b in itertools.pairwise(edges)
        ]
        acc = parts[0]
        for p in parts[1:]:
            acc = p.merge(acc)
        assert repr(acc.result().to_dict()) == repr(f(x, y).to_dict())


def test_ccc_standard_error_matches_the_bootstrap_on_normal_ratings():
    # Lin's variance is normal-theory: on bivariate normal ratings it is the bootstrap's SD
    rng = np.random.default_rng(3)
    t = rng.normal(size=400)
    x, y = t + rng.normal(0, 0.5, 400), 0.2 + 1.1 * t + rng.normal(0, 0.5, 400)
    r = concord.concordance_correlation(x, y)
    reps = r.bootstrap(2000, rng=1)
    assert np.std(reps) == pytest.approx(r.standard_error, rel=0.08)
    low, high = r.confidence_interval(method="bootstrap-bca", n_resamples=2000, rng=2)
    assert low < r.statistic < high


def test_proportional_regression():
    # d = x − y grows with the mean: y = 0.8 x exactly gives d = 0.2 x = (2/9)·2m... here
    # m = 0.9x, d = 0.2x, so d = (2/9) m with no scatter
    x = np.array([10.0, 20, 30, 40, 55])
    r = concord.bland_altman(x, 0.8 * x, proportional=True)
    assert r.slope == pytest.approx(2 / 9, rel=1e-12)
    assert abs(r.intercept) < 1e-12 and r.residual_sd < 1e-9
    low, high = r.limits_at([0.9 * 10, 0.9 * 55])
    assert low == pytest.approx([2, 11], rel=1e-9) and high == pytest.approx([2, 11], rel=1e-9)
    flat = concord.bland_altman(WRIGHT, MINI, proportional=True)
    assert flat.slope_pvalue > 0.5  # no trend in the PEFR differences (Bland & Altman 1986)
    from scipy import stats

    a = (np.add(WRIGHT, MINI)) / 2
    fit = stats.linregress(a, np.subtract(WRIGHT, MINI))
    assert flat.slope == pytest.approx(fit.slope, rel=1e-12)
    assert flat.slope_pvalue == pytest.approx(fit.pvalue, rel=1e-9)
    assert flat.slope_se == pytest.approx(fit.stderr, rel=1e-12)


def test_inputs_and_errors():
    import pandas as pd

    a = pd.Series(WRIGHT, index=range(17))
    b = pd.Series(MINI, index=range(17))[::-1]
    assert concord.bland_altman(a, b).bias == -36 / 17  # pairs by index
    with pytest.raises(ValueError, match="nan_policy"):
        concord.concordance_correlation([1.0, np.nan, 3], [1, 2, 3])
    r = concord.concordance_correlation([1.0, np.nan, 3, 4], [1, 2, 3, 5], nan_policy="omit")
    assert r.n == 3
    with pytest.raises(TypeError, match="numeric"):
        concord.bland_altman(["a", "b"], ["a", "b"])
    with pytest.raises(ValueError, match="limits"):
        concord.bland_altman([1, 2], [1, 3], limits=1.5)
    with pytest.raises(ValueError, match="n_replicates"):
        concord.accumulate(concord.bland_altman, n_replicates=100)
    r = concord.bland_altman([1, 2, 3], [1, 3, 2], confidence_level=0.9)
    assert pickle.loads(pickle.dumps(r)).to_dict().keys() == r.to_dict().keys()
    assert "Carkeet" in r.explain() and "quadratic weighted kappa" in (
        concord.concordance_correlation([1, 2, 3], [1, 3, 2]).explain()
    )


@pytest.mark.parametrize(
    ("low", "high", "dtype"),
    [
        (0, 6, np.int64),
        (-50, 50, np.int8),
        (0, 10**6, np.int64),
        (0, 2**40, np.int64),
        (5, 7, np.uint8),
    ],
)
def test_distinct_pairs_of_integers_on_one_key(low: int, high: int, dtype: type) -> None:
    """The bootstrap's distinct pairs: the key path equals the old row-wise np.unique."""
    from concord._tables.moments import distinct_pairs

    rng = np.random.default_rng(low + high)
    x = rng.integers(low, high, 5000).astype(dtype)
    y = rng.integers(low, high, 5000).astype(dtype)
    rows = np.stack([x.astype(np.float64), y.astype(np.float64)], axis=1)
    unique, freq = np.unique(rows, axis=0, return_counts=True)
    got = distinct_pairs(x, y)
    for a, b in zip(got, (unique[:, 0], unique[:, 1], freq.astype(np.float64)), strict=True):
        np.testing.assert_array_equal(a, b)
