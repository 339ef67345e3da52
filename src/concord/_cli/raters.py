"""``concord raters``: which rater drifts (:func:`concord.rater_diagnostics` of FILE)."""

from __future__ import annotations

from typing import Any

import click

from concord._cli import agree as agree
from concord._cli import columns as cin
from concord._cli import inputs as inputs
from concord._cli import options as opt
from concord._cli import output as out
from concord._cli import terminal as terminal
from concord._coefficients.registry import by_name
from concord._render import records as rec


def _function(o: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """Return --coefficient's function and its options (alpha: a level; the others: weights)."""
    names = agree.picked(o["coefficient"], "--coefficient")
    assert names is not None
    if len(names) != 1:
        raise click.BadParameter(
            f"got {len(names)} names; expected one.", param_hint="'--coefficient'"
        )
    c = by_name(names[0])
    if names[0] != agree.ALPHA:
        return c.function, {"weights": opt.weights(o)}
    level = opt.alpha_level(o)
    if level is None:
        raise click.BadParameter(
            f"--weights {o['weights']} matches no level of Krippendorff's alpha; "
            "pass --level (nominal, ordinal, interval or ratio).",
            param_hint="'--weights'",
        )
    return c.function, {"level": level}


def _shown(d: Any) -> list[dict[str, str]]:
    """Return the raters' rows as display strings: what the text and Markdown tables show."""
    level = f"{100 * d.confidence_level:g}% CI"
    rows = []
    for row in d.to_dict()["raters"]:
        rows.append(
            {
                "rater": str(row["rater"]),
                "ratings": str(row["n_ratings"]),
                "without": rec.number(row["without"]),
                "change": rec.number(row["change"]),
                level: f"[{rec.number(row['change_low'])}, {rec.number(row['change_high'])}]",
                "p": rec.pvalue(row["pvalue"]),
                "κ vs panel": rec.number(row["kappa_vs_panel"]),
                "MH p": rec.pvalue(row["homogeneity_pvalue"]),
                "flags": _flags(row),
            }
        )
    return rows


# the change's direction in the flags column: the sentences below the tables say it whole
_WAY = {"disagrees": "panel agrees more without", "consistent": "panel agrees less without"}


def _flags(row: dict[str, Any]) -> str:
    said = [_WAY.get(row["direction"], ""), "categories" if row["marginals_flagged"] else ""]
    return ", ".join(s for s in said if s)


def _pairwise(d: Any) -> list[dict[str, str]]:
    names = [str(r) for r in d.raters]
    return [
        {"": a, **{b: rec.number(float(k)) for b, k in zip(names, row, strict=True)}}
        for a, row in zip(names, d.pairwise, strict=True)
    ]


def _csv(d: Any) -> str:
    """Return one CSV row per rater, unrounded: the table and the rater's row of the matrix."""
    frame = d.table()
    for name, column in zip(d.raters, d.pairwise.T, strict=True):
        frame[f"kappa_with_{name}"] = column
    return str(frame.to_csv(lineterminator="\n")).rstrip("\n")


def _text(file: str, d: Any, fmt: str) -> str:
    head = (
        f"{file}: {d.full.name} of {len(d.raters)} raters = {rec.number(d.full.statistic)}"
        if fmt == "text"
        else f"{d.full.name} of {len(d.raters)} raters: {rec.number(d.full.statistic)}"
    )
    return "\n".join(
        [
            head,
            "",
            out.table_of(_shown(d), fmt),
            "",
            "Cohen's kappa of each pair of raters:",
            "",
            out.table_of(_pairwise(d), fmt),
            "",
            *d.explain().splitlines()[1:],
        ]
    )


@click.command(
    epilog="""
\b
Examples:
  concord raters data/fleiss1971_diagnoses.csv
  concord raters data/essays.csv --raters rater1,rater2,rater3 --coefficient fleiss \\
      --weights quadratic
  concord raters annotations.csv --item doc --rater annotator --rating label --format json
"""
)
@opt.input_options
@opt.wide_options
@click.option(
    "--coefficient",
    default="alpha",
    show_default=True,
    help="The coefficient each rater is left out of: percent, fleiss, conger, light, gwet, "
    "brennan or alpha (or its function name).",
)
@opt.weights_option("Disagreement weights (and those of the raters' kappas).")
@opt.level_option
@opt.confidence_option
@opt.output_options()
@opt.fail_under_options
@opt.data_errors
def raters(file: str, **o: Any) -> list[dict[str, Any]]:
    """Which rater drifts from the panel in FILE: one row per rater, and the pairwise matrix.

    For each rater: the coefficient without them, the change with its
    interval and p-value (paired over the items), Cohen's kappa against the
    other raters' majority, and the Stuart-Maxwell test of their categories
    against that majority's (MH p). Then Cohen's kappa of every pair of
    raters. Three raters or more.
    """
    import concord

    function, options = _function(o)
    frame = inputs.ratings(file, o)
    labels = cin.parse_labels(o["labels"], [frame[c] for c in frame.columns])
    if labels is not None:
        options["labels"] = labels
    d = concord.rater_diagnostics(
        frame,
        function=function,
        confidence_level=o["confidence_level"],
        form="wide",  # read as wide on purpose (read.wide_columns), or pivoted from long
        **options,
    )
    if o["fmt"] == "json":
        terminal.echo(rec.dumps(d.to_dict()), as_json=True)
    elif o["fmt"] == "csv":
        terminal.echo(_csv(d))
    else:
        terminal.echo(_text(file, d, o["fmt"]))
    return [rec.summary(d.full, o["confidence_level"], None, None)]
