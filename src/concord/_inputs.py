"""Turn user-supplied ratings into validated 1-D numpy arrays with a missing-value mask.

Accepted: lists and tuples, numpy arrays of bool, int, uint, float, str or
object dtype, pandas Series, Index and Categorical (pandas is never imported
here: its objects are recognised by their attributes), and arrays of
PyTorch, CuPy and JAX, copied to the host when they reach this module (see
:mod:`concord._device`). A missing rating is NaN, None or pd.NA.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._device import to_host
from concord._errors import describe, param_error

_NUMERIC_KINDS = "biuf"
_EXACT_FLOAT = 2.0**53


@dataclass(frozen=True)
class Column:
    """One rater's ratings.

    ``values`` is 1-D; where ``missing`` is true the value is meaningless.
    ``categories`` is set for pandas Categoricals, whose ``values`` are then
    the integer codes; ``ordered`` says whether their order is declared.
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
        decoded: np.ndarray = np.asarray(self.categories)[self.values]
        return decoded


def _is_missing(value: Any) -> bool:
    if value is None or type(value).__name__ in ("NAType", "NaTType"):
        return True
    return isinstance(value, float | np.floating) and math.isnan(value)


def _from_pandas(x: Any) -> Column | np.ndarray:
    """Unwrap a pandas object without importing pandas."""
    dtype = getattr(x, "dtype", None)
    if getattr(dtype, "name", "") == "category":
        cat = x.array if hasattr(x, "array") else x
        codes = np.asarray(cat.codes, dtype=np.int64)
        missing = codes < 0
        categories = tuple(_python_scalar(c) for c in cat.categories)
        return Column(codes, missing if missing.any() else None, categories, bool(cat.ordered))
    if getattr(dtype, "kind", "O") in "iub" and getattr(x, "hasnans", False):
        # nullable Int64 / boolean with pd.NA: floats with NaN keep every integer < 2**53 exact
        return np.asarray(x.to_numpy(dtype="float64", na_value=np.nan))
    if hasattr(x, "to_numpy"):
        return np.asarray(x.to_numpy())
    return np.asarray(x)


def _python_scalar(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def column(x: Any, func: str, name: str) -> Column:
    """Validate one rater's ratings and return them as a :class:`Column`."""
    if isinstance(x, str | bytes) or np.isscalar(x) or x is None:
        param_error(func, name, "a 1-D array-like of ratings", x, exc=TypeError)
    x = to_host(x)  # PyTorch, CuPy or JAX arrays that take the numpy path
    if type(x).__module__.startswith("pandas"):
        raw = _from_pandas(x)
        if isinstance(raw, Column):
            return raw
    else:
        try:
            # Sequences go through object dtype: np.asarray([1, "1"]) would make both "1".
            raw = x if isinstance(x, np.ndarray) else np.asarray(x, dtype=object)
        except ValueError:  # ragged nested lists
            param_error(func, name, "a 1-D array-like of ratings", x, exc=ValueError)
    if raw.ndim != 1:
        fix = "Pass one rater's ratings, e.g. data[:, 0]." if raw.ndim == 2 else ""
        param_error(func, name, "1-D", f"an array of shape {raw.shape}", fix=fix, raw=True)
    if raw.dtype.kind == "c":
        param_error(func, name, "real or categorical ratings", raw.dtype, exc=TypeError)
    return _with_missing(raw)


def _with_missing(raw: np.ndarray) -> Column:
    if raw.dtype.kind == "f":
        mask = np.isnan(raw)
        return Column(raw, mask if mask.any() else None)
    if raw.dtype.kind != "O":
        return Column(raw, None)
    mask = np.fromiter((_is_missing(v) for v in raw), dtype=bool, count=raw.shape[0])
    return Column(narrow_object(raw, mask), mask if mask.any() else None)


def narrow_object(raw: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Give an object array of numbers (or of strings) a numeric (or str) dtype."""
    present = raw[~mask]
    kinds = {type(v) for v in present}
    if kinds and all(issubclass(t, bool | np.bool_) for t in kinds):
        out = np.zeros(raw.shape[0], dtype=bool)
        out[~mask] = present.astype(bool)
        return out
    fits = kinds and all(issubclass(t, int | np.integer) for t in kinds)
    if fits and present.min() >= -(2**63) and present.max() < 2**63:
        out_int = np.zeros(raw.shape[0], dtype=np.int64)  # 0 where missing: see ``mask``
        out_int[~mask] = present.astype(np.int64)
        return out_int
    if kinds and all(issubclass(t, int | float | np.integer | np.floating) for t in kinds):
        out_float = np.full(raw.shape[0], np.nan)
        out_float[~mask] = present.astype(np.float64)
        return out_float
    if kinds and all(issubclass(t, str) for t in kinds):
        return np.where(mask, "", raw).astype(str)
    return raw


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


def sample_weights(w: Any, n: int, func: str) -> np.ndarray | None:
    """Validate per-pair weights: 1-D, length n, finite and non-negative."""
    if w is None:
        return None
    try:
        arr = np.asarray(to_host(w), dtype=np.float64)
    except (TypeError, ValueError):
        param_error(func, "sample_weight", "an array of numbers", w, exc=TypeError)
    if arr.shape != (n,):
        param_error(func, "sample_weight", f"1-D of length {n}", f"shape {arr.shape}", raw=True)
    bad = ~np.isfinite(arr) | (arr < 0)
    if bad.any():
        shown = describe(arr[bad][:3].tolist())
        param_error(func, "sample_weight", "finite and non-negative", f"values {shown}", raw=True)
    return arr


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
        param_error(
            func,
            "nan_policy",
            "'omit' when ratings are missing",
            f"'raise' and {int(missing.sum())} pairs with a missing rating (NaN, None or pd.NA)",
            fix="Pass nan_policy='omit' to drop those pairs.",
            raw=True,
        )
    keep = ~missing
    if not keep.any() and not allow_empty:
        raise ValueError(
            f"{func} has nothing to rate: every item has a missing rating, so "
            "nan_policy='omit' leaves no item. Check the columns passed as raters."
        )
    return [c.take(keep) for c in cols], None if weight is None else weight[keep]


def is_integral_number(v: Any) -> bool:
    """Return True for an int, or a float with no fractional part."""
    return isinstance(v, int | np.integer) or (isinstance(v, float) and v.is_integer())


def integral_floats(
    x: np.ndarray, declared: tuple[Any, ...] | None, func: str, name: str
) -> np.ndarray | None:
    """Return integral floats as int64; None if they must be looked up among ``declared``."""
    finite = np.isfinite(x)
    if not finite.all():
        param_error(
            func,
            name,
            "finite",
            f"{x[~finite][0]!r}",
            raw=True,
            fix="Missing ratings are NaN; infinite ones have no category.",
        )
    fractional = x != np.round(x)
    if fractional.any() or np.abs(x).max() >= _EXACT_FLOAT:
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
        )
    return orders.pop() if orders else None
