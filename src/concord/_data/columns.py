"""Turn user-supplied ratings into validated 1-D numpy arrays with a missing-value mask.

Accepted: lists and tuples, numpy arrays of bool, int, uint, float, str or
object dtype, pandas Series, Index and Categorical (pandas is never imported
here: its objects are recognised by their attributes), and arrays of
PyTorch, CuPy and JAX, copied to the host when they reach this module (see
:mod:`concord._data.arrays`). A missing rating is NaN, None or pd.NA.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._common.errors import ForCli, describe, fail, param_error
from concord._data.arrays import to_host
from concord._data.convert import (
    MAX_STR_WIDTH,
    arrow_strings,
    factorized,
    int_list,
    object_missing,
    pandas_strings,
)
from concord._data.frames import as_series, is_foreign, series_parts
from concord._data.sets import has_label_sets, read_sets

_NUMERIC_KINDS = "biuf"
_EXACT_FLOAT = 2**53


@dataclass(frozen=True)
class Column:
    """One rater's ratings.

    ``values`` is 1-D; where ``missing`` is true the value is meaningless.
    ``categories`` is set for pandas Categoricals, whose ``values`` are then
    the integer codes; ``ordered`` says whether their order is declared.
    Strings read with ``coded=True`` are held the same way, as codes into
    their sorted distinct values (unordered).
    """

    values: np.ndarray
    missing: np.ndarray | None
    categories: tuple[Any, ...] | None = None
    ordered: bool = False

    @property
    def numeric(self) -> bool:
        return self.categories is None and self.values.dtype.kind in _NUMERIC_KINDS

    def take(self, keep: np.ndarray) -> Column:
        """Return the ratings where ``keep`` is true, with no missing values left."""
        return Column(self.values[keep], None, self.categories, self.ordered)

    def decoded(self) -> np.ndarray:
        """Return the ratings themselves (category values rather than codes).

        Call it only on complete columns: a missing rating has no value.
        """
        if self.categories is None:
            return self.values
        decoded: np.ndarray = label_array(self.categories)[self.values]
        return decoded


def _from_pandas(x: Any, coded: bool) -> Column | np.ndarray:
    """Unwrap a pandas object without importing pandas."""
    dtype = getattr(x, "dtype", None)
    if getattr(dtype, "name", "") == "category":
        cat = x.array if hasattr(x, "array") else x
        codes = np.asarray(cat.codes)  # int8 or int16 codes are counted as they are
        missing = codes < 0
        categories = tuple(_python_scalar(c) for c in cat.categories)
        return Column(codes, missing if missing.any() else None, categories, bool(cat.ordered))
    encoded = arrow_strings(x) if coded else None
    if encoded is not None:
        return Column(encoded[0], encoded[1], encoded[2])
    numpy_dtype = getattr(dtype, "numpy_dtype", None)  # nullable Int64, UInt64, boolean
    # isna(), not hasnans: a bare IntegerArray or BooleanArray has no hasnans
    if getattr(dtype, "kind", "O") in "iub" and numpy_dtype is not None and x.isna().any():
        # the integers themselves and a mask, never floats: 2**53 + 1 stays exact
        fill = False if numpy_dtype.kind == "b" else 0
        values = np.asarray(x.to_numpy(dtype=numpy_dtype, na_value=fill))
        return Column(values, np.asarray(x.isna(), dtype=bool))
    if hasattr(x, "to_numpy"):
        return np.asarray(x.to_numpy())
    return np.asarray(x)


def _python_scalar(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def column(x: Any, func: str, name: str, *, coded: bool = False, host: bool = False) -> Column:
    """Validate one rater's ratings and return them as a :class:`Column`.

    With ``coded``, strings come as codes into their sorted distinct values
    (``categories``), as Categoricals do, rather than as a str array. With
    ``host``, the caller has already decided that ``x`` is no device array.
    """
    if isinstance(x, str | bytes) or np.isscalar(x) or x is None:
        param_error(func, name, "a 1-D array-like of ratings", x, exc=TypeError)
    if not host:
        x = to_host(x)  # PyTorch, CuPy or JAX arrays that take the numpy path
    if is_foreign(x):  # polars, pyarrow, ...: read through narwhals
        return _foreign(x, func, name, coded)
    if type(x).__module__.startswith("pandas"):
        raw = _from_pandas(x, coded)
        if isinstance(raw, Column):
            return raw
    else:
        raw = _from_sequence(x, func, name)
    if raw.ndim != 1:
        fix = "Pass one rater's ratings, e.g. data[:, 0]." if raw.ndim == 2 else ""
        if raw.ndim == 2 and type(x) in (list, tuple):
            fix += " If each element is one item's set of labels, pass sets (frozenset)."
        param_error(func, name, "1-D", f"an array of shape {raw.shape}", fix=fix, raw=True)
    if raw.dtype.kind == "c":
        param_error(func, name, "real or categorical ratings", raw.dtype, exc=TypeError)
    return _with_missing(raw, coded, func, name)


def _foreign(x: Any, func: str, name: str, coded: bool) -> Column:
    """One column of polars, pyarrow or another library narwhals reads (see :mod:`.frames`)."""
    s = as_series(x, func)
    if s is None:
        param_error(
            func,
            name,
            "a 1-D array-like of ratings",
            f"a {type(x).__name__}",
            fix="Pass one rater's ratings, e.g. one column of the frame.",
            raw=True,
            exc=TypeError,
        )
    return series_column(s, coded)


def series_column(s: Any, coded: bool = False) -> Column:
    """Return a narwhals Series as a :class:`Column` (categories kept, integers exact)."""
    values, missing, categories, ordered = series_parts(s)
    if categories is not None:
        return Column(values, missing, categories, ordered)
    if missing is not None and values.dtype.kind in "iub":  # exact integers and a mask
        return Column(values, missing)
    return _with_missing(values, coded)


def _from_sequence(x: Any, func: str, name: str) -> np.ndarray:
    if isinstance(x, np.ndarray):
        return x
    ints = int_list(x) if type(x) in (list, tuple) else None
    if ints is not None:
        return ints
    try:
        # Sequences go through object dtype: np.asarray([1, "1"]) would make both "1".
        return np.asarray(x, dtype=object)
    except ValueError:  # ragged nested lists
        param_error(func, name, "a 1-D array-like of ratings", x, exc=ValueError)


def _with_missing(raw: np.ndarray, coded: bool, func: str = "", name: str = "ratings") -> Column:
    if raw.dtype.kind == "f":
        mask = np.isnan(raw)
        return Column(raw, mask if mask.any() else None)
    if raw.dtype.kind != "O":
        return Column(raw, None)
    if coded and "pandas" in sys.modules:  # its type inference is faster than ours
        strings = pandas_strings(raw)
        if strings is not None:
            codes, mask, labels = strings
            return Column(codes, mask if mask.any() else None, labels)
    mask, kinds = object_missing(raw)
    if has_label_sets(kinds):  # sets, lists, tuples: one frozenset per item, empty = missing
        sets, mask = read_sets(raw, mask, func, name)
        return Column(sets, mask if mask.any() else None)
    some = mask if mask.any() else None
    if coded and kinds and all(issubclass(t, str) for t in kinds):
        encoded = factorized(raw, mask)
        if encoded is not None:
            return Column(encoded[0], some, encoded[1])
    return Column(narrow_object(raw, mask, kinds), some)


def narrow_object(raw: np.ndarray, mask: np.ndarray, kinds: set[type] | None = None) -> np.ndarray:
    """Give an object array of numbers (or of strings) a numeric (or str) dtype.

    Integers stay exact: int64, else uint64, else Python ints (object). Numbers
    mixing ints and floats become float64 only while every int is below 2**53
    in magnitude; otherwise they stay Python objects, which compare exactly.
    Strings get a fixed-width str dtype only when it stays small
    (:data:`MAX_STR_WIDTH`): one long string must not widen every element.
    ``kinds``, when known, are the types of the values where ``mask`` is false.
    """
    present = raw[~mask]
    if kinds is None:
        kinds = set(map(type, present))
    if not kinds:
        return raw
    if all(issubclass(t, bool | np.bool_) for t in kinds):
        return _filled(raw, mask, present, np.dtype(bool), False)
    if all(issubclass(t, int | np.integer) for t in kinds):
        lo, hi = present.min(), present.max()
        for dtype in (np.int64, np.uint64):
            if np.iinfo(dtype).min <= lo and hi <= np.iinfo(dtype).max:
                return _filled(raw, mask, present, np.dtype(dtype), 0)
        return raw  # Python ints beyond 64 bits: exact as objects
    if all(issubclass(t, int | float | np.integer | np.floating) for t in kinds):
        if _exact_as_floats(present):
            return _filled(raw, mask, present, np.dtype(np.float64), np.nan)
        return raw  # float64 would merge 2**53 + 1 with 2**53
    if all(issubclass(t, str) for t in kinds):
        return _narrow_strings(raw, mask, present)
    return raw


def _narrow_strings(raw: np.ndarray, mask: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Strings as a fixed-width str array while they are short, else as objects ("" if missing)."""
    if max(map(len, present)) <= MAX_STR_WIDTH:
        narrow: np.ndarray = np.where(mask, "", raw).astype(str)
        return narrow
    out: np.ndarray = raw.copy()
    out[mask] = ""
    return out


def _exact_as_floats(present: np.ndarray) -> bool:
    """Whether every int among these numbers is below 2**53 in magnitude (exact as float64)."""
    try:
        if np.abs(present.astype(np.float64)).max() < _EXACT_FLOAT:
            return True  # an int of 2**53 or more would stay at least 2**53 as a float
    except OverflowError:  # an int beyond float64
        pass
    ints = [v for v in present if isinstance(v, int | np.integer)]
    return not ints or max(abs(int(v)) for v in ints) < _EXACT_FLOAT


def _filled(
    raw: np.ndarray, mask: np.ndarray, present: np.ndarray, dtype: np.dtype[Any], fill: Any
) -> np.ndarray:
    """``present`` as ``dtype`` where ``mask`` is false, ``fill`` where it is true."""
    out = np.full(raw.shape[0], fill, dtype=dtype)
    out[~mask] = present.astype(dtype)
    return out


def label_array(values: Any) -> np.ndarray:
    """Return labels or categories as an array, as Python objects when they are long strings."""
    try:
        arr: np.ndarray = np.asarray(values)
    except OverflowError:  # ints beyond 64 bits
        arr = np.empty(0, dtype=object)
    wide = arr.dtype.kind == "U" and arr.dtype.itemsize > 4 * MAX_STR_WIDTH
    rounded = arr.dtype.kind == "f" and any(
        isinstance(v, int | np.integer) and abs(int(v)) >= _EXACT_FLOAT for v in values
    )
    if wide or rounded or arr.dtype.kind == "O":
        out = np.empty(len(values), dtype=object)
        out[:] = list(values)
        return out
    return arr


def check_pair(c1: Column, c2: Column, func: str) -> None:
    """Check that two raters rated the same, non-zero number of items."""
    n1, n2 = c1.values.shape[0], c2.values.shape[0]
    if n1 != n2:
        param_error(
            func,
            "rater2",
            f"as long as 'rater1' ({n1} ratings)",
            f"{n2} ratings",
            fix="Both raters must rate the same items, in the same order.",
            raw=True,
        )
    if n1 == 0:
        param_error(func, "rater1", "non-empty", "an empty array", raw=True)


def sample_weights(w: Any, n: int, func: str, *, host: bool = False) -> np.ndarray | None:
    """Validate per-pair weights: 1-D, length n, finite and non-negative (``host``: no device)."""
    if w is None:
        return None
    try:
        arr = np.asarray(w if host else to_host(w), dtype=np.float64)
    except (TypeError, ValueError):
        param_error(func, "sample_weight", "an array of numbers", w, exc=TypeError)
    if arr.shape != (n,):
        param_error(func, "sample_weight", f"1-D of length {n}", f"shape {arr.shape}", raw=True)
    bad = ~np.isfinite(arr) | (arr < 0)
    if bad.any():
        shown = describe(arr[bad][:3].tolist())
        param_error(func, "sample_weight", "finite and non-negative", f"values {shown}", raw=True)
    return arr


def check_some_weight(weight: np.ndarray | None, func: str) -> None:
    """Refuse sample weights that are all zero: they leave nothing to rate."""
    if weight is not None and weight.size and not weight.any():
        param_error(
            func,
            "sample_weight",
            "positive for at least one pair",
            f"{weight.size:,} zeros",
            raw=True,
            fix="All-zero weights are empty input: there is nothing to rate.",
        )


def omit_missing(
    cols: list[Column],
    weight: np.ndarray | None,
    nan_policy: str,
    func: str,
    *,
    allow_empty: bool = False,
) -> tuple[list[Column], np.ndarray | None]:
    """Apply ``nan_policy`` to aligned columns: raise on a missing rating, or drop its item.

    With ``allow_empty`` (a batch of a stream), dropping every item is not an error.
    """
    masks = [c.missing for c in cols if c.missing is not None]
    if not masks:
        return cols, weight
    missing = np.logical_or.reduce(masks)
    if nan_policy == "raise":
        first = int(np.argmax(missing))
        where = next(i for i, c in enumerate(cols) if c.missing is not None and c.missing[first])
        name = f"rater{where + 1}"
        param_error(
            func,
            "nan_policy",
            "'omit' when ratings are missing",
            f"'raise' and {int(missing.sum())} pairs with a missing rating (NaN, None or pd.NA; "
            f"the first at position {first} of {name!r})",
            fix="Pass nan_policy='omit' to drop those pairs.",
            raw=True,
            cli=ForCli(
                expected="omit when ratings are missing",
                got=f"raise and {int(missing.sum())} pairs with a missing rating",
                fix="Pass {nan_policy} omit to drop those pairs.",
            ),
        )
    keep = ~missing
    if not keep.any() and not allow_empty:
        fail(
            f"{func} has nothing to rate: every item has a missing rating, so "
            "nan_policy='omit' leaves no item. Check the columns passed as raters.",
            cli="Nothing to rate: every item has a missing rating, so {nan_policy} omit "
            "leaves no item. Check {rater1} and {rater2}.",
        )
    return [c.take(keep) for c in cols], None if weight is None else weight[keep]


def is_integral_number(v: Any) -> bool:
    """Return True for an int, or a float with no fractional part."""
    return isinstance(v, int | np.integer) or (isinstance(v, float) and v.is_integer())


def integral_floats(
    x: np.ndarray, declared: tuple[Any, ...] | None, func: str, name: str
) -> np.ndarray | None:
    """Return integral floats as int64; None if they must be looked up as they are.

    None when some are fractional and ``labels`` are declared, or when they
    are whole numbers beyond int64 (every float is exact, so they stay floats).
    """
    finite = np.isfinite(x)
    if not finite.all():
        param_error(
            func,
            name,
            "finite",
            f"{x[~finite][0]!r}",
            raw=True,
            fix="Missing ratings are NaN; infinite ones have no category.",
            cli=ForCli(
                got=repr(float(x[~finite][0])),
                fix="An infinite rating has no category; a missing one is an empty cell.",
            ),
        )
    fractional = x != np.round(x)
    if not fractional.any() and np.abs(x).max(initial=0) >= 2**63:
        return None  # whole numbers beyond int64: labels as floats, which are exact
    if fractional.any():
        if declared is not None:
            return None  # the lookup names the ratings missing from 'labels'
        param_error(
            func,
            name,
            "integral (whole-number) ratings when 'labels' is not given",
            f"non-integral values such as {x[fractional][0]!r}",
            fix=(
                "This looks like a regression output. Round it to grades (np.rint), cut it "
                "at chosen thresholds (np.digitize), or declare the categories with labels=[...]."
            ),
            raw=True,
            cli=ForCli(
                expected="integral (whole-number) ratings when {labels} is not given",
                got=f"non-integral values such as {float(x[fractional][0])!r}",
                fix="This looks like a regression output. Round it to grades, fit cut points "
                "with concord thresholds, or declare the categories with {labels}.",
            ),
        )
    return x.astype(np.int64)


def categorical_order(
    declared: tuple[Any, ...] | None, cols: list[Column], func: str
) -> tuple[Any, ...] | None:
    """Return the declared labels, or else the order of the ordered pandas Categoricals."""
    if declared is not None:
        return declared
    orders = {c.categories for c in cols if c.ordered and c.categories is not None}
    if len(orders) > 1:
        param_error(
            func,
            "labels",
            "given when the ordered Categoricals differ",
            "None",
            fix="Pass labels=[...] with the order to use.",
            raw=True,
            cli=ForCli(fix="Declare the order with {labels}."),
        )
    return orders.pop() if orders else None


def _series(x: Any) -> bool:
    """Whether ``x`` is a pandas Series (recognised without importing pandas)."""
    return type(x).__module__.startswith("pandas") and hasattr(x, "index") and hasattr(x, "iloc")


def paired(x1: Any, x2: Any, func: str, names: tuple[str, str] = ("rater1", "rater2")) -> Any:
    """Pair two pandas Series by index label; return ``(x1, x2)`` in one row order.

    Identical indexes pair as they are; the same labels in another order are
    aligned on ``x1``'s order (as :mod:`concord.dask` pairs them). Other
    label sets, or repeated labels in differing indexes, are an error. Any
    other pair of inputs pairs by position, unchanged.
    """
    if not (_series(x1) and _series(x2)) or x1.index.equals(x2.index):
        return x1, x2
    if x1.index.is_unique and x2.index.is_unique and len(x1) == len(x2):
        order = np.asarray(x2.index.get_indexer(x1.index))
        if (order >= 0).all():
            return x1, x2.iloc[order]
    missing = x1.index.difference(x2.index, sort=False)
    extra = x2.index.difference(x1.index, sort=False)
    if len(missing) or len(extra):
        example = listing(list(missing if len(missing) else extra), 3)
        got = (
            f"an index missing {len(missing):,} labels of {names[0]!r} and holding "
            f"{len(extra):,} others, such as {example}"
        )
    else:
        got = "a differing index with repeated labels"
    param_error(
        func,
        names[1],
        f"a Series with the index labels of {names[0]!r}, since two Series pair by index",
        got,
        raw=True,
        fix=f"To pair by position, pass {names[0]}.reset_index(drop=True) and "
        f"{names[1]}.reset_index(drop=True); to keep the shared labels only, "
        f"{names[0]}.align({names[1]}, join='inner').",
    )


def paired_weight(x1: Any, weight: Any, func: str, name: str = "rater1") -> Any:
    """Pair a ``sample_weight`` Series with a rater Series by index label, as raters pair.

    Without this a shuffled weight Series would weigh each item by another
    item's weight. Any other pair of inputs pairs by position, unchanged.
    """
    if weight is None:
        return None
    return paired(x1, weight, func, (name, "sample_weight"))[1]


def listing(values: Any, limit: int = 5) -> str:
    """Return the first ``limit`` values, each shortened, and how many more there are."""
    shown = ", ".join(describe(v, 40) for v in list(values)[:limit])
    more = len(values) - limit
    return f"{shown} and {more:,} more" if more > 0 else shown
