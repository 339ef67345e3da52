"""Bootstrap replicates drawn from a result's own small table.

Resampling n items with replacement is one multinomial draw over the
distinct rows of the table: the k×k cells of two raters, the item patterns
of many raters (:mod:`concord._tables.patterns`). So a replicate costs O(cells),
not O(n), and the raw ratings are never validated again. Weighted two-rater
data resample units: the distinct (cell, weight) pairs. Each sampler also
gives the jackknife (leave one item out) values that BCa intervals need.

Replicates are computed in floating point, vectorised over resamples. Each
coefficient's sampler, its float twin, lives beside its exact core in
:mod:`concord._coefficients`; here is what they share: the multinomial and
Poisson draws, the jackknife, and :class:`Resampled`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from concord._common.exact import fdot, fsum
from concord._inference.intervals import progress

_CHUNK = 1 << 22  # multinomial cells drawn at a time: bounds the memory of a batch


def _draws(freq: np.ndarray, n_resamples: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """Yield batches of multinomial(n, freq / n) draws, shape (batch, len(freq))."""
    n = int(freq.sum())
    probs = freq / n
    per = max(1, _CHUNK // max(1, freq.size))
    with progress(n_resamples, "bootstrap") as bar:
        for start in range(0, n_resamples, per):
            size = min(per, n_resamples - start)
            yield rng.multinomial(n, probs, size=size).astype(np.float64)
            if bar is not None:
                bar.update(size)


def _jackknife(
    statistic: Callable[[np.ndarray], np.ndarray], freq: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return the statistic with one item of each distinct row left out, and multiplicities."""
    freq = freq.astype(np.float64)
    per = max(1, _CHUNK // max(1, freq.size))
    out = []
    for start in range(0, freq.size, per):
        rows = np.arange(start, min(start + per, freq.size))
        counts = np.repeat(freq[None, :], rows.size, axis=0)
        counts[np.arange(rows.size), rows] -= 1
        out.append(statistic(counts))
    return np.concatenate(out), freq


class Resampled:
    """Bootstrap and jackknife of a sampler: its ``statistic`` on redrawn unit counts.

    A sampler gives ``statistic(counts)`` for rows of counts per unit and
    ``frequencies()``, the observed count of each unit (cell, weighted unit
    or pattern).
    """

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        raise NotImplementedError  # pragma: no cover

    def frequencies(self) -> np.ndarray:
        raise NotImplementedError  # pragma: no cover

    def replicates(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        """Return the statistic of ``n_resamples`` multinomial redraws of the units."""
        freq = self.frequencies()
        return np.concatenate([self.statistic(c) for c in _draws(freq, n_resamples, rng)])

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        """Return the leave-one-item-out statistics and how many items give each."""
        return _jackknife(self.statistic, self.frequencies())

    def observed(self) -> float:
        """Return the statistic of the observed counts: the float twin of the exact value."""
        return float(self.statistic(self.frequencies().astype(np.float64)[None, :])[0])


@dataclass(frozen=True)
class PoissonReplicates:
    """Poisson-bootstrap replicates of a count table, for data that arrive in batches.

    Each item gets an independent Poisson(1) weight in each replicate; the
    weights of the n_c items of a cell add up to a Poisson(n_c) draw, so one
    replicate of a batch's table is ``rng.poisson(table)``, O(cells). Two
    streams' replicates merge by adding their tables, which gives exactly the
    replicates of the combined data.
    """

    tables: np.ndarray  # (B, *table shape)

    @classmethod
    def empty(cls, n_resamples: int, shape: tuple[int, ...]) -> PoissonReplicates:
        return cls(np.zeros((n_resamples, *shape)))

    def update(self, table: np.ndarray, rng: np.random.Generator) -> PoissonReplicates:
        """Return the replicates with one more batch's count table added."""
        draws = rng.poisson(np.broadcast_to(table, self.tables.shape))
        return PoissonReplicates(self.tables + draws)

    def merge(self, other: PoissonReplicates) -> PoissonReplicates:
        """Return the replicates of the two streams together."""
        return PoissonReplicates(self.tables + other.tables)

    def moved(self, index: np.ndarray, size: int) -> PoissonReplicates:
        """Return the replicates of a 1-D table whose cell j moves to ``index[j]`` of ``size``.

        ``index`` must not send two cells to one place: merging two tables
        moves each into the merged layout, then adds them.
        """
        tables = np.zeros((self.tables.shape[0], size), dtype=self.tables.dtype)
        tables[:, index] = self.tables
        return PoissonReplicates(tables)


def joint_patterns(
    first: np.ndarray,
    second: np.ndarray,
    size: tuple[int, int],
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (first, second) unit pairs of paired items and how often each occurs.

    ``first`` and ``second`` give each item's unit on each side (−1: the item
    is not in that side's table, e.g. a rating omitted); ``size`` is how many
    units each side has. Returns the two sides' unit of each joint pattern
    and its frequency: the table a paired bootstrap redraws as one multinomial.
    With ``weights`` (positive counts), each row stands for that many items.
    The patterns come out sorted by (first, second), with or without weights.
    """
    width = size[1] + 1
    codes = (first.astype(np.int64) + 1) * width + (second.astype(np.int64) + 1)
    if weights is not None:  # a stream's table: integer counts, added exactly
        present, inverse = np.unique(codes, return_inverse=True)
        freq = np.zeros(present.size, dtype=np.int64)
        np.add.at(freq, inverse.reshape(-1), weights)
    elif (size[0] + 1) * width <= _CHUNK:
        freq = np.bincount(codes)
        present = np.flatnonzero(freq)
        freq = freq[present]
    else:
        present, freq = np.unique(codes, return_counts=True)
    return present // width - 1, present % width - 1, freq.astype(np.int64)


_ONTO = 64  # sides of at most this many units take their marginal as one product


def _marginal(counts: np.ndarray, index: np.ndarray, size: int) -> np.ndarray:
    """Sum the joint counts (B, J) onto one side's ``size`` units (index −1: dropped).

    The counts are whole numbers (draws, or the observed counts): their sums stay
    below 2**53, exact in any order, so a few units take one matrix product.
    """
    if size <= _ONTO and index.size * size <= _CHUNK // 16:
        onto = np.zeros((index.size, size))
        rows = np.flatnonzero(index >= 0)
        onto[rows, index[rows]] = 1.0
        product: np.ndarray = counts @ onto
        return product
    order = np.argsort(index, kind="stable")
    ordered = index[order]
    keep = ordered >= 0
    order, ordered = order[keep], ordered[keep]
    starts = np.searchsorted(ordered, np.arange(size))  # every unit holds an item
    out: np.ndarray = np.add.reduceat(counts[:, order], starts, axis=1)
    return out


@dataclass(frozen=True)
class PairedSampler(Resampled):
    """Paired bootstrap of a difference: the items are redrawn jointly, never side by side.

    Resampling n paired items is one multinomial draw over their joint
    patterns (which unit of each side's table an item falls in); each
    side's float twin evaluates the marginal of that draw, so a replicate
    costs O(joint patterns), not O(items). The statistic is second − first.
    """

    first: Resampled
    second: Resampled
    index: tuple[np.ndarray, np.ndarray]  # each joint pattern's unit on each side
    freq: np.ndarray

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        sides = []
        for sampler, index in zip((self.first, self.second), self.index, strict=True):
            size = sampler.frequencies().size
            sides.append(sampler.statistic(_marginal(counts, index, size)))
        out: np.ndarray = sides[1] - sides[0]
        return out

    def frequencies(self) -> np.ndarray:
        return self.freq


@dataclass(frozen=True)
class IndependentSampler:
    """Bootstrap of a difference of independent samples: each side redrawn on its own."""

    first: Resampled
    second: Resampled

    def replicates(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        first = self.first.replicates(n_resamples, rng)
        out: np.ndarray = self.second.replicates(n_resamples, rng) - first
        return out

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        """Both sides' leave-one-out values of the difference, each centred on its own mean.

        Centring each sample on its own jackknife mean makes the pooled
        acceleration Σ d³ / (6 (Σ d²)^1.5) the two-sample one (Efron &
        Tibshirani 1993, §14.3, with the (n − 1) factors of equal samples).
        """
        out, counts = [], []
        for sampler, sign in ((self.first, -1.0), (self.second, 1.0)):
            theta, count = sampler.jackknife()
            keep = np.isfinite(theta)
            mean = fdot(count[keep], theta[keep]) / fsum(count[keep])
            out.append(sign * (theta - mean))
            counts.append(count)
        return np.concatenate(out), np.concatenate(counts)
