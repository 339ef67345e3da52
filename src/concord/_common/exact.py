"""Exact integer arithmetic on small tables.

Every float is a dyadic rational m·2**e, so a float array equals an integer
array times one power of two. The statistics below are ratios in which that
power cancels, so they can be computed on integers and rounded once, at the
final division (Python's int / int is correctly rounded). The tables are
k×k, so this costs microseconds.
"""

from __future__ import annotations

import numpy as np

_SAFE = 1 << 62


def integers(x: np.ndarray) -> np.ndarray:
    """Return integers proportional to ``x`` by a power of two (int64, or object if large)."""
    if x.dtype.kind in "iub":
        return x.astype(np.int64)
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
