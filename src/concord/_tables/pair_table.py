"""The k×k pair table of two raters, and the two ways every engine labels it.

A leaf of the tables layer: :mod:`concord._tables.pairs` (host arrays) and
:mod:`concord._tables.pairs_device` (PyTorch, CuPy and JAX arrays) both
count into a :class:`PairTable` and label it here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._data.labels import Labels, unknown


@dataclass(frozen=True)
class PairTable:
    """The confusion table: ``table[i, j]`` counts rater1 = label i and rater2 = label j.

    Counts are int64; with sample weights they are float64 sums of weights,
    and ``units`` holds the distinct (cell, weight) pairs with their
    frequencies, which the bootstrap resamples. ``declared`` says whether the
    labels were declared (``labels=`` or an ordered Categorical) rather than
    found in the ratings.
    """

    table: np.ndarray
    labels: Labels
    units: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    declared: bool = False


def weighted_table(units: tuple[np.ndarray, np.ndarray, np.ndarray], k: int) -> np.ndarray:
    """Return the k×k table of sums of sample weights from the distinct (cell, weight) units.

    Summing over the sorted units, not over the pairs in the order given,
    makes the table a function of the set of pairs: a stream's merged units
    give exactly the table of the whole data.
    """
    cells, weight, freq = units
    flat: np.ndarray = np.bincount(cells, weights=weight * freq, minlength=k * k)
    return flat.reshape(k, k)


def labelled_table(
    dense: np.ndarray, lo: int, both_bool: bool, declared: tuple[Any, ...] | None, func: str
) -> PairTable:
    """Label the table of integer ratings counted on the range from ``lo``.

    Without declared labels the labels are the values used (bools when both
    raters' ratings are bool); declared ones must cover every value used.
    """
    if declared is None:
        return _found(dense, lo, both_bool)
    used = (dense.sum(axis=0) + dense.sum(axis=1)) > 0
    # offsets in Python ints: a declared label beyond int64 (1e200) is simply outside the range
    offsets = [int(v) - lo for v in declared]
    pos = np.array([p if 0 <= p < dense.shape[0] else -1 for p in offsets], dtype=np.int64)
    inside = pos >= 0
    covered = np.zeros(dense.shape[0], dtype=bool)
    covered[pos[inside]] = True
    stray = np.flatnonzero(used & ~covered)
    if stray.size:
        counts = dense.sum(axis=0) + dense.sum(axis=1)
        unknown(Counter({int(lo + i): int(counts[i]) for i in stray}), declared, func, "ratings")
    sel = np.flatnonzero(inside)
    table = np.zeros((len(declared), len(declared)), dtype=dense.dtype)
    table[np.ix_(sel, sel)] = dense[np.ix_(pos[sel], pos[sel])]
    return PairTable(table, Labels(declared, ordered=True))


def _found(dense: np.ndarray, lo: int, both_bool: bool) -> PairTable:
    """Return the table of the values used, labelled by them (``dense``: the caller's own)."""
    add = np.add.reduce  # ndarray.sum's own reduction, without its Python wrapper
    totals = (add(dense, axis=0) + add(dense, axis=1)).tolist()  # k numbers: Python is quicker
    if min(totals) > 0:  # every value of the range used (the usual scale): the table as counted
        used = range(lo, lo + len(totals))
        values = tuple(bool(v) for v in used) if both_bool else tuple(used)
        return PairTable(dense, Labels(values, ordered=True))
    idx = [i for i, total in enumerate(totals) if total > 0]
    first, last = idx[0], idx[-1]
    if last - first + 1 == len(idx):  # no gap (the usual scale): a slice, no fancy index
        table = dense[first : last + 1, first : last + 1].copy()
    else:
        table = dense[np.ix_(idx, idx)]
    values = tuple(bool(lo + i) if both_bool else lo + i for i in idx)
    return PairTable(table, Labels(values, ordered=True))
