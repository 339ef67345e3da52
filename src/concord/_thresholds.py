"""Cut points that maximise weighted kappa, found exactly (Dinkelbach + dynamic programming).

Cutting scores at t_1 ≤ … ≤ t_{k−1} gives grades g_i. With the truth
histogram r fixed, both terms of κ = 1 − D_o/D_e are sums over items of a
term that depends only on the item's grade:

    n D_o = Σ_i W[y_i, g_i]            n D_e = Σ_i e(g_i),  e(b) = Σ_a r_a W[a, b] / n

so maximising κ is minimising the ratio R(g) = Σ o_i(g_i) / Σ e(g_i) over
monotone gradings. Dinkelbach's (1967) iteration solves such fractional
programmes exactly: for λ = R(g), find g' minimising Σ_i (o_i(g'_i) −
λ e(g'_i)); if the minimum is 0, g is optimal, else R(g') < λ and repeat.
Each step is a dynamic programme over the sorted distinct scores (tied
scores stay together) and the k grades: with prefix sums G_b(p) of the
costs over the first p blocks,

    F_b(p) = G_b(p) + min_{s ≤ p} (F_{b−1}(s) − G_b(s)),

one running minimum per grade, O(k · J) for J distinct scores.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

_MAX_STEPS = 100


@dataclass(frozen=True)
class Blocks:
    """The items sorted by score and grouped by equal score.

    ``scores`` are the J distinct scores (ascending); ``hist[j, a]`` the
    (weighted) number of items with the j-th score and truth a.
    """

    scores: np.ndarray
    hist: np.ndarray


def blocks(codes: np.ndarray, scores: np.ndarray, k: int, weight: np.ndarray | None) -> Blocks:
    """Sort by score and count the truth per distinct score."""
    order = np.argsort(scores, kind="stable")
    s = scores[order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    block = np.repeat(np.arange(starts.size), np.diff(np.r_[starts, s.size]))
    w = None if weight is None else weight[order]
    flat = np.bincount(block * k + codes[order], weights=w, minlength=starts.size * k)
    return Blocks(s[starts], flat.reshape(starts.size, k).astype(np.float64))


def _solve(b: Blocks, weights: np.ndarray, lam: float) -> tuple[np.ndarray, float]:
    """Minimise Σ_i (W[y_i, g_i] − λ e(g_i)) over monotone gradings.

    Returns the cut positions (k+1 non-decreasing block indices, first 0 and
    last J: grade g covers blocks [cuts[g], cuts[g+1])) and the minimum.
    """
    j, k = b.hist.shape
    n = b.hist.sum()
    expected = (b.hist.sum(axis=0) @ weights) / n  # e(b) per item
    observed = np.vstack([np.zeros(k), np.cumsum(b.hist @ weights, axis=0)])  # (J+1, k)
    size = np.r_[0.0, np.cumsum(b.hist.sum(axis=1))]
    gain = observed - lam * size[:, None] * expected[None, :]  # G_b(p), (J+1, k)
    best = gain[:, 0] - gain[0, 0]  # F_0(p): blocks [0, p) all in grade 0
    back = np.empty((k, j + 1), dtype=np.int64)
    positions = np.arange(j + 1)
    for g in range(1, k):
        candidate = best - gain[:, g]
        running = np.minimum.accumulate(candidate)
        back[g] = np.maximum.accumulate(np.where(candidate == running, positions, 0))
        best = gain[:, g] + running
    cuts = np.empty(k + 1, dtype=np.int64)
    cuts[k] = j
    for g in range(k - 1, 0, -1):
        cuts[g] = back[g][cuts[g + 1]]
    cuts[0] = 0
    return cuts, float(best[j])


def _ratio(b: Blocks, weights: np.ndarray, cuts: np.ndarray) -> float:
    """R = n D_o / n D_e of a grading."""
    k = weights.shape[0]
    grade_hist = np.array([b.hist[cuts[g] : cuts[g + 1]].sum(axis=0) for g in range(k)])
    observed = float(np.sum(grade_hist.T * weights))
    n = b.hist.sum()
    expected = float((b.hist.sum(axis=0) @ weights) @ grade_hist.sum(axis=1)) / n
    return observed / expected if expected > 0 else math.inf


def _start(b: Blocks, k: int) -> np.ndarray:
    """Return a feasible grading: the score quantiles that reproduce the truth histogram."""
    share = np.cumsum(b.hist.sum(axis=0))[:-1] / b.hist.sum()
    position = np.searchsorted(np.cumsum(b.hist.sum(axis=1)) / b.hist.sum(), share, side="right")
    cuts: np.ndarray = np.r_[0, np.minimum(position, b.scores.size), b.scores.size]
    return cuts


@dataclass(frozen=True)
class Optimum:
    cuts: np.ndarray
    ratio: float
    gap: float
    steps: int


def optimise(b: Blocks, weights: np.ndarray) -> Optimum:
    """Dinkelbach's iteration: the grading of least ratio, and the certificate ``gap``.

    ``gap`` is min_g Σ_i (o_i(g_i) − λ* e(g_i)) at the final ratio λ*; it is 0
    (up to rounding) exactly when no grading has a smaller ratio.
    """
    k = weights.shape[0]
    cuts = _start(b, k)
    lam = _ratio(b, weights, cuts)
    tolerance = 1e-12 * float(b.hist.sum() * max(weights.max(), 1e-300))
    for step in range(1, _MAX_STEPS + 1):
        candidate, value = _solve(b, weights, lam)
        if value >= -tolerance:
            return Optimum(cuts, lam, value, step)
        cuts, lam = candidate, _ratio(b, weights, candidate)
    return Optimum(cuts, lam, value, _MAX_STEPS)  # pragma: no cover - converges in a few steps


def thresholds(b: Blocks, cuts: np.ndarray) -> np.ndarray:
    """Cut points at the midpoints between adjacent distinct scores (±inf for empty end grades)."""
    out = np.empty(cuts.size - 2)
    for g, position in enumerate(cuts[1:-1]):
        if position == 0:
            out[g] = -np.inf
        elif position == b.scores.size:
            out[g] = np.inf
        else:
            out[g] = (b.scores[position - 1] + b.scores[position]) / 2
    return out


def grade(scores: Any, cut_points: np.ndarray) -> np.ndarray:
    """Return grade positions 0..k−1: the number of cut points strictly below each score."""
    out: np.ndarray = np.searchsorted(
        cut_points, np.asarray(scores, dtype=np.float64), side="left"
    )
    return out
