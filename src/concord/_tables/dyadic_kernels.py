"""The one-pass numba kernel of :mod:`concord._tables.dyadic` (exact sums of floats).

This module imports numba at import time; :mod:`concord._tables.dyadic` imports
it lazily, under the load policy of :mod:`concord._tables.engines`.
"""

from __future__ import annotations

import numba
import numpy as np

_FRACTION = np.uint64((1 << 52) - 1)
_MAGNITUDE = np.uint64((1 << 63) - 1)
_IMPLICIT = np.int64(1 << 52)
_M26 = np.int64((1 << 26) - 1)
_M32 = np.uint64((1 << 32) - 1)


@numba.njit(nogil=True, cache=True, inline="always")
def _fields(u):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Return (m, E, sign) of a float's bits: value = sign · m · 2**(E − 1075)."""
    e = np.int64((u >> np.uint64(52)) & np.uint64(0x7FF))
    m = np.int64(u & _FRACTION)
    if e == 0:
        e = np.int64(1)  # a subnormal: no implicit bit, the smallest exponent
    else:
        m |= _IMPLICIT
    sign = np.int64(1) - np.int64(2) * np.int64(u >> np.uint64(63))
    return m, e, sign


@numba.njit(nogil=True, cache=True, inline="always")
def _fraction_bits(m, e):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Whether m · 2**(e − 1075) has bits below 2**0 (is not a whole number)."""
    shift = np.int64(1075) - e
    if shift <= 0 or m == 0:
        return False
    if shift >= 53:
        return True
    return (m & ((np.int64(1) << shift) - np.int64(1))) != 0


@numba.njit(nogil=True, cache=True, inline="always")
def _add_product(quad, r, negative, j, a, b):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Add the 106-bit a·b to the 128-bit bucket ``quad[r, negative, j]`` (low, high words)."""
    a0, a1 = a & _M32, a >> np.uint64(32)
    b0, b1 = b & _M32, b >> np.uint64(32)
    p00 = a0 * b0
    mid = a0 * b1 + a1 * b0
    lo = p00 + (mid << np.uint64(32))
    hi = a1 * b1 + (mid >> np.uint64(32)) + np.uint64(lo < p00)
    old = quad[r, negative, j, 0]
    new = old + lo
    quad[r, negative, j, 0] = new
    quad[r, negative, j, 1] += hi + np.uint64(new < old)


@numba.njit(nogil=True, cache=True)
def float_sums(ua, ub):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Bucket Σx, Σy (by E) and Σx², Σy², Σxy (by E_x + E_y) of floats given as uint64 bits.

    ``lin[r, 0, E]`` and ``lin[r, 1, E]`` sum rater r's mantissas' high (·2**26)
    and low 26 bits; ``quad[s, negative, E]`` sums the products of one sign
    as a 128-bit integer (low word, high word), for s = x², y², xy. Products
    are below 2**106, so 2**22 pairs cannot overflow a bucket. Also returns
    the smallest non-zero and the largest magnitude (as bits) and whether
    every value is a whole number.
    """
    lin = np.zeros((2, 2, 2048), np.int64)
    quad = np.zeros((3, 2, 4096, 2), np.uint64)
    low = np.uint64(0x7FF0000000000000)
    high = np.uint64(0)
    whole = True
    for i in range(ua.shape[0]):
        ux, uy = ua[i], ub[i]
        mx, ex, sx = _fields(ux)
        my, ey, sy = _fields(uy)
        for mag in (ux & _MAGNITUDE, uy & _MAGNITUDE):
            high = max(high, mag)
            if mag != 0:
                low = min(low, mag)
        if whole and (_fraction_bits(mx, ex) or _fraction_bits(my, ey)):
            whole = False
        lin[0, 0, ex] += sx * (mx >> 26)
        lin[0, 1, ex] += sx * (mx & _M26)
        lin[1, 0, ey] += sy * (my >> 26)
        lin[1, 1, ey] += sy * (my & _M26)
        ax, ay = np.uint64(mx), np.uint64(my)
        _add_product(quad, 0, 0, ex + ex, ax, ax)
        _add_product(quad, 1, 0, ey + ey, ay, ay)
        _add_product(quad, 2, np.int64(sx != sy), ex + ey, ax, ay)
    return lin, quad, low, high, whole


@numba.njit(nogil=True, cache=True)
def row_products(u):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Bucket each column's Σx (by E), Σx² and Σ_{j<k} x_j·x_k of a row block (uint64 bits).

    ``u`` is an (n, r) block of float bits, complete (no NaN). ``lin[j, 0/1, E]``
    sums column j's mantissas' high and low 26 bits; ``quad[0]`` the squares,
    ``quad[1]`` the products of two columns of one row, each a 128-bit bucket
    per sign and E_x + E_y (see :func:`float_sums`): Σ_i T_i² = Σx² + 2·Σ_{j<k}.
    The caller keeps r·n and n·r(r − 1)/2 products within 2**22 a call. Also
    returns the smallest non-zero magnitude (as bits).
    """
    n, r = u.shape
    lin = np.zeros((r, 2, 2048), np.int64)
    quad = np.zeros((2, 2, 4096, 2), np.uint64)
    ms = np.zeros(r, np.uint64)
    es = np.zeros(r, np.int64)
    ss = np.zeros(r, np.int64)
    low = np.uint64(0x7FF0000000000000)
    for i in range(n):
        for j in range(r):
            bits = u[i, j]
            m, e, sign = _fields(bits)
            mag = bits & _MAGNITUDE
            if mag != 0:
                low = min(low, mag)
            lin[j, 0, e] += sign * (m >> 26)
            lin[j, 1, e] += sign * (m & _M26)
            ms[j], es[j], ss[j] = np.uint64(m), e, sign
            _add_product(quad, 0, 0, e + e, ms[j], ms[j])
        for j in range(r):
            for k in range(j + 1, r):
                negative = np.int64(ss[j] != ss[k])
                _add_product(quad, 1, negative, es[j] + es[k], ms[j], ms[k])
    return lin, quad, low
