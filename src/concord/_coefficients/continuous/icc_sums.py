"""Fast numpy twins of the reductions the ICC's sums are made of, bit for bit.

numpy reduces a C-contiguous (rows, raters) block along either axis one
short row at a time (``x.sum(axis=1)`` and ``x.sum(axis=0)`` each cost about
18 ns a row), which made them most of an ICC's time. The functions here give
the very same floats from whole-column operations:

* ``x.sum(axis=1)`` on a C-contiguous block is numpy's pairwise sum of each
  row added to the identity 0.0 (fewer than 8 raters: a left fold; up to
  128: eight running sums, combined as numpy does, then the tail);
* ``x.sum(axis=0)`` is a left fold down the rows from 0.0, which
  ``np.cumsum`` computes with the same additions in the same order (two
  float columns at once through a complex view: complex addition adds the
  real and the imaginary parts alone).

Starting a fold from the first value instead of 0.0 changes at most the
sign of a zero total, which adding 0.0 at the end restores. Other layouts,
and rows of more than 128 raters, go to numpy itself. Integer blocks need no
care: their sums are exact in any order. ``tests/test_icc_sums.py`` checks
each twin against numpy on random blocks, negative zeros included.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any

import numpy as np

from concord._tables import engines

_UNROLL = 8  # numpy's pairwise sum: eight running sums
_BLOCK = 128  # numpy's pairwise sum: rows up to this length are one block


@cache
def _load() -> ModuleType | None:
    try:
        from concord._tables import block_kernels
    except ImportError:
        return None
    return block_kernels


def kernels(n: int) -> ModuleType | None:
    """Return the numba kernel when the engines would take numba for n values (counts them)."""
    if engines._engine(n, "auto", engines._MATRIX) is None:
        return None
    return _load()


def loaded() -> ModuleType | None:
    """Return the numba kernels once the engines have loaded their own (counts nothing)."""
    if engines._kernels.cache_info().currsize == 0 or engines._kernels() is None:
        return None
    return _load()


def scan(x: np.ndarray, fast: ModuleType | None) -> tuple[bool, bool, bool] | None:
    """(infinite, rated, integral) of a float block in one pass of ``fast``; None without it."""
    if fast is None or x.dtype != np.float64 or not x.flags.c_contiguous or not x.size:
        return None
    nan, infinite, whole = fast.scan(x)
    return bool(infinite), nan < x.size, bool(whole)


def block_sums(
    x: np.ndarray, fast: ModuleType | None, ordered: bool = True
) -> tuple[np.ndarray, np.ndarray, Any]:
    """Return ``x.sum(axis=1)``, ``x.sum(axis=0)`` and ``(x * x).sum()``, the same floats.

    One pass with ``fast``. ``ordered=False``: the sums are exact (whole
    numbers under 2**53), so any order gives them: each column pairwise.
    """
    n, k = x.shape
    if fast is None or x.dtype != np.float64 or not x.flags.c_contiguous or not 2 <= k <= _BLOCK:
        if not ordered and x.dtype == np.float64:
            columns = np.array([x[:, j].sum() for j in range(k)])
        else:
            columns = column_sums(x)
        return row_sums(x), columns, (x * x).sum()
    rows, columns = np.empty(n), np.empty(k)
    square = fast.block_sums(x, rows, columns)
    return rows, columns, square


def row_sums(x: np.ndarray) -> np.ndarray:
    """Return ``x.sum(axis=1)`` (the same floats) of a 2-D block."""
    n, k = x.shape
    if x.dtype.kind != "f" or not x.flags.c_contiguous or k > _BLOCK or k == 0 or n == 0:
        if x.dtype == np.int64 and k:  # exact in any order
            whole: np.ndarray = x[:, 0].copy()
            for j in range(1, k):
                whole += x[:, j]
            return whole
        return np.asarray(x.sum(axis=1))
    if k < _UNROLL:
        out: np.ndarray = x[:, 0] + 0.0
        for j in range(1, k):
            out += x[:, j]
        return out
    r = [x[:, j].copy() for j in range(_UNROLL)]
    end = k - k % _UNROLL
    for i in range(_UNROLL, end, _UNROLL):
        for j in range(_UNROLL):
            r[j] += x[:, i + j]
    out = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    for i in range(end, k):
        out += x[:, i]
    out += 0.0
    return out


def column_sums(x: np.ndarray) -> np.ndarray:
    """Return ``x.sum(axis=0)`` (the same floats) of a 2-D block."""
    n, k = x.shape
    if x.dtype == np.int64:  # exact in any order: numpy's fast sum of each column
        return np.array([x[:, j].sum() for j in range(k)], dtype=np.int64)
    if x.dtype != np.float64 or not x.flags.c_contiguous or n == 0 or k < 2:
        return np.asarray(x.sum(axis=0))
    out = np.empty(k)
    pairs = k // 2
    if pairs:
        total = np.cumsum(x[:, : 2 * pairs].view(np.complex128), axis=0)[-1]
        out[: 2 * pairs] = total.view(np.float64)
    if k % 2:
        out[-1] = np.cumsum(x[:, -1])[-1]
    out += 0.0
    return out
