"""The protocol of the results that hold other results: agree's table, groups, cut points.

Mixins of :class:`~concord.AgreementTable` (its first coefficient is the
headline), :class:`~concord.GroupedKappaResult` (the Fisher-z mean),
:class:`~concord.ThresholdResult` (the in-sample kappa at the fitted cut
points) and :class:`~concord.CrossValidatedKappa` (the out-of-fold kappa).
"""

from __future__ import annotations

import math
from typing import Any

from concord._common.text import number
from concord._results import interpret as _scales
from concord._results.protocol import Reported, row


class TableText(Reported):
    """``statistic`` (the first coefficient's), ``explain()`` and a row per coefficient."""

    @property
    def statistic(self) -> float:
        """The headline: the first coefficient's value (``agree``'s order: the lead's)."""
        return float(self.results[0].statistic)  # type: ignore[attr-defined]

    @property
    def name(self) -> str:
        return f"Agreement of {len(self.results)} coefficients"  # type: ignore[attr-defined]

    def explain(self) -> str:
        """Return every coefficient's own explanation, one after the other."""
        return "\n\n".join(r.explain() for r in self.results)  # type: ignore[attr-defined]

    def _rows_(self) -> list[dict[str, Any]]:
        return [r._rows_()[0] for r in self.results]  # type: ignore[attr-defined]


class GroupedText(Reported):
    """``explain()``, ``interpret()`` and the rows of one kappa per group and their mean."""

    @property
    def name(self) -> str:
        first = next(iter(self.results.values()), None)  # type: ignore[attr-defined]
        return f"Fisher-z mean of {getattr(first, 'name', 'kappa')} over groups"

    @property
    def n(self) -> float:
        """The pairs over all groups."""
        return sum(r.n for r in self.results.values())  # type: ignore[attr-defined]

    def interpret(self, scale: str | None = None) -> str:
        """Return the mean's verbal category: Landis & Koch (1977) by default."""
        r: Any = self
        return _scales.interpret(r.statistic, scale or "landis-koch", "interpret")

    def explain(self) -> str:
        """Return each group's κ, SE and weight, and the Fisher-z mean with its SE."""
        r: Any = self
        lines = [f"{self.name}, by {r.by!r}: z_g = artanh(κ_g), z̄ = Σ w z / Σ w, κ̄ = tanh(z̄)"]
        for key, one in r.results.items():
            lines.append(
                f"  {key!s}: κ = {number(one.statistic)}, SE {number(one.standard_error, 4)}, "
                f"n = {number(one.n)}, w = {number(r.group_weights[key])}"
            )
        lines.append(
            f"κ̄ = {number(r.statistic)}, SE {number(r.standard_error, 4)} (independent groups)"
        )
        return "\n".join(lines)

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        rows = [
            row(
                self.name,
                r.statistic,
                standard_error=r.standard_error,
                interval=r.confidence_interval(),
                n=self.n,
                group="(mean)",
            )
        ]
        for key, one in r.results.items():
            rows.append(
                row(
                    one.name,
                    one.statistic,
                    standard_error=one.standard_error,
                    interval=one.confidence_interval(),
                    pvalue=one.pvalue,
                    n=one.n,
                    group=str(key),
                    weight=r.group_weights[key],
                )
            )
        return rows


class ThresholdText(Reported):
    """``explain()``, ``interpret()`` and the row of the kappa at fitted cut points."""

    @property
    def name(self) -> str:
        return f"{self.kappa.name} at fitted cut points (in-sample)"  # type: ignore[attr-defined]

    def interpret(self, scale: str | None = None) -> str:
        """Return the in-sample kappa's verbal category (the kappa's own ``interpret``)."""
        return str(self.kappa.interpret(scale))  # type: ignore[attr-defined]

    def explain(self) -> str:
        """Return the cut points, then the kappa they reach, step by step."""
        r: Any = self
        cuts = ", ".join(
            f"{a!s} | {b!s} at {t:.6g}"
            for a, b, t in zip(r.labels, r.labels[1:], r.thresholds, strict=False)
        )
        return (
            f"Cut points maximising the kappa ({r.iterations} iterations, gap {r.gap:.3g}): "
            f"{cuts}.\n\n{r.kappa.explain()}"
        )

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        k = r.kappa
        cuts = {f"threshold_{j}": float(t) for j, t in enumerate(r.thresholds, start=1)}
        return [
            row(
                self.name,
                r.statistic,
                standard_error=k.standard_error,
                interval=k.confidence_interval(),
                pvalue=k.pvalue,
                n=k.n,
                gap=r.gap,
                iterations=r.iterations,
                **cuts,
            )
        ]


class FoldsText(Reported):
    """``explain()``, ``interpret()`` and the row of a cross-validated kappa."""

    @property
    def name(self) -> str:
        return "cross-validated kappa at fitted cut points"

    def interpret(self, scale: str | None = None) -> str:
        """Return the out-of-fold kappa's verbal category: Landis & Koch (1977) by default."""
        r: Any = self
        return _scales.interpret(r.statistic, scale or "landis-koch", "interpret")

    def explain(self) -> str:
        """Return each fold's held-out kappa, the pooled one, and the optimism."""
        r: Any = self
        folds = ", ".join(number(k, 4) for k in r.fold_kappas)
        return "\n".join(
            [
                f"Cut points fitted on {len(r.fold_kappas)} training folds, each applied to "
                "its held-out fold; the kappa of all held-out grades together:",
                f"  held-out folds' kappas: {folds}",
                f"  cross-validated κ = {number(r.statistic)}; in-sample κ = "
                f"{number(r.in_sample)}; optimism = {number(r.optimism)}",
            ]
        )

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        n = len(r.grades) if getattr(r, "grades", None) is not None else math.nan
        return [
            row(
                self.name,
                r.statistic,
                n=n,
                in_sample=r.in_sample,
                optimism=r.optimism,
                n_folds=len(r.fold_kappas),
            )
        ]
