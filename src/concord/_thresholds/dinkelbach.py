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

    ``scores`` are the J distinct scores (ascending); ``hist[a, j]`` the
    (weighted) number of items with truth a and the j-th score (category-major,
    so that every sum along the scores is contiguous).
    """

    scores: np.ndarray
    hist: np.ndarray

    @property
    def truth(self) -> np.ndarray:
        """The truth histogram r."""
        out: np.ndarray = self.hist.sum(axis=1)
        return out

    @property
    def sizes(self) -> np.ndarray:
        """The (weighted) number of items per distinct score."""
        out: np.ndarray = self.hist.sum(axis=0)
        return out


def blocks(codes: np.ndarray, scores: np.ndarray, k: int, weight: np.ndarray | None) -> Blocks:
    """Sort by score and count the truth per distinct score."""
    order = np.argsort(scores, kind="stable")
    s = scores[order]
    new = np.empty(s.size, dtype=bool)
    new[0], new[1:] = True, s[1:] != s[:-1]
    block = np.cumsum(new) - 1
    j = int(block[-1]) + 1
    w = None if weight is None else weight[order]
    flat = np.bincount(codes[order] * j + block, weights=w, minlength=k * j)
    return Blocks(s[new], flat.reshape(k, j).astype(np.float64))


@dataclass(frozen=True)
class Prefix:
    """Prefix sums over the first p blocks, p = 0..J, for every grade (grade-major).

    ``observed[g, p]`` = Σ over those items of W[y_i, g]; ``size[p]`` their
    (weighted) number; ``expected[g]`` = e(g) = Σ_a r_a W[a, g] / n.
    """

    observed: np.ndarray
    size: np.ndarray
    expected: np.ndarray


def prefix(b: Blocks, weights: np.ndarray) -> Prefix:
    k, j = b.hist.shape
    observed = np.zeros((k, j + 1))
    np.cumsum(weights.T @ b.hist, axis=1, out=observed[:, 1:])  # Σ_a W[a, g] h[a, j]
    size = np.zeros(j + 1)
    np.cumsum(b.sizes, out=size[1:])
    expected = (b.truth @ weights) / size[-1]
    return Prefix(observed, size, expected)


def _solve(p: Prefix, lam: float) -> tuple[np.ndarray, float]:
    """Minimise Σ_i (W[y_i, g_i] − λ e(g_i)) over monotone gradings.

    Returns the cut positions (k+1 non-decreasing block indices, first 0 and
    last J: grade g covers blocks [cuts[g], cuts[g+1])) and the minimum.
    """
    k, end = p.observed.shape[0], p.size.size - 1
    best = p.observed[0] - lam * p.expected[0] * p.size  # F_0(p): blocks [0, p) in grade 0
    candidates = np.empty((k, end + 1))
    for g in range(1, k):
        gain = p.observed[g] - lam * p.expected[g] * p.size  # G_g(p)
        np.subtract(best, gain, out=candidates[g])
        best = gain + np.minimum.accumulate(candidates[g])
    cuts = np.empty(k + 1, dtype=np.int64)
    cuts[0], cuts[k] = 0, end
    for g in range(k - 1, 0, -1):  # back from the end: where grade g started
        cuts[g] = int(np.argmin(candidates[g][: cuts[g + 1] + 1]))
    return cuts, float(best[end])


def _ratio(b: Blocks, weights: np.ndarray, cuts: np.ndarray) -> float:
    """R = n D_o / n D_e of a grading."""
    k = weights.shape[0]
    grade_hist = np.array([b.hist[:, cuts[g] : cuts[g + 1]].sum(axis=1) for g in range(k)])
    observed = float(np.sum(grade_hist.T * weights))
    n = b.hist.sum()
    expected = float((b.truth @ weights) @ grade_hist.sum(axis=1)) / n
    return observed / expected if expected > 0 else math.inf


def _start(b: Blocks, k: int) -> np.ndarray:
    """Return a feasible grading: the score quantiles that reproduce the truth histogram."""
    share = np.cumsum(b.truth)[:-1] / b.hist.sum()
    position = np.searchsorted(np.cumsum(b.sizes) / b.hist.sum(), share, side="right")
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
    sums = prefix(b, weights)
    tolerance = 1e-12 * float(b.hist.sum() * max(weights.max(), 1e-300))
    for step in range(1, _MAX_STEPS + 1):
        candidate, value = _solve(sums, lam)
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
            out[g] = _midpoint(float(b.scores[position - 1]), float(b.scores[position]))
    return out


def _midpoint(lo: float, hi: float) -> float:
    """Return a cut between adjacent scores lo < hi that grades lo below, hi above it.

    The rounded midpoint can equal ``hi`` (adjacent floats; 2**53 + 2 and
    2**53 + 4, whose midpoint 2**53 + 3 rounds to even): ``hi`` would then
    fall below the cut, and every grade collapse. ``lo`` itself is a cut
    that separates them, since a grade counts the cuts strictly below a score.
    """
    mid = (lo + hi) / 2
    if not math.isfinite(mid):  # lo + hi beyond the float range
        mid = lo / 2 + hi / 2
    return mid if mid < hi else lo


def grade(scores: Any, cut_points: np.ndarray) -> np.ndarray:
    """Return grade positions 0..k−1: the number of cut points strictly below each score."""
    out: np.ndarray = np.searchsorted(
        cut_points, np.asarray(scores, dtype=np.float64), side="left"
    )
    return out
