"""Exact sums over the rows of float blocks: Σx², per-row totals T_i, Σ T_i², T·M.

Every finite float64 is an integer times a power of two, so a block x is
2**low · X with X integers (``low`` the smallest exponent of the values'
last mantissa bits). X is held as base-2**LIMB digits in int64 arrays
(:class:`Digits`): y = x · 2**−low is an integer-valued float, exact, and
floor division of |y| by a power of two and the remainder are exact, so the
digits come from whole-array float operations; a negative value's digits are
its magnitude's, negated (a digit lies in (−2**LIMB, 2**LIMB)). A row total adds r digits per
position and carries, so it is digits again. A sum of products is then
Σ_{t,u} 2**(LIMB·(t+u)) Σ d_t d_u, each inner sum an int64 dot over at most
``_SPAN`` products below 2**(2·LIMB), exact in any order. Blocks whose
values span more bits than ``_MAX_DIGITS`` digits hold (a value near 1e300
beside one near 1e−300) are Python integers instead: slower, as exact.

The sums are Python integers on 2**low (linear) and 4**low (quadratic), equal
to summing ``fractions.Fraction`` values, on any CPU: no float is rounded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

LIMB = 21  # bits per digit: a product of two digits is below 2**42
_SPAN = 1 << 20  # products per int64 dot: 2**20 products below 2**42 stay below 2**62
_PER_INT = 3  # digits an int64 holds with its sign
_MASK = (1 << LIMB) - 1
_MAX_DIGITS = 8  # values spanning more bits than this many digits take Python integers


@dataclass(frozen=True)
class Digits:
    """X = Σ_t digits[t] · 2**(LIMB·t), the block x = 2**low · X (object: one Python-int array)."""

    low: int
    digits: tuple[np.ndarray, ...]

    @property
    def shape(self) -> tuple[int, ...]:
        return self.digits[0].shape

    def take(self, rows: Any) -> Digits:
        """Return the digits of some rows (a boolean mask or indices on the first axis)."""
        return Digits(self.low, tuple(d[rows] for d in self.digits))

    def row_totals(self) -> Digits:
        """T_i = Σ_j X_ij of a 2-D block, as digits (carried back below 2**LIMB)."""
        if self.digits[0].dtype == object:
            return Digits(self.low, (self.digits[0].sum(axis=1),))
        rows = []
        for d in self.digits:  # column by column: numpy's row reductions are slow
            total = d[:, 0].copy()
            for j in range(1, d.shape[1]):
                total += d[:, j]
            rows.append(total)
        return Digits(self.low, _carried(rows))

    def column_totals(self) -> list[int]:
        """Σ_i X_ij per column of a 2-D block, Python integers (on 2**low)."""
        return [
            _join([int(d[:, j].sum()) for d in self.digits]) for j in range(self.shape[1])
        ]  # column by column: numpy's axis-0 reduction of a narrow block is slow

    def total(self) -> int:
        """Σ X over every value, a Python integer (on 2**low)."""
        return _join([int(d.sum()) for d in self.digits])

    def square_total(self) -> int:
        """Σ X² over every value, a Python integer (on 4**low)."""
        return product_total(self, self)

    def times(self, m: np.ndarray) -> list[int]:
        """X @ m for a 1-D X of n values and an (n, r) 0/1 matrix m: r Python integers."""
        if self.digits[0].dtype == object:
            return [int(v) for v in self.digits[0] @ m.astype(object)]
        ones = m.astype(np.int64)
        parts = [_dot_rows(d, ones) for d in self.digits]
        return [_join([p[j] for p in parts]) for j in range(m.shape[1])]


def digits(x: np.ndarray) -> Digits:
    """Return the digits of a block of finite floats (any shape; zeros allowed)."""
    x = np.asarray(x, dtype=np.float64)
    magnitude = np.abs(x)
    top = float(magnitude.max(initial=0.0))
    if top == 0:
        return Digits(0, (np.zeros(x.shape, dtype=np.int64),))
    # frexp's exponent grows with the magnitude: the extremes' exponents bound every value's
    low = math.frexp(float(magnitude.min(where=magnitude > 0, initial=math.inf)))[1] - 53
    bits = math.frexp(top)[1] - low
    count = -(-bits // LIMB)
    if count > _MAX_DIGITS:
        mantissa, exponent = np.frexp(x)
        return Digits(low, (_python_ints(mantissa, exponent, low),))
    # integers below 2**(LIMB · count), exact: a product by a power of two that is a float
    y = magnitude * 2.0**-low if -low < 1024 else np.ldexp(magnitude, -low)
    out: list[np.ndarray] = []
    while len(out) < count:  # three digits per int64, split off the float by one floor
        if len(out) + _PER_INT >= count:
            whole = y.astype(np.int64)
        else:  # |y|'s low bits are fewer than its own: exact (y + 2**63 of a negative y is not)
            rest = np.floor(y * 2.0 ** -(LIMB * _PER_INT))
            whole = (y - rest * 2.0 ** (LIMB * _PER_INT)).astype(np.int64)
            y = rest
        for _ in range(min(_PER_INT, count - len(out))):
            out.append(whole & _MASK)
            whole >>= LIMB
    sign = 1 - 2 * np.signbit(x).astype(np.int64)  # the digits of −X are those of X negated
    for d in out:
        d *= sign
    return Digits(low, tuple(out))


def _python_ints(mantissa: np.ndarray, exponent: np.ndarray, low: int) -> np.ndarray:
    m = (mantissa * 2.0**53).astype(np.int64).ravel().tolist()
    e = (exponent.astype(np.int64) - 53 - low).ravel().tolist()
    out = np.array([mi << ei for mi, ei in zip(m, e, strict=True)], dtype=object)
    return out.reshape(mantissa.shape)


def _carried(rows: list[np.ndarray]) -> tuple[np.ndarray, ...]:
    """Carry digit sums back below 2**LIMB; the last digit takes the (small, signed) rest."""
    out = []
    carry: Any = 0
    for d in rows[:-1]:
        v = d + carry
        carry = v >> LIMB  # floor: the digit below is in [0, 2**LIMB)
        out.append(v & ((1 << LIMB) - 1))
    out.append(rows[-1] + carry)
    return tuple(out)


def _join(values: list[int]) -> int:
    return sum((v << (LIMB * t) for t, v in enumerate(values)), 0)


def _dot(a: np.ndarray, b: np.ndarray) -> int:
    """Σ a·b of int64 digit arrays (|a|, |b| below 2**LIMB · small), exact."""
    a, b = a.ravel(), b.ravel()
    return sum(
        (int(np.dot(a[s : s + _SPAN], b[s : s + _SPAN])) for s in range(0, a.shape[0], _SPAN)),
        0,
    )


def _dot_rows(d: np.ndarray, m: np.ndarray) -> list[int]:
    """Return d @ m (d 1-D int64 digits, m an (n, r) 0/1 int64 matrix), exact, as Python ints."""
    total = [0] * m.shape[1]
    for s in range(0, d.shape[0], _SPAN):
        part = d[s : s + _SPAN] @ m[s : s + _SPAN]
        total = [t + int(v) for t, v in zip(total, part.tolist(), strict=True)]
    return total


def product_total(a: Digits, b: Digits) -> int:
    """Σ X·Y over the values of two blocks of one shape (on 2**(a.low + b.low))."""
    if a.digits[0].dtype == object or b.digits[0].dtype == object:
        return int((_as_ints(a) * _as_ints(b)).sum())
    same = a is b
    total = 0
    for t, dt in enumerate(a.digits):
        for u, du in enumerate(b.digits):
            if same and u < t:
                continue
            v = _dot(dt, du)
            total += (v << 1 if same and u > t else v) << (LIMB * (t + u))
    return total


def _as_ints(a: Digits) -> np.ndarray:
    if a.digits[0].dtype == object:
        return a.digits[0]
    out = a.digits[-1].astype(object)
    for d in reversed(a.digits[:-1]):
        out = (out << LIMB) + d.astype(object)
    return out


def scaled(value: int, power: int) -> Any:
    """Return value · 2**power: a Python int for power ≥ 0, else a Fraction."""
    return value << power if power >= 0 else Fraction(value, 1 << -power)
