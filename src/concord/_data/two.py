"""Two raters out of a table: the long form, or two named columns of a wide frame.

Every function of two raters takes them as two columns (``rater1``, ``rater2``)
or, with ``raters=("a", "b")``, as two names: the columns of a wide frame
(pandas, polars, pyarrow) given as the first argument, or, with ``item=``,
``rater=`` and ``rating=``, two raters of a long table, pivoted as the
multi-rater functions pivot it (:func:`concord._data.long.pivot`). A long
table of exactly two raters needs no ``raters=``. Per-item options
(``groups``, ``sample_weight``) then name columns of the long table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from concord._common.errors import param_error
from concord._data.columns import Column, listing
from concord._data.form import check_wide, looks_long, plain, quoted, refuse_long
from concord._data.frames import as_frame, is_foreign
from concord._data.long import keys, per_item, pivot
from concord._data.wide import Wide, foreign_wide


def two_raters(
    func: str,
    x: Any,
    y: Any,
    long: tuple[Any, Any, Any],
    raters: Any,
    labels: Any = None,
    per_items: dict[str, Any] | None = None,
) -> tuple[Any, Any, Any, dict[str, Any]]:
    """Return the two raters' ratings, the labels and the per-item options, resolved.

    Plain calls (two columns, no ``raters``, no long form) come back unchanged.
    """
    given = keys(func, *long)
    extra = dict(per_items or {})
    if given is None and raters is None:
        if y is None:
            roles = _long_roles(x, func)
            if roles is not None:
                hint = "name two of them with raters=('a', 'b')"
                refuse_long(func, roles, "rater1", tail=", raters=('a', 'b')", wide=hint)
            param_error(
                func,
                "rater2",
                "the second rater's ratings",
                "None",
                raw=True,
                fix="Pass two columns, or a frame and raters=('a', 'b') to name two of its "
                "columns, or a long table with item=, rater=, rating= (and raters=).",
                exc=TypeError,
            )
        return x, y, labels, extra
    if y is not None:
        param_error(
            func,
            "rater2",
            "left out when raters= or the long form names the raters",
            y,
            fix="Pass the table alone as the first argument.",
            exc=TypeError,
        )
    if given is None:
        first, second = _pair(func, raters, None)
        return _wide_column(x, first, func), _wide_column(x, second, func), labels, extra
    wide = pivot(x, given, func)
    first, second = _pair(func, raters, tuple(wide.raters))
    cols = wide.columns()
    a, b = (cols[wide.raters.index(r)] for r in (first, second))
    for key, value in extra.items():
        if value is not None:
            extra[key] = per_item(x, given[0], value, key, wide.items, func)
    if labels is None and a.ordered and a.categories is not None:
        labels = list(a.categories)  # an ordered Categorical or pl.Enum declares its order
    return _named(_values(a), first), _named(_values(b), second), labels, extra


def _long_roles(x: Any, func: str) -> tuple[Any, Any, Any] | None:
    """Return the long roles of a frame given alone as the first rater, else None."""
    if not is_foreign(x):
        return looks_long(x)
    return None if as_frame(x, func) is None else looks_long(foreign_wide(x, func))


def _pair(func: str, raters: Any, found: tuple[Any, ...] | None) -> tuple[Any, Any]:
    """Check ``raters`` (two names); with the long form's ``found`` raters, default to them."""
    if raters is None and found is not None and len(found) == 2:
        return found[0], found[1]
    shown = "" if found is None else f" The table's raters: {listing(found, 10)}."
    named = not isinstance(raters, str | bytes) and hasattr(raters, "__iter__")
    if not named or len(tuple(raters)) != 2:
        param_error(
            func,
            "raters",
            "two rater names, e.g. raters=('a', 'b')",
            raters,
            fix=f"Name the two raters to compare.{shown}",
        )
    first, second = tuple(raters)
    if first == second:
        param_error(func, "raters", "two different raters", raters)
    if found is not None:
        for name in (first, second):
            if name not in found:
                param_error(
                    func, "raters", f"raters of the long table ({listing(found, 10)})", name
                )
    return first, second


def _wide_column(data: Any, name: Any, func: str) -> Any:
    """Column ``name`` of a wide frame (pandas, polars, pyarrow), as that library holds it."""
    if is_foreign(data):
        frame = as_frame(data, func)
        if frame is not None and name in frame.columns:
            return frame.get_column(name).to_native()
        present = [] if frame is None else list(frame.columns)
    elif hasattr(data, "columns") and not isinstance(data, np.ndarray):
        present = list(data.columns)
        if name in present:
            return data[name]
    else:
        present = []
    if not present:
        param_error(
            func,
            "rater1",
            "a DataFrame whose columns raters= names",
            f"a {type(data).__name__}",
            raw=True,
            exc=TypeError,
        )
    return param_error(func, "raters", f"columns of the frame: {listing(present, 10)}", name)


class _Named(np.ndarray):
    """A pivoted rater's values that keep the rater's name (``.name``, as a Series has)."""

    name: str | None = None


def _named(values: np.ndarray, name: Any) -> np.ndarray:
    """Return ``values`` as a view that carries ``name``, so results keep the rater's name."""
    out = values.view(_Named)
    out.name = str(name)
    return out


def _values(c: Column) -> np.ndarray:
    """One pivoted rater as a plain array: numbers (NaN where missing) or objects (None)."""
    if c.categories is None and c.values.dtype.kind == "f":
        return c.values
    if c.categories is None and c.missing is None:
        return c.values
    return plain(c)


def split_one(
    func: str,
    data: Any,
    one: Any,
    names: tuple[str, str],
    long: tuple[Any, Any, Any],
    form: str,
) -> tuple[Any, Any, tuple[Any, ...] | None]:
    """Split one rater (a candidate, the gold) from the others: a column name or a rater name.

    ``names`` are the parameters' names (``("humans", "candidate")``). With the
    long form ``one`` names a rater of the long table; otherwise a column name
    picks a column of a wide frame, and an array is that rater's ratings
    beside ``data``. Returns the others (a pandas frame as given, else a
    :class:`~concord._data.long.Wide`), the one rater's ratings, and the
    order of an ordered categorical column (None otherwise).
    """
    given = keys(func, *long)
    if given is not None:
        wide = pivot(data, given, func)
        if not isinstance(one, str | int) or one not in wide.raters:
            param_error(
                func,
                names[1],
                f"a rater of the long table ({listing(wide.raters, 10)})",
                one,
                fix=f"With the long form, name the {names[1]} among the raters.",
            )
        return _without(wide, one)
    by_name = isinstance(one, str | int) and not isinstance(one, bool)
    head = f"df, {quoted(one)}" if by_name else f"df, {names[1]}"
    if is_foreign(data):
        wide = foreign_wide(data, func)
        if not by_name:
            check_wide(wide, func, form, names[0], head)
            return wide, one, None
        _named_column(wide, tuple(wide.raters), one, names, func, (form, head))
        return _without(wide, one)
    if by_name and hasattr(data, "columns") and hasattr(data, "drop"):  # a pandas DataFrame
        _named_column(data, tuple(data.columns), one, names, func, (form, head))
        return data.drop(columns=[one]), data[one], None
    if not by_name:
        check_wide(data, func, form, names[0], head)
    return data, one, None


def _named_column(
    data: Any,
    present: tuple[Any, ...],
    one: Any,
    names: tuple[str, str],
    func: str,
    call: tuple[str, str],
) -> None:
    if one in present:
        return
    check_wide(data, func, call[0], names[0], call[1])  # a long table: the long-form call
    param_error(func, names[1], f"a column of {names[0]} ({listing(present, 10)})", one)


def _without(wide: Wide, one: Any) -> tuple[Wide, Any, tuple[Any, ...] | None]:
    """Return the other raters of ``wide``, rater ``one``'s ratings, and its declared order."""
    cols = wide.columns()
    at = list(wide.raters).index(one)
    rest = tuple(c for j, c in enumerate(cols) if j != at)
    raters = tuple(r for j, r in enumerate(wide.raters) if j != at)
    chosen = cols[at]
    order = chosen.categories if chosen.ordered else None
    return Wide(raters, wide.items, cols=rest), _values(chosen), order


def wide_values(data: Wide) -> tuple[tuple[Any, ...], np.ndarray]:
    """Return the raters of a :class:`Wide` and its ratings as objects (None: missing)."""
    cols = [plain(c) for c in data.columns()]
    matrix = np.empty((len(data.items), len(cols)), dtype=object)
    for j, c in enumerate(cols):
        matrix[:, j] = c.tolist()
    return tuple(data.raters), matrix
