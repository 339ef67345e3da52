"""One-to-one maximum matching of two raters' spans, and the counts span F1 is made of.

A span of one rater may match a span of the other on the same item (and,
with ``by="label"``, with the same label): ``"exact"`` when start and end
are the same, ``"overlap"`` when they share a character (ends exclusive, so
``[0, 5)`` and ``[5, 9)`` do not), a threshold t when their intersection
over union is at least t. Among the candidate pairs, the matching is
one-to-one and of maximum size (Hopcroft–Karp, scipy's
``maximum_bipartite_matching``), so the number of matched spans does not
depend on the order of the rows. Where every span has at most one candidate
(exact matching by label always) the candidates are the matching and scipy
is not needed.

Candidate pairs come from one sort and two binary searches per pair of
raters: the other rater's spans sorted by (item, label, start), a span's
candidates start before its end and after its start minus the longest span
of the other rater.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

from concord._common.extras import require
from concord._data.span_checks import sorted_by
from concord._data.spans import SpanTable


@dataclass(frozen=True)
class SpanCounts:
    """The counts of every pair of raters.

    ``counts[r, i, l]``: spans of rater r on item i with label l (l = 0 for
    all spans when labels are ignored); ``matched[p, i, l]``: spans of pair
    p matched there; ``matches[p]``: the matched spans' indices, shape (k, 2),
    the first rater's span then the second's.
    """

    pairs: tuple[tuple[int, int], ...]
    counts: np.ndarray
    matched: np.ndarray
    matches: tuple[np.ndarray, ...]

    def totals(self) -> np.ndarray:
        """Return both raters' spans of each pair, item and label: shape (P, I, L)."""
        first, second = (np.array([p[k] for p in self.pairs], dtype=np.intp) for k in (0, 1))
        out: np.ndarray = self.counts[first] + self.counts[second]
        return out


def threshold(match: Any) -> Fraction | float | None:
    """Return an IoU threshold as a fraction when its decimal is short, else the float."""
    if isinstance(match, str):
        return None
    t = Fraction(repr(float(match)))
    return t if t.denominator <= 10**6 else float(match)


def match_spans(table: SpanTable, match: Any, by: str | None) -> SpanCounts:
    """Return the counts of every pair of raters (see the module)."""
    n_labels = len(table.labels) if by == "label" else 1
    group = table.item * n_labels + (table.label if by == "label" else 0)
    order = _canonical(table)
    n_items, n_raters = len(table.items), len(table.raters)
    where = (table.rater * n_items + table.item) * n_labels + table.label * (by == "label")
    counts = np.bincount(where, minlength=n_raters * n_items * n_labels)
    pairs = tuple(combinations(range(n_raters), 2))
    matched = np.zeros((len(pairs), n_items * n_labels), dtype=np.int64)
    found = []
    spans = (group, table.start, table.end)
    for p, (a, b) in enumerate(pairs):
        first, second = order[table.rater[order] == a], order[table.rater[order] == b]
        rows, cols = _pairs(spans, first, second, match)
        found.append(np.column_stack([first[rows], second[cols]]))
        cell = group[first[rows]] if by == "label" else table.item[first[rows]]
        matched[p] = np.bincount(cell, minlength=n_items * n_labels)
    shape = (n_items, n_labels)
    return SpanCounts(
        pairs,
        counts.reshape(n_raters, *shape).astype(np.int64),
        matched.reshape(len(pairs), *shape),
        tuple(found),
    )


def _canonical(table: SpanTable) -> np.ndarray:
    """Return the spans in an order the rows' order does not change: item, label name, offsets."""
    names = np.array([str(v) for v in table.labels], dtype=object)
    rank = np.empty(len(names), dtype=np.int64)
    rank[np.argsort(names, kind="stable")] = np.arange(len(names))
    return sorted_by(table.item, rank[table.label], table.start, table.end)


def _pairs(
    spans: tuple[np.ndarray, np.ndarray, np.ndarray],
    first: np.ndarray,
    second: np.ndarray,
    match: Any,
) -> tuple[np.ndarray, np.ndarray]:
    """Return a maximum one-to-one matching: positions into ``first`` and ``second``."""
    rows, cols = _candidates(spans, first, second, match)
    if rows.size == 0:
        return rows, cols
    once = np.bincount(rows, minlength=first.size).max() <= 1
    if once and np.bincount(cols, minlength=second.size).max() <= 1:
        return rows, cols  # every span has at most one candidate: they are the matching
    sparse = require("scipy.sparse", "stats", "span_agreement")
    csgraph = require("scipy.sparse.csgraph", "stats", "span_agreement")
    graph = sparse.csr_matrix(
        (np.ones(rows.size, dtype=np.int8), (rows, cols)), shape=(first.size, second.size)
    )
    partner = np.asarray(csgraph.maximum_bipartite_matching(graph, perm_type="column"))
    kept = np.flatnonzero(partner >= 0)
    return kept, partner[kept].astype(np.intp)


def _candidates(
    spans: tuple[np.ndarray, np.ndarray, np.ndarray],
    first: np.ndarray,
    second: np.ndarray,
    match: Any,
) -> tuple[np.ndarray, np.ndarray]:
    """Return every candidate pair: positions into ``first`` and ``second``."""
    group, start, end = spans
    if first.size == 0 or second.size == 0:
        empty = np.empty(0, dtype=np.intp)
        return empty, empty
    g_a, s_a, e_a = group[first], start[first], end[first]
    g_b, s_b, e_b = group[second], start[second], end[second]
    pos, width = _positions(g_a, g_b, (s_a, e_a, s_b, e_b))
    if match == "exact":
        return _same(g_a * width + pos(s_a), e_a, g_b * width + pos(s_b), e_b)
    sort = sorted_by(g_b, s_b)
    key = g_b[sort] * width + pos(s_b[sort])
    longest = int((e_b - s_b).max())
    earliest = pos(np.maximum(s_a - longest + 1, 0))  # a candidate starts at least here
    lo = np.searchsorted(key, g_a * width + earliest, "left")
    hi = np.searchsorted(key, g_a * width + pos(e_a), "left")
    rows, at = _expand(lo, hi)
    cols = sort[at]
    inter = np.minimum(e_a[rows], e_b[cols]) - np.maximum(s_a[rows], s_b[cols])
    keep = inter > 0
    t = threshold(match)
    if t is not None:
        union = (e_a[rows] - s_a[rows]) + (e_b[cols] - s_b[cols]) - inter
        if isinstance(t, Fraction):  # exact: inter / union >= p / q
            keep &= inter * t.denominator >= union * t.numerator
        else:
            keep &= inter >= t * union
    return rows[keep], cols[keep]


def _positions(
    g_a: np.ndarray, g_b: np.ndarray, offsets: tuple[np.ndarray, ...]
) -> tuple[Callable[[np.ndarray], np.ndarray], int]:
    """Return how offsets enter the keys group·width + position, and the width.

    The offsets themselves where the keys fit in int64, else their ranks among
    the offsets present (which keep every comparison; the lengths the IoU
    needs are taken from the offsets themselves).
    """
    width = int(max(int(x.max()) for x in offsets)) + 2
    if (int(max(g_a.max(), g_b.max())) + 1) * width < 2**62:
        return (lambda x: x), width
    values = np.unique(np.concatenate(offsets))
    return (lambda x: np.searchsorted(values, x)), values.size + 1


def _same(
    key_a: np.ndarray, end_a: np.ndarray, key_b: np.ndarray, end_b: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return the pairs with the same group, start and end (a hash join, by sorting)."""
    sort = sorted_by(key_b, end_b)
    kb, eb = key_b[sort], end_b[sort]
    lo = np.searchsorted(kb, key_a, "left")
    hi = np.searchsorted(kb, key_a, "right")
    rows, at = _expand(lo, hi)
    keep = eb[at] == end_a[rows]
    return rows[keep], sort[at[keep]]


def _expand(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (i, j) for every j in [lo[i], hi[i]), with no Python loop."""
    n = np.maximum(hi - lo, 0)
    rows = np.repeat(np.arange(lo.size), n)
    starts = np.repeat(np.cumsum(n) - n, n)
    return rows, lo[rows] + (np.arange(rows.size) - starts)


def unmatched(table: SpanTable, counts: SpanCounts) -> dict[str, np.ndarray]:
    """Return every pair's unmatched spans and the other rater's span that overlaps each most.

    Keys: ``pair`` (index into ``counts.pairs``), ``span`` (index of the
    unmatched span) and ``other`` (the other rater's span on the same item,
    whatever its label, that shares the most characters with it; −1 where
    none overlaps; the earliest of equals).
    """
    order = _canonical(table)
    spans = (table.item, table.start, table.end)
    out: dict[str, list[np.ndarray]] = {"pair": [], "span": [], "other": []}
    for p, (a, b) in enumerate(counts.pairs):
        done = np.zeros(table.n_spans, dtype=bool)
        done[counts.matches[p].ravel()] = True
        for mine, theirs in ((a, b), (b, a)):
            first = order[(table.rater[order] == mine) & ~done[order]]
            second = order[table.rater[order] == theirs]
            out["pair"].append(np.full(first.size, p, dtype=np.intp))
            out["span"].append(first)
            out["other"].append(_most_overlap(spans, first, second))
    return {k: np.concatenate(v) if v else np.empty(0, np.intp) for k, v in out.items()}


def _most_overlap(
    spans: tuple[np.ndarray, np.ndarray, np.ndarray], first: np.ndarray, second: np.ndarray
) -> np.ndarray:
    """Return, for each span of ``first``, the span of ``second`` it overlaps most (or −1)."""
    _, start, end = spans
    other = np.full(first.size, -1, dtype=np.intp)
    rows, cols = _candidates(spans, first, second, "overlap")
    if rows.size:
        a, b = first[rows], second[cols]
        inter = np.minimum(end[a], end[b]) - np.maximum(start[a], start[b])
        best = np.lexsort((cols, -inter, rows))  # per row: most overlap, then the earliest
        head = np.ones(best.size, dtype=bool)
        head[1:] = rows[best][1:] != rows[best][:-1]
        other[rows[best][head]] = second[cols[best][head]]
    return other
