"""``concord thresholds``: optimal cut points, their honest kappa, and grading new scores.

The cut-point file that --save writes and --apply reads is described, and
checked, in :mod:`concord._thresholds.cut_file`.
"""

from __future__ import annotations

from typing import Any

import click
import numpy as np

from concord._cli import columns as cin
from concord._cli import options as opt
from concord._cli import output as out
from concord._cli import read as read
from concord._cli import terminal as terminal
from concord._render import records as rec
from concord._thresholds import cut_file as _cut_file
from concord._version import __version__


def cut_file(best: Any, cv: Any, weights: str) -> dict[str, Any]:
    """Return the JSON form of fitted cut points (their values from ``best.to_dict()``)."""
    fitted = best.to_dict()
    return {
        "format": _cut_file.FORMAT,
        "labels": fitted["labels"],
        "thresholds": fitted["thresholds"],
        "weights": weights,
        "statistic": fitted["statistic"],
        "cross_validated": cv.statistic,
        "concord": __version__,
    }


def load_cuts(path: str) -> tuple[np.ndarray, list[Any]]:
    """Read a cut-point file: (thresholds, labels); a fault in it is one line naming the key."""
    try:
        return _cut_file.load(path)
    except ValueError as exc:
        raise click.ClickException(
            f"{exc} Fix the file, or fit the cut points again and write them with --save."
        ) from None


def _apply(file: str, frame: Any, o: dict[str, Any]) -> None:
    import pandas as pd

    cuts, labels = load_cuts(o["apply"])

    name = o["grade_column"]
    if name in frame.columns and not o["overwrite"]:
        raise click.ClickException(
            f"{file} already has a column {name!r}. Name the grades' column with "
            "--grade-column NAME, or pass --overwrite to replace it."
        )
    column = cin.column(frame, o["score"], file, "--score")
    scores = pd.to_numeric(column.replace("", None), errors="coerce").to_numpy(np.float64)
    if np.isnan(scores).any():
        row = int(np.flatnonzero(np.isnan(scores))[0])
        raise click.ClickException(
            f"{file}: row {row + 2} has no numeric --score ({column.iloc[row]!r}). "
            "Drop or impute it."
        )
    grades = _cut_file.grade(scores, cuts, labels)
    frame = frame.assign(**{name: grades})
    if o["output"] is None:
        terminal.echo(frame.to_csv(index=False, lineterminator="\n"), nl=False)
        return
    with out.replacing(o["output"], "-o", overwrite=o["overwrite"]) as fh:
        frame.to_csv(fh, index=False, lineterminator="\n")


def _fit(file: str, frame: Any, o: dict[str, Any]) -> Any:
    import concord

    if o["truth"] is None:
        raise click.UsageError("--truth names the true grades (or pass --apply cuts.json).")
    truth = cin.column(frame, o["truth"], file, "--truth")
    score = cin.column(frame, o["score"], file, "--score")
    labels = cin.parse_labels(o["labels"], [truth])
    weights = opt.weights(o)
    best = concord.optimize_thresholds(truth, score, labels=labels, weights=weights)
    cv = concord.cross_validated_kappa(
        truth, score, cv=o["cv"], labels=labels, weights=weights, rng=o["seed"]
    )
    saved = cut_file(best, cv, o["weights"])
    if o["save"]:
        with out.replacing(o["save"], "--save", overwrite=o["overwrite"]) as fh:
            fh.write(rec.dumps(saved) + "\n")
    if o["fmt"] == "json":
        record = {**saved, "gap": best.gap, "fold_kappas": cv.fold_kappas, "optimism": cv.optimism}
        terminal.echo(rec.dumps(record), as_json=True)
        return cv
    terminal.echo(out.thresholds_text(file, best, cv, o["cv"]))
    return cv


def _check_outputs(o: dict[str, Any]) -> None:
    """Refuse, before any work, an output option the mode ignores or a file it must not write."""
    if o["apply"] and o["save"]:
        raise click.UsageError("--save writes fitted cut points; with --apply, -o writes the CSV.")
    if not o["apply"] and o["output"]:
        raise click.UsageError(
            "-o writes the CSV of --apply; write fitted cut points with --save."
        )
    for option, path in (("--save", o["save"]), ("-o", o["output"])):
        if path is not None:
            out.check_target(path, option, o["overwrite"])


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
@click.option("--save", type=click.Path(), help="Write the cut points (JSON).")
@click.option(
    "--apply",
    type=click.Path(exists=True, dir_okay=False),
    help="Grade FILE's scores with saved cut points instead of fitting.",
)
@click.option("--grade-column", default="grade", show_default=True, help="With --apply.")
@click.option("-o", "--output", type=click.Path(), help="With --apply: a CSV. Default: stdout.")
@click.option(
    "--overwrite",
    is_flag=True,
    help="Replace an existing --save or -o file and, with --apply, an existing --grade-column.",
)
@opt.output_options(("text", "json"))
@opt.fail_under_options
@opt.data_errors
def thresholds(file: str, **o: Any) -> list[dict[str, Any]]:
    """Cut points of continuous scores in FILE that maximise kappa against the truth.

    Prints the cut points, the kappa they reach in-sample and the
    cross-validated kappa (cut points fitted on the other folds). The
    cross-validated kappa holds for new data only when the scores are
    out-of-sample predictions (a model's scores for items it was not
    trained on); a model's scores on its own training data overstate
    kappa however the cut points are fitted. --save writes the cut
    points; --apply grades new scores. --fail-under gates the
    cross-validated kappa (it has no interval: no --fail-under-bound).
    """
    _check_outputs(o)
    if o["apply"]:
        if o["fail_under"] is not None:
            raise click.UsageError("--fail-under gates a fitted kappa; --apply prints none.")
        _apply(file, read.text_frame(file, o), o)
        return []
    if o["fail_under_bound"]:
        raise click.UsageError(
            "--fail-under-bound: the cross-validated kappa has no interval; "
            "gate its value with --fail-under alone."
        )
    cv = _fit(file, read.columns(file, o, {"--truth": o["truth"], "--score": o["score"]}), o)
    return [{"coefficient": "cross-validated kappa", "statistic": cv.statistic}]
