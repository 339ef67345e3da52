"""The bootstrap of concord.compare: joint resampling of paired items, percentile and BCa.

Sources: brute force here (the coefficient functions called on item-deleted data for
the jackknife, Efron's (1987) BCa levels computed by hand from them), the paired
linearised SEs that tests/test_compare.py checks against R pairedCAC, and
Monte Carlo error bounds stated at each test.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

import concord

K = 5


def _models(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A truth and two models with ordinal errors (B closer to the truth than A)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, K, n)
    noise = rng.integers(-1, 2, n)
    a = np.clip(truth + np.where(rng.random(n) < 0.5, noise, 0), 0, K - 1)
    b = np.clip(truth + np.where(rng.random(n) < 0.3, noise, 0), 0, K - 1)
    return truth, a, b


def _sides(function, truth, a, b):  # type: ignore[no-untyped-def]
    if function is concord.cohen_kappa:
        return (truth, a), (truth, b)
    return np.column_stack([truth, a, a]), np.column_stack([truth, b, b])


@pytest.mark.parametrize(
    ("function", "weights"),
    [
        (concord.cohen_kappa, "quadratic"),
        (concord.cohen_kappa, None),
        (concord.fleiss_kappa, None),
        (concord.conger_kappa, None),
    ],
)
def test_bootstrap_se_agrees_with_the_linearised_se(function, weights) -> None:  # type: ignore[no-untyped-def]
    # n = 400 items, 8000 paired resamples: the SD of B normal replicates has a relative
    # Monte Carlo error of 1/√(2B) ≈ 0.8%, and the delta method and the bootstrap differ
    # by O(1/n) ≈ 0.25%; 5% is several of both
    truth, a, b = _models(400, 11)
    r = concord.compare(function, *_sides(function, truth, a, b), weights=weights)
    replicates = r._inferred().bootstrap(8000, 1, "test")
    assert float(np.std(replicates, ddof=1)) == pytest.approx(r.standard_error, rel=0.05)


def test_paired_table_is_the_joint_patterns_and_its_jackknife_is_brute_force() -> None:
    # two models against one truth: the joint patterns are the distinct rows (truth, a, b)
    # in their lexicographic order; leaving out one item of a pattern must give the two
    # kappas of the data without that item, computed from scratch
    truth, a, b = _models(60, 4)
    labels = list(range(K))
    r = concord.compare(concord.cohen_kappa, (truth, a), (truth, b), labels=labels)
    sampler = r._inferred().sampler
    rows, freq = np.unique(np.column_stack([truth, a, b]), axis=0, return_counts=True)
    assert np.array_equal(sampler.frequencies(), freq)
    values, counts = sampler.jackknife()
    assert np.array_equal(counts, freq)
    for row, value in zip(rows, values, strict=True):
        drop = np.flatnonzero((truth == row[0]) & (a == row[1]) & (b == row[2]))[0]
        keep = np.arange(truth.size) != drop
        one = concord.cohen_kappa(truth[keep], a[keep], labels=labels).statistic
        two = concord.cohen_kappa(truth[keep], b[keep], labels=labels).statistic
        assert value == pytest.approx(two - one, rel=1e-12, abs=1e-14)
    assert sampler.observed() == pytest.approx(r.difference, rel=1e-12)


@pytest.mark.parametrize(
    "function",
    [
        concord.cohen_kappa,
        concord.fleiss_kappa,
        concord.conger_kappa,
        concord.light_kappa,
        concord.krippendorff_alpha,
    ],
)
@pytest.mark.parametrize("method", ["bootstrap-percentile", "bootstrap-bca"])
def test_joint_resampling_of_one_data_set_has_zero_width(function, method) -> None:  # type: ignore[no-untyped-def]
    # compare(f, x, x): every joint resample holds the same items on both sides, so each
    # replicate of the difference is exactly 0; resampling the sides on their own (what
    # paired=False does, for independent samples) gives an interval of positive width
    truth, a, _ = _models(150, 8)
    x = _sides(function, truth, a, a)[0]
    paired = concord.compare(function, x, x, method=method, n_resamples=999, rng=1)
    assert paired.confidence_interval() == (0.0, 0.0)
    apart = concord.compare(function, x, x, paired=False, method=method, n_resamples=999, rng=1)
    low, high = apart.confidence_interval()
    assert high - low > 0.05


def test_seeded_intervals_are_reproducible() -> None:
    truth, a, b = _models(200, 3)
    first, second = (truth, a), (truth, b)
    one = concord.compare(concord.cohen_kappa, first, second, rng=7, n_resamples=500)
    two = concord.compare(concord.cohen_kappa, first, second, rng=7, n_resamples=500)
    for method in ("bootstrap-percentile", "bootstrap-bca"):
        ci = one.confidence_interval(method=method)
        assert (
            ci == two.confidence_interval(method=method) == one.confidence_interval(method=method)
        )
        assert ci != one.confidence_interval(method=method, rng=8)
    assert one.confidence_interval(
        method="bootstrap-percentile", rng=3
    ) == two.confidence_interval(method="bootstrap-percentile", rng=np.random.default_rng(3))


def test_bca_against_efron_by_hand_on_a_skewed_difference() -> None:
    # near the ceiling the difference's bootstrap distribution is skewed; BCa's levels
    # are Efron's (1987) Φ(z0 + (z0 + z)/(1 − a (z0 + z))) with z0 from the replicates and
    # a from the jackknife, here computed by hand from the functions on item-deleted data
    rng = np.random.default_rng(21)
    n = 80
    truth = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.85, truth, rng.integers(0, 3, n))
    b = np.where(rng.random(n) < 0.97, truth, rng.integers(0, 3, n))
    r = concord.compare(concord.cohen_kappa, (truth, a), (truth, b), labels=[0, 1, 2])
    reps = r._inferred().bootstrap(4000, 5, "test")
    est = r.difference
    below = np.mean(reps < est) + 0.5 * np.mean(reps == est)
    normal = NormalDist()
    z0 = normal.inv_cdf(float(below))
    theta = []
    for i in range(n):
        keep = np.arange(n) != i
        theta.append(
            concord.cohen_kappa(truth[keep], b[keep], labels=[0, 1, 2]).statistic
            - concord.cohen_kappa(truth[keep], a[keep], labels=[0, 1, 2]).statistic
        )
    d = np.mean(theta) - np.array(theta)
    accel = float(np.sum(d**3) / (6 * np.sum(d**2) ** 1.5))
    levels = [
        normal.cdf(z0 + (z0 + z) / (1 - accel * (z0 + z)))
        for z in (normal.inv_cdf(0.025), normal.inv_cdf(0.975))
    ]
    expected = np.quantile(reps, levels)
    bca = r.confidence_interval(method="bootstrap-bca", n_resamples=4000, rng=5)
    percentile = r.confidence_interval(method="bootstrap-percentile", n_resamples=4000, rng=5)
    assert bca == pytest.approx(tuple(expected), rel=1e-9)
    assert accel > 0.02  # skewed: the acceleration moves the interval
    assert max(abs(bca[0] - percentile[0]), abs(bca[1] - percentile[1])) > 0.005


def test_unpaired_bootstrap_se_is_the_root_sum_of_squares() -> None:
    # independent samples: each side redrawn on its own, so the replicates' SD is
    # √(SE₁² + SE₂²) up to Monte Carlo (8000 resamples: 0.8%) and O(1/n) error
    truth, a, b = _models(400, 12)
    r = concord.compare(
        concord.fleiss_kappa, *_sides(concord.fleiss_kappa, truth, a, b), paired=False
    )
    replicates = r._inferred().bootstrap(8000, 2, "test")
    assert float(np.std(replicates, ddof=1)) == pytest.approx(r.standard_error, rel=0.05)


def test_bootstrap_interval_stays_in_the_range_of_a_difference() -> None:
    # a difference of two kappas in [−1, 1] lies in [−2, 2]; with perfect agreement on
    # one side and chance on the other every replicate is inside it
    truth, _, _ = _models(30, 9)
    noise = np.random.default_rng(9).integers(0, K, 30)
    r = concord.compare(
        concord.cohen_kappa, (truth, noise), (truth, truth), method="bootstrap-percentile", rng=1
    )
    low, high = r.confidence_interval()
    assert -2 <= low <= r.difference <= high <= 2
    assert not math.isnan(low)


def test_bootstrap_options_are_checked() -> None:
    truth, a, b = _models(50, 1)
    r = concord.compare(concord.cohen_kappa, (truth, a), (truth, b))
    with pytest.raises(ValueError, match="n_resamples"):
        r.confidence_interval(method="bootstrap-percentile", n_resamples=1)
    with pytest.raises(ValueError, match="method"):
        r.confidence_interval(method="fisher-z")
    with pytest.raises(NotImplementedError, match="sample_weight"):
        concord.compare(
            concord.cohen_kappa, (truth, a), (truth, b), sample_weight=np.ones(50)
        ).confidence_interval(method="bootstrap-bca")
