"""The crowd functions' input: a ratings matrix or long table → label codes and item names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._data.labels import Labels
from concord._data.long import Wide, long_ratings
from concord._data.matrix import rating_matrix


@dataclass(frozen=True)
class Crowd:
    """Codes (n_items, n_raters), -1 where missing; the labels, raters and items kept."""

    codes: np.ndarray
    labels: Labels
    raters: tuple[Any, ...]
    items: tuple[Any, ...]


def crowd(
    ratings: Any, names: tuple[Any, Any, Any], labels: Any, func: str, *, continuous: bool = False
) -> Crowd:
    """Return the ratings as codes, long form pivoted, items no rater rated dropped.

    Items are named by the long form's item column, a DataFrame's index, or
    their row numbers.
    """
    wide = long_ratings(ratings, names, func)
    matrix = rating_matrix(wide, labels, func, continuous=continuous)
    assert matrix is not None  # rating_matrix raises on a matrix without ratings
    if isinstance(wide, Wide):
        items = np.asarray(wide.items).tolist()
    elif hasattr(wide, "index") and hasattr(wide, "iloc"):
        items = wide.index.tolist()
    else:
        items = list(range(matrix.codes.shape[0] + matrix.n_dropped))
    if matrix.kept is not None:
        items = [name for name, kept in zip(items, matrix.kept, strict=True) if kept]
    return Crowd(matrix.codes, matrix.labels, matrix.raters, tuple(items))
