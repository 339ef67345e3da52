"""A ratings matrix on its device (PyTorch, CuPy, JAX) → the distinct item patterns.

The device twin of :func:`concord._data.matrix.rating_matrix` followed by
:func:`concord._tables.patterns.distinct`: a missing rating is NaN; whole numbers
within ``MAX_RANGE`` values are encoded through a table over their range,
other ratings against their distinct values; the items × categories counts
are a ``bincount`` of item · k + code, and the distinct rows of those counts
(and of the rater codes, for Conger and Light) are found by counting their
mixed-radix codes. Missing ratings and unrated items are masked, never
removed (under JAX that would copy a mask to the host). Only the distinct patterns
with their frequencies come to the host, where they are decoded exactly as
:func:`~concord._tables.patterns.from_codes` decodes them, so the result is
identical to that of the same ratings passed as a numpy array. (Beyond
``dense_limit`` categories, Krippendorff's continuous engine needs the codes
themselves: they come to the host.)

Inputs the host path rejects raise :class:`~concord._data.arrays.Fallback`, and
the caller copies the ratings to the host, where numpy's path raises its error.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from concord._data.arrays import (
    MAX_RANGE,
    Fallback,
    bounds,
    check_numeric,
    count_cells,
    device_bincount,
    device_of,
    filled,
    index_dtype,
    index_max,
    namespace,
    offsets,
    scalar,
    sorted_unique,
    to_host,
    unique_counts,
)
from concord._data.columns import is_integral_number
from concord._data.labels import Labels, check_labels, infer, lookup
from concord._data.matrix import RatingMatrix
from concord._tables import patterns as patterns
from concord._tables.item_table import Items

_EXACT_FLOAT = 2.0**53


def items(
    ratings: Any,
    labels: Any,
    func: str,
    *,
    need_raters: bool,
    dense_limit: int | None,
    continuous: bool,
) -> Items:
    """:func:`concord._tables.items.item_data` of a device array; raise Fallback if not handled."""
    declared = check_labels(labels, func)
    xp = namespace(ratings)
    code = check_numeric(xp, ratings, 2)
    if code == "b":  # as numpy's path: bool ratings are the integers 0 and 1
        ratings, code = xp.astype(ratings, index_dtype(xp, ratings)), "i"
    present = ~xp.isnan(ratings) if code == "f" else None
    if present is not None and not scalar(xp.any(present)):
        raise Fallback  # only missing ratings: numpy's error (or an empty batch)
    codes, found = _encode(xp, ratings, code, present, declared, func, continuous)
    k, names = found.k, tuple(range(ratings.shape[1]))
    dense = dense_limit is None or k <= dense_limit
    # items nobody rated stay, as rows of zeros that _distinct leaves out
    raters = _distinct(xp, codes + 1) if need_raters else None
    counts = _distinct(xp, _item_counts(xp, codes, k)) if dense else None
    matrix = None
    if not dense:  # Krippendorff's continuous engine needs the codes themselves
        host = np.asarray(to_host(codes), dtype=np.intp)
        rated = (host >= 0).any(axis=1)
        matrix = RatingMatrix(
            host[rated], found, names, int((~rated).sum()), declared=declared is not None
        )
    return Items(found, counts, raters, names, matrix, declared=declared is not None)


def _encode(
    xp: Any,
    x: Any,
    code: str,
    present: Any,
    declared: tuple[Any, ...] | None,
    func: str,
    continuous: bool,
) -> tuple[Any, Labels]:
    """Return the label codes (n_items, n_raters), −1 where missing, and the labels."""
    integral = declared is None or all(is_integral_number(v) for v in declared)
    if integral and _whole(xp, x, code, present, declared is not None, continuous):
        dense = _dense_codes(xp, x, code, present, declared)
        if dense is not None:
            return dense
        return _lookup_codes(xp, x, present, declared, func, as_int=True)
    return _lookup_codes(xp, x, present, declared, func, as_int=False)


def _whole(xp: Any, x: Any, code: str, present: Any, declared: bool, continuous: bool) -> bool:
    """As ``_ratings._as_integers``: whether to encode the ratings as whole numbers."""
    if code != "f":
        return True
    values = filled(xp, x, present, 0.0)
    fractional = not scalar(xp.all(values == xp.round(values)))
    if not fractional and scalar(xp.max(xp.abs(values))) < _EXACT_FLOAT:
        return True  # and finite: ±inf is whole, but not below 2**53
    if not scalar(xp.all(xp.isfinite(values))):
        raise Fallback  # numpy: an infinite rating has no category
    if continuous and fractional:
        return False
    if not declared:
        raise Fallback  # numpy: non-integral ratings need labels
    return False


def _dense_codes(
    xp: Any,
    x: Any,
    code: str,
    present: Any,
    declared: tuple[Any, ...] | None,
) -> tuple[Any, Labels] | None:
    """As ``_ratings._dense_codes``: codes through a table over the range of the values."""
    low, high = bounds(xp, x, code, present)
    lo, hi = int(low), int(high)
    if hi - lo >= MAX_RANGE:
        return None
    size, idx = hi - lo + 1, index_dtype(xp, x)
    offset = xp.reshape(offsets(xp, filled(xp, x, present, lo), code, lo, idx), (-1,))
    bins = offset
    if present is not None:
        bins = xp.where(xp.reshape(present, (-1,)), offset, xp.full_like(offset, size))
    used = count_cells(lambda s: bins[s], bins.shape[0], size + 1)[:size] > 0
    if declared is None:
        table = np.cumsum(used) - 1
        found = Labels(tuple(int(lo + i) for i in np.flatnonzero(used)), ordered=True)
    else:
        table = np.full(size, -1, dtype=np.int64)
        for position, value in enumerate(declared):
            if lo <= int(value) <= hi:
                table[int(value) - lo] = position
        if (used & (table < 0)).any():
            raise Fallback  # ratings not in labels: numpy's error counts them
        found = Labels(declared, ordered=True)
    lookup_table = xp.asarray(table, dtype=idx, device=device_of(x))
    codes = xp.reshape(xp.take(lookup_table, offset), x.shape)
    return _missing_as(xp, codes, present), found


def _lookup_codes(
    xp: Any,
    x: Any,
    present: Any,
    declared: tuple[Any, ...] | None,
    func: str,
    *,
    as_int: bool,
) -> tuple[Any, Labels]:
    """As ``_ratings._lookup_codes``: codes of the ratings among their distinct values."""
    if present is not None:  # a rating that is there stands in for the missing ones
        x = filled(xp, x, present, bounds(xp, x, "f", present)[0])
    keys = sorted_unique(xp, x)
    host = to_host(keys)
    if as_int:  # numpy looks up the int64 values of whole-number ratings
        host = host.astype(np.int64)
    if declared is None:
        found, (inner,) = infer([host])
    else:
        found = Labels(declared, ordered=True)
        try:
            inner = lookup(host, declared, func, "ratings")
        except ValueError:  # ratings not in labels: numpy's error counts them
            raise Fallback from None
    idx = index_dtype(xp, x)
    at = xp.astype(xp.searchsorted(keys, xp.reshape(x, (-1,))), idx)
    table = xp.asarray(np.asarray(inner), dtype=idx, device=device_of(x))
    codes = xp.reshape(xp.take(table, at), x.shape)
    return _missing_as(xp, codes, present), found


def _missing_as(xp: Any, codes: Any, present: Any) -> Any:
    """Return the codes with −1 where a rating is missing."""
    if present is None:
        return codes
    return xp.where(present, codes, xp.full_like(codes, -1))


def _item_counts(xp: Any, codes: Any, k: int) -> Any:
    """Return the items × categories counts of the codes, on the device."""
    n, idx = codes.shape[0], codes.dtype
    if n * k + 1 > index_max(xp, idx):  # item · k + code would overflow: one category at a time
        return xp.stack([xp.sum(xp.astype(codes == c, idx), axis=1) for c in range(k)], axis=1)
    item = xp.reshape(xp.arange(n, dtype=idx, device=device_of(codes)), (n, 1))
    cells = xp.where(codes >= 0, item * k + codes, xp.full_like(codes, n * k))
    counted = device_bincount(xp.reshape(cells, (-1,)), n * k + 1)
    return xp.reshape(counted[: n * k], (n, k))


def _distinct(xp: Any, rows: Any) -> patterns.Patterns:
    """As :func:`~concord._tables.patterns.distinct` of the rows not all zero (items rated).

    The rows' mixed-radix codes are counted on the device; only the distinct
    codes and their frequencies come to the host.
    """
    base = int(scalar(xp.max(rows))) + 1
    width = rows.shape[1]
    idx = index_dtype(xp, rows)
    if not patterns.radix_fits(base, width) or base**width > index_max(xp, idx):
        host = np.asarray(to_host(rows))
        return patterns.distinct(host[host.any(axis=1)])
    powers = xp.asarray([base**j for j in range(width)], dtype=idx, device=device_of(rows))
    found, freq = unique_counts(xp, xp.sum(xp.astype(rows, idx) * powers, axis=1))
    values = np.asarray(to_host(found), dtype=np.int64)
    counts = np.asarray(to_host(freq), dtype=np.int64)
    rated = values > 0  # the code of a row of zeros is 0
    return patterns.Patterns(patterns.decode(values[rated], base, width), counts[rated])
