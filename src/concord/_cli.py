"""The ``concord`` command line: thin glue over the public API.

The CLI reads files with pandas, calls the library and prints its results;
it computes nothing itself. Library errors become one-line messages with a
non-zero exit status (1 for data errors, 2 for usage errors).
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

import click

from concord._cohen import cohen_kappa
from concord._kappa_result import KappaResult
from concord._version import __version__

_EXAMPLE = """
\b
Example:
  concord kappa essays.csv --rater1 truth --rater2 model_grade --weights quadratic
"""


@click.group(epilog=_EXAMPLE)
@click.version_option(__version__, prog_name="concord")
def main() -> None:
    """Measure how well raters agree: Cohen's kappa and quadratic weighted kappa."""


def _read_table(path: str) -> Any:
    import pandas as pd

    source = sys.stdin if path == "-" else path
    try:
        return pd.read_csv(source)
    except FileNotFoundError:
        raise click.ClickException(f"{path}: no such file.") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise click.ClickException(f"{path}: cannot read it as CSV ({first}).") from None


def _column(frame: Any, name: str, path: str, option: str) -> Any:
    if name not in frame.columns:
        available = ", ".join(map(str, frame.columns))
        raise click.ClickException(
            f"{path}: no column {name!r} for {option}. Columns: {available}."
        )
    return frame[name]


def _parse_labels(text: str | None, columns: list[Any]) -> list[Any] | None:
    """Split ``a,b,c`` and give the tokens the type of the rating columns."""
    if text is None:
        return None
    tokens = [t.strip() for t in text.split(",") if t.strip()]
    if all(c.dtype.kind in "iufb" for c in columns):
        try:
            return [int(t) if t.lstrip("+-").isdigit() else float(t) for t in tokens]
        except ValueError:
            raise click.BadParameter(
                f"the rating columns are numeric but {text!r} is not a list of numbers.",
                param_hint="--labels",
            ) from None
    return tokens


def _jsonable(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "tolist"):
        return _jsonable(value.tolist())
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def kappa_json(result: KappaResult) -> dict[str, Any]:
    """Return the documented JSON form of a :class:`KappaResult` (nan becomes null)."""
    fields = {
        "statistic": result.statistic,
        "weighting": result.weighting,
        "n": result.n,
        "labels": list(result.labels),
        "observed_agreement": result.observed_agreement,
        "chance_agreement": result.chance_agreement,
        "interpretation": result.interpret(),
        "observed": result.observed,
        "expected": result.expected,
        "weights": result.weights,
    }
    return {k: _jsonable(v) for k, v in fields.items()}


@main.command(epilog=_EXAMPLE)
@click.argument("file", metavar="FILE")
@click.option("--rater1", required=True, help="Column with the first rater's ratings.")
@click.option("--rater2", required=True, help="Column with the second rater's ratings.")
@click.option(
    "--weights",
    type=click.Choice(["none", "linear", "quadratic"]),
    default="none",
    show_default=True,
    help="Disagreement weights.",
)
@click.option("--labels", help="Ordered categories, comma-separated, e.g. low,mid,high.")
@click.option(
    "--nan-policy",
    type=click.Choice(["raise", "omit"]),
    default="raise",
    show_default=True,
    help="Missing ratings: fail, or drop the pairs they occur in.",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def kappa(
    file: str,
    rater1: str,
    rater2: str,
    weights: str,
    labels: str | None,
    nan_policy: str,
    fmt: str,
) -> None:
    """Cohen's kappa of two raters in a CSV file (FILE, or - for stdin).

    Prints κ, n, the observed, weight and expected matrices and the
    interpretation, or the same as JSON.
    """
    frame = _read_table(file)
    col1 = _column(frame, rater1, file, "--rater1")
    col2 = _column(frame, rater2, file, "--rater2")
    try:
        result = cohen_kappa(
            col1,
            col2,
            weights=None if weights == "none" else weights,
            labels=_parse_labels(labels, [col1, col2]),
            nan_policy=nan_policy,
        )
    except (ValueError, TypeError) as exc:
        raise click.ClickException(f"{file}: {exc}") from None
    if fmt == "json":
        click.echo(json.dumps(kappa_json(result), indent=2))
    else:
        click.echo(f"{file}: {rater1} vs {rater2}")
        click.echo(result.explain())
