"""``concord compare``: one coefficient on two sides of the same items, and their difference.

Two forms: ``--truth COL --raters a,b`` compares rater a with the truth
against rater b with the truth (two-rater coefficients, paired by row);
``--first a,b,c --second d,e,f`` compares two panels on the same items
(multi-rater coefficients). The file is read whole (no ``--chunk-rows``).
"""

from __future__ import annotations

from typing import Any

import click

from concord._cli import columns as cin
from concord._cli import inputs as inputs
from concord._cli import options as opt
from concord._cli import output as out
from concord._cli.reading import cells as cells
from concord._coefficients.registry import REGISTRY, by_name
from concord._render import records as rec

PAIRED = tuple(c.name for c in REGISTRY if c.terms is not None)
TWO = tuple(n for n in PAIRED if by_name(n).arity == 2)
MANY = tuple(n for n in PAIRED if by_name(n).arity == 1)


def _names(value: str | None) -> list[str]:
    return [] if value is None else [v.strip() for v in value.split(",") if v.strip()]


def _form(o: dict[str, Any]) -> tuple[list[str], list[str], str]:
    """Return the sides' columns and the coefficient, from --truth/--raters or --first/--second."""
    truth, raters = o["truth"], _names(o["raters"])
    first, second = _names(o["first"]), _names(o["second"])
    if truth is not None or raters:
        if first or second:
            raise click.UsageError("give --truth and --raters, or --first and --second, not both.")
        if truth is None:
            raise click.UsageError(
                "--raters needs --truth: the column both raters are compared with."
            )
        if len(raters) != 2:
            raise click.UsageError(
                "--raters needs exactly two columns, e.g. --raters model_a,model_b; "
                f"got {len(raters)}."
            )
        name = o["coefficient"] or "cohen_kappa"
        if name not in TWO:
            raise click.UsageError(f"--coefficient with --truth must be one of {', '.join(TWO)}.")
        return [truth, raters[0]], [truth, raters[1]], name
    if not first or not second:
        missing = "--second" if first else "--first"
        raise click.UsageError(
            f"{missing} is missing: give --first and --second (two panels), "
            "or --truth and --raters."
        )
    name = o["coefficient"] or "fleiss_kappa"
    if name not in MANY:
        raise click.UsageError(f"--coefficient with --first must be one of {', '.join(MANY)}.")
    return first, second, name


def compared(file: str, o: dict[str, Any]) -> tuple[Any, list[str], list[str], int]:
    """Read FILE and return the comparison, both sides' columns and the number of items."""
    import concord

    one, two, name = _form(o)
    src = inputs.source(file, o)
    found = src.names()
    for column in dict.fromkeys(one + two):
        if column not in found:
            raise click.BadParameter(
                f"no column {column!r} in {file}; it has {', '.join(found)}.",
                param_hint="'--truth'/'--raters'" if o["truth"] else "'--first'/'--second'",
            )
    frame = cells.whole(src, inputs.groups(list(dict.fromkeys(one + two)), o))
    coef = by_name(name)
    options: dict[str, Any] = {
        "labels": cin.parse_labels(o["labels"], [frame[c] for c in one + two])
    }
    if "weights" in coef.options:
        options["weights"] = opt.weights(o)
    if coef.arity == 2:
        first: Any = (frame[one[0]], frame[one[1]])
        second: Any = (frame[two[0]], frame[two[1]])
    else:
        first, second = frame[one], frame[two]
    result = concord.compare(
        coef.function,
        first,
        second,
        confidence_level=o["confidence_level"],
        method=_difference_method(o["ci_method"]),
        rng=o["seed"] if o["seed"] is not None else 0,  # the same interval on every run
        **options,
    )
    return result, one, two, int(frame.shape[0])


def _difference_method(method: str | None) -> str | None:
    """Return --ci-method for the difference's interval; fisher-z has none (refused)."""
    if method == "fisher-z":
        raise click.BadParameter(
            "Fisher's z has no interval of a difference of two coefficients; pick t, wald, "
            "bootstrap-percentile or bootstrap-bca (the difference's interval, the number "
            "this command is for).",
            param_hint="'--ci-method'",
        )
    return method


def _side(columns: list[str], truth: bool) -> str:
    return columns[1] if truth else "+".join(columns)


def record(
    result: Any, one: list[str], two: list[str], o: dict[str, Any], n: int
) -> dict[str, Any]:
    """Return the JSON form: both sides' summary rows, the difference and the sentence."""
    truth = o["truth"] is not None
    low, high = result.confidence_interval()
    rows = [
        rec.summary(r, o["confidence_level"], o["ci_method"], o["seed"])
        for r in (result.first, result.second)
    ]
    return {
        "coefficient": result.first.name,
        "paired": result.paired,
        "items": n,
        "truth": o["truth"],
        "first": {"raters": _side(one, truth), **rows[0]},
        "second": {"raters": _side(two, truth), **rows[1]},
        "difference": {
            "estimate": result.difference,
            "standard_error": result.standard_error,
            "statistic": result.t_statistic,
            "df": result.df,
            "pvalue": result.pvalue,
            "confidence_level": result.confidence_level,
            "ci_method": result.method,
            "ci_low": low,
            "ci_high": high,
        },
        "interpretation": interpretation(result, _side(one, truth), _side(two, truth), truth),
    }


def interpretation(result: Any, a: str, b: str, truth: bool) -> str:
    """One line: which side agrees more, by how much, with the interval and p-value."""
    d = result.difference
    low, high = result.confidence_interval()
    level = f"{round(100 * result.confidence_level, 6):g}%"
    more, less = (b, a) if d >= 0 else (a, b)
    what = "agrees with the truth" if truth else "agrees"
    alpha = f"{round(100 * (1 - result.confidence_level), 6):g}%"
    verdict = "significant" if result.pvalue < 1 - result.confidence_level else "not significant"
    return (
        f"{more} {what} more than {less} by {abs(d):.2f} ({level} CI {low:.2f} to {high:.2f} "
        f"for {b} − {a}); t = {result.t_statistic:.2f} on {result.df:g} df, "
        f"p = {result.pvalue:.3g} ({verdict} at {alpha})."
    )


def _rows(r: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the Markdown and CSV rows: first, second, difference."""
    d = r["difference"]
    keep = ("statistic", "standard_error", "confidence_level", "ci_low", "ci_high", "pvalue")
    rows = [
        {"side": s, "raters": r[s]["raters"], **{k: r[s][k] for k in keep}}
        for s in ("first", "second")
    ]
    rows.append(
        {
            "side": "difference",
            "raters": f"{r['second']['raters']} − {r['first']['raters']}",
            "statistic": d["estimate"],
            "standard_error": d["standard_error"],
            "confidence_level": d["confidence_level"],
            "ci_low": d["ci_low"],
            "ci_high": d["ci_high"],
            "pvalue": d["pvalue"],
        }
    )
    return rows


def _markdown(rows: list[dict[str, Any]]) -> str:
    import pandas as pd

    shown = [
        {
            "side": r["side"],
            "raters": r["raters"],
            "value": rec.number(r["statistic"]),
            "SE": rec.number(r["standard_error"]),
            f"{round(100 * r['confidence_level'], 6):g}% CI": (
                f"[{rec.number(r['ci_low'])}, {rec.number(r['ci_high'])}]"
            ),
            "p": rec.pvalue(r["pvalue"]),
        }
        for r in rows
    ]
    return str(pd.DataFrame(shown).to_markdown(index=False, disable_numparse=True))


def _estimate(s: dict[str, Any], key: str) -> str:
    """Return "value (SE se, 95% CI low to high)"."""
    level = f"{round(100 * s['confidence_level'], 6):g}%"
    return (
        f"{rec.number(s[key])} (SE {rec.number(s['standard_error'])}, "
        f"{level} CI {rec.number(s['ci_low'])} to {rec.number(s['ci_high'])})"
    )


def _text(file: str, r: dict[str, Any]) -> str:
    d = r["difference"]
    lines = [f"{file}: {r['coefficient']}, paired on {r['items']} items"]
    for side in ("first", "second"):
        lines.append(f"  {side:<7} {r[side]['raters']}: {_estimate(r[side], 'statistic')}")
    lines.append(
        f"  difference (second − first): {_estimate(d, 'estimate')}, "
        f"t = {rec.number(d['statistic'])}, df = {d['df']:g}, p = {d['pvalue']:.4g}"
    )
    return "\n".join([*lines, "", r["interpretation"]])


@click.command(
    epilog="""
\b
Examples:
  concord compare data/seed_sentiment.csv --truth gold_standard --raters model_1,model_2
  concord compare data/essays.csv --truth truth --raters rater1,model_grade --weights quadratic
  concord compare data/essays.csv --first rater1,rater2 --second rater3,model_grade
"""
)
@click.argument("file", metavar="FILE")
@opt.read_options
@click.option("--truth", help="The reference column each of --raters is compared with.")
@click.option("--raters", help="Exactly two rater columns, comma-separated: a,b (b − a).")
@click.option("--first", help="The first panel's rater columns, comma-separated.")
@click.option("--second", help="The second panel's rater columns, on the same items.")
@click.option(
    "--coefficient",
    type=click.Choice(PAIRED),
    help="Default: cohen_kappa with --truth, fleiss_kappa with --first.",
)
@click.option("--labels", help="Ordered categories, comma-separated, e.g. low,mid,high.")
@opt.weights_option("Disagreement weights.")
@opt.inference_options
@opt.output_options()
@opt.fail_under_options
@opt.data_errors
def compare(file: str, **o: Any) -> list[dict[str, Any]]:
    """Compare agreement on the same items: two raters against a truth, or two panels.

    Prints both estimates with SE and CI, the difference (second − first)
    with its paired SE (Gwet 2016), t, df, p-value and CI, and one line
    saying which agrees more. --fail-under gates both sides' coefficients
    (so the lower side's value, or lower bound, decides), not the difference.
    """
    result, one, two, n = compared(file, o)
    r = record(result, one, two, o, n)
    if o["fmt"] == "json":
        click.echo(rec.dumps(r))
    elif o["fmt"] == "csv":
        click.echo(out.table(_rows(r), "csv"))
    elif o["fmt"] == "markdown":
        click.echo(_markdown(_rows(r)))
    else:
        click.echo(_text(file, r))
    return [
        {**side, "coefficient": f"{r['coefficient']} of {side['raters']}"} for side in _rows(r)[:2]
    ]
