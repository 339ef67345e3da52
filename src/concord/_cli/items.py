"""``concord items``: which items are hard (:func:`concord.item_agreement` of FILE)."""

from __future__ import annotations

from typing import Any

import click

from concord._cli import columns as cin
from concord._cli import inputs as inputs
from concord._cli import options as opt
from concord._cli import output as out
from concord._cli import read as read
from concord._cli import terminal as terminal
from concord._common.text import label_text
from concord._render import records as rec


def _shown(r: Any, top: int) -> list[dict[str, str]]:
    frame = r.to_frame().head(top)
    return [
        {
            "item": str(row.item),
            "ratings": str(row.n_ratings),
            "agreement": rec.number(row.agreement),
            "majority": label_text(row.majority),
            "share": rec.number(row.majority_share),
            "entropy (nats)": rec.number(row.entropy),
        }
        for row in frame.itertuples()
    ]


@click.command(
    epilog="""
\b
Examples:
  concord items data/fleiss1971_diagnoses.csv --id patient
  concord items data/fleiss1971_diagnoses.csv --id patient -o disagreements.csv
  concord items annotations.csv --item doc --rater annotator --rating label --top 50
"""
)
@opt.input_options
@opt.wide_options
@opt.weights_option("Disagreement weights of the pairwise agreement.")
@click.option("--top", type=click.IntRange(min=1), default=20, show_default=True,
              help="Show this many of the hardest items.")  # fmt: skip
@click.option(
    "-o",
    "--output",
    type=click.Path(),
    help="Write the items without unanimous agreement, every rater's label under the "
    "rater's name, to this CSV file (for adjudication).",
)
@click.option("--overwrite", is_flag=True, help="Replace the -o file if it exists.")
@opt.output_options()
@opt.fail_under_options
@opt.data_errors
def items(file: str, **o: Any) -> list[dict[str, Any]]:
    """Which items in FILE are hard: per item its pairwise agreement, majority and entropy.

    Hardest first: the lowest pairwise agreement (Fleiss 1971), then the
    highest entropy of the labels (natural log). With -o, the items without
    unanimous agreement go to a CSV file with every rater's label.
    """
    import concord

    if o["fail_under_bound"]:
        raise click.UsageError(
            "the mean agreement per item has no interval: use --fail-under without "
            "--fail-under-bound."
        )
    if o["output"] is not None:
        out.check_target(o["output"], "-o", o["overwrite"])
    frame = _named(file, inputs.ratings(file, o), o)
    labels = cin.parse_labels(o["labels"], [frame[c] for c in frame.columns])
    r = concord.item_agreement(frame, weights=opt.weights(o), labels=labels)
    if o["output"] is not None:
        text = r.disagreements().to_csv(index=False, lineterminator="\n")
        with out.replacing(o["output"], "-o", overwrite=o["overwrite"]) as fh:
            fh.write(text)
        terminal.echo(f"wrote {o['output']} ({int((~r.unanimous).sum())} items)", err=True)
    if o["fmt"] == "json":
        terminal.echo(rec.dumps({**r.to_dict(), "items": _records(r)}), as_json=True)
    elif o["fmt"] == "csv":
        frame = r.to_frame()
        sets = frame["majority"].map(lambda v: isinstance(v, frozenset))
        frame.loc[sets, "majority"] = frame.loc[sets, "majority"].map(label_text)
        terminal.echo(frame.to_csv(index=False, lineterminator="\n").rstrip("\n"))
    else:
        shown = _shown(r, o["top"])
        head = f"{file}: the {len(shown)} hardest of {len(r.items)} items"
        terminal.echo("\n".join([head, "", out.table_of(shown, o["fmt"]), "", r.explain()]))
    return [{"coefficient": "mean pairwise agreement per item", "statistic": r.statistic}]


def _named(file: str, frame: Any, o: dict[str, Any]) -> Any:
    """Name the wide form's items by the --id column, else by data row (1 = the first)."""
    if inputs.long_form(o) is not None or inputs.exports.is_export(file, o):
        return frame  # an export's items keep their ids
    if o["id_column"] is not None:
        name = o["id_column"]
        ids = read.text_frame(file, o)[name]  # as written in FILE: "007" stays "007"
        return frame.set_axis(list(ids), axis=0)
    return frame.set_axis(range(1, len(frame) + 1), axis=0)


def _records(r: Any) -> list[dict[str, Any]]:
    return [dict(row) for row in r.to_frame().to_dict(orient="records")]
