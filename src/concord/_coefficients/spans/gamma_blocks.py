"""Exact set partitioning of time-ordered units into unitary alignments, block by block.

The input is the candidate unitary alignments (each row: the time positions of
its units, -1 for an empty slot; the singletons among them) and their costs.
Positions run over all units of a batch in time order. A *block* is a run of
positions that no candidate crosses; blocks are independent.

In a block the search covers the earliest uncovered unit next, so a state is
the set of units still uncovered and only the units just ahead of the earliest
one vary: a forward dynamic programme over these states, bucketed by their
earliest unit, finds the partition of least cost exactly. A block whose states
pass a limit goes to an assignment problem (two raters,
``scipy.optimize.linear_sum_assignment``) or a set-partitioning program
(``scipy.optimize.milp``, HiGHS).
"""

from __future__ import annotations

import numpy as np

from concord._common.extras import require

# added to each unitary alignment's cost: of equal disorders, the fewer unitary alignments
TIE = 1e-9
# masks of blocks of at most this many units are built with numpy, larger ones in Python
_MAX_BITS = 62
# a block whose search holds more states than this goes to scipy
_MAX_STATES = 100_000


def solve_blocks(pos: np.ndarray, costs: np.ndarray, m: int, n: int) -> np.ndarray:
    """Return the indices of the chosen candidates (rows of ``pos``, costs ``costs``)."""
    real = pos >= 0
    low = np.where(real, pos, m).min(axis=1)
    high = pos.max(axis=1)
    cover = np.zeros(m + 1, dtype=np.int64)
    np.add.at(cover, low, 1)
    np.add.at(cover, high, -1)
    open_ = np.cumsum(cover)[:m]
    block = np.concatenate(([0], np.cumsum(open_[:-1] == 0)))
    starts = np.flatnonzero(np.concatenate(([True], block[1:] != block[:-1])))
    sizes = np.diff(np.append(starts, m))
    mine = block[low]
    lone = sizes[mine] == 1
    chosen = [np.flatnonzero(lone)]
    rest = np.flatnonzero(~lone)
    rest = rest[np.argsort(mine[rest], kind="stable")]
    if rest.size == 0:
        return chosen[0]
    blocks_of = mine[rest]
    cuts = np.flatnonzero(np.diff(blocks_of)) + 1
    rel = np.where(real[rest], pos[rest] - starts[blocks_of][:, None], -1)
    masks = _masks(rel, sizes[blocks_of] <= _MAX_BITS)
    cost_list = costs[rest].tolist()
    for lo, hi in zip(np.concatenate(([0], cuts)), np.append(cuts, rest.size), strict=True):
        size = int(sizes[blocks_of[lo]])
        picked = _search(masks[lo:hi], cost_list[lo:hi], size)
        if picked is None:
            picked = _fallback(rel[lo:hi], costs[rest[lo:hi]], size, n)
        chosen.append(rest[lo + np.asarray(picked, dtype=np.int64)])
    return np.concatenate(chosen)


def _masks(rel: np.ndarray, small: np.ndarray) -> list[int]:
    """Return each candidate's units as bits of an int (numpy for blocks of ≤ 62 units)."""
    bits = np.zeros(rel.shape[0], dtype=np.int64)
    for slot in range(rel.shape[1]):
        on = (rel[:, slot] >= 0) & small
        bits[on] |= np.left_shift(np.int64(1), rel[on, slot])
    masks: list[int] = bits.tolist()
    for j in np.flatnonzero(~small).tolist():
        masks[j] = sum(1 << p for p in rel[j].tolist() if p >= 0)
    return masks


def _search(masks: list[int], costs: list[float], size: int) -> list[int] | None:
    """Return the chosen candidates of one block, or None when the states pass the limit."""
    by_low: list[list[int]] = [[] for _ in range(size)]
    for j, mk in enumerate(masks):
        by_low[(mk & -mk).bit_length() - 1].append(j)
    full = (1 << size) - 1
    best: dict[int, tuple[float, int, int]] = {full: (0.0, -1, -1)}
    buckets: list[list[int]] = [[] for _ in range(size)]
    buckets[0].append(full)
    for t in range(size):
        for state in buckets[t]:
            _relax(state, by_low[t], masks, costs, best, buckets)
        if len(best) > _MAX_STATES:
            return None
    out, state = [], 0
    while state != full:
        _, j, state = best[state]
        out.append(j)
    return out


def _relax(
    state: int,
    options: list[int],
    masks: list[int],
    costs: list[float],
    best: dict[int, tuple[float, int, int]],
    buckets: list[list[int]],
) -> None:
    """Extend ``state`` by each candidate that covers its earliest unit."""
    here = best[state][0]
    for j in options:
        mk = masks[j]
        if mk & ~state:
            continue
        after = state & ~mk
        total = here + costs[j]
        old = best.get(after)
        if old is None:
            if after:
                buckets[(after & -after).bit_length() - 1].append(after)
            best[after] = (total, j, state)
        elif total < old[0]:
            best[after] = (total, j, state)


def _fallback(rel: np.ndarray, costs: np.ndarray, size: int, n: int) -> list[int]:
    """Solve one large block with scipy: an assignment (two raters) or HiGHS."""
    if n == 2:
        return _assignment(rel, costs, size)
    opt = require("scipy.optimize", "stats", "concord.gamma")
    sparse = require("scipy.sparse", "stats", "concord.gamma")
    r, col = np.nonzero(rel >= 0)
    a = sparse.csr_matrix((np.ones(r.size), (rel[r, col], r)), shape=(size, rel.shape[0]))
    res = opt.milp(
        costs,
        constraints=opt.LinearConstraint(a, 1.0, 1.0),
        integrality=np.ones(costs.size),
        bounds=opt.Bounds(0, 1),
    )
    if res.x is None:  # pragma: no cover - the singletons always make a feasible partition
        raise RuntimeError(f"concord.gamma: the alignment program failed ({res.message})")
    return [int(j) for j in np.flatnonzero(res.x > 0.5)]


def _assignment(rel: np.ndarray, costs: np.ndarray, size: int) -> list[int]:
    """Two raters: pairs and singletons as an assignment with empty slots."""
    opt = require("scipy.optimize", "stats", "concord.gamma")
    first = np.unique(rel[rel[:, 0] >= 0, 0])
    second = np.unique(rel[rel[:, 1] >= 0, 1])
    a_at = np.full(size, -1)
    a_at[first] = np.arange(first.size)
    b_at = np.full(size, -1)
    b_at[second] = np.arange(second.size)
    na, nb = first.size, second.size
    big = 1e9
    cost = np.full((na + nb, na + nb), big)
    cost[na:, nb:] = 0.0
    which = np.full((na + nb, na + nb), -1)
    for j, (x, y) in enumerate(rel.tolist()):
        i_row = a_at[x] if x >= 0 else na + b_at[y]
        i_col = b_at[y] if y >= 0 else nb + a_at[x]
        cost[i_row, i_col] = costs[j]
        which[i_row, i_col] = j
    rows, cols = opt.linear_sum_assignment(cost)
    picked = which[rows, cols]
    return [int(j) for j in picked if j >= 0]
