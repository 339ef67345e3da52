"""One column per rater: the wide form every multi-rater function reads.

:class:`Wide` holds the ratings of a pivoted long table
(:func:`concord._data.long.pivot`) or of a polars, pyarrow or other frame read
through narwhals (:func:`foreign_wide`), with the raters' names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._common.errors import param_error
from concord._data.columns import Column, series_column
from concord._data.frames import as_frame, frame_columns

_EXACT_FLOAT = 2**53


@dataclass(frozen=True)
class Wide:
    """Pivoted long-form ratings: one column per rater, one row per item.

    ``numeric`` is the (n_items, n_raters) matrix when every rating is a
    number that float64 holds exactly (NaN where missing; the numba pass
    counts it); otherwise ``values`` and ``missing`` hold the ratings in
    their own dtype (Categorical codes with their ``categories``). A wide
    frame of polars or pyarrow (:func:`foreign_wide`) keeps one
    :class:`Column` per rater in ``cols``, each with its own categories.
    """

    raters: tuple[Any, ...]
    items: np.ndarray
    numeric: np.ndarray | None = None
    values: np.ndarray | None = None
    missing: np.ndarray | None = None
    categories: tuple[Any, ...] | None = None
    ordered: bool = False
    cols: tuple[Column, ...] | None = None

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self.items), len(self.raters))

    def columns(self) -> list[Column]:
        """Return one :class:`Column` per rater, as a wide matrix gives them."""
        if self.cols is not None:
            return list(self.cols)
        if self.numeric is not None:
            x = self.numeric
            holes = np.isnan(x) if x.dtype.kind == "f" else None
            return [
                Column(x[:, j], None if holes is None else holes[:, j]) for j in range(x.shape[1])
            ]
        assert self.values is not None and self.missing is not None
        return [
            Column(self.values[:, j], self.missing[:, j], self.categories, self.ordered)
            for j in range(self.values.shape[1])
        ]


def foreign_wide(data: Any, func: str) -> Wide:
    """Return a polars, pyarrow or other frame narwhals reads as one column per rater.

    Lazy frames are collected; the column names are the raters.
    """
    frame = as_frame(data, func)
    if frame is None:
        param_error(
            func,
            "ratings",
            "a 2-D array-like or a DataFrame (items × raters)",
            f"a {type(data).__name__}",
            raw=True,
            exc=TypeError,
        )
    names, series = frame_columns(frame)
    cols = tuple(series_column(s) for s in series)
    return Wide(names, np.arange(frame.shape[0]), numeric=_numeric(cols), cols=cols)


def _numeric(cols: tuple[Column, ...]) -> np.ndarray | None:
    """Return the (items, raters) matrix of numeric columns (NaN where missing), or None.

    Integers stay int64 when none is missing; None when float64 would round one.
    """
    if not cols or not all(c.numeric and c.values.dtype.kind in "iuf" for c in cols):
        return None
    x = np.column_stack([c.values for c in cols])
    if x.dtype.kind in "iu" and all(c.missing is None for c in cols):
        return x.astype(np.int64) if x.dtype.kind == "i" or x.max() < 2**63 else None
    if x.dtype.kind in "iu" and x.size and int(np.abs(x).max()) >= _EXACT_FLOAT:
        return None
    out = x.astype(np.float64)
    for j, c in enumerate(cols):
        if c.missing is not None:
            out[c.missing, j] = np.nan
    return out
