"""The result of :func:`concord.drift`: one row per time window."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from concord._common.extras import require
from concord._results.protocol import lead_tidy
from concord._results.reported import Reported, record


@dataclass(frozen=True)
class Window:
    """One window: first and last time, items, coefficient, interval, drift from the reference."""

    start: Any
    end: Any
    n: int
    statistic: float
    standard_error: float
    ci_low: float
    ci_high: float
    difference: float
    pvalue: float
    flagged: bool


@dataclass(frozen=True, repr=False)
class DriftResult(Reported):
    """The coefficient per time window (see :func:`concord.drift`); ``statistic``: the latest."""

    windows: tuple[Window, ...]
    reference: int
    confidence_level: float
    coefficient: str
    statistic: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "statistic", self.windows[-1].statistic)

    @property
    def flagged(self) -> list[int]:
        """The numbers of the windows that differ from the reference."""
        return [i for i, w in enumerate(self.windows) if w.flagged]

    def __repr__(self) -> str:
        return (
            f"DriftResult({self.coefficient}, n_windows={len(self.windows)}, "
            f"latest={self.statistic:.4g}, flagged={self.flagged})"
        )

    def summary(self) -> str:
        """Return one sentence: windows, the latest value, which windows drift."""
        level = f"{100 * (1 - self.confidence_level):g}%"
        flags = ", ".join(map(str, self.flagged)) or "none"
        return (
            f"{self.coefficient} over {len(self.windows)} windows: latest "
            f"{self.statistic:.3f}; windows that differ from window {self.reference} "
            f"at the {level} level: {flags}."
        )

    def explain(self) -> str:
        """Return how windows are compared."""
        return (
            f"{self.summary()}\nEach window's coefficient comes from its own accumulator; "
            "a window differs from the reference when the z test of their difference, "
            "with the windows' squared standard errors added (disjoint items), has a "
            "two-sided p-value below 1 − confidence level. No correction for the number "
            "of windows compared."
        )

    def _record(self, confidence_level: float) -> dict[str, Any]:
        last = self.windows[-1]
        return record(
            "drift",
            self.statistic,
            last.n,
            standard_error=last.standard_error,
            interval=(last.ci_low, last.ci_high),
            function=self.coefficient,
            n_windows=len(self.windows),
            reference=self.reference,
            flagged=self.flagged,
        )

    def to_frame(self, confidence_level: float = 0.95) -> Any:
        """Return one row per window."""
        pd = require("pandas", "pandas", "concord.drift")

        return lead_tidy(pd.DataFrame([asdict(w) for w in self.windows]), self.coefficient)
