"""Multi-rater ratings → what a coefficient needs: item patterns, rater patterns, labels.

Raw ratings are validated and label-encoded (:mod:`concord._data.matrix`), a
numeric matrix takes the one-pass numba route (``_count.matrix_patterns``),
or an array of PyTorch, CuPy or JAX is encoded and counted on its device
(:mod:`concord._tables.items_device`); either way they end as distinct item
patterns with frequencies (:mod:`concord._tables.patterns`), the small table every
multi-rater coefficient, its standard error and its bootstrap are computed from.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from concord._common.errors import describe, param_error
from concord._data.arrays import MAX_RANGE, Fallback, counted_on_device, to_host
from concord._data.frames import is_foreign
from concord._data.labels import Labels
from concord._data.matrix import CategoryCounts, rating_matrix
from concord._data.wide import Wide, foreign_wide
from concord._tables import engines as _count
from concord._tables import matrix_numpy, rater_terms
from concord._tables import patterns as patterns
from concord._tables.item_table import Items, RaterCodes


def item_data(
    ratings: Any,
    labels: Any,
    func: str,
    *,
    need_raters: bool = False,
    dense_limit: int | None = None,
    continuous: bool = False,
    codes_only: bool = False,
) -> Items:
    """Validate the ratings and return what the coefficient needs (see :class:`Items`).

    Numeric matrices take a one-pass route (``_count.matrix_patterns``).
    With more than ``dense_limit`` categories the count patterns are not
    formed (``counts`` is None) and the ``matrix`` of codes is kept instead.
    With ``codes_only`` that route may keep who rated what as codes and
    leave the rater patterns to be formed on demand (:class:`RaterCodes`).
    """
    items = batch_items(
        ratings,
        labels,
        func,
        need_raters=need_raters,
        dense_limit=dense_limit,
        continuous=continuous,
        allow_empty=False,
        codes_only=codes_only,
    )
    assert items is not None
    return items


def batch_items(
    ratings: Any,
    labels: Any,
    func: str,
    *,
    need_raters: bool = False,
    dense_limit: int | None = None,
    continuous: bool = False,
    allow_empty: bool = True,
    codes_only: bool = False,
) -> Items | None:
    """:func:`item_data` of one batch of a stream: None when it holds no rating."""
    if isinstance(ratings, CategoryCounts):
        return _count_form(ratings, labels, func, need_raters, allow_empty)
    if counted_on_device(ratings):
        from concord._tables.items_device import items

        try:
            return items(
                ratings,
                labels,
                func,
                need_raters=need_raters,
                dense_limit=dense_limit,
                continuous=continuous,
            )
        except Fallback:  # numpy's path: the same result, or numpy's error
            ratings = to_host(ratings)
    if is_foreign(ratings):  # polars, pyarrow, ...: one column per rater, read once
        ratings = foreign_wide(ratings, func)
    fast = _one_pass(ratings, labels, dense_limit, need_raters, codes_only)
    if fast is not None:
        return fast
    matrix = rating_matrix(ratings, labels, func, continuous=continuous, allow_empty=allow_empty)
    if matrix is None:
        return None
    k = matrix.labels.k
    dense = dense_limit is None or k <= dense_limit
    raters = patterns.distinct(matrix.codes + 1) if need_raters else None
    counts = patterns.distinct(matrix.counts()) if dense else None
    return Items(
        matrix.labels,
        counts,
        raters,
        matrix.raters,
        None if dense else matrix,
        declared=matrix.declared,
    )


def _count_form(
    counts: CategoryCounts, labels: Any, func: str, need_raters: bool, allow_empty: bool
) -> Items | None:
    if need_raters:
        param_error(
            func,
            "ratings",
            "a ratings matrix (items × raters)",
            "CategoryCounts",
            exc=TypeError,
            raw=True,
            fix=f"{func} needs to know which rater gave which rating; "
            "the count form has lost that.",
        )
    if labels is not None and tuple(labels) != counts.labels:
        param_error(
            func,
            "labels",
            f"None or the counts' own labels {describe(counts.labels)}",
            labels,
            fix="Set the labels when building CategoryCounts.",
        )
    table = counts.counts[counts.counts.sum(axis=1) > 0]
    if table.shape[0] == 0:
        if allow_empty:
            return None
        param_error(func, "ratings", "at least one rating", "only empty items", raw=True)
    # the columns of the count form are declared categories, in their declared order
    return Items(Labels(counts.labels, ordered=True), patterns.distinct(table), declared=True)


def _numeric_matrix(ratings: Any) -> np.ndarray | None:
    """Return a numeric matrix (NaN where missing) as numba counts it, else None."""
    if isinstance(ratings, np.ndarray):
        return ratings
    if isinstance(ratings, Wide):  # pivoted long form, or a polars or pyarrow frame
        return ratings.numeric
    if hasattr(ratings, "dtypes") and all(
        getattr(t, "kind", "O") in "iuf" for t in ratings.dtypes
    ):
        x: np.ndarray = ratings.to_numpy(dtype=np.float64, na_value=np.nan)
        return x
    return None


def _one_pass(
    ratings: Any, labels: Any, dense_limit: int | None, need_raters: bool, codes_only: bool = False
) -> Items | None:
    """Return the items of a numeric matrix with inferred labels via numba, or None."""
    x = None if labels is not None else _numeric_matrix(ratings)
    if x is None or x.ndim != 2 or x.dtype.kind not in "iuf":
        return None
    limit = dense_limit or MAX_RANGE
    # decided once: each ask counts x's values towards loading the kernels (engines._LOAD_MIN)
    compiled = _count._engine(x.size, "auto", _count._MATRIX) is not None
    if need_raters and codes_only and compiled:
        kept = _kept_codes(x, ratings, limit)
        if kept is not None:
            return kept
    found = _found_patterns(x, limit, need_raters, compiled)
    if found is None:
        return None
    lo, k, counts, rows = found
    r = x.shape[1]
    used = np.flatnonzero(counts.rows.sum(axis=0))  # categories someone used
    if used.size == 0:
        return None  # nothing rated: the numpy path explains
    counts = patterns.Patterns(counts.rows[:, used], counts.freq)
    raters = None
    if need_raters:
        rows = _wide_rows(x, lo, k) if rows is None else rows
        remap = np.zeros(k + 1, dtype=np.int64)
        remap[used + 1] = np.arange(1, used.size + 1)
        raters = patterns.Patterns(remap[rows.rows], rows.freq)
    labels_found = Labels(tuple(int(lo + j) for j in used), ordered=True)
    names = rater_names(ratings, r)
    return Items(labels_found, counts, raters, names)


_KERNEL_BLOCK = 1 << 22  # values per block whose per-item int64 codes the kernels write


def _found_patterns(
    x: np.ndarray, limit: int, need_raters: bool, compiled: bool
) -> tuple[int, int, patterns.Patterns, patterns.Patterns | None] | None:
    """``(lo, k, counts, rows)``: the patterns over the range [lo, lo + k), or None.

    The numba kernels where they are loaded, else chunked numpy
    (:mod:`concord._tables.matrix_numpy`): the same patterns. ``rows`` is None
    unless ``need_raters``, or where the rater codes are too wide for int64
    (the caller sorts the rows then). None: the validating path must run.
    ``compiled``: whether the kernels count x (``engines._engine``, asked once).
    """
    if not compiled:
        return matrix_numpy.matrix_patterns(x, limit, need_raters)
    bounds = _count.whole_bounds(x)
    if bounds is None:
        return None
    lo, hi = bounds
    wide = need_raters and not patterns.radix_fits(hi - lo + 2, x.shape[1])
    step = max(1, _KERNEL_BLOCK // max(1, x.shape[1]))
    parts = []
    for s in range(0, x.shape[0], step):  # per-item codes of one block at a time
        found = _count.matrix_patterns(
            x[s : s + step],
            max_range=limit,
            rows_too=need_raters and not wide,
            engine="numba",
            bounds=bounds,
        )
        if found is None:
            return None
        _, k, count_codes, row_codes = found
        r = x.shape[1]
        rows = patterns.from_codes(row_codes, k + 1, r) if need_raters and not wide else None
        parts.append((patterns.from_codes(count_codes, r + 1, k), rows))
    counts, rows = _joined([p[0] for p in parts]), _joined([p[1] for p in parts])
    assert counts is not None
    return lo, hi - lo + 1, counts, rows


def _joined(parts: list[patterns.Patterns | None]) -> patterns.Patterns | None:
    """Return the patterns of blocks counted apart, as ``from_codes`` of all their codes."""
    if parts[0] is None or len(parts) == 1:
        return parts[0]
    found = [p for p in parts if p is not None]
    rows = np.concatenate([p.rows for p in found])
    return patterns.merge(rows, np.concatenate([p.freq for p in found]))[0]


def _kept_codes(x: np.ndarray, ratings: Any, limit: int) -> Items | None:
    """Count a numeric matrix in one pass, keeping who rated what as :class:`RaterCodes`.

    One kernel pass writes the codes, each rater's totals and the count
    patterns. Where the rater patterns are cheap (their mixed-radix codes
    are counted densely) they are formed at once, as the other route forms
    them; elsewhere forming them sorts the rows, which costs more than the
    statistic with many raters, so they are left to be formed on demand.
    None where the other routes must run (no numba, out of range, k ≥ 255).
    """
    bounds = _bounds(x, limit)
    kernels = rater_terms.kernels()  # loaded: the caller's _engine took them
    if bounds is None or kernels is None:
        return None
    lo, k = bounds
    n, r = x.shape
    narrow = patterns.radix_fits(k + 1, r)
    dense = narrow and (k + 1) ** r <= patterns._DENSE_CODES
    codes = np.empty((n, r), dtype=np.uint8)
    rows = np.empty(n if dense else 0, dtype=np.int64)
    step = -(-n // min(_count._n_threads(), max(1, x.size // _count._MATRIX_THREAD_MIN)))
    parts = [np.zeros((r, k + 1), dtype=np.int64) for _ in range(0, n, step)]
    futures = [
        _count._pool().submit(
            kernels.rater_codes, x[s : s + step], lo, k, codes[s : s + step], t, rows[s : s + step]
        )
        for s, t in zip(range(0, n, step), parts, strict=True)
    ]
    found = [f.result() for f in futures]
    if any(bad for _, bad in found):
        return None
    counts = patterns.from_codes(np.concatenate([c for c, _ in found]), r + 1, k)
    used = np.flatnonzero(counts.rows.sum(axis=0))  # categories someone used
    if used.size == 0:
        return None  # nothing rated: the numpy path explains
    remap = np.zeros(k + 1, dtype=np.uint8)
    remap[used + 1] = np.arange(1, used.size + 1)
    labels_found = Labels(tuple(int(lo + j) for j in used), ordered=True)
    names = rater_names(ratings, r)
    counts = patterns.Patterns(counts.rows[:, used], counts.freq)
    if dense:
        raters = patterns.from_codes(rows, k + 1, r)
        raters = patterns.Patterns(remap.astype(np.int64)[raters.rows], raters.freq)
        return Items(labels_found, counts, raters, names)
    codes = codes if used.size == k else remap[codes]
    totals = np.sum(parts, axis=0)[:, used + 1]
    return Items(labels_found, counts, None, names, codes=RaterCodes(codes, totals, narrow))


def _bounds(x: np.ndarray, limit: int) -> tuple[int, int] | None:
    """(lo, k): the whole-number range [lo, lo + k) of a numeric matrix, or None (see engines)."""
    if x.dtype.kind not in "iuf" or x.shape[0] == 0:
        return None
    bounds = _count.whole_bounds(x)
    if bounds is None:
        return None
    lo, hi = bounds
    k = hi - lo + 1
    if k > limit or k >= 255 or not patterns.radix_fits(x.shape[1] + 1, k):
        return None
    return lo, k


def _wide_rows(x: np.ndarray, lo: int, k: int) -> patterns.Patterns:
    """Rater patterns (codes + 1, 0 = missing) of whole-number ratings in [lo, lo + k)."""
    codes = np.fmax(x - (lo - 1), 0)  # fmax turns NaN (missing) into 0
    codes = codes[codes.any(axis=1)]  # an item nobody rated is no item, as on the other routes
    return patterns.distinct(codes.astype(np.uint8 if k < 255 else np.int64))


def rater_names(ratings: Any, r: int) -> tuple[Any, ...]:
    """Return the raters' names: a DataFrame's columns, a :class:`Wide`'s raters, else 0, 1, ..."""
    if isinstance(ratings, Wide):
        return ratings.raters
    return tuple(ratings.columns) if hasattr(ratings, "columns") else tuple(range(r))
