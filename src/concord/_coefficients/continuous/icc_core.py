"""The intraclass correlation's sufficient statistics, exact ANOVA and float twin.

Every sum of squares of the one-way and two-way layouts, complete or not
(:mod:`concord._results.continuous.icc_anova`), is a function of a few additive sums.
Write k_i for the number of ratings of item i, T_i for their sum, m_ij = 1
when rater j rated item i, S_j and n_j for rater j's sum and count:

* Σx², and per rater S_j;
* per value m of k_i: the number of items c_m, A_m = Σ T_i², the vector
  B_m = Σ T_i m_i and the matrix C_m = Σ m_i m_iᵀ (over items with k_i = m).

Then Σ T_i²/k_i = Σ A_m/m, n_j = Σ_m diag(C_m), and the two-way between-item
sum of squares with each rater's mean R_j = S_j/n_j moved to the grand mean
is Σ (T_i − m_i·R)²/k_i = Σ A_m/m − 2 R·Σ B_m/m + Rᵀ(Σ C_m/m)R. On integer
scores the sums are integers, on any other float scores exact fractions
(dyadic rationals, from the digits of :mod:`concord._tables.dyadic_rows`):
:class:`Sums` adds them exactly (an accumulator's merge is the one-shot
table), and :func:`anova` computes in fractions, rounding once.
:class:`ItemSampler` is the float twin for the bootstrap over items.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from concord._coefficients.continuous.icc_sums import block_sums, kernels
from concord._results.continuous.icc_anova import Anova, coefficient
from concord._tables.dyadic import row_sums
from concord._tables.dyadic_rows import digits, product_total, scaled

_CHUNK = 1 << 16  # rows per pass: temporaries stay O(chunk × raters)
_DIGIT_VALUES = 1 << 16  # values a chunk of digits: its temporaries stay in the caches
_FLOAT_ROWS = 1 << 10  # whole numbers whose float64 chunks would be shorter go to int64


class NoLabels(NamedTuple):
    """An accumulator's ``labels``: continuous ratings have no categories."""

    values: tuple[Any, ...] = ()
    k: int = 0


@dataclass(frozen=True)
class Sums:
    """The additive sums an ICC comes from (see the module); exact numbers.

    ``by_size`` maps k_i = m to (c_m, A_m, B_m, C_m); ``exact`` says whether
    every sum is exact: Python ints on integer scores, Fractions on others
    (:func:`sums_of` always counts exactly; float sums are the twin's).
    """

    names: tuple[Any, ...]
    square: Any
    rater_sums: np.ndarray  # (R,) object (Python ints) or float64
    by_size: dict[int, tuple[Any, Any, np.ndarray, np.ndarray]]
    exact: bool
    labels: NoLabels = field(default=NoLabels(), repr=False)
    replicates: None = None

    @property
    def n(self) -> int:
        """Items with at least one rating."""
        return int(sum(c for c, *_ in self.by_size.values()))

    def merge(self, other: Sums, where: tuple[str, str]) -> Sums:
        """Return the sums of both tables: exact on integer scores."""
        if self.names != other.names:
            from concord._common.errors import describe, param_error

            param_error(
                *where,
                f"ratings by the raters {describe(self.names)}",
                f"the raters {describe(other.names)}",
                raw=True,
                fix="Pass the same rater columns, in the same order, in every batch.",
            )
        by_size = dict(self.by_size)
        for m, parts in other.by_size.items():
            mine = by_size.get(m)
            by_size[m] = parts if mine is None else _added(mine, parts)
        return Sums(
            self.names,
            self.square + other.square,
            self.rater_sums + other.rater_sums,
            dict(sorted(by_size.items())),
            self.exact and other.exact,
        )

    def on_raters(self, names: tuple[Any, ...]) -> Sums:
        """Lay the sums out on ``names``, which hold all of these raters (long form)."""
        if names == self.names:
            return self
        at = [names.index(r) for r in self.names]
        size = len(names)
        sums = _zeros(size, self.exact)
        sums[at] = self.rater_sums
        by_size = {}
        for m, (c, a, b, cc) in self.by_size.items():
            b2, c2 = _zeros(size, self.exact), _zeros((size, size), self.exact)
            b2[at] = b
            c2[np.ix_(at, at)] = cc
            by_size[m] = (c, a, b2, c2)
        return Sums(names, self.square, sums, by_size, self.exact)

    def same(self, other: Sums) -> bool:
        """Whether the two tables are equal."""
        if self.names != other.names or self.by_size.keys() != other.by_size.keys():
            return False
        if self.square != other.square or not _equal(self.rater_sums, other.rater_sums):
            return False
        return all(
            all(
                _equal(np.asarray(x), np.asarray(y))
                for x, y in zip(p, other.by_size[m], strict=True)
            )
            for m, p in self.by_size.items()
        )


def _added(a: tuple[Any, ...], b: tuple[Any, ...]) -> Any:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _equal(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.array_equal(a, b))


def _zeros(shape: Any, exact: bool) -> np.ndarray:
    if exact:
        return np.full(shape, 0, dtype=object)
    return np.zeros(shape, dtype=np.float64)


def sums_of(x: np.ndarray, names: tuple[Any, ...], integral: bool) -> Sums:
    """Count an (items, raters) matrix (NaN missing) into :class:`Sums`, chunk by chunk.

    ``integral``: every rating is a whole number (float64 holds it exactly);
    the sums are then Python ints, computed in float64 or int64 on chunks
    small enough that every partial sum is exact (see :func:`_layout`).
    Other scores are summed exactly from their digits (:func:`_exact_chunk`).
    """
    total = Sums(names, 0, _zeros(x.shape[1], True), {}, True)
    if not integral:
        loaded = kernels(x.size) is not None  # the numba row kernel sums complete blocks
        rows = _CHUNK if loaded else max(1, _DIGIT_VALUES // max(1, x.shape[1]))
        for start in range(0, x.shape[0], rows):
            part = _exact_chunk(x[start : start + rows], names, loaded)
            total = total.merge(part, ("", ""))
        return total
    dtype, rows = _layout(x, integral)
    fast = kernels(x.size) if dtype is np.float64 else None  # integer sums are fast in numpy
    for start in range(0, x.shape[0], rows):
        part = _chunk(x[start : start + rows], names, integral, dtype, fast)
        total = total.merge(part, ("", ""))
    return total


def _layout(x: np.ndarray, integral: bool) -> tuple[Any, int]:
    """Return the dtype a chunk's sums are computed in, and the rows per chunk.

    Whole numbers: every sum of a chunk is at most rows · r · (r·top)² in
    absolute value, so under 2**53 they are exact in float64 (whatever the
    order: integral float scores need no integer copy), else under 2**62 in
    int64, else Python ints.
    """
    if not integral:
        return np.float64, _CHUNK
    top = 0
    if x.size:  # fmin and fmax skip NaN and need no |x| temporary
        lo, hi = np.fmin.reduce(x, axis=None), np.fmax.reduce(x, axis=None)
        top = 0 if np.isnan(hi) else max(-int(lo), int(hi), 0)
    bound = max(1, (x.shape[1] * top) ** 2 * x.shape[1])
    if x.dtype.kind == "f" and (1 << 53) // bound >= _FLOAT_ROWS:
        return np.float64, min(_CHUNK, (1 << 53) // bound)
    if bound < 1 << 62:
        return np.int64, min(_CHUNK, (1 << 62) // bound)
    return object, _CHUNK


def _chunk(
    x: np.ndarray, names: tuple[Any, ...], integral: bool, dtype: Any, fast: ModuleType | None
) -> Sums:
    # a NaN makes the total NaN: a total that is not NaN proves the block complete
    rated = None if x.dtype.kind != "f" or not np.isnan(x.sum()) else ~np.isnan(x)
    if rated is not None and rated.all():
        rated = None
    if rated is None:  # complete float scores are their own values: no copy
        values = x if x.dtype == dtype else _as(x, dtype)
    else:
        values = _as(np.where(rated, x, 0), dtype)
    # x.sum(axis=1), x.sum(axis=0), (x * x).sum(): numpy's floats, or exact in any order
    t, columns, square = block_sums(values, fast, ordered=not integral)
    square = _py(square, integral)
    rater_sums = _vec(columns, integral)
    r = x.shape[1]
    if rated is None:  # complete rows: every rater rated each item
        by_size = {r: _complete(t, r, integral)} if len(x) else {}
        return Sums(names, square, rater_sums, by_size, integral)
    by_size = {}
    k = rated.sum(axis=1)
    for m in np.unique(k).tolist():
        if m == 0:
            continue
        pick = k == m
        keep, tm = rated[pick], t[pick]
        if m == r:
            by_size[int(m)] = _complete(tm, r, integral)
            continue
        b, cc = tm @ keep.astype(dtype), keep.T.astype(np.int64) @ keep.astype(np.int64)
        a = _py((tm * tm).sum(), integral)
        by_size[int(m)] = (len(tm), a, _vec(b, integral), _vec(cc, True))
    return Sums(names, square, rater_sums, by_size, integral)


def _exact_chunk(x: np.ndarray, names: tuple[Any, ...], fast: bool = False) -> Sums:
    """Count a block of float scores (NaN missing) into exact sums: Fractions on 2**low.

    ``fast``: a complete block goes to the numba row kernel (the same integers).
    """
    rated = ~np.isnan(x)
    complete = bool(rated.all())
    found = row_sums(x) if fast and complete and x.shape[0] else None
    if found is not None:
        return _kernel_chunk(found, x.shape, names)
    d = digits(x if complete else np.where(rated, x, 0.0))
    low = d.low
    rater_sums = np.array([scaled(v, low) for v in d.column_totals()], dtype=object)
    t = d.row_totals()
    r = x.shape[1]
    by_size: dict[int, tuple[Any, Any, np.ndarray, np.ndarray]] = {}
    k = None if complete else rated.sum(axis=1)
    for m in [r] if k is None else np.unique(k).tolist():
        if m == 0 or not x.shape[0]:
            continue
        pick = None if k is None else k == m
        tm = t if pick is None else t.take(pick)
        a = scaled(product_total(tm, tm), 2 * low)
        if m == r:
            b = np.full(r, scaled(tm.total(), low), dtype=object)
            cc = _vec(np.full((r, r), tm.shape[0]), True)
        else:
            keep = rated[pick]
            b = np.array([scaled(v, low) for v in tm.times(keep)], dtype=object)
            cc = _vec(keep.T.astype(np.int64) @ keep.astype(np.int64), True)
        by_size[int(m)] = (tm.shape[0], a, b, cc)
    return Sums(names, scaled(d.square_total(), 2 * low), rater_sums, by_size, True)


def _kernel_chunk(
    found: tuple[int, list[int], int, int], shape: tuple[int, ...], names: tuple[Any, ...]
) -> Sums:
    """Return the Sums of a complete block from the row kernel's integers (the digits' ones)."""
    low, columns, square, a = found
    n, r = shape
    rater_sums = np.array([scaled(v, low) for v in columns], dtype=object)
    b = np.full(r, scaled(sum(columns), low), dtype=object)
    cc = _vec(np.full((r, r), n), True)
    by_size = {r: (n, scaled(a, 2 * low), b, cc)}
    return Sums(names, scaled(square, 2 * low), rater_sums, by_size, True)


def _as(x: np.ndarray, dtype: Any) -> np.ndarray:
    if dtype is object and x.dtype.kind == "f":  # Python ints: Python floats would round
        return x.astype(np.int64).astype(object)
    return x.astype(dtype)


def _complete(t: np.ndarray, r: int, integral: bool) -> tuple[Any, Any, np.ndarray, np.ndarray]:
    """(c, A, B, C) of items that every one of the r raters rated: B and C are constant."""
    b = _vec(np.full(r, t.sum()), integral)
    return len(t), _py((t * t).sum(), integral), b, _vec(np.full((r, r), len(t)), True)


def _py(v: Any, integral: bool) -> Any:
    return int(v) if integral else float(v)


def _vec(v: np.ndarray, integral: bool) -> np.ndarray:
    if integral:
        return np.array([int(a) for a in np.ravel(v)], dtype=object).reshape(np.shape(v))
    return np.asarray(v, dtype=np.float64)


def anova(sums: Sums) -> Anova:
    """Return the exact ANOVA of the sums (fractions on integer scores, else floats)."""
    one: Any = Fraction(1) if sums.exact else 1.0
    r = len(sums.names)
    n = big_n = k2 = 0
    a: Any = one * 0
    b, c = np.full(r, a, dtype=object), np.full((r, r), a, dtype=object)
    counts = np.zeros(r, dtype=np.int64)
    for m, (cm, am, bm, ccm) in sums.by_size.items():
        n, big_n, k2 = n + cm, big_n + m * cm, k2 + m * m * cm
        a = a + am * one / m
        b = b + bm * (one / m)
        c = c + ccm * (one / m)
        counts += np.diagonal(ccm).astype(np.int64)
    keep = counts > 0
    s = sums.rater_sums[keep] * one
    nj = counts[keep].astype(object)
    return build(
        n, big_n, k2, sums.square * one, s, nj, a, b[keep], c[np.ix_(keep, keep)], int(keep.sum())
    )


def build(
    n: Any,
    big_n: Any,
    k2: Any,
    square: Any,
    s: Any,
    nj: Any,
    a: Any,
    b: Any,
    c: Any,
    n_raters: Any,
) -> Anova:
    """Return the ANOVA from the sums; rater arrays on the last axis (batched floats in the twin).

    A rater with no rating (n_j = 0, only in a resample) must come with S_j = 0
    and n_j replaced by 1, so that its mean is 0 and adds nothing.
    """
    g = s.sum(axis=-1)
    mean_square = g * g / big_n  # T²/N
    means = s / nj
    quadratic = ((means[..., :, None] * c).sum(axis=-2) * means).sum(axis=-1)
    adjusted = a - 2 * (means * b).sum(axis=-1) + quadratic
    raters = (s * means).sum(axis=-1) - mean_square
    total = square - mean_square
    return Anova(
        n_items=n,
        n_raters=n_raters,
        n_ratings=big_n,
        k0=_k0(n, big_n, k2),
        ss_items=a - mean_square,
        ss_within=square - a,
        ss_items_adjusted=adjusted,
        ss_raters=raters,
        ss_error=total - raters - adjusted,
        ss_total=total,
    )


def _k0(n: Any, big_n: Any, k2: Any) -> Any:
    """Ebel's k₀ = (N − Σk_i²/N)/(n − 1): a Fraction from integer counts, else floats."""
    if isinstance(n, int) and isinstance(big_n, int):
        return Fraction(big_n * big_n - k2, big_n * (n - 1)) if n != 1 else math.nan
    return (big_n - k2 / big_n) / (n - 1) if np.all(n != 1) else math.nan


class ItemSampler:
    """The float twin: the ICC of one form on resampled items (bootstrap and jackknife).

    Each item's contribution to the sums is linear in how often it is drawn,
    so a replicate is ``counts @ features`` (items in chunks), then :func:`build`
    on the batch, then the form's formula. Holds the ratings matrix.
    """

    def __init__(self, x: np.ndarray, form: tuple[str, str, str]) -> None:
        self._ratings = x  # a reference: the copies below are made on the first resample
        self.form = form

    @functools.cached_property
    def _prepared(self) -> tuple[np.ndarray, np.ndarray]:
        rated = ~np.isnan(self._ratings)
        keep = rated.any(axis=1)
        return np.where(rated, self._ratings, 0.0)[keep], rated[keep].astype(np.float64)

    @property
    def x(self) -> np.ndarray:
        """The rated items' scores, 0 where missing."""
        return self._prepared[0]

    @property
    def rated(self) -> np.ndarray:
        """1.0 where the rated items have a rating, else 0.0."""
        return self._prepared[1]

    def _features(self, rows: slice) -> np.ndarray:
        x, m = self.x[rows], self.rated[rows]
        k = m.sum(axis=1)
        t = x.sum(axis=1)
        r = x.shape[1]
        pair = (m[:, :, None] * m[:, None, :]).reshape(-1, r * r) / k[:, None]
        head = np.column_stack([np.ones_like(k), k, k * k, (x * x).sum(axis=1), t * t / k])
        return np.hstack([head, x, m, m * (t / k)[:, None], pair])

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        """Return the ICC for each row of item counts, shape (B, n_items)."""
        total = 0
        for start in range(0, self.x.shape[0], _CHUNK):
            rows = slice(start, start + _CHUNK)
            total = total + counts[:, rows] @ self._features(rows)
        return self._finish(np.asarray(total))

    def _finish(self, f: np.ndarray) -> np.ndarray:
        r = self.x.shape[1]
        s, nj, b = f[:, 5 : 5 + r], f[:, 5 + r : 5 + 2 * r], f[:, 5 + 2 * r : 5 + 3 * r]
        c = f[:, 5 + 3 * r :].reshape(-1, r, r)
        with np.errstate(divide="ignore", invalid="ignore"):
            anova = build(
                f[:, 0],
                f[:, 1],
                f[:, 2],
                f[:, 3],
                s,
                np.where(nj > 0, nj, 1.0),
                f[:, 4],
                b,
                c,
                (nj > 0).sum(axis=1),
            )
            return np.asarray(coefficient(anova, *self.form), dtype=np.float64)

    def frequencies(self) -> np.ndarray:
        return np.ones(self.x.shape[0])

    def replicates(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        """Return the ICC on ``n_resamples`` multinomial redraws of the items."""
        from concord._inference.resampling import Resampled

        return Resampled.replicates(self, n_resamples, rng)  # type: ignore[arg-type]

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        """Leave-one-item-out values: the total sums less each item's own."""
        total = self.frequencies()[None, :] @ self._features(slice(None))
        out = [
            self._finish(total - self._features(slice(s, s + _CHUNK)))
            for s in range(0, self.x.shape[0], _CHUNK)
        ]
        return np.concatenate(out), self.frequencies()
