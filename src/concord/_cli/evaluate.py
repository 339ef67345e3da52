"""``concord evaluate``: machine scores against human scores, as RSMTool's ``rsmeval``.

One reader (:func:`concord._cli.read.score_columns`), :func:`concord.evaluate`,
and the rows of :mod:`concord._render.evaluation` (which the report shares).
With -o the output goes to a file through :func:`concord._cli.output.replacing`
(complete or not at all; an existing file only with --overwrite).
"""

from __future__ import annotations

from typing import Any

import click

from concord._cli import options as opt
from concord._cli import output as out
from concord._cli import read as read
from concord._cli import terminal as terminal
from concord._common.options import ROUNDINGS
from concord._render import evaluation as ev
from concord._render import records as rec


def _names(text: str | None) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()] if text else []


def _trim(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """Parse --trim MIN,MAX into two numbers (the library checks min < max)."""
    if value is None:
        return None
    parts = value.split(",")
    try:
        low, high = (float(p) for p in parts)
    except ValueError:
        raise click.BadParameter(
            f"expected two numbers MIN,MAX such as 1,6; got {value!r}.", ctx, param
        ) from None
    return low, high


def result(file: str, o: dict[str, Any]) -> Any:
    """Read FILE's score and group columns and return their :func:`concord.evaluate`."""
    import concord

    human2, group = _names(o["human2"]), _names(o["group"])
    scores = {"--human": [o["human"]], "--machine": [o["machine"]], "--human2": human2}
    frame = read.score_columns(file, o, scores, group)
    return concord.evaluate(
        frame[o["human"]],
        frame[o["machine"]],
        human2=frame[human2] if human2 else None,
        groups=frame[group] if group else None,
        trim=o["trim"],
        trim_tolerance=o["trim_tolerance"],
        scale=o["scale"],
        exclude_zero=o["exclude_zero"],
        rounding=o["rounding"],
    )


def markdown(tables: list[dict[str, Any]], flags: list[dict[str, str]]) -> str:
    """Every table under its heading, then the flags, as Markdown."""
    parts = []
    for t in tables:
        rows = [dict(zip(t["columns"], r, strict=True)) for r in t["rows"]]
        parts += [f"### {t['title']} — `{t['name']}`", "", out.table_of(rows, "markdown"), ""]
    parts.append("### Flags (Williamson, Xi & Breyer 2012)")
    parts += ["", out.table_of(flags, "markdown") if flags else "None."]
    return "\n".join(parts)


def rendered(file: str, r: Any, o: dict[str, Any]) -> str:
    """Return the output in --format, every table or only --table's."""
    tables = ev.tables(r)
    if o["table"] is not None:
        names = [t["name"] for t in tables]
        if o["table"] not in names:
            raise click.UsageError(
                f"--table must be one of {', '.join(names)}; got {o['table']!r}."
            )
        tables = [t for t in tables if t["name"] == o["table"]]
    if o["fmt"] == "json":
        record = r.to_dict()
        if o["table"] is not None:
            record["tables"] = {o["table"]: record["tables"][o["table"]]}
        return rec.dumps({"file": file, **_columns(o), "evaluation": record})
    if o["fmt"] == "csv":
        if o["table"] is not None:  # RSMTool's own layout: its row labels, its column names
            return str(r.table(o["table"]).to_csv(lineterminator="\n")).rstrip("\n")
        return out.table(ev.long_rows(r), "csv")
    if o["fmt"] == "markdown":
        return markdown(tables, ev.flags(r))
    if o["table"] is not None:
        rows = [dict(zip(tables[0]["columns"], row, strict=True)) for row in tables[0]["rows"]]
        return out.table_of(rows, "text")
    return f"{file}: {o['machine']} against {o['human']}\n{r.explain()}"


def _columns(o: dict[str, Any]) -> dict[str, Any]:
    return {
        "human": o["human"],
        "machine": o["machine"],
        "human2": _names(o["human2"]),
        "groups": _names(o["group"]),
    }


@click.command(
    epilog="""
\b
Examples:
  concord evaluate scores.csv --human h1 --machine score --human2 h2 --trim 1,6
  concord evaluate scores.csv --human h1 --machine score --group prompt,L1 --format markdown
  concord evaluate scores.csv --human h1 --machine score --table eval --format csv -o eval.csv
"""
)
@click.argument("file", metavar="FILE")
@opt.read_options
@click.option("--human", required=True, help="The (first) human score column.")
@click.option("--machine", required=True, help="The machine score column (continuous).")
@click.option(
    "--human2",
    metavar="COLS",
    help="Further human score columns, comma-separated; an empty cell: not double-scored.",
)
@click.option("--group", metavar="COLS", help="Subgroup columns, comma-separated (e.g. prompt).")
@click.option(
    "--trim",
    metavar="MIN,MAX",
    callback=_trim,
    help="The score scale, e.g. 1,6. Default: the human scores' range.",
)
@click.option(
    "--trim-tolerance",
    type=click.FloatRange(min=0),
    default=0.4998,
    show_default=True,
    help="How far past --trim a trimmed score may lie (RSMTool's).",
)
@click.option("--scale", is_flag=True, help="Also the machine scores scaled to the human mean/SD.")
@click.option("--exclude-zero", is_flag=True, help="Leave out responses with a human score of 0.")
@click.option(
    "--rounding",
    type=click.Choice(ROUNDINGS),
    default="half-even",
    show_default=True,
    help="How scores become score points: half to even as RSMTool (2.5 -> 2), or half up.",
)
@click.option("--table", metavar="NAME", help="Only this table (RSMTool's name, e.g. eval).")
@click.option("-o", "--output", type=click.Path(), help="Write the output to a file.")
@click.option("--overwrite", is_flag=True, help="Replace the -o file if it exists.")
@opt.output_options()
@opt.fail_under_options
@opt.data_errors
def evaluate(file: str, **o: Any) -> list[dict[str, Any]]:
    """Evaluate machine scores in FILE against human scores, as RSMTool's rsmeval.

    Per score type (raw, trimmed, trimmed and rounded): N, means,
    SDs, exact and adjacent agreement, kappa, QWK, Pearson r, R², RMSE and
    SMD under RSMTool's names, with concord's SEs and intervals of kappa
    and QWK; with --human2 the human-human row, the degradation, the
    disattenuated correlation and PRMSE; with --group every metric per
    subgroup with DSM and the fairness models; and the flags at the
    Williamson, Xi & Breyer (2012) thresholds. --fail-under gates the
    QWK of the primary score type (the headline).
    """
    if o["output"] is not None:
        out.check_target(o["output"], "-o", o["overwrite"])
    r = result(file, o)
    text = rendered(file, r, o)
    if o["output"] is None:
        terminal.echo(text, as_json=o["fmt"] == "json")
    else:
        with out.replacing(o["output"], "-o", overwrite=o["overwrite"]) as fh:
            fh.write(text + "\n")
        terminal.echo(f"wrote {o['output']}", err=True)
    tidy = r.to_frame()
    primary = tidy[tidy.score_type == r.primary].to_dict("records")
    return [{**row, "coefficient": f"QWK ({r.primary})"} for row in primary]
