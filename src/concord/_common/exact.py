"""Exact integer arithmetic on small tables.

Every float is a dyadic rational m·2**e, so a float array equals an integer
array times one power of two. The statistics below are ratios in which that
power cancels, so they can be computed on integers and rounded once, at the
final division (Python's int / int is correctly rounded). The tables are
k×k, so this costs microseconds.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

_SAFE = 1 << 62


def integers(x: np.ndarray) -> np.ndarray:
    """Return integers proportional to ``x`` by a power of two (int64, or object if large)."""
    if x.dtype.kind in "iub":
        return x.astype(np.int64)
    if x.dtype == object and all(type(v) is int for v in x.flat):  # Python ints: as they are
        return x
    if np.all(x == np.round(x)) and np.abs(x).max(initial=0) < 2**53:
        return x.astype(np.int64)
    mantissa, exponent = np.frexp(x)
    m = (mantissa * 2.0**53).astype(np.int64)
    e = exponent.astype(np.int64) - 53
    base = int(e[m != 0].min()) if m.any() else 0
    out = np.array(
        [
            int(mi) << int(ei - base) if mi else 0
            for mi, ei in zip(m.ravel(), e.ravel(), strict=True)
        ],
        dtype=object,
    )
    return out.reshape(x.shape)


def dyadic(x: np.ndarray) -> tuple[list[int], int]:
    """Return Python integers n and a power p with x = n · 2**p exactly (finite floats).

    p is as large as it can be (the values' common trailing zero bits are dropped).

    >>> dyadic(np.array([0.5, 1.25, 3.0]))
    ([2, 5, 12], -2)
    """
    mantissa, exponent = np.frexp(np.asarray(x, dtype=np.float64).ravel())
    m = (mantissa * 2.0**53).astype(np.int64).tolist()
    e = (exponent.astype(np.int64) - 53).tolist()
    lows = [ei + (mi & -mi).bit_length() - 1 for mi, ei in zip(m, e, strict=True) if mi]
    p = min(lows) if lows else 0
    return [_shifted(mi, ei - p) for mi, ei in zip(m, e, strict=True)], p


def _shifted(m: int, s: int) -> int:
    """Return m · 2**s, exact (for s < 0, m has at least −s trailing zero bits)."""
    return m << s if s >= 0 else m >> -s  # exact division by a power of two: floor is exact


def to_float(v: Any) -> float:
    """float(v) of an int or Fraction, correctly rounded; ±inf beyond the float range.

    >>> from fractions import Fraction
    >>> to_float(Fraction(1, 3)) == 1 / 3, to_float(10**400), to_float(-Fraction(10**400, 3))
    (True, inf, -inf)
    """
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


def fsum(x: Any) -> float:
    """Return Σ x of a float array correctly rounded (``math.fsum``): the same on every CPU.

    numpy's reductions and BLAS dots add in an order that depends on the CPU's
    vector width, so their last bit may differ between machines; every sum
    behind a printed SE, interval or mean goes through here or :func:`fdot`.

    >>> fsum(np.array([1e16, 1.0, -1e16])), float(np.sum([1e16, 1.0, -1e16]))
    (1.0, 0.0)
    """
    x = np.asarray(x, dtype=np.float64).ravel()
    if _VECTOR <= x.size < _HALF_LIMIT and bool(np.isfinite(np.add.reduce(x))):
        return _integer_sum(x)
    return math.fsum(x.tolist())


_VECTOR = 1 << 12  # from this many values the sum is taken on integers in numpy
_HALF = 26  # each 53-bit mantissa is split in halves of at most 27 bits with sign
_HALF_LIMIT = 1 << 25  # below this many values every partial sum of halves is under 2**53


def _integer_sum(x: np.ndarray, counts: np.ndarray | None = None) -> float:
    """Σ x exactly (each x ``counts`` times), rounded once: mantissas summed by exponent.

    x = M·2**E with |M| < 2**53 whole; M = H·2**26 + L with 0 ≤ L < 2**26 and
    |H| ≤ 2**27 (floats holding integers: scaling by powers of two and floor are
    exact), so the per-exponent sums of H and of L (fewer than 2**25 terms, or
    counts adding up to fewer) are integers below 2**53, exact in floating
    point in any order; the few per-exponent totals are then added as Python
    ints and divided once.
    """
    mantissa, exponent = np.frexp(x)
    high = np.floor(mantissa * 2.0**27)  # M = H·2**26 + L, each step exact in floats
    rest = mantissa * 2.0**53 - high * 2.0**_HALF
    if counts is not None:  # |H|·count < 2**52 and L·count < 2**51: exact products
        high, rest = high * counts, rest * counts
    low = int(exponent.min())
    codes = exponent.astype(np.intp) - low
    highs = np.bincount(codes, weights=high).tolist()
    rests = np.bincount(codes, weights=rest).tolist()
    total = sum(
        ((int(h) << _HALF) + int(r)) << k
        for k, (h, r) in enumerate(zip(highs, rests, strict=True))
    )
    shift = low - 53
    return rounded(total, 1 << -shift) if shift < 0 else to_float(total << shift)


def fsum_counts(x: Any, counts: Any) -> float:
    """Return :func:`fsum` of ``x`` with each value repeated ``counts`` times, in O(len(x)).

    Both are Σ counts·x exact, rounded once (``counts``: non-negative
    integers); a sum over the distinct values of an array with their counts
    is, bit for bit, :func:`fsum` over the whole array.

    >>> x, counts = np.array([0.1, 1e16, -1e16]), np.array([3, 1, 1])
    >>> fsum_counts(x, counts) == fsum(np.repeat(x, counts)) == 0.30000000000000004
    True
    """
    x = np.asarray(x, dtype=np.float64).ravel()
    counts = np.asarray(counts, dtype=np.int64).ravel()
    keep = counts > 0
    x, counts = x[keep], counts[keep]
    if not math.isfinite(float(np.abs(x) @ counts.astype(np.float64))):
        return fsum(np.repeat(x, counts))  # nan, ±inf or beyond the float range: as fsum does
    if x.size == 0:
        return 0.0
    if int(counts.sum()) < _HALF_LIMIT:
        return _integer_sum(x, counts.astype(np.float64))
    ints, power = dyadic(x)  # x = ints · 2**power exactly
    total = sum(int(c) * m for c, m in zip(counts.tolist(), ints, strict=True))
    return rounded(total, 1 << -power) if power < 0 else to_float(total << power)


def fsums_by(x: np.ndarray, codes: np.ndarray, size: int) -> tuple[list[int], int]:
    """Return Σ x over the rows of each code 0..size−1, exactly: integers s and a power p.

    The sum of code g is s[g] · 2**p. As :func:`_integer_sum`, with the
    buckets keyed by (code, exponent); blocks of fewer than 2**25 rows keep
    each bucket below 2**53. ``x`` must be finite.

    >>> fsums_by(np.array([0.5, 1e16, 0.25, -1e16]), np.array([0, 1, 0, 1]), 3)
    ([3, 0, 0], -2)
    """
    x = np.asarray(x, dtype=np.float64).ravel()
    if x.size == 0:
        return [0] * size, 0
    mantissa, exponent = np.frexp(x)  # a zero: mantissa 0, exponent 0 (it adds nothing)
    low = int(exponent.min())
    span = int(exponent.max()) - low + 1
    keys = np.multiply(codes, span, dtype=np.intp)
    keys += exponent
    if low:
        keys -= low
    high = mantissa * 2.0**27  # M = H·2**26 + L, as in _integer_sum (every step exact)
    np.floor(high, out=high)
    rest = mantissa * 2.0**53
    rest -= np.multiply(high, 2.0**_HALF, out=mantissa)  # mantissa's buffer: H·2**26
    totals = [0] * size
    for start in range(0, x.size, _HALF_LIMIT - 1):
        block = slice(start, start + _HALF_LIMIT - 1)
        highs = np.bincount(keys[block], weights=high[block], minlength=size * span)
        rests = np.bincount(keys[block], weights=rest[block], minlength=size * span)
        for at in np.flatnonzero((highs != 0) | (rests != 0)).tolist():
            g, e = divmod(at, span)
            totals[g] += ((int(highs[at]) << _HALF) + int(rests[at])) << e
    out, power = _common_power(totals, low - 53)
    return out, power


def _common_power(values: list[int], power: int) -> tuple[list[int], int]:
    """Drop the trailing zero bits every value shares: (values / 2**t, power + t)."""
    shared = min(((v & -v).bit_length() - 1 for v in values if v), default=0)
    return [v >> shared for v in values], power + shared


def fdot(a: Any, b: Any) -> float:
    """Return Σ a·b: each product rounded (elementwise: the same everywhere), then :func:`fsum`."""
    return fsum(np.multiply(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)))


def fmean(x: Any) -> float:
    """Return the mean of a float array, :func:`fsum` over the count; nan when empty."""
    x = np.asarray(x, dtype=np.float64)
    return fsum(x) / x.size if x.size else math.nan


def fmatvec(a: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Return a @ v (a 2-D, v 1-D) with each entry an :func:`fdot`: the same on every CPU."""
    products = np.asarray(a, dtype=np.float64) * np.asarray(v, dtype=np.float64)[None, :]
    return np.array([math.fsum(row) for row in products.tolist()], dtype=np.float64)


def fits_int64(*bounds: int) -> bool:
    """Return True when the product of the non-negative ``bounds`` stays below 2**62."""
    product = 1
    for b in bounds:
        product *= max(int(b), 1)
    return product < _SAFE


def as_object(x: np.ndarray) -> np.ndarray:
    """Return ``x`` as an array of Python ints, for sums that could overflow int64."""
    return x.astype(object) if x.dtype != object else x


def ratio(num: int, den: int) -> float:
    """Return num/den rounded once; nan when den is 0."""
    return num / den if den else float("nan")


def rounded(num: int, den: int) -> float:
    """Return num/den rounded once, ±inf beyond the float range (IEEE overflow); den > 0.

    Python raises on an integer quotient too large for a float; rounding to
    infinity is what float arithmetic does, so a variance of ratings near
    1e200 reads ``inf`` while the coefficients, which are ratios, stay finite.

    >>> rounded(10**400, 3), rounded(-(10**400), 1), rounded(1, 3) == 1 / 3
    (inf, -inf, True)
    """
    try:
        return num / den
    except OverflowError:
        return math.inf if num > 0 else -math.inf


_ROOT_BITS = 64  # extra bits of an integer root: the float it gives is correctly rounded


def root_ratio(num: int, den: int, degree: int = 2) -> float:
    """Return (num/den)^(1/degree) for non-negative integers, degree 2 or 4, to the last bit.

    One integer root of the scaled ratio (the floor of a floor square root is
    the floor of the fourth root), so there is no intermediate float that
    could overflow or round twice; nan when den is 0, inf beyond the float range.

    >>> root_ratio(2, 1) == 2**0.5, root_ratio(16, 1, 4), root_ratio(10**1240, 1, 4)
    (True, 2.0, inf)
    """
    if den == 0 or num < 0:
        return math.nan
    e = degree * _ROOT_BITS + den.bit_length() - num.bit_length()
    e += -e % degree  # a multiple of the degree, so that the root's power of two is whole
    root = math.isqrt((num << e) // den if e >= 0 else num // (den << -e))
    if degree == 4:
        root = math.isqrt(root)
    try:
        return math.ldexp(float(root), -e // degree)
    except OverflowError:
        return math.inf


# Limbs of LIMB bits: a part times a count total below 2**(62 - LIMB - 2) stays in int64.
LIMB = 30
_MAX_LIMBS = 8  # weights whose exponents span more than ~240 bits take Python ints


def parts(x: np.ndarray) -> list[tuple[int, np.ndarray]] | None:
    """Split :func:`integers` of ``x`` into int64 parts: Σ part · 2**shift, same scale.

    Integer-valued ``x`` is one part. Otherwise ``x`` times 2**−e (e the
    smallest exponent of its mantissas' last bits) holds integers, exactly, as
    floats; their base-2**LIMB digits (floor division by a power of two and
    the remainder are exact in floating point) are the parts. Returns None
    when the exponents span more than a few parts (the caller uses Python ints).
    """
    if x.dtype == object:  # Python ints beyond int64: the caller's Python-int path
        return None
    if x.dtype.kind in "iub" or (np.all(x == np.round(x)) and np.abs(x).max(initial=0) < 2**53):
        return [(0, x.astype(np.int64))]
    if (x < 0).any():  # the digits below are those of non-negative numbers
        return None
    used = np.frexp(x)[1][x != 0]  # the exponents of the non-zero weights, gathered once
    low = int(used.min()) - 53
    count = -(-(int(used.max()) - low) // LIMB)
    if count > _MAX_LIMBS:
        return None
    y = np.ldexp(x, -low)  # integers below 2**(LIMB · count), exact
    out = []
    rest, low_digits = np.empty_like(y), np.empty_like(y)
    for t in range(count):
        # floor(y / 2**LIMB) and the remainder: exact in floating point, in two reused buffers
        np.multiply(y, 2.0**-LIMB, out=rest)
        np.floor(rest, out=rest)
        np.multiply(rest, 2.0**LIMB, out=low_digits)
        np.subtract(y, low_digits, out=low_digits)
        digit = low_digits.astype(np.int64)
        if digit.any():
            out.append((LIMB * t, digit))
        y, rest = rest, y  # y is ldexp's own array, never the caller's x
    return out


# parts() of an array, its largest value as their integer, and bound() of the parts
Split = tuple[list[tuple[int, np.ndarray]], int, int]


def split(x: np.ndarray) -> Split | None:
    """Return :func:`parts` of ``x`` with the two numbers every sum over them needs, or None."""
    pieces = parts(x)
    if pieces is None:
        return None
    at = int(np.argmax(x))
    top = sum((int(p.flat[at]) << s for s, p in pieces), 0)
    return pieces, top, bound(pieces)


def bound(split: list[tuple[int, np.ndarray]]) -> int:
    """Return the largest magnitude in any of the parts."""
    return max(int(np.abs(p).max(initial=0)) for _, p in split)


def weighted_total(
    split: list[tuple[int, np.ndarray]], counts: np.ndarray, top: int | None = None
) -> int:
    """Return Σ x · counts exactly, x given by :func:`parts`, ``counts`` non-negative integers.

    ``top`` is :func:`bound` of ``split``, when the caller has it.
    """
    total = int(counts.sum())
    if not fits_int64(bound(split) if top is None else top, total):
        return sum((int((as_object(p) * as_object(counts)).sum()) << s for s, p in split), 0)
    return sum((int(np.vdot(p, counts)) << s for s, p in split), 0)  # int64, no product array


def bilinear(
    u: np.ndarray, split: list[tuple[int, np.ndarray]], v: np.ndarray, top: int | None = None
) -> int:
    """Return u · x · v exactly for non-negative integer vectors u, v and x given by :func:`parts`.

    u · part stays in int64 (bounded by the part's bound times Σu); its final
    dot with v, k products, too when bound · Σu · Σv fits, else in Python
    ints. ``top`` is :func:`bound` of ``split``, when the caller has it.
    """
    top = bound(split) if top is None else top
    su = int(u.sum())
    if not fits_int64(top, su):
        return sum((int(as_object(u) @ as_object(p) @ as_object(v)) << s for s, p in split), 0)
    if fits_int64(top, su, int(v.sum())):
        return sum((int(u @ p @ v) << s for s, p in split), 0)
    column = as_object(v)
    return sum((int(as_object(u @ p) @ column) << s for s, p in split), 0)
