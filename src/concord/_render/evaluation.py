"""An :class:`~concord.EvaluationResult` → the rows the CLI and the report lay out.

The tables are the result's own (``EvaluationResult.tables``: RSMTool's
names, rows and columns); here they only get a heading, display strings
(four decimals, counts as integers) or, for CSV, one long row per number,
so that ``concord evaluate`` and the report's evaluation section show the
same thing.
"""

from __future__ import annotations

from typing import Any

from concord._render import records as rec

# headings of the tables, by RSMTool's file name (per-group tables: the prefix)
TITLES = {
    "eval": "Human–machine agreement, per score type",
    "consistency": "Human–human agreement (double-scored responses)",
    "degradation": "Degradation: human–machine minus human–human",
    "disattenuated_correlations": "Disattenuated correlations",
    "true_score_eval": "True-score evaluation (PRMSE)",
    "eval_by_": "Human–machine agreement by {}",
    "consistency_by_": "Human–human agreement by {}",
    "disattenuated_correlations_by_": "Disattenuated correlations by {}",
    "fairness_metrics_by_": "Fairness models by {} (Loukina, Madnani & Zechner 2019)",
}


def title(name: str) -> str:
    """Return the heading of the table RSMTool calls ``name``."""
    if name in TITLES:
        return TITLES[name]
    if name.startswith("estimates_"):
        model, _, group = name.removeprefix("estimates_").partition("_by_")
        return f"{model.upper()} model estimates by {group}"
    prefix, _, group = name.partition("_by_")
    return TITLES.get(f"{prefix}_by_", name).format(group)


def cell(value: Any) -> str:
    """Return a table cell for display: counts as integers, other numbers with four decimals."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    return rec.number(float(value))


def tables(result: Any, inference: bool = False) -> list[dict[str, Any]]:
    """Return every table: ``{"name", "title", "columns", "rows"}``, cells as display strings.

    ``rows`` are lists of strings, the row label first (RSMTool's, with the
    human-human row labelled ``human–human``).
    """
    out = []
    for name, rows in result.tables(inference=inference).items():
        if not rows:
            continue
        columns = ["", *rows[0][1]]
        body = [[label or "human–human", *(cell(v) for v in row.values())] for label, row in rows]
        out.append({"name": name, "title": title(name), "columns": columns, "rows": body})
    return out


def flags(result: Any) -> list[dict[str, str]]:
    """Return the flags as display rows: metric, score type, group, value, threshold broken."""
    return [
        {
            "metric": f.metric,
            "score type": f.score_type,
            "group": f.group or "all data",
            "value": rec.number(f.value),
            "breaks": f.rule,
        }
        for f in result.flags
    ]


def long_rows(result: Any) -> list[dict[str, Any]]:
    """Return every number as one row ``table, row, column, value`` (unrounded), flags last.

    The tables are those of ``result.to_dict()`` (standard errors and
    intervals of κ and QWK included); a flag is a row of table ``flags``
    whose row is its metric and group and whose value is the metric's.
    """
    out = [
        {"table": name, "row": label, "column": column, "value": value}
        for name, rows in result.tables(inference=True).items()
        for label, row in rows
        for column, value in row.items()
    ]
    out += [
        {
            "table": "flags",
            "row": f"{f.metric} ({f.score_type}{', ' + f.group if f.group else ''})",
            "column": f.rule,
            "value": f.value,
        }
        for f in result.flags
    ]
    return out
