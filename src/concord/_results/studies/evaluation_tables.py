"""An evaluation's tables as records, named and shaped as RSMTool writes them.

Each table is a list of ``(row label, {column: value})`` in RSMTool's row
order and column names (``<experiment>_eval.csv``, ``_consistency.csv``,
``_degradation.csv``, ``_disattenuated_correlations.csv``,
``_true_score_eval.csv``, and per subgroup column G ``_eval_by_G.csv``,
``_consistency_by_G.csv``, ``_disattenuated_correlations_by_G.csv``), so
that ``EvaluationResult.table(name)`` is a pandas frame of the same shape
and the command line and the report only render these records.
"""

from __future__ import annotations

import math
from typing import Any

from concord._results.studies.evaluation_parts import CONSISTENCY_COLUMNS, EVAL_COLUMNS, Metrics

Rows = list[tuple[str, dict[str, Any]]]

_SHORT_TRIM = ("N", "h_mean", "h_sd", "sys_mean", "sys_sd", "wtkappa", "corr", "DSM", "RMSE", "R2")
_SHORT_ROUND = ("sys_mean", "sys_sd", "kappa", "exact_agr", "adj_agr", "DSM")
_SHARED = ("N", "h_mean", "h_sd")


def consistency_record(m: Metrics, smd: str = "SMD", inference: bool = False) -> dict[str, Any]:
    """Return the human-human row: the first human's h_* as h1_*, the second's sys_* as h2_*."""
    columns = tuple(smd if c == "SMD" else c for c in CONSISTENCY_COLUMNS)
    out = {c.replace("h_", "h1_").replace("sys_", "h2_"): m.values[c] for c in columns}
    if inference:
        out.update(m.inference())
    return out


def eval_rows(result: Any, inference: bool = False) -> Rows:
    """``_eval.csv``: one row per score type."""
    return [
        (t, m.record() if inference else {c: m.values[c] for c in EVAL_COLUMNS})
        for t, m in result.eval.items()
    ]


def consistency_rows(result: Any, inference: bool = False) -> Rows:
    """``_consistency.csv``: the human-human row (none without ``human2``)."""
    if result.consistency is None:
        return []
    return [("", consistency_record(result.consistency, inference=inference))]


def degradation_rows(result: Any) -> Rows:
    """``_degradation.csv``: human-machine minus human-human, per score type."""
    return [(t, dict(d)) for t, d in result.degradation.items()]


def disattenuated(corr_hm: float, corr_hh: float) -> dict[str, float]:
    """RSMTool's disattenuated correlation: r_HM / √r_HH (nan when r_HH < 0)."""
    sqrt_hh = math.sqrt(corr_hh) if corr_hh >= 0 else math.nan
    return {
        "corr_HM": corr_hm,
        "corr_HH": corr_hh,
        "sqrt_HH": sqrt_hh,
        "corr_disattenuated": corr_hm / sqrt_hh,
    }


def disattenuated_rows(result: Any) -> Rows:
    """``_disattenuated_correlations.csv``, per score type."""
    return [(t, dict(d)) for t, d in result.disattenuated.items()]


def true_score_rows(result: Any) -> Rows:
    """``_true_score_eval.csv``, per score type."""
    return [(t, ts.record()) for t, ts in result.true_score.items()]


def short_record(rows: dict[str, Metrics], prefix: str) -> dict[str, Any]:
    """RSMTool's ``filter_metrics``: the trimmed score's and the rounded score's chosen metrics."""
    out: dict[str, Any] = {}
    chosen = ((f"{prefix}_trim", _SHORT_TRIM), (f"{prefix}_trim_round", _SHORT_ROUND))
    for score_type, metrics in chosen:
        for metric in metrics:
            name = metric if metric in _SHARED else f"{metric}.{score_type}"
            out[name] = rows[score_type].values[metric]
    return out


def eval_by_rows(result: Any, group: str) -> Rows:
    """``_eval_by_<group>.csv``: the short record of every subgroup, "All data" first."""
    prefix = result.primary.removesuffix("_trim")
    return [(key, short_record(g.eval, prefix)) for key, g in result.by_group[group].items()]


def consistency_by_rows(result: Any, group: str) -> Rows:
    """``_consistency_by_<group>.csv``: human-human per subgroup, with DSM."""
    return [
        (key, consistency_record(g.consistency, "DSM"))
        for key, g in result.by_group[group].items()
        if g.consistency is not None
    ]


def disattenuated_by_rows(result: Any, group: str) -> Rows:
    """``_disattenuated_correlations_by_<group>.csv`` on the trimmed score."""
    return [
        (key, disattenuated(g.eval[result.primary]["corr"], g.consistency["corr"]))
        for key, g in result.by_group[group].items()
        if g.consistency is not None
    ]


def fairness_rows(result: Any, group: str) -> Rows:
    """``_fairness_metrics_by_<group>.csv``: rows R2 and sig, one column per model."""
    fair = result.fairness[group]
    return [
        (stat, {**{name: m[stat] for name, m in fair.metrics.items()}, "base_category": fair.base})
        for stat in ("R2", "sig")
    ]


def all_tables(result: Any, inference: bool = False) -> dict[str, Rows]:
    """Every table the result has, under RSMTool's file names (without the experiment id)."""
    tables = {"eval": eval_rows(result, inference)}
    if result.consistency is not None:
        tables["consistency"] = consistency_rows(result, inference)
        tables["degradation"] = degradation_rows(result)
        tables["disattenuated_correlations"] = disattenuated_rows(result)
        tables["true_score_eval"] = true_score_rows(result)
    for group in result.by_group:
        tables[f"eval_by_{group}"] = eval_by_rows(result, group)
        if any(g.consistency is not None for g in result.by_group[group].values()):
            tables[f"consistency_by_{group}"] = consistency_by_rows(result, group)
            tables[f"disattenuated_correlations_by_{group}"] = disattenuated_by_rows(result, group)
        if group in result.fairness:
            tables[f"fairness_metrics_by_{group}"] = fairness_rows(result, group)
            for model, rows in result.fairness[group].estimates.items():
                tables[f"estimates_{model}_by_{group}"] = rows
    return tables
