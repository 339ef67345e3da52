"""Ratings item by item, in their order: what a paired comparison lines up.

The coefficients themselves need only the distinct item patterns
(:mod:`concord._tables.patterns`), which forget the order of the items.
:func:`concord.compare` pairs two coefficients item by item (Gwet 2016), so
it asks for each item's own row: its label codes, or its counts per category,
under the labels the coefficient used.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from concord._common.errors import param_error
from concord._data.matrix import CategoryCounts, rating_matrix
from concord._tables.pairs import encode_rater


def _refuse_empty(empty: int, func: str) -> None:
    if empty:
        param_error(
            func,
            "ratings",
            "every item rated at least once (a paired comparison lines the items up)",
            f"{empty} item(s) with no rating",
            raw=True,
            fix="Drop the items nobody rated from both sides first.",
        )


def item_codes(ratings: Any, labels: tuple[Any, ...], func: str) -> np.ndarray:
    """Label codes + 1 (0 = missing) of each item, in order, under ``labels``."""
    matrix = rating_matrix(ratings, list(labels), func)
    assert matrix is not None
    _refuse_empty(matrix.n_dropped, func)
    out: np.ndarray = matrix.codes + 1
    return out


def item_counts(ratings: Any, labels: tuple[Any, ...], func: str) -> np.ndarray:
    """Each item's ratings per category (items × categories), in order, under ``labels``."""
    if isinstance(ratings, CategoryCounts):
        counts = np.asarray(ratings.counts, dtype=np.int64)
        _refuse_empty(int((counts.sum(axis=1) == 0).sum()), func)
        return counts
    codes = item_codes(ratings, labels, func)
    k = len(labels)
    item = np.broadcast_to(np.arange(codes.shape[0])[:, None], codes.shape)
    rated = codes > 0
    flat = np.bincount(item[rated] * k + codes[rated] - 1, minlength=codes.shape[0] * k)
    out: np.ndarray = flat.reshape(-1, k)
    return out


def pair_codes(
    rater1: Any, rater2: Any, labels: tuple[Any, ...], func: str
) -> tuple[np.ndarray, np.ndarray]:
    """Return the two raters' label codes, pair by pair, under ``labels``."""
    a, _ = encode_rater(rater1, list(labels), func, "rater1")
    b, _ = encode_rater(rater2, list(labels), func, "rater2")
    return a, b
