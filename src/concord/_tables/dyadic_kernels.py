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
_M18 = np.int64((1 << 18) - 1)
_M26 = np.int64((1 << 26) - 1)


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
def _square(quad, r, j, a0, a1, a2):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Add (a0 + a1·2**18 + a2·2**36)² to ``quad[r, j]``, limb by limb."""
    quad[r, j, 0] += a0 * a0
    quad[r, j, 1] += 2 * a0 * a1
    quad[r, j, 2] += 2 * a0 * a2 + a1 * a1
    quad[r, j, 3] += 2 * a1 * a2
    quad[r, j, 4] += a2 * a2


@numba.njit(nogil=True, cache=True)
def float_sums(ua, ub):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Bucket Σx, Σy (by E) and Σx², Σy², Σxy (by E_x + E_y) of floats given as uint64 bits.

    ``lin[r, 0, E]`` and ``lin[r, 1, E]`` sum rater r's mantissas' high (·2**26)
    and low 26 bits; ``quad[s, E, k]`` sums the products of 18-bit limbs at
    2**(18k), for s = x², y², xy. Every term is below 2**38, so 2**24 pairs
    cannot overflow a bucket. Also returns the smallest non-zero and the
    largest magnitude (as bits) and whether every value is a whole number.
    """
    lin = np.zeros((2, 2, 2048), np.int64)
    quad = np.zeros((3, 4096, 5), np.int64)
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
        x0, x1, x2 = mx & _M18, (mx >> 18) & _M18, mx >> 36
        y0, y1, y2 = my & _M18, (my >> 18) & _M18, my >> 36
        _square(quad, 0, ex + ex, x0, x1, x2)
        _square(quad, 1, ey + ey, y0, y1, y2)
        s = sx * sy
        j = ex + ey
        quad[2, j, 0] += s * (x0 * y0)
        quad[2, j, 1] += s * (x0 * y1 + x1 * y0)
        quad[2, j, 2] += s * (x0 * y2 + x1 * y1 + x2 * y0)
        quad[2, j, 3] += s * (x1 * y2 + x2 * y1)
        quad[2, j, 4] += s * (x2 * y2)
    return lin, quad, low, high, whole
