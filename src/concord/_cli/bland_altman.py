"""``concord bland-altman``: Bland–Altman limits and Lin's concordance of two numeric columns.

One reader (:func:`concord._cli.read.columns`), the two public functions,
and the rows of :mod:`concord._render.continuous` (which the report shares).
"""

from __future__ import annotations

from typing import Any

import click

from concord._cli import options as opt
from concord._cli import output as out
from concord._cli import read as read
from concord._cli import stream as stream
from concord._cli import terminal as terminal
from concord._render import continuous as continuous
from concord._render import records as rec


def options(o: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return bland_altman's and concordance_correlation's options from the command line's."""
    shared = {"confidence_level": o["confidence_level"], "nan_policy": o["nan_policy"]}
    ba = {"limits": o["limits"], "proportional": o["proportional"], "scale": o["scale"]}
    return {**shared, **ba}, shared


def results(file: str, o: dict[str, Any]) -> tuple[Any, Any]:
    """Read the --x and --y columns and return their Bland–Altman and concordance results."""
    import concord

    wanted = {"--x": o["x"], "--y": o["y"]}
    ba_options, ccc_options = options(o)
    chunk = stream.chunk_rows(file, o)
    if o["true_value"] == "constant" and not o["subject"]:
        raise click.UsageError("--true-value constant needs --subject COL.")
    if o["subject"]:
        if chunk:
            raise click.UsageError("--subject reads the whole file: leave out --chunk-rows.")
        frame = read.score_columns(file, o, {"--x": [o["x"]], "--y": [o["y"]]}, [o["subject"]])
        x, y = frame[o["x"]], frame[o["y"]]
        ba = concord.bland_altman(
            x, y, subject=frame[o["subject"]], true_value=o["true_value"], **ba_options
        )
        return ba, concord.concordance_correlation(x, y, **ccc_options)
    if chunk:  # the exact sums of each chunk, added: the same results
        src, read_as = read.column_groups(file, o, wanted, chunk, numbers=True)
        made = [
            concord.accumulate(concord.bland_altman, **ba_options),
            concord.accumulate(concord.concordance_correlation, **ccc_options),
        ]
        pair = [o["x"], o["y"]]
        stream.feed(src, pair, o, lambda _: [(acc, pair) for acc in made], read_as)
        from concord._results.protocol import named

        names = (str(o["x"]), str(o["y"]))  # the columns name the two, as in memory
        return tuple(named(acc.result(), names, "names") for acc in made)
    frame = read.columns(file, o, wanted, numbers=True)
    x, y = frame[o["x"]], frame[o["y"]]
    ba = concord.bland_altman(x, y, **ba_options)
    return ba, concord.concordance_correlation(x, y, **ccc_options)


def shown(rows: list[dict[str, Any]], confidence_level: float) -> list[dict[str, str]]:
    """Return the rows for Markdown: four decimals, the interval and its method in one cell."""
    level = f"{round(100 * confidence_level, 6):g}% CI"
    return [
        {
            "quantity": r["quantity"],
            "estimate": rec.number(r["estimate"]),
            level: f"[{rec.number(r['ci_low'])}, {rec.number(r['ci_high'])}] {r['interval']}"
            if r["interval"]
            else "",
        }
        for r in rows
    ]


@click.command(
    "bland-altman",
    epilog="""
\b
Examples:
  concord bland-altman data/pefr.csv --x wright --y mini_wright
  concord bland-altman data/pefr.csv --x wright --y mini_wright --proportional --format json
  concord bland-altman big.parquet --x lab --y device --chunk-rows 1000000
  concord bland-altman cardiac.csv --x rv --y ic --subject patient --scale ratio
""",
)
@click.argument("file", metavar="FILE")
@opt.read_options
@click.option("--x", required=True, help="The first rater's (method's) numeric column.")
@click.option("--y", required=True, help="The second's; the differences are x - y.")
@click.option(
    "--limits",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.95,
    show_default=True,
    help="The share of differences the limits of agreement hold.",
)
@click.option(
    "--proportional", is_flag=True, help="Also regress x - y on the mean (a proportional bias)."
)
@click.option(
    "--scale",
    type=click.Choice(["difference", "ratio", "percent"]),
    default="difference",
    show_default=True,
    help="Analyse x - y, ln x - ln y (limits as ratios x / y), or 100 (x - y) / mean.",
)
@click.option(
    "--subject",
    metavar="COL",
    default=None,
    help="Repeated measurements: the column of each pair's subject (Bland & Altman 2007).",
)
@click.option(
    "--true-value",
    type=click.Choice(["varies", "constant"]),
    default="varies",
    show_default=True,
    help="With --subject: rows are pairs and the true value varies, or unpaired replicates of "
    "a constant true value.",
)
@click.option(
    "--confidence-level",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.95,
    show_default=True,
)
@opt.nan_policy_option("Missing ratings: fail, or drop the pairs they occur in.")
@opt.chunk_option
@opt.output_options()
@opt.data_errors
def bland_altman(file: str, **o: Any) -> None:
    """Bland-Altman limits of agreement and Lin's concordance of two numeric columns in FILE.

    Prints the bias (mean of x - y) and its interval, the SD of the
    differences, the limits of agreement with their exact (Carkeet 2015) and
    approximate (Bland & Altman 1999) intervals, and Lin's concordance
    correlation with its interval.
    """
    ba, ccc = results(file, o)
    rows = continuous.rows(ba) + continuous.rows(ccc)
    if o["fmt"] == "json":
        record = {
            "file": file,
            "x": o["x"],
            "y": o["y"],
            "bland_altman": ba.to_dict(),
            "concordance_correlation": ccc.to_dict(),
        }
        terminal.echo(rec.dumps(record), as_json=True)
    elif o["fmt"] == "csv":
        terminal.echo(out.table(rows, "csv"))
    elif o["fmt"] == "markdown":
        import pandas as pd

        frame = pd.DataFrame(shown(rows, o["confidence_level"]))
        terminal.echo(str(frame.to_markdown(index=False, disable_numparse=True)))
    else:
        title = f"{file}: {o['x']} vs {o['y']} (x − y = {o['x']} − {o['y']})"
        terminal.echo("\n".join([title, ba.explain(), "", ccc.explain()]))
