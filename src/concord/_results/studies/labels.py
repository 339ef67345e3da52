"""The result of :func:`concord.label_agreement`: each label's agreement, worst first."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from concord._common.extras import require
from concord._common.jsonable import jsonable
from concord._results.protocol import Reported, row


@dataclass(frozen=True)
class LabelRow:
    """One label: the coefficient of "label present" ratings, its SE and interval."""

    label: Any
    result: Any  # the coefficient's result, or None where it is undefined
    statistic: float
    standard_error: float
    ci_low: float
    ci_high: float
    n_items: int
    prevalence: float  # share of the non-missing ratings that hold the label


@dataclass(frozen=True, eq=False, repr=False)
class LabelAgreementResult(Reported):
    """Agreement on each label of multi-label (label set) annotations.

    For every label, the ratings are binary: 1 where the rater's set holds
    the label, 0 where the rater gave a set without it; a missing rating
    stays missing. ``statistic`` is the mean of the labels' coefficients
    (the macro average over the labels whose coefficient is defined);
    ``worst`` is the lowest of them, the label to look at first.

    Attributes
    ----------
    statistic : float
        The mean over the labels of their coefficients (nan where none is defined).
    coefficient : str
        The coefficient's function name (``"krippendorff_alpha"``).
    rows : tuple of LabelRow
        One per label, worst first (undefined labels last).
    confidence_level : float
        The intervals' level.
    method : str or None
        The interval method (None: each coefficient's default).
    """

    statistic: float
    coefficient: str
    rows: tuple[LabelRow, ...]
    confidence_level: float
    method: str | None

    @property
    def labels(self) -> tuple[Any, ...]:
        """The labels, worst first."""
        return tuple(r.label for r in self.rows)

    @property
    def worst(self) -> LabelRow | None:
        """The label with the lowest defined coefficient (None when none is defined)."""
        defined = [r for r in self.rows if not math.isnan(r.statistic)]
        return defined[0] if defined else None

    def __getitem__(self, label: Any) -> Any:
        """Return the coefficient's result for ``label``."""
        for r in self.rows:
            if r.label == label:
                return r.result
        raise KeyError(label)

    def _rows_(self) -> list[dict[str, Any]]:
        """Return the tidy rows: the mean over the labels first, then each label, worst first."""
        n = max((r.n_items for r in self.rows), default=0)
        mean = row(self.coefficient, self.statistic, n=n, scope="mean", label="")
        return [
            mean,
            *(
                row(
                    self.coefficient,
                    r.statistic,
                    standard_error=r.standard_error,
                    interval=(r.ci_low, r.ci_high),
                    n=r.n_items,
                    scope="label",
                    label=str(r.label),
                    prevalence=r.prevalence,
                )
                for r in self.rows
            ),
        ]

    def table(self) -> Any:
        """Return one row per label, worst first, as a pandas DataFrame indexed by label."""
        pd = require("pandas", "pandas", "LabelAgreementResult.table()")
        frame = pd.DataFrame(
            [
                {
                    "label": r.label,
                    "statistic": r.statistic,
                    "standard_error": r.standard_error,
                    "ci_low": r.ci_low,
                    "ci_high": r.ci_high,
                    "n": r.n_items,
                    "prevalence": r.prevalence,
                }
                for r in self.rows
            ]
        )
        return frame.set_index("label")

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready values (nan is None)."""
        rows = [{**r, "label": str(r["label"])} for r in self._rows_()]
        head = {
            "coefficient": self.coefficient,
            "statistic": self.statistic,
            "confidence_level": self.confidence_level,
        }
        return dict(jsonable({**head, "rows": rows}))

    def summary(self) -> str:
        """Return one sentence: the mean over the labels and the worst label."""
        worst = self.worst
        if worst is None:
            return f"{self.coefficient} is undefined for every label (each is all 0 or all 1)."
        level = f"{self.confidence_level:.0%}"
        return (
            f"{self.coefficient} per label, over {len(self.rows)} labels: mean "
            f"{self.statistic:.3f}; the worst, {worst.label!s}, {worst.statistic:.3f} "
            f"({level} CI {worst.ci_low:.3f} to {worst.ci_high:.3f}; "
            f"present in {worst.prevalence:.0%} of the ratings)."
        )

    def explain(self) -> str:
        """Return the computation: the binary ratings per label, and each label's value."""
        lines = [
            self.summary(),
            "Each label: the ratings are 1 where the rater's set holds it, 0 where the rater "
            "gave a set without it, missing where the rating is missing; "
            f"{self.coefficient} of those ratings. The mean is over the labels whose value is "
            "defined (a label that every rating holds, or none, has no agreement to measure).",
        ]
        for r in self.rows:
            lines.append(
                f"  {r.label!s:<20} {r.statistic:.4f} (SE {r.standard_error:.4f}; "
                f"{r.ci_low:.4f} to {r.ci_high:.4f}) n={r.n_items} "
                f"prevalence={r.prevalence:.3f}"
            )
        return "\n".join(lines)

    @property
    def _title_(self) -> str:
        return "Agreement per label"

    def __repr__(self) -> str:
        return (
            f"LabelAgreementResult({self.coefficient}, statistic={self.statistic:.4g}, "
            f"labels={len(self.rows)})"
        )
