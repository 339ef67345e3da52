"""Each rater against the rest of the panel, and against each other rater (Cohen's kappa).

Helpers of :func:`concord.rater_diagnostics`: the others' reference label
of each item comes from the panel's count patterns without the rater (once
per panel pattern and code, see :func:`_references`), and every rater's k×k
table against it from one bincount. The rater × majority table gives the
Stuart–Maxwell test of marginal homogeneity: the rater's and the panel's
category rates on the same items, a paired test (an unpaired χ² of the rater
against the panel's totals would count the rater's own ratings on both sides
and ignore that the items are shared).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from concord._coefficients.kappa.categories import homogeneity_of_table, marginal_result
from concord._coefficients.kappa.categories_core import _DENSE as _SPARSE
from concord._coefficients.kappa.categories_core import _EXACT
from concord._coefficients.kappa.cohen import COHEN, from_counts, kappa_result
from concord._common import exact as _exact
from concord._common.extras import require
from concord._data.labels import Labels
from concord._data.matrix import RatingMatrix
from concord._studies.raters.joints import Joints, code_rows
from concord._tables.pair_table import PairTable
from concord._tables.weights import resolve

_FLOAT_EXACT = 2**53
_CELLS = 1 << 21  # float64 cells of one-hot codes or of tables per product (16 MiB)

# the Cohen's kappa weights that match a level of Krippendorff's alpha
_LEVEL_WEIGHTS = {
    "nominal": None,
    "ordinal": "linear",
    "interval": "quadratic",
    "ratio": "quadratic",
}


def kappa_weights(opts: dict[str, Any]) -> Any:
    """Return the weights of the raters' kappas: the coefficient's, or those of α's level."""
    if "weights" in opts:
        return opts["weights"]
    level = opts.get("level", "nominal")
    return _LEVEL_WEIGHTS.get(level) if isinstance(level, str) else None


def _table(a: np.ndarray, b: np.ndarray, labels: Labels) -> np.ndarray:
    """Return the k×k count table of two code vectors over the items both rated (−1: missing)."""
    w = labels.k + 1  # codes + 1: row and column 0 hold the items either left unrated
    tally = np.bincount((a + 1) * w + b + 1, minlength=w * w).reshape(w, w)
    return np.ascontiguousarray(tally[1:, 1:])


def _kappa_of(table: np.ndarray, labels: Labels, weights: Any) -> Any:
    options = {"weights": weights, "population_size": None}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an undefined kappa is nan in the table
        return from_counts(COHEN, PairTable(table, labels, declared=True), options)


def _kappa(a: np.ndarray, b: np.ndarray, labels: Labels, weights: Any) -> Any:
    """Cohen's kappa of two code vectors over the items both rated (−1: missing)."""
    return _kappa_of(_table(a, b, labels), labels, weights)


def panel_reference(counts: np.ndarray, weighted: bool) -> np.ndarray:
    """Return each item's reference label (−1: none): the majority, or the lower median.

    A tie for the majority leaves the item out; weighted (ordered) data take
    the lower median, which is always a label.
    """
    m = counts.sum(axis=1)
    if weighted:
        reached = counts.cumsum(axis=1) >= ((m + 1) // 2)[:, None]
        ref = np.argmax(reached, axis=1)
    else:
        ref = np.argmax(counts, axis=1)
        top = counts.max(axis=1)
        ref = np.where((counts == top[:, None]).sum(axis=1) > 1, -1, ref)
    out: np.ndarray = np.where(m > 0, ref, -1)
    return out


def versus(
    matrix: RatingMatrix, j: Joints, inverse: np.ndarray, weights: Any
) -> tuple[tuple[Any, ...], np.ndarray, tuple[Any, ...]]:
    """Return each rater against the others' reference, the pairwise kappas, the MH tests.

    The others' reference depends on an item's panel pattern and the rater's
    code only: it is found once per joint pattern (``j``, every rater's), and
    every rater's table against it is one count. The Stuart–Maxwell test of
    marginal homogeneity (rows: the rater) is always against the others'
    majority, never their lower median: the lower median of raters who
    disagree leans to the lower label, which would shift the reference's
    marginals and flag every rater.
    """
    labels, codes = matrix.labels, matrix.codes
    tables = _tables(j, _references(j, False), labels.k)
    homogeneity = homogeneity_tests(tables, labels.values)
    if weights is not None:  # the kappa's reference: the lower median
        tables = _tables(j, _references(j, True), labels.k)
    weighting = resolve(weights, labels, COHEN.spec.name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an undefined kappa is nan in the table
        # Cohen's kappa is symmetric in its raters: the reference stays its first one
        versus = tuple(
            kappa_result(np.ascontiguousarray(t.T), labels, weighting, COHEN) for t in tables
        )
    return versus, pairwise_kappas(codes, labels, weights, j.code_rows), homogeneity


def _references(j: Joints, weighted: bool) -> np.ndarray:
    """Return the others' reference label of every rater's joint patterns (−1: none).

    It depends on the items' panel pattern and the rater's code only: it is
    found once per such pair (every pair of the panel's patterns and codes,
    when they are fewer than the raters' joint patterns).
    """
    if j.grid is not None:  # codes no item has are unused
        found = panel_reference(j.grid, weighted)
        chosen: np.ndarray = found[j.pattern * (j.panel.shape[1] + 1) + j.code1]
        return chosen
    out: np.ndarray = panel_reference(j.rows(), weighted)
    return out


def _tables(j: Joints, reference: np.ndarray, k: int) -> np.ndarray:
    """Return each rater's k×k table against a reference of its joint patterns (−1: missing).

    The items of a joint pattern share the rater's code and the reference:
    each pattern adds its frequency to one cell, the count of its items.
    """
    n_raters, w = j.starts.shape[0] - 1, k + 1
    rater = np.repeat(np.arange(n_raters), np.diff(j.starts))
    cells = rater * (w * w) + j.code1 * w + reference + 1
    tally = np.zeros(n_raters * w * w, dtype=np.int64)
    np.add.at(tally, cells, j.freq)
    return np.ascontiguousarray(tally.reshape(n_raters, w, w)[:, 1:, 1:])


def homogeneity_tests(tables: np.ndarray, labels: tuple[Any, ...]) -> tuple[Any, ...]:
    """Return :func:`homogeneity_of_table` (Stuart–Maxwell) of each k×k table, bit for bit.

    The covariances' ranks and pseudo-inverses are taken on their stack (the
    same LAPACK call per matrix) and the χ² tails in one call.
    """
    k = tables.shape[1]
    if k > _SPARSE or k <= _EXACT:  # the exact χ² (k ≤ 32), or the sparse solve
        return tuple(homogeneity_of_table(t, labels) for t in tables)
    t = tables.astype(np.float64)
    rows, cols = t.sum(axis=2), t.sum(axis=1)
    d = rows - cols
    s = -(t + t.transpose(0, 2, 1))
    diagonal = np.arange(k)
    s[:, diagonal, diagonal] = rows + cols - 2 * t[:, diagonal, diagonal]
    dfs = np.linalg.matrix_rank(s).tolist()
    inverse = np.linalg.pinv(s, hermitian=True)
    chi2 = [float(d[g] @ inverse[g] @ d[g]) if df else 0.0 for g, df in enumerate(dfs)]
    stats = require("scipy.stats", "stats", "concord.marginal_homogeneity")
    tested = [g for g, df in enumerate(dfs) if df > 0]
    pvalues = [1.0] * len(dfs)
    if tested:
        tails = stats.chi2.sf(np.array(chi2)[tested], np.array(dfs)[tested])
        for g, p in zip(tested, tails.tolist(), strict=True):
            pvalues[g] = float(p)
    return tuple(
        marginal_result(table, (chi2[g], dfs[g], pvalues[g]), labels)
        for g, table in enumerate(tables)
    )


def pairwise_kappas(
    codes: np.ndarray,
    labels: Labels,
    weights: Any,
    rows: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """Return Cohen's kappa of every pair of raters (code vectors, −1: missing), R × R.

    Each value is ``_kappa(codes[:, g], codes[:, h], ...).statistic`` bit for bit,
    without a result object per pair: the pairs' tables come from products of
    the one-hot codes (exact counts in float64), a block of raters at a time,
    and κ = (B − nA)/B of :func:`~concord._coefficients.kappa.cohen_core.weighted_kappa_core`
    is formed in int64 where it provably fits and divided once (correctly
    rounded, as Python's int / int) where both terms are below 2**53; wider
    pairs divide as Python ints, and weights that are not int64 take the per-pair path.
    """
    n, n_raters = codes.shape
    k = labels.k
    w = _exact.integers(resolve(weights, labels, "cohen_kappa").exact)
    pairwise = np.ones((n_raters, n_raters))
    top = int(np.abs(w).max(initial=0)) if w.dtype != object else -1
    if top < 0 or not _exact.fits_int64(top, n, n, k, k) or n >= _FLOAT_EXACT:
        for g in range(n_raters):
            for h in range(g + 1, n_raters):
                kappa = _kappa(codes[:, g], codes[:, h], labels, weights).statistic
                pairwise[g, h] = pairwise[h, g] = kappa
        return pairwise
    every = code_rows(codes, k) if rows is None else rows
    if every is not None:  # every pair's table from the distinct rows of codes, counted once
        first, second = np.triu_indices(n_raters, 1)
        pairs = zip(first.tolist(), second.tolist(), strict=True)
        tables = np.stack([_pair_of(every, k, g, h) for g, h in pairs])
        pairwise[first, second] = pairwise[second, first] = _kappas(tables, w)
        return pairwise
    block = max(1, _CELLS // (k * k * n_raters))
    for lo in range(0, n_raters - 1, block):
        hi = min(lo + block, n_raters - 1)
        tables = _block_tables(codes, k, lo, hi)  # (hi − lo, R − lo, k, k): g in rows
        first, second = np.nonzero(np.arange(hi - lo)[:, None] < np.arange(n_raters - lo))
        kappa = _kappas(tables[first, second], w)  # every pair g < h of the block at once
        pairwise[first + lo, second + lo] = pairwise[second + lo, first + lo] = kappa
    return pairwise


def _pair_of(rows: tuple[np.ndarray, np.ndarray], k: int, g: int, h: int) -> np.ndarray:
    """Return the k×k table of raters g (rows) and h over the items both rated.

    ``rows``: the distinct rows of codes + 1 and their items (:func:`code_rows`).
    """
    code1, freq = rows
    table = np.zeros((k + 1) * (k + 1), dtype=np.int64)
    np.add.at(table, code1[:, g] * (k + 1) + code1[:, h], freq)
    return np.ascontiguousarray(table.reshape(k + 1, k + 1)[1:, 1:])


def _block_tables(codes: np.ndarray, k: int, lo: int, hi: int) -> np.ndarray:
    """Return the k×k tables of raters lo..hi − 1 against raters lo.. (items both rated).

    The counts are exact in float32 below 2**24 items (float64 beyond).
    """
    n, n_raters = codes.shape
    dtype = np.float32 if n < 1 << 24 else np.float64
    if hi == n_raters - 1:  # the last rater's rows too: the product is then Aᵀ A
        hi = n_raters
    product = np.zeros(((hi - lo) * k, (n_raters - lo) * k), dtype=dtype)
    step = max(1, _CELLS // (n_raters * k))
    for s in range(0, n, step):
        part = codes[s : s + step, lo:]
        onehot = (part[:, :, None] == np.arange(k)).reshape(part.shape[0], -1).astype(dtype)
        if hi == n_raters:  # Aᵀ A: BLAS syrk, half the work
            product += onehot.T @ onehot  # counts of items: exact
        else:
            product += onehot[:, : (hi - lo) * k].T @ onehot
    tables = product.astype(np.int64).reshape(hi - lo, k, n_raters - lo, k)  # whole numbers
    out: np.ndarray = tables.transpose(0, 2, 1, 3)
    return out


def _kappas(tables: np.ndarray, w: np.ndarray) -> np.ndarray:
    """κ = (B − nA)/B of each k×k table (int64 sums; the caller bounds them), nan where B = 0."""
    rows, cols = tables.sum(axis=2), tables.sum(axis=1)
    total = rows.sum(axis=1)
    a = np.einsum("pij,ij->p", tables, w)
    b = np.einsum("pi,ij,pj->p", rows, w, cols)
    num = b - total * a
    kappa = np.full(num.shape, np.nan)
    defined = b != 0
    kappa[defined] = num[defined] / b[defined]
    wide = defined & ((np.abs(num) >= _FLOAT_EXACT) | (np.abs(b) >= _FLOAT_EXACT))
    for p in np.flatnonzero(wide):  # Python's int / int: rounded once, at any size
        kappa[p] = int(num[p]) / int(b[p])
    return kappa
