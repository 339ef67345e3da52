"""Per-row terms of rows of rater codes, and a sum that does not depend on how rows are grouped.

Conger's variance needs, for every item, quantities of its row of codes
(code + 1 per rater, 0 = missing): its number of ratings, its agreement
Σ_k c_k (Σ_l a_kl c_l − 1) and a per-rater lookup summed over its raters.
The rows may be every item (the one-pass route keeps the codes) or the
distinct rows with frequencies (streams, the numpy route): :func:`row_terms`
gives each row the same bits either way, and :func:`grouped_sum` adds
per-row values times frequencies so that the total is the same for any
grouping of equal rows. With numba the kernels of
:mod:`concord._tables.rater_kernels` compute the rows; without it, numpy
performs the same operations in the same order.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType

import numpy as np

from concord._common.exact import fdot
from concord._tables import engines as _count

_CHUNK = 1 << 14  # rows per numpy chunk: bounds the (rows × raters) temporaries


@cache
def _load() -> ModuleType | None:
    try:
        from concord._tables import rater_kernels
    except ImportError:
        return None
    return rater_kernels


def kernels() -> ModuleType | None:
    """Return the numba kernels once :mod:`concord._tables.engines` has loaded its own."""
    if _count._kernels.cache_info().currsize == 0 or _count._kernels() is None:
        return None
    return _load()


def row_terms(
    codes: np.ndarray, lookup: np.ndarray, agreement: np.ndarray, *, engine: str = "auto"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (m, agree, lam) for each row of ``codes`` (rows × raters, 0..k).

    m is the number of ratings, agree = Σ_k c_k (Σ_l a_kl c_l − 1) over the
    row's counts c, lam = Σ_g lookup[g, codes[g]]; every sum in index order.
    """
    n = codes.shape[0]
    m, agree, lam = np.empty(n), np.empty(n), np.empty(n)
    found = kernels() if engine == "auto" else None
    if found is not None:
        found.row_terms(np.ascontiguousarray(codes), lookup, agreement, m, agree, lam)
        return m, agree, lam
    for s in range(0, n, _CHUNK):
        part = slice(s, s + _CHUNK)
        m[part], agree[part], lam[part] = _numpy_row_terms(codes[part], lookup, agreement)
    return m, agree, lam


def _numpy_row_terms(
    codes: np.ndarray, lookup: np.ndarray, agreement: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Do the numba kernel's operations in numpy: cumsum adds in index order, as its loops do."""
    k = agreement.shape[0]
    c = (codes[:, :, None] == np.arange(1, k + 1)).sum(axis=1).astype(np.float64)
    lam = np.cumsum(lookup[np.arange(codes.shape[1]), codes], axis=1)[:, -1]
    star = np.cumsum(agreement[None, :, :] * c[:, None, :], axis=2)[:, :, -1]
    agree = np.cumsum(c * (star - 1.0), axis=1)[:, -1]
    return c.sum(axis=1), agree, lam


def grouped_sum(values: np.ndarray, freq: np.ndarray | None) -> float:
    """Σ_i freq_i · values_i, the same for any grouping of equal values into frequencies.

    Equal values are merged first (np.unique sorts them), so the distinct
    values and their total frequencies, and hence the float sum, do not
    depend on whether the rows were distinct patterns or every item.
    """
    if freq is None:
        distinct, counts = np.unique(values, return_counts=True)
        weight: np.ndarray = counts.astype(np.float64)
    else:
        distinct, inverse = np.unique(values, return_inverse=True)
        weight = np.bincount(inverse.reshape(-1), weights=freq, minlength=distinct.size)
    return fdot(distinct, weight)  # an exact sum: the same on every CPU
