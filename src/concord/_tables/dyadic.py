"""Exact Σx, Σy, Σx², Σy², Σxy of float ratings, at numpy speed.

Every finite float64 is ±m · 2**(E − 1075), with m < 2**53 an integer and
E its biased exponent, both read from its bits (a subnormal has E = 0 and
no implicit bit, so it is taken as E = 1). Values with the same E add as
integers, and so do products whose exponents have the same E_x + E_y. So
each sum is kept in integer *buckets*, one per exponent (2,047 for Σx,
4,093 for a product), with the mantissas split into limbs small enough
that a bucket cannot overflow. Only the few non-zero buckets (real ratings
have few exponents) are combined, in Python integers, once per block of
pairs: the sums are exact, equal to summing ``fractions.Fraction`` values,
and no Python object is made per value (the former path, 34.8 s and
3.4 GiB at 10⁷ pairs).

Two engines give identical integers:

* a numba kernel (:mod:`concord._tables.dyadic_kernels`), one pass over the
  pairs: Σx in 26-bit limbs, each product m_x · m_y (106 bits, from 32-bit
  halves) added to a 128-bit bucket of two uint64 words, one bucket per
  exponent and sign, so 2**22 pairs cannot overflow it; one kernel per core
  on disjoint slices;
* numpy, in chunks of ``_CHUNK`` pairs: products of 18-bit limbs, counted
  by ``np.bincount`` with float64 weights, exact while a bucket stays below
  2**53 (a chunk adds 2**15 terms below 2**37), then added in int64.

The kernels load under the policy of :mod:`concord._tables.engines`, with a
float pair weighing ``_COST`` integer values (numpy's float path is that much
slower than its integer one).

The sums come back on the power of two the ratings' integers have always had
(:class:`~concord._tables.moments.Moments`): 2**0 when every value is a whole
number below 2**53, else the smallest ``frexp`` exponent minus 53.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from concord._tables import engines

_CHUNK = 1 << 15  # numpy: pairs a chunk; 2**15 terms below 2**37 stay below 2**53
_FLUSH = 1 << 9  # numpy: chunks between combinations; int64 buckets stay below 2**62
_KERNEL_BLOCK = 1 << 22  # numba: pairs between combinations; 2**22 products below 2**106
_COST = 64  # numpy's float path per pair, in its integer path's values
_BIAS = 1075  # value = m · 2**(E − _BIAS)
_WHOLE = 2**53

Sums = tuple[int, int, int, int, int]


def float_sums(x: np.ndarray, y: np.ndarray, engine: engines.Engine = "auto") -> tuple[Sums, int]:
    """Return (Σx, Σy, Σx², Σy², Σxy) / (2**exp, 2**exp, 4**exp, 4**exp, 4**exp) and exp.

    ``x`` and ``y`` are finite and of the same length (any real dtype: they are
    taken as float64, as numpy converts them).
    """
    a = np.ascontiguousarray(x, dtype=np.float64).view(np.uint64)
    b = np.ascontiguousarray(y, dtype=np.float64).view(np.uint64)
    n = a.shape[0]
    signature = engines._signature("float_sums", a, b)
    kernels = engines._engine(n * _COST, engine, 1, signature)
    total = [0, 0, 0, 0, 0]
    low, high, whole = math.inf, 0.0, True
    block = _KERNEL_BLOCK if kernels is not None else 1 << 30
    for s in range(0, n, block):
        if kernels is not None:
            engines._warm.add(signature)
            parts = engines._map_slices(_kernel().float_sums, a[s : s + block], b[s : s + block])
            low = min(low, *(_magnitude(p[2]) for p in parts))
            high = max(high, *(_magnitude(p[3]) for p in parts))
            whole = whole and all(p[4] for p in parts)
            sums = [sum(v) for v in zip(*(_combined(p[0], p[1]) for p in parts), strict=True)]
        else:
            sums, (lo, hi, wh) = _numpy_sums(a[s : s + block], b[s : s + block])
            low, high, whole = min(low, lo), max(high, hi), whole and wh
        total = [t + v for t, v in zip(total, sums, strict=True)]
    exp = 0 if whole and high < _WHOLE else (math.frexp(low)[1] - 53 if low < math.inf else 0)
    return _on_power(total, exp), exp


def _kernel() -> Any:
    from concord._tables import dyadic_kernels

    return dyadic_kernels


def _magnitude(bits: Any) -> float:
    return float(np.array([bits], dtype=np.uint64).view(np.float64)[0])


def _on_power(total: list[int], exp: int) -> Sums:
    """Move sums on 2**−1075 (linear) and 2**−2150 (products) to 2**exp and 4**exp."""

    def shift(v: int, s: int) -> int:
        return v << s if s >= 0 else v >> -s  # exact: the sums are multiples of 2**exp

    one, two = -_BIAS - exp, -2 * _BIAS - 2 * exp
    sx, sy, sxx, syy, sxy = total
    return shift(sx, one), shift(sy, one), shift(sxx, two), shift(syy, two), shift(sxy, two)


def _combined(lin: np.ndarray, quad: np.ndarray) -> list[int]:
    """Return the kernel's five sums as Python integers on 2**−1075 and 2**−2150.

    ``lin[r, j, E]``: rater r's bucket of its mantissas' high (j = 0, worth
    2**26) or low 26 bits; ``quad[s, negative, E, w]``: product s's 128-bit
    bucket (w = 0 the low word, 1 the high one) of products of one sign.
    """
    out = []
    for r in range(2):
        value = 0
        for e in np.flatnonzero(lin[r].any(axis=0)).tolist():
            value += ((int(lin[r, 0, e]) << 26) + int(lin[r, 1, e])) << e
        out.append(value)
    for s in range(3):
        value = 0
        for sign, negative in ((1, 0), (-1, 1)):
            words = quad[s, negative]
            for e in np.flatnonzero(words.any(axis=1)).tolist():
                value += sign * ((int(words[e, 0]) + (int(words[e, 1]) << 64)) << e)
        out.append(value)
    return out


def _fields(u: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return m, E and whether negative, for float64 bits u (value = ±m · 2**(E − 1075))."""
    e = ((u >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
    m = (u & np.uint64((1 << 52) - 1)).astype(np.int64)
    m |= (e != 0).astype(np.int64) << 52
    np.maximum(e, 1, out=e)
    return m, e, (u >> np.uint64(63)).astype(bool)


def _limbs(m: np.ndarray) -> list[np.ndarray]:
    """Split m < 2**53 into three 18-bit limbs (the top one 17 bits), as float64."""
    mask = (1 << 18) - 1
    return [((m >> 18 * k) & mask).astype(np.float64) for k in range(3)]


def _numpy_sums(a: np.ndarray, b: np.ndarray) -> tuple[list[int], tuple[float, float, bool]]:
    """Return the five sums (on 2**−1075, 2**−2150) and the magnitudes' range, in chunks."""
    total = [0, 0, 0, 0, 0]
    low, high, whole = math.inf, 0.0, True
    lin, quad = np.zeros((2, 2, 2048), np.int64), np.zeros((3, 5, 4096), np.int64)
    for i, s in enumerate(range(0, a.shape[0], _CHUNK)):
        ua, ub = a[s : s + _CHUNK], b[s : s + _CHUNK]
        for u in (ua, ub):
            v = np.abs(u.view(np.float64))
            high = max(high, float(v.max(initial=0.0)))
            low = min(low, float(v.min(where=v > 0, initial=math.inf)))
            whole = whole and bool(np.all(v == np.floor(v)))
        _add_chunk(ua, ub, lin, quad)
        if i % _FLUSH == _FLUSH - 1 or s + _CHUNK >= a.shape[0]:
            total = [t + v for t, v in zip(total, _numpy_combined(lin, quad), strict=True)]
            lin[...], quad[...] = 0, 0
    return total, (low, high, whole)


def _add_chunk(ua: np.ndarray, ub: np.ndarray, lin: np.ndarray, quad: np.ndarray) -> None:
    """Add a chunk's buckets: ``lin[r, j, E]`` (26-bit limbs), ``quad[s, k, E]`` (2**(18k))."""
    mx, ex, nx = _fields(ua)
    my, ey, ny = _fields(ub)
    for r, (m, e, neg) in enumerate(((mx, ex, nx), (my, ey, ny))):
        for j, w in enumerate(((m >> 26).astype(np.float64), (m & ((1 << 26) - 1)).astype(float))):
            lin[r, j] += _count(e, _signed(w, neg), 2048)
    (x0, x1, x2), (y0, y1, y2) = _limbs(mx), _limbs(my)
    for r, (a0, a1, a2), e in ((0, (x0, x1, x2), ex + ex), (1, (y0, y1, y2), ey + ey)):
        squares = (a0 * a0, 2 * a0 * a1, 2 * a0 * a2 + a1 * a1, 2 * a1 * a2, a2 * a2)
        for k, w in enumerate(squares):
            quad[r, k] += _count(e, w, 4096)
    products = (
        x0 * y0,
        x0 * y1 + x1 * y0,
        x0 * y2 + x1 * y1 + x2 * y0,
        x1 * y2 + x2 * y1,
        x2 * y2,
    )
    e, neg = ex + ey, nx ^ ny
    for k, w in enumerate(products):
        quad[2, k] += _count(e, _signed(w, neg), 4096)


def _count(e: np.ndarray, w: np.ndarray, size: int) -> np.ndarray:
    """Bucket sums of float weights, exact integers (each below 2**53), as int64."""
    return np.bincount(e, weights=w, minlength=size).astype(np.int64)


def _signed(w: np.ndarray, negative: np.ndarray) -> np.ndarray:
    np.negative(w, out=w, where=negative)
    return w


def _numpy_combined(lin: np.ndarray, quad: np.ndarray) -> list[int]:
    """Return the numpy buckets' five sums as Python integers on 2**−1075 and 2**−2150."""
    out = []
    for r in range(2):
        value = 0
        for e in np.flatnonzero(lin[r].any(axis=0)).tolist():
            value += ((int(lin[r, 0, e]) << 26) + int(lin[r, 1, e])) << e
        out.append(value)
    for s in range(3):
        value = 0
        for e in np.flatnonzero(quad[s].any(axis=0)).tolist():
            value += sum(int(v) << 18 * k for k, v in enumerate(quad[s, :, e].tolist())) << e
        out.append(value)
    return out


_ROW_LIMIT = 32  # raters a row: the row kernel does r(r + 1)/2 products a row


def row_sums(x: np.ndarray) -> tuple[int, list[int], int, int] | None:
    """Exact sums of a complete (n, r) float block by the numba row kernel (loaded), or None.

    Returns (low, [Σ_i X_ij per column], Σ X², Σ_i T_i²) with x = 2**low · X,
    ``low`` as :func:`concord._tables.dyadic_rows.digits` takes it (the
    smallest ``frexp`` exponent minus 53; 0 for an all-zero block), so the
    integers equal the digits' ones. None when a row holds more than
    ``_ROW_LIMIT`` raters. The caller loads the kernels first (the engines'
    policy).
    """
    n, r = x.shape
    if not 1 <= r <= _ROW_LIMIT:
        return None
    u = np.ascontiguousarray(x, dtype=np.float64).view(np.uint64)
    rows = max(1, _KERNEL_BLOCK // max(r, r * (r - 1) // 2))
    columns, square, cross, least = [0] * r, 0, 0, math.inf
    for s in range(0, n, rows):
        lin, quad, low = _kernel().row_products(u[s : s + rows])
        least = min(least, _magnitude(low))
        columns = [c + v for c, v in zip(columns, _linear(lin), strict=True)]
        square, cross = square + _quadratic(quad[0]), cross + _quadratic(quad[1])
    exp = math.frexp(least)[1] - 53 if least < math.inf else 0
    one, two = -_BIAS - exp, -2 * _BIAS - 2 * exp
    columns = [_shift(c, one) for c in columns]
    return exp, columns, _shift(square, two), _shift(square + 2 * cross, two)


def _shift(v: int, s: int) -> int:
    return v << s if s >= 0 else v >> -s  # exact: the sums are multiples of 2**exp


def _linear(lin: np.ndarray) -> list[int]:
    """Per column: Σ over E of (high · 2**26 + low) · 2**E (on 2**−1075)."""
    out = []
    for j in range(lin.shape[0]):
        value = 0
        for e in np.flatnonzero(lin[j].any(axis=0)).tolist():
            value += ((int(lin[j, 0, e]) << 26) + int(lin[j, 1, e])) << e
        out.append(value)
    return out


def _quadratic(words: np.ndarray) -> int:
    """Σ of 128-bit buckets ``words[negative, E, w]`` times 2**E (on 2**−2150)."""
    value = 0
    for sign, negative in ((1, 0), (-1, 1)):
        for e in np.flatnonzero(words[negative].any(axis=1)).tolist():
            value += sign * (
                (int(words[negative, e, 0]) + (int(words[negative, e, 1]) << 64)) << e
            )
    return value
