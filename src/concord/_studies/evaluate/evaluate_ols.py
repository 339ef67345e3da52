"""The fairness models' least squares, exactly: dummies of groups and of human score levels.

RSMTool's fairness models (:mod:`~concord._studies.evaluate.evaluate_fairness`)
regress the error, or its square, on treatment-coded dummies: of the groups
(OSA, OSD), of the human score levels (the null model), or of both (CSD). A
row of such a design is fixed by its category (or pair of categories), so a
fit depends on the data only through the counts, the sums of y per category
and Σy². With those sums exact (:func:`~concord._common.exact.fsums_by`,
:func:`~concord._tables.dyadic.float_sums`), each fit is solved in rationals:

* one factor, G categories, base b: the fitted values are the category means,
  β₀ = S_b/n_b, β_g = S_g/n_g − S_b/n_b, RSS = Σy² − Σ S_g²/n_g, and the
  diagonal of (XᵀX)⁻¹ is 1/n_b, 1/n_g + 1/n_b;
* two factors, additive (groups g, levels h, cell counts n_gh): the normal
  equations' group block is diagonal, so the group effects α_g = (S_g − Σ_h
  n_gh λ_h)/n_g are absorbed, leaving the levels' (H−1)×(H−1) system
  C λ = T − Nᵀ(S/n), C = diag(n_h) − Nᵀ diag(1/n_g) N (the Schur complement);
  β₀ = α_b, β_g = α_g − α_b, RSS = Σy² − Σ α_g S_g − Σ λ_h T_h, and the
  variance factor of α_g − α_b is 1/n_g + 1/n_b + (w_g − w_b)ᵀ C⁻¹ (w_g − w_b),
  w_g = N[g]/n_g (block inversion).

Every reported number (coefficient, its SE and t, adjusted R², F) is the
exact value rounded once, square roots by integer square roots, so it is the
same on every CPU; LAPACK's least squares, which these replace, is neither
exact nor CPU-independent. A fit that is not regular (no residual degrees of
freedom, a perfect or constant fit, levels not connected through the groups,
many levels) is left to the least squares (None).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from concord._common.exact import fsums_by, root_ratio, to_float
from concord._common.extras import require
from concord._inference.intervals import t_quantile, t_sf

_LEVELS = 24  # more human score levels than this: the least squares


def exact_sums(x: np.ndarray, codes: np.ndarray, size: int) -> list[Fraction]:
    """Return Σ x over each code 0..size−1 as exact fractions."""
    ints, power = fsums_by(x, codes, size)
    scale = Fraction(2) ** power
    return [v * scale for v in ints]


@dataclass(frozen=True)
class Factor:
    """A column's categories in RSMTool's order (base first): each row's position, the counts."""

    order: list[str]
    position: np.ndarray
    counts: list[int]


@dataclass(frozen=True)
class ExactFit:
    """A least-squares fit with an intercept, in rationals.

    ``beta`` and ``factor`` are the reported terms (intercept first) and their
    diagonal entries of (XᵀX)⁻¹.
    """

    n: int
    rank: int
    rss: Fraction
    tss: Fraction
    beta: list[Fraction]
    factor: list[Fraction]

    @property
    def df_resid(self) -> int:
        return self.n - self.rank

    def regular(self) -> bool:
        """Whether every statistic is finite: residual df, a residual and a spread."""
        return self.df_resid > 0 and self.rss > 0 and self.tss > 0

    def r2_adj_exact(self) -> Fraction:
        return 1 - (self.rss / self.df_resid) / (self.tss / (self.n - 1))

    @property
    def r2_adj(self) -> float:
        return to_float(self.r2_adj_exact())

    def f_pvalue(self, null: ExactFit | None = None) -> float:
        """Return the p-value of the F test of the terms, or of what they add to ``null``."""
        rss0, df0 = (self.tss, self.n - 1) if null is None else (null.rss, null.df_resid)
        dfn = df0 - self.df_resid
        f = ((rss0 - self.rss) / dfn) / (self.rss / self.df_resid)
        special = require("scipy.special", "stats", "concord.evaluate's fairness models (groups=)")
        return float(special.fdtrc(float(dfn), float(self.df_resid), to_float(f)))

    def estimates(self, names: list[str], base: str) -> list[tuple[str, dict[str, float]]]:
        """RSMTool's ``get_coefficients``: the intercept (the base group) and the group terms."""
        df = float(self.df_resid)
        q = t_quantile(0.975, df)
        rows = []
        for name, beta, factor in zip(
            [f"Intercept ({base})", *names], self.beta, self.factor, strict=True
        ):
            variance = self.rss * factor / self.df_resid  # of β: σ² · (XᵀX)⁻¹ᵢᵢ
            b, se = to_float(beta), root_ratio(variance.numerator, variance.denominator)
            t2 = beta * beta / variance
            t = root_ratio(t2.numerator, t2.denominator)
            row = {"estimate": b, "P>[t]": 2 * t_sf(t, df), "[0.025": b - q * se}
            rows.append((name, {**row, "0.975]": b + q * se}))
        return rows


def one_way(counts: list[int], sums: list[Fraction], q: Fraction) -> ExactFit:
    """Fit y on one factor's dummies (base first) from its counts, sums of y and Σy²."""
    n, s = sum(counts), _total(sums)
    means = [v / c for v, c in zip(sums, counts, strict=True)]
    rss = q - _dot(sums, means)
    beta = [means[0], *(m - means[0] for m in means[1:])]
    base = Fraction(1, counts[0])
    factor = [base, *(Fraction(1, c) + base for c in counts[1:])]
    return ExactFit(n, len(counts), rss, q - s * s / n, beta, factor)


def two_way(
    cells: np.ndarray, sums: list[Fraction], level_sums: list[Fraction], q: Fraction
) -> ExactFit | None:
    """Fit y on group dummies and level dummies (additive) from the G×H cell counts.

    ``sums`` and ``level_sums`` are Σy per group and per level (base first);
    None where the level effects are not all estimable (C singular) or too many.
    """
    g_count, h_count = cells.shape
    if h_count - 1 > _LEVELS:
        return None
    table: list[list[int]] = cells.tolist()
    n_g = [sum(row) for row in table]
    w = [[Fraction(v, m) for v in row[1:]] for row, m in zip(table, n_g, strict=True)]
    inverse = _inverse(_schur(table, w))
    if inverse is None:
        return None
    means = [v / m for v, m in zip(sums, n_g, strict=True)]
    right = [level_sums[h] - _dot([row[h] for row in table], means) for h in range(1, h_count)]
    effects = [_dot(line, right) for line in inverse]
    alpha = [(v - _dot(row[1:], effects)) / m for row, v, m in zip(table, sums, n_g, strict=True)]
    fitted = _dot(alpha, sums) + _dot(effects, level_sums[1:])
    n, s = sum(n_g), _total(sums)
    beta = [alpha[0], *(a - alpha[0] for a in alpha[1:])]
    base = Fraction(1, n_g[0])
    factor = [base + _form(inverse, w[0])]
    for m, row in zip(n_g[1:], w[1:], strict=True):
        step = [a - b for a, b in zip(row, w[0], strict=True)]
        factor.append(Fraction(1, m) + base + _form(inverse, step))
    return ExactFit(n, g_count + h_count - 1, q - fitted, q - s * s / n, beta, factor)


def _schur(table: list[list[int]], w: list[list[Fraction]]) -> list[list[Fraction]]:
    """Return C = diag(n_h) − Nᵀ diag(1/n_g) N over the levels but the base (w = N[g]/n_g)."""
    size = len(table[0]) - 1
    columns = [[row[h + 1] for row in table] for h in range(size)]
    return [
        [
            (sum(columns[i]) if i == j else 0) - _dot([row[j] for row in w], columns[i])
            for j in range(size)
        ]
        for i in range(size)
    ]


def _total(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0))


def _dot(a: list[Any], b: list[Any]) -> Fraction:
    """Return Σ a·b in fractions."""
    return sum((x * y for x, y in zip(a, b, strict=True)), Fraction(0))


def _form(matrix: list[list[Fraction]], v: list[Fraction]) -> Fraction:
    """Return vᵀ M v."""
    return _dot(v, [_dot(line, v) for line in matrix])


def _inverse(matrix: list[list[Fraction]]) -> list[list[Fraction]] | None:
    """Gauss–Jordan inverse in fractions; None when the matrix is singular."""
    size = len(matrix)
    work = [
        [Fraction(v) for v in row] + [Fraction(int(i == j)) for j in range(size)]
        for i, row in enumerate(matrix)
    ]
    for col in range(size):
        pivot = next((r for r in range(col, size) if work[r][col] != 0), None)
        if pivot is None:
            return None
        work[col], work[pivot] = work[pivot], work[col]
        lead = work[col][col]
        work[col] = [v / lead for v in work[col]]
        for r in range(size):
            if r != col and work[r][col] != 0:
                f = work[r][col]
                work[r] = [a - f * b for a, b in zip(work[r], work[col], strict=True)]
    return [row[size:] for row in work]
