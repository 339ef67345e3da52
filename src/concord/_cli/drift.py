"""``concord drift``: agreement per time window (:func:`concord.drift` of FILE)."""

from __future__ import annotations

from typing import Any

import click

from concord._cli import agree as agree
from concord._cli import columns as cin
from concord._cli import inputs as inputs
from concord._cli import options as opt
from concord._cli import output as out
from concord._cli import read as read
from concord._cli import terminal as terminal
from concord._coefficients.registry import by_name
from concord._render import records as rec


def _window(value: str) -> int | str:
    """Return a whole number of items, else a pandas frequency such as 7D."""
    return int(value) if value.strip().isdigit() else value.strip()


def _times(file: str, o: dict[str, Any]) -> Any:
    """Return the --time column as numbers, else as datetimes (else the CLI's error)."""
    import pandas as pd

    text = read.text_frame(file, o)
    if o["time"] not in text.columns:
        raise click.BadParameter(
            f"{o['time']!r} is not a column of {file}. Columns: {', '.join(text.columns)}.",
            param_hint="'--time'",
        )
    column = text[o["time"]]
    numbers = pd.to_numeric(column, errors="coerce")
    if numbers.notna().all():
        return numbers.to_numpy()
    when = pd.to_datetime(column, errors="coerce")
    if when.notna().all():
        return when.to_numpy()
    row = int((numbers.isna() & when.isna()).to_numpy().argmax())
    raise click.BadParameter(
        f"row {row + 1} holds {column.iloc[row]!r}, neither a number nor a date.",
        param_hint="'--time'",
    )


@click.command(
    epilog="""
\b
Examples:
  concord drift labels.csv --time created_at --window 7D
  concord drift labels.csv --time seq --window 1000 --coefficient alpha --fail-under 0.6
"""
)
@opt.input_options
@click.option("--raters", help="The rater columns, comma-separated. Default: all but --time.")
@click.option("--time", required=True, help="The column saying when each item was rated.")
@click.option(
    "--window",
    required=True,
    type=_window,
    help="Items per window (e.g. 1000), or a period of --time's dates (e.g. 7D, 1h).",
)
@click.option(
    "--coefficient",
    default="fleiss",
    show_default=True,
    help="percent, fleiss, conger, light, gwet, brennan or alpha (or a function name).",
)
@click.option(
    "--reference",
    type=int,
    default=0,
    show_default=True,
    help="The window the others are compared with (0: the first, -1: the last).",
)
@opt.weights_option("Disagreement weights.")
@opt.confidence_option
@opt.output_options()
@opt.fail_under_options
@opt.data_errors
def drift(file: str, **o: Any) -> list[dict[str, Any]]:
    """Agreement in FILE per time window, windows that differ from the reference flagged.

    Each window's coefficient with its interval; a window is flagged when its
    difference from the reference window is significant (z test). With
    --fail-under, the latest window is the one gated.
    """
    import pandas as pd

    import concord

    if inputs.long_form(o) is not None:
        raise click.UsageError(
            "concord drift reads the wide form, one row per item with its --time: "
            "leave out --item, --rater and --rating."
        )
    names = agree.picked(o["coefficient"], "--coefficient")
    assert names is not None
    function = by_name(names[0]).function
    times = _times(file, o)
    frame = inputs.ratings(file, {**o, "id_column": None if o["raters"] else o["time"]})
    labels = cin.parse_labels(o["labels"], [frame[c] for c in frame.columns])
    options: dict[str, Any] = {"weights": opt.weights(o)} if o["weights"] != "none" else {}
    if labels is not None:
        options["labels"] = labels
    data = pd.concat([pd.Series(times, name="__time__"), frame.reset_index(drop=True)], axis=1)
    r = concord.drift(
        data, time="__time__", window=o["window"], function=function,
        reference=o["reference"], confidence_level=o["confidence_level"], **options,
    )  # fmt: skip
    frame = r.to_frame()
    if o["fmt"] == "json":
        record = {**r.to_dict(), "windows": frame.to_dict(orient="records")}
        terminal.echo(rec.dumps(record), as_json=True)
    elif o["fmt"] == "csv":
        terminal.echo(frame.to_csv(index=False, lineterminator="\n").rstrip("\n"))
    else:
        shown = [
            {
                "window": str(i),
                "from": str(w.start),
                "to": str(w.end),
                "items": str(w.n),
                "value": rec.number(w.statistic),
                "CI": f"[{rec.number(w.ci_low)}, {rec.number(w.ci_high)}]",
                "p vs ref": rec.pvalue(w.pvalue),
                "flag": "differs" if w.flagged else "",
            }
            for i, w in enumerate(r.windows)
        ]
        terminal.echo("\n".join([out.table_of(shown, o["fmt"]), "", r.explain()]))
    return [{**r.to_dict(), "coefficient": f"{r.coefficient} of the latest window"}]
