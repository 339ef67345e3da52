"""``concord plan``: how many items a study of agreement needs (glue over :func:`concord.plan`)."""

from __future__ import annotations

import math
from typing import Any

import click

from concord._cli import output as out
from concord._cli import speak as speak
from concord._cli import terminal as terminal
from concord._render import records as rec


def _prevalence(value: str) -> float | list[float]:
    """Return one rate, or the comma-separated category rates."""
    try:
        parts = [float(v) for v in value.split(",")]
    except ValueError:
        raise click.BadParameter(
            "must be a rate or comma-separated rates (0.3 or 0.2,0.5,0.3). "
            f"Got {value!r} instead.",
            param_hint="'--prevalence'",
        ) from None
    return parts[0] if len(parts) == 1 else parts


def grid_rows(result: Any) -> list[dict[str, str]]:
    """Return the grid as display strings: expected, power or width, n."""
    return [
        {key: f"{value:g}" if key != "n" else f"{int(value)}" for key, value in row.items()}
        for row in result.grid
    ]


def text(result: Any) -> str:
    """Return the explanation, then n over nearby designs."""
    lines = [result.explain()]
    if result.grid:
        lines += ["", "n over nearby designs:", out.table_of(grid_rows(result), "text")]
    return "\n".join(lines)


def markdown(result: Any) -> str:
    """Return the explanation as a paragraph and the grid as a Markdown table."""
    table = out.table_of(grid_rows(result), "markdown") if result.grid else ""
    return str(result.explain()) + ("\n\n" + table if table else "")


def _answer(o: dict[str, Any]) -> Any:
    """Call concord.plan with the options; its errors become one line in the CLI's words."""
    import concord

    options = {k: o[k] for k in ("expected", "null", "width", "raters", "alpha", "power")}
    options |= {k: o[k] for k in ("sides", "missing", "simulations", "seed")}
    options["prevalence"] = _prevalence(o["prevalence"])
    try:
        return concord.plan(o["coefficient"], **options)
    except (ValueError, TypeError) as exc:
        raise click.ClickException(speak.message(exc, o)) from None


@click.command(
    epilog="""
\b
Examples:
  concord plan cohen --expected 0.7 --null 0.85 --prevalence 0.5
  concord plan fleiss --expected 0.6 --null 0.4 --prevalence 0.3,0.6,0.1 --sides 2
  concord plan fleiss --expected 0.4 --width 0.2 --prevalence 0.3 --raters 3
  concord plan icc --expected 0.8 --null 0.6 --raters 3 --format json
  concord plan alpha --expected 0.8 --null 0.667 --raters 3 --prevalence 0.3,0.4,0.3 --missing 0.1
"""
)
@click.argument("coefficient", type=click.Choice(("cohen", "fleiss", "icc", "alpha")))
@click.option("--expected", type=float, required=True, help="The anticipated coefficient.")
@click.option("--null", type=float, help="The value to reject (plan for power).")
@click.option("--width", type=float, help="The interval's full width (plan for precision).")
@click.option(
    "--prevalence",
    default="0.5",
    show_default=True,
    help="The positive category's rate, or every category's rates (0.2,0.5,0.3); "
    "for cohen, one rate or rater1's,rater2's.",
)
@click.option("--raters", type=int, default=2, show_default=True, help="Ratings per item.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="The test's level.")
@click.option("--power", type=float, default=0.8, show_default=True, help="The power aimed at.")
@click.option(
    "--sides",
    type=click.IntRange(1, 2),
    default=1,
    show_default=True,
    help="1: a one-sided test (irr); 2: two-sided (kappaSize's power).",
)
@click.option(
    "--missing", type=float, default=0.0, show_default=True, help="Share of ratings missing."
)
@click.option(
    "--simulations",
    type=int,
    default=1000,
    show_default=True,
    help="Simulated studies per candidate n (alpha; icc with --missing).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The simulations' seed.")
@click.option("--format", "fmt", type=click.Choice(out.OUTPUTS), default="text", show_default=True)
def plan(**o: Any) -> None:
    """Print how many items a study needs: COEFFICIENT is cohen, fleiss, icc or alpha.

    With --null, the items for a test of COEFFICIENT = --null to reject with
    --power when it is --expected; with --width (cohen, fleiss), the items
    for an interval that wide. cohen: Cantor (1996), as R irr's
    N.cohen.kappa; fleiss: R kappaSize's methods; icc: the one-way F test;
    alpha, and icc with --missing: simulated studies of the design.
    """
    result = _answer(o)
    if o["fmt"] == "json":
        terminal.echo(rec.dumps(result.to_dict()), as_json=True)
    elif o["fmt"] == "text":
        terminal.echo(text(result))
    elif o["fmt"] == "csv":
        rows = [{**row} for row in result.grid] or [{"n": result.n}]
        terminal.echo(out.table(rows, "csv"))
    else:
        terminal.echo(markdown(result))
    if not math.isfinite(result.achieved_power) and result.goal == "power":
        terminal.echo("note: the power at n could not be computed.", err=True)
