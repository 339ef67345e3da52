"""The Alt-Test's arithmetic: leave-one-out alignment scores, the paired t tests, BY.

Calderon, Reichart & Dror (2025), §3. For human j and item i, the remaining
humans' annotations R_ij are the item's others; the candidate's alignment
S(c_i, R_ij) and the human's S(h_ij, R_ij) give the candidate's indicator
W^f_ij = [S(c_i, R_ij) ≥ S(h_ij, R_ij)] and the human's W^h_ij (≥ the other
way), so d_ij = W^h_ij − W^f_ij is −1 (candidate better), 0 (tie) or 1 (human
better). The test of human j is H0: mean(d_j) ≥ ε against H1: mean(d_j) < ε.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._common.errors import param_error
from concord._common.extras import require

# The paper's rule (and the reference code's min_instances_per_human): the t test
# needs about 30 items for its normal approximation; a human with fewer is not tested.
MIN_ITEMS = 30


@dataclass(frozen=True)
class Outcomes:
    """Per tested human: items where the candidate was better, tied, the human better."""

    candidate_better: np.ndarray
    ties: np.ndarray
    human_better: np.ndarray


def accuracy_outcomes(codes: np.ndarray, candidate: np.ndarray) -> np.ndarray:
    """Return d (items × humans) for accuracy: the share of the others that match.

    ``codes`` are label codes (−1 missing), ``candidate`` the candidate's codes.
    Both shares divide by the same n_i − 1 others, so their numerators
    (whole counts) decide the comparison exactly.
    """
    n = codes.shape[0]
    k = int(max(codes.max(), candidate.max())) + 1
    present = codes >= 0
    rows = np.broadcast_to(np.arange(n)[:, None], codes.shape)
    counts = np.bincount(rows[present] * k + codes[present], minlength=n * k).reshape(n, k)
    own = np.take_along_axis(counts, np.where(present, codes, 0), axis=1) - 1
    theirs = counts[np.arange(n), candidate][:, None] - (codes == candidate[:, None])
    return np.where(present, np.sign(own - theirs), 0)


def rmse_outcomes(values: np.ndarray, present: np.ndarray, candidate: np.ndarray) -> np.ndarray:
    """Return d (items × humans) for negative RMSE: the smaller squared error is better.

    Both RMSEs average over the same others, so their sums of squares decide
    the comparison (no square root, no division, to round).
    """
    x = np.where(present, values, 0.0)
    d = np.zeros(values.shape, dtype=np.int64)
    for j in range(values.shape[1]):
        others = present.copy()
        others[:, j] = False
        human = np.where(others, (x[:, [j]] - x) ** 2, 0.0).sum(axis=1)
        machine = np.where(others, (candidate[:, None] - x) ** 2, 0.0).sum(axis=1)
        d[:, j] = np.where(present[:, j], np.sign(machine - human), 0)
    return d


def callable_outcomes(
    values: np.ndarray, present: np.ndarray, candidate: np.ndarray, metric: Callable[..., Any]
) -> np.ndarray:
    """Return d (items × humans) for a user's metric(annotation, others), higher better."""
    d = np.zeros(values.shape, dtype=np.int64)
    for i, j in zip(*np.nonzero(present), strict=True):
        others = [values[i, h] for h in np.flatnonzero(present[i]) if h != j]
        human = _score(metric(values[i, j], others), i)
        machine = _score(metric(candidate[i], others), i)
        d[i, j] = int(human >= machine) - int(machine >= human)
    return d


def _score(value: Any, item: int) -> float:
    """Return the user's metric as a finite float; a nan would silently read as a tie."""
    try:
        score = float(value)
    except (TypeError, ValueError):
        score = math.nan
    if not math.isfinite(score):
        param_error(
            "alt_test",
            "metric",
            "a function that returns a finite number (higher is better)",
            f"{value!r} on item {item}",
            raw=True,
            fix="Return a number for every item, e.g. 0.0 where nothing matches.",
        )
    return score


def tally(d: np.ndarray, present: np.ndarray) -> Outcomes:
    """Count each human's −1, 0 and 1 over the items they annotated."""
    return Outcomes(
        ((d == -1) & present).sum(axis=0),
        ((d == 0) & present).sum(axis=0),
        ((d == 1) & present).sum(axis=0),
    )


def pvalue(candidate_better: int, ties: int, human_better: int, epsilon: float) -> float:
    """One-sided p of H0: mean(d) ≥ ε, Student's t on the n − 1 df of the d's (scipy)."""
    ttest_1samp = require("scipy.stats", "stats", "concord.alt_test").ttest_1samp

    d = np.repeat([-1.0, 0.0, 1.0], [candidate_better, ties, human_better])
    with warnings.catch_warnings():
        # a constant d (every item one way) has t = ±inf (p 0 or 1) or 0/0 (nan): the
        # outcome is plain, and scipy's precision warning says nothing more
        if np.count_nonzero([candidate_better, ties, human_better]) == 1:
            warnings.simplefilter("ignore", RuntimeWarning)
        return float(ttest_1samp(d, epsilon, alternative="less").pvalue)


def by_rejected(p: np.ndarray, alpha: float) -> np.ndarray:
    """Benjamini & Yekutieli's (2001, Theorem 1.3) step-up procedure at FDR ``alpha``.

    With the p-values sorted, p_(1) ≤ … ≤ p_(m), and c(m) = Σ_{i=1}^{m} 1/i,
    reject the hypotheses of p_(1), …, p_(k) for the largest k with
    p_(k) ≤ k α / (m c(m)). A nan p-value is never rejected.
    """
    m = p.size
    order = np.argsort(p, kind="stable")  # nan sorts last
    c_m = np.sum(1.0 / np.arange(1, m + 1))
    below = p[order] <= (np.arange(1, m + 1) / m) * (alpha / c_m)
    k = int(np.flatnonzero(below)[-1]) + 1 if below.any() else 0
    rejected = np.zeros(m, dtype=bool)
    rejected[order[:k]] = True
    return rejected


def by_adjusted(p: np.ndarray) -> np.ndarray:
    """BY-adjusted p-values, min(1, min_{k ≥ i} m c(m) p_(k) / k), as R's p.adjust("BY").

    ``adjusted <= alpha`` is the same decision as :func:`by_rejected`; nan stays nan.
    """
    out = np.full(p.size, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = p.size  # a nan p-value still counts among the m hypotheses
    c_m = np.sum(1.0 / np.arange(1, m + 1))
    order = ok[np.argsort(p[ok], kind="stable")]
    scaled = p[order] * m * c_m / np.arange(1, order.size + 1)
    out[order] = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    return out
