"""The protocol of the studies' results: their headline ``statistic`` and tidy rows.

Mixins of :class:`~concord.AltTestResult` (ω), :class:`~concord.GoldResult`
(the mean coefficient with the gold labels), :class:`~concord.RaterDiagnostics`
(the panel's coefficient), :class:`~concord.PlanResult` (the planned n) and
:class:`~concord.EvaluationResult` (the primary score type's QWK). Each lists
its tidy rows once (:func:`~concord._results.protocol.row`); ``to_frame()``,
the notebook's table and the report's section come from
:class:`~concord._results.protocol.Reported`.
"""

from __future__ import annotations

import math
from typing import Any

from concord._results import interpret as _scales
from concord._results.protocol import Reported, row


class AltTestText(Reported):
    """``statistic`` = ω, the winning rate; one row for ω, one for ρ, one per human."""

    @property
    def statistic(self) -> float:
        """The headline: ω, the share of the tested humans the candidate beats."""
        return float(self.winning_rate)  # type: ignore[attr-defined]

    @property
    def name(self) -> str:
        return "Alt-Test winning rate ω"

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        tested = len(r.humans)
        rows = [
            row("winning rate ω", r.winning_rate, n=tested, passed=r.passed),
            row("advantage probability ρ", r.advantage_probability, n=tested),
        ]
        for i, human in enumerate(r.humans):
            rows.append(
                row(
                    f"advantage probability ρ_j of {human}",
                    float(r.advantage_probabilities[i]),
                    pvalue=float(r.pvalues[i]),
                    n=int(r.n_items[i]),
                    human=str(human),
                    adjusted_pvalue=float(r.adjusted_pvalues[i]),
                    candidate_wins=bool(r.wins[i]),
                )
            )
        return rows


class GoldText(Reported):
    """``statistic`` = the mean coefficient with the gold labels; ``interpret()`` of it."""

    @property
    def statistic(self) -> float:
        """The headline: the raters' mean coefficient with the gold labels (``mean``)."""
        return float(self.mean)  # type: ignore[attr-defined]

    @property
    def name(self) -> str:
        return f"mean {_display(self)} with the gold labels"

    def interpret(self, scale: str | None = None) -> str:
        """Return the mean's verbal category, on the coefficient's own scale by default."""
        spec = getattr(self.results[0], "_described", None)  # type: ignore[attr-defined]
        chosen = scale or (spec.scale if spec is not None and spec.scale else "landis-koch")
        return _scales.interpret(self.statistic, chosen, "GoldResult.interpret")

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        rows = [
            row(
                self.name,
                r.mean,
                standard_error=r.standard_error,
                interval=r.confidence_interval(),
                n=r.n_items,
                bias_corrected=r.estimate,
            )
        ]
        for rater, one in zip(r.raters, r.results, strict=True):
            rows.append(
                row(
                    _display(self),
                    one.statistic,
                    standard_error=one.standard_error,
                    interval=one.confidence_interval(r.confidence_level),
                    n=int(one.n_items),
                    rater=str(rater),
                )
            )
        return rows


def _display(result: Any) -> str:
    first = result.results[0] if result.results else None
    return str(getattr(first, "name", result.coefficient))


class RatersText(Reported):
    """``statistic`` = the panel's coefficient; one row for the panel, one per rater left out."""

    _figures_ = (
        ("Cohen's kappa of each pair of raters", "PairwiseMatrixDisplay"),
        ("The coefficient without each rater, with its interval", "RaterDisplay"),
    )

    @property
    def statistic(self) -> float:
        """The headline: the panel's coefficient with every rater (``full.statistic``)."""
        return float(self.full.statistic)  # type: ignore[attr-defined]

    @property
    def name(self) -> str:
        return f"{getattr(self.full, 'name', self.coefficient)}: each rater left out"  # type: ignore[attr-defined]

    def interpret(self, scale: str | None = None) -> str:
        """Return the panel's coefficient's verbal category (its own ``interpret``)."""
        return str(self.full.interpret(scale))  # type: ignore[attr-defined]

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        full = r.full
        n = getattr(full, "n_items", math.nan)
        name = str(getattr(full, "name", r.coefficient))
        rows = [
            row(
                name,
                full.statistic,
                standard_error=full.standard_error,
                interval=full.confidence_interval(r.confidence_level),
                n=n,
                rater="(panel)",
            )
        ]
        for record, without in zip(r._rows(), r.without, strict=True):
            rows.append(
                row(
                    f"{name} without {record['rater']}",
                    without.statistic,
                    standard_error=without.standard_error,
                    interval=without.confidence_interval(r.confidence_level),
                    pvalue=getattr(without, "pvalue", math.nan),
                    n=getattr(without, "n_items", n),
                    rater=str(record["rater"]),
                    change=record["change"],
                    change_pvalue=record["pvalue"],
                    flagged=record["flagged"],
                    kappa_vs_panel=record["kappa_vs_panel"],
                )
            )
        return rows


class PlanText(Reported):
    """``statistic`` = the planned number of items."""

    @property
    def statistic(self) -> int:
        """The headline: the planned number of items ``n``."""
        return int(self.n)  # type: ignore[attr-defined]

    @property
    def name(self) -> str:
        return f"planned n ({self.coefficient}, {self.goal})"  # type: ignore[attr-defined]

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        return [
            row(
                self.name,
                r.n,
                n=r.n,
                goal=r.goal,
                method=r.method,
                expected=r.expected,
                achieved_power=r.achieved_power,
                raters=r.raters,
            )
        ]


class EvaluationText(Reported):
    """``statistic`` = the QWK of the primary machine scores; one row per score type."""

    @property
    def statistic(self) -> float:
        """The headline: the quadratic weighted kappa of the primary score type."""
        return float(self.eval[self.primary]["wtkappa"])  # type: ignore[attr-defined]

    @property
    def name(self) -> str:
        return f"{self.primary} machine scores"  # type: ignore[attr-defined]

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        rows = []
        for kind, m in r.eval.items():
            qwk = m.wtkappa
            rows.append(
                row(
                    "quadratic weighted kappa",
                    float(m["wtkappa"]),
                    standard_error=float(getattr(qwk, "standard_error", math.nan)),
                    interval=tuple(getattr(qwk, "interval", (math.nan, math.nan))),
                    n=r.n,
                    score_type=kind,
                    corr=float(m["corr"]),
                    SMD=float(m["SMD"]),
                )
            )
        return rows
