"""The result of :func:`concord.intra_rater`: :class:`IntraRaterResult`; :class:`Reliability`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._common.jsonable import jsonable
from concord._results.html import number, page, table, text
from concord._results.protocol import Reported


@dataclass(frozen=True)
class Reliability:
    """R irr ``relInterIntra``'s coefficients, F tests, lower bounds and SEMs.

    ``inter_random`` / ``inter_fixed``: the inter-rater reliability, raters
    random or fixed; ``intra_random`` / ``intra_fixed``: the intra-rater
    reliability of the raters together; ``intra_random_rater`` /
    ``intra_fixed_rater``: each rater's own (from its MSE_j). The ``low_*``
    are one-sided lower bounds at ``confidence_level``; ``f_*`` and
    ``p_*`` test H0: ρ = ``rho0_inter`` (inter) or ``rho0_intra`` (intra).
    """

    raters: tuple[Any, ...]
    inter_random: float
    inter_fixed: float
    intra_random: float
    intra_fixed: float
    intra_random_rater: np.ndarray
    intra_fixed_rater: np.ndarray
    f_inter: float
    f_intra: float
    f_intra_rater: np.ndarray
    p_inter: float
    p_intra: float
    p_intra_rater: np.ndarray
    low_inter_random: float
    low_inter_fixed: float
    low_intra: float
    low_intra_rater: np.ndarray
    sem_intra: float
    sem_intra_rater: np.ndarray
    sem_inter_random: float
    sem_inter_fixed: float
    rho0_inter: float
    rho0_intra: float
    confidence_level: float
    n_subjects: int
    n_measurements: int

    def rows(self) -> list[dict[str, Any]]:
        """Return the tidy rows: each coefficient with its lower bound (``ci_high`` 1)."""
        rows = [
            ("inter_random", "", self.inter_random, self.low_inter_random, self.p_inter),
            ("inter_fixed", "", self.inter_fixed, self.low_inter_fixed, self.p_inter),
            ("intra_random", "", self.intra_random, self.low_intra, self.p_intra),
            ("intra_fixed", "", self.intra_fixed, self.low_intra, self.p_intra),
        ]
        for j, rater in enumerate(self.raters):
            low, p = float(self.low_intra_rater[j]), float(self.p_intra_rater[j])
            rows.append(("intra_random", rater, float(self.intra_random_rater[j]), low, p))
            rows.append(("intra_fixed", rater, float(self.intra_fixed_rater[j]), low, p))
        return [
            {
                "scope": "reliability",
                "name": rater,
                "coefficient": f"eliasziw_{name}",
                "statistic": value,
                "ci_low": low,
                "ci_high": 1.0,
                "pvalue": p,
                "n": self.n_subjects,
            }
            for name, rater, value, low, p in rows
        ]


def numbers(result: Any, level: float) -> tuple[float, float, float, float]:
    """Return a coefficient result's (statistic, ci_low, ci_high, n); nan where it has none."""
    statistic = float(getattr(result, "statistic", result))
    low = high = math.nan
    interval = getattr(result, "confidence_interval", None)
    if interval is not None and math.isfinite(statistic):
        low, high = (float(b) for b in interval(level))
    n = getattr(result, "n_items", getattr(result, "n", math.nan))
    return statistic, low, high, float(n)


@dataclass(frozen=True, eq=False, repr=False)
class IntraRaterResult(Reported):
    """Each rater's agreement with itself across trials, and the raters' within each trial.

    ``statistic`` is the headline: the mean over the raters of their own
    agreement across trials (for one rater, a judge run several times, its
    own).

    Attributes
    ----------
    statistic : float
        The mean of ``per_rater``'s statistics (nan when no rater has two trials).
    coefficient : str
        The coefficient's name (the ``function`` passed).
    per_rater : dict
        Rater → the coefficient's result across that rater's trials.
    per_trial : dict
        Trial → the coefficient's result across the raters in that trial.
    skipped : dict
        What was not computed, and why: a rater with one trial, a trial with
        one rater, two raters or trials that share no item.
    reliability : Reliability or None
        For continuous scores (``function=concord.icc``) on a complete design,
        R irr ``relInterIntra``'s inter- and intra-rater reliabilities
        (Eliasziw et al. 1994).
    confidence_level : float
        The intervals' level.
    """

    statistic: float
    coefficient: str
    per_rater: dict[Any, Any]
    per_trial: dict[Any, Any]
    skipped: dict[str, str]
    reliability: Reliability | None
    confidence_level: float

    def rows(self) -> list[dict[str, Any]]:
        """Return the tidy rows: per rater, per trial, then the reliabilities."""
        out = []
        for scope, results in (("rater", self.per_rater), ("trial", self.per_trial)):
            for name, result in results.items():
                stat, low, high, n = numbers(result, self.confidence_level)
                out.append(
                    {
                        "scope": scope,
                        "name": name,
                        "coefficient": self.coefficient,
                        "statistic": stat,
                        "ci_low": low,
                        "ci_high": high,
                        "pvalue": math.nan,
                        "n": n,
                    }
                )
        return out + ([] if self.reliability is None else self.reliability.rows())

    def _rows_(self) -> list[dict[str, Any]]:
        """Return the tidy rows of to_frame() and the report: the mean first, then rows()."""
        mean = {
            "scope": "mean",
            "name": "",
            "coefficient": self.coefficient,
            "statistic": self.statistic,
            "n": len(self.per_rater),
        }
        return [mean, *self.rows()]

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready values (nan is None)."""
        rows = [{**r, "name": str(r["name"])} for r in self.rows()]
        head = {"coefficient": self.coefficient, "statistic": self.statistic}
        return dict(jsonable({**head, "rows": rows, "skipped": self.skipped}))

    def summary(self) -> str:
        """Return one sentence: each rater's agreement with itself."""
        if not self.per_rater:
            return "No rater has two trials: agreement with itself cannot be computed."
        parts = []
        for name, result in self.per_rater.items():
            stat, low, high, _ = numbers(result, self.confidence_level)
            parts.append(f"{name!s} {stat:.3f} ({low:.3f} to {high:.3f})")
        level = f"{self.confidence_level:.0%}"
        return f"Each rater's {self.coefficient} with itself across trials ({level} CI): " + (
            "; ".join(parts) + "."
        )

    def explain(self) -> str:
        """Return the computation: what was compared, each value, and what was skipped."""
        lines = [self.summary()]
        for row in self.rows():
            lines.append(
                f"  {row['scope']:<11} {row['name']!s:<16} {row['coefficient']:<24} "
                f"{row['statistic']:.4f} ({row['ci_low']:.4f} to {row['ci_high']:.4f}) "
                f"n={row['n']:.0f}"
            )
        lines += [f"  not computed: {k}: {v}" for k, v in self.skipped.items()]
        if self.reliability is not None:
            lines.append(
                "Reliability: Eliasziw et al. (1994), as R irr's relInterIntra; its ci_low is a "
                f"one-sided {self.reliability.confidence_level:.0%} lower bound, its p-value "
                f"tests rho = {self.reliability.rho0_inter} (inter) or "
                f"{self.reliability.rho0_intra} (intra)."
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"IntraRaterResult({self.coefficient}, statistic={self.statistic:.4g}, "
            f"raters={len(self.per_rater)}, trials={len(self.per_trial)})"
        )

    def _repr_html_(self) -> str:
        rows = [
            [
                text(r["scope"]),
                text(r["name"]),
                text(r["coefficient"]),
                number(r["statistic"]),
                f"{number(r['ci_low'])} to {number(r['ci_high'])}",
                text(int(r["n"]) if math.isfinite(r["n"]) else ""),
            ]
            for r in self.rows()
        ]
        head = ["scope", "name", "coefficient", "estimate", "CI", "n"]
        return page([f"<p>{text(self.summary())}</p>", table(head, rows)])
