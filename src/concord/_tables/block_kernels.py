"""The intraclass correlation's row and column sums of a float block, compiled by numba.

This module imports numba at import time, so :mod:`concord._coefficients.icc_sums`
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
    left fold down the rows from 0.0.
    """
    n, k = x.shape
    end = k - k % 8
    r = np.empty(8)
    for j in range(k):
        columns[j] = 0.0
    for i in range(n):
        for j in range(k):
            columns[j] += x[i, j]
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


@numba.njit(nogil=True, cache=True)
def scan(x):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Return the NaNs, the infinities, and whether the rest are whole numbers under 2**53.

    ``x`` is a C-contiguous float64 array.
    """
    nan = 0
    infinite = 0
    whole = True
    for v in x.reshape(-1):
        if v != v:
            nan += 1
        elif abs(v) == np.inf:
            infinite += 1
            whole = False
        elif whole and not (abs(v) < 2.0**53 and v == np.floor(v)):
            whole = False
    return nan, infinite, whole
