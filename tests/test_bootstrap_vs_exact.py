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
