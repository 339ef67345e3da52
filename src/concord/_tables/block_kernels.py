"""The intraclass correlation's row and column sums of a float block, compiled by numba.

This module imports numba at import time, so :mod:`concord._coefficients.continuous.icc_sums`
imports it lazily, once :mod:`concord._tables.engines` would use its own
kernels for as many values. :func:`block_sums` performs exactly numpy's
floating-point operations, in numpy's order (no reassociation, no fastmath),
so it gives the bits of ``x.sum(axis=1)`` and ``x.sum(axis=0)`` in one pass.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(nogil=True, cache=True)
def block_sums(x, rows, columns):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Write numpy's row and column sums of a C-contiguous (n, k) float64 block, 2 <= k <= 128.

    A row is numpy's pairwise sum added to 0.0: a left fold under 8 values,
    else eight running sums combined pairwise, then the tail. A column is a
    left fold down the rows from 0.0. Returns ``(x * x).sum()``: numpy's
    pairwise sum of the squares of the whole block, without the temporary.
    """
    n, k = x.shape
    end = k - k % 8
    r = np.empty(8)
    total = np.zeros(k)  # a fresh array: LLVM knows it aliases neither x nor rows
    for i in range(n):
        for j in range(k):
            total[j] += x[i, j]
        if k < 8:
            s = 0.0
            for j in range(k):
                s += x[i, j]
            rows[i] = s
            continue
        for j in range(8):
            r[j] = x[i, j]
        for b in range(8, end, 8):
            for j in range(8):
                r[j] += x[i, b + j]
        s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for j in range(end, k):
            s += x[i, j]
        rows[i] = 0.0 + s
    columns[:] = total
    return 0.0 + _squares(x.reshape(-1), 0, n * k)


@numba.njit(nogil=True, cache=True)
def _squares(a, lo, n):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Return numpy's pairwise sum (``DOUBLE_pairwise_sum``) of a[lo:lo + n] ** 2, in its order.

    numpy recurses: halves (the first a multiple of 8 long) down to blocks of
    at most 128. The recursion is walked with explicit stacks here, since
    numba's cache cannot reload a recursive function.
    """
    starts = np.empty(64, dtype=np.int64)
    sizes = np.empty(64, dtype=np.int64)
    state = np.zeros(64, dtype=np.int8)  # 0: left half next, 1: right half next, 2: add
    values = np.empty(64)
    top = 0
    filled = 0
    starts[0], sizes[0], state[0] = lo, n, 0
    while top >= 0:
        m = sizes[top]
        if m <= 128:
            values[filled] = _leaf(a, starts[top], m)
            filled += 1
            top -= 1
            continue
        half = m // 2
        half -= half % 8
        if state[top] == 2:
            filled -= 1
            values[filled - 1] = values[filled - 1] + values[filled]
            top -= 1
            continue
        first = state[top] == 0
        state[top] += 1
        top += 1
        starts[top] = starts[top - 1] + (0 if first else half)
        sizes[top] = half if first else m - half
        state[top] = 0
    return values[0]


@numba.njit(nogil=True, cache=True)
def _leaf(a, lo, n):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Return numpy's pairwise sum of the squares of a block of at most 128 values."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i] * a[i]
        return res
    r0, r1, r2, r3 = (
        a[lo] * a[lo],
        a[lo + 1] * a[lo + 1],
        a[lo + 2] * a[lo + 2],
        a[lo + 3] * a[lo + 3],
    )
    r4, r5, r6, r7 = (
        a[lo + 4] * a[lo + 4],
        a[lo + 5] * a[lo + 5],
        a[lo + 6] * a[lo + 6],
        a[lo + 7] * a[lo + 7],
    )
    end = n - n % 8
    for i in range(lo + 8, lo + end, 8):
        r0 += a[i] * a[i]
        r1 += a[i + 1] * a[i + 1]
        r2 += a[i + 2] * a[i + 2]
        r3 += a[i + 3] * a[i + 3]
        r4 += a[i + 4] * a[i + 4]
        r5 += a[i + 5] * a[i + 5]
        r6 += a[i + 6] * a[i + 6]
        r7 += a[i + 7] * a[i + 7]
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for i in range(lo + end, lo + n):
        res += a[i] * a[i]
    return res


@numba.njit(nogil=True, cache=True)
def scan(x):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Return the NaNs, the infinities, and whether the rest are whole numbers under 2**53.

    ``x`` is a C-contiguous float64 array. Counts without branches, which
    LLVM vectorises: a NaN compares false, an infinity is at least 2**53.
    """
    nan = 0
    infinite = 0
    fraction = 0
    large = 0
    for v in x.reshape(-1):
        a = abs(v)
        nan += v != v
        infinite += a == np.inf
        fraction += v > np.floor(v)
        large += a >= 2.0**53
    return nan, infinite, fraction == 0 and large == 0
