"""The best alignments of many continua at once, for γ (Mathet, Widlöcher & Métivier 2015, §3–5.1).

A *continuum* is one item's units: for each of ``n`` raters a list of (start,
end, label). A *unitary alignment* is an n-tuple taking at most one unit of
each rater (an empty slot where it takes none); an *alignment* is a set of
unitary alignments that holds every unit exactly once. With the combined
dissimilarity

    d(u, v) = alpha · ((|s_u − s_v| + |e_u − e_v|) / (len_u + len_v))² + beta · [l_u ≠ l_v]

and ``delta`` (= 1) for a pair with an empty slot, the disorder of a unitary
alignment is the mean over its C(n, 2) pairs, and the disorder of an alignment
is the sum of its unitary disorders divided by the mean number of units per
rater. The best alignment is the one of least disorder.

pygamma-agreement enumerates every n-tuple and solves a binary program with an
external MIP solver, one continuum at a time. Here the search is exact without
one, and a whole batch of continua (the items, or the random continua of the
chance model) is solved together:

* a unitary alignment T of k ≥ 2 units is *dominated* when, for a unit u of
  it, Σ over the others v of d(u, v) > (k − 1 + C(n, 2))·delta: taking u out as a
  unitary alignment of its own lowers the disorder, so no best alignment holds
  T. The undominated tuples are grown rater by rater, a partial tuple dropped
  as soon as one of its sums passes (n − 1 + C(n, 2))·delta;
* in time order, the units fall into *blocks* that no candidate crosses; each
  block is solved exactly by :mod:`.gamma_blocks`.

Of two alignments of equal disorder the one with fewer unitary alignments is
chosen: each unitary alignment costs 1e-9 more in the search (pygamma-agreement
leaves such ties to its solver; on its AlexPaulSuzan example this rule gives
its alignment).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from concord._coefficients.spans.gamma_blocks import TIE, solve_blocks

DELTA = 1.0
# the most (partial tuples × raters × units of a rater) the candidate search holds at once
_MAX_CELLS = 50_000_000


@dataclass(frozen=True)
class Batch:
    """Units of several continua, sorted by continuum, rater, start, end, label."""

    continuum: np.ndarray  # int: which continuum
    rater: np.ndarray  # int, 0..n_raters-1
    start: np.ndarray
    end: np.ndarray
    label: np.ndarray  # int codes
    n_raters: int
    n_continua: int

    @property
    def n_units(self) -> int:
        return int(self.rater.size)

    def units_per_continuum(self) -> np.ndarray:
        return np.bincount(self.continuum, minlength=self.n_continua)


def make_batch(
    continuum: np.ndarray,
    rater: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    label: np.ndarray,
    n_raters: int,
    n_continua: int,
) -> Batch:
    """Return the batch of these units: sorted, a rater's identical units kept once."""
    k = np.asarray(continuum, dtype=np.int64)
    r = np.asarray(rater, dtype=np.int64)
    s = np.asarray(start, dtype=np.float64)
    e = np.asarray(end, dtype=np.float64)
    lab = np.asarray(label, dtype=np.int64)
    order = np.lexsort((lab, e, s, r, k))
    k, r, s, e, lab = k[order], r[order], s[order], e[order], lab[order]
    if r.size > 1:
        same = (k[1:] == k[:-1]) & (r[1:] == r[:-1]) & (s[1:] == s[:-1])
        same &= (e[1:] == e[:-1]) & (lab[1:] == lab[:-1])
        keep = np.concatenate(([True], ~same))
        k, r, s, e, lab = k[keep], r[keep], s[keep], e[keep], lab[keep]
    return Batch(k, r, s, e, lab, n_raters, n_continua)


def pair_dissimilarity(
    b: Batch, u: np.ndarray, v: np.ndarray, alpha: float, beta: float
) -> np.ndarray:
    """Return d(u, v) of units ``u`` and ``v`` (broadcast index arrays)."""
    s, e = b.start, b.end
    pos = (np.abs(s[u] - s[v]) + np.abs(e[u] - e[v])) / ((e[u] - s[u]) + (e[v] - s[v]))
    return np.asarray(alpha * pos * pos + beta * (b.label[u] != b.label[v]), dtype=np.float64)


def _slots(b: Batch) -> np.ndarray:
    """Return idx[continuum, rater, i]: the rater's i-th unit there, -1 past the last."""
    group = b.continuum * b.n_raters + b.rater
    first = np.searchsorted(group, group)  # sorted: each unit's group starts here
    at = np.arange(b.n_units) - first
    width = int(at.max()) + 1 if b.n_units else 1
    idx = np.full((b.n_continua, b.n_raters, width), -1, dtype=np.int64)
    idx[b.continuum, b.rater, at] = np.arange(b.n_units)
    return idx


def candidates(b: Batch, alpha: float, beta: float) -> tuple[np.ndarray, np.ndarray]:
    """Return the undominated unitary alignments of 2+ units (rows, -1 empty) and costs."""
    n = b.n_raters
    pairs = n * (n - 1) / 2
    bound = (n - 1 + pairs) * DELTA
    idx = _slots(b)
    rows = np.zeros((b.n_continua, 0), dtype=np.int64)
    sums = np.zeros((b.n_continua, 0))
    owner = np.arange(b.n_continua)
    for r in range(n):
        _check_size(rows.shape[0] * max(r, 1) * idx.shape[2])
        rows, sums, owner = _extend(b, rows, sums, owner, idx[owner, r, :], bound, alpha, beta)
    k = (rows >= 0).sum(axis=1)
    keep = (k >= 2) & (np.where(rows >= 0, sums, 0.0).max(axis=1) <= (k - 1 + pairs) * DELTA)
    rows, sums, k = rows[keep], sums[keep], k[keep]
    costs = (sums.sum(axis=1) / 2 + (pairs - k * (k - 1) / 2) * DELTA) / pairs
    return rows, costs


def _extend(
    b: Batch, rows: np.ndarray, sums: np.ndarray, owner: np.ndarray, options: np.ndarray,
    bound: float, alpha: float, beta: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Give every partial tuple an empty slot, or each option whose sums stay within bound."""
    real = rows >= 0
    both = real[:, :, None] & (options >= 0)[:, None, :]
    extra = np.zeros(both.shape)
    extra[both] = pair_dissimilarity(
        b,
        np.broadcast_to(rows[:, :, None], both.shape)[both],
        np.broadcast_to(options[:, None, :], both.shape)[both],
        alpha,
        beta,
    )
    grown = sums[:, :, None] + extra
    total = extra.sum(axis=1)
    ok = (options >= 0) & (total <= bound) & ((grown <= bound) | ~real[:, :, None]).all(axis=1)
    i, j = np.nonzero(ok)
    empty = np.full((rows.shape[0], 1), -1)
    rows = np.vstack((np.hstack((rows, empty)), np.hstack((rows[i], options[i, j][:, None]))))
    zero = np.zeros((sums.shape[0], 1))
    sums = np.vstack((np.hstack((sums, zero)), np.hstack((grown[i, :, j], total[i, j][:, None]))))
    return rows, sums, np.concatenate((owner, owner[i]))


def _check_size(cells: int) -> None:
    """Refuse a search that would not fit in memory (pygamma-agreement refuses such too)."""
    if cells > _MAX_CELLS:
        from concord._common.errors import param_error

        param_error(
            "gamma", "spans",
            "items whose spans can be aligned in a tractable number of ways",
            f"{cells:,} partial unitary alignments to weigh",
            raw=True,
            fix="Raise alpha (the positional weight) or split long items into shorter ones.",
        )  # fmt: skip


def best_alignments(b: Batch, alpha: float, beta: float) -> tuple[np.ndarray, np.ndarray]:
    """Return the best alignment of every continuum: rows of unit indices (-1 empty), disorders.

    The rows of one continuum are together; ``b.continuum[row's first unit]`` says whose.
    """
    n, m = b.n_raters, b.n_units
    if m == 0:
        return np.zeros((0, n), dtype=np.int64), np.zeros(0)
    tuples, cost = candidates(b, alpha, beta)
    single = np.full((m, n), -1, dtype=np.int64)
    single[np.arange(m), b.rater] = np.arange(m)
    rows = np.vstack((single, tuples))
    costs = np.concatenate((np.full(m, DELTA), cost)) + TIE
    order = np.lexsort((b.end, b.start, b.continuum))
    at = np.empty(m, dtype=np.int64)
    at[order] = np.arange(m)
    chosen = rows[solve_blocks(np.where(rows >= 0, at[np.maximum(rows, 0)], -1), costs, m, n)]
    return chosen, unitary_disorders(b, chosen, alpha, beta)


def unitary_disorders(b: Batch, rows: np.ndarray, alpha: float, beta: float) -> np.ndarray:
    """Return the disorder of each unitary alignment (rows of unit indices, -1 empty)."""
    n = b.n_raters
    pairs = n * (n - 1) / 2
    total = np.zeros(rows.shape[0])
    for x in range(n):
        for y in range(x):
            both = (rows[:, x] >= 0) & (rows[:, y] >= 0)
            val = np.full(rows.shape[0], DELTA)
            val[both] = pair_dissimilarity(b, rows[both, x], rows[both, y], alpha, beta)
            total += val
    return total / pairs


def owner_of(b: Batch, rows: np.ndarray) -> np.ndarray:
    """Return the continuum of each unitary alignment."""
    return np.asarray(b.continuum[rows.max(axis=1)], dtype=np.int64)


def disorders(b: Batch, rows: np.ndarray, costs: np.ndarray) -> np.ndarray:
    """Return each continuum's disorder: Σ unitary disorders / mean units per rater."""
    total = np.bincount(owner_of(b, rows), costs, minlength=b.n_continua)
    units = b.units_per_continuum()
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(units > 0, total / (units / b.n_raters), 0.0)
