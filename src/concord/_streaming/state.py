"""Count tables that grow and merge: the state of an accumulator.

An accumulator keeps the small table its coefficient is computed from, never
the ratings:

* two raters (:class:`PairCounts`): the k×k confusion table as its non-zero
  cells i·k + j with their counts; with sample weights, the distinct
  (cell, weight) units with their frequencies;
* many raters (:class:`ItemCounts`): the distinct item patterns with their
  frequencies (``Items.counts``) and, for Conger and Light, the rater
  patterns (``Items.raters``).

Merging is exact: both tables move to the merged labels, then equal cells or
patterns add their counts. The merged table lists its units in the order the
one-shot path gives them, so every floating-point sum over them (standard
errors, the bootstrap) is the one-shot result bit for bit. Optional Poisson
replicates (:class:`~concord._inference.resampling.PoissonReplicates`) hold one count
per unit and replicate, and move and add with the units.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from concord._common.errors import describe, param_error
from concord._data.labels import Labels, merged_labels
from concord._inference.resampling import PoissonReplicates
from concord._tables import patterns as patterns
from concord._tables.item_table import Items
from concord._tables.pair_table import PairTable, weighted_table

Draws = tuple[int, np.random.Generator]  # (replicates, generator) for Poisson replicates
Where = tuple[str, str]  # (function, parameter) that errors name


def _positions(old: Labels, new: Labels) -> np.ndarray:
    index = {v: i for i, v in enumerate(new.values)}
    return np.array([index[v] for v in old.values], dtype=np.int64)


def _draw(freq: np.ndarray, draws: Draws | None) -> PoissonReplicates | None:
    if draws is None:
        return None
    return PoissonReplicates.empty(draws[0], freq.shape).update(freq, draws[1])


def _check_total(a: int, b: int, where: Where) -> None:
    """Raise OverflowError, rather than wrap around, when a merged count would pass int64."""
    if a + b >= 2**63:
        param_error(
            *where,
            "a table whose count, added to this one's, stays below 2**63 pairs or items",
            f"{b:,} added to {a:,}",
            raw=True,
            exc=OverflowError,
            fix="The int64 tables cannot hold that many; the merge would wrap around.",
        )


def _added(
    inverse: np.ndarray, size: int, split: int, a: PoissonReplicates | None, b: Any
) -> PoissonReplicates | None:
    """Move both replicates to the merged units (``inverse``; a's come first) and add them."""
    if a is None or b is None:
        return None
    return a.moved(inverse[:split], size).merge(b.moved(inverse[split:], size))


@dataclass(frozen=True)
class PairCounts:
    """Two raters' table as units: cells i·k + j (and sample weights) with their counts."""

    labels: Labels
    declared: bool
    cells: np.ndarray  # (U,) int64, ascending (by cell, then weight)
    weights: np.ndarray | None  # (U,) the sample weight of each unit, or None
    freq: np.ndarray  # (U,) int64 > 0
    replicates: PoissonReplicates | None = None  # (B, U)

    @classmethod
    def of(cls, counted: PairTable, draws: Draws | None) -> PairCounts:
        """Return the state of one batch's table."""
        if counted.units is None:
            flat = counted.table.ravel()
            cells = np.flatnonzero(flat)
            weights, freq = None, flat[cells]
        else:
            cells, weights, freq = counted.units
        return cls(counted.labels, counted.declared, cells, weights, freq, _draw(freq, draws))

    @property
    def n(self) -> int:
        return int(self.freq.sum())

    def units(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """Return the weighted units as :class:`PairTable` holds them, or None."""
        return None if self.weights is None else (self.cells, self.weights, self.freq)

    def table(self) -> np.ndarray:
        """Return the k×k table: counts, or sums of sample weights."""
        k = self.labels.k
        units = self.units()
        if units is not None:
            return weighted_table(units, k)
        flat = np.zeros(k * k, dtype=np.int64)
        flat[self.cells] = self.freq
        return flat.reshape(k, k)

    def _cells_in(self, labels: Labels) -> np.ndarray:
        pos = _positions(self.labels, labels)
        rows, cols = np.divmod(self.cells, self.labels.k)
        out: np.ndarray = pos[rows] * labels.k + pos[cols]
        return out

    def merge(self, other: PairCounts, where: Where) -> PairCounts:
        """Return the table of both batches, on their merged labels."""
        if (self.weights is None) != (other.weights is None):
            param_error(
                *where,
                "weighted as the accumulator's batches"
                if self.weights is not None
                else "unweighted as the accumulator's batches",
                "with sample weights" if other.weights is not None else "without sample weights",
                raw=True,
                fix="Pass sample_weight with every batch, or with none.",
            )
        _check_total(self.n, other.n, where)
        labels = merged_labels(self.labels, self.declared, other.labels, other.declared, where)
        cells = np.concatenate([self._cells_in(labels), other._cells_in(labels)])
        freq = np.concatenate([self.freq, other.freq])
        if self.weights is None or other.weights is None:
            unique, inverse = np.unique(cells, return_inverse=True)
            weights = None
        else:  # the order of _tables._units: by cell, then weight
            stacked = np.column_stack(
                [cells.astype(np.float64), np.concatenate([self.weights, other.weights])]
            )
            rows, inverse = np.unique(stacked, axis=0, return_inverse=True)
            unique, weights = rows[:, 0].astype(np.int64), rows[:, 1]
        inverse = inverse.reshape(-1)
        total = np.zeros(unique.shape[0], dtype=np.int64)
        np.add.at(total, inverse, freq)
        reps = _added(inverse, unique.size, self.cells.size, self.replicates, other.replicates)
        return PairCounts(labels, self.declared or other.declared, unique, weights, total, reps)

    def same(self, other: PairCounts) -> bool:
        """Whether the two tables are equal (labels, units, counts and replicates)."""
        return (
            self.labels == other.labels
            and self.declared == other.declared
            and _equal(self.cells, other.cells)
            and _equal(self.weights, other.weights)
            and _equal(self.freq, other.freq)
            and _same_replicates(self.replicates, other.replicates)
        )


@dataclass(frozen=True)
class ItemCounts:
    """Many raters' items as patterns: category counts, and who rated what if kept."""

    labels: Labels
    declared: bool
    names: tuple[Any, ...] | None  # the raters; None for the count form
    counts: patterns.Patterns
    raters: patterns.Patterns | None = None
    replicates: PoissonReplicates | None = None  # of the rater patterns if kept, else counts

    @classmethod
    def of(cls, items: Items, draws: Draws | None) -> ItemCounts:
        """Return the state of one batch's items."""
        assert items.counts is not None
        sampled = items.raters if items.raters is not None else items.counts
        return cls(
            items.labels,
            items.declared,
            items.names,
            items.counts,
            items.raters,
            _draw(sampled.freq, draws),
        )

    @property
    def n(self) -> int:
        return self.counts.n

    def items(self) -> Items:
        """Return the :class:`Items` the one-shot path would build from the same ratings."""
        return Items(self.labels, self.counts, self.raters, self.names, declared=self.declared)

    def _moved(self, labels: Labels) -> tuple[np.ndarray, np.ndarray | None]:
        """Return the count rows and rater rows laid out on ``labels``."""
        pos = _positions(self.labels, labels)
        counts = np.zeros((self.counts.rows.shape[0], labels.k), dtype=np.int64)
        counts[:, pos] = self.counts.rows
        if self.raters is None:
            return counts, None
        remap = np.concatenate([[0], pos + 1])  # code + 1, 0 = missing
        return counts, remap[self.raters.rows]

    def on_raters(self, names: tuple[Any, ...]) -> ItemCounts:
        """Return the table with its raters laid out on ``names``, which hold them all.

        Long-form batches may bring raters not seen before: earlier items
        had them missing (code 0 in the rater patterns).
        """
        if self.names == names:
            return self
        if self.raters is None:
            return replace(self, names=names)
        assert self.names is not None
        at = [names.index(n) for n in self.names]
        rows = np.zeros((self.raters.rows.shape[0], len(names)), dtype=self.raters.rows.dtype)
        rows[:, at] = self.raters.rows
        return replace(self, names=names, raters=patterns.Patterns(rows, self.raters.freq))

    def merge(self, other: ItemCounts, where: Where) -> ItemCounts:
        """Return the patterns of both batches, on their merged labels."""
        if self.names != other.names:
            param_error(
                *where,
                f"ratings by the raters {describe(self.names)}" if self.names else "in count form",
                f"the raters {describe(other.names)}" if other.names else "the count form",
                raw=True,
                fix="Pass the same rater columns, in the same order, in every batch.",
            )
        _check_total(self.n, other.n, where)
        labels = merged_labels(self.labels, self.declared, other.labels, other.declared, where)
        (c1, r1), (c2, r2) = self._moved(labels), other._moved(labels)
        counts, c_inverse = patterns.merge(
            np.concatenate([c1, c2]), np.concatenate([self.counts.freq, other.counts.freq])
        )
        raters, inverse = None, c_inverse
        if r1 is not None and r2 is not None:
            assert self.raters is not None and other.raters is not None
            raters, inverse = patterns.merge(
                np.concatenate([r1, r2]), np.concatenate([self.raters.freq, other.raters.freq])
            )
        size = (counts if raters is None else raters).freq.size
        split = c1.shape[0] if r1 is None else r1.shape[0]
        reps = _added(inverse, size, split, self.replicates, other.replicates)
        declared = self.declared or other.declared
        return replace(
            self, labels=labels, declared=declared, counts=counts, raters=raters, replicates=reps
        )

    def same(self, other: ItemCounts) -> bool:
        """Whether the two tables are equal (labels, raters, patterns and replicates)."""
        return (
            self.labels == other.labels
            and self.declared == other.declared
            and self.names == other.names
            and _same_patterns(self.counts, other.counts)
            and _same_patterns(self.raters, other.raters)
            and _same_replicates(self.replicates, other.replicates)
        )


def _equal(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    if a is None or b is None:
        return a is b
    return bool(np.array_equal(a, b))


def _same_patterns(a: patterns.Patterns | None, b: patterns.Patterns | None) -> bool:
    if a is None or b is None:
        return a is b
    return _equal(a.rows, b.rows) and _equal(a.freq, b.freq)


def _same_replicates(a: PoissonReplicates | None, b: PoissonReplicates | None) -> bool:
    return a is b or (a is not None and b is not None and _equal(a.tables, b.tables))
