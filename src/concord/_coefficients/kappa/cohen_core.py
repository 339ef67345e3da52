"""Cohen's kappa and Scott's pi of a k×k table: the exact core, its float twin, its variance.

* :func:`weighted_kappa_core`: κ, p_o and p_e in exact integer arithmetic, rounded once;
* :func:`kappa_of_tables` and :class:`TableSampler`: the same κ in floating point,
  vectorised over a stack of bootstrap tables;
* :func:`fce`: the large-sample variance of Fleiss, Cohen & Everitt (1969), the
  non-null variance and the null variance of its z test (SAS PROC FREQ,
  statsmodels, R vcd and irr report these). Scott's pi gets Gwet's variance
  of Fleiss' kappa (:mod:`concord._coefficients.multirater.agreement_core`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from concord._common import exact as _exact
from concord._common.errors import describe
from concord._data.labels import Labels
from concord._inference.resampling import Resampled


def weighted_kappa_core(
    table: np.ndarray,
    weights: np.ndarray,
    *,
    pooled: bool = False,
    split: _exact.Split | None = None,
    margins: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[float, float, float]:
    """Return (κ, p_o, p_e) of a k×k table under k×k disagreement weights, rounded once.

    With n = ΣO, row totals r and column totals c, and the weights scaled to
    integers W (see :mod:`concord._common.exact`)::

        A = Σ W_ij O_ij          (n × observed weighted disagreement)
        B = Σ W_ij r_i c_j       (n² × chance weighted disagreement)
        κ = 1 − (A/n) / (B/n²) = (B − n·A) / B

    and, with agreement weights 1 − W / max W, p_o = 1 − A / (n·max W) and
    p_e = 1 − B / (n²·max W). κ is nan when B = 0. With ``pooled`` (Scott's
    pi) chance uses the pooled shares (r + c) / 2n for both raters, so B is
    Σ W_ij s_i s_j / 4 with s = r + c; everything is scaled by 4 to stay integral.
    ``split`` is :func:`concord._common.exact.split` of ``weights``, when the
    caller keeps it (named weights are resolved once per scale); ``margins``
    the row and column totals of an int64 ``table``, when the caller has them.
    """
    o = table if margins is not None and table.dtype == np.int64 else _exact.integers(table)
    if o.dtype != object and split is None:
        split = _exact.split(weights)
    if o.dtype == object or split is None:
        n, top, a, b = _object_sums(o, _exact.integers(weights), pooled)
    else:  # int64 while the sums fit (k² machine integers), Python ints for k totals
        rows, cols = margins if o is table and margins is not None else (o.sum(1), o.sum(0))
        n, top, a, b = _split_sums(o, split, pooled, rows, cols)
    scale = 4 if pooled else 1
    a *= scale
    statistic = _exact.ratio(b - n * a, b)
    if top == 0:  # a single category: all agreement, nothing to weigh
        return statistic, 1.0, 1.0
    p_o = _exact.ratio(scale * n * top - a, scale * n * top)
    p_e = _exact.ratio(scale * n * n * top - b, scale * n * n * top)
    return statistic, p_o, p_e


def kappa_fractions(
    table: np.ndarray, weights: np.ndarray, *, pooled: bool = False
) -> tuple[Fraction, Fraction, Fraction] | None:
    """Return (κ, p_o, p_e) of :func:`weighted_kappa_core` as exact fractions (None: B = 0).

    The same integer sums, not rounded: a mean of kappas (Light's) is the mean of
    these, rounded once.
    """
    n, top, a, b = _object_sums(_exact.integers(table), _exact.integers(weights), pooled)
    scale = 4 if pooled else 1
    a *= scale
    if b == 0:
        return None
    kappa = Fraction(b - n * a, b)
    if top == 0:
        return kappa, Fraction(1), Fraction(1)
    return (
        kappa,
        Fraction(scale * n * top - a, scale * n * top),
        Fraction(scale * n * n * top - b, scale * n * n * top),
    )


def _split_sums(
    o: np.ndarray, split: _exact.Split, pooled: bool, rows: np.ndarray, cols: np.ndarray
) -> tuple[int, int, int, int]:
    """Return (n, max W, A, B) of :func:`weighted_kappa_core` from the int64 parts of W."""
    pieces, top, bound = split
    n = int(np.add.reduce(rows))
    u, v = (rows + cols, rows + cols) if pooled else (rows, cols)
    if len(pieces) == 1 and _exact.fits_int64(bound, 2 * n, 2 * n):
        shift, w = pieces[0]  # the usual case: every sum is an int64, exactly
        # .dot: the same int64 arithmetic as @, without the matmul ufunc's overhead
        return n, top, int(np.vdot(w, o)) << shift, int(u.dot(w).dot(v)) << shift
    return n, top, _exact.weighted_total(pieces, o, bound), _exact.bilinear(u, pieces, v, bound)


def _object_sums(o: np.ndarray, w: np.ndarray, pooled: bool) -> tuple[int, int, int, int]:
    """Return (n, max W, A, B) of :func:`weighted_kappa_core` in Python ints where need be."""
    n = int(o.sum())
    top = int(w.max())
    if not _exact.fits_int64(top, 4 * n, n):
        o, w = _exact.as_object(o), _exact.as_object(w)
    rows, cols = o.sum(axis=1), o.sum(axis=0)
    a = int((w * o).sum())
    b = int((rows + cols) @ w @ (rows + cols)) if pooled else int(rows @ w @ cols)
    return n, top, a, b


def undefined_reason(table: np.ndarray, labels: Labels) -> str:
    """Say why the chance disagreement of ``table`` is zero."""
    used = np.flatnonzero(table.sum(axis=0) + table.sum(axis=1))
    if labels.k == 1:
        return f"there is only one category, {describe(labels.values[0], 40)}"
    if used.size == 1:
        return f"both raters used only the category {describe(labels.values[used[0]], 40)}"
    return "every pair of categories that chance could produce has disagreement weight 0"


def kappa_of_tables(tables: np.ndarray, weights: np.ndarray, pooled: bool) -> np.ndarray:
    """Cohen's (or Scott's) kappa of a stack of k×k tables under disagreement weights."""
    n = tables.sum(axis=(1, 2))
    observed = np.einsum("bij,ij->b", tables, weights)
    rows, cols = tables.sum(axis=2), tables.sum(axis=1)
    if pooled:
        s = rows + cols
        chance = np.einsum("bi,ij,bj->b", s, weights, s) / 4
    else:
        chance = np.einsum("bi,ij,bj->b", rows, weights, cols)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: np.ndarray = (chance - n * observed) / chance
    return out


@dataclass(frozen=True)
class TableSampler(Resampled):
    """Two raters: resample the pairs (or, with sample weights, the weighted units)."""

    table: np.ndarray
    weights: np.ndarray  # disagreement
    pooled: bool = False
    unit_cells: np.ndarray | None = None  # with sample weights: distinct (cell, weight)
    unit_weights: np.ndarray | None = None
    unit_freq: np.ndarray | None = None

    def _units(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self.unit_cells is None:
            cells = np.flatnonzero(self.table)
            return cells, np.ones(cells.size), self.table.ravel()[cells].astype(np.float64)
        assert self.unit_weights is not None and self.unit_freq is not None
        return self.unit_cells, self.unit_weights, self.unit_freq.astype(np.float64)

    def _tables(self, counts: np.ndarray, cells: np.ndarray, weight: np.ndarray) -> np.ndarray:
        k = self.table.shape[0]
        flat = np.zeros((counts.shape[0], k * k))
        if self.unit_cells is None:  # one unit per non-zero cell, of weight 1
            flat[:, cells] = counts
            return flat.reshape(-1, k, k)
        for cell in np.unique(cells):
            at = cells == cell
            flat[:, cell] = counts[:, at] @ weight[at]
        return flat.reshape(-1, k, k)

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        """Return κ for each row of counts per unit, shape (B, units)."""
        cells, weight, _ = self._units()
        return kappa_of_tables(self._tables(counts, cells, weight), self.weights, self.pooled)

    def frequencies(self) -> np.ndarray:
        return self._units()[2]


def fce(
    table: np.ndarray, agreement: np.ndarray, kappa: float, weights: np.ndarray | None = None
) -> tuple[float, float]:
    """Fleiss, Cohen & Everitt (1969): (var κ, var κ under H0) for agreement weights.

    With cell shares p_ij, margins p_i., p_.j, w̄_i. = Σ_j p_.j w_ij and
    w̄_.j = Σ_i p_i. w_ij::

        var  = [Σ p_ij (w_ij − (w̄_i. + w̄_.j)(1 − κ))² − (κ − p_e(1 − κ))²] / (n (1 − p_e)²)
        var0 = [Σ p_i. p_.j (w_ij − (w̄_i. + w̄_.j))² − p_e²] / (n (1 − p_e)²)

    Each bracket is a variance (of X_ij = w_ij − (w̄_i. + w̄_.j)(1 − κ) over
    the cells' shares), a difference that cancels when the variance is 0 or
    nearly (κ = 0 with one rater constant): where the float difference is
    below 2**−30 of its terms, and the disagreement ``weights`` are given,
    both are recomputed in fractions (:func:`_fce_exact`), so an exact 0 is 0.
    """
    var, var0, terms = _fce_floats(table, agreement, kappa)
    if weights is not None and min(abs(var) - terms[0], abs(var0) - terms[1]) <= 0:
        return _fce_exact(table, weights)
    return var, var0


def _fce_floats(
    table: np.ndarray, agreement: np.ndarray, kappa: float
) -> tuple[float, float, tuple[float, float]]:
    """Return :func:`fce`'s two variances in floats, and 2**−30 of each one's larger term.

    Every sum is :func:`_exact.fsum` or :func:`_exact.fdot`: the same on every CPU.
    """
    n, p, rows, cols, p_e, w_row, w_col = _shares(table, agreement)
    spread = w_row[:, None] + w_col[None, :]
    scale = n * (1 - p_e) ** 2
    first = _exact.fdot(p, (agreement - spread * (1 - kappa)) ** 2)
    first0 = _exact.fdot(np.outer(rows, cols), (agreement - spread) ** 2)
    var = first - (kappa - p_e * (1 - kappa)) ** 2
    var0 = first0 - p_e**2
    if scale == 0:  # 1 − p_e underflows (sample weights of ~1e-300): no finite variance
        return math.nan, math.nan, (math.inf, math.inf)
    near = (2.0**-30 * abs(first) / scale, 2.0**-30 * abs(first0) / scale)
    return var / scale, var0 / scale, near


def _shares(table: np.ndarray, agreement: np.ndarray) -> tuple[Any, ...]:
    """n, the cell shares p, the margins, p_e and w̄_i., w̄_.j: sums the same on every CPU."""
    n = _exact.fsum(table)
    p = table / n
    rows = _exact.fmatvec(p, np.ones(p.shape[1]))
    cols = _exact.fmatvec(p.T, np.ones(p.shape[0]))
    w_row = _exact.fmatvec(agreement, cols)  # w̄_i.
    w_col = _exact.fmatvec(agreement.T, rows)  # w̄_.j
    return n, p, rows, cols, _exact.fdot(rows, w_row), w_row, w_col


def _fce_exact(table: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """:func:`fce` in fractions from the counts and the disagreement weights, rounded once.

    The agreement weights are 1 − W/max W, κ is the exact one (not its float).
    """
    from fractions import Fraction

    k = table.shape[0]
    t = [[Fraction(float(v)) for v in row] for row in table.tolist()]
    w = [
        [Fraction(v if isinstance(v, int) else float(v)) for v in row] for row in weights.tolist()
    ]
    top = max(max(row) for row in w)
    a = [[1 - v / top if top else Fraction(1) for v in row] for row in w]
    n = sum(sum(row) for row in t)
    rows = [sum(row) / n for row in t]
    cols = [sum(t[i][j] for i in range(k)) / n for j in range(k)]
    w_row = [sum(a[i][j] * cols[j] for j in range(k)) for i in range(k)]
    w_col = [sum(rows[i] * a[i][j] for i in range(k)) for j in range(k)]
    p_e = sum(rows[i] * w_row[i] for i in range(k))
    p_o = sum(t[i][j] * a[i][j] for i in range(k) for j in range(k)) / n
    if p_e == 1:
        return math.nan, math.nan
    kappa = (p_o - p_e) / (1 - p_e)
    scale = n * (1 - p_e) ** 2
    var = (
        sum(
            t[i][j] / n * (a[i][j] - (w_row[i] + w_col[j]) * (1 - kappa)) ** 2
            for i in range(k)
            for j in range(k)
            if t[i][j]
        )
        - (kappa - p_e * (1 - kappa)) ** 2
    )
    var0 = (
        sum(
            rows[i] * cols[j] * (a[i][j] - (w_row[i] + w_col[j])) ** 2
            for i in range(k)
            for j in range(k)
        )
        - p_e**2
    )
    return _exact.to_float(var / scale), _exact.to_float(var0 / scale)


def pair_terms(
    a: np.ndarray, b: np.ndarray, table: np.ndarray, agreement: np.ndarray, kappa: float
) -> np.ndarray:
    """Per-pair terms u_i = ψ_i / n of Cohen's kappa, so that Σ u_i² is :func:`fce`'s variance.

    ψ is the influence of the pair (a, b) on κ (the delta method applied to
    the pair table): with p_e = Σ a_kl p_k. p_.l and pe_i = (w̄_a. + w̄_.b)/2,
    ψ = (w_ab − p_o − 2(1 − κ)(pe_i − p_e)) / (1 − p_e). Its mean is 0 and
    Σ ψ_i² / n² expands to Fleiss, Cohen & Everitt's (1969) variance
    exactly, so the same terms give κ's SE and, paired item by item, the SE
    of a difference of two kappas (Gwet 2016). ``a`` and ``b`` are the label
    codes of the two raters, pair by pair.
    """
    if float(table.sum()) == 0:
        return np.full(a.shape[0], np.nan)
    n, p, _, _, p_e, w_row, w_col = _shares(table, agreement)
    p_o = _exact.fdot(p, agreement)
    if p_e == 1 or not math.isfinite(kappa):
        return np.full(a.shape[0], np.nan)
    pe_i = (w_row[a] + w_col[b]) / 2
    psi = (agreement[a, b] - p_o - 2 * (1 - kappa) * (pe_i - p_e)) / (1 - p_e)
    out: np.ndarray = psi / n
    return out
