"""Every rater left out at once: the joint patterns and Krippendorff's α of each panel without one.

Leaving rater r out subtracts r's rating from each item's category counts:
the items that share a panel pattern and r's code share their row without r
(a joint pattern). :func:`joints` forms the joint patterns of every rater in
one count over (rater, panel pattern, code), in the order the per-rater
count gives them. :func:`alpha_left_out` then sums the item statistics
(:class:`~concord._tables.item_table.ItemStats`: per number of ratings, the
items, their category totals and Gram matrix) of every rater's panel in one
sorted reduction, exact in int64 where the bound proves it, and forms each α
from them exactly as :func:`concord.krippendorff_alpha` does; each result's
SE and bootstrap merge that rater's patterns on first use.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from concord._coefficients.krippendorff import krippendorff as kripp
from concord._common import exact as _exact
from concord._data.labels import Labels
from concord._tables.item_table import ItemStats

_CELLS = 1 << 21  # int64 cells of rows × q² per block of raters (16 MiB)


@dataclass(frozen=True)
class Joints:
    """The joint patterns of (panel pattern, left-out rater's code) of every rater.

    Rater r's joint patterns are ``starts[r]:starts[r + 1]``, in the order of
    :func:`~concord._studies.raters.diagnostics_panel.joint`; ``rows`` are the
    panel pattern's counts without the rater's rating, ``freq`` how many items
    share each, ``pattern`` the panel pattern, and ``items[i, r]`` item i's
    joint pattern without r (an index into the rows of all raters).
    """

    rows: np.ndarray
    freq: np.ndarray
    pattern: np.ndarray
    starts: np.ndarray
    items: np.ndarray

    def of(self, r: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Rater r's rows, frequencies, panel patterns and each item's row (0-based in r's)."""
        lo, hi = int(self.starts[r]), int(self.starts[r + 1])
        return self.rows[lo:hi], self.freq[lo:hi], self.pattern[lo:hi], self.items[:, r] - lo


def joints(panel_rows: np.ndarray, inverse: np.ndarray, codes: np.ndarray, k: int) -> Joints:
    """Return every rater's joint patterns: one count of (rater, panel pattern, code + 1).

    ``panel_rows`` are the panel's distinct count rows, ``inverse`` each
    item's, ``codes`` the items × raters label codes (−1: missing).
    """
    n, n_raters = codes.shape
    width = k + 1
    span = panel_rows.shape[0] * width
    keys = (inverse[:, None] * width + codes + 1) + np.arange(n_raters) * span
    if span <= 8 * n:  # a dense count: the keys' range is within a few times their number
        tally = np.bincount(keys.ravel(), minlength=n_raters * span)
        present = np.flatnonzero(tally)
        lookup = np.zeros(tally.shape[0], dtype=np.int64)
        lookup[present] = np.arange(present.size)
        index, freq = lookup[keys], tally[present]
    else:
        present, flat, freq = np.unique(keys, return_inverse=True, return_counts=True)
        index = flat.reshape(keys.shape)
    rater, local = np.divmod(present, span)
    pattern, code1 = np.divmod(local, width)
    rows = panel_rows[pattern].copy()
    rated = np.flatnonzero(code1)
    rows[rated, code1[rated] - 1] -= 1
    starts = np.searchsorted(rater, np.arange(n_raters + 1))
    return Joints(rows, freq.astype(np.int64), pattern, starts, index)


def left_out_stats(j: Joints) -> list[ItemStats] | None:
    """Return each rater's panel's :class:`ItemStats`, as :func:`item_stats` forms them.

    One sorted reduction over (rater, number of ratings) of the joint rows, a
    block of raters at a time; None when int64 could overflow (the caller then
    takes each rater's patterns).
    """
    m = j.rows.sum(axis=1)
    top = int(m.max(initial=0))
    if not _exact.fits_int64(int(j.freq[: j.starts[1]].sum()), top, top):
        return None
    q = j.rows.shape[1]
    n_raters = j.starts.shape[0] - 1
    out: list[ItemStats] = []
    per_block = max(1, _CELLS // max(1, int(np.diff(j.starts).max(initial=1)) * q * q))
    for lo in range(0, n_raters, per_block):
        hi = min(lo + per_block, n_raters)
        out.extend(_block_stats(j, lo, hi, m, top))
    return out


def _block_stats(j: Joints, lo: int, hi: int, m: np.ndarray, top: int) -> list[ItemStats]:
    """Return the :class:`ItemStats` of raters lo..hi − 1: items grouped by (rater, m ≥ 1)."""
    a, b = int(j.starts[lo]), int(j.starts[hi])
    rater = np.repeat(np.arange(lo, hi), np.diff(j.starts[lo : hi + 1]))
    keep = m[a:b] > 0
    rows, freq = j.rows[a:b][keep], j.freq[a:b][keep]
    key = rater[keep] * (top + 1) + m[a:b][keep]
    order = np.argsort(key, kind="stable")
    key, rows, freq = key[order], rows[order], freq[order]
    first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    weighted = rows * freq[:, None]
    items = np.add.reduceat(freq, first)
    totals = np.add.reduceat(weighted, first, axis=0)
    gram = np.add.reduceat(weighted[:, :, None] * rows[:, None, :], first, axis=0)
    owner, sizes = np.divmod(key[first], top + 1)
    bounds = np.searchsorted(owner, np.arange(lo, hi + 1))
    return [
        ItemStats(sizes[s:e], items[s:e], totals[s:e], gram[s:e])
        for s, e in itertools.pairwise(bounds)
    ]


def alpha_left_out(
    j: Joints, labels: Labels, opts: dict[str, Any]
) -> list[tuple[Any, np.ndarray]] | None:
    """Return α of the panel without each rater, and its δ², as the one-shot function has them.

    None where this path does not apply (label-set levels, int64 bounds): the
    caller takes the per-rater path.
    """
    level, population = opts["level"], opts["population_size"]
    if kripp.sets.is_set_level(level):
        return None
    stats = left_out_stats(j)
    if stats is None:
        return None
    func = kripp.ALPHA.name
    name, custom = kripp.resolve_level(level, labels, func)
    out = []
    for r, s in enumerate(stats):
        rows, freq, _, _ = j.of(r)
        rated = rows.sum(axis=1) > 0
        bound = (labels, rows[rated], freq[rated])
        inference = partial(kripp.rows_inference, func, name, bound)
        counted = (s, labels, None)
        out.append(kripp.alpha_of_stats(func, name, custom, counted, population, inference))
    return out
