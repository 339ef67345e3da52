"""The coincidences of Krippendorff et al. (2016) of unitized continua, in integers.

Each rater partitions the continuum [0, L) into segments: their units, each
with its category c (coded 1 … V), and the gaps between them (coded 0, the
"irrelevant matter" φ). For every ordered pair of raters (i, j), i ≠ j, and
every segment g of i and h of j, the length of g ∩ h counts towards the
pair of values (v_g, v_h) (Krippendorff et al. 2016, eq. 1; Krippendorff
2019, §12.6):

* ``intersections[c, k]`` = Σ_(i ≠ j) Σ_(g, h) |g ∩ h| over g valued c and
  h valued k, so that the observed coincidences are l_ck = intersections /
  (m − 1) and l.. = m L;
* ``own[c]`` = the self-pairing terms of the expected coincidences: Σ l²
  over the units of c of all raters, and for the gaps (which can be divided
  anywhere, so that each position is its own segment) their total length;
* ``met[c]`` = the same for the valued intersections only (cuα and (k)uα):
  Σ_(i ≠ j) Σ_(g valued c) (Σ_(h valued) |g ∩ h|)², the squared part of
  unit g that meets rater j's units, summed over the ordered pairs.

Several items are laid end to end: a unit never crosses an item boundary,
and the gaps' term is linear in their lengths, so a gap split at an item
boundary changes nothing. Every sum is an integer; squares are taken in
int64 where :func:`concord._common.exact.fits_int64` proves it safe, else
in Python ints.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from concord._common.exact import as_object, fits_int64


@dataclass(frozen=True)
class Coincidences:
    """The integer sums of the 2016 coefficients (see the module); index 0 is the gap φ."""

    intersections: list[list[int]]
    own: list[int]
    met: list[int]
    n_raters: int
    length: int


@dataclass(frozen=True)
class Partition:
    """One rater's segments of the laid-out continuum, sorted: starts and values (0 = gap)."""

    start: np.ndarray
    value: np.ndarray


def _squares(x: np.ndarray, value: np.ndarray, n_values: int) -> list[int]:
    """Σ x² per value (codes 0 … n_values − 1), in Python ints."""
    longest = int(x.max()) if x.size else 0
    cast = x if fits_int64(longest, longest, x.size + 1) else as_object(x)
    squared = cast * cast
    return [int(squared[value == v].sum()) for v in range(n_values)]


def partition(
    start: np.ndarray, end: np.ndarray, value: np.ndarray, bounds: np.ndarray
) -> Partition:
    """Return the segments of one rater whose units (start, end, value ≥ 1) do not overlap.

    The breakpoints are the units' ends and the item boundaries ``bounds``
    (0, …, L); a unit has none inside it, so each unit is one segment.
    """
    order = np.argsort(start, kind="stable")
    start, end, value = start[order], end[order], value[order]
    points = np.unique(np.concatenate([start, end, bounds]))
    first = points[:-1]
    unit = np.searchsorted(start, first, side="right") - 1
    safe = np.maximum(unit, 0)
    inside = (unit >= 0) & (first < end[safe]) if start.size else np.zeros(first.size, bool)
    values = np.where(inside, value[safe] if start.size else 0, 0)
    return Partition(first, values.astype(np.int64))


def _own(part: Partition, total: int, n_values: int) -> list[int]:
    """Return the self-pairing terms of one rater: Σ l² per category, gap length for φ."""
    length = np.diff(np.append(part.start, total))
    out = _squares(length, part.value, n_values)
    out[0] = int(length[part.value == 0].sum())
    return out


def _pair(a: Partition, b: Partition, total: int, n_values: int) -> tuple[np.ndarray, list[int]]:
    """Return the intersections of a and b (one direction) and met of both directions."""
    points = np.union1d(a.start, b.start)
    size = np.diff(np.append(points, total))
    ga = np.searchsorted(a.start, points, side="right") - 1
    gb = np.searchsorted(b.start, points, side="right") - 1
    va, vb = a.value[ga], b.value[gb]
    table = np.zeros((n_values, n_values), dtype=np.int64)
    np.add.at(table, (va, vb), size)
    both = (va > 0) & (vb > 0)
    met = [0] * n_values
    for seg, part in ((ga, a), (gb, b)):
        reach = np.zeros(part.start.size, dtype=np.int64)
        np.add.at(reach, seg[both], size[both])
        for v, s in enumerate(_squares(reach, part.value, n_values)):
            met[v] += s if v else 0
    return table, met


def coincidences(
    lengths: np.ndarray,
    item: np.ndarray,
    rater: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    label: np.ndarray,
    n_raters: int,
    n_labels: int,
) -> Coincidences:
    """Return the sums of checked spans (no rater's spans overlap on an item, any labels)."""
    bounds = np.concatenate([[0], np.cumsum(np.asarray(lengths, dtype=np.int64))])
    total = int(bounds[-1])
    where, until = start + bounds[item], end + bounds[item]
    parts = [
        partition(where[rater == r], until[rater == r], label[rater == r] + 1, bounds)
        for r in range(n_raters)
    ]
    n_values = n_labels + 1
    counts = np.zeros((n_values, n_values), dtype=object)
    own = [0] * n_values
    met = [0] * n_values
    for r in range(n_raters):
        own = [x + y for x, y in zip(own, _own(parts[r], total, n_values), strict=True)]
        for s in range(r + 1, n_raters):
            table, pair_met = _pair(parts[r], parts[s], total, n_values)
            counts += table.astype(object) + table.T.astype(object)
            met = [x + y for x, y in zip(met, pair_met, strict=True)]
    return Coincidences(
        intersections=[[int(x) for x in row] for row in counts.tolist()],
        own=own,
        met=met,
        n_raters=n_raters,
        length=total,
    )
