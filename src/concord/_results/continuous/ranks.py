"""Frozen results of the rank and score statistics of many raters: W, r̄, α, OCCC."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from concord._common.text import number
from concord._results.reported import Reported, record
from concord._results.sentence import decimal


def _p(p: float) -> str:
    """Return an APA p-value: "p < 0.001" or "p = 0.043"."""
    if math.isnan(p):
        return "p undefined"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


@dataclass(frozen=True, eq=False, repr=False)
class KendallResult(Reported):
    """Kendall's coefficient of concordance W and its χ² and F tests.

    Attributes
    ----------
    statistic : float
        W (Wt with ``correct``); nan when undefined.
    chi_square, df, pvalue : float, int, float
        m(n − 1)W on n − 1 df, and P(χ² ≥ chi_square).
    f_statistic, f_df1, f_df2, f_pvalue : float
        F = (m − 1)W / (1 − W) on n − 1 − 2/m and (m − 1)(n − 1 − 2/m) df.
    mean_rho : float
        The mean Spearman correlation of the raters, (mW − 1)/(m − 1) on
        complete data (Kendall's relation); the weighted mean of the pairwise
        correlations when ratings are missing.
    n_items, n_raters : int
        Items and raters used.
    mean_raters : float
        m on complete data; the mean number of ratings per item k̄ otherwise.
    correct : bool
        Whether W is corrected for ties.
    ties : float
        Σ_j T_j = Σ(t³ − t) over every rater's groups of ties (nan when missing).
    method : str
        "complete" (R irr's ``kendall``) or "pairwise" (irrNA's ``kendallNA``).
    raters : tuple
        The raters' names.
    """

    statistic: float
    chi_square: float
    df: int
    pvalue: float
    f_statistic: float
    f_df1: float
    f_df2: float
    f_pvalue: float
    mean_rho: float
    n_items: int
    n_raters: int
    mean_raters: float
    correct: bool
    ties: float
    method: str
    raters: tuple[Any, ...] = field(default=())

    @property
    def name(self) -> str:
        return "Kendall's Wt" if self.correct and self.method == "complete" else "Kendall's W"

    def __repr__(self) -> str:
        return (
            f"KendallResult(statistic={self.statistic:.6g}, chi_square={self.chi_square:.6g}, "
            f"df={self.df}, pvalue={self.pvalue:.4g}, n_items={self.n_items}, "
            f"n_raters={self.n_raters})"
        )

    def _record(self, confidence_level: float) -> dict[str, Any]:
        return record(
            self.name,
            self.statistic,
            self.n_items,
            pvalue=self.pvalue,
            n_raters=self.n_raters,
            chi_square=self.chi_square,
            df=self.df,
            f_statistic=self.f_statistic,
            f_df1=self.f_df1,
            f_df2=self.f_df2,
            f_pvalue=self.f_pvalue,
            mean_rho=self.mean_rho,
            correct=self.correct,
            method=self.method,
        )

    def summary(self) -> str:
        """Return one sentence: W, the χ² test and the sample.

        >>> import concord
        >>> print(concord.kendall_w([[1, 2], [2, 1], [3, 3]]).summary())
        Kendall's Wt = 0.75 for 2 raters ranking 3 items, χ²(2) = 3.00, p = 0.223.
        """
        return (
            f"{self.name} = {decimal(self.statistic)} for {number(self.mean_raters)} raters "
            f"ranking {self.n_items} items, χ²({self.df}) = {self.chi_square:.2f}, "
            f"{_p(self.pvalue)}."
        )

    def explain(self) -> str:
        """Return the computation: the formula, its numbers and the two tests."""
        m, n = number(self.mean_raters), self.n_items
        if self.method == "complete":
            fix = f" − m·ΣT_j, ΣT_j = {number(self.ties)}" if self.correct else ""
            head = [
                f"{self.name} of m = {m} raters ranking n = {n} items (ties take midranks):",
                f"  R_i = the sum of item i's ranks; W = 12 Σ(R_i − m(n + 1)/2)² / "
                f"(m²(n³ − n){fix}) = {number(self.statistic)}",
            ]
        else:
            head = [
                f"{self.name} of {self.n_raters} raters on n = {n} items, ratings missing "
                "(irrNA's kendallNA):",
                f"  mean pairwise Spearman ρ̄ = {number(self.mean_rho)} (weights: items in "
                f"common − 1), k̄ = {m} ratings per item",
                f"  W = (1 + (k̄ − 1) ρ̄) / k̄ = {number(self.statistic)}",
            ]
        return "\n".join(
            [
                *head,
                f"  χ² = m(n − 1)W = {number(self.chi_square)} on {self.df} df, "
                f"p = {number(self.pvalue)}",
                f"  F = (m − 1)W/(1 − W) = {number(self.f_statistic)} on "
                f"{number(self.f_df1)} and {number(self.f_df2)} df, p = {number(self.f_pvalue)}",
            ]
        )


@dataclass(frozen=True, eq=False, repr=False)
class MeanCorrelationResult(Reported):
    """The mean of the raters' pairwise correlations through Fisher's z, and its z test.

    Attributes
    ----------
    statistic : float
        r̄ = tanh(mean of artanh r_jk) over the pairs of raters.
    z, pvalue : float
        irr's test: z = r̄ √(n − 3), two-sided normal p-value.
    method : str
        "pearson" or "spearman".
    correlations : tuple of float
        The pairwise correlations, pairs in order (1, 2), (1, 3), …, (2, 3), ….
    n_dropped : int
        Perfect correlations (±1) left out of the mean, as irr does.
    n_items, n_raters : int
        Items (complete rows) and raters.
    """

    statistic: float
    z: float
    pvalue: float
    method: str
    correlations: tuple[float, ...]
    n_dropped: int
    n_items: int
    n_raters: int

    @property
    def name(self) -> str:
        return "mean Pearson r" if self.method == "pearson" else "mean Spearman ρ"

    def __repr__(self) -> str:
        return (
            f"MeanCorrelationResult(method={self.method!r}, statistic={self.statistic:.6g}, "
            f"z={self.z:.4g}, pvalue={self.pvalue:.4g}, n_items={self.n_items}, "
            f"n_raters={self.n_raters})"
        )

    def _record(self, confidence_level: float) -> dict[str, Any]:
        return record(
            self.name,
            self.statistic,
            self.n_items,
            pvalue=self.pvalue,
            n_raters=self.n_raters,
            z=self.z,
            method=self.method,
            n_dropped=self.n_dropped,
            correlations=list(self.correlations),
        )

    def summary(self) -> str:
        """Return one sentence: r̄, its z test and the sample."""
        return (
            f"The {self.name} of {self.n_raters} raters on {self.n_items} items was "
            f"{decimal(self.statistic)} (Fisher's z mean; z = {self.z:.2f}, {_p(self.pvalue)})."
        )

    def explain(self) -> str:
        """Return the pairwise correlations, their z mean and the test."""
        shown = ", ".join(number(r, 4) for r in self.correlations)
        dropped = f"; {self.n_dropped} perfect (±1) left out" if self.n_dropped else ""
        return "\n".join(
            [
                f"The {self.name} of {self.n_raters} raters on {self.n_items} complete items:",
                f"  pairwise correlations: {shown}{dropped}",
                f"  r̄ = tanh(mean artanh r) = {number(self.statistic)}",
                f"  z = r̄ √(n − 3) = {number(self.z)}, two-sided p = {number(self.pvalue)} "
                "(R irr's meancor / meanrho)",
            ]
        )
