"""``concord agree --label-sets``: Krippendorff's alpha with MASI, and the agreement per label.

In a CSV, a rating that is a set of labels is one cell with the labels
joined by ``--set-separator`` (default ``|``: ``pol|econ``; ``;`` and ``,``
are often the file's own delimiter). An empty cell is a missing rating.
Ratings that arrive as lists or sets (a JSON export read by
``concord.read_annotations``) are label sets already: the command treats
them as with ``--label-sets``.
"""

from __future__ import annotations

import math
from typing import Any

import click
import numpy as np

from concord._cli import output as out
from concord._cli import terminal as terminal
from concord._render import records as rec

SEPARATOR = "|"
_SETS = (set, frozenset, list, tuple, np.ndarray)  # a Parquet list column: arrays


def holds_sets(frame: Any) -> bool:
    """Whether any rating of the rater columns is already a set (or list) of labels."""
    for column in frame.columns:
        values = frame[column]
        if values.dtype == object and any(isinstance(v, _SETS) for v in values.tolist()):
            return True
    return False


def _cell(value: Any, separator: str) -> Any:
    """Return one cell as a frozenset of labels (None where it is missing)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, _SETS):
        return frozenset(value)
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(separator)]
        return frozenset(p for p in parts if p)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return frozenset([str(value)])


def as_sets(frame: Any, separator: str) -> Any:
    """Return the rater columns with each rating a frozenset of labels."""
    if not separator:
        raise click.BadParameter("give one or more characters.", param_hint="'--set-separator'")
    out_frame = frame.astype(object).copy()
    for column in out_frame.columns:
        out_frame[column] = [_cell(v, separator) for v in frame[column].tolist()]
    return out_frame


def check_options(o: dict[str, Any]) -> str:
    """Return Krippendorff's level for label sets; --weights and --coefficients do not apply."""
    if o.get("weights") not in (None, "none"):
        raise click.UsageError(
            "--weights does not apply to label sets: their distance is --level masi "
            "(default) or jaccard."
        )
    if o.get("coefficients"):
        raise click.UsageError(
            "--coefficients does not apply to label sets: the command reports "
            "Krippendorff's alpha and the agreement on each label."
        )
    level = o.get("level") or "auto"
    return "masi" if level == "auto" else str(level)


def report(file: str, frame: Any, o: dict[str, Any]) -> list[dict[str, Any]]:
    """Compute and print alpha on the label sets and each label's alpha; return alpha's row."""
    import concord

    level = check_options(o)
    sets = as_sets(frame, o.get("set_separator") or SEPARATOR)
    alpha = concord.krippendorff_alpha(sets, level=level)
    per_label = concord.label_agreement(
        sets,
        confidence_level=o["confidence_level"],
        method=o["ci_method"],
        rng=o["seed"],
    )
    rows = [rec.summary(alpha, o["confidence_level"], o["ci_method"], o["seed"])]
    labels = per_label.to_dict()["rows"][1:]  # the mean row first, then the labels
    if o["fmt"] == "json":
        record = {
            **rec.frame_shape(frame),
            "label_sets": True,
            "coefficients": rows,
            "per_label": per_label.to_dict(),
        }
        terminal.echo(rec.dumps(record), as_json=True)
    elif o["fmt"] == "csv":
        terminal.echo(out.table(rows, "csv") + "\n\n" + _csv(labels))
    else:
        terminal.echo(_text(file, frame, rows, labels, per_label, alpha, o["fmt"]))
    return rows


def _shown(labels: list[dict[str, Any]]) -> list[dict[str, str]]:
    return [
        {
            "label": str(r["label"]),
            "alpha": rec.number(r["statistic"]),
            "SE": rec.number(r["standard_error"]),
            "CI": f"[{rec.number(r['ci_low'])}, {rec.number(r['ci_high'])}]",
            "n": str(r["n"]),
            "present": f"{r['prevalence']:.0%}" if r["prevalence"] is not None else "—",
        }
        for r in labels
    ]


def _csv(labels: list[dict[str, Any]]) -> str:
    import pandas as pd

    keep = ["label", "statistic", "standard_error", "ci_low", "ci_high", "n", "prevalence"]
    frame = pd.DataFrame([{k: r.get(k) for k in keep} for r in labels])
    return str(frame.to_csv(index=False, lineterminator="\n")).rstrip("\n")


def _text(
    file: str,
    frame: Any,
    rows: list[dict[str, Any]],
    labels: list[dict[str, Any]],
    per_label: Any,
    alpha: Any,
    fmt: str,
) -> str:
    shape = rec.frame_shape(frame)
    head = (
        f"{file}: {shape['items']} items, {len(shape['raters'])} raters, {shape['ratings']} "
        f"label sets ({shape['missing_ratings']} missing), {len(labels)} labels; "
        f"sets compared by the {alpha.level.upper() if alpha.level == 'masi' else alpha.level} "
        "distance"
    )
    parts = [head, ""] if fmt == "text" else []
    parts += [
        out.table(rows, fmt),
        "",
        "per label: Krippendorff's alpha of 'label present' (1 where the set holds the label), "
        "worst first",
        "",
        out.table_of(_shown(labels), fmt),
    ]
    if fmt == "text":
        parts += ["", alpha.summary(), per_label.summary()]
    return "\n".join(parts)
