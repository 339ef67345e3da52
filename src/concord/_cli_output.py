"""Results → the command line's text, Markdown and CSV (the JSON forms are in _records)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from concord import _records as rec

OUTPUTS = ("text", "json", "markdown", "csv")


def table(rows: Sequence[dict[str, Any]], fmt: str) -> str:
    """Lay the summary rows out as text, Markdown or CSV (CSV keeps every number unrounded)."""
    import pandas as pd

    if fmt == "csv":
        frame = pd.DataFrame([rec.jsonable(r) for r in rows])
        return str(frame.to_csv(index=False, lineterminator="\n")).rstrip("\n")
    frame = pd.DataFrame(rec.display_rows(rows))
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
            f"{level} CI ({row['ci_method']}) [{rec.number(row['ci_low'])}, "
            f"{rec.number(row['ci_high'])}]"
        )
    lines += [
        "",
        "Where the kappa is lost (the costliest confusions)",
        str(result.contributions()),
    ]
    return "\n".join(lines)


def agree_record(
    shape: dict[str, Any], results: Sequence[Any], rows: Sequence[dict[str, Any]]
) -> Any:
    """Return the JSON of ``concord agree``: the data summary and one entry per coefficient.

    ``shape`` is :func:`~concord._records.frame_shape`'s (or a stream's tally of it).
    """
    return {"data": rec.data_summary(shape, results), "coefficients": list(rows)}


def agree_text(
    path: str, shape: dict[str, Any], results: Sequence[Any], rows: Sequence[dict[str, Any]]
) -> str:
    """Return the text of ``concord agree``: a data summary line, then the table."""
    d = rec.data_summary(shape, results)
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
