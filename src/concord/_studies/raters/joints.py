"""The joint patterns of every rater left out: (panel pattern, the rater's code) and their items.

Leaving rater r out subtracts r's rating from each item's category counts:
the items that share a panel pattern and r's code share their row without r
(a joint pattern). :func:`joints` forms the joint patterns of every rater in
one count over (rater, panel pattern, code), in the order the per-rater
count gives them; where the items have few distinct rows of codes (three
raters and five categories: at most 216), it counts those rows once and
forms the joint patterns from them (:func:`code_rows`), with no per-item
index (an item's joint pattern is looked up when asked for, :meth:`Joints.item`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from concord._tables.patterns import radix_fits

_TALLY = 1 << 18  # the count's tally of (rater, panel pattern, code) per block of raters


@dataclass(frozen=True)
class Joints:
    """The joint patterns of (panel pattern, left-out rater's code) of every rater.

    Rater r's joint patterns are ``starts[r]:starts[r + 1]``, in the order of
    their keys (panel pattern, code + 1), as a count of r's alone gives them:
    ``pattern`` is the panel pattern (a row of ``panel``), ``code1`` the rater's code + 1
    (0: not rated), ``freq`` how many items share it; ``items[i, r]`` is item
    i's joint pattern without r (an index into every rater's), ``inverse[i]``
    its panel pattern.
    """

    panel: np.ndarray
    freq: np.ndarray
    pattern: np.ndarray
    code1: np.ndarray
    starts: np.ndarray
    items: np.ndarray | None  # None: found on demand from ``codes`` (:meth:`item`)
    inverse: np.ndarray  # each item's panel pattern
    grid: np.ndarray | None = None  # every (panel pattern, code + 1)'s row, when fewer
    codes: np.ndarray | None = None  # the label codes, where ``items`` is None
    code_rows: tuple[np.ndarray, np.ndarray] | None = None  # :func:`code_rows`, if counted

    def of(self, r: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return rater r's rows, frequencies and panel patterns.

        A row is the panel pattern's counts less r's rating.
        """
        lo, hi = int(self.starts[r]), int(self.starts[r + 1])
        pattern, code1 = self.pattern[lo:hi], self.code1[lo:hi]
        if self.grid is not None:
            rows: np.ndarray = self.grid[self.cells(r)]
        else:
            rows = self.panel[pattern]
            rated = np.flatnonzero(code1)
            rows[rated, code1[rated] - 1] -= 1
        return rows, self.freq[lo:hi], pattern

    def item(self, r: int) -> np.ndarray:
        """Return each item's joint pattern without rater r, an index into r's (:meth:`of`)."""
        lo, hi = int(self.starts[r]), int(self.starts[r + 1])
        if self.items is not None:
            out: np.ndarray = self.items[:, r] - lo
            return out
        assert self.codes is not None
        width = self.panel.shape[1] + 1
        keys = self.pattern[lo:hi] * width + self.code1[lo:hi]  # sorted: r's joint patterns
        out = np.searchsorted(keys, self.inverse * width + self.codes[:, r] + 1)
        return out

    def by_rater(self, k: int) -> np.ndarray:
        """Return each rater's count of ratings per category (raters × k), from the patterns."""
        n_raters = self.starts.shape[0] - 1
        rater = np.repeat(np.arange(n_raters), np.diff(self.starts))
        rated = self.code1 > 0
        cells = rater[rated] * k + self.code1[rated] - 1
        out = np.zeros(n_raters * k, dtype=np.int64)
        np.add.at(out, cells, self.freq[rated])
        return out.reshape(n_raters, k)

    def cells(self, r: int) -> np.ndarray:
        """Return rater r's joint patterns as rows of ``grid``."""
        lo, hi = int(self.starts[r]), int(self.starts[r + 1])
        out: np.ndarray = self.pattern[lo:hi] * (self.panel.shape[1] + 1) + self.code1[lo:hi]
        return out

    def rows(self) -> np.ndarray:
        """Every rater's rows, in order."""
        rows: np.ndarray = self.panel[self.pattern]
        rated = np.flatnonzero(self.code1)
        rows[rated, self.code1[rated] - 1] -= 1
        return rows


def joints(panel_rows: np.ndarray, inverse: np.ndarray, codes: np.ndarray, k: int) -> Joints:
    """Return every rater's joint patterns: one count of (rater, panel pattern, code + 1).

    ``panel_rows`` are the panel's distinct count rows, ``inverse`` each
    item's, ``codes`` the items × raters label codes (−1: missing). The
    count runs over a block of raters at a time, its tally kept small.
    """
    n, n_raters = codes.shape
    width = k + 1
    span = panel_rows.shape[0] * width
    rows = code_rows(codes, k) if radix_fits(n_raters + 1, k) else None
    if rows is not None:  # few rows of codes: the joint patterns are counted from them
        return _of_code_rows(panel_rows, inverse, codes, rows)
    per_block = max(1, _TALLY // span)
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    index = np.empty((n, n_raters), dtype=np.int64)
    done = 0
    for lo in range(0, n_raters, per_block):
        hi = min(lo + per_block, n_raters)
        keys = (inverse[:, None] * width + codes[:, lo:hi] + 1) + np.arange(hi - lo) * span
        present, at, freq = _counted(keys, (hi - lo) * span)
        index[:, lo:hi] = at + done
        done += present.size
        parts.append((present + lo * span, at, freq))
    present = np.concatenate([p[0] for p in parts])
    freq = np.concatenate([p[2] for p in parts])
    return _joints(panel_rows, inverse, present, freq, n_raters, index)


def _joints(
    panel_rows: np.ndarray,
    inverse: np.ndarray,
    present: np.ndarray,
    freq: np.ndarray,
    n_raters: int,
    index: np.ndarray | None,
    codes: np.ndarray | None = None,
    rows: tuple[np.ndarray, np.ndarray] | None = None,
) -> Joints:
    """Return the :class:`Joints` of the sorted keys (rater, panel pattern, code + 1) counted."""
    k = panel_rows.shape[1]
    width = k + 1
    span = panel_rows.shape[0] * width
    rater, local = np.divmod(present, span)
    pattern, code1 = np.divmod(local, width)
    starts = np.searchsorted(rater, np.arange(n_raters + 1))
    grid = None
    if span <= present.size:  # every rater's rows are rows of the (pattern, code) grid
        less = np.vstack([np.zeros((1, k), dtype=np.int64), np.eye(k, dtype=np.int64)])
        grid = (panel_rows[:, None, :] - less[None, :, :]).reshape(span, k)  # some unused
    freq = freq.astype(np.int64)
    return Joints(panel_rows, freq, pattern, code1, starts, index, inverse, grid, codes, rows)


def code_rows(codes: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Return the distinct rows of ``codes`` + 1 (each item's code + 1 per rater) and their counts.

    Counted with one bincount of each row's radix key; None where there are
    more possible rows than :data:`_TALLY` or than a few times the items.
    """
    n, n_raters = codes.shape
    width = k + 1
    if n_raters * np.log2(width) >= 40 or width**n_raters > min(_TALLY, 4 * n):
        return None
    keys = codes[:, 0] + 1
    for r in range(1, n_raters):
        keys = keys + (codes[:, r] + 1) * width**r
    tally = np.bincount(keys, minlength=width**n_raters)
    present = np.flatnonzero(tally)
    rows = np.empty((present.size, n_raters), dtype=np.int64)
    rest = present
    for r in range(n_raters):
        rest, rows[:, r] = np.divmod(rest, width)
    return rows, tally[present]


def _of_code_rows(
    panel_rows: np.ndarray,
    inverse: np.ndarray,
    codes: np.ndarray,
    rows: tuple[np.ndarray, np.ndarray],
) -> Joints:
    """Count the joint patterns over the distinct rows of codes: the same keys, as often.

    A row of codes fixes its items' panel pattern (their counts per category)
    and each rater's code, so each key (rater, panel pattern, code + 1) is
    counted once per row, weighted by the row's items.
    """
    code1, freq = rows
    k = panel_rows.shape[1]
    n_raters = code1.shape[1]
    counts = np.zeros((code1.shape[0], k + 1), dtype=np.int64)  # column 0: missing ratings
    for r in range(n_raters):
        counts[np.arange(code1.shape[0]), code1[:, r]] += 1
    base = n_raters + 1
    powers = base ** np.arange(k, dtype=np.int64)
    panel_keys = panel_rows @ powers
    order = np.argsort(panel_keys)
    at = np.searchsorted(panel_keys, counts[:, 1:] @ powers, sorter=order)
    pattern = order[at]  # each row of codes' panel pattern
    width = k + 1
    span = panel_rows.shape[0] * width
    keys = (np.arange(n_raters) * span + pattern[:, None] * width + code1).ravel()
    present, where = np.unique(keys, return_inverse=True)
    tally = np.zeros(present.size, dtype=np.int64)
    np.add.at(tally, where.reshape(-1), np.repeat(freq, n_raters))
    return _joints(panel_rows, inverse, present, tally, n_raters, None, codes, rows)


def _counted(keys: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the distinct keys (sorted), each key's index among them, and their counts."""
    if size <= 8 * keys.size:  # a dense count: the keys' range is within a few times their number
        tally = np.bincount(keys.ravel(), minlength=size)
        present = np.flatnonzero(tally)
        lookup = np.zeros(size, dtype=np.int64)
        lookup[present] = np.arange(present.size)
        return present, lookup[keys], tally[present]
    present, flat, freq = np.unique(keys, return_inverse=True, return_counts=True)
    return present, flat.reshape(keys.shape), freq
