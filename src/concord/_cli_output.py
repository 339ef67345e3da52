"""Results → the command line's text, JSON, Markdown and CSV.

Every number comes from a result object; this module only lays them out.
The JSON forms are documented in the README ("Command line") and stable:
numbers are never rounded, nan and ±inf become null.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

OUTPUTS = ("text", "json", "markdown", "csv")


def jsonable(value: Any) -> Any:
    """Return ``value`` with numpy arrays as lists and non-finite floats as None."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if hasattr(value, "tolist"):
        return jsonable(value.tolist())
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return value


def dumps(value: Any) -> str:
    """Return the JSON text of ``value`` (UTF-8, indented, no NaN)."""
    return json.dumps(jsonable(value), indent=2, ensure_ascii=False, allow_nan=False)


def summary(result: Any, confidence_level: float, method: str | None, rng: Any) -> dict[str, Any]:
    """Return one coefficient's row: value, SE, interval, p-value, interpretation."""
    low, high = result.confidence_interval(confidence_level, method=method, rng=rng)
    defined = math.isfinite(result.statistic)
    return {
        "coefficient": result.name,
        "function": result.coefficient,
        "weighting": result.weighting,
        "statistic": result.statistic,
        "standard_error": result.standard_error,
        "confidence_level": confidence_level,
        "ci_method": method or result.interval_method,
        "ci_low": low,
        "ci_high": high,
        "pvalue": result.pvalue,
        "interpretation": result.interpret() if defined else "undefined",
        "observed_agreement": result.observed_agreement,
        "chance_agreement": result.chance_agreement,
    }


def kappa_record(result: Any, row: dict[str, Any], top: int = 5) -> dict[str, Any]:
    """Return the JSON form of ``concord kappa``: the summary row, O, W, E, costliest cells."""
    lost = result.contributions().ranked(top) if math.isfinite(result.statistic) else []
    return {
        **row,
        "n": result.n,
        "labels": list(result.labels),
        "observed": result.observed,
        "weights": result.weights,
        "expected": result.expected,
        "kappa_max": result.kappa_max,
        "costliest_confusions": [
            {"rater1": a, "rater2": b, "kappa_lost": loss, "share": share, "share_by_chance": e}
            for a, b, loss, share, e in lost
        ],
    }


def _number(x: Any) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "—"
    return f"{x:.4g}" if abs(x) < 1e-3 and x != 0 else f"{x:.4f}"


def _pvalue(p: Any) -> str:
    if isinstance(p, float) and math.isfinite(p) and p < 1e-4:
        return "<0.0001"
    return _number(p)


def _display_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, str]]:
    shown = []
    for r in rows:
        level = f"{round(100 * r['confidence_level'], 6):g}%"
        interval = f"[{_number(r['ci_low'])}, {_number(r['ci_high'])}]"
        shown.append(
            {
                "coefficient": r["coefficient"],
                "value": _number(r["statistic"]),
                "SE": _number(r["standard_error"]),
                f"{level} CI": f"{interval} {r['ci_method']}",
                "p": _pvalue(r["pvalue"]),
                "interpretation": r["interpretation"],
            }
        )
    return shown


def table(rows: Sequence[dict[str, Any]], fmt: str) -> str:
    """Lay the summary rows out as text, Markdown or CSV (CSV keeps every number unrounded)."""
    import pandas as pd

    if fmt == "csv":
        frame = pd.DataFrame([jsonable(r) for r in rows])
        return str(frame.to_csv(index=False, lineterminator="\n")).rstrip("\n")
    frame = pd.DataFrame(_display_rows(rows))
    if fmt == "markdown":
        return str(frame.to_markdown(index=False, disable_numparse=True))
    return str(frame.to_string(index=False))


def kappa_text(title: str, result: Any, row: dict[str, Any]) -> str:
    """Return the text of ``concord kappa``: the explanation and the costliest cells."""
    lines = [title, result.explain().rstrip()]
    if not math.isfinite(result.statistic):
        return "\n".join(lines)
    if row["confidence_level"] != 0.95 or row["ci_method"] != result.interval_method:
        level = f"{round(100 * row['confidence_level'], 6):g}%"
        lines.append(
            f"{level} CI ({row['ci_method']}) [{_number(row['ci_low'])}, "
            f"{_number(row['ci_high'])}]"
        )
    lines += [
        "",
        "Where the kappa is lost (the costliest confusions)",
        str(result.contributions()),
    ]
    return "\n".join(lines)


def _data(frame: Any, results: Sequence[Any]) -> dict[str, Any]:
    missing = int(frame.isna().to_numpy().sum())
    return {
        "items": int(frame.shape[0]),
        "raters": [str(c) for c in frame.columns],
        "ratings": int(frame.size - missing),
        "missing_ratings": missing,
        "labels": list(results[0].labels),
        "category_totals": results[0].category_totals,
    }


def agree_record(frame: Any, results: Sequence[Any], rows: Sequence[dict[str, Any]]) -> Any:
    """Return the JSON of ``concord agree``: the data summary and one entry per coefficient."""
    return {"data": _data(frame, results), "coefficients": list(rows)}


def agree_text(
    path: str, frame: Any, results: Sequence[Any], rows: Sequence[dict[str, Any]]
) -> str:
    """Return the text of ``concord agree``: a data summary line, then the table."""
    d = _data(frame, results)
    counts = ", ".join(f"{v}: {n}" for v, n in zip(d["labels"], d["category_totals"], strict=True))
    return "\n".join(
        [
            f"{path}: {d['items']} items, {len(d['raters'])} raters, {d['ratings']} ratings "
            f"({d['missing_ratings']} missing)",
            f"categories ({results[0].weighting}): {counts}",
            "",
            table(rows, "text"),
        ]
    )


def thresholds_text(path: str, best: Any, cv: Any, folds: int) -> str:
    """Return the text of ``concord thresholds``: cut points, in-sample and CV kappa."""
    labels = [str(v) for v in best.labels]
    lines = [f"{path}: {best.kappa.n} items, grades {', '.join(labels)}", "", "cut points"]
    for low, high, t in zip(labels, labels[1:], best.thresholds, strict=False):
        lines.append(f"  {low} | {high}   {t:.6g}")
    lines += [
        "",
        f"kappa ({best.kappa.weighting}), in-sample:      {best.statistic:.6f}"
        f"   (optimal: Dinkelbach gap {best.gap:.2g})",
        f"kappa, {folds}-fold cross-validated: {cv.statistic:.6f}   (report this one)",
        f"in-sample optimism:              {cv.optimism:+.6f}",
        "fold kappas: " + ", ".join(f"{k:.4f}" for k in cv.fold_kappas),
    ]
    return "\n".join(lines)
