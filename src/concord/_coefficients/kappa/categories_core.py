"""Cores of the category diagnostics, each on a k×k count table or item count patterns.

Marginal homogeneity (Stuart 1955, Maxwell 1970, Bhapkar 1966, McNemar
1947), Bangdiwala's B and B^w with their delta-method SE, and the
proportion of specific agreement (Uebersax 1982/2023; Cicchetti & Feinstein
1990) with its ratio (delta-method) SE. No input checks here: the public
functions in :mod:`concord._coefficients.kappa.categories` validate and count.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from concord._common import exact_rows
from concord._common.exact import dyadic, fdot, fsum, to_float
from concord._common.extras import require
from concord._tables.patterns import Patterns


def stuart_maxwell(table: np.ndarray) -> tuple[float, int]:
    r"""Return Stuart–Maxwell's χ² = dᵀ S⁺ d and its df = rank S.

    d = row totals − column totals; S is the estimated covariance of d,
    S_kk = r_k + c_k − 2 n_kk and S_kl = −(n_kl + n_lk) (Maxwell 1970). S
    always has the last category's row dependent on the others, and also
    loses rank for each category on which the raters never disagree: these
    carry no information, so the pseudo-inverse drops them and the df counts
    the rest. Since S = Σ_items v vᵀ and d = Σ_items v (v = e_row − e_col),
    d lies in the span of S and dᵀ S⁺ d is the χ² of that span. With full
    rank this is the textbook dᵀ S⁻¹ d on k − 1 categories (R irr's
    ``stuart.maxwell.mh``).
    """
    if table.shape[0] <= _EXACT:
        return _stuart_maxwell_exact(np.asarray(table))
    if table.shape[0] > _DENSE:
        return _stuart_maxwell_sparse(np.asarray(table))
    t = np.asarray(table, dtype=np.float64)
    d = t.sum(axis=1) - t.sum(axis=0)
    s = -(t + t.T)
    np.fill_diagonal(s, t.sum(axis=1) + t.sum(axis=0) - 2 * np.diag(t))
    df = int(np.linalg.matrix_rank(s))
    if df == 0:
        return 0.0, 0
    return float(d @ np.linalg.pinv(s, hermitian=True) @ d), df


# up to this many categories the χ² is exact (integers), rounded once: the same on every CPU
_EXACT = 32


def _stuart_maxwell_exact(table: np.ndarray) -> tuple[float, int]:
    """Return Stuart–Maxwell's χ² and df in integers, rounded once (k ≤ ``_EXACT``).

    As :func:`_stuart_maxwell_sparse`: on each connected component of the
    disagreement graph, one category grounded, the form dᵀL⁻¹d of the
    grounded Laplacian L (positive definite). It is −det M / det L for
    M = [[L, d], [dᵀ, 0]] (the Schur complement), and fraction-free Gaussian
    elimination (Bareiss 1968; no pivot needed, every leading minor of M's
    L block is positive) gives both determinants in integers. Counts with
    sample weights are integers times 2**p, and χ² scales as the counts.
    """
    ints, power = dyadic(np.asarray(table, dtype=np.float64))
    k = table.shape[0]
    t = [ints[i * k : (i + 1) * k] for i in range(k)]
    d = [sum(t[i]) - sum(t[j][i] for j in range(k)) for i in range(k)]
    parent = list(range(k))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(k):
        for j in range(i + 1, k):
            if t[i][j] or t[j][i]:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(k):
        groups.setdefault(root(i), []).append(i)
    chi2, df = Fraction(0), 0
    for members in groups.values():
        if len(members) < 2:
            continue  # a category with no disagreement: no information, no df
        rest = members[1:]
        m = [[-(t[a][b] + t[b][a]) for b in rest] + [d[a]] for a in rest]
        for row, a in zip(m, rest, strict=True):
            row[rest.index(a)] = sum(t[a][b] + t[b][a] for b in range(k) if b != a)
        m.append([d[a] for a in rest] + [0])
        chi2 += _schur_form(m)
        df += len(rest)
    return to_float(chi2 * Fraction(2) ** power), df


def _schur_form(m: list[list[int]]) -> Fraction:
    """Return −det M / det L of M = [[L, d], [dᵀ, 0]] by Bareiss's elimination."""
    a = np.array(m, dtype=object)
    n, previous = len(m), 1
    for k in range(n - 1):
        pivot = a[k, k]
        rest = a[k + 1 :, k + 1 :]
        rest *= pivot
        rest -= np.multiply.outer(a[k + 1 :, k], a[k, k + 1 :])
        rest //= previous  # exact: Sylvester's identity
        previous = pivot
    return Fraction(-int(a[n - 1, n - 1]), int(a[n - 2, n - 2]))


# beyond this many categories the χ² solves S's sparse blocks instead of a k×k
# pseudo-inverse (an SVD: k³ time and several k×k arrays, 800 MB each at k = 10⁴)
_DENSE = 256


def _stuart_maxwell_sparse(table: np.ndarray) -> tuple[float, int]:
    """Return Stuart–Maxwell's χ² and df from the disagreeing cells only: O(k + cells) memory.

    S is the Laplacian of the graph whose edge (k, l) weighs n_kl + n_lk, so S⁺'s
    quadratic form splits over the graph's connected components; d sums to 0 on each
    (every disagreement adds to one category and takes from another in it), and on a
    connected component the form is d's with one category grounded, a nonsingular
    sparse solve. The df is Σ (size − 1): rank S.
    """
    what = "marginal_homogeneity beyond 256 categories"
    coo_matrix = require("scipy.sparse", "stats", what).coo_matrix
    connected_components = require("scipy.sparse.csgraph", "stats", what).connected_components
    spsolve = require("scipy.sparse.linalg", "stats", what).spsolve

    k = table.shape[0]
    d = (table.sum(axis=1) - table.sum(axis=0)).astype(np.float64)
    i, j = np.nonzero(table)
    off = i != j
    i, j = i[off], j[off]
    w = table[i, j].astype(np.float64)
    graph = coo_matrix((w, (i, j)), shape=(k, k)).tocsr()
    graph = (graph + graph.T).tocsr()  # edge weights n_kl + n_lk
    laplacian = (coo_matrix((np.asarray(graph.sum(axis=1)).ravel(), (range(k), range(k))),
                            shape=(k, k)) - graph).tocsc()  # fmt: skip
    n_parts, part = connected_components(graph, directed=False)
    chi2, df = 0.0, 0
    for c in range(n_parts):
        members = np.flatnonzero(part == c)
        if members.size < 2:
            continue  # a category with no disagreement: no information, no df
        rest = members[1:]  # ground the first category of the component
        block = laplacian[rest][:, rest].tocsr()
        x = _conjugate_gradient(block, d[rest])
        if x is None:  # not converged: the direct sparse solve (slower where LU fills in)
            x = np.atleast_1d(spsolve(block.tocsc(), d[rest]))
        chi2 += float(d[rest] @ x)
        df += members.size - 1
    return chi2, df


def _conjugate_gradient(a: Any, b: np.ndarray) -> np.ndarray | None:
    """Solve the symmetric positive definite sparse a·x = b by Jacobi-preconditioned CG.

    A grounded Laplacian is SPD; the LU of a random graph's fills in (minutes at
    k = 10⁴) where CG takes a few dozen sparse products. Stops at a residual of
    1e-14 of b's; None if that takes more than 10·k steps.
    """
    inverse_diagonal = 1.0 / a.diagonal()
    x = np.zeros_like(b)
    r = b.copy()
    z = inverse_diagonal * r
    p = z.copy()
    rz = float(r @ z)
    target = 1e-14 * float(np.linalg.norm(b))
    for _ in range(10 * b.shape[0] + 10):
        if float(np.linalg.norm(r)) <= target:
            return x
        ap = a @ p
        step = rz / float(p @ ap)
        x += step * p
        r -= step * ap
        z = inverse_diagonal * r
        rz, previous = float(r @ z), rz
        p = z + (rz / previous) * p
    return None


def bhapkar(table: np.ndarray) -> tuple[float, int]:
    """Return Bhapkar's Wald χ² and its df: Q / (1 − Q / n) with Q Stuart–Maxwell's.

    Bhapkar's covariance is S − d dᵀ / n (the unrestricted estimate), and the
    Sherman–Morrison identity turns dᵀ (S − d dᵀ/n)⁻¹ d into Q / (1 − Q/n)
    (Keefe 1982); it is infinite when every pair disagrees in one direction.
    Q ≤ n always (Cauchy–Schwarz), and Q = n exactly then, but the
    pseudo-inverse returns Q a few ulps off n: 1 − Q/n within rounding
    (relative 1e-9, far below any finite Bhapkar's p-value) reads as Q = n.
    """
    q, df = stuart_maxwell(table)
    n = float(np.asarray(table).sum())
    if df == 0:
        return 0.0, 0
    return (q / (1 - q / n) if q < n * (1 - 1e-9) else float("inf")), df


def mcnemar(table: np.ndarray) -> tuple[float, int]:
    """Return McNemar's χ² (b − c)² / (b + c), no continuity correction; df 1 (0 if b + c = 0)."""
    b, c = float(table[0, 1]), float(table[1, 0])
    if b + c == 0:
        return 0.0, 0
    return (b - c) ** 2 / (b + c), 1


def _block(k: int, reach: int) -> np.ndarray:
    """Mask (k, k): True where two categories are at most ``reach`` apart."""
    idx = np.arange(k)
    out: np.ndarray = np.abs(idx[:, None] - idx[None, :]) <= reach
    return out


def bangdiwala(table: np.ndarray, partial: np.ndarray) -> tuple[float, float]:
    r"""Return Bangdiwala's B^w and its delta-method SE.

    B^w = Σ_i Σ_b w_b (S_bi − S_{b−1,i}) / Σ_i r_i c_i, where S_bi is the
    product of column i's and row i's counts within distance b of the
    diagonal and ``partial`` = (w_0 = 1, w_1, …) are the partial-agreement
    weights by distance (vcd's ``agreementplot``); ``partial`` = (1,) gives
    B = Σ n_ii² / Σ r_i c_i (Bangdiwala 1985). The SE is the multinomial
    delta method, √((Σ g² p − (Σ g p)²) / n) with g = ∂B/∂p; for B it is
    the SE of Gwet's irrCAC ``bangdiwala.table``.
    """
    t = np.asarray(table, dtype=np.float64)
    k, n = t.shape[0], fsum(t)
    p = t / n
    rows, cols = exact_rows.row_sums(p), exact_rows.row_sums(p.T)  # exact sums, rounded once
    w = np.zeros(k)
    w[: min(k, len(partial))] = partial[:k]
    step = w - np.append(w[1:], 0.0)  # Σ_b w_b (S_b − S_{b−1}) = Σ_b (w_b − w_{b+1}) S_b
    numerator, grad_n = 0.0, np.zeros((k, k))
    for b in np.flatnonzero(step):
        mask = _block(k, int(b))
        within = np.where(mask, p, 0.0)
        col_in = exact_rows.row_sums(within.T)  # column i within reach of i
        row_in = exact_rows.row_sums(within)  # row i within reach of i
        numerator += step[b] * fdot(col_in, row_in)
        grad_n += step[b] * (mask * row_in[None, :] + mask * col_in[:, None])
    denominator = fdot(rows, cols)
    statistic = numerator / denominator
    g = (grad_n - statistic * (cols[:, None] + rows[None, :])) / denominator
    var = (fdot(g * g, p) - fdot(g, p) ** 2) / n  # exact sums: the same on every CPU
    return statistic, float(np.sqrt(max(var, 0.0)))


def pair_patterns(table: np.ndarray) -> Patterns:
    """Two raters' k×k table as item count patterns: cell (i, j) is the row e_i + e_j."""
    k = table.shape[0]
    cells = np.flatnonzero(table)
    eye = np.eye(k, dtype=np.int64)
    rows = eye[cells // k] + eye[cells % k]
    return Patterns(rows, np.asarray(table).ravel()[cells].astype(np.int64))


def specific(counts: Patterns) -> tuple[np.ndarray, np.ndarray, int]:
    r"""Return each category's specific agreement, its SE, and the number of items used.

    p_s(j) = Σ_i n_ij (n_ij − 1) / Σ_i n_ij (n_i − 1) over items with two or
    more ratings (Uebersax; for two raters 2 n_jj / (r_j + c_j), Cicchetti &
    Feinstein 1990). The SE is the ratio estimator's, √(Σ_i (x_i − p_s y_i)²)
    / Σ_i y_i, the delta method over items; for two raters it is the
    multinomial delta-method SE of Graham & Bull (1998).
    """
    rows = counts.rows.astype(np.float64)
    m = rows.sum(axis=1)
    keep = m >= 2
    rows, m, f = rows[keep], m[keep], counts.freq[keep].astype(np.float64)
    x = rows * (rows - 1)
    y = rows * (m - 1)[:, None]
    num, den = f @ x, f @ y
    with np.errstate(invalid="ignore", divide="ignore"):
        ps = num / den
        resid = x - ps[None, :] * y
        se = np.sqrt(exact_rows.matvec_floats((resid * resid).T, f)) / den  # exact sums
    return ps, se, int(f.sum())
