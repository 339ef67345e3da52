"""``concord report``: the HTML report of ``kappa`` (two raters) or ``agree`` (many)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import click

from concord._cli import agree as agree
from concord._cli import agree_ranks as ranks
from concord._cli import inputs as inputs
from concord._cli import kappa as kappa
from concord._cli import options as opt
from concord._cli import output as out
from concord._cli import terminal as terminal


@click.command(
    epilog="""
\b
Examples:
  concord report data/essays.csv --rater1 truth --rater2 model_grade --weights quadratic \\
      -o essays.html
  concord report data/essays.csv --raters rater1,rater2,rater3 -o raters.html --overwrite
  concord report data/essays.csv --raters rater1,rater2,rater3 --coefficients fleiss,alpha
  concord report annotations.csv --item doc --rater annotator --rating label -o report.html
"""
)
@opt.input_options
@opt.wide_options
@opt.rater_pair_options(
    "Two raters (the kappa report): the first rater's column.", "The second rater's column."
)
@opt.weights_option("Disagreement weights.")
@opt.level_option
@agree.coefficients_option
@opt.nan_policy_option("Two raters: fail on a missing rating, or drop its pair.")
@opt.inference_options
@click.option("-o", "--output", type=click.Path(), default="report.html", show_default=True)
@click.option("--overwrite", is_flag=True, help="Replace the -o file if it exists.")
@click.option("--title", help="The page title. Default: from FILE.")
@click.option("--no-plots", is_flag=True, help="Leave the plots out (no matplotlib needed).")
@click.option("--quiet", is_flag=True, help="No progress bars.")
@opt.data_errors
def report(file: str, **o: Any) -> None:
    """Write a self-contained HTML report of the agreement in FILE.

    With --rater1 and --rater2: Cohen's kappa of two raters, as ``concord
    kappa``. Otherwise the multi-rater coefficients, as ``concord agree``
    (--coefficients picks some; kendall, cronbach, meancor and occc, of
    numeric ratings, get a section each under Results). The page opens with a summary, a table of
    contents, the data, the coefficients, the raters (as ``concord raters``),
    the categories' specific agreement and the flags; then each coefficient
    with its plots, step-by-step explanation, method notes and references,
    and the command that produced it.
    """
    from concord.report import to_html

    others = ranks.rest(o["coefficients"])
    if others != "":
        agree.picked(others)  # a misspelt name fails before the file is read
    out.check_target(o["output"], "-o", o["overwrite"])
    results: Any
    if o["rater1"] is not None or o["rater2"] is not None:
        result, (a, b) = kappa.two_rater_result(file, o)
        results, data = [result], {str(a.name): a, str(b.name): b}
    else:
        data, results = _many(file, o, others)
    html = to_html(
        results,
        data=data,
        title=o["title"] or f"Agreement in {Path(file).name}",
        command=shlex.join(["concord", *sys.argv[1:]]),
        confidence_level=o["confidence_level"],
        method=o["ci_method"],
        rng=o["seed"] if o["seed"] is not None else 0,
        plots=not o["no_plots"],
    )
    with out.replacing(o["output"], "-o", overwrite=o["overwrite"]) as fh:
        fh.write(html)
    terminal.echo(f"wrote {o['output']} ({len(html) / 1024:.0f} KiB)", err=True)


def _many(file: str, o: dict[str, Any], others: str | None) -> tuple[Any, Any]:
    """Return the ratings and the results of many raters, as ``concord agree`` has them.

    The coefficients, then the rank and score statistics (``kendall``, ``cronbach``,
    ``meancor``, ``occc``) of the ratings read as numbers, each titled by its name.
    """
    data = inputs.ratings(file, o)
    found = agree.agreement_results(data, {**o, "coefficients": others}) if others != "" else []
    ranked = ranks.chosen(o["coefficients"])
    if not ranked:
        return data, found
    level = o["confidence_level"]
    extra = ranks.results(inputs.ratings(file, o, numbers=True), ranked, level)
    named = {r.name: r for r in found}
    titles = [row["coefficient"] for row in ranks.rows(extra, level)]
    named.update(zip(titles, extra, strict=True))
    return data, named
