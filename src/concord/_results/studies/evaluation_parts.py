"""The parts of an :class:`~concord._results.studies.evaluation.EvaluationResult`.

One :class:`Metrics` is one row of RSMTool's evaluation tables (one score
type, or one pair of human raters, or one subgroup); :class:`TrueScore` one
row of its true-score table; :class:`Flag` one threshold a metric breaks.
The field names are RSMTool's column names (``wtkappa``, ``exact_agr``,
``SMD``), so that :meth:`Metrics.record` is a row of the table RSMTool
writes and the two can be compared column by column.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

# RSMTool's column order of the full evaluation table (analyzer.compute_metrics)
EVAL_COLUMNS = (
    "N",
    "h_mean",
    "h_sd",
    "h_min",
    "h_max",
    "sys_mean",
    "sys_sd",
    "sys_min",
    "sys_max",
    "corr",
    "wtkappa",
    "R2",
    "kappa",
    "exact_agr",
    "adj_agr",
    "SMD",
    "RMSE",
)
# the human-human table drops R2 and RMSE and calls the second rater h2
CONSISTENCY_COLUMNS = tuple(c for c in EVAL_COLUMNS if c not in ("R2", "RMSE"))
ALL_DATA = "All data"  # RSMTool's name of the whole data among the subgroups
DEGRADATION_COLUMNS = ("corr", "kappa", "wtkappa", "exact_agr", "adj_agr", "SMD")
TRUE_SCORE_COLUMNS = (
    "N",
    "N raters",
    "N single",
    "N multiple",
    "Variance of errors",
    "True score var",
    "MSE true",
    "PRMSE true",
)


@dataclass(frozen=True, eq=False)
class Metrics:
    """One row of RSMTool's evaluation: a human score against another score.

    Attributes
    ----------
    values : dict of str to float
        The metrics under RSMTool's column names (:data:`EVAL_COLUMNS`);
        ``SMD`` is ``DSM`` in a subgroup's row.
    kappa, wtkappa : object
        The :class:`~concord.KappaResult` of the unweighted κ on the rounded
        scores and the :class:`~concord.CccResult` that is the continuous QWK
        (Haberman 2019: Lin's ρ_c, population moments); their standard errors
        and intervals are concord's, which RSMTool does not give.
    """

    values: dict[str, float]
    kappa: Any = field(repr=False)
    wtkappa: Any = field(repr=False)

    def __getitem__(self, name: str) -> float:
        return self.values[name]

    def inference(self) -> dict[str, float]:
        """Return the SEs and 95% intervals of κ and QWK, keyed like RSMTool's columns."""
        low, high = self.kappa.confidence_interval(0.95)
        qlow, qhigh = self.wtkappa.interval
        return {
            "kappa_se": float(self.kappa.standard_error),
            "kappa_ci_low": float(low),
            "kappa_ci_high": float(high),
            "wtkappa_se": float(self.wtkappa.standard_error),
            "wtkappa_ci_low": float(qlow),
            "wtkappa_ci_high": float(qhigh),
        }

    def record(self, columns: tuple[str, ...] = EVAL_COLUMNS) -> dict[str, float]:
        """Return the row under ``columns``, then the SEs and intervals."""
        out = {c: self.values[c] for c in columns if c in self.values}
        out.update(self.inference())
        return out


@dataclass(frozen=True)
class GroupRows:
    """One subgroup's rows: human-machine per score type (DSM for SMD), human-human if any."""

    size: int
    eval: dict[str, Metrics]
    consistency: Metrics | None


@dataclass(frozen=True)
class Fairness:
    """Loukina, Madnani & Zechner's (2019) fairness models of one grouping column.

    Attributes
    ----------
    base : str
        The reference group (the largest; ties alphabetically).
    metrics : dict
        ``{"Overall score accuracy" | "Overall score difference" | "Conditional
        score difference": {"R2": adjusted R² (CSD: its gain over the human
        score alone), "sig": the F test's p-value}}``.
    estimates : dict
        ``{"osa" | "osd" | "csd": [(term, {"estimate", "P>[t]", "[0.025",
        "0.975]"})]}``: the intercept (the base group) and each group's term.
    """

    base: str
    metrics: dict[str, dict[str, float]]
    estimates: dict[str, list[tuple[str, dict[str, float]]]]


@dataclass(frozen=True)
class TrueScore:
    """One row of RSMTool's true-score table (Loukina et al. 2020).

    Attributes
    ----------
    n, n_raters, n_single, n_multiple : int
        Responses; the most human scores one response has; responses with
        one human score and with more than one.
    variance_of_errors, true_score_variance : float
        The variance of the human raters' errors and of the true scores.
    mse_true, prmse_true : float
        The machine score's mean squared error against the true score, and
        the proportional reduction in mean squared error (PRMSE).
    """

    n: int
    n_raters: int
    n_single: int
    n_multiple: int
    variance_of_errors: float
    true_score_variance: float
    mse_true: float
    prmse_true: float

    def record(self) -> dict[str, float]:
        """Return the row under RSMTool's column names (:data:`TRUE_SCORE_COLUMNS`)."""
        values = (
            self.n,
            self.n_raters,
            self.n_single,
            self.n_multiple,
            self.variance_of_errors,
            self.true_score_variance,
            self.mse_true,
            self.prmse_true,
        )
        return dict(zip(TRUE_SCORE_COLUMNS, values, strict=True))


@dataclass(frozen=True)
class Flag:
    """A metric that breaks the Williamson, Xi & Breyer (2012) threshold.

    Attributes
    ----------
    metric : str
        RSMTool's name: ``wtkappa``, ``corr``, ``SMD``, ``DSM`` or
        ``degradation.corr``/``degradation.wtkappa``.
    score_type : str
        The score type it was computed on (``raw_trim`` or ``scale_trim``).
    group : str or None
        ``"L1=Vulcan"`` for a subgroup's row; None for the whole data.
    value, threshold : float
        The metric and the bound it breaks.
    rule : str
        How: ``"< 0.70"`` or ``"|x| > 0.15"``.
    """

    metric: str
    score_type: str
    group: str | None
    value: float
    threshold: float
    rule: str

    def __str__(self) -> str:
        where = f" in {self.group}" if self.group else ""
        return f"{self.metric} ({self.score_type}{where}) = {self.value:.3f}, breaks {self.rule}"


def breaks(value: float, threshold: float, rule: str) -> bool:
    """Whether ``value`` breaks ``threshold`` under ``rule`` ("<" or "|>|"); nan never does."""
    if not math.isfinite(value):
        return False
    return value < threshold if rule == "<" else abs(value) > threshold
