"""The item table of many raters: item patterns, rater patterns, and their statistics.

A leaf of the tables layer: :mod:`concord._tables.items` (host arrays) and
:mod:`concord._tables.items_device` (PyTorch, CuPy and JAX arrays) both
build an :class:`Items`.

Item i has r_ik ratings in category k and r_i = Σ_k r_ik in all. Every
multi-rater coefficient depends on the items only through, for each number
of ratings m: how many items have m ratings, their category totals Σ r_i
and their Gram matrix Σ r_i r_iᵀ (:class:`ItemStats`), all integers. The
coefficient cores (:mod:`concord._coefficients`) combine them exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from concord._common import exact as _exact
from concord._data.labels import Labels
from concord._data.matrix import RatingMatrix
from concord._tables import patterns as patterns
from concord._tables.patterns import Patterns

_FLOAT_EXACT = 2**53
_VECTOR_CELLS = 1 << 20  # patterns × q² up to this: every group's sums in one pass


@dataclass(frozen=True)
class ItemStats:
    """Sufficient statistics of an items × categories table, per number of ratings m.

    ``sizes[g]`` is a number of ratings m (ascending, ≥ 1); ``items[g]`` how
    many items have m ratings; ``totals[g]`` their category totals Σ r_i,
    shape (q,); ``gram[g]`` their Gram matrix Σ r_i r_iᵀ, shape (q, q).
    All integers.
    """

    sizes: np.ndarray
    items: np.ndarray
    totals: np.ndarray
    gram: np.ndarray

    @property
    def n_items(self) -> int:
        return int(self.items.sum())

    @property
    def category_totals(self) -> np.ndarray:
        out: np.ndarray = self.totals.sum(axis=0)
        return out

    def pairable(self) -> np.ndarray:
        """Mask of the groups with at least two ratings per item."""
        out: np.ndarray = self.sizes >= 2
        return out


def item_stats(patterns: Patterns) -> ItemStats:
    """Group the distinct count rows by their number of ratings and sum r_i and r_i r_iᵀ.

    The sums are int64 when they provably fit, else exact Python ints
    (object arrays): a Gram entry of items with 2**31 ratings each reaches
    2**62 per item, and int64 would wrap silently.
    """
    per_item = patterns.rows.sum(axis=1)
    keep = per_item > 0
    rows, freq, per_item = patterns.rows[keep], patterns.freq[keep], per_item[keep]
    sizes = np.unique(per_item)
    q = rows.shape[1]
    top = int(sizes[-1]) if sizes.size else 0
    dtype = np.int64 if _exact.fits_int64(int(freq.sum()), top, top) else object
    if dtype is np.int64 and rows.shape[0] * q * q <= _VECTOR_CELLS:
        return _grouped_stats(rows.astype(np.int64), freq.astype(np.int64), per_item, sizes)
    items = np.zeros(sizes.size, dtype=dtype)
    totals = np.zeros((sizes.size, q), dtype=dtype)
    gram = np.zeros((sizes.size, q, q), dtype=dtype)
    for g, m in enumerate(sizes):
        sel = per_item == m
        group, weight = rows[sel].astype(dtype), freq[sel].astype(dtype)
        items[g] = weight.sum()
        totals[g] = weight @ group
        if int(items[g]) * int(m) ** 2 < _FLOAT_EXACT:  # BLAS in float64 is exact here
            block = group.astype(np.float64)
            product = block.T @ (block * weight[:, None].astype(np.float64))
            gram[g] = np.rint(product).astype(np.int64)  # Python ints in an object array
        else:
            block = group.astype(object)
            gram[g] = block.T @ (block * weight[:, None].astype(object))
    return ItemStats(sizes, items, totals, gram)


def _grouped_stats(
    rows: np.ndarray, freq: np.ndarray, per_item: np.ndarray, sizes: np.ndarray
) -> ItemStats:
    """:func:`item_stats` in int64, every group at once (sorted by m, summed by reduceat).

    Each term f r_ik r_il is at most n · max(m)², which the caller bounds below 2**62.
    """
    order = np.argsort(per_item, kind="stable")
    starts = np.searchsorted(per_item[order], sizes)
    rows, freq = rows[order], freq[order]
    weighted = rows * freq[:, None]
    return ItemStats(
        sizes,
        np.add.reduceat(freq, starts),
        np.add.reduceat(weighted, starts, axis=0),
        np.add.reduceat(weighted[:, :, None] * rows[:, None, :], starts, axis=0),
    )


@dataclass(frozen=True)
class RaterCodes:
    """Who rated what, as the one-pass route keeps it: the rater patterns left to be formed.

    ``codes`` is the items × raters matrix of label codes + 1 (0 = missing),
    uint8; ``totals`` each rater's count per category (raters × categories).
    Forming the distinct rows sorts them, which costs more than the
    statistic itself with many raters, so they are formed only when a
    bootstrap asks (:meth:`patterns`), exactly as the eager route forms them:
    in mixed-radix order when ``narrow``, else as byte strings.
    """

    codes: np.ndarray
    totals: np.ndarray
    narrow: bool

    @cached_property
    def rows(self) -> np.ndarray:
        """The rows of the items someone rated."""
        out: np.ndarray = self.codes[self.codes.any(axis=1)]
        return out

    def patterns(self) -> Patterns:
        rows = self.rows
        if self.narrow:
            base = int(rows.max(initial=0)) + 1
            return patterns.from_codes(patterns.encode(rows, base), base, rows.shape[1])
        unique, freq = patterns._unique_bytes(rows)
        return Patterns(unique, freq)


@dataclass(frozen=True)
class Items:
    """What a multi-rater coefficient needs from the ratings.

    ``counts``: the distinct rows of the items × categories counts with their
    frequencies (None when not formed: continuous data with many values);
    ``raters``: the distinct rows of label codes + 1 (0 = missing), which
    keep which rater gave which rating (formed when asked for); the number of
    raters (None for the count form); the label-encoded ``matrix`` when the
    numpy path formed it; whether the labels were ``declared`` (``labels=``,
    ordered Categoricals, the count form) rather than found in the ratings;
    ``codes``, who rated what before the rater patterns are formed (``raters``
    is then None: read :meth:`rater_patterns`).
    """

    labels: Labels
    counts: patterns.Patterns | None
    raters: patterns.Patterns | None = None
    names: tuple[Any, ...] | None = None
    matrix: RatingMatrix | None = None
    declared: bool = False
    codes: RaterCodes | None = None

    @property
    def n_raters(self) -> int | None:
        return None if self.names is None else len(self.names)

    @cached_property
    def _formed(self) -> Patterns:
        assert self.codes is not None
        return self.codes.patterns()

    def rater_patterns(self) -> Patterns:
        """Return the distinct rows of codes + 1 and their frequencies (formed on first use)."""
        if self.raters is not None:
            return self.raters
        return self._formed

    def by_rater(self) -> np.ndarray:
        """Raters × categories counts, from the rater patterns."""
        if self.codes is not None:
            return self.codes.totals
        assert self.raters is not None
        k, rows, freq = self.labels.k, self.raters.rows, self.raters.freq
        r = rows.shape[1]
        cells = (rows + np.arange(r) * (k + 1)).ravel()  # one pass for every rater at once
        weights = None if (freq == 1).all() else np.repeat(freq, r)
        tally = np.bincount(cells, weights=weights, minlength=r * (k + 1))
        return tally.reshape(r, k + 1)[:, 1:].astype(np.int64)

    def pair_table(self, g: int, h: int) -> np.ndarray:
        """Return the k×k table of raters g and h over the items both rated."""
        raters = self.rater_patterns()
        k, rows, freq = self.labels.k, raters.rows, raters.freq
        both = (rows[:, g] > 0) & (rows[:, h] > 0)
        cells = (rows[both, g] - 1) * k + rows[both, h] - 1
        return (
            np.bincount(cells, weights=freq[both], minlength=k * k).astype(np.int64).reshape(k, k)
        )

    @cached_property
    def stats(self) -> ItemStats:
        """The counts' :class:`ItemStats`, formed once (a statistic and its SE share them)."""
        assert self.counts is not None
        return item_stats(self.counts)
