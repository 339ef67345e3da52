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
