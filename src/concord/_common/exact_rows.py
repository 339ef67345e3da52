"""Exact products of count rows with float weights, each result rounded once.

Gwet's linearised variances need, for every item pattern r_i (its counts
per category), the quadratic form r_iᵀ A r_i and the product r_i · v with
float agreement weights A and a float or integer vector v. A BLAS product
adds these in an order, with or without fused multiply-add, that OpenBLAS
picks per CPU, so its last bit may differ between machines. Here every
float is the dyadic rational it is (x = X · 2**e, X an integer), products
and sums are integers, and each result is rounded once (Python's int / int):
the same digits on every machine.

A pattern has at most m non-zero counts (its ratings), so the sums run over
the non-zero counts of each row only: O(P · m²) integer work for P patterns,
in int64 where the bounds allow (weights split in limbs of ``LIMB`` bits,
:func:`concord._common.exact.parts`) and in Python integers otherwise.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from concord._common.exact import LIMB, as_object, dyadic, fits_int64, parts, rounded

# an integer array X and a power e: the values are X · 2**e, exactly
Scaled = tuple[np.ndarray, int]


def _low(x: np.ndarray) -> int:
    """Return the power of two on which :func:`concord._common.exact.parts` writes ``x``."""
    if np.all(x == np.round(x)) and np.abs(x).max(initial=0) < 2**53:
        return 0
    return int(np.frexp(x)[1][x != 0].min()) - 53


_CACHED = 1 << 16  # weight matrices up to this many values keep their parts (read-only)


def limbs(x: np.ndarray) -> tuple[list[tuple[int, np.ndarray]], int]:
    """Return int64 parts of a float array (Σ part · 2**shift) and their power of two.

    x = 2**low · Σ part · 2**shift, exactly. Where ``parts`` cannot (negative
    values, exponents far apart) one part of Python integers. A small array's
    parts are kept (one weight matrix serves every call of a study, and many studies).
    """
    x = np.asarray(x, dtype=np.float64)
    if x.size <= _CACHED:
        return _limbs(x.tobytes(), x.shape)
    return _split(x)


@functools.lru_cache(maxsize=64)
def _limbs(data: bytes, shape: tuple[int, ...]) -> tuple[list[tuple[int, np.ndarray]], int]:
    pieces, power = _split(np.frombuffer(data, dtype=np.float64).reshape(shape))
    for _, part in pieces:
        part.flags.writeable = False
    return pieces, power


def _split(x: np.ndarray) -> tuple[list[tuple[int, np.ndarray]], int]:
    found = parts(x) if x.size else [(0, np.zeros(x.shape, dtype=np.int64))]
    if found is not None:
        return found, _low(x) if x.size else 0
    ints, power = dyadic(x)
    return [(0, np.array(ints, dtype=object).reshape(x.shape))], power


class Rows:
    """Count rows (P × q non-negative integers) by their non-zero entries.

    ``index[i, j]`` is the column of row i's j-th non-zero count and
    ``count[i, j]`` that count (0 where the row has fewer non-zero entries).
    """

    def __init__(self, rows: np.ndarray) -> None:
        rows = np.asarray(rows).astype(np.int64)
        item, column = np.nonzero(rows)  # row by row, columns ascending
        per_row = np.bincount(item, minlength=rows.shape[0])
        width = max(int(per_row.max(initial=0)), 1)
        at = np.arange(item.size) - (np.cumsum(per_row) - per_row)[item]
        self.index = np.zeros((rows.shape[0], width), dtype=np.int64)
        self.count = np.zeros((rows.shape[0], width), dtype=np.int64)
        self.index[item, at] = column
        self.count[item, at] = rows[item, column]
        self.top = int(rows.sum(axis=1).max(initial=0))  # the largest row total

    def forms(self, x: np.ndarray) -> Scaled:
        """Return r_iᵀ x r_i of every row exactly: integers Q and a power e, Q · 2**e."""
        pieces, power = limbs(x)
        count = self.count if fits_int64(self.top, self.top) else as_object(self.count)
        pair = count[:, :, None] * count[:, None, :]  # ≤ top²: int64 where that fits
        total: Any = 0
        for shift, part in pieces:
            gathered = part[self.index[:, :, None], self.index[:, None, :]]
            if part.dtype != object and fits_int64(int(np.abs(part).max(initial=0)), self.top**2):
                value: Any = (pair * gathered).sum(axis=(1, 2))
            else:
                value = (as_object(pair) * as_object(gathered)).sum(axis=(1, 2))
            total = total + (as_object(value) << shift if shift else value)
        return _array(total, self.count.shape[0]), power

    def dots(self, v: list[int]) -> np.ndarray:
        """Return r_i · v of every row exactly, for Python integers v (one per column)."""
        if all(0 <= x < 1 << LIMB for x in v) and fits_int64(1 << LIMB, self.top):
            column = np.array(v, dtype=np.int64)
            out: np.ndarray = (self.count * column[self.index]).sum(axis=1)
            return out
        if min(v, default=0) < 0 or not fits_int64(1 << LIMB, self.top):
            column = np.array(v, dtype=object)
            return _array((as_object(self.count) * column[self.index]).sum(axis=1), len(v))
        total: Any = 0
        mask, t = (1 << LIMB) - 1, 0
        while any(x >> (LIMB * t) for x in v):
            digit = np.array([(x >> (LIMB * t)) & mask for x in v], dtype=np.int64)
            value = (self.count * digit[self.index]).sum(axis=1)  # ≤ top · 2**LIMB: int64
            total = total + (as_object(value) << (LIMB * t))
            t += 1
        return _array(total, self.count.shape[0])


def _array(total: Any, size: int) -> np.ndarray:
    if isinstance(total, np.ndarray):
        return total
    return np.zeros(size, dtype=np.int64)  # no part: every value is 0


def quotients(numerators: np.ndarray, power: int, denominators: Any) -> np.ndarray:
    """Return numerator · 2**power / denominator of each entry, rounded once (floats).

    ``denominators`` are positive integers: one, or one per numerator.
    """
    fast = _quotients(numerators, power, denominators)
    if fast is not None:
        return fast
    nums = [int(v) for v in numerators.tolist()]
    dens = np.broadcast_to(np.asarray(denominators, dtype=object), (len(nums),)).tolist()
    if power >= 0:
        pairs = [(a << power, int(d)) for a, d in zip(nums, dens, strict=True)]
    else:
        scale = 1 << -power
        pairs = [(a, int(d) * scale) for a, d in zip(nums, dens, strict=True)]
    try:
        values = [a / d for a, d in pairs]  # Python's int / int: rounded once
    except OverflowError:  # beyond the float range: ±inf, as float arithmetic
        values = [rounded(a, d) for a, d in pairs]
    return np.array(values, dtype=np.float64)


def _quotients(numerators: np.ndarray, power: int, denominators: Any) -> np.ndarray | None:
    """Return :func:`quotients` in numpy where that is the same, else None.

    Integers below 2**53 are exact floats, their quotient is rounded once,
    and a power of two scales it exactly while the result stays normal.
    """
    dens = np.asarray(denominators)
    if numerators.dtype == object or dens.dtype == object or not -900 < power < 900:
        return None
    big = max(int(np.abs(numerators).max(initial=0)), int(np.abs(dens).max(initial=0)))
    if big >= 2**53:
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        out: np.ndarray = numerators.astype(np.float64) / dens.astype(np.float64)
    out = out * 2.0**power
    tiny = (out != 0) & (np.abs(out) < 2.0**-1000)
    return None if tiny.any() else out


def matvec(x: np.ndarray, v: list[int]) -> Scaled:
    """Return (x + xᵀ) v exactly, x a float q × q matrix and v Python integers."""
    pieces, power = limbs(x)
    out = [0] * len(v)
    for shift, part in pieces:
        both = (_product(part, v) + _product(part.T, v)).tolist()
        out = [a + (int(b) << shift) for a, b in zip(out, both, strict=True)]
    return np.array(out, dtype=object), power


def _product(part: np.ndarray, v: list[int]) -> np.ndarray:
    """Return part @ v exactly: int64 where every partial sum fits, else Python integers."""
    if (
        part.dtype != object
        and min(v, default=0) >= 0
        and fits_int64(int(np.abs(part).max(initial=0)), sum(v))
    ):
        out: np.ndarray = part @ np.array(v, dtype=np.int64)  # integer matmul: exact, no BLAS
        return out
    found: np.ndarray = as_object(part) @ np.array(v, dtype=object)
    return found


def quadratic(x: np.ndarray, v: list[int]) -> tuple[int, int]:
    """Return vᵀ x v exactly: an integer Q and a power e, Q · 2**e."""
    pieces, power = limbs(x)
    column = np.array(v, dtype=object)
    total = sum((int(column @ as_object(_product(p, v))) << s for s, p in pieces), 0)
    return total, power


def total(x: np.ndarray) -> tuple[int, int]:
    """Return Σ x exactly: an integer T and a power e, T · 2**e."""
    pieces, power = limbs(x)
    return sum((int(as_object(p).sum()) << s for s, p in pieces), 0), power


def form(x: np.ndarray, v: np.ndarray) -> float:
    """Return vᵀ x v of float arrays exactly, rounded once (the same on every CPU).

    The exact value of the floats themselves (not of 1/3 and 2/3), rounded once:

    >>> from fractions import Fraction
    >>> x, v = np.array([[1.0, 0.5], [0.5, 1.0]]), np.array([1 / 3, 2 / 3])
    >>> exact = sum(Fraction(x[i, j]) * Fraction(v[i]) * Fraction(v[j])
    ...             for i in range(2) for j in range(2))
    >>> form(x, v) == float(exact)
    True
    """
    ints, scale = dyadic(v)
    value, power = quadratic(x, ints)
    power += 2 * scale
    return rounded(value << power, 1) if power >= 0 else rounded(value, 1 << -power)


def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return a @ b of float matrices with each entry the exact dot product, rounded once.

    For small tables (raters × categories): Python integers, no BLAS.

    >>> from fractions import Fraction
    >>> a = np.array([[0.1, 0.2], [0.3, 0.4]])
    >>> matmul(a, a).tolist() == [[float(Fraction(a[i, 0]) * Fraction(a[0, j])
    ...     + Fraction(a[i, 1]) * Fraction(a[1, j])) for j in range(2)] for i in range(2)]
    True
    """
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        found: np.ndarray = a @ b  # nan or inf propagate: no digits to agree on
        return found
    ints_a, power_a = dyadic(a)
    ints_b, power_b = dyadic(b)
    x = np.array(ints_a, dtype=object).reshape(a.shape)
    y = np.array(ints_b, dtype=object).reshape(b.shape)
    product = np.asarray(x @ y, dtype=object)
    flat = quotients(product.ravel(), power_a + power_b, 1)
    out: np.ndarray = flat.reshape(product.shape)
    return out


def row_sums(x: np.ndarray) -> np.ndarray:
    """Return each row's exact sum of a 2-D float array, rounded once."""
    x = np.asarray(x, dtype=np.float64)
    if not np.isfinite(x).all():
        found: np.ndarray = x.sum(axis=1)
        return found
    ints, power = dyadic(x)
    totals = np.array(ints, dtype=object).reshape(x.shape).sum(axis=1)
    return quotients(np.asarray(totals, dtype=object), power, 1)


def matvec_floats(x: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Return x @ v (x 2-D, v 1-D, floats) with each entry exact, rounded once.

    In int64 limbs of x while each row's sum fits (non-negative x and v of
    moderate range: distances times counts), else Python integers.
    """
    x, v = np.asarray(x, dtype=np.float64), np.asarray(v, dtype=np.float64)
    finite = np.isfinite(x).all(axis=1)
    if not (finite.all() and np.isfinite(v).all()):
        found: np.ndarray = x @ v  # nan or inf propagate: no digits to agree on
        if np.isfinite(v).all() and finite.any():
            found[finite] = matvec_floats(x[finite], v)
        return found
    ints, scale = dyadic(v)
    return matvec_scaled(x, (np.array(ints, dtype=object), scale))


def matvec_scaled(x: np.ndarray, v: Scaled) -> np.ndarray:
    """Return x @ v for finite floats x and v = V · 2**e given as integers, exact, rounded once.

    For many blocks of x against one vector: the vector's integers are found once.
    """
    column, scale = v
    if column.dtype == object and all(0 <= int(c) < 1 << 62 for c in column.tolist()):
        column = column.astype(np.int64)
    small = column.dtype != object and bool((column >= 0).all())
    mass = 0
    if small:  # Σ column in int64 only where it cannot wrap
        top = int(column.max(initial=0))
        mass = int(column.sum()) if fits_int64(top, column.size) else sum(column.tolist())
    pieces, power = limbs(x)
    total: Any = 0
    for shift, part in pieces:
        bound = int(np.abs(part).max(initial=0)) if part.dtype != object else 1 << 62
        if small and fits_int64(bound, mass):
            value: Any = part @ column  # integer matmul: exact, no BLAS
        else:
            value = as_object(part) @ as_object(column)
        total = total + (as_object(value) << shift if shift else value)
    return quotients(_array(total, x.shape[0]), power + scale, 1)


def less(value: Scaled, whole: np.ndarray) -> Scaled:
    """Return Q · 2**e − w exactly, as integers on a power of two (``whole`` integers)."""
    forms, power = value
    sizes = np.asarray(whole).astype(np.int64)
    if power == 0 and forms.dtype != object:
        out: np.ndarray = forms - sizes  # both far below 2**62
        return out, 0
    if power > 0:
        return as_object(forms) * (1 << power) - sizes, 0
    return forms - as_object(sizes) * (1 << -power), power


def identity(x: np.ndarray) -> bool:
    """Return True when ``x`` is the identity matrix (unweighted agreement)."""
    x = np.asarray(x)
    return x.ndim == 2 and x.shape[0] == x.shape[1] and bool((x == np.eye(x.shape[0])).all())
