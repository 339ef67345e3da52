"""The one-pass route of a numeric ratings matrix without numba: chunked numpy.

:func:`concord._tables.engines.matrix_patterns` counts a numeric matrix's
item patterns in one compiled pass; before numba is loaded (a fresh process,
or no ``concord[fast]``) this module forms the same patterns with numpy, a
block of rows at a time, so the extra memory is one block, not copies of the
whole matrix. Every value is shifted to a small whole number (0 for a missing
rating, j + 1 for category j) and checked to be whole on the way; then

* when the rater patterns are few enough to count densely ((k + 1)^r codes
  against the n items), each row's mixed-radix code is one BLAS product and a
  bincount per block counts them; the count patterns follow from the distinct
  rows, a table of at most (k + 1)^r rows;
* otherwise each row's count code Σ_g (r + 1)^{j_g} is gathered per block and
  :func:`concord._tables.patterns.from_codes` counts the codes.

Either way the patterns, their order and their frequencies are those of
``from_codes`` over the kernel's codes, integer for integer. A value that is
not a whole number, or a range this route cannot shift exactly, returns None:
the validating path then runs and explains.
"""

from __future__ import annotations

import numpy as np

from concord._tables import patterns as _patterns
from concord._tables.patterns import Patterns

_BLOCK = 1 << 16  # values per block: a few hundred KiB of scratch, in cache
_EXACT = 1 << 52  # |value| below this: x − (lo − 1) is exact in float64 for whole x
_DENSE_ROWS = 16  # count rater patterns densely while (k + 1)^r ≤ 16 n + 4096


def bounds(x: np.ndarray) -> tuple[int, int] | None:
    """(lo, hi): whole numbers around a numeric matrix's finite values; None if it has none.

    NaN is missing; an infinity means no range. Two reductions, no copy.
    """
    if x.dtype.kind != "f":
        return int(x.min()), int(x.max())
    lo_f, hi_f = np.fmin.reduce(x, axis=None), np.fmax.reduce(x, axis=None)
    if not (np.isfinite(lo_f) and np.isfinite(hi_f)):  # all NaN, or an infinity
        return None
    return int(np.floor(lo_f)), int(np.ceil(hi_f))


def matrix_patterns(
    x: np.ndarray, max_range: int, rows_too: bool
) -> tuple[int, int, Patterns, Patterns | None] | None:
    """``(lo, k, counts, rows)`` of a numeric matrix with values in [lo, lo + k), or None.

    ``counts`` are the item patterns over all k categories (as
    ``from_codes(kernel counts, r + 1, k)``); ``rows`` the rater patterns
    (codes + 1, 0 = missing) when ``rows_too`` and their codes fit int64,
    else None. Items that nobody rated are left out of both.
    """
    if x.dtype.kind not in "iuf" or x.ndim != 2 or x.shape[0] == 0 or x.shape[1] == 0:
        return None
    found = bounds(x)
    if found is None:
        return None
    lo, hi = found
    k, (n, r) = hi - lo + 1, x.shape
    if k > max_range or k >= 255 or max(abs(lo), abs(hi)) >= _EXACT:
        return None
    if not _patterns.radix_fits(r + 1, k):
        return None
    narrow = _patterns.radix_fits(k + 1, r)
    if narrow and (k + 1) ** r <= min(_patterns._DENSE_CODES, _DENSE_ROWS * n + 4096):
        dense = _dense_rows(x, lo, k)
        if dense is None:
            return None
        return lo, k, _count_patterns(dense, r, k), dense if rows_too else None
    return _gathered(x, lo, k, rows_too and narrow)


def _shifted(xc: np.ndarray, lo: int, buf: np.ndarray, small: np.ndarray) -> bool:
    """Write 0 (missing) or j + 1 (category j) for a block into ``buf`` and ``small``.

    Returns False when some value is not a whole number (the block is then unusable).
    """
    np.subtract(xc, lo - 1, out=buf, dtype=np.float64)
    np.fmax(buf, 0.0, out=buf)  # NaN → 0; every rating is ≥ 1 here
    small[...] = buf  # exact for whole numbers in [0, 255)
    if not np.equal(small, buf).all():
        return False
    # the subtraction rounds a value that is not whole (1e-300 − (−1) is 1.0): undo the
    # shift, exact for whole numbers below 2**52, and compare with the ratings themselves
    back = buf + (lo - 1)
    return bool((np.equal(back, xc) | np.isnan(xc)).all())


def _dense_rows(x: np.ndarray, lo: int, k: int) -> Patterns | None:
    """Rater patterns (j + 1, 0 = missing) counted on all (k + 1)^r codes, or None."""
    n, r = x.shape
    size = (k + 1) ** r
    powers = ((k + 1) ** np.arange(r, dtype=np.int64)).astype(np.float64)  # exact: < 2**53
    freq = np.zeros(size, dtype=np.int64)
    step = max(1, _BLOCK // r)
    buf = np.empty((min(step, n), r), dtype=np.float64)
    small = np.empty(buf.shape, dtype=np.uint8)
    for s in range(0, n, step):
        xc = x[s : s + step]
        b, c = buf[: xc.shape[0]], small[: xc.shape[0]]
        if not _shifted(xc, lo, b, c):
            return None
        freq += np.bincount((b @ powers).astype(np.int64), minlength=size)
    present = np.flatnonzero(freq[1:]) + 1  # code 0: an item nobody rated
    return Patterns(_patterns.decode(present, k + 1, r), freq[present])


def _count_patterns(rows: Patterns, r: int, k: int) -> Patterns:
    """Return the count patterns of distinct rater patterns, as ``from_codes`` forms them."""
    categories = np.arange(1, k + 1)
    counts = (rows.rows[:, :, None] == categories).sum(axis=1, dtype=np.int64)
    codes = _patterns.encode(counts, r + 1)
    unique, inverse = np.unique(codes, return_inverse=True)
    freq = np.zeros(unique.shape[0], dtype=np.int64)
    np.add.at(freq, inverse.reshape(-1), rows.freq)
    return Patterns(_patterns.decode(unique, r + 1, k), freq)


def _gathered(
    x: np.ndarray, lo: int, k: int, rows_too: bool
) -> tuple[int, int, Patterns, Patterns | None] | None:
    """Per-item count codes (and rater codes) gathered a block at a time, counted at the end."""
    n, r = x.shape
    weights = np.zeros(k + 1, dtype=np.int64)  # category j + 1 adds (r + 1)^j; missing 0
    weights[1:] = (r + 1) ** np.arange(k, dtype=np.int64)
    row_powers = (k + 1) ** np.arange(r, dtype=np.int64) if rows_too else None
    counts = np.empty(n, dtype=np.int64)
    rows = np.empty(n if rows_too else 0, dtype=np.int64)
    step = max(1, _BLOCK // r)
    buf = np.empty((min(step, n), r), dtype=np.float64)
    small = np.empty(buf.shape, dtype=np.uint8)
    for s in range(0, n, step):
        xc = x[s : s + step]
        b, c = buf[: xc.shape[0]], small[: xc.shape[0]]
        if not _shifted(xc, lo, b, c):
            return None
        counts[s : s + c.shape[0]] = weights[c].sum(axis=1)
        if row_powers is not None:
            rows[s : s + c.shape[0]] = c.astype(np.int64) @ row_powers
    counts[counts == 0] = -1  # nobody rated the item: no pattern (every rating adds ≥ 1)
    found = _patterns.from_codes(counts, r + 1, k)
    if not rows_too:
        return lo, k, found, None
    rows[rows == 0] = -1
    return lo, k, found, _patterns.from_codes(rows, k + 1, r)
