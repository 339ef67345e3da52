"""Frozen results of the square-table tests: Bowker's symmetry and Cochran's Q."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._common.jsonable import jsonable
from concord._common.text import matrix, number
from concord._results.reported import Reported, record


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


@dataclass(frozen=True, eq=False, repr=False)
class SymmetryResult(Reported):
    """Bowker's test of symmetry of two raters' k×k table.

    Attributes
    ----------
    statistic, df, pvalue : float, int, float
        Bowker's χ², its k(k − 1)/2 df and P(χ² ≥ statistic).
    labels : tuple
        The k categories.
    table : numpy.ndarray
        The k×k counts, rows rater1.
    n : int
        Rated pairs.
    """

    statistic: float
    df: int
    pvalue: float
    labels: tuple[Any, ...]
    table: np.ndarray
    n: int

    def __post_init__(self) -> None:
        self.table.setflags(write=False)

    def __repr__(self) -> str:
        return (
            f"SymmetryResult(statistic={self.statistic:.6g}, df={self.df}, "
            f"pvalue={self.pvalue:.4g}, n={self.n})"
        )

    def _record(self, confidence_level: float) -> dict[str, Any]:
        return record(
            "Bowker's symmetry test",
            self.statistic,
            self.n,
            pvalue=self.pvalue,
            df=self.df,
            labels=jsonable(list(self.labels)),
            table=self.table,
        )

    def summary(self) -> str:
        """Return one sentence: χ², df, p and n."""
        return (
            f"Bowker's test of symmetry: χ²({self.df}) = {self.statistic:.2f}, "
            f"{_p(self.pvalue)}, n = {self.n} pairs."
        )

    def explain(self) -> str:
        """Return the table and the sum over its pairs of off-diagonal cells."""
        return "\n".join(
            [
                f"Bowker's test of symmetry on {self.n} pairs (rows rater1, columns rater2):",
                matrix(self.table, self.labels),
                f"  χ² = Σ_(i<j) (n_ij − n_ji)² / (n_ij + n_ji) = {number(self.statistic)} "
                f"on k(k − 1)/2 = {self.df} df, p = {number(self.pvalue)}",
            ]
        )


@dataclass(frozen=True, eq=False, repr=False)
class CochranQResult(Reported):
    """Cochran's Q test that k raters use one of two categories equally often.

    Attributes
    ----------
    statistic, df, pvalue : float, int, float
        Q, k − 1 and P(χ² ≥ Q).
    proportions : numpy.ndarray
        Each rater's share of the counted category (the second of ``labels``).
    labels : tuple
        The two categories, the counted one last.
    raters : tuple
        The raters' names.
    n_items : int
        Complete items.
    """

    statistic: float
    df: int
    pvalue: float
    proportions: np.ndarray
    labels: tuple[Any, ...]
    raters: tuple[Any, ...]
    n_items: int

    def __post_init__(self) -> None:
        self.proportions.setflags(write=False)

    def __repr__(self) -> str:
        return (
            f"CochranQResult(statistic={self.statistic:.6g}, df={self.df}, "
            f"pvalue={self.pvalue:.4g}, n_items={self.n_items})"
        )

    def _record(self, confidence_level: float) -> dict[str, Any]:
        return record(
            "Cochran's Q",
            self.statistic,
            self.n_items,
            pvalue=self.pvalue,
            df=self.df,
            n_raters=len(self.raters),
            proportions=self.proportions,
        )

    def summary(self) -> str:
        """Return one sentence: Q, df, p, and the raters' lowest and highest share."""
        low, high = float(self.proportions.min()), float(self.proportions.max())
        return (
            f"Cochran's Q test: Q({self.df}) = {self.statistic:.2f}, {_p(self.pvalue)}, "
            f"n = {self.n_items} items; the raters said {self.labels[-1]!s} for "
            f"{low:.0%} to {high:.0%} of them."
        )

    def explain(self) -> str:
        """Return each rater's share of the counted category and the formula."""
        shares = ", ".join(
            f"{r!s} {number(p, 4)}" for r, p in zip(self.raters, self.proportions, strict=True)
        )
        return "\n".join(
            [
                f"Cochran's Q of {len(self.raters)} raters on {self.n_items} items, "
                f"counting {self.labels[-1]!s}:",
                f"  each rater's share: {shares}",
                "  Q = (k − 1)(k Σ C_j² − N²) / (k N − Σ R_i²) = "
                f"{number(self.statistic)} on {self.df} df, p = {number(self.pvalue)}",
            ]
        )
