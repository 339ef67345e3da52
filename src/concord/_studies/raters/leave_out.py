"""Every rater left out at once: the joint patterns and Krippendorff's α of each panel without one.

Leaving rater r out subtracts r's rating from each item's category counts:
the items that share a panel pattern and r's code share their row without r
(a joint pattern), formed for every rater at once by
:func:`~concord._studies.raters.joints.joints`. :func:`alpha_left_out` then
forms the item statistics
(:class:`~concord._tables.item_table.ItemStats`: per number of ratings, the
items, their category totals and Gram matrix) of every rater's panel, exact
integers: the panel's groups less what the rater rated, one product per
group for every rater (:func:`left_out_stats`), or, where the items share
few patterns, each rater's joint patterns summed. Each α is formed from
them exactly as :func:`concord.krippendorff_alpha` forms it; each result's
SE and bootstrap merge that rater's patterns on first use.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from concord._coefficients.krippendorff import krippendorff as kripp
from concord._coefficients.krippendorff.krippendorff_sets import is_set_level
from concord._data.matrix import RatingMatrix
from concord._inference.intervals import Inference
from concord._studies.raters.joints import Joints
from concord._tables.item_table import ItemStats, item_stats
from concord._tables.patterns import Patterns

_CELLS = 1 << 21  # float64 cells of one-hot codes per product (16 MiB)
_FLOAT_EXACT = 2**53


def left_out_stats(counts: np.ndarray, codes: np.ndarray) -> list[ItemStats] | None:
    """Return each rater's panel's :class:`ItemStats`, as :func:`item_stats` forms them.

    Without rater r an item that r rated in category c has m − 1 ratings, its
    counts lose e_c and its Gram matrix n nᵀ becomes
    n nᵀ − e_c nᵀ − n e_cᵀ + e_c e_cᵀ. So each group of items with m ratings
    without r is the panel's group m less what r rated in it, plus what r
    rated in group m + 1 less r's ratings: per group of the panel, one
    product of the raters' one-hot codes with the items' [1, n, n nᵀ] gives
    every rater's share at once (integers below 2**53, exact in float64).
    None when that bound fails (the caller then takes each rater's patterns).
    """
    n, q = counts.shape
    m = counts.sum(axis=1)
    top = int(m.max(initial=0))
    if n * (top + 1) ** 2 >= _FLOAT_EXACT:
        return None
    panel_sizes, group = np.unique(m, return_inverse=True)
    order = np.argsort(group, kind="stable")
    bounds = np.searchsorted(group[order], np.arange(panel_sizes.size + 1))
    features = np.concatenate(
        [
            np.ones((n, 1), dtype=np.int64),
            counts,
            (counts[:, :, None] * counts[:, None, :]).reshape(n, q * q),
        ],
        axis=1,
    )[order]
    whole = np.add.reduceat(features, bounds[:-1], axis=0)  # the panel's groups: 1, n, n nᵀ
    rated = _rated_sums(codes[order], q, features.astype(np.float64), bounds)
    return _shifted(panel_sizes, whole, rated, q)


def _rated_sums(
    codes: np.ndarray, q: int, features: np.ndarray, bounds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return Σ [r's code = c] (1, n) and Σ [r rated] n nᵀ over each panel group's items.

    Shapes (R, groups, q, 1 + q) and (R, groups, q²): integers, summed in
    float64 below 2**53 (the caller's bound).
    """
    n_raters, groups = codes.shape[1], bounds.size - 1
    by_code = np.zeros((groups, n_raters * q, 1 + q))
    gram = np.zeros((groups, n_raters, q * q))
    step = max(1, _CELLS // (n_raters * q))
    for g in range(groups):
        for lo in range(int(bounds[g]), int(bounds[g + 1]), step):
            hi = min(lo + step, int(bounds[g + 1]))
            part = codes[lo:hi]
            rated = part >= 0
            onehot = np.zeros((hi - lo, n_raters * q))
            item, rater = np.nonzero(rated)
            onehot[item, rater * q + part[item, rater]] = 1
            by_code[g] += onehot.T @ features[lo:hi, : 1 + q]
            gram[g] += rated.T.astype(np.float64) @ features[lo:hi, 1 + q :]
    coded = np.rint(by_code).astype(np.int64).reshape(groups, n_raters, q, 1 + q)
    return coded.transpose(1, 0, 2, 3), np.rint(gram).astype(np.int64).transpose(1, 0, 2)


def _shifted(
    panel_sizes: np.ndarray, whole: np.ndarray, rated: tuple[np.ndarray, np.ndarray], q: int
) -> list[ItemStats]:
    """Each rater's groups: the panel's group m less r's part of it, plus r's part of m + 1."""
    by_code, gram_rated = rated
    n_raters, groups = by_code.shape[0], panel_sizes.size
    sizes = np.union1d(panel_sizes, panel_sizes - 1)
    sizes = sizes[sizes > 0]
    same = _index(panel_sizes, sizes, groups)  # the panel's group of the same size, or none
    up = _index(panel_sizes, sizes + 1, groups)  # the group one rating larger, or none
    whole = np.concatenate([whole, np.zeros((1, whole.shape[1]), dtype=np.int64)])
    r_all = np.concatenate([by_code.sum(axis=2), gram_rated], axis=2)  # whatever r's code
    r_all = np.concatenate([r_all, np.zeros((n_raters, 1, r_all.shape[2]), np.int64)], axis=1)
    shift = r_all[:, up] - r_all[:, same] + whole[same]
    pad = np.zeros((n_raters, 1, q, 1 + q), dtype=np.int64)
    codes = np.concatenate([by_code, pad], axis=1)[:, up]  # r's items one rating larger, by code
    items = shift[:, :, 0]
    totals = shift[:, :, 1 : 1 + q] - codes[:, :, :, 0]
    cross = codes[:, :, :, 1:]  # Σ e_c nᵀ
    diagonal = np.arange(q)
    gram = shift[:, :, 1 + q :].reshape(n_raters, sizes.size, q, q) - cross
    gram -= cross.transpose(0, 1, 3, 2)
    gram[:, :, diagonal, diagonal] += codes[:, :, :, 0]
    out = []
    for r in range(n_raters):
        present = items[r] > 0
        out.append(
            ItemStats(sizes[present], items[r, present], totals[r, present], gram[r, present])
        )
    return out


def _index(values: np.ndarray, wanted: np.ndarray, missing: int) -> np.ndarray:
    """Return the position of each wanted value in the sorted ``values``, or ``missing``."""
    at = np.minimum(np.searchsorted(values, wanted), values.size - 1)
    out: np.ndarray = np.where(values[at] == wanted, at, missing)
    return out


def alpha_left_out(
    j: Joints, matrix: RatingMatrix, opts: dict[str, Any]
) -> list[tuple[Any, np.ndarray]] | None:
    """Return α of the panel without each rater, and its δ², as the one-shot function has them.

    None where this path does not apply (label-set levels, int64 bounds): the
    caller takes the per-rater path.
    """
    level, population = opts["level"], opts["population_size"]
    labels, codes = matrix.labels, matrix.codes
    if is_set_level(level):
        return None
    if 2 * j.freq.shape[0] < codes.size:  # few patterns: each rater's, summed as counted
        stats: list[ItemStats] | None = [_pattern_stats(j, r) for r in range(codes.shape[1])]
    else:
        stats = left_out_stats(j.panel[j.inverse], codes)  # the items' counts
    if stats is None:
        return None
    func = kripp.ALPHA.name
    name, custom = kripp.resolve_level(level, labels, func)
    out = []
    shared: dict[str, Any] = {}
    for r, s in enumerate(stats):
        inference = partial(_inference, j, r, labels, func, name)
        counted = (s, labels, codes.shape[1] - 1)  # the others: raw ratings, as the function
        got = kripp.alpha_of_stats(func, name, custom, counted, population, inference, shared)
        out.append(got)
    return out


def _pattern_stats(j: Joints, r: int) -> ItemStats:
    """Rater r's panel's :class:`ItemStats` from its joint patterns (their sums, as merged)."""
    rows, freq, _ = j.of(r)
    rated = rows.sum(axis=1) > 0
    return item_stats(Patterns(rows[rated], freq[rated]))


def _inference(j: Joints, r: int, labels: Any, func: str, name: str, *given: Any) -> Inference:
    """Rater r's α's inference: its rows' patterns merged on first use (``rows_inference``)."""
    rows, freq, _ = j.of(r)
    rated = rows.sum(axis=1) > 0
    n_raters = j.starts.shape[0] - 2  # the others
    counted = (labels, rows[rated], freq[rated])
    return kripp.rows_inference(func, name, counted, *given, n_raters=n_raters)
