"""Bootstrap replicates drawn from a result's own small table.

Resampling n items with replacement is one multinomial draw over the
distinct rows of the table: the k×k cells of two raters, the item patterns
of many raters (:mod:`concord._tables.patterns`). So a replicate costs O(cells),
not O(n), and the raw ratings are never validated again. Weighted two-rater
data resample units: the distinct (cell, weight) pairs. Each sampler also
gives the jackknife (leave one item out) values that BCa intervals need.

Replicates are computed in floating point, vectorised over resamples.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from concord._inference.intervals import progress
from concord._tables.patterns import Patterns

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


def kappa_of_tables(tables: np.ndarray, weights: np.ndarray, pooled: bool) -> np.ndarray:
    """Cohen's (or Scott's) kappa of a stack of k×k tables under disagreement weights."""
    n = tables.sum(axis=(1, 2))
    observed = np.einsum("bij,ij->b", tables, weights)
    rows, cols = tables.sum(axis=2), tables.sum(axis=1)
    if pooled:
        s = rows + cols
        chance = np.einsum("bi,ij,bj->b", s, weights, s) / 4
    else:
        chance = np.einsum("bi,ij,bj->b", rows, weights, cols)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: np.ndarray = (chance - n * observed) / chance
    return out


class _Resampled:
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


@dataclass(frozen=True)
class TableSampler(_Resampled):
    """Two raters: resample the pairs (or, with sample weights, the weighted units)."""

    table: np.ndarray
    weights: np.ndarray  # disagreement
    pooled: bool = False
    unit_cells: np.ndarray | None = None  # with sample weights: distinct (cell, weight)
    unit_weights: np.ndarray | None = None
    unit_freq: np.ndarray | None = None

    def _units(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self.unit_cells is None:
            cells = np.flatnonzero(self.table)
            return cells, np.ones(cells.size), self.table.ravel()[cells].astype(np.float64)
        assert self.unit_weights is not None and self.unit_freq is not None
        return self.unit_cells, self.unit_weights, self.unit_freq.astype(np.float64)

    def _tables(self, counts: np.ndarray, cells: np.ndarray, weight: np.ndarray) -> np.ndarray:
        k = self.table.shape[0]
        flat = np.zeros((counts.shape[0], k * k))
        for cell in np.unique(cells):
            at = cells == cell
            flat[:, cell] = counts[:, at] @ weight[at]
        return flat.reshape(-1, k, k)

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        """Return κ for each row of counts per unit, shape (B, units)."""
        cells, weight, _ = self._units()
        return kappa_of_tables(self._tables(counts, cells, weight), self.weights, self.pooled)

    def frequencies(self) -> np.ndarray:
        return self._units()[2]


@dataclass(frozen=True)
class PatternSampler(_Resampled):
    """Many raters, chance from the pooled shares: percent agreement, Fleiss, Gwet, BP."""

    patterns: Patterns
    agreement: np.ndarray
    kind: str  # 'none', 'fleiss', 'gwet' or 'uniform'

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        """Return the coefficient for each row of item counts per pattern, shape (B, P)."""
        rows = self.patterns.rows.astype(np.float64)
        m = rows.sum(axis=1)
        star = rows @ self.agreement.T
        pair = m >= 2
        den = np.where(pair, m * (m - 1), 1.0)
        pa_item = np.where(pair, (rows * (star - 1)).sum(axis=1) / den, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            pa = (counts @ pa_item) / (counts @ pair)
            pi = (counts @ (rows / m[:, None])) / counts.sum(axis=1)[:, None]
            pe = self._chance(pi)
            out: np.ndarray = pa if self.kind == "none" else (pa - pe) / (1 - pe)
        return out

    def _chance(self, pi: np.ndarray) -> np.ndarray:
        q = self.agreement.shape[0]
        if self.kind == "fleiss":
            out: np.ndarray = np.einsum("bk,kl,bl->b", pi, self.agreement, pi)
        elif self.kind == "gwet":
            out = self.agreement.sum() / (q * (q - 1)) * (pi * (1 - pi)).sum(axis=1)
        else:
            out = np.full(pi.shape[0], self.agreement.sum() / (q * q))
        return out

    def frequencies(self) -> np.ndarray:
        return self.patterns.freq


@dataclass(frozen=True)
class CoincidenceSampler(_Resampled):
    """Krippendorff's alpha: each pairable item pattern adds (r rᵀ − diag r)/(m − 1)."""

    patterns: Patterns
    delta: np.ndarray  # δ² of the result; for the ordinal level recomputed per replicate
    level: str
    scores: np.ndarray | None = None

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        rows = self.patterns.rows.astype(np.float64)
        m = rows.sum(axis=1)
        pair = m >= 2
        q = rows.shape[1]
        each = (rows[:, :, None] * rows[:, None, :] - rows[:, :, None] * np.eye(q)) / np.where(
            pair, m - 1, 1.0
        )[:, None, None]
        each[~pair] = 0
        o = (counts @ each.reshape(-1, q * q)).reshape(-1, q, q)
        n_c = o.sum(axis=2)
        n = n_c.sum(axis=1)
        delta = self._delta(n_c)
        observed = np.einsum("bij,bij->b", o, delta) / n
        expected = np.einsum("bi,bij,bj->b", n_c, delta, n_c) / (n * (n - 1))
        with np.errstate(invalid="ignore", divide="ignore"):
            out: np.ndarray = 1 - observed / expected
        return out

    def _delta(self, n_c: np.ndarray) -> np.ndarray:
        if self.level != "ordinal":
            return np.broadcast_to(self.delta, (n_c.shape[0], *self.delta.shape))
        mid = np.cumsum(n_c, axis=1) - n_c / 2
        out: np.ndarray = (mid[:, :, None] - mid[:, None, :]) ** 2
        return out

    def frequencies(self) -> np.ndarray:
        return self.patterns.freq


@dataclass(frozen=True)
class RaterSampler(_Resampled):
    """Conger's and Light's kappas: patterns of who rated what (codes + 1, 0 = missing)."""

    raters: Patterns
    k: int
    weights: np.ndarray  # disagreement weights
    kind: str  # 'conger' or 'light'

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        return self._conger(counts) if self.kind == "conger" else self._light(counts)

    def _pair_tables(self, counts: np.ndarray, g: int, h: int) -> np.ndarray:
        codes = self.raters.rows
        both = (codes[:, g] > 0) & (codes[:, h] > 0)
        cells = (codes[:, g] - 1) * self.k + codes[:, h] - 1
        flat = np.zeros((counts.shape[0], self.k * self.k))
        for cell in np.unique(cells[both]):
            flat[:, cell] = counts[:, both & (cells == cell)].sum(axis=1)
        return flat.reshape(-1, self.k, self.k)

    def _light(self, counts: np.ndarray) -> np.ndarray:
        r = self.raters.rows.shape[1]
        pairs = [(g, h) for g in range(r) for h in range(g + 1, r)]
        kappas = [
            kappa_of_tables(self._pair_tables(counts, g, h), self.weights, False) for g, h in pairs
        ]
        out: np.ndarray = np.mean(kappas, axis=0)
        return out

    def _conger(self, counts: np.ndarray) -> np.ndarray:
        codes = self.raters.rows
        top = self.weights.max()
        agreement = 1 - self.weights / top if top > 0 else np.ones_like(self.weights)
        item_counts = np.stack([(codes == j + 1).sum(axis=1) for j in range(self.k)], axis=1)
        pa = PatternSampler(Patterns(item_counts, self.raters.freq), agreement, "none")
        by_rater = np.stack(
            [counts @ (codes == j + 1).astype(np.float64) for j in range(self.k)], axis=2
        )  # (B, r, k)
        keep = (codes > 0).any(axis=0)
        by_rater = by_rater[:, keep]
        r = by_rater.shape[1]
        with np.errstate(invalid="ignore", divide="ignore"):
            p = by_rater / by_rater.sum(axis=2, keepdims=True)
            mean = p.mean(axis=1)
            cross = np.einsum("bgk,bgl->bkl", p, p)
            s2 = (cross - r * mean[:, :, None] * mean[:, None, :]) / (r - 1)
            pe = np.einsum("kl,bkl->b", agreement, mean[:, :, None] * mean[:, None, :] - s2 / r)
            out: np.ndarray = (pa.statistic(counts) - pe) / (1 - pe)
        return out

    def frequencies(self) -> np.ndarray:
        return self.raters.freq


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
