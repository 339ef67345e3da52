"""``concord spans``: agreement on annotated spans (span F1, token α, unitizing α, γ) in FILE.

FILE is a long table with one row per span: item, rater, start, end (end
exclusive) and label, and a ``text`` column where it has one. Each measure
of ``--measure`` is one entry of :data:`MEASURES`: a function of the spans
and the options that returns a result of the result protocol. A measure
whose function this version of concord lacks is an error naming it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

import click

from concord._cli import columns as cin
from concord._cli import options as opt
from concord._cli import output as out
from concord._cli import read as read
from concord._cli import terminal as terminal
from concord._cli.reading import exports as exports
from concord._cli.spans import output as show
from concord._common.errors import problem_of

ROLES = ("item", "rater", "start", "end", "label")
_ROW = re.compile(r"row \d+ \(index label (\d+)\)")


def _f1(spans: Any, o: dict[str, Any]) -> Any:
    import concord

    return concord.span_agreement(
        spans,
        match=o["match"],
        by=None if o["ignore_labels"] else "label",
        confidence_level=o["confidence_level"],
        rng=o["seed"],
        **_declared(o),
    )


def _declared(o: dict[str, Any]) -> dict[str, Any]:
    """Return ``raters=`` for the library where --raters declares them, else nothing."""
    raters = cin.split_names(o.get("raters"))
    return {} if raters is None else {"raters": raters}


def _token_alpha(spans: Any, o: dict[str, Any]) -> Any:
    import concord

    return concord.token_agreement(spans, unit=o["unit"], **_declared(o))


def _gamma(spans: Any, o: dict[str, Any]) -> Any:
    import concord

    return concord.gamma(spans, rng=o["seed"], **_declared(o))


def _unitizing(spans: Any, o: dict[str, Any]) -> Any:
    import concord

    return concord.unitizing_alpha(spans, variant=o["unitizing_variant"], **_declared(o))


def _later(name: str) -> Callable[[Any, dict[str, Any]], Any]:
    """Return a measure computed by ``concord.<name>``, looked up when it runs."""

    def measure(spans: Any, o: dict[str, Any]) -> Any:
        import concord

        function = getattr(concord, name, None)
        if function is None:
            raise click.UsageError(
                f"--measure {name.replace('_', '-')} is not available in this version of "
                f"concord (it has no concord.{name})."
            )
        return function(spans, **_declared(o))

    return measure


# --measure NAME: (what it computes, its function)
MEASURES: dict[str, tuple[str, Callable[[Any, dict[str, Any]], Any]]] = {
    "f1": ("span F1 of every pair of raters", _f1),
    "token-alpha": ("Krippendorff's alpha on the characters (or tokens)", _token_alpha),
    "unitizing-alpha": ("Krippendorff's unitizing alpha", _unitizing),
    "gamma": ("Mathet et al.'s gamma", _gamma),
}


def _match(value: str) -> str | float:
    if value in ("exact", "overlap"):
        return value
    try:
        return float(value)
    except ValueError:
        raise click.BadParameter(
            f"{value!r}: exact, overlap or an IoU threshold in (0, 1], e.g. 0.5.",
            param_hint="--match",
        ) from None


def _measures(value: str) -> list[str]:
    chosen = [v.strip() for v in value.split(",") if v.strip()]
    for name in chosen:
        if name not in MEASURES:
            raise click.BadParameter(
                f"{name!r}: one of {', '.join(MEASURES)}.", param_hint="--measure"
            )
    if not chosen:
        raise click.BadParameter("name at least one measure.", param_hint="--measure")
    return list(dict.fromkeys(chosen))


def read_spans(file: str, o: dict[str, Any]) -> Any:
    """Read FILE's span columns: offsets as numbers, names as text, the text as written.

    The rows keep their file row numbers (the header is row 1) as the index,
    so that an error names the row as the file numbers it.
    """
    import pandas as pd

    if exports.is_export(file, o):  # an annotation tool's spans, read as the tool wrote them
        return exports.spans(file, o)
    frame = read.text_frame(file, o)
    names = list(frame.columns)
    wanted = {role: o[role] for role in ROLES}
    _header(file, names, wanted)
    for role, column in wanted.items():
        read.select(names, [column], file, f"--{role}")
    spans = pd.DataFrame(index=pd.RangeIndex(2, len(frame) + 2))
    for role in ("item", "rater", "label"):
        values = frame[wanted[role]].astype(object).to_numpy()
        spans[role] = [None if _blank(v) else str(v).strip() for v in values]
    for role in ("start", "end"):
        spans[role] = _offsets(file, frame[wanted[role]], wanted[role])
    if o["text"] in names:
        text = frame[o["text"]].astype(object)
        spans["text"] = text.where(text.notna(), None).to_numpy()
    return spans


def _header(file: str, names: list[Any], wanted: dict[str, str]) -> None:
    """Fail in one line where FILE's first line is spans, not names (a file without header)."""
    if any(str(c) in names for c in wanted.values()):
        return
    numbers = [c for c in names if str(c).strip().lstrip("-").isdigit()]
    if numbers:
        raise click.ClickException(
            f"{file}: the first line ({', '.join(map(str, names))}) is a span, not the names "
            f"of the columns: {', '.join(wanted.values())}. Add a header line naming them, and "
            "an item column where FILE is one document (--item, --rater, --start, --end and "
            "--label name other columns)."
        )


def _blank(value: Any) -> bool:
    return value is None or value != value or str(value).strip() == ""


def _offsets(file: str, column: Any, name: str) -> Any:
    """Return an offset column as numbers; a cell that is not one is an error naming its row."""
    import pandas as pd

    text = column.astype(object)
    cells = text.map(lambda v: str(v).strip() if not _blank(v) else None)
    numbers = pd.to_numeric(cells, errors="coerce")
    bad = numbers.isna().to_numpy()
    if bad.any():
        row = int(bad.argmax())
        raise click.ClickException(
            f"{file}: row {row + 2} of column {name!r} holds {str(text.iloc[row])!r}: offsets "
            "are whole numbers of characters. Fill it in or drop the row."
        )
    return numbers.to_numpy()


def _file_rows(exc: Exception) -> Exception:
    """Return the library's error with its rows named as FILE numbers them."""

    def fix(text: str) -> str:  # the rows as FILE numbers them; the lengths as it gives them
        text = _ROW.sub(r"row \1", text).replace("(lengths= or its text)", "(its --text)")
        return text.replace("variant='u'", "--unitizing-variant u")

    new: Any = type(exc)(fix(str(exc)))
    problem = problem_of(exc)
    if problem is not None:
        parts = {f.name: fix(getattr(problem, f.name)) for f in dataclasses.fields(problem)}
        problem = dataclasses.replace(problem, **parts)
        if problem.name == "spans":  # the table itself: FILE's spans
            said = f"The spans must be {problem.expected}. Got {problem.got} instead."
            problem = dataclasses.replace(problem, name="", sentence=f"{said} {problem.fix}")
        new._concord_problem = problem
    error: Exception = new
    return error


def _row(name: str, r: Any) -> dict[str, Any]:
    """Return a measure's summary row: its headline and interval, from its tidy frame."""
    head = r.to_frame().iloc[0]
    return {
        "measure": name,
        "coefficient": str(head["coefficient"]),
        "statistic": float(r.statistic),
        "ci_low": float(head["ci_low"]),
        "ci_high": float(head["ci_high"]),
        "n": head["n"],
    }


@click.command(
    epilog="""
\b
Examples:
  concord spans entities.csv
  concord spans entities.csv --match overlap --measure f1,token-alpha
  concord spans entities.parquet --match 0.5 --format json
  concord spans entities.csv --item doc --rater annotator -o disagreements.csv
  concord spans entities.csv --fail-under 0.8
  concord spans entities.csv --measure f1,unitizing-alpha --html spans.html
  concord spans entities.csv --measure unitizing-alpha --unitizing-variant cu
"""
)
@click.argument("file", metavar="FILE")
@opt.read_options
@click.option("--item", default="item", show_default=True, help="The item (document) column.")
@click.option("--rater", default="rater", show_default=True, help="The rater column.")
@click.option("--start", default="start", show_default=True, help="The start offset column.")
@click.option("--end", default="end", show_default=True,
              help="The end offset column (exclusive).")  # fmt: skip
@click.option("--label", default="label", show_default=True, help="The label column.")
@click.option(
    "--raters",
    metavar="A,B,C",
    help="The raters who annotated, comma-separated: one with no span in FILE marked nothing "
    "on every item (by default the raters of FILE).",
)
@click.option("--text", default="text", show_default=True,
              help="The text column, where FILE has one: each item's length.")  # fmt: skip
@click.option(
    "--measure",
    default="f1",
    show_default=True,
    help=f"Comma-separated: {', '.join(MEASURES)}.",
)
@click.option(
    "--match",
    default="exact",
    show_default=True,
    help="Span F1: when two spans match: exact, overlap (a shared character) or an IoU "
    "threshold, e.g. 0.5.",
)
@click.option("--ignore-labels", is_flag=True, help="Span F1: spans match whatever their label.")
@click.option(
    "--unit",
    type=click.Choice(["char", "token"]),
    default="char",
    show_default=True,
    help="token-alpha: one unit per character, or per whitespace token of the text.",
)
@click.option(
    "--unitizing-variant",
    type=click.Choice(["u", "u2016", "|u", "cu", "(k)u"]),
    default="u",
    show_default=True,
    help="unitizing-alpha: u (Krippendorff 2004, per label), u2016 (the labels and the "
    "unmarked text in one coincidence matrix, Krippendorff 2019), |u (any span against the "
    "unmarked text), cu (the labels where spans meet) or (k)u (cu per label); "
    "Krippendorff et al. 2016.",
)
@opt.confidence_option
@click.option(
    "--seed",
    type=int,
    help="Seed of the bootstrap interval of span F1 and of gamma's random continua.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(),
    help="Write the spans no span of the other rater matched (span F1), with the other "
    "rater's overlapping span, to this CSV file (for adjudication).",
)
@click.option(
    "--html",
    type=click.Path(),
    metavar="FILE",
    help="Write an HTML report of the measures: span F1 per label, the worst items and the "
    "spans to adjudicate.",
)
@click.option("--overwrite", is_flag=True, help="Replace the -o or --html file if it exists.")
@opt.output_options()
@opt.fail_under_options
@opt.data_errors
def spans(file: str, **o: Any) -> list[dict[str, Any]]:
    """Agreement on the spans in FILE: span F1, token alpha, unitizing alpha or gamma.

    FILE has one row per span: item, rater, start and end (character
    offsets, end exclusive) and label; a text column gives each item's
    length. A rater with no span on an item said "nothing there".
    """
    chosen = _measures(o["measure"])
    o["match"] = _match(o["match"])
    if o["output"] is not None:
        out.check_target(o["output"], "-o", o["overwrite"])
    if o["html"] is not None:  # fail before the measures are computed
        out.check_target(o["html"], "--html", o["overwrite"])
    table = read_spans(file, o)
    results: dict[str, Any] = {}
    try:
        for name in chosen:
            results[name] = MEASURES[name][1](table, o)
        if o["output"] is not None and "f1" not in results:
            results["f1"] = _f1(table, o)
    except (ValueError, TypeError) as exc:
        raise _file_rows(exc) from None
    rows = [_row(name, results[name]) for name in chosen]
    if o["output"] is not None:
        show.write(results["f1"], o)
    if o["html"] is not None:
        show.write_html(file, results, o)
    text = show.shown(file, table, chosen, results, rows, o["fmt"])
    terminal.echo(text, as_json=o["fmt"] == "json")
    return rows
