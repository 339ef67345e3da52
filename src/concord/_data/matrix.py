"""Many raters' ratings → validated label codes, and the items × categories count form.

A ratings matrix has one row per item and one column per rater (a 2-D
array-like, or a pandas DataFrame with one column per rater); a missing
rating is NaN, None or pd.NA. Items that no rater rated carry no
information and are dropped (``RatingMatrix.n_dropped`` counts them).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._common.errors import param_error
from concord._data.arrays import MAX_RANGE, to_host
from concord._data.columns import (
    Column,
    categorical_order,
    column,
    integral_floats,
    is_integral_number,
    narrow_object,
)
from concord._data.frames import is_foreign
from concord._data.labels import Labels, check_labels, exactly_joined, infer, lookup
from concord._data.long import rows
from concord._data.wide import Wide, foreign_wide


@dataclass(frozen=True)
class RatingMatrix:
    """Label codes of shape (n_items, n_raters); -1 marks a missing rating.

    ``declared`` says whether the labels were declared (``labels=`` or
    ordered Categoricals) rather than found in the ratings.
    """

    codes: np.ndarray
    labels: Labels
    raters: tuple[Any, ...]
    n_dropped: int = 0
    declared: bool = False
    kept: np.ndarray | None = None  # which input rows are kept (rated by someone)

    def counts(self) -> np.ndarray:
        """Return the items × categories counts: how many raters put item i in category k."""
        n, k = self.codes.shape[0], self.labels.k
        cells = self.codes + np.arange(0, n * k, k, dtype=np.int64)[:, None]  # item i's row
        rated = self.codes >= 0
        flat = np.bincount(cells.ravel() if rated.all() else cells[rated], minlength=n * k)
        return flat.reshape(n, k)


class CategoryCounts:
    """Ratings in count form: ``counts[i, k]`` raters put item i in category k.

    Pass it instead of a ratings matrix to the coefficients that need only
    these counts (``fleiss_kappa``, ``brennan_prediger``, ``gwet_ac``,
    ``krippendorff_alpha``, ``percent_agreement``), as statsmodels'
    ``fleiss_kappa`` and irrCAC's ``.dist`` functions take them. Items may
    have different numbers of raters.

    Parameters
    ----------
    counts : array-like of int, shape (n_items, k)
        Non-negative whole numbers.
    labels : sequence, optional
        The k categories, in order (weighted coefficients use this order);
        default 1, 2, ..., k, the positions R irrCAC's ``.dist`` functions
        give unnamed columns (so value-based weights such as ``"ratio"``
        score them as irrCAC does).

    Examples
    --------
    >>> import concord
    >>> table = concord.CategoryCounts([[3, 0], [1, 2], [0, 3]], labels=["no", "yes"])
    >>> table
    CategoryCounts(n_items=3, labels=('no', 'yes'))
    >>> concord.fleiss_kappa(table).statistic  # p_a = 7/9, p_e = 41/81: (63 − 41) / 40
    0.55
    """

    __slots__ = ("counts", "labels")
    counts: np.ndarray
    labels: tuple[Any, ...]

    def __init__(self, counts: Any, /, *, labels: Sequence[Any] | None = None) -> None:
        func = "CategoryCounts"
        raw = _count_array(counts, func)
        declared = check_labels(labels, func) or tuple(range(1, raw.shape[1] + 1))
        if len(declared) != raw.shape[1]:
            param_error(
                func,
                "labels",
                f"{raw.shape[1]} categories, one per column",
                f"{len(declared)} labels",
                raw=True,
            )
        table = raw
        table.setflags(write=False)
        object.__setattr__(self, "counts", table)
        object.__setattr__(self, "labels", declared)

    @classmethod
    def from_long(
        cls, data: Any, /, *, item: Any, rating: Any, rater: Any = None, labels: Any = None
    ) -> CategoryCounts:
        """Count long-form rows (one row per rating) per item and category.

        Parameters
        ----------
        data : DataFrame, pyarrow Table or mapping of columns
            One row per rating, e.g. a dict of lists.
        item, rating : column name
            The columns holding the item and the rating. A missing item is
            an error naming its row; a missing rating is not counted.
        rater : column name, optional
            The column holding the rater: then a second rating of an item by
            one rater is an error naming its row, as in the long form the
            multi-rater functions take (``item=``, ``rater=``, ``rating=``).
            Without it every row counts.
        labels : sequence, optional
            The categories, in order; default: those found, ordered as the
            multi-rater functions order them (or an ordered Categorical's order).

        Returns
        -------
        CategoryCounts
            One row per item, in order of first appearance.

        Examples
        --------
        >>> import concord
        >>> rows = {"doc": [1, 1, 1, 2, 2, 2, 3, 3, 3], "label": list("nnnnyyyyy")}
        >>> table = concord.CategoryCounts.from_long(rows, item="doc", rating="label")
        >>> table.counts.tolist(), table.labels
        ([[3, 0], [1, 2], [0, 3]], ('n', 'y'))
        >>> concord.fleiss_kappa(table).statistic  # the class example: (63 − 41) / 40
        0.55
        """
        func = "CategoryCounts.from_long"
        names, keys = (
            ((item, rater, rating), None)
            if rater is not None
            else ((item, rating), ("item", "rating"))
        )
        found = rows(data, names, func) if keys is None else rows(data, names, func, keys)
        rated = found.rated
        missing = (
            rated.missing if rated.missing is not None else np.zeros(rated.values.shape[0], bool)
        )
        if missing.all():
            param_error(
                func,
                "rating",
                "a column with at least one rating",
                "only missing ratings",
                raw=True,
            )
        declared = categorical_order(check_labels(labels, func), [rated], func)
        codes, found_labels = _encode([rated], missing[:, None], declared, func, False)
        k, present = found_labels.k, ~missing
        flat = np.bincount(
            found.item[present] * k + codes[present, 0], minlength=len(found.items) * k
        )
        return cls(flat.reshape(len(found.items), k), labels=found_labels.values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("CategoryCounts is immutable")

    def __repr__(self) -> str:
        return f"CategoryCounts(n_items={self.counts.shape[0]}, labels={self.labels!r})"


def _count_array(counts: Any, func: str) -> np.ndarray:
    """Validate a count table: whole numbers, exact as int64, each item's total below 2**63."""
    try:
        raw = np.asarray(to_host(counts))
    except (TypeError, ValueError):
        param_error(func, "counts", "a 2-D array of counts", counts, exc=TypeError)
    if raw.dtype.kind == "O":  # Python ints beyond int64, say: kept exact
        raw = _whole_objects(raw, counts, func)
    elif raw.dtype.kind not in "biuf":
        param_error(func, "counts", "a 2-D array of counts", counts, exc=TypeError)
    if raw.ndim != 2 or raw.shape[0] == 0 or raw.shape[1] == 0:
        param_error(func, "counts", "2-D, items × categories", f"shape {raw.shape}", raw=True)
    whole = raw.dtype.kind != "f" or bool(np.isfinite(raw).all() and (raw == np.round(raw)).all())
    if not whole or (raw < 0).any():
        param_error(func, "counts", "non-negative whole numbers", counts)
    if float(raw.max()) * raw.shape[1] >= 2**62:  # exact totals only where they could overflow
        top = int(max(raw.astype(object).sum(axis=1)))
        if top >= 2**63:
            param_error(
                func,
                "counts",
                "below 2**63 ratings per item",
                f"an item with {top:,} ratings",
                raw=True,
                exc=OverflowError,
                fix="Counts that large do not fit int64; check the table.",
            )
    return raw.astype(np.int64)


def _whole_objects(raw: np.ndarray, counts: Any, func: str) -> np.ndarray:
    """Return an object array of numbers as Python ints (exact), or raise."""
    values = raw.ravel().tolist()
    if not all(isinstance(v, numbers.Real) for v in values):
        param_error(func, "counts", "a 2-D array of counts", counts, exc=TypeError)
    if not all(math.isfinite(v) and v == int(v) for v in values):
        param_error(func, "counts", "non-negative whole numbers", counts)
    out = np.empty(len(values), dtype=object)
    out[:] = [int(v) for v in values]
    return out.reshape(raw.shape)


def _columns(ratings: Any, func: str) -> tuple[list[Column], tuple[Any, ...]]:
    """Split a ratings matrix or DataFrame (or pivoted long form) into per-rater columns."""
    if is_foreign(ratings):  # polars, pyarrow, ...: read through narwhals
        ratings = foreign_wide(ratings, func)
    if isinstance(ratings, Wide):
        return ratings.columns(), ratings.raters
    if hasattr(ratings, "columns") and hasattr(ratings, "iloc"):
        names = tuple(ratings.columns)
        cols = [
            column(ratings.iloc[:, j], func, f"ratings[{name!r}]") for j, name in enumerate(names)
        ]
        return cols, names
    if isinstance(ratings, str | bytes) or np.isscalar(ratings) or ratings is None:
        param_error(func, "ratings", "a 2-D array-like (items × raters)", ratings, exc=TypeError)
    ratings = to_host(ratings)  # PyTorch, CuPy or JAX arrays that take the numpy path
    try:
        arr = ratings if isinstance(ratings, np.ndarray) else np.asarray(ratings, dtype=object)
    except ValueError:
        param_error(func, "ratings", "a rectangular 2-D array-like (items × raters)", ratings)
    if arr.ndim != 2:
        fix = "Pass one column per rater, e.g. np.column_stack([r1, r2, r3])."
        if arr.ndim == 3 and type(ratings) in (list, tuple):
            fix += " If each cell is one rating's set of labels, pass sets (frozenset)."
        param_error(
            func, "ratings", "2-D (items × raters)", f"shape {arr.shape}", fix=fix, raw=True
        )
    cols = [column(arr[:, j], func, f"ratings[:, {j}]") for j in range(arr.shape[1])]
    return cols, tuple(range(arr.shape[1]))


def rating_matrix(
    ratings: Any, labels: Any, func: str, *, continuous: bool = False, allow_empty: bool = False
) -> RatingMatrix | None:
    """Validate a ratings matrix and encode it as label codes.

    Floats must be whole numbers unless ``labels`` are declared, or unless
    ``continuous`` (interval and ratio data), where every distinct value is a label.
    With ``allow_empty`` (a batch of a stream) a matrix with no rating gives
    None instead of an error.
    """
    declared = check_labels(labels, func)
    cols, raters = _columns(ratings, func)
    if not cols or cols[0].values.shape[0] == 0:
        if allow_empty:
            return None
        param_error(
            func, "ratings", "at least one item and one rater", "an empty matrix", raw=True
        )
    missing = np.column_stack(
        [c.missing if c.missing is not None else np.zeros(c.values.shape[0], bool) for c in cols]
    )
    if missing.all():
        if allow_empty:
            return None
        param_error(func, "ratings", "at least one rating", "only missing ratings", raw=True)
    declared = categorical_order(declared, cols, func)
    codes, found = _encode(cols, missing, declared, func, continuous)
    codes[missing] = -1
    rated = (codes >= 0).any(axis=1)
    return RatingMatrix(
        codes if rated.all() else codes[rated],  # codes is new: no copy where all are kept
        found,
        raters,
        int((~rated).sum()),
        declared=declared is not None,
        kept=np.asarray(rated),
    )


def _encode(
    cols: list[Column],
    missing: np.ndarray,
    declared: tuple[Any, ...] | None,
    func: str,
    continuous: bool,
) -> tuple[np.ndarray, Labels]:
    """Return codes (n_items, n_raters), with arbitrary values where ``missing``."""
    present = ~missing
    numeric = all(c.numeric for c in cols)
    if numeric and exactly_joined([c.values for c in cols]):
        values = np.column_stack([c.values for c in cols])
        ints = _as_integers(values, present, declared, func, continuous)
        if ints is not None:
            del values  # a copy of the ratings the codes no longer need
            return _dense_codes(ints, present, declared, func)
        flat = values[present]
    else:
        # int64 beside uint64 (2**63 in one column) would stack as float64, which rounds
        # 2**63 + 1: such numbers are compared as Python objects, whole floats as ints
        parts = [
            _whole(c.values, present[:, j]) if numeric and declared is None else None
            for j, c in enumerate(cols)
        ]
        values = np.column_stack(
            [
                _as_objects(c, missing[:, j]) if part is None else part.astype(object)
                for j, (c, part) in enumerate(zip(cols, parts, strict=True))
            ]
        )
        flat = narrow_object(values[present], np.zeros(int(present.sum()), dtype=bool))
    return _lookup_codes(flat, present, declared, func)


def _whole(values: np.ndarray, present: np.ndarray) -> np.ndarray | None:
    """Return whole-number floats (where ``present``) as int64; None for anything else."""
    if values.dtype.kind != "f":
        return None
    filled = np.where(present, values, 0.0)
    if not np.isfinite(filled).all() or (filled != np.round(filled)).any():
        return None
    if np.abs(filled).max(initial=0) >= 2**63:
        return None
    return filled.astype(np.int64)


def _as_objects(c: Column, missing: np.ndarray) -> np.ndarray:
    """One rater's ratings as Python objects (categories decoded), None where missing."""
    if c.categories is None:
        return c.values.astype(object)
    decode = np.empty(len(c.categories) + 1, dtype=object)
    decode[:-1] = c.categories
    decode[-1] = None
    return decode[np.where(missing, -1, c.values)]


def _lookup_codes(
    flat: np.ndarray, present: np.ndarray, declared: tuple[Any, ...] | None, func: str
) -> tuple[np.ndarray, Labels]:
    if declared is None:
        found, (inner,) = infer([flat], func)
    else:
        found, inner = Labels(declared, ordered=True), lookup(flat, declared, func, "ratings")
    codes = np.zeros(present.shape, dtype=np.intp)
    codes[present] = inner
    return codes, found


def _as_integers(
    values: np.ndarray,
    present: np.ndarray,
    declared: tuple[Any, ...] | None,
    func: str,
    continuous: bool,
) -> np.ndarray | None:
    if declared is not None and not all(is_integral_number(v) for v in declared):
        return None
    if values.dtype == np.uint64 and values.max(initial=0) >= 2**63:
        return None  # as int64 they would wrap to negative numbers: looked up instead
    if values.dtype.kind != "f":
        return values.astype(np.int64)
    every = bool(present.all())  # then no filled copy: ``values`` is the caller's own stack
    filled = values if every else np.where(present, values, 0.0)
    whole = _whole_fast(filled)
    if whole is not None:
        return whole
    if continuous and (filled != np.round(filled)).any():
        if not np.isfinite(filled).all():
            integral_floats(filled, declared, func, "ratings")  # raises: infinite rating
        return None
    return integral_floats(filled, declared, func, "ratings")


def _whole_fast(filled: np.ndarray) -> np.ndarray | None:
    """Return ``filled`` as int64 where every value is a whole number within int64, else None.

    A float equals its int64 cast exactly when it is whole and within range
    (NaN, ±inf and values beyond int64 cast to numbers they do not equal,
    or to int64's edges, which are left to the full check): one cast and
    one comparison instead of the rounding, the same int64 values that
    :func:`integral_floats` returns.
    """
    with np.errstate(invalid="ignore"):
        ints = filled.astype(np.int64)
    if not bool((ints == filled).all()):
        return None
    if ints.size and (int(ints.min()) == -(2**63) or int(ints.max()) == 2**63 - 1):
        return None  # the edges: a saturating cast of ±inf or of 2**63 lands there
    return ints


def _dense_codes(
    ints: np.ndarray, present: np.ndarray, declared: tuple[Any, ...] | None, func: str
) -> tuple[np.ndarray, Labels]:
    """Encode integer ratings through a lookup table over their range."""
    every = bool(present.all())  # then no masked copies: the same values, in the same order
    seen = ints if every else ints[present]
    lo, hi = int(seen.min()), int(seen.max())
    if hi - lo >= MAX_RANGE:
        return _lookup_codes(seen.reshape(-1), present, declared, func)
    offset = ints  # the caller's own array: shifted in place
    offset -= lo
    if not every:
        offset[~present] = 0
    used = np.bincount(offset.reshape(-1) if every else offset[present], minlength=hi - lo + 1) > 0
    if declared is None:
        table = np.cumsum(used) - 1
        found = Labels(tuple(int(lo + i) for i in np.flatnonzero(used)), ordered=True)
        return table[offset], found
    table = np.full(hi - lo + 1, -1, dtype=np.intp)
    for position, value in enumerate(declared):
        if lo <= int(value) <= hi:
            table[int(value) - lo] = position
    codes = table[offset]
    stray = present & (codes < 0)
    if stray.any():
        lookup(offset[stray] + lo, declared, func, "ratings")  # raises, naming the strays
    return codes, Labels(declared, ordered=True)
