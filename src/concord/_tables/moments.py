"""Two continuous ratings as exact additive sums: n, Σx, Σy, Σx², Σy², Σxy.

Lin's concordance correlation and the Bland–Altman limits of agreement are
functions of these six sums (and of the distinct pairs, for the bootstrap).
Every float is a dyadic rational m·2**e, so the ratings of a batch equal
Python integers times one power of two, 2**``exp``: the sums are exact
integers, two batches' sums add exactly (after moving to the smaller power),
and a merge equals the one-shot sums bit for bit. Integer ratings keep
``exp = 0`` and take int64 arithmetic while it cannot overflow; float
ratings are summed by :mod:`concord._tables.dyadic` (integer buckets by
exponent, no Python integer per value).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from concord._common.errors import ForCli, param_error
from concord._common.exact import fits_int64
from concord._common.options import check_nan_policy
from concord._data.columns import Column, column, paired
from concord._tables.dyadic import float_sums


@dataclass(frozen=True)
class Moments:
    """The sums of two raters' paired ratings, exact: values are the integers times 2**exp.

    ``sx`` is Σx / 2**exp, ``sxx`` is Σx² / 4**exp, and so on; ``n`` counts the pairs.
    """

    n: int
    sx: int
    sy: int
    sxx: int
    syy: int
    sxy: int
    exp: int = 0

    def shifted(self, exp: int) -> Moments:
        """Return the same sums on the smaller power 2**exp (exp <= self.exp)."""
        s = self.exp - exp
        return Moments(
            self.n,
            self.sx << s,
            self.sy << s,
            self.sxx << 2 * s,
            self.syy << 2 * s,
            self.sxy << 2 * s,
            exp,
        )

    def merge(self, other: Moments) -> Moments:
        """Return the sums of both batches (exact integer addition)."""
        if self.n == 0:
            return other
        if other.n == 0:
            return self
        exp = min(self.exp, other.exp)
        a, b = self.shifted(exp), other.shifted(exp)
        return Moments(
            a.n + b.n, a.sx + b.sx, a.sy + b.sy, a.sxx + b.sxx, a.syy + b.syy, a.sxy + b.sxy, exp
        )


@dataclass(frozen=True)
class Paired:
    """Validated paired ratings (missing pairs dropped), their exact sums and distinct pairs."""

    x: np.ndarray
    y: np.ndarray
    sums: Moments


def _numeric(col: Column, func: str, name: str) -> np.ndarray:
    values = col.values if col.categories is None else col.decoded()
    if values.dtype.kind == "O":
        try:
            values = values.astype(np.float64)
        except (TypeError, ValueError):
            param_error(func, name, "numeric ratings", values, exc=TypeError)
    if values.dtype.kind not in "biuf":
        # the command line names the first rating, not numpy's dtype
        first = repr(values.ravel()[0].item()) if values.size else "none"
        said = ForCli(got=f"text such as {first}")
        param_error(func, name, "numeric ratings", values.dtype, exc=TypeError, cli=said)
    if values.dtype.kind == "b":
        values = values.astype(np.int64)
    return values


def _missing(col: Column, values: np.ndarray) -> np.ndarray:
    mask = np.zeros(values.shape, dtype=bool) if col.missing is None else col.missing.copy()
    if values.dtype.kind == "f":
        mask |= np.isnan(values)
    return mask


def paired_ratings(x: Any, y: Any, func: str, nan_policy: str = "raise") -> tuple[Any, Any]:
    """Validate two raters' numeric ratings: pair Series by index, drop or refuse missing ones."""
    check_nan_policy(nan_policy, func)
    x, y = paired(x, y, func, ("x", "y"))
    cx, cy = column(x, func, "x"), column(y, func, "y")
    vx, vy = _numeric(cx, func, "x"), _numeric(cy, func, "y")
    if vx.shape != vy.shape:
        param_error(
            func, "y", f"{vx.shape[0]:,} ratings, as many as x", f"{vy.shape[0]:,}", raw=True
        )
    missing = _missing(cx, vx) | _missing(cy, vy)
    if missing.any():
        if nan_policy == "raise":
            param_error(
                func,
                "x" if _missing(cx, vx).any() else "y",
                "no missing ratings",
                f"{int(missing.sum()):,} pairs with a missing rating",
                raw=True,
                fix="Pass nan_policy='omit' to drop them.",
                cli=ForCli(fix="Pass {nan_policy} omit to drop them."),
            )
        vx, vy = vx[~missing], vy[~missing]
    for name, v in (("x", vx), ("y", vy)):
        if v.dtype.kind == "f" and not np.isfinite(v).all():
            param_error(func, name, "finite ratings", "an infinite rating", raw=True)
    return vx, vy


def exact_sums(x: np.ndarray, y: np.ndarray) -> Moments:
    """Return the exact sums of the paired ratings x and y."""
    n = int(x.size)
    if n == 0:
        return Moments(0, 0, 0, 0, 0, 0)
    if x.dtype.kind not in "iu" or y.dtype.kind not in "iu":
        sums, exp = float_sums(x, y)
        return Moments(n, *sums, exp)
    top = max(int(np.abs(x).max()), int(np.abs(y).max()))
    if fits_int64(n, top, top):
        a, b = x.astype(np.int64), y.astype(np.int64)
        return Moments(n, int(a.sum()), int(b.sum()), int(a @ a), int(b @ b), int(a @ b))
    ai, bi = [int(v) for v in x], [int(v) for v in y]
    return Moments(
        n,
        sum(ai),
        sum(bi),
        sum(v * v for v in ai),
        sum(v * v for v in bi),
        sum(u * v for u, v in zip(ai, bi, strict=True)),
    )


def counted(x: Any, y: Any, func: str, nan_policy: str = "raise") -> Paired:
    """Validate two raters' ratings and return them with their exact sums."""
    vx, vy = paired_ratings(x, y, func, nan_policy)
    return Paired(vx, vy, exact_sums(vx, vy))


Pairs = tuple[np.ndarray, np.ndarray, np.ndarray]


def bootstrap_pairs(x: np.ndarray, y: np.ndarray) -> Pairs | Callable[[], Pairs]:
    """Return the distinct pairs now for integer ratings, or a function computing them.

    Integer ratings are counted on one key (milliseconds); float pairs take a
    sort of rows, 1.8 s at 10⁶ pairs, 30 times the exact sums: the one-shot
    functions defer it until a bootstrap asks (the result then keeps x and y).
    """
    if x.dtype.kind in "iu" and y.dtype.kind in "iu":
        return distinct_pairs(x, y)
    return partial(distinct_pairs, x, y)


def distinct_pairs(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the distinct (x, y) pairs, as floats, and how many times each occurs.

    Sorted by x, then y. Integer ratings of a range whose pairs fit one int64
    key are counted on that key (a bincount when the key range is small, else
    a 1-D sort), not by ``np.unique(axis=0)``'s sort of rows, 10× slower.
    """
    keyed = _keyed_pairs(x, y)
    if keyed is not None:
        return keyed
    pairs = np.stack([x.astype(np.float64), y.astype(np.float64)], axis=1)
    unique, freq = np.unique(pairs, axis=0, return_counts=True)
    return unique[:, 0], unique[:, 1], freq.astype(np.float64)


def _keyed_pairs(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    if x.size == 0 or x.dtype.kind not in "iu" or y.dtype.kind not in "iu":
        return None
    lo_x, lo_y = int(x.min()), int(y.min())
    width_x, width_y = int(x.max()) - lo_x + 1, int(y.max()) - lo_y + 1
    if width_x * width_y >= 1 << 62:
        return None
    key = (x.astype(np.int64) - lo_x) * width_y + (y.astype(np.int64) - lo_y)
    if width_x * width_y <= 1 << 24:
        counts = np.bincount(key, minlength=width_x * width_y)
        present = np.flatnonzero(counts)
        freq = counts[present]
    else:
        present, freq = np.unique(key, return_counts=True)
    return (
        (present // width_y + lo_x).astype(np.float64),
        (present % width_y + lo_y).astype(np.float64),
        freq.astype(np.float64),
    )
