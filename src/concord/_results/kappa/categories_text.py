"""The protocol of the category diagnostics: explain() and the tidy rows.

Mixins of :class:`~concord.MarginalHomogeneityResult`,
:class:`~concord.SpecificAgreementResult` and :class:`~concord.BangdiwalaResult`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from concord._common.text import number
from concord._results.protocol import Reported, row

METHODS = {"stuart-maxwell": "Stuart–Maxwell", "bhapkar": "Bhapkar", "mcnemar": "McNemar"}


class MarginalText(Reported):
    """``explain()`` and the tidy row of the test of marginal homogeneity."""

    @property
    def name(self) -> str:
        return f"{METHODS[self.method]} test of marginal homogeneity"  # type: ignore[attr-defined]

    def explain(self) -> str:
        """Return each rater's category totals, their differences, and the test."""
        r: Any = self
        first, second = (str(v) for v in r.raters)
        width = max(8, *(len(str(v)) for v in r.labels), len(first), len(second))
        lines = [
            f"{self.name} of {first} and {second}, n = {number(r.n)} pairs:",
            f"{'category':<{width}} {first:>{width}} {second:>{width}} {'difference':>10}",
        ]
        for label, a, b, d in zip(
            r.labels, r.rater1_totals, r.rater2_totals, r.differences, strict=True
        ):
            lines.append(
                f"{label!s:<{width}} {number(a):>{width}} {number(b):>{width}} {number(d):>10}"
            )
        lines.append(
            f"χ²({r.df}) = {number(r.statistic)}, p = {number(r.pvalue, 4)}: the χ² of the "
            f"differences {first} − {second} against their covariance."
        )
        return "\n".join(lines)

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        return [row(self.name, r.statistic, pvalue=r.pvalue, n=r.n, df=r.df)]


class SpecificText(Reported):
    """``statistic`` (the lowest p_s), ``explain()`` and one tidy row per category."""

    @property
    def statistic(self) -> float:
        """The headline: the lowest specific agreement, of the category agreed on least.

        nan categories (no one used them) are skipped; nan if none is defined.
        """
        values = np.asarray(self.agreement, dtype=np.float64)  # type: ignore[attr-defined]
        return float(np.nanmin(values)) if np.isfinite(values).any() else math.nan

    @property
    def name(self) -> str:
        return "specific agreement"

    def explain(self) -> str:
        """Return each category's p_s with its SE: the share of its pairs both chose it in."""
        r: Any = self
        lines = [
            f"Specific agreement of {r.n_raters} raters on {r.n_items} items (Uebersax; "
            "Cicchetti & Feinstein 1990):",
            "p_s = agreeing pairs of ratings on the category / all pairs involving it",
        ]
        for label, a, se in zip(r.labels, r.agreement, r.standard_error, strict=True):
            lines.append(f"  {label!s}: p_s = {number(a, 4)} (SE {number(se, 4)})")
        lines.append(f"The lowest, {number(self.statistic, 4)}, is the headline statistic.")
        return "\n".join(lines)

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        low, high = r.confidence_interval()
        return [
            row(
                self.name,
                float(a),
                standard_error=float(se),
                interval=(float(lo), float(hi)),
                n=r.n_items,
                category=str(label),
            )
            for label, a, se, lo, hi in zip(
                r.labels, r.agreement, r.standard_error, low, high, strict=True
            )
        ]


class BangdiwalaText(Reported):
    """``explain()`` and the tidy row of Bangdiwala's B."""

    _figures_ = (("Agreement chart", "AgreementChartDisplay"),)

    @property
    def name(self) -> str:
        return "Bangdiwala's B" if self.weighting == "unweighted" else "Bangdiwala's B^w"  # type: ignore[attr-defined]

    def explain(self) -> str:
        """Return B = Σ n_ii² / Σ r_i c_i from the table's diagonal and totals."""
        r: Any = self
        table = np.asarray(r.observed, dtype=np.float64)
        rows, cols = table.sum(axis=1), table.sum(axis=0)
        lines = [
            f"{self.name} of {r.n and number(r.n)} pairs, k = {len(r.labels)} categories "
            "(Bangdiwala 1985):",
            "B = Σ n_ii² / Σ r_i c_i: the agreement chart's diagonal squares over its rectangles",
        ]
        for label, d, a, b in zip(r.labels, np.diag(table), rows, cols, strict=True):
            lines.append(f"  {label!s}: n_ii = {number(d)}, r_i = {number(a)}, c_i = {number(b)}")
        if r.weighting == "unweighted":
            lines.append(
                f"B = {number(float(np.sum(np.diag(table) ** 2)))} / "
                f"{number(float(np.sum(rows * cols)))} = {number(r.statistic)}"
            )
        else:
            credit = ", ".join(number(w) for w in r.partial_weights)
            lines.append(f"B^w = {number(r.statistic)}, partial credit w = {credit}")
        lines.append(f"SE = {number(r.standard_error)} (multinomial delta method)")
        return "\n".join(lines)

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        return [
            row(
                self.name,
                r.statistic,
                standard_error=r.standard_error,
                interval=r.confidence_interval(),
                n=r.n,
                weighting=r.weighting,
            )
        ]
