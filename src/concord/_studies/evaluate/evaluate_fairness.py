"""Fairness by subgroup: overall score accuracy, overall and conditional score difference.

Loukina, Madnani & Zechner (2019), "The many dimensions of algorithmic
fairness in educational applications", BEA workshop,
doi:10.18653/v1/W19-4401, as RSMTool's ``fairness_utils.get_fairness_analyses``
fits them with statsmodels' OLS: how much of the variance of the squared
error (OSA), of the error (OSD), and of the error beyond the human score
(CSD) the group explains (adjusted R², F test), and each group's estimate
against the largest group. Here the same least squares are solved exactly
from counts and exact sums (:mod:`~concord._studies.evaluate.evaluate_ols`);
numpy's least squares remain for fits that are not regular.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from concord._common.exact import fsums_by, to_float
from concord._common.extras import require
from concord._inference.intervals import t_quantile, t_sf
from concord._results.studies.evaluation_parts import Fairness
from concord._studies.evaluate.evaluate_inputs import label_codes
from concord._studies.evaluate.evaluate_ols import (
    ExactFit,
    Factor,
    exact_sums,
    one_way,
    two_way,
)
from concord._tables.dyadic import float_sums

_NAMES = ("Overall score accuracy", "Overall score difference", "Conditional score difference")


Coded = tuple[list[str], np.ndarray]  # label_codes: the texts, sorted, and each row's


def _factor(coded: Coded) -> Factor:
    """Return RSMTool's categories of a column: text, largest first (ties alphabetically)."""
    names, codes = coded
    counts = np.bincount(codes, minlength=len(names))
    order = [str(n) for _, n in sorted(zip((-counts).tolist(), names, strict=True))]
    position = {name: i for i, name in enumerate(names)}
    rank = np.empty(len(names), dtype=np.intp)
    rank[[position[name] for name in order]] = np.arange(len(order))
    return Factor(order, rank[codes], sorted(counts.tolist(), reverse=True))


def _coded(coded: Coded) -> tuple[list[str], np.ndarray]:
    """Return RSMTool's categories of a column and their treatment coding.

    The coding has one 0/1 column per category but the first (the base).
    """
    found = _factor(coded)
    wanted = np.arange(1, len(found.order))
    dummies = (found.position[:, None] == wanted).astype(float)  # C order, as np.column_stack
    return found.order, dummies


class _Ols:
    """Least squares with an intercept: RSS, adjusted R², and t statistics of the terms."""

    def __init__(self, y: np.ndarray, design: np.ndarray, gram: np.ndarray | None = None) -> None:
        """Fit ``y`` on ``design`` (:func:`_design`); ``gram`` is design.T @ design, if known."""
        self.beta, _, rank, _ = np.linalg.lstsq(design, y, rcond=None)
        # numpy scalars: a fit with no residual degrees of freedom, or a constant error,
        # gives nan (as statsmodels does), not ZeroDivisionError
        self.rss = np.float64(((y - design @ self.beta) ** 2).sum())
        self.tss = np.float64(((y - y.mean()) ** 2).sum())
        self.df_model = int(rank) - 1
        self.df_resid = np.float64(len(y) - int(rank))
        with np.errstate(divide="ignore", invalid="ignore"):
            sigma2 = self.rss / self.df_resid
            gram = design.T @ design if gram is None else gram
            self.se = np.sqrt(np.diag(sigma2 * np.linalg.pinv(gram)))

    @property
    def r2_adj(self) -> float:
        if self.df_resid <= 0:
            return math.nan
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(
                1 - (self.rss / self.df_resid) / (self.tss / (self.df_resid + self.df_model))
            )

    def f_pvalue(self, null: _Ols | None = None) -> float:
        """Return the p-value of the F test of the terms, or of what they add to ``null``."""
        rss0, df0 = (
            (self.tss, self.df_resid + self.df_model)
            if null is None
            else (null.rss, null.df_resid)
        )
        dfn = df0 - self.df_resid
        with np.errstate(divide="ignore", invalid="ignore"):
            f = ((rss0 - self.rss) / dfn) / (self.rss / self.df_resid)
        special = require("scipy.special", "stats", "concord.evaluate's fairness models (groups=)")
        return float(special.fdtrc(dfn, self.df_resid, f))

    def estimates(self, names: list[str], base: str) -> list[tuple[str, dict[str, float]]]:
        """RSMTool's ``get_coefficients``: the intercept (the base group) and the group terms."""
        q = t_quantile(0.975, float(self.df_resid))
        rows = []
        for i, name in enumerate([f"Intercept ({base})", *names]):
            b, se = np.float64(self.beta[i]), np.float64(self.se[i])
            with np.errstate(divide="ignore", invalid="ignore"):
                t = abs(b / se)
            row = {
                "estimate": float(b),
                "P>[t]": 2 * t_sf(float(t), float(self.df_resid)),
                "[0.025": float(b - q * se),
                "0.975]": float(b + q * se),
            }
            rows.append((name, row))
        return rows


def _design(*parts: np.ndarray) -> np.ndarray:
    """Return the design of :class:`_Ols`: an intercept column, then ``parts``' columns."""
    n = parts[0].shape[0]
    out = np.empty((n, 1 + sum(p.shape[1] for p in parts)))  # C order, as np.column_stack
    out[:, 0] = 1.0
    at = 1
    for part in parts:
        out[:, at : at + part.shape[1]] = part
        at += part.shape[1]
    return out


def fairness_by(
    human: np.ndarray, machine: np.ndarray, columns: dict[str, Coded]
) -> dict[str, Fairness]:
    """:func:`fairness` of each group column (coded); the fit on the human levels is shared.

    The fits are exact (:mod:`~concord._studies.evaluate.evaluate_ols`) where
    they are regular; a column with a fit that is not takes the least squares.
    """
    if not columns:
        return {}
    human_levels = label_codes(human)
    factors = {k: _factor(v) for k, v in columns.items()}
    context = _context(human, machine, human_levels, factors)
    shared = None
    out = {}
    for key, labels in columns.items():
        found = None if context is None else _exact(context, key, factors[key])
        if found is None:
            if shared is None:
                _, levels = _coded(human_levels)
                shared = levels, _Ols(machine - human, _design(levels))
            found = fairness(human, machine, labels, shared)
        out[key] = found
    return out


# per group: Σ error and Σ error² (exact), and the G×H counts of groups by human levels
_Margins = tuple[list[Fraction], list[Fraction], np.ndarray]
_JOINT = 1 << 16  # joint cells of every column and the levels summed in one pass


@dataclass(frozen=True)
class _Context:
    """What the exact fits need: the human levels, their null fit, each column's margins."""

    levels: Factor
    level_sums: list[Fraction]
    q: tuple[Fraction, Fraction]  # Σ error², Σ (error²)², exact
    null: ExactFit
    margins: dict[str, _Margins]


def _context(
    human: np.ndarray, machine: np.ndarray, coded: Coded, factors: dict[str, Factor]
) -> _Context | None:
    """Return the shared sums and the null fit (error on the human levels), or None."""
    error = machine - human
    square = error**2
    levels = _factor(coded)
    if not np.isfinite(square).all() or len(levels.order) < 2:
        return None
    (_, _, q_error, q_square, _), exp = float_sums(error, square)
    scale = Fraction(2) ** (2 * exp)
    q = (q_error * scale, q_square * scale)
    axes = [*factors.values(), levels]
    joint = _joint_margins((error, square), axes)
    if joint is None:
        level_sums = exact_sums(error, levels.position, len(levels.order))
        margins = {k: _margins(error, square, f, levels) for k, f in factors.items()}
    else:
        level_sums, margins = joint[-1][0], dict(zip(factors, joint[:-1], strict=True))
    null = one_way(levels.counts, level_sums, q[0])
    if not null.regular():
        return None
    return _Context(levels, level_sums, q, null, margins)


def _margins(error: np.ndarray, square: np.ndarray, groups: Factor, levels: Factor) -> _Margins:
    """Return one column's sums per group and its counts by human level."""
    size, h_count = len(groups.order), len(levels.order)
    codes = groups.position * h_count + levels.position
    cells = np.bincount(codes, minlength=size * h_count).reshape(size, h_count)
    sums = (exact_sums(x, groups.position, size) for x in (error, square))
    return next(sums), next(sums), cells


def _joint_margins(values: tuple[np.ndarray, np.ndarray], axes: list[Factor]) -> Any:
    """Return every axis's margins from one pass over their joint cells (levels last).

    The exact sums of the joint cells add up to each axis's sums exactly
    (Python integers); None where the joint cells would be too many.
    """
    sizes = [len(f.order) for f in axes]
    if math.prod(sizes) > _JOINT:
        return None
    key = np.zeros(axes[0].position.shape, dtype=np.intp)
    for factor, size in zip(axes, sizes, strict=True):
        key *= size
        key += factor.position
    counts = np.bincount(key, minlength=math.prod(sizes)).reshape(sizes)
    tables = []
    for x in values:
        ints, power = fsums_by(x, key, math.prod(sizes))
        tables.append((np.array(ints, dtype=object).reshape(sizes), Fraction(2) ** power))
    out = []
    for axis in range(len(axes)):
        others = tuple(a for a in range(len(axes)) if a != axis)
        sums = [[Fraction(v) * scale for v in t.sum(axis=others).tolist()] for t, scale in tables]
        both = tuple(a for a in others if a != len(axes) - 1)
        out.append((sums[0], sums[1], counts.sum(axis=both) if both else counts))
    return out


def _exact(context: _Context, key: str, groups: Factor) -> Fairness | None:
    """Return :func:`fairness` of a column from exact fits, or None where one is not regular."""
    size = len(groups.order)
    if size < 2:
        return None
    sums, squares, cells = context.margins[key]
    osa = one_way(groups.counts, squares, context.q[1])
    osd = one_way(groups.counts, sums, context.q[0])
    csd = two_way(cells, sums, context.level_sums, context.q[0])
    if csd is None or not all(fit.regular() for fit in (osa, osd, csd)):
        return None
    gain = to_float(csd.r2_adj_exact() - context.null.r2_adj_exact())
    names, base = groups.order[1:], groups.order[0]
    return Fairness(
        base=base,
        metrics={
            _NAMES[0]: {"R2": osa.r2_adj, "sig": osa.f_pvalue()},
            _NAMES[1]: {"R2": osd.r2_adj, "sig": osd.f_pvalue()},
            _NAMES[2]: {"R2": gain, "sig": csd.f_pvalue(context.null)},
        },
        estimates={
            "osa": osa.estimates(names, base),
            "osd": osd.estimates(names, base),
            "csd": csd.estimates(names, base),
        },
    )


def fairness(
    human: np.ndarray,
    machine: np.ndarray,
    labels: Coded,
    shared: tuple[np.ndarray, _Ols] | None = None,
) -> Fairness:
    """OSA, OSD and CSD of ``machine`` against ``human`` by ``labels`` (RSMTool's models).

    ``labels`` is the group column as ``label_codes`` codes it.

    ``shared``: the human levels' coding and the error's fit on them, which
    every group column has in common (:func:`fairness_by`).
    """
    order, groups = _coded(labels)
    error = machine - human
    if shared is None:
        _, levels = _coded(label_codes(human))
        shared = levels, _Ols(error, _design(levels))
    levels, null = shared
    design = _design(groups)
    gram = design.T @ design
    osa = _Ols(error**2, design, gram)
    osd = _Ols(error, design, gram)
    csd = _Ols(error, _design(groups, levels))
    metrics: dict[str, Any] = {
        _NAMES[0]: {"R2": osa.r2_adj, "sig": osa.f_pvalue()},
        _NAMES[1]: {"R2": osd.r2_adj, "sig": osd.f_pvalue()},
        _NAMES[2]: {"R2": csd.r2_adj - null.r2_adj, "sig": csd.f_pvalue(null)},
    }
    names = order[1:]
    return Fairness(
        base=order[0],
        metrics=metrics,
        estimates={
            "osa": osa.estimates(names, order[0]),
            "osd": osd.estimates(names, order[0]),
            "csd": csd.estimates(names, order[0])[: len(order)],
        },
    )
