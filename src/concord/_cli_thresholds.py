"""``concord thresholds``: optimal cut points, their honest kappa, and grading new scores.

A cut-point file is JSON: ``{"format": "concord-thresholds/1", "labels": [...],
"thresholds": [...], "weights": ..., "statistic": ..., "cross_validated": ...,
"concord": version}``; an infinite cut point (an empty end grade) is the
string ``"inf"`` or ``"-inf"``.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import click
import numpy as np

from concord import _cli_input as cin
from concord import _cli_options as opt
from concord import _cli_output as out
from concord import _cli_read as read
from concord import _records as rec
from concord._version import __version__

FORMAT = "concord-thresholds/1"


def _cut(x: float) -> float | str:
    return x if math.isfinite(x) else ("inf" if x > 0 else "-inf")


def cut_file(best: Any, cv: Any, weights: str) -> dict[str, Any]:
    """Return the JSON form of fitted cut points."""
    return {
        "format": FORMAT,
        "labels": rec.jsonable(list(best.labels)),
        "thresholds": [_cut(float(t)) for t in best.thresholds],
        "weights": weights,
        "statistic": best.statistic,
        "cross_validated": cv.statistic,
        "concord": __version__,
    }


def load_cuts(path: str) -> tuple[np.ndarray, list[Any]]:
    """Read a cut-point file: (thresholds, labels)."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} file")
        cuts = np.array([float(t) for t in data["thresholds"]])
        labels = list(data["labels"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise click.ClickException(
            f"{path}: cannot read cut points ({exc}). Write them with --save."
        ) from None
    if len(labels) != cuts.size + 1 or np.any(np.diff(cuts) < 0):
        raise click.ClickException(
            f"{path}: needs k labels and k − 1 increasing thresholds. Write it with --save."
        )
    return cuts, labels


def _apply(file: str, frame: Any, o: dict[str, Any]) -> None:
    from concord._thresholds import grade

    cuts, labels = load_cuts(o["apply"])
    import pandas as pd

    column = cin.column(frame, o["score"], file, "--score")
    scores = pd.to_numeric(column.replace("", None), errors="coerce").to_numpy(np.float64)
    if np.isnan(scores).any():
        row = int(np.flatnonzero(np.isnan(scores))[0])
        raise click.ClickException(
            f"{file}: row {row + 2} has no numeric --score ({column.iloc[row]!r}). "
            "Drop or impute it."
        )
    grades = np.asarray(labels, dtype=object)[grade(scores, cuts)]
    frame = frame.assign(**{o["grade_column"]: grades})
    target = o["output"] or sys.stdout
    frame.to_csv(target, index=False, lineterminator="\n")


def _fit(file: str, frame: Any, o: dict[str, Any]) -> None:
    import concord

    if o["truth"] is None:
        raise click.UsageError("--truth names the true grades (or pass --apply cuts.json).")
    truth = cin.column(frame, o["truth"], file, "--truth")
    score = cin.column(frame, o["score"], file, "--score")
    labels = cin.parse_labels(o["labels"], [truth])
    weights = None if o["weights"] == "none" else o["weights"]
    best = concord.optimize_thresholds(truth, score, labels=labels, weights=weights)
    cv = concord.cross_validated_kappa(
        truth, score, cv=o["cv"], labels=labels, weights=weights, rng=o["seed"]
    )
    saved = cut_file(best, cv, o["weights"])
    if o["save"]:
        with open(o["save"], "w", encoding="utf-8") as fh:
            fh.write(rec.dumps(saved) + "\n")
    if o["fmt"] == "json":
        record = {**saved, "gap": best.gap, "fold_kappas": cv.fold_kappas, "optimism": cv.optimism}
        click.echo(rec.dumps(record))
        return
    click.echo(out.thresholds_text(file, best, cv, o["cv"]))


@click.command(
    epilog="""
\b
Examples:
  concord thresholds data/essays.csv --truth truth --score model_score --save cuts.json
  concord thresholds new.csv --score model_score --apply cuts.json -o graded.csv
"""
)
@click.argument("file", metavar="FILE")
@opt.read_options
@click.option("--truth", help="The true grades' column (to fit cut points).")
@click.option("--score", required=True, help="The continuous scores' column.")
@click.option("--labels", help="The grades in order, comma-separated.")
@opt.weights_option("The kappa to maximise.", default="quadratic")
@click.option("--cv", type=click.IntRange(2), default=5, show_default=True, help="Folds.")
@click.option("--seed", type=int, help="Seed for shuffling the folds.")
@click.option("--save", type=click.Path(dir_okay=False), help="Write the cut points (JSON).")
@click.option(
    "--apply",
    type=click.Path(exists=True, dir_okay=False),
    help="Grade FILE's scores with saved cut points instead of fitting.",
)
@click.option("--grade-column", default="grade", show_default=True, help="With --apply.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="With --apply: a CSV.")
@opt.output_options(("text", "json"))
@opt.data_errors
def thresholds(file: str, **o: Any) -> None:
    """Cut points of continuous scores in FILE that maximise kappa against the truth.

    Prints the cut points, the kappa they reach in-sample and the
    cross-validated kappa (cut points fitted on the other folds), the
    number to report. --save writes them; --apply grades new scores.
    """
    if o["apply"]:
        _apply(file, read.text_frame(file, o), o)
    else:
        _fit(file, read.columns(file, o, {"--truth": o["truth"], "--score": o["score"]}), o)
