"""The ``concord`` command line: thin glue over the public API.

The CLI reads files (:mod:`concord._cli.columns`), calls the library and lays
out its results (:mod:`concord._cli.output`); it computes nothing itself.
Errors are one line naming the file, column or row, with exit status 1 for
data errors and 2 for usage errors.
"""

from __future__ import annotations

from typing import Any

import click

from concord._cli import options as opt
from concord._cli import output as out
from concord._cli import stream as stream
from concord._render import records as rec
from concord._version import __version__

EXAMPLES = """
\b
Examples:
  concord kappa data/essays.csv --rater1 truth --rater2 model_grade --weights quadratic
  concord agree data/fleiss1971_diagnoses.csv --format markdown
  concord agree annotations.csv --item doc --rater annotator --rating label
  concord thresholds data/essays.csv --truth truth --score model_score --save cuts.json
  concord report data/essays.csv --raters rater1,rater2,rater3 -o report.html
"""


@click.group(epilog=EXAMPLES)
@click.version_option(__version__, prog_name="concord")
def main() -> None:
    """Measure how well raters agree: kappa, the agreement family, cut points, reports.

    Every command reads CSV, TSV, Parquet or Excel (FILE, or - for CSV on
    stdin), in wide form (one column per rater) or long form (--item,
    --rater, --rating: one row per rating).
    """


@main.command(
    epilog="""
\b
Examples:
  concord kappa data/essays.csv --rater1 truth --rater2 model_grade --weights quadratic
  concord kappa data/seed_sentiment.csv --rater1 gold_standard --rater2 model_1 \\
      --weights linear --labels negative,neutral,positive --format json
"""
)
@opt.input_options
@click.option("--rater1", help="The first rater: a column, or in long form a rater's name.")
@click.option("--rater2", help="The second rater.")
@opt.weights_option("Disagreement weights.")
@opt.nan_policy_option("Missing ratings: fail, or drop the pairs they occur in.")
@opt.chunk_option
@opt.inference_options
@opt.output_options()
@opt.data_errors
def kappa(file: str, **o: Any) -> None:
    """Cohen's kappa of two raters in FILE, with SE, confidence interval and p-value.

    Prints κ and its uncertainty, the observed (O), weight (W) and expected
    (E) matrices, the interpretation and the confusions that cost the most.
    """
    rows = stream.chunk_rows(file, o)
    if rows:
        result, (a, b) = stream.kappa(file, o, rows)
    else:
        result, columns = opt.two_rater_result(file, o)
        a, b = (str(c.name) for c in columns)
    row = rec.summary(result, o["confidence_level"], o["ci_method"], o["seed"])
    if o["fmt"] == "json":
        click.echo(rec.dumps(rec.kappa_record(result, row)))
    elif o["fmt"] in ("markdown", "csv"):
        click.echo(out.table([row], o["fmt"]))
    else:
        click.echo(out.kappa_text(f"{file}: {a} vs {b}", result, row))


@main.command(
    epilog="""
\b
Examples:
  concord agree data/fleiss1971_diagnoses.csv
  concord agree data/essays.csv --raters rater1,rater2,rater3 --weights quadratic
  concord agree annotations.csv --item doc --rater annotator --rating label --format json
"""
)
@opt.input_options
@opt.wide_options
@opt.weights_option("Disagreement weights of the kappa-type coefficients.")
@opt.level_option
@opt.chunk_option
@opt.inference_options
@opt.output_options()
@opt.data_errors
def agree(file: str, **o: Any) -> None:
    """Every agreement coefficient of many raters in FILE, with SE, CI and p-value.

    Percent agreement, Fleiss', Conger's and Light's kappa, Gwet's AC1/AC2,
    Brennan-Prediger and Krippendorff's alpha, one row each. Missing ratings
    (empty cells) are allowed.
    """
    chunk = stream.chunk_rows(file, o)
    if chunk:
        results, tally = stream.agree(file, o, chunk)
        shape = tally.shape()
    else:
        frame = opt.ratings(file, o)
        results, shape = opt.agreement_results(frame, o), rec.frame_shape(frame)
    rows = [rec.summary(r, o["confidence_level"], o["ci_method"], o["seed"]) for r in results]
    if o["fmt"] == "json":
        click.echo(rec.dumps(out.agree_record(shape, results, rows)))
    elif o["fmt"] == "text":
        click.echo(out.agree_text(file, shape, results, rows))
    else:
        click.echo(out.table(rows, o["fmt"]))


def _register() -> None:
    from concord._cli.report import report
    from concord._cli.thresholds import thresholds

    main.add_command(thresholds)
    main.add_command(report)


_register()
