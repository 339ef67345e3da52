"""Kernels for the coefficients that know who rated what (Conger), compiled by numba.

This module imports numba at import time, so :mod:`concord._tables.rater_terms`
imports it lazily, only once :mod:`concord._tables.engines` has loaded its own
kernels. Both kernels release the GIL and work on disjoint row slices.

:func:`row_terms` performs exactly the floating-point operations, in the same
order, as the numpy twin ``rater_terms._numpy_row_terms`` (sequential sums,
no reassociation), so both give the same bits.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(nogil=True, cache=True)
def rater_codes(x, lo, k, codes, totals, rows):  # type: ignore[no-untyped-def]  # pragma: no cover
    """One pass over a ratings matrix with values in [lo, lo + k); NaN is missing.

    Writes each rating's raw code + 1 (0 = missing) into ``codes`` and adds
    it to ``totals[g, code]``, rater g's count. Returns each item's count
    pattern code Σ_j c_j (r + 1)^j (−1 for an item nobody rated), as
    ``engines.matrix_patterns`` does, and the number of values that were not
    whole numbers in range (the caller then takes the validating route).
    A non-empty ``rows`` receives each item's row code Σ_g c_g (k + 1)^g of
    its codes + 1 c_g (−1 for an item nobody rated), as ``rows_too`` does there.
    """
    n, r = x.shape
    counts = np.full(n, -1, np.int64)
    powers = np.ones(k, np.int64)
    for j in range(1, k):
        powers[j] = powers[j - 1] * (r + 1)
    bad = 0
    want_rows = rows.shape[0] > 0
    for i in range(n):
        code = np.int64(0)
        row = np.int64(0)
        step = np.int64(1)
        m = 0
        for g in range(r):
            v = x[i, g]
            c = 0
            if v == v:
                j = np.int64(v) - lo
                if j < 0 or j >= k or np.float64(np.int64(v)) != v:
                    bad += 1
                else:
                    code += powers[j]
                    c = j + 1
                    m += 1
            codes[i, g] = c
            totals[g, c] += 1
            row += c * step
            step *= k + 1
        if m > 0:
            counts[i] = code
        if want_rows:
            rows[i] = row if m > 0 else -1
    return counts, bad


@numba.njit(nogil=True, cache=True)
def row_terms(codes, lookup, agreement, m, agree, lam):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Per row: the number of ratings, Σ_k c_k (Σ_l a_kl c_l − 1) and Σ_g lookup[g, code_g].

    ``c`` is the row's count per category; sums run in index order, as in the numpy twin.
    """
    n, r = codes.shape
    k = agreement.shape[0]
    c = np.zeros(k + 1, np.float64)
    for i in range(n):
        c[:] = 0.0
        total = 0.0
        for g in range(r):
            code = codes[i, g]
            c[code] += 1.0
            total += lookup[g, code]
        lam[i] = total
        rated = 0.0
        sum_agree = 0.0
        for a in range(k):
            rated += c[a + 1]
            star = 0.0
            for b in range(k):
                star += agreement[a, b] * c[b + 1]
            sum_agree += c[a + 1] * (star - 1.0)
        m[i] = rated
        agree[i] = sum_agree
