"""Shared test helpers: an independent reference implementation in exact fractions."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np


def fraction_table(r1: Sequence[object], r2: Sequence[object], labels: Sequence[object]):
    """The k×k table of counts, built with plain Python."""
    index = {v: i for i, v in enumerate(labels)}
    k = len(labels)
    table = [[0] * k for _ in range(k)]
    for a, b in zip(r1, r2, strict=True):
        table[index[a]][index[b]] += 1
    return table


def fraction_kappa(table, weights) -> Fraction:
    """κ = 1 − ΣW·O / ΣW·E straight from the definition (Cohen 1968), in exact arithmetic.

    ``weights`` are disagreement weights; floats are converted exactly.
    """
    o = [[Fraction(v) for v in row] for row in np.asarray(table).tolist()]
    w = [[Fraction(v) for v in row] for row in np.asarray(weights, dtype=float).tolist()]
    k = len(o)
    n = sum(sum(row) for row in o)
    rows = [sum(o[i]) for i in range(k)]
    cols = [sum(o[i][j] for i in range(k)) for j in range(k)]
    observed = sum(w[i][j] * o[i][j] for i in range(k) for j in range(k))
    expected = sum(w[i][j] * rows[i] * cols[j] / n for i in range(k) for j in range(k))
    return 1 - observed / expected


def positions_weights(k: int, kind: str) -> np.ndarray:
    """Disagreement weights on the positions 0..k-1, built independently of concord."""
    i, j = np.indices((k, k))
    if kind == "linear":
        return np.abs(i - j).astype(float)
    if kind == "quadratic":
        return ((i - j) ** 2).astype(float)
    return (i != j).astype(float)
