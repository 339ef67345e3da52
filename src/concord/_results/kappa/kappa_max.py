"""κ_max: the largest kappa that two raters' marginal totals allow."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from concord._common.extras import require


class KappaResult(Protocol):
    """What κ_max reads of a two-rater result (``concord.KappaResult`` has it)."""

    @property
    def observed(self) -> np.ndarray: ...
    @property
    def weights(self) -> np.ndarray: ...
    @property
    def labels(self) -> tuple[Any, ...]: ...
    @property
    def weighting(self) -> str: ...
    @property
    def statistic(self) -> float: ...
    @property
    def chance_agreement(self) -> float: ...


_CONVEX = ("linear", "quadratic", "ordinal")


def _north_west(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Return the monotone coupling of two marginal vectors (the north-west corner rule)."""
    rows, cols = rows.astype(np.float64), cols.astype(np.float64)
    table = np.zeros((rows.size, cols.size))
    i = j = 0
    while i < rows.size and j < cols.size:
        take = min(rows[i], cols[j])
        table[i, j] = take
        rows[i] -= take
        cols[j] -= take
        if rows[i] == 0:
            i += 1
        else:
            j += 1
    return table


def _linear_programme(w: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> float:
    what = "kappa_max with these weights (a linear programme)"
    linprog = require("scipy.optimize", "stats", what).linprog
    k = w.shape[0]
    eq = np.zeros((2 * k, k * k))
    for i in range(k):
        eq[i, i * k : (i + 1) * k] = 1
        eq[k + i, i::k] = 1
    solved = linprog(w.ravel(), A_eq=eq, b_eq=np.r_[rows, cols], bounds=(0, None), method="highs")
    return float(solved.fun)


def _least_disagreement(result: KappaResult) -> float:
    """Min Σ W_ij O_ij over all tables with the observed row and column totals."""
    rows, cols = result.observed.sum(axis=1), result.observed.sum(axis=0)
    if result.weighting not in _CONVEX:
        return _linear_programme(result.weights, rows, cols)
    # convex in the distance of the scores: the monotone coupling in score order is optimal
    values = result.labels
    numeric = result.weighting != "ordinal" and all(isinstance(v, int | float) for v in values)
    order = np.argsort(np.array(values, dtype=float), kind="stable") if numeric else None
    if order is None:
        order = np.arange(len(values))
    coupling = _north_west(rows[order], cols[order])
    return float((coupling * result.weights[np.ix_(order, order)]).sum())


def kappa_max(result: KappaResult) -> float:
    """κ_max of a two-rater result (see ``KappaResult.kappa_max``)."""
    n = float(result.observed.sum())
    p_e = result.chance_agreement
    if n == 0 or np.isnan(result.statistic) or p_e == 1:
        return float("nan")
    if result.weighting == "unweighted":
        rows, cols = result.observed.sum(axis=1), result.observed.sum(axis=0)
        p_max = float(np.minimum(rows, cols).sum()) / n
    else:
        p_max = 1 - _least_disagreement(result) / (n * float(result.weights.max()))
    return (p_max - p_e) / (1 - p_e)
