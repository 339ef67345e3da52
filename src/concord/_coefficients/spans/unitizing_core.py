"""Krippendorff's unitizing α (uα, Krippendorff 1995, 2004) on plain arrays, in integers.

For one category c the data are each rater's sorted, non-overlapping units of
c on each item's continuum [0, length); everything else (no unit, or a unit of
another category) is a gap. Krippendorff (2004, pp. 251–256) defines

* the observed disagreement D_o,c = 2 S_o / (m (m − 1) L²), where S_o sums over
  the pairs of raters the squared distances of their segments that intersect:
  (b_g − b_h)² + (e_g − e_h)² for two units that overlap, l² for a unit lying
  in a gap of the other rater, 0 otherwise;
* the expected disagreement D_e,c = 2 S_e / (L (mL (mL − 1) − Σ l (l − 1))), where
  S_e = Σ_units [(N_c − 1) l (l − 1)(2l − 1) / 3 + l² Σ_(gaps h ≥ l) (h − l + 1)]
  over the N_c units of c of all raters;

m raters, L the length of the continuum. α_c = 1 − D_o,c / D_e,c and the
overall α = 1 − Σ_c D_o,c / Σ_c D_e,c, as DKPro Statistics'
``KrippendorffAlphaUnitizingAgreement`` computes them.

Several items are laid end to end into one continuum of length L = Σ lengths
(DKPro has one continuum only; its "sections" are commented out): the pairs of
segments and the gaps stay within their item, so an item boundary ends a gap
(a unit cannot be placed across two documents by chance).

Every sum is an integer: l (l − 1)(2l − 1) is divisible by 6. They are taken in
int64 where :func:`concord._common.exact.fits_int64` proves no overflow, and in
Python ints otherwise; the ratios are :class:`fractions.Fraction`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from concord._common.exact import as_object, fits_int64


@dataclass(frozen=True)
class CategorySums:
    """The integer sums of one category: S_o, S_e, Σ l (l − 1) and N_c (see the module)."""

    observed: int
    expected: int
    squares: int
    units: int


def _total(x: np.ndarray) -> int:
    """Σ x as a Python int (x int64 whose sum was proved safe, or Python ints)."""
    return int(x.sum()) if x.size else 0


def _overlaps(
    a_start: np.ndarray, a_end: np.ndarray, b_start: np.ndarray, b_end: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return the index pairs (i, j) of A's and B's units that overlap, each side sorted.

    Each side's units are sorted and do not overlap, so the units of B that
    overlap unit i of A are a run: those ending after i starts and starting
    before i ends.
    """
    low = np.searchsorted(b_end, a_start, side="right")
    high = np.searchsorted(b_start, a_end, side="left")
    count = np.maximum(high - low, 0)
    i = np.repeat(np.arange(a_start.size), count)
    first = np.cumsum(count) - count
    j = np.repeat(low, count) + (np.arange(i.size) - np.repeat(first, count))
    return i, j


def _lone(length: np.ndarray, matched: np.ndarray) -> np.ndarray:
    """Return the lengths of the units that overlap no unit of the other rater."""
    alone = np.ones(length.size, dtype=bool)
    alone[matched] = False
    out: np.ndarray = length[alone]
    return out


def _longest(units: tuple[np.ndarray, np.ndarray]) -> int:
    return int((units[1] - units[0]).max()) if units[0].size else 0


def observed_pair(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> int:
    """S_o of two raters: their units (starts, ends) of one category on the laid-out continuum."""
    i, j = _overlaps(a[0], a[1], b[0], b[1])
    # overlapping units begin (and end) less than the longer one's length apart
    longest = max(_longest(a), _longest(b))
    safe = fits_int64(longest, longest, 2 * (i.size + a[0].size + b[0].size) + 1)
    cast = (lambda x: x) if safe else as_object
    begin = cast(a[0][i] - b[0][j])
    end = cast(a[1][i] - b[1][j])
    lone_a = cast(_lone(a[1] - a[0], i))
    lone_b = cast(_lone(b[1] - b[0], j))
    return _total(begin * begin + end * end) + _total(lone_a * lone_a) + _total(lone_b * lone_b)


def gaps(
    rater: np.ndarray, start: np.ndarray, end: np.ndarray, bounds: np.ndarray, n_raters: int
) -> np.ndarray:
    """Return the lengths of every rater's gaps (positive ones), sorted ascending.

    ``bounds`` are the item boundaries 0, o_1, …, L of the laid-out continuum:
    as empty segments they end a gap at each item's end. Raters are laid one
    after the other, rater r's continuum shifted by r·L, so one sort finds all.
    """
    total = int(bounds[-1])
    shift = np.arange(n_raters, dtype=np.int64)[:, None] * total
    points = (shift + bounds[None, :]).ravel()
    first = np.concatenate([start + rater * total, points])
    last = np.concatenate([end + rater * total, points])
    order = np.lexsort((last, first))
    step = first[order][1:] - last[order][:-1]
    return np.sort(step[step > 0])


def expected_sum(length: np.ndarray, gap: np.ndarray, total: int, n_raters: int) -> int:
    """S_e of one category: its units' lengths of all raters and its sorted gaps."""
    n = length.size
    longest = int(length.max()) if n else 0
    # Σ_(h ≥ l) (h − l + 1) ≤ Σ gaps ≤ m L; l (l − 1)(2l − 1) < 2 l³
    safe = fits_int64(n + 1, longest, longest, max(2 * longest, n_raters * total))
    cast = (lambda x: x) if safe else as_object
    tail = np.concatenate([np.cumsum(gap[::-1])[::-1], [0]]) if gap.size else np.zeros(1, int)
    at = np.searchsorted(gap, length, side="left")
    count = gap.size - at
    room = cast(tail[at]) - cast(count) * cast(length - 1)  # Σ_(h ≥ l) (h − l + 1)
    ell = cast(length)
    inside = ell * (ell - 1) * (2 * ell - 1) // 3
    return (n - 1) * _total(inside) + _total(ell * ell * room)


def category_sums(
    rater: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    bounds: np.ndarray,
    n_raters: int,
) -> CategorySums:
    """Return the sums of one category from its units on the laid-out continuum (any order)."""
    total = int(bounds[-1])
    order = np.lexsort((start, rater))
    rater, start, end = rater[order], start[order], end[order]
    cut = np.searchsorted(rater, np.arange(n_raters + 1))
    own = [(start[cut[r] : cut[r + 1]], end[cut[r] : cut[r + 1]]) for r in range(n_raters)]
    observed = sum(
        observed_pair(own[r], own[s]) for r in range(n_raters) for s in range(r + 1, n_raters)
    )
    length = end - start
    spread = gaps(rater, start, end, bounds, n_raters)
    longest = int(length.max()) if length.size else 0
    ell = length if fits_int64(longest, longest, length.size + 1) else as_object(length)
    return CategorySums(
        observed=int(observed),
        expected=expected_sum(length, spread, total, n_raters),
        squares=_total(ell * (ell - 1)),
        units=int(length.size),
    )


def unitizing_sums(
    lengths: np.ndarray,
    item: np.ndarray,
    rater: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    label: np.ndarray,
    n_raters: int,
    n_labels: int,
) -> list[CategorySums]:
    """Return the sums of every category (codes 0 … n_labels − 1) of checked spans.

    Items are laid end to end in their order; offsets are within each item.
    """
    bounds = np.concatenate([[0], np.cumsum(np.asarray(lengths, dtype=np.int64))])
    where = start + bounds[item]
    until = end + bounds[item]
    out = []
    for c in range(n_labels):
        mine = label == c
        out.append(category_sums(rater[mine], where[mine], until[mine], bounds, n_raters))
    return out


def disagreements(sums: CategorySums, n_raters: int, total: int) -> tuple[Fraction, Fraction]:
    """(D_o,c, D_e,c) as Fractions; D_e,c is 0 when the category has no chance disagreement."""
    m, big = n_raters, total
    observed = Fraction(2 * sums.observed, m * (m - 1) * big * big)
    pairable = m * big * (m * big - 1) - sums.squares
    expected = Fraction(2 * sums.expected, big * pairable) if pairable else Fraction(0)
    return observed, expected
