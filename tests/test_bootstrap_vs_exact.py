"""The bootstrap against the exact statistic and its analytic standard error, for every
coefficient of the shared registry (tests/registry.py) in every variant of its options.

400 items from a fixed rng (3 raters, 5% missing where the input allows it), 2,000
replicates with a fixed rng: the replicates centre on the exact statistic, and their
spread is the analytic standard error. Both are large-sample facts (Efron & Tibshirani
1993, ch. 6; the variances of Gwet 2014, ch. 5, and Fleiss, Cohen & Everitt 1969 are
delta-method ones), so the tolerances are Monte Carlo error plus a small-sample margin,
measured over all variants: the spreads fall within 1.5% to 3.5% of the SE here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import concord
from tests.registry import RESULTS, sample, se_params

N, B = 400, 2000


@pytest.mark.parametrize("v", se_params(RESULTS))
def test_bootstrap_matches_the_exact_statistic_and_its_standard_error(v):
    x = sample(v, N, seed=0, raters=3)
    r = v(x)
    reps = r.bootstrap(B, rng=1)
    assert np.isfinite(reps).all()
    se = r.standard_error
    # Monte Carlo error of the mean (4 of its SDs) plus the bootstrap's own bias
    # estimate, O(1/n): a tenth of the SE at n = 400
    assert abs(reps.mean() - r.statistic) < 4 * se / math.sqrt(B) + 0.1 * se
    # the SD of 2,000 replicates is within 1.6% of its own mean (1 / sqrt(2B)), and the
    # small-sample gap measured here is at most 3.4%
    assert np.std(reps) == pytest.approx(se, rel=0.05)


def _irrcac_pa_se(ratings: np.ndarray, agreement: np.ndarray) -> float:
    """pa.coeff.raw's standard error (irrCAC 1.4, R/agree.coeff3.raw.r), N infinite."""
    q = agreement.shape[0]
    counts = np.stack([(ratings == k).sum(axis=1) for k in range(q)], axis=1).astype(float)
    counts = counts[counts.sum(axis=1) > 0]
    n, r = counts.shape[0], counts.sum(axis=1)
    sum_q = (counts * (counts @ agreement.T - 1)).sum(axis=1)
    n2 = int((r >= 2).sum())
    pa = (sum_q[r >= 2] / (r * (r - 1))[r >= 2]).sum() / n2
    den = r * (r - 1)
    pa_i = (n / n2) * sum_q / (den - (den == 0))  # irrCAC: 0 for an item rated once
    return float(np.sqrt(((pa_i - pa) ** 2).sum() / (n * (n - 1))))


@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_percent_agreement_se_is_irrcacs(weights):
    # the SE the registry's bootstrap test marks: Gwet's formula, term for term
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 4, 400)
    ratings = np.where(rng.random((400, 3)) < 0.7, truth[:, None], rng.integers(0, 4, (400, 3)))
    ratings = ratings.astype(float)
    ratings[rng.random((400, 3)) < 0.05] = np.nan
    r = concord.percent_agreement(ratings, weights=weights, labels=[0, 1, 2, 3])
    agreement = 1 - r.weights / (r.weights.max() or 1)
    assert r.standard_error == pytest.approx(_irrcac_pa_se(ratings, agreement), rel=1e-12)
    # without the singly rated items the analytic SE and the bootstrap's spread agree
    rated = (~np.isnan(ratings)).sum(axis=1)
    paired = concord.percent_agreement(ratings[rated >= 2], weights=weights, labels=[0, 1, 2, 3])
    spread = paired.bootstrap(2000, rng=1).std(ddof=1)
    assert abs(spread / paired.standard_error - 1) < 0.05
