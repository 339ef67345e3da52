"""``concord kappa``: Cohen's kappa of two raters, read whole or counted chunk by chunk."""

from __future__ import annotations

from typing import Any

import click

from concord._cli import columns as cin
from concord._cli import options as opt
from concord._cli import output as out
from concord._cli import stream as stream
from concord._cli import terminal as terminal
from concord._cli.reading import small as small
from concord._render import records as rec


def library_options(o: dict[str, Any], columns: list[Any]) -> dict[str, Any]:
    """Return cohen_kappa's options from the command line's, labels checked on ``columns``."""
    return {
        "weights": opt.weights(o),
        "labels": cin.parse_labels(o["labels"], columns),
        "nan_policy": o["nan_policy"],
    }


def two_rater_result(file: str, o: dict[str, Any]) -> tuple[Any, tuple[Any, Any]]:
    """Cohen's kappa of the two raters the options name, and their two columns."""
    import concord

    # a small plain file without pandas and pyarrow; anything else (and every error) the usual way
    quick = small.two_raters(file, o)
    if quick is None:
        from concord._cli import inputs

        quick = inputs.two_raters(file, o)
    a, b = quick
    return concord.cohen_kappa(a, b, **library_options(o, [a, b])), (a, b)


def streamed(file: str, o: dict[str, Any], rows: int) -> tuple[Any, tuple[str, str]]:
    """Cohen's kappa of the --rater1 and --rater2 columns, counted chunk by chunk."""
    import concord
    from concord._cli import inputs

    src, pair = inputs.pair(file, o, rows)
    made: list[Any] = []

    def start(frame: Any) -> list[tuple[Any, list[str] | None]]:
        options = library_options(o, [frame[c] for c in pair])
        made.append(concord.accumulate(concord.cohen_kappa, **options))
        return [(made[0], pair)]

    stream.feed(src, pair, o, start)
    from concord._results.protocol import named

    # the columns name the raters, as they do in memory
    return named(made[0].result(), (str(pair[0]), str(pair[1]))), (pair[0], pair[1])


@click.command(
    epilog="""
\b
Examples:
  concord kappa data/essays.csv --rater1 truth --rater2 model_grade --weights quadratic
  concord kappa data/seed_sentiment.csv --rater1 gold_standard --rater2 model_1 \\
      --weights linear --labels negative,neutral,positive --format json
"""
)
@opt.input_options
@opt.rater_pair_options(
    "The first rater: a column, or in long form a rater's name.", "The second rater."
)
@opt.weights_option("Disagreement weights.")
@opt.nan_policy_option("Missing ratings: fail, or drop the pairs they occur in.")
@opt.chunk_option
@opt.inference_options
@opt.output_options()
@opt.fail_under_options
@opt.data_errors
def kappa(file: str, **o: Any) -> list[dict[str, Any]]:
    """Cohen's kappa of two raters in FILE, with SE, confidence interval and p-value.

    Prints kappa and its uncertainty, the observed (O), weight (W) and expected
    (E) matrices, the interpretation and the confusions that cost the most.
    """
    rows = stream.chunk_rows(file, o)
    if rows:
        result, (a, b) = streamed(file, o, rows)
    else:
        result, columns = two_rater_result(file, o)
        a, b = (str(c.name) for c in columns)
    row = rec.summary(result, o["confidence_level"], o["ci_method"], o["seed"])
    if o["fmt"] == "json":
        terminal.echo(rec.dumps(rec.kappa_record(result, row)), as_json=True)
    elif o["fmt"] in ("markdown", "csv"):
        terminal.echo(out.table([row], o["fmt"]))
    else:
        terminal.echo(out.kappa_text(f"{file}: {a} vs {b}", result, row))
    return [row]
