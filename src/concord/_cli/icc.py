"""``concord icc``: the six forms of the intraclass correlation of numeric scores."""

from __future__ import annotations

import math
from typing import Any

import click

from concord._cli import inputs as inputs
from concord._cli import options as opt
from concord._cli import output as out
from concord._cli import stream as stream
from concord._cli import terminal as terminal
from concord._render import records as rec

GUIDE = (
    "Koo & Li (2016): below 0.5 poor, 0.5 to 0.75 moderate, 0.75 to 0.9 good, above 0.9 "
    "excellent. Report the form (model, type, unit) with its interval."
)


def form_rows(forms: Any, confidence_level: float) -> list[dict[str, Any]]:
    """Return one record per form: :meth:`IccForms.to_dict`'s keys and the interpretation."""
    rows = []
    for result, row in zip(forms.results, forms.to_dict(), strict=True):
        defined = math.isfinite(result.statistic)
        rows.append(
            {
                # the command line keeps its key "icc" where the record now says "statistic"
                **{("icc" if k == "statistic" else k): v for k, v in row.items()},
                "confidence_level": confidence_level,
                "interpretation": result.interpret() if defined else None,
                "interpretation_scale": "koo-li",
            }
        )
    return rows


def display(rows: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Return the records as display strings, one column per field shown."""
    shown = []
    for r in rows:
        level = f"{round(100 * r['confidence_level'], 6):g}%"
        label = r["interpretation"]
        shown.append(
            {
                "form": r["form"],
                "Shrout-Fleiss": r["shrout_fleiss"],
                "ICC": rec.number(r["icc"]),
                "F": _short(r["f"]),
                "df1": _short(r["df1"]),
                "df2": _short(r["df2"]),
                "p": rec.pvalue(r["pvalue"]),
                f"{level} CI": f"[{rec.number(r['ci_low'])}, {rec.number(r['ci_high'])}]",
                "interpretation": "—" if label is None else rec.reading(label, "koo-li"),
            }
        )
    return shown


def _short(x: float) -> str:
    """Return an F statistic or degrees of freedom in five significant digits, — if undefined."""
    return f"{x:.5g}" if math.isfinite(x) else "—"


def _one_rater(o: dict[str, Any]) -> str:
    """Say where the one rater came from."""
    if o.get("rating") is not None:
        return f"The column {o['rater']!r} (--rater) names one rater."
    return (
        "FILE has one rater column." if o.get("raters") is None else "--raters names one column."
    )


def text(path: str, shape: dict[str, Any], rows: list[dict[str, Any]]) -> str:
    """Return the text of ``concord icc``: a data summary line, the table, the guide."""
    return "\n".join(
        [
            f"{path}: {shape['items']} items, {len(shape['raters'])} raters, "
            f"{shape['ratings']} ratings ({shape['missing_ratings']} missing)",
            "",
            out.table_of(display(rows), "text"),
            "",
            GUIDE,
        ]
    )


def whole(file: str, o: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """Return the ICC of FILE's rater columns read whole (wide or long form), and their shape."""
    import concord

    frame = inputs.ratings(file, o, numbers=True)
    if frame.shape[1] < 2:
        raise click.ClickException(f"{file}: {_one_rater(o)} The ICC needs two raters or more.")
    options = {"confidence_level": o["confidence_level"], "r0": o["r0"]}
    # wide on purpose: read.wide_columns refused a long-looking file, or the long form pivoted it
    return concord.icc(frame, form="wide", **options), rec.frame_shape(frame)


def streamed(file: str, o: dict[str, Any], rows: int) -> tuple[Any, dict[str, Any]]:
    """Return the ICC of a wide-form FILE's rater columns, adding their sums chunk by chunk."""
    import concord

    src, columns = inputs.raters(file, o, rows)
    if len(columns) < 2:
        raise click.ClickException(f"{file}: {_one_rater(o)} The ICC needs two raters or more.")
    options = {"confidence_level": o["confidence_level"], "r0": o["r0"]}
    acc = concord.accumulate(concord.icc, **options)
    read_as = inputs.groups(columns, o, numbers=True)
    tally = stream.feed(src, columns, o, lambda _: [(acc, None)], read_as)
    return acc.result(), tally.shape()


# the forms --fail-under-form names: McGraw & Wong's, then Shrout & Fleiss'
FORMS = (
    *("ICC(1)", "ICC(k)", "ICC(A,1)", "ICC(A,k)", "ICC(C,1)", "ICC(C,k)"),
    *("ICC(1,1)", "ICC(1,k)", "ICC(2,1)", "ICC(2,k)", "ICC(3,1)", "ICC(3,k)"),
)


def gated(rows: list[dict[str, Any]], form: str) -> list[dict[str, Any]]:
    """Return the record --fail-under gates: the one of ``form`` (either name)."""
    return [
        {"coefficient": r["form"], "statistic": r["icc"], "ci_low": r["ci_low"]}
        for r in rows
        if form in (r["form"], r["shrout_fleiss"])
    ]


@click.command(
    epilog="""
\b
Examples:
  concord icc data/shrout_fleiss1979.csv
  concord icc scores.csv --raters judge1,judge2,judge3 --format json
  concord icc scores.csv --item subject --rater judge --rating score
  concord icc big.csv --raters judge1,judge2,judge3 --chunk-rows 1000000
"""
)
@click.argument("file", metavar="FILE")
@opt.read_options
@opt.long_options
@opt.wide_options
@opt.confidence_option
@click.option(
    "--r0",
    type=click.FloatRange(0, 1, max_open=True),
    default=0.0,
    show_default=True,
    help="The ICC under the null hypothesis of the F tests.",
)
@opt.chunk_option
@opt.output_options()
@opt.fail_under_options
@click.option(
    "--fail-under-form",
    type=click.Choice(FORMS),
    default="ICC(A,1)",
    show_default=True,
    help="The form --fail-under gates (McGraw & Wong's or Shrout & Fleiss' name); "
    "default: concord.icc's headline, two-way agreement of single ratings.",
)
@opt.data_errors
def icc(file: str, **o: Any) -> list[dict[str, Any]]:
    """Print the intraclass correlation of the numeric scores in FILE, in all six forms.

    One-way, two-way agreement and two-way consistency, of single and of
    averaged ratings (McGraw & Wong's and Shrout & Fleiss' names), each with
    its F test and McGraw & Wong's interval. Missing ratings (empty cells)
    are allowed: irrNA's method of moments. With --chunk-rows (wide form),
    the file is read in chunks and their exact sums added: the same result.
    --fail-under gates one form, --fail-under-form (default ICC(A,1)).
    """
    chunk = stream.chunk_rows(file, o)
    result, shape = streamed(file, o, chunk) if chunk else whole(file, o)
    rows = form_rows(result.forms(), o["confidence_level"])
    if not any(math.isfinite(r["icc"]) for r in rows):
        terminal.echo(
            "note: the ICC is undefined: the scores vary neither within nor between items.",
            err=True,
        )
    if o["fmt"] == "json":
        record = {"data": shape, "confidence_level": o["confidence_level"], "r0": o["r0"]}
        terminal.echo(rec.dumps({**record, "forms": rows}), as_json=True)
    elif o["fmt"] == "text":
        terminal.echo(text(file, shape, rows))
    elif o["fmt"] == "csv":
        terminal.echo(out.table(rows, "csv"))
    else:
        terminal.echo(out.table_of(display(rows), "markdown"))
    return gated(rows, o["fail_under_form"])
