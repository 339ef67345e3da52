"""Quadratic kappa's five sums with numpy alone: the path before (or without) numba.

Σx, Σy, Σx², Σy², Σxy are exact integers however they are computed, so each
size takes the cheapest exact way (``benchmarks/bench_kappa.py``):

* up to ``DIRECT`` pairs, the sums themselves: five int64 reductions on the
  arrays as given (no copy of int64 ratings) when the range proves they
  cannot overflow;
* beyond, the pair table of each chunk of ``STEP`` pairs, counted on the
  chunk's own range while the chunk is in cache, merged into one small
  table; the sums come from that table at the end. It reads every rating
  from memory once, where a min/max pass and then a pass of products would
  read it nine times.

Either returns None when it does not apply (a range wider than ``MAX_K``
values, say), and the caller takes the chunked products.
"""

from __future__ import annotations

import numpy as np

Sums = tuple[int, int, int, int, int]

DIRECT = 1 << 12  # up to here the five reductions beat a table's dozen calls
STEP = 1 << 15  # two chunks of int64 ratings stay in a core's L2 cache
MAX_K = 64  # the widest range whose table the chunks build
_SAFE = 1 << 62
_MIN, _MAX = np.minimum.reduce, np.maximum.reduce


def numpy_minmax(a: np.ndarray, b: np.ndarray) -> tuple[int, int]:
    """Return the smallest and largest value of two integer arrays."""
    if a.shape[0] <= DIRECT and a.dtype == b.dtype:  # two reductions of one copy: fewer calls
        both = np.concatenate((a, b))
        return int(_MIN(both)), int(_MAX(both))
    return min(int(_MIN(a)), int(_MIN(b))), max(int(_MAX(a)), int(_MAX(b)))


def wrapped(value: int) -> int:
    """Return ``value`` modulo 2**64 as an int64: int64 arithmetic wraps alike."""
    return (value + (1 << 63)) % (1 << 64) - (1 << 63)


def direct_sums(a: np.ndarray, b: np.ndarray) -> tuple[int, int, Sums] | None:
    """``(lo, hi, sums)`` of the unshifted ratings, or None if an int64 sum could overflow."""
    lo, hi = numpy_minmax(a, b)
    top = max(lo * lo, hi * hi, 1)
    if a.shape[0] * top >= _SAFE:
        return None
    if a.dtype != np.int64:
        a = a.astype(np.int64)
    if b.dtype != np.int64:
        b = b.astype(np.int64)
    sums = (int(a.sum()), int(b.sum()), int(a @ a), int(b @ b), int(a @ b))
    return lo, hi, sums


def table_sums(a: np.ndarray, b: np.ndarray) -> tuple[int, int, Sums] | None:
    """``(lo, hi, sums)`` of x = a − lo, y = b − lo, from chunk tables; None past ``MAX_K``."""
    n = a.shape[0]
    buf = np.empty(min(n, STEP), dtype=np.int64)
    table = np.zeros((1, 1), dtype=np.int64)
    lo = hi = None
    for s in range(0, n, STEP):
        x, y = a[s : s + STEP], b[s : s + STEP]
        c_lo = min(int(x.min()), int(y.min()))
        c_hi = max(int(x.max()), int(y.max()))
        if lo is None or hi is None:
            lo, hi = c_lo, c_hi
            if hi - lo >= MAX_K:
                return None
            table = np.zeros((hi - lo + 1,) * 2, dtype=np.int64)
        elif c_lo < lo or c_hi > hi:
            table, lo, hi = _widened(table, lo, hi, c_lo, c_hi)
            if hi - lo >= MAX_K:
                return None
        k = c_hi - c_lo + 1
        key = buf[: x.shape[0]]
        # (x − c_lo)·k + (y − c_lo): every step stays within [0, k²), whatever the dtype
        np.subtract(x, c_lo, out=key, dtype=np.int64, casting="unsafe")
        key *= k
        np.add(key, y, out=key, dtype=np.int64, casting="unsafe")  # uint64 too
        key -= c_lo
        at = c_lo - lo
        table[at : at + k, at : at + k] += np.bincount(key, minlength=k * k).reshape(k, k)
    assert lo is not None and hi is not None
    return lo, hi, _from_table(table, n)


def _widened(
    table: np.ndarray, lo: int, hi: int, c_lo: int, c_hi: int
) -> tuple[np.ndarray, int, int]:
    new_lo, new_hi = min(lo, c_lo), max(hi, c_hi)
    if new_hi - new_lo >= MAX_K:
        return table, new_lo, new_hi  # the caller gives up
    wider = np.zeros((new_hi - new_lo + 1,) * 2, dtype=np.int64)
    at = lo - new_lo
    k = hi - lo + 1
    wider[at : at + k, at : at + k] = table
    return wider, new_lo, new_hi


def _from_table(table: np.ndarray, n: int) -> Sums:
    """Return the five sums of a table of counts whose row and column i stand for value i."""
    k = table.shape[0]
    rows, cols = table.sum(axis=1), table.sum(axis=0)
    if n * max(k - 1, 1) ** 2 >= _SAFE:  # not on any real input: Python integers then
        rows, cols, table = rows.astype(object), cols.astype(object), table.astype(object)
    idx = np.arange(k, dtype=np.int64)
    square = idx * idx
    return (
        int(rows @ idx),
        int(cols @ idx),
        int(rows @ square),
        int(cols @ square),
        int(idx @ (table @ idx)),
    )
