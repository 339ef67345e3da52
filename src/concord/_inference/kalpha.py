"""Krippendorff's bootstrap of alpha, as Hayes & Krippendorff's (2007) KALPHA macro does it.

Hayes, A. F. & Krippendorff, K. (2007). Answering the call for a standard
reliability measure for coding data. Communication Methods and Measures
1(1), 77-89, doi:10.1080/19312450709336664; the algorithm is Krippendorff's
"Algorithm for bootstrapping a distribution of α" (2013), implemented in
Hayes' KALPHA macro for SPSS and SAS (version 3.0, 2011) and in Stata's
``kalpha`` (Klein & Reckmann 2017). It resamples pairable values, not items:

* the pairs (c, k) of values within units are drawn with the probabilities
  of the coincidence matrix, o_cc / n.. on the diagonal and 2 o_ck / n.. for
  c < k;
* each replicate draws M = min(25 · #{o_ck > 0}, (m − 1) n.. / 2) pairs (m
  observers) and sets α* = 1 − Σ δ²(pair) / (M · D_e), D_e fixed at its value
  on the data;
* α* below −1 is set to −1; replicates at α* = 1 where the data could not
  vary (all M pairs on one diagonal cell, expected round(B · Σ_c (o_cc/n..)^M)
  times) are set to 0, alpha's value when it is undefined;
* the interval takes the order statistics trunc(B (1 − L)/2) and
  trunc(B (1 + L)/2) + 1 (1-based) of the B replicates, and q(α_min), the
  probability of failing to reach α_min, is the share of replicates below it.

Drawing M pairs from the cumulative probabilities is one multinomial draw
of M over the cells, which is how the replicates are drawn here.
"""

from __future__ import annotations

import math

import numpy as np

#: The thresholds KALPHA reports q for (Hayes & Krippendorff 2007; Krippendorff 2004: .667).
THRESHOLDS = (0.9, 0.8, 0.7, 0.667, 0.6, 0.5)
# replicates drawn at once: bounds the (chunk × cells) count matrix in memory
_CHUNK = 2000


def draws(coincidences: np.ndarray, n_observers: int) -> int:
    """M, the pairs each replicate draws: min(25 · #{o_ck > 0}, round((m − 1) n.. / 2))."""
    n = float(coincidences.sum())
    return int(min(25 * int(np.count_nonzero(coincidences > 0)), round((n_observers - 1) * n / 2)))


def replicates(
    coincidences: np.ndarray,
    distances: np.ndarray,
    expected_disagreement: float,
    n_observers: int,
    n_resamples: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """Return ``n_resamples`` bootstrap values of α, corrected as KALPHA corrects them."""
    o = np.asarray(coincidences, dtype=np.float64)
    n = o.sum()
    upper = np.triu_indices(o.shape[0])
    # unordered pairs (c ≤ k): o_cc / n.. on the diagonal, 2 o_ck / n.. above it
    p = (np.where(upper[0] == upper[1], 1.0, 2.0) * o[upper] / n).clip(0.0)
    delta = np.asarray(distances, dtype=np.float64)[upper]
    keep = p > 0
    p, delta = p[keep] / p[keep].sum(), delta[keep]
    m = draws(o, n_observers)
    values = np.empty(n_resamples)
    for start in range(0, n_resamples, _CHUNK):
        size = min(_CHUNK, n_resamples - start)
        counts = rng.multinomial(m, p, size=size)
        values[start : start + size] = 1.0 - (counts @ delta) / (m * expected_disagreement)
    np.maximum(values, -1.0, out=values)
    return _undefined_to_zero(values, np.diag(o) / n, m)


def _undefined_to_zero(values: np.ndarray, diagonal: np.ndarray, m: int) -> np.ndarray:
    """Set the replicates whose M pairs all fell on one diagonal cell to α = 0 (KALPHA)."""
    ones = np.flatnonzero(values == 1.0)
    if ones.size == 0:
        return values
    if np.count_nonzero(diagonal) == 1:  # every all-agreeing replicate used one value only
        values[ones] = 0.0
        return values
    expected = round(values.size * float(np.sum(diagonal**m)))
    values[ones[: min(expected, ones.size)]] = 0.0
    return values


def interval(values: np.ndarray, level: float) -> tuple[float, float]:
    """Return KALPHA's interval: order statistics trunc(B(1 − L)/2) and trunc(B(1 + L)/2) + 1."""
    ordered = np.sort(values)
    b = ordered.size
    # the guard keeps 10000 · 0.025 = 249.99999999999997 at 250, KALPHA's index
    low = max(math.trunc(b * (1 - level) / 2 + 1e-9), 1)
    high = min(math.trunc(b * (1 + level) / 2 + 1e-9) + 1, b)
    return float(ordered[low - 1]), float(ordered[high - 1])


def below(values: np.ndarray, alpha_min: float) -> float:
    """Return q, the share of replicates below ``alpha_min``."""
    return float(np.mean(values < alpha_min))
