"""A long table given as wide: recognised and refused, naming its columns.

Annotation exports are long (one row per rating: item, rater, label). Read as
wide, such a table makes each of its columns a rater, and every coefficient is
a wrong number given without a word. A table *looks long* when three of its
columns play these roles, all at once:

* an **item** column whose values repeat (each item has several rows);
* a **rater** column with at least two distinct values, each rater on
  several rows, none of which occurs in the item or the rating column
  (rater names are not labels), and no (item, rater) pair on two rows;
* a **rating** column, the third.

The columns of a genuine wide table are raters using one scale, so no column
is disjoint from the others and none is taken for the rater column; an id
column holds distinct values, so it is not an item column either. Tables of
3 to :data:`MAX_COLUMNS` columns are checked: on :data:`SAMPLE_ROWS` rows
spread over the table, then, if some column could be the raters', on all rows.
``form="wide"`` (the command line: ``--raters`` or ``--id``) says that the
table is wide and skips the check.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import permutations
from typing import Any

import numpy as np

from concord._common.errors import ForCli, param_error
from concord._data.columns import Column, _python_scalar
from concord._data.convert import is_missing

FORMS = ("auto", "wide")
MAX_COLUMNS = 6
SAMPLE_ROWS = 2_000


def check_form(form: Any, func: str) -> str:
    """Return ``form`` ("auto" or "wide"), or raise naming the choices."""
    if not isinstance(form, str) or form not in FORMS:
        param_error(
            func,
            "form",
            "'auto' (refuse a table that looks long) or 'wide' (one column per rater)",
            form,
            fix="For a long table pass item=, rater= and rating= instead.",
        )
    return form


def plain(c: Column) -> np.ndarray:
    """Return a column's values themselves: categories decoded, None where missing."""
    if c.categories is None and c.missing is None:
        return c.values
    decoded = np.empty(c.values.shape[0], dtype=object)
    if c.categories is None:
        decoded[:] = c.values.tolist()
    else:
        table = np.empty(len(c.categories) + 1, dtype=object)
        table[:-1] = [_python_scalar(v) for v in c.categories]
        decoded[:] = table[np.where(c.values < 0, -1, c.values)]
    if c.missing is not None:
        decoded[c.missing] = None
    return decoded


def long_roles(names: Sequence[Any], values: Sequence[Any]) -> tuple[Any, Any, Any] | None:
    """Return the (item, rater, rating) column names of a table that looks long, or None.

    ``values`` are the columns, each a 1-D sequence (a Series, an array, a
    :class:`Column`), in the order of ``names``. The distinct values of
    :data:`SAMPLE_ROWS` rows spread over the table rule out a genuine wide
    table at once (its columns share values); a table that passes is
    checked on every row.
    """
    if not 3 <= len(names) <= MAX_COLUMNS:
        return None
    rows = len(values[0]) if not isinstance(values[0], Column) else values[0].values.shape[0]
    if rows < 4:
        return None
    rows_taken = _sample(rows)
    try:
        sample = [_objects(v, rows_taken) for v in values]
        candidates = list(_candidates(sample))
        for found in candidates:
            full = [_objects(values[j], None) for j in found]
            if _roles(full):
                i, r, k = found
                return names[i], names[r], names[k]
    except TypeError:  # unhashable ratings (lists, say): not the three columns of a long table
        return None
    return None


def _sample(rows: int) -> np.ndarray | None:
    """Rows to look at first: the first ones, and others spread over the table.

    The first rows hold every rater of the first items when the table is
    sorted by item; the spread ones, taken every p-th row for a prime p,
    hold every rater when it is sorted by rater (a step that is a multiple
    of the raters per item would see one rater only).
    """
    if rows <= SAMPLE_ROWS:
        return None
    half = SAMPLE_ROWS // 2
    step = _prime_above((rows - half) // half)
    return np.concatenate([np.arange(half), np.arange(half, rows, step)])


def _prime_above(n: int) -> int:
    """Return the smallest prime at least ``n`` (and at least 2)."""
    p = max(n, 2)
    while any(p % d == 0 for d in range(2, int(p**0.5) + 1)):
        p += 1
    return p


def _candidates(cols: list[np.ndarray]) -> Iterator[tuple[int, int, int]]:
    """(item, rater, rating) positions whose sampled values could be a long table's."""
    present = [_present(c) for c in cols]
    distinct = [set(p) for p in present]
    for i, r, k in permutations(range(len(cols)), 3):
        if len(distinct[r]) < 2 or len(distinct[r]) >= len(present[r]):
            continue  # one rater, or no rater on two rows: an id column, say
        if not distinct[r] & distinct[k] and not distinct[r] & distinct[i]:
            yield i, r, k  # rater values found among neither the labels nor the items


def _roles(cols: list[np.ndarray]) -> bool:
    """Whether item, rater and rating columns (every row) play their parts."""
    present = [_present(c) for c in cols]
    item, rater, rating = (set(p) for p in present)
    if len(rater) < 2 or len(rater) >= len(present[1]) or len(item) >= len(present[0]):
        return False  # one rater, raters of one item each, or no item on two rows
    if rater & rating or rater & item:
        return False
    return _pairs_unique(cols[0], cols[1])


def _objects(x: Any, rows: np.ndarray | None) -> np.ndarray:
    """Return a column's values at ``rows`` (all if None); missing ones as they come."""
    if isinstance(x, Column):
        if rows is None:
            return plain(x)
        missing = None if x.missing is None else x.missing[rows]
        return plain(Column(x.values[rows], missing, x.categories))
    if hasattr(x, "iloc"):  # a pandas Series: missing values (NaN, pd.NA) stay as they are
        return np.asarray((x if rows is None else x.iloc[rows]).to_numpy())
    out = np.asarray(x)
    return out if rows is None else out[rows]


def _present(c: np.ndarray) -> list[Any]:
    """Return the values that are not missing (None, NaN, pd.NA, NaT)."""
    values: list[Any] = c.tolist()
    if c.dtype.kind in "iub":
        return values
    if c.dtype.kind == "f":
        return [v for v in values if v == v]
    return [v for v in values if not is_missing(v)]


def _pairs_unique(item: np.ndarray, rater: np.ndarray) -> bool:
    seen = set()
    for pair in zip(item.tolist(), rater.tolist(), strict=True):
        if pair in seen:
            return False
        seen.add(pair)
    return True


def quoted(name: Any) -> str:
    return f'"{name}"' if isinstance(name, str) and '"' not in name else repr(name)


def refuse_long(
    func: str,
    roles: tuple[Any, Any, Any],
    param: str = "ratings",
    head: str = "df",
    tail: str = "",
    wide: str = "pass form='wide'",
) -> None:
    """Raise: the ratings look long; show the long-form call and how to say they are wide.

    ``head`` and ``tail`` are the call's arguments before and after the long
    form's (``df, "gpt_judge"``; ``, raters=(...)``).
    """
    item, rater, rating = roles
    named = f"item={quoted(item)}, rater={quoted(rater)}, rating={quoted(rating)}"
    call = f"{func}({head}, {named}{tail})"
    param_error(
        func,
        param,
        "one column per rater, or a long table named by item=, rater= and rating=",
        f"a table that looks long: column {item!r} repeats its values (an item on several "
        f"rows), column {rater!r} holds names found in no other column (raters) with no "
        f"(item, rater) pair twice, and column {rating!r} holds the ratings",
        raw=True,
        fix=f"Read as one column per rater it would make {item!r}, {rater!r} and {rating!r} "
        f"raters. Pass {call}; if each column really is a rater, {wide}.",
        cli=ForCli(
            expected="one column per rater, or a long table read with --item, --rater and "
            "--rating",
            fix=f"Read it as long with --item {item} --rater {rater} --rating {rating}, or "
            "name the rater columns with --raters to read it as one column per rater.",
        ),
    )


def check_wide(
    ratings: Any, func: str, form: str, param: str = "ratings", head: str = "df", tail: str = ""
) -> None:
    """Refuse a frame that looks long, unless ``form`` says it is wide (:func:`refuse_long`)."""
    if check_form(form, func) == "wide":
        return
    roles = looks_long(ratings)
    if roles is not None:
        refuse_long(func, roles, param, head, tail)


def looks_long(ratings: Any) -> tuple[Any, Any, Any] | None:
    """Return the (item, rater, rating) columns of a frame that looks long, else None."""
    names, values = _frame_columns(ratings)
    return None if names is None else long_roles(names, values)


def _frame_columns(ratings: Any) -> tuple[Any, Any]:
    cols = getattr(ratings, "cols", None)  # a Wide read from a polars or pyarrow frame
    if cols is not None:
        return ratings.raters, cols
    if type(ratings).__module__.startswith("pandas") and hasattr(ratings, "iloc"):
        if getattr(ratings, "ndim", 0) != 2 or not 3 <= ratings.shape[1] <= MAX_COLUMNS:
            return None, None
        return tuple(ratings.columns), [ratings.iloc[:, j] for j in range(ratings.shape[1])]
    return None, None
