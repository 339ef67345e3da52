"""concord.compare and concord.homogeneity against R pairedCAC, R metafor and brute force.

Sources: tests/reference/r/pairedcac_values.json (Gwet's R pairedCAC, run by
tests/reference/r/pairedcac.R on the data in tests/reference/compare/, pairedCAC's own
README example among them); tests/reference/r/homogeneity_values.json (R metafor's
Cochran Q, tests/reference/r/homogeneity.R); numerical differentiation and the paired
bootstrap, computed here.
"""

from __future__ import annotations

import inspect
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import concord
from concord._coefficients.registry import REGISTRY, entry

HERE = Path(__file__).parent / "reference"
PAIRED = json.loads((HERE / "r" / "pairedcac_values.json").read_text())
TESTS = {
    "fleiss": concord.fleiss_kappa,
    "conger": concord.conger_kappa,
    "ac2": concord.gwet_ac,
    "bp": concord.brennan_prediger,
    "pa": concord.percent_agreement,
}
FILES = {"readme": "ratings", "missing": "missing", "two": "two"}
LEVELS = {None: "nominal", "quadratic": "interval", "linear": "ordinal"}


def _panel(dataset: str, side: int) -> pd.DataFrame:
    return pd.read_csv(HERE / "compare" / f"{FILES[dataset]}{side}.csv")


def test_pairedcac_readme_example() -> None:
    # pairedCAC README: ttest.fleiss(ratings1, ratings2) gives κ₁ 0.3856655, κ₂ 0.7248495,
    # Δ 0.339184, SE 0.1574322, t 2.154477, p 0.04910569 (t with 14 df)
    r = concord.compare(concord.fleiss_kappa, _panel("readme", 1), _panel("readme", 2))
    assert round(r.first.statistic, 7) == 0.3856655
    assert round(r.second.statistic, 7) == 0.7248495
    assert round(r.difference, 6) == 0.339184
    assert round(r.standard_error, 7) == 0.1574322
    assert round(r.t_statistic, 6) == 2.154477
    assert r.statistic == r.difference  # the headline (issue 25)
    assert round(r.pvalue, 8) == 0.04910569
    assert r.df == 14


CASES = [c for c in PAIRED["cases"] if c["test"] in TESTS]


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c['dataset']}-{c['test']}-{c['weights']}" for c in CASES]
)
def test_against_pairedcac(case: dict) -> None:
    weights = None if case["weights"] == "unweighted" else case["weights"]
    f = TESTS[case["test"]]
    r = concord.compare(f, _panel(case["dataset"], 1), _panel(case["dataset"], 2), weights=weights)
    assert r.first.statistic == pytest.approx(case["coeff1"], rel=1e-12, abs=1e-14)
    assert r.second.statistic == pytest.approx(case["coeff2"], rel=1e-12, abs=1e-14)
    assert r.difference == pytest.approx(case["difference"], rel=1e-11, abs=1e-14)
    assert r.standard_error == pytest.approx(case["standard_error"], rel=1e-11)
    assert r.t_statistic == pytest.approx(case["statistic"], rel=1e-10)
    assert r.pvalue == pytest.approx(case["pvalue"], rel=1e-9)


ALPHA_CASES = [
    c
    for c in PAIRED["cases"]
    if c["test"] == "alpha" and c["dataset"] != "missing" and c["weights"] != "linear"
]


@pytest.mark.parametrize(
    "case", ALPHA_CASES, ids=[f"{c['dataset']}-{c['weights']}" for c in ALPHA_CASES]
)
def test_alpha_against_pairedcac(case: dict) -> None:
    # pairedCAC's ttest.alpha (tests/reference/r/pairedcac_values.json). Its alpha.linear.i
    # puts ε = 1/Σ m_i of krippen.alpha.dist into the terms, α* − α = (1 − ε)(α*' − α'),
    # while alpha's own SE follows irrCAC 1.4's krippen.alpha.raw (α*' − α'), which the
    # terms square-sum to: on complete data (every item rated m times, so ε is the same on
    # both sides) pairedCAC's SE is exactly (1 − ε) times concord's. Its "missing" cases
    # have no SE (the sides have different numbers of pairable items: NA in R) and its
    # linear weights are no Krippendorff metric; quadratic weights are the interval metric.
    one, two = _panel(case["dataset"], 1), _panel(case["dataset"], 2)
    level = LEVELS[None if case["weights"] == "unweighted" else case["weights"]]
    r = concord.compare(concord.krippendorff_alpha, one, two, level=level)
    epsilon = 1 / one.notna().to_numpy().sum()
    assert r.first.statistic == pytest.approx(case["coeff1"], rel=1e-12)
    assert r.second.statistic == pytest.approx(case["coeff2"], rel=1e-12)
    assert r.difference == pytest.approx(case["difference"], rel=1e-11)
    assert r.standard_error * (1 - epsilon) == pytest.approx(case["standard_error"], rel=1e-11)
    assert r.df == case["n"] - 1


def test_light_of_two_raters_is_cohen() -> None:
    # Light's kappa of two raters is Cohen's; its terms have Gwet's n (n − 1) where
    # Cohen's influence terms have n² (as for Conger's above)
    one, two = _panel("two", 1), _panel("two", 2)
    light = concord.compare(concord.light_kappa, one, two)
    cohen = concord.compare(concord.cohen_kappa, (one.R1, one.R2), (two.R1, two.R2))
    assert cohen.difference == pytest.approx(light.difference, rel=1e-13)
    n = len(one)
    assert cohen.standard_error * math.sqrt(n / (n - 1)) == pytest.approx(
        light.standard_error, rel=1e-12
    )


def _options(function, data, given):  # type: ignore[no-untyped-def]
    bound = inspect.signature(function).bind(*data, **given)
    bound.apply_defaults()
    return {k: v for k, v in bound.arguments.items() if k in entry(function).options}


@pytest.mark.parametrize("c", [c for c in REGISTRY if c.terms is not None], ids=lambda c: c.name)
@pytest.mark.parametrize("weights", [None, "quadratic", "linear"])
@pytest.mark.parametrize("population", [None, 500.0])
def test_terms_square_sum_is_the_variance(c, weights, population) -> None:  # type: ignore[no-untyped-def]
    # the per-item terms are the ones each SE sums: Σ u² reproduces the SE to rounding
    rng = np.random.default_rng(7)
    if c.arity == 2:
        a = rng.integers(0, 4, 120)
        data: tuple = (a, np.where(rng.random(120) < 0.6, a, rng.integers(0, 4, 120)))
    else:
        x = rng.integers(1, 5, (90, 4)).astype(float)
        x[rng.random(x.shape) < 0.2] = np.nan
        x[:, 0] = np.where(np.isnan(x).all(axis=1), 1.0, x[:, 0])
        data = (x,)
    given = {"weights": weights, "population_size": population}
    if "level" in c.options:  # Krippendorff's alpha: a metric, not weights
        given = {"level": LEVELS[weights], "population_size": population}
    result = c.function(*data, **given)
    u = c.terms(data, _options(c.function, data, given))
    assert u.shape[0] == data[0].shape[0]
    assert math.sqrt(float(np.sum(u**2))) == pytest.approx(result.standard_error, rel=1e-14)


def test_conger_of_two_raters_is_cohen() -> None:
    # pairedCAC's ttest.conger on two raters (tests/reference/r/pairedcac_values.json, "two"):
    # Conger's kappa of two raters is Cohen's; Gwet's terms have n (n − 1) where Cohen's
    # influence terms (Fleiss, Cohen & Everitt) have n², so the SEs differ by √(n / (n − 1))
    one, two = _panel("two", 1), _panel("two", 2)
    conger = concord.compare(concord.conger_kappa, one, two)
    cohen = concord.compare(concord.cohen_kappa, (one.R1, one.R2), (two.R1, two.R2))
    assert cohen.difference == pytest.approx(conger.difference, rel=1e-13)
    n = len(one)
    assert cohen.standard_error * math.sqrt(n / (n - 1)) == pytest.approx(
        conger.standard_error, rel=1e-12
    )


def _kappa(a: np.ndarray, b: np.ndarray, w: np.ndarray, k: int, freq: np.ndarray) -> float:
    table = np.zeros((k, k))
    np.add.at(table, (a, b), freq)
    n = table.sum()
    p_o = np.sum(w * table) / n
    p_e = table.sum(axis=1) @ w @ table.sum(axis=0) / n**2
    return float((p_o - p_e) / (1 - p_e))


@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_paired_cohen_against_brute_force_delta_method(weights: str | None) -> None:
    # the delta method done by hand: Δ as a function of the counts of each distinct item
    # (truth, model A, model B), differentiated numerically; var = Σ N_c (n ∂Δ/∂N_c)² / n²
    rng = np.random.default_rng(3)
    n, k = 300, 4
    truth = rng.integers(0, k, n)
    a = np.where(rng.random(n) < 0.6, truth, rng.integers(0, k, n))
    b = np.where(
        rng.random(n) < 0.5, a, np.where(rng.random(n) < 0.7, truth, rng.integers(0, k, n))
    )
    r = concord.compare(concord.cohen_kappa, (truth, a), (truth, b), weights=weights)
    rows, freq = np.unique(np.column_stack([truth, a, b]), axis=0, return_counts=True)
    w = concord.weight_matrix(range(k), weights or "identity") if weights else 1 - np.eye(k)
    agree = 1 - w / w.max()

    def delta(counts: np.ndarray) -> float:
        second = _kappa(rows[:, 0], rows[:, 2], agree, k, counts)
        return second - _kappa(rows[:, 0], rows[:, 1], agree, k, counts)

    base, h = freq.astype(float), 1e-6
    grad = np.array(
        [(delta(base + h * e) - delta(base - h * e)) / (2 * h) for e in np.eye(len(base))]
    )
    influence = n * grad
    var = float(np.sum(base * influence**2)) / n**2
    assert r.difference == pytest.approx(delta(base), rel=1e-12)
    assert r.standard_error == pytest.approx(math.sqrt(var), rel=1e-6)


@pytest.mark.parametrize(
    ("function", "weights"),
    [
        (concord.cohen_kappa, "quadratic"),
        (concord.cohen_kappa, None),
        (concord.fleiss_kappa, None),
    ],
)
def test_linearised_se_agrees_with_the_paired_bootstrap(function, weights) -> None:  # type: ignore[no-untyped-def]
    # n = 400 items, 2000 paired resamples: the bootstrap SE's Monte Carlo error is about
    # 1/√(2·2000) ≈ 1.6%, so 8% is five of them
    rng = np.random.default_rng(11)
    n, k = 400, 5
    truth = rng.integers(0, k, n)
    noise = rng.integers(-1, 2, n)
    a = np.clip(truth + np.where(rng.random(n) < 0.5, noise, 0), 0, k - 1)
    b = np.clip(truth + np.where(rng.random(n) < 0.35, noise, 0), 0, k - 1)
    if function is concord.cohen_kappa:
        first, second = (truth, a), (truth, b)
    else:
        first, second = np.column_stack([truth, a, a]), np.column_stack([truth, b, b])
    r = concord.compare(function, first, second, weights=weights)
    draws = []
    for _ in range(2000):
        i = rng.integers(0, n, n)
        if function is concord.cohen_kappa:
            d = function(truth[i], b[i], weights=weights).statistic
            d -= function(truth[i], a[i], weights=weights).statistic
        else:
            d = (
                function(second[i], weights=weights).statistic
                - function(first[i], weights=weights).statistic
            )
        draws.append(d)
    assert r.standard_error == pytest.approx(np.std(draws, ddof=1), rel=0.08)


def test_paired_se_is_smaller_with_correlated_errors() -> None:
    rng = np.random.default_rng(5)
    n = 300
    truth = rng.integers(0, 4, n)
    a = np.where(rng.random(n) < 0.6, truth, rng.integers(0, 4, n))
    b = np.where(rng.random(n) < 0.8, a, truth)  # model B keeps most of model A's errors
    paired = concord.compare(concord.cohen_kappa, (truth, a), (truth, b), weights="quadratic")
    unpaired = concord.compare(
        concord.cohen_kappa, (truth, a), (truth, b), weights="quadratic", paired=False
    )
    assert paired.difference == unpaired.difference
    assert paired.standard_error < 0.6 * unpaired.standard_error
    assert unpaired.standard_error == pytest.approx(
        math.hypot(unpaired.first.standard_error, unpaired.second.standard_error), rel=1e-15
    )


@pytest.mark.parametrize("c", [c for c in REGISTRY if c.terms is not None], ids=lambda c: c.name)
def test_compare_with_itself(c) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(2)
    x = rng.integers(0, 3, (40, 3))
    data = (x[:, 0], x[:, 1]) if c.arity == 2 else x
    r = concord.compare(c.function, data, data)
    assert (r.difference, r.standard_error, r.pvalue) == (0.0, 0.0, 1.0)
    assert r.confidence_interval() == (0.0, 0.0)


def test_interval_methods() -> None:
    r = concord.compare(concord.fleiss_kappa, _panel("readme", 1), _panel("readme", 2))
    from scipy import stats

    low, high = r.confidence_interval()
    q = stats.t.ppf(0.975, 14)
    assert (low, high) == pytest.approx(
        (r.difference - q * r.standard_error, r.difference + q * r.standard_error), rel=1e-12
    )
    low, high = r.confidence_interval(0.9, method="wald")
    q = stats.norm.ppf(0.95)
    assert (low, high) == pytest.approx(
        (r.difference - q * r.standard_error, r.difference + q * r.standard_error), rel=1e-12
    )
    assert "Difference (second − first) = 0.3392" in r.explain()
    assert repr(r).startswith("ComparisonResult(difference=0.3392")


def test_clustered_paired_bootstrap_redraws_clusters() -> None:
    """groups= with a bootstrap: whole clusters of joint patterns are redrawn.

    Sources: the cluster bootstrap (Davison & Hinkley 1997, §3.8) agrees with the
    clustered linearised SE (Gwet 2016's terms summed within clusters) within Monte
    Carlo error; one item per cluster is the items' bootstrap, seed for seed.
    """
    rng = np.random.default_rng(3)
    c, m = 60, 5
    truth = np.repeat(rng.integers(1, 5, c), m)
    a = np.clip(truth + np.repeat(rng.integers(-1, 2, c), m) * (rng.random(c * m) < 0.8), 1, 4)
    b = np.clip(truth + np.repeat(rng.integers(-1, 2, c), m) * (rng.random(c * m) < 0.5), 1, 4)
    g = np.repeat(np.arange(c), m)
    f = concord.cohen_kappa
    r = concord.compare(f, (truth, a), (truth, b), groups=g, weights="quadratic")
    items = concord.compare(f, (truth, a), (truth, b), weights="quadratic")
    boot = r._inferred().bootstrap(4000, 1, "compare").std(ddof=1)
    assert boot == pytest.approx(r.standard_error, rel=0.1)  # MC error of an SD: ~1.1%
    assert r.standard_error > 1.5 * items.standard_error  # the clusters are correlated
    low, high = r.confidence_interval(method="bootstrap-bca", rng=2)
    assert low < r.difference < high
    x = (truth, a)
    same = concord.compare(f, x, x, groups=g).confidence_interval(method="bootstrap-percentile")
    assert tuple(same) == (0.0, 0.0)
    one = concord.compare(f, (truth, a), (truth, b), groups=np.arange(c * m), weights="quadratic")
    assert one.confidence_interval(method="bootstrap-percentile", rng=5) == (
        items.confidence_interval(method="bootstrap-percentile", rng=5)
    )


def test_later_round_options_refused() -> None:
    wide = np.arange(900.0).reshape(300, 3)  # 900 values: the continuous alpha engine
    with pytest.raises(NotImplementedError, match="paired=False"):
        concord.compare(concord.krippendorff_alpha, wide, wide, level="interval")
    with pytest.raises(TypeError, match='weights="quadratic"'):
        concord.compare(concord.quadratic_weighted_kappa, ([1, 2], [1, 2]), ([1, 2], [1, 2]))


def test_paired_needs_the_same_items() -> None:
    x = _panel("readme", 1)
    with pytest.raises(ValueError, match="the same 15 items"):
        concord.compare(concord.fleiss_kappa, x.to_numpy(), x.to_numpy()[:10])
    with pytest.raises(ValueError, match="same index"):
        concord.compare(concord.fleiss_kappa, x, x.iloc[::-1])
    with pytest.raises(TypeError, match="rater1, rater2"):
        concord.compare(concord.cohen_kappa, [1, 2], [1, 2])
    r = concord.compare(concord.fleiss_kappa, x, _panel("missing", 1), paired=False)
    assert math.isfinite(r.pvalue) and r.df > 0


def test_homogeneity_against_metafor() -> None:
    # R metafor 3.8.1, rma(yi, vi, method = "FE"): Cochran's Q is Fleiss, Levin & Paik's χ²
    ref = json.loads((HERE / "r" / "homogeneity_values.json").read_text())
    results = [concord.fleiss_kappa(_panel(d, 1)) for d in ("readme", "missing", "two")]
    assert [r.statistic for r in results] == pytest.approx(ref["kappa"], rel=1e-14)
    h = concord.homogeneity(*results)
    assert h.pooled == pytest.approx(ref["pooled"], rel=1e-13)
    assert h.statistic == pytest.approx(ref["statistic"], rel=1e-13)
    assert h.pvalue == pytest.approx(ref["pvalue"], rel=1e-12)
    assert h.df == ref["df"]
    assert sum(h.shares) == pytest.approx(1.0)
    assert "χ² = 4.433 on 2 df" in h.explain()
