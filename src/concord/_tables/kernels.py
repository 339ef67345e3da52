"""One-pass counting kernels compiled by numba.

This module imports numba at import time, so only :mod:`concord._tables.engines`
imports it, lazily, and only for inputs large enough to pay for it. Every
kernel releases the GIL so that :mod:`concord._tables.engines` can run one kernel per
core on disjoint slices and add the integer results.

All sums are int64. The callers guarantee that they cannot overflow (see
``_count.pair_moments``).
"""

from __future__ import annotations

import numba
import numpy as np

_BLOCK = 4096  # uint8 codes per block: 4 KiB stays in L1 next to the tables
_STRIDE = 16  # row stride of the small table, a power of two


@numba.njit(nogil=True, cache=True)
def minmax(a, b):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Return the smallest and largest value over both arrays, as int64."""
    lo = np.int64(a[0])
    hi = lo
    for i in range(a.shape[0]):
        x = np.int64(a[i])
        y = np.int64(b[i])
        lo = min(lo, x, y)
        hi = max(hi, x, y)
    return lo, hi


@numba.njit(nogil=True, cache=True)
def sums(a, b):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Return Σa, Σb, Σa², Σb², Σab: a pure reduction, which LLVM vectorises."""
    sa = sb = saa = sbb = sab = np.int64(0)
    for i in range(a.shape[0]):
        x = np.int64(a[i])
        y = np.int64(b[i])
        sa += x
        sb += y
        saa += x * x
        sbb += y * y
        sab += x * y
    return sa, sb, saa, sbb, sab


@numba.njit(nogil=True, cache=True)
def moments(a, b, shift):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Return min, max and the five sums Σx, Σy, Σx², Σy², Σxy of x = a − shift, y = b − shift."""
    lo = np.int64(a[0])
    hi = lo
    sa = sb = saa = sbb = sab = np.int64(0)
    for i in range(a.shape[0]):
        x0 = np.int64(a[i])
        y0 = np.int64(b[i])
        lo = min(lo, x0, y0)
        hi = max(hi, x0, y0)
        x = x0 - shift
        y = y0 - shift
        sa += x
        sb += y
        saa += x * x
        sbb += y * y
        sab += x * y
    return lo, hi, sa, sb, saa, sbb, sab


@numba.njit(nogil=True, cache=True)
def _code_block(a, b, lo, k, code):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Write (a − lo)·16 + (b − lo) into ``code``; count the values outside [lo, lo+k)."""
    bad = 0
    ku = np.uint64(k)
    for i in range(code.shape[0]):
        x = np.int64(a[i]) - lo
        y = np.int64(b[i]) - lo
        bad += (np.uint64(x) >= ku) | (np.uint64(y) >= ku)
        code[i] = np.uint8((x << 4) | (y & 15))
    return bad


@numba.njit(nogil=True, cache=True)
def _count_block(code, t):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Add the codes to four interleaved 256-cell tables (no store-to-load stalls)."""
    m = code.shape[0] - code.shape[0] % 4
    for i in range(0, m, 4):
        t[code[i]] += 1
        t[256 + np.int64(code[i + 1])] += 1
        t[512 + np.int64(code[i + 2])] += 1
        t[768 + np.int64(code[i + 3])] += 1
    for i in range(m, code.shape[0]):
        t[code[i]] += 1


@numba.njit(nogil=True, cache=True)
def table_small(a, b, lo, k):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Count pairs on the window [lo, lo + k), k ≤ 16.

    Returns ``(table, bad)``: the k×k counts, and the number of pairs with a
    value outside the window (the table is then incomplete and the caller
    falls back to a full min/max pass).
    """
    n = a.shape[0]
    t = np.zeros(1024, np.int64)
    code = np.empty(_BLOCK, np.uint8)
    bad = 0
    for s in range(0, n, _BLOCK):
        e = min(n, s + _BLOCK)
        c = code[: e - s]
        bad += _code_block(a[s:e], b[s:e], lo, k, c)
        _count_block(c, t)
    full = t[0:256] + t[256:512] + t[512:768] + t[768:1024]
    return full.reshape(_STRIDE, _STRIDE)[:k, :k].copy(), bad


@numba.njit(nogil=True, cache=True)
def _code_bytes(a, b, lo, code):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Write (a − lo)·16 + (b − lo) of byte ratings into ``code``, in byte lanes (vectorised).

    ``a`` and ``b`` are uint8 views and ``lo`` a uint8: differences wrap
    modulo 256, which a window inside the ratings' dtype keeps unambiguous
    (see ``engines._speculative_table``). Return whether a pair fell outside.
    """
    bad = np.uint8(0)
    for i in range(code.shape[0]):
        x = np.uint8(a[i] - lo)
        y = np.uint8(b[i] - lo)
        bad |= x | y
        code[i] = np.uint8((x << 4) | y)
    return bad >= 16


@numba.njit(nogil=True, cache=True)
def _count_words(code, t):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Add the codes to four interleaved 256-cell tables, eight codes per 64-bit load."""
    m = code.shape[0] - code.shape[0] % 8
    words = code[:m].view(np.uint64)
    for j in range(words.shape[0]):
        c = words[j]
        t[c & 255] += 1
        t[256 + ((c >> 8) & 255)] += 1
        t[512 + ((c >> 16) & 255)] += 1
        t[768 + ((c >> 24) & 255)] += 1
        t[(c >> 32) & 255] += 1
        t[256 + ((c >> 40) & 255)] += 1
        t[512 + ((c >> 48) & 255)] += 1
        t[768 + (c >> 56)] += 1
    for i in range(m, code.shape[0]):
        t[code[i]] += 1


@numba.njit(nogil=True, cache=True)
def table_bytes(a, b, lo):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Count byte ratings (uint8 views) on the window [lo, lo + 16), ``lo`` a uint8.

    Returns ``(table, bad)`` as :func:`table_small` does with k = 16; ``bad``
    says whether any pair fell outside the window. Half the time of
    :func:`table_small` on int8: byte lanes, and word loads while counting.
    """
    n = a.shape[0]
    t = np.zeros(1024, np.int64)
    code = np.empty(_BLOCK, np.uint8)
    bad = False
    for s in range(0, n, _BLOCK):
        e = min(n, s + _BLOCK)
        c = code[: e - s]
        bad |= _code_bytes(a[s:e], b[s:e], lo, c)
        _count_words(c, t)
    full = t[0:256] + t[256:512] + t[512:768] + t[768:1024]
    return full.reshape(_STRIDE, _STRIDE).copy(), bad


_BYTES = np.uint64(0x0101010101010101)  # times a byte: that byte in all eight lanes
_OUTSIDE = np.uint64(0xF8F8F8F8F8F8F8F8)  # a lane with any of these bits set is outside [0, 8)
_LOW = np.uint64(0x003F003F003F003F)  # the even pair's 6-bit code of each 16-bit lane
_HIGH = np.uint64(0x0FC00FC00FC00FC0)  # the odd pair's, shifted down to bits 6..11
_CELLS = np.uint64(0x0FFF0FFF0FFF0FFF)  # keeps every cell inside its sub-table, even when bad
_WORD_CELLS = 4096  # cells of a two-pair table: two 6-bit pair codes
_WORD_BLOCK = 512  # words per block: the 4 KiB of cells stays in L1 next to the tables
_WORD_STRIDE = 4112  # sub-table stride: not a multiple of 4 KiB apart (no 4K aliasing)
_WORD_FLUSH = 1 << 31  # words per flush: a uint32 cell gets at most one count a word


@numba.njit(nogil=True, cache=True)
def table_words(a, b, lo, flip):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Count contiguous byte ratings (uint8 views) on the window [lo, lo + 8), eight pairs a word.

    ``flip`` is 0x80 for int8 (XOR maps int8's order onto uint8's) and 0 for
    uint8; ``lo`` is the window's start after the flip, at most 248, so no
    lane wraps. Returns ``(table, bad)``: the 8×8 counts, and whether a pair
    fell outside the window (the table is then incomplete).

    Per block, :func:`_word_codes` turns each 64-bit word of ``a`` and ``b``
    into four 12-bit cells of two pairs each (vectorised), and
    :func:`_count_cells` adds them to four uint32 sub-tables: one increment
    per two pairs, and runs of one cell do not wait on their own stores.
    About 0.3 ns a pair on one core, half of :func:`table_bytes`'s.
    """
    n = a.shape[0]
    m = n - n % 8
    a64 = a[:m].view(np.uint64)
    b64 = b[:m].view(np.uint64)
    flips = np.uint64(flip) * _BYTES
    low = np.uint64(lo) * _BYTES
    t = np.zeros(4 * _WORD_STRIDE, np.uint32)
    acc = np.zeros(64, np.int64)
    cells = np.empty(_WORD_BLOCK, np.uint64)
    bad = np.uint64(0)
    words = a64.shape[0]
    for s in range(0, words, _WORD_FLUSH):
        for u in range(s, min(words, s + _WORD_FLUSH), _WORD_BLOCK):
            e = min(words, u + _WORD_BLOCK)
            c = cells[: e - u]
            bad |= _word_codes(a64[u:e], b64[u:e], flips, low, c)
            _count_cells(c, t)
        _flush_words(t, acc)
    for i in range(m, n):
        x = np.uint64((a[i] ^ flip) - lo) & np.uint64(255)
        y = np.uint64((b[i] ^ flip) - lo) & np.uint64(255)
        bad |= x | y
        acc[((x << np.uint64(3)) | y) & np.uint64(63)] += 1
    return acc.reshape(8, 8).copy(), (bad & _OUTSIDE) != 0


@numba.njit(nogil=True, cache=True)
def _word_codes(a64, b64, flips, low, cells):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Write four 12-bit two-pair cells per word into ``cells``; return the OR of the lanes.

    One 64-bit subtraction moves eight lanes: a lane below the window borrows
    from the next one, but is itself left with a high bit set, so the OR still
    flags the word exactly. Plain 64-bit arithmetic, which LLVM vectorises.
    """
    bad = np.uint64(0)
    for j in range(cells.shape[0]):
        x = (a64[j] ^ flips) - low
        y = (b64[j] ^ flips) - low
        bad |= x | y
        p = (x << np.uint64(3)) | y  # a pair's 6-bit code in each byte
        cells[j] = ((p & _LOW) | ((p >> np.uint64(2)) & _HIGH)) & _CELLS
    return bad


@numba.njit(nogil=True, cache=True)
def _count_cells(cells, t):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Add each word's four cells to the four sub-tables (one each)."""
    mask = np.uint64(_WORD_CELLS - 1)
    for j in range(cells.shape[0]):
        d = cells[j]
        t[d & mask] += 1
        t[_WORD_STRIDE + ((d >> np.uint64(16)) & mask)] += 1
        t[2 * _WORD_STRIDE + ((d >> np.uint64(32)) & mask)] += 1
        t[3 * _WORD_STRIDE + (d >> np.uint64(48))] += 1


@numba.njit(nogil=True, cache=True)
def _flush_words(t, acc):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Add the two-pair sub-tables to the 64 pair counts and clear them.

    Cell ``(odd << 6) | even`` counts both pairs: the even pair's count is a
    column sum of the 64×64 view, the odd pair's a row sum (vectorised loops).
    """
    for q in range(4):
        for row in range(64):
            base = q * _WORD_STRIDE + row * 64
            total = np.int64(0)
            for col in range(64):
                v = np.int64(t[base + col])
                acc[col] += v
                total += v
            acc[row] += total
    t[:] = 0


@numba.njit(nogil=True, cache=True)
def table_direct(a, b, lo, k):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Count pairs into a k×k table; every value must lie in [lo, lo + k)."""
    t = np.zeros(k * k, np.int64)
    for i in range(a.shape[0]):
        t[(np.int64(a[i]) - lo) * k + (np.int64(b[i]) - lo)] += 1
    return t.reshape(k, k)


@numba.njit(nogil=True, cache=True)
def matrix_patterns(x, lo, k, rows_too):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Pattern codes of a ratings matrix with values in [lo, lo + k); NaN is missing.

    For item i with count vector c (c_j raters chose category j) and m ratings,
    ``counts[i]`` is Σ_j c_j (r + 1)^j, or −1 when m = 0; with ``rows_too``,
    ``rows[i]`` is Σ_g (j_g + 1)(k + 1)^g over its raters (0 for a missing
    rating; −1 when m = 0, an item nobody rated). Also returns the number of
    values that were not whole numbers in range (the caller then falls back to
    the validating numpy path).
    """
    n, r = x.shape
    counts = np.full(n, -1, np.int64)
    rows = np.zeros(n if rows_too else 0, np.int64)
    powers = np.ones(k, np.int64)
    for j in range(1, k):
        powers[j] = powers[j - 1] * (r + 1)
    bad = 0
    for i in range(n):
        code = np.int64(0)
        row = np.int64(0)
        step = np.int64(1)
        m = 0
        for g in range(r):
            v = x[i, g]
            if v == v:
                j = np.int64(v) - lo
                if j < 0 or j >= k or np.float64(np.int64(v)) != v:
                    bad += 1
                else:
                    code += powers[j]
                    row += (j + 1) * step
                    m += 1
            step *= k + 1
        if m > 0:
            counts[i] = code
        if rows_too:
            rows[i] = row if m > 0 else -1
    return counts, rows, bad
