"""Long-form ratings (one row per rating: item, rater, rating) → one column per rater.

Every multi-rater function takes ``item=``, ``rater=`` and ``rating=``, the
columns of a table with one row per rating (a pandas DataFrame, a pyarrow
Table or any mapping of columns, such as a dict of lists); :func:`pivot`
turns them into the wide form those functions take, with no Python loop
over rows: the item and rater columns are factorised (``pandas.factorize``
when pandas is loaded, else ``numpy.unique``), a repeated (item, rater)
pair is found by a bincount of ``item * n_raters + rater``, and the
ratings are placed by fancy indexing. The rules are the command line's: a
missing item or rater is an error naming its row, a second rating of an
item by a rater is an error naming its row, a missing rating is missing.
Raters keep the order in which they first appear; items too (their order
changes no coefficient).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._common.errors import describe, param_error
from concord._data.columns import Column, _python_scalar, column, listing, series_column
from concord._data.convert import int_list
from concord._data.form import check_wide, plain
from concord._data.frames import as_frame, is_foreign
from concord._data.wide import Wide as Wide  # re-exported: pivot returns one
from concord._data.wide import foreign_wide

LONG = ("item", "rater", "rating")
_EXACT_FLOAT = 2**53


def keys(func: str, item: Any, rater: Any, rating: Any) -> tuple[Any, Any, Any] | None:
    """Return the long form's three column names, or None when none is given."""
    given = (item, rater, rating)
    if all(v is None for v in given):
        return None
    for key, value in zip(LONG, given, strict=True):
        if value is None:
            named = ", ".join(
                f"{k}={v!r}" for k, v in zip(LONG, given, strict=True) if v is not None
            )
            param_error(
                func,
                key,
                "a column name: the long form takes item=, rater= and rating= together",
                None,
                fix=f"Only {named} was given; name all three, or none for one column per rater.",
            )
    if len({repr(v) for v in given}) != 3:
        param_error(func, "rating", "a third column, neither item nor rater", rating)
    return given


def long_ratings(ratings: Any, names: tuple[Any, Any, Any], func: str, form: str = "auto") -> Any:
    """Return the ratings as the multi-rater functions take them: long form pivoted, else wide.

    ``names`` are the ``item``, ``rater`` and ``rating`` arguments: all three or
    none. Without them a frame of polars, pyarrow and the like is read as a
    :class:`Wide`, and a table that looks long is refused unless ``form`` is
    "wide" (:mod:`concord._data.form`).
    """
    given = keys(func, *names)
    if given is not None:
        return pivot(ratings, given, func)
    wide = foreign_wide(ratings, func) if is_foreign(ratings) else ratings
    check_wide(wide, func, form)
    return wide


def long_groups(
    ratings: Any, names: tuple[Any, Any, Any], groups: Any, func: str, form: str = "auto"
) -> tuple[Any, Any]:
    """Return the ratings as :func:`long_ratings` does, and ``groups`` one label per item.

    In the long form ``groups`` names a column of the table (a cluster label on
    each row, the same on every row of an item), which is read per item in
    the pivot's item order; a sequence given with the long form is refused,
    since the pivot's order of items is not the user's.
    """
    given = keys(func, *names)
    if given is None:
        return long_ratings(ratings, names, func, form), groups
    wide = pivot(ratings, given, func)
    if groups is None:
        return wide, None
    return wide, per_item(ratings, given[0], groups, "groups", wide.items, func)


def per_item(data: Any, item: Any, name: Any, key: str, items: np.ndarray, func: str) -> Any:
    """Return column ``name`` of a long table once per item, in the order of ``items``.

    Every row of an item must carry the same value (a cluster, a weight); a
    sequence instead of a column name is refused, since the pivot's order of
    items is not the user's.
    """
    if not isinstance(name, str | int):
        param_error(
            func,
            key,
            f"the name of a column of the long table (one {key} value per item) with the "
            "long form",
            name,
            fix=f"Add the {key} values as a column and pass its name.",
        )
    (rows_item, rows_value), _ = table_columns(data, (item, name), func, ("item", key))
    what = "cluster" if key == "groups" else key
    first: dict[Any, Any] = {}
    for i, v in zip(_listed(rows_item), _listed(rows_value), strict=True):
        seen = first.setdefault(i, v)
        if seen != v and not (seen != seen and v != v):  # NaN twice is one value
            param_error(
                func,
                key,
                f"a column with one {what} per item",
                f"item {describe(i)} in two {what}s ({describe(seen)} and {describe(v)})",
                raw=True,
                fix=f"An item's rows must all carry its one {what}.",
            )
    out = np.empty(len(items), dtype=object)
    out[:] = [first.get(v) for v in _listed(items)]
    return out


def _listed(x: Any) -> list[Any]:
    """Return a column's values as Python objects (None where missing)."""
    if isinstance(x, Column):
        x = plain(x)
    elif hasattr(x, "iloc"):  # a pandas Series: missing values as None
        x = x.astype(object).where(x.notna(), None).to_numpy()
    return list(np.asarray(x, dtype=object).tolist()) if not isinstance(x, list) else x


def table_columns(
    data: Any, names: Sequence[Any], func: str, keys: Sequence[str] = LONG
) -> tuple[list[Any], Any]:
    """Return the named columns of a DataFrame, pyarrow Table or mapping, and its index.

    The columns of a polars, pyarrow or other frame narwhals reads come as
    :class:`Column` (categories and their order kept).
    """
    frame = as_frame(data, func) if is_foreign(data) else None
    if frame is not None:
        present: list[Any] = list(frame.columns)
        _named(present, names, func, keys)
        return [series_column(frame.get_column(name)) for name in names], None
    if hasattr(data, "column_names"):  # a pyarrow Table without narwhals: read by pandas
        present = list(data.column_names)
    elif hasattr(data, "columns") and not isinstance(data, np.ndarray):
        present = list(data.columns)
    elif isinstance(data, Mapping):
        present = list(data.keys())
    else:
        param_error(
            func,
            "ratings",
            "a table with one row per rating (a DataFrame, a pyarrow Table or a mapping "
            "of columns) when item=, rater= and rating= are given",
            f"a {type(data).__name__}",
            raw=True,
            exc=TypeError,
            fix="Pass the long table, or leave out item=, rater= and rating= for a "
            "matrix with one column per rater.",
        )
    _named(present, names, func, keys)
    columns = [_host(data[name]) for name in names]
    lengths = {len(c) for c in columns}
    if len(lengths) != 1:
        param_error(
            func, "ratings", "columns of one length", f"lengths {sorted(lengths)}", raw=True
        )
    return columns, getattr(data, "index", None)


def _host(x: Any) -> Any:
    """Return a pyarrow column as pandas (dictionary → Categorical), anything else as it is."""
    if type(x).__module__.startswith("pyarrow"):
        return x.to_pandas()
    return x


def _named(present: list[Any], names: Sequence[Any], func: str, keys: Sequence[str]) -> None:
    for key, name in zip(keys, names, strict=True):
        if name not in present:
            param_error(func, key, f"a column of ratings: {listing(present, 10)}", name)


def factorize(
    values: Any, func: str, name: str, appearance: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Return codes (−1 where missing) into the distinct values, in order of first appearance.

    Without ``appearance`` narrow integers may come in sorted order instead (items,
    whose order changes no coefficient).
    """
    if isinstance(values, Column) or is_foreign(values):
        values = plain(values if isinstance(values, Column) else column(values, func, name))
    dense = _dense(values, appearance)
    if dense is not None:
        return dense
    if "pandas" in sys.modules or type(values).__module__.startswith("pandas"):
        import pandas as pd

        if not hasattr(values, "dtype"):  # a list: ints as int64, anything else as objects
            ints = int_list(values) if type(values) in (list, tuple) else None
            values = ints if ints is not None else np.asarray(values, dtype=object)
        codes, uniques = pd.factorize(values)
        return np.asarray(codes, dtype=np.intp), np.asarray(uniques)
    c = column(values, func, name)
    codes = np.full(c.values.shape[0], -1, dtype=np.intp)
    present = np.ones(codes.shape[0], bool) if c.missing is None else ~c.missing
    seen = c.values[present]
    if seen.dtype.kind == "O":  # mixed types, which numpy cannot sort: a dict keeps them
        index = {v: i for i, v in enumerate(dict.fromkeys(seen.tolist()))}
        codes[present] = np.fromiter(map(index.__getitem__, seen.tolist()), np.intp, seen.size)
        return codes, _objects(list(index))
    uniques, first, inverse = np.unique(seen, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    codes[present] = rank[inverse]
    return codes, uniques[order]


def _dense(values: Any, appearance: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """Factorise integers of a narrow range through a lookup table, with no hashing.

    The codes are re-ranked by first appearance: the distinct values all
    appear in a prefix of the rows, usually a short one.
    """
    x = getattr(values, "values", values)  # a pandas Series or Index of int64
    if not isinstance(x, np.ndarray) or x.dtype.kind not in "iu" or x.ndim != 1 or not x.size:
        return None
    lo, hi = int(x.min()), int(x.max())
    if hi - lo > 2 * x.size:
        return None
    offset = x - lo if lo else x
    used = np.bincount(offset, minlength=hi - lo + 1) > 0
    n = int(used.sum())
    if not appearance:
        table = np.cumsum(used) - 1
        return table[offset], np.flatnonzero(used) + lo
    prefix = 1024
    while True:  # the prefix that holds every distinct value: its order of first appearance
        head = offset[:prefix]
        _, first = np.unique(head, return_index=True)
        if first.size == n or prefix >= x.size:
            break
        prefix *= 8
    order = head[np.sort(first)]
    table = np.empty(hi - lo + 1, dtype=np.intp)
    table[order] = np.arange(n)
    return table[offset], order + lo


def _objects(values: list[Any]) -> np.ndarray:
    """Return values as a 1-D object array (tuples stay elements)."""
    return np.fromiter(values, dtype=object, count=len(values))


def first_repeat(item: np.ndarray, rater: np.ndarray, n_raters: int) -> int | None:
    """Return the first row that rates an (item, rater) pair an earlier row rated, or None."""
    key = item.astype(np.int64) * n_raters + rater
    size = int(key.max()) + 1 if key.size else 0
    if size <= 4 * key.size + 1024:
        counts = np.bincount(key, minlength=size)
        if counts.max(initial=0) < 2:
            return None
        rows = np.flatnonzero(counts[key] > 1)  # the rows of repeated pairs: few
    else:  # sparse keys: a sort instead of a table
        order = np.argsort(key, kind="stable")
        same = key[order][1:] == key[order][:-1]
        if not same.any():
            return None
        rows = np.sort(order[1:][same])
        return int(rows[0])
    _, first = np.unique(key[rows], return_index=True)
    later = np.setdiff1d(np.arange(rows.size), first)
    return int(rows[later].min())


def where(position: int, index: Any) -> str:
    """Name a row: its position, and its index label where that differs."""
    label = None if index is None else _python_scalar(index[position])
    if label is None or (isinstance(label, int | np.integer) and label == position):
        return f"row {position}"
    return f"row {position} (index label {describe(label)})"


@dataclass(frozen=True)
class Rows:
    """Long-form rows, checked: item and rater codes, and the ratings as a :class:`Column`."""

    item: np.ndarray
    items: np.ndarray
    rater: np.ndarray | None
    raters: np.ndarray
    rated: Column


def rows(
    data: Any,
    names: Sequence[Any],
    func: str,
    keys: Sequence[str] = LONG,
    known: Sequence[Any] = (),
) -> Rows:
    """Read and check long-form rows: no missing item or rater, no pair rated twice.

    ``names`` are the columns of ``keys`` (item, rater, rating; or item, rating).
    ``known`` raters come first, in their order (an accumulator's raters so
    far); raters not among them follow in order of first appearance.
    """
    columns, index = table_columns(data, names, func, keys)
    item, items = factorize(columns[0], func, "item", appearance=False)
    _no_missing(item, "item", index, func)
    rater, raters = None, np.empty(0, dtype=object)
    if len(names) == 3:
        rater, raters = factorize(columns[1], func, "rater")
        _no_missing(rater, "rater", index, func)
        rater, raters = _after(rater, raters, tuple(known))
        repeat = first_repeat(item, rater, len(raters)) if item.size else None
        if repeat is not None:
            who, by = (_python_scalar(v) for v in (items[item[repeat]], raters[rater[repeat]]))
            param_error(
                func,
                "ratings",
                "one rating per (item, rater) pair",
                f"{where(repeat, index)} rating item {describe(who)} by rater {describe(by)} "
                "a second time",
                raw=True,
                fix="Keep one rating per pair, e.g. ratings.drop_duplicates([item, rater]).",
            )
    last = columns[-1]
    rated = last if isinstance(last, Column) else column(last, func, f"ratings[{names[-1]!r}]")
    return Rows(item, items, rater, raters, rated)


def _no_missing(codes: np.ndarray, key: str, index: Any, func: str) -> None:
    if codes.size and codes.min() < 0:
        row = int(np.argmax(codes < 0))
        param_error(
            func,
            key,
            f"a column with a{'n' if key == 'item' else ''} {key} on every row",
            f"no {key} at {where(row, index)}",
            raw=True,
            fix=f"Every rating needs its item and its rater; fill in the {key} or drop the row.",
        )


def pivot(data: Any, names: Sequence[Any], func: str, raters: Sequence[Any] = ()) -> Wide:
    """Pivot long-form ratings to one column per rater (see the module and :func:`rows`)."""
    found = rows(data, names, func, known=raters)
    assert found.rater is not None
    key = found.item.astype(np.int64) * len(found.raters) + found.rater
    return _placed(found.rated, key, found.items, tuple(found.raters.tolist()))


def _after(rater: np.ndarray, found: np.ndarray, known: tuple[Any, ...]) -> tuple[np.ndarray, Any]:
    """Renumber the raters so that the ``known`` come first, in their order."""
    if not known:
        return rater, found
    position = {r: i for i, r in enumerate(known)}
    new = [r for r in found.tolist() if r not in position]
    order = list(known) + new
    at = {r: i for i, r in enumerate(order)}
    remap = np.fromiter((at[r] for r in found.tolist()), np.intp, len(found))
    return remap[rater] if rater.size else rater, _objects(order)


def _placed(rated: Column, key: np.ndarray, items: np.ndarray, raters: tuple[Any, ...]) -> Wide:
    """Place each rating at its (item, rater) cell; cells no row rates are missing."""
    shape = (len(items), len(raters))
    x = rated.values
    full = key.size == shape[0] * shape[1] and rated.missing is None
    if rated.numeric and x.dtype.kind in "iu" and full:
        wide = np.empty(shape, dtype=x.dtype)
        wide.reshape(-1)[key] = x
        return Wide(raters, items, numeric=wide)
    exact = x.dtype.kind in "iu" and (x.size == 0 or int(np.abs(x).max()) < _EXACT_FLOAT)
    if rated.numeric and (x.dtype.kind == "f" or exact):
        wide = np.full(shape, np.nan)
        wide.reshape(-1)[key] = x
        if rated.missing is not None:
            wide.reshape(-1)[key[rated.missing]] = np.nan
        return Wide(raters, items, numeric=wide)
    values = np.zeros(shape, dtype=x.dtype) if x.dtype.kind != "O" else np.full(shape, None)
    values.reshape(-1)[key] = x
    missing = np.ones(shape, dtype=bool)
    missing.reshape(-1)[key] = False if rated.missing is None else rated.missing
    return Wide(raters, items, None, values, missing, rated.categories, rated.ordered)
