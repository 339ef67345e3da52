"""Midranks and tie sums of each rater's ratings, and the warning for undefined values."""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from concord._common.errors import UndefinedKappaWarning
from concord._common.exact import fdot, fits_int64, fmean
from concord._common.extras import require

_COUNTING = 4  # integer scores spanning at most this many times n values are counted, not sorted
_THREADED = 1 << 20  # ratings from which the columns are ranked in threads
_PACKED_MIN = 1 << 12  # float64 columns from this size sort packed keys (see sorted_order)


def undefined(func: str, reason: str) -> None:
    """Warn that the statistic of ``func`` is nan, and why."""
    warnings.warn(f"{func} is undefined (nan): {reason}.", UndefinedKappaWarning, stacklevel=3)


def midranks(column: np.ndarray) -> tuple[np.ndarray, int]:
    """Return the midranks (1 to n; tied values share their mean rank) and Σ(t³ − t) over ties.

    Whole numbers of a small range are counted (O(n)); other values are sorted.
    The tie sum is an exact integer.

    >>> r, ties = midranks(np.array([3.0, 1.0, 3.0, 2.0]))
    >>> r.tolist(), ties
    ([3.5, 1.0, 3.5, 2.0], 6)
    """
    n = column.size
    if n and _small_integers(column):
        low = int(column.min())
        codes = (column - low).astype(np.intp)
        counts = np.bincount(codes)
        mid = np.cumsum(counts) - (counts - 1) / 2.0
        return mid[codes], tie_sum(counts, n)
    order, ordered = sorted_order(column)
    new = np.empty(n, dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    return _from_sorted(order, new), tie_sum(np.diff(np.append(np.flatnonzero(new), n)), n)


def sorted_order(column: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return an order that sorts ``column``, and the sorted values; tied values in any order.

    Large float64 columns sort packed keys instead of calling ``np.argsort``:
    each value's order-preserving 64-bit key keeps its top bits and its index
    fills the bits below (``np.sort`` of integers is about twice as fast as an
    argsort). Values whose keys differ only in the dropped bits may come out of
    order; those few runs are sorted again by value, so the order is exact.
    """
    n = column.size
    if column.dtype != np.float64 or n < _PACKED_MIN or n >= 1 << 31:
        order = np.argsort(column)
        return order, column[order]
    shift = np.uint64(int(n - 1).bit_length())
    low = np.uint64((1 << int(shift)) - 1)
    key = _keys(np.ascontiguousarray(column))
    key &= ~low
    key |= np.arange(n, dtype=np.uint64)
    key.sort()
    order = np.bitwise_and(key, low, out=key).view(np.intp)
    ordered = column[order]
    if np.isnan(ordered[0]) or np.isnan(ordered[-1]):  # NaN keys sort to the ends
        order = np.argsort(column)
        return order, column[order]
    late = np.flatnonzero(ordered[1:] < ordered[:-1])
    if late.size:  # equal top bits, unequal values: sort those runs by value
        top = _keys(ordered) >> shift
        run = np.cumsum(np.append(0, top[1:] != top[:-1]))
        at = np.flatnonzero(np.isin(run, run[late]))
        again = np.lexsort((ordered[at], run[at]))
        order[at], ordered[at] = order[at][again], ordered[at][again]
    return order, ordered


def _keys(values: np.ndarray) -> np.ndarray:
    """Return unsigned 64-bit keys in the order of contiguous float64 ``values`` (new array)."""
    key: np.ndarray = (values.view(np.int64) >> 63).view(np.uint64)  # all ones if negative
    key |= np.uint64(1 << 63)
    key ^= values.view(np.uint64)  # negative: every bit flipped; else the sign bit set
    return key


def _from_sorted(order: np.ndarray, new: np.ndarray) -> np.ndarray:
    """Midranks of the values sorted by ``order``; ``new`` marks where a sorted value changes."""
    n = order.size
    starts = np.flatnonzero(new)
    sizes: np.ndarray = np.diff(np.append(starts, n)).astype(np.intp)
    ranks = np.empty(n, dtype=np.float64)
    ranks[order] = np.repeat(starts + (sizes + 1) / 2.0, sizes)
    return ranks


def tie_sum(sizes: np.ndarray, n: int) -> int:
    """Return Σ(t³ − t) over the group sizes t (Σt ≤ n) as an exact integer.

    In int64 while n³ fits (then no partial sum can overflow), else in Python ints.

    >>> tie_sum(np.array([1, 2, 3]), 6), tie_sum(np.array([3 * 10**6]), 3 * 10**6)
    (30, 26999999999997000000)
    """
    t = np.asarray(sizes, dtype=np.int64)
    t = t[t > 1]
    if fits_int64(n, n, n):
        return int(np.sum(t**3 - t))
    return sum(v**3 - v for v in t.tolist())


def rank_sums(x: np.ndarray, integral: bool = True) -> tuple[np.ndarray, int]:
    """Return each row's sum of its midranks over the columns, and Σ(t³ − t) over all ties.

    ``integral``: whether the ratings may be whole numbers (False skips the counting
    path). Large matrices rank their columns in threads (numpy's sorts release the GIL).
    The sums are halves of integers below 2**52, so adding them is exact in any order.

    >>> sums, ties = rank_sums(np.array([[1, 2], [2, 1], [3, 3]]))
    >>> sums.tolist(), ties
    ([3.0, 3.0, 6.0], 0)
    """
    n, m = x.shape
    sums = np.zeros(n, dtype=np.float64)
    ties = 0

    def ranked(j: int) -> tuple[np.ndarray, int]:
        return column_ranks(np.ascontiguousarray(x[:, j]), integral)

    workers = min(m, os.cpu_count() or 1)
    if x.size < _THREADED or workers < 2:
        found: Iterable[tuple[np.ndarray, int]] = map(ranked, range(m))
        for ranks, t in found:
            sums += ranks
            ties += t
        return sums, ties
    with ThreadPoolExecutor(workers) as pool:
        for ranks, t in pool.map(ranked, range(m)):
            sums += ranks
            ties += t
    return sums, ties


def column_ranks(column: np.ndarray, integral: bool) -> tuple[np.ndarray, int]:
    """Return one column's midranks and its Σ(t³ − t), as :func:`midranks`, sorting once."""
    n = column.size
    if not n or (integral and _small_integers(column)):
        return midranks(column)
    order, ordered = sorted_order(column)
    new = np.empty(n, dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    del ordered
    if new.all():  # no ties: the ranks are 1..n
        ranks = np.empty(n, dtype=np.float64)
        ranks[order] = np.arange(1, n + 1, dtype=np.float64)
        return ranks, 0
    return _from_sorted(order, new), tie_sum(np.diff(np.append(np.flatnonzero(new), n)), n)


def _small_integers(column: np.ndarray) -> bool:
    span: float
    if column.dtype.kind in "iu":
        span = int(column.max()) - int(column.min())
    elif column.dtype.kind == "f" and np.all(column == np.round(column)):
        span = float(column.max()) - float(column.min())
    else:
        return False
    return span <= _COUNTING * column.size


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    """Return Pearson's r of two vectors; nan when either is constant.

    The sums are correctly rounded (:func:`~concord._common.exact.fsum`): the same on every CPU.
    """
    dx, dy = x - fmean(x), y - fmean(y)
    sxx, syy = fdot(dx, dx), fdot(dy, dy)
    if sxx == 0 or syy == 0:
        return float("nan")
    return float(np.clip(fdot(dx, dy) / math.sqrt(sxx * syy), -1.0, 1.0))


def chi2_sf(x: float, df: float) -> float:
    """P(χ²_df ≥ x): scipy's ``chdtrc``, which ``scipy.stats.chi2.sf`` calls, less its checks."""
    if not (math.isfinite(x) and df > 0):
        return math.nan if math.isnan(x) or df <= 0 else 0.0
    chdtrc = require("scipy.special", "stats", "a chi-squared p-value").chdtrc

    return float(chdtrc(df, max(x, 0.0)))


def has_missing(x: np.ndarray) -> bool:
    """Whether a float matrix holds NaN: one sum, no temporary array (ratings are finite)."""
    return x.dtype.kind == "f" and bool(np.isnan(np.add.reduce(x, axis=None)))
