"""γ_cat and γ_k disorders of an alignment (Mathet 2017), as pygamma-agreement 0.5.9 computes them.

pygamma-agreement's ``Alignment.gamma_k_disorder`` walks every pair of slots of
every unitary alignment (k units among n slots):

* two units u, v: weight w = max(0, 1 − alpha·pos(u, v)) / (k − 1), where pos is
  the positional dissimilarity alone; the pair adds w·[l_u ≠ l_v]·delta to the
  disorder and w to the weight;
* a unit and an empty slot: delta² to the disorder and delta to the weight;
* two empty slots: nothing.

γ_k for a label keeps the pairs where either unit has that label; γ_cat keeps
all. With no pair of two units kept the disorder is 1 when nothing was kept at
all and 0 otherwise; a zero total disorder is 0; else disorder / weight.
"""

from __future__ import annotations

import numpy as np

from concord._coefficients.spans.gamma_align import DELTA, Batch, owner_of


def _pairs(b: Batch, rows: np.ndarray) -> tuple[np.ndarray, ...]:
    """Return the pairs of units (first, second, 1/(k − 1)) and the units beside empty slots."""
    n = b.n_raters
    real = rows >= 0
    k = real.sum(axis=1)
    first, second, base = [], [], []
    for x in range(n):
        for y in range(x + 1, n):
            both = real[:, x] & real[:, y]
            first.append(rows[both, x])
            second.append(rows[both, y])
            base.append(1.0 / (k[both] - 1))
    lonely = real & (k < n)[:, None]
    alone = rows[lonely]
    empties = np.broadcast_to((n - k)[:, None], rows.shape)[lonely]
    return (
        np.concatenate(first),
        np.concatenate(second),
        np.concatenate(base),
        alone,
        empties.astype(np.float64),
    )


def category_disorders(b: Batch, rows: np.ndarray, alpha: float, n_labels: int) -> np.ndarray:
    """Return, per continuum, [γ_cat disorder, γ_k disorder of label 0, …, n_labels − 1]."""
    i, j, base, alone, empties = _pairs(b, rows)
    s, e, lab, own = b.start, b.end, b.label, b.continuum
    pos = ((np.abs(s[i] - s[j]) + np.abs(e[i] - e[j])) / ((e[i] - s[i]) + (e[j] - s[j]))) ** 2
    w = base * np.maximum(0.0, 1.0 - alpha * pos)
    dis = w * (lab[i] != lab[j]) * DELTA
    lonely = DELTA * empties
    cells = b.n_continua * n_labels
    at_i = own[i] * n_labels + lab[i]
    at_j = own[j] * n_labels + lab[j]
    at_a = own[alone] * n_labels + lab[alone]
    other = lab[i] != lab[j]

    def tally(pair_values: np.ndarray, alone_values: np.ndarray) -> np.ndarray:
        # float from the start: bincount of no values at all is int
        whole = np.bincount(own[i], pair_values, minlength=b.n_continua).astype(np.float64)
        whole += np.bincount(own[alone], alone_values, minlength=b.n_continua)
        cell = np.bincount(at_i, pair_values, minlength=cells).astype(np.float64)
        cell += np.bincount(at_j[other], pair_values[other], minlength=cells)
        cell += np.bincount(at_a, alone_values, minlength=cells)
        return np.column_stack((whole, cell.reshape(b.n_continua, n_labels)))

    total_dis = tally(dis, DELTA * lonely)
    total_w = tally(w, lonely)
    looped = tally(np.ones(i.size), np.zeros(alone.size))
    present = np.column_stack(
        (
            np.bincount(owner_of(b, rows), minlength=b.n_continua),
            np.bincount(own * n_labels + lab, minlength=cells).reshape(b.n_continua, n_labels),
        )
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(total_dis == 0, 0.0, total_dis / total_w)
    return np.where(looped == 0, np.where(present == 0, 1.0, 0.0), ratio)
