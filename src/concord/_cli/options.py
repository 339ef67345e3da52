"""Options and input handling shared by the ``concord`` subcommands.

As in sqlite-utils, options that several commands take are declared once, as
decorators; the helpers below turn parsed options into library calls.
"""

from __future__ import annotations

import contextlib
import functools
import warnings
from collections.abc import Callable
from typing import Any

import click

from concord._cli import columns as cin
from concord._cli import output as out
from concord._common import options as vocabulary
from concord._inference.intervals import quiet

F = Callable[..., Any]

WEIGHTS = ("none", *vocabulary.WEIGHTS)
LEVELS = ("auto", *vocabulary.LEVELS)
# --level auto: the Krippendorff metric that matches --weights (interval δ² is
# the quadratic weight, ratio δ² irrCAC's ratio weight); the other weights are
# passed to alpha as its δ² matrix
LEVEL_OF = {"none": "nominal", "quadratic": "interval", "ratio": "ratio"}


def options(*decorators: F) -> Callable[[F], F]:
    """Combine option decorators into one."""

    def apply(func: F) -> F:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return apply


read_options = options(
    click.option("--input-format", type=click.Choice(cin.FORMATS), help="Default: the suffix's."),
    click.option(
        "--delimiter",
        help="CSV and TSV: the field separator, e.g. ';' or '\\t'. Default: , (tab for TSV).",
    ),
    click.option(
        "--encoding",
        default="utf-8",
        show_default=True,
        help="The file's text encoding, e.g. latin-1 or cp1252.",
    ),
    click.option(
        "--na-values",
        metavar="A,B",
        help='Cells that mean a missing rating besides empty ones, comma-separated, e.g. "NA,.".',
    ),
)
input_options = options(
    click.argument("file", metavar="FILE"),
    read_options,
    click.option("--item", help="Long form: the item column."),
    click.option("--rater", help="Long form: the rater column."),
    click.option("--rating", help="Long form: the rating column."),
    click.option("--labels", help="Ordered categories, comma-separated, e.g. low,mid,high."),
)
wide_options = options(
    click.option("--raters", help="Wide form: the rater columns, comma-separated."),
    click.option("--id", "id_column", help="Wide form: an item-id column to leave out."),
)


def weights_option(help: str, default: str = "none") -> Callable[[F], F]:
    """Return the --weights option (``none`` is unweighted)."""
    return click.option(
        "--weights", type=click.Choice(WEIGHTS), default=default, show_default=True, help=help
    )


def nan_policy_option(help: str) -> Callable[[F], F]:
    """Return the two-rater --nan-policy option."""
    return click.option(
        "--nan-policy",
        type=click.Choice(vocabulary.NAN_POLICIES),
        default="raise",
        show_default=True,
        help=help,
    )


level_option = click.option(
    "--level",
    type=click.Choice(LEVELS),
    default="auto",
    show_default=True,
    help="Krippendorff's metric. auto: the one matching --weights.",
)
chunk_option = click.option(
    "--chunk-rows",
    type=click.IntRange(min=0),
    metavar="N",
    help="Read FILE in chunks of N rows, counting each (for files larger than memory; "
    "CSV, TSV, Parquet, wide form). Default: chunks of 1,000,000 rows for such files over "
    "100 MiB; 0 reads the whole file.",
)
inference_options = options(
    click.option(
        "--confidence-level",
        type=click.FloatRange(0, 1, min_open=True, max_open=True),
        default=0.95,
        show_default=True,
    ),
    click.option(
        "--ci-method",
        type=click.Choice(vocabulary.INTERVAL_METHODS),
        help="Interval method. Default: each coefficient's own (see the README).",
    ),
    click.option("--seed", type=int, help="Seed for bootstrap intervals and folds."),
)


def output_options(formats: tuple[str, ...] = out.OUTPUTS) -> Callable[[F], F]:
    """Return the --format and --quiet options."""
    return options(
        click.option(
            "--format", "fmt", type=click.Choice(formats), default="text", show_default=True
        ),
        click.option("--quiet", is_flag=True, help="No progress bars."),
    )


def data_errors(func: F) -> F:
    """Run quietly if asked; warnings become notes and the library's errors one line."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                with quiet() if kwargs.get("quiet") else contextlib.nullcontext():
                    value = func(*args, **kwargs)
            for w in caught:  # an undefined coefficient, say: one line each, on stderr
                click.echo(f"note: {w.message}", err=True)
            return value
        except (ValueError, TypeError) as exc:
            text = str(exc).strip()
            first = text.splitlines()[0] if text else type(exc).__name__
            raise click.ClickException(f"{kwargs.get('file', '-')}: {first}") from None
        except OSError as exc:  # an output folder that is missing, say
            where = f"{exc.filename}: " if exc.filename else ""
            raise click.ClickException(f"{where}{exc.strerror or exc}.") from None

    return wrapper


def _long_form(o: dict[str, Any]) -> cin.Long | None:
    given = [o[k] is not None for k in ("item", "rater", "rating")]
    if not any(given):
        return None
    if not all(given):
        raise click.UsageError("the long form needs all three of --item, --rater and --rating.")
    return cin.Long(o["item"], o["rater"], o["rating"])


def source(file: str, o: dict[str, Any], rows: int = 0) -> Any:
    """Open FILE with the options' format, delimiter, encoding and missing markers."""
    from concord._cli import read as read

    return read.Source(file, read.options(file, o), rows)


def groups(columns: list[str], o: dict[str, Any]) -> list[Any]:
    """Return the rating columns as one group: one type (numbers or text) for all of them."""
    from concord._cli import read as read

    return [read.Group(columns, text=cin.labels_are_text(o.get("labels")))]


def ratings(file: str, o: dict[str, Any]) -> Any:
    """Read FILE and return its rater columns (wide form, or pivoted from the long form)."""
    from concord._cli import read as read

    src = source(file, o)
    long = _long_form(o)
    if long is not None:
        return read.long_form(src, long, cin.labels_are_text(o.get("labels")))
    return read.whole(src, groups(read.wide_columns(src, o), o))


def two_raters(file: str, o: dict[str, Any]) -> tuple[Any, Any]:
    """Return the --rater1 and --rater2 columns (or the only two there are)."""
    from concord._cli import read as read

    if _long_form(o) is not None:
        frame = ratings(file, o)
        pair = read.pair_columns(file, [str(c) for c in frame.columns], o)
    else:
        src = source(file, o)
        pair = read.pair_columns(file, src.names(), o)
        frame = read.whole(src, groups(pair, o))
    return frame[pair[0]], frame[pair[1]]


def two_rater_result(file: str, o: dict[str, Any]) -> tuple[Any, Any]:
    """Cohen's kappa of the two raters the options name, and their two columns."""
    from concord import cohen_kappa

    a, b = two_raters(file, o)
    result = cohen_kappa(
        a,
        b,
        weights=None if o["weights"] == "none" else o["weights"],
        labels=cin.parse_labels(o["labels"], [a, b]),
        nan_policy=o["nan_policy"],
    )
    return result, (a, b)


def family() -> list[Any]:
    """Return the coefficients ``concord agree`` reports before Krippendorff's alpha."""
    import concord

    return [
        concord.percent_agreement,
        concord.fleiss_kappa,
        concord.conger_kappa,
        concord.light_kappa,
        concord.gwet_ac,
        concord.brennan_prediger,
    ]


def agreement_results(frame: Any, o: dict[str, Any]) -> list[Any]:
    """Every multi-rater coefficient of the rater columns, with the options' weights."""
    import concord

    labels = cin.parse_labels(o["labels"], [frame[c] for c in frame.columns])
    weights = None if o["weights"] == "none" else o["weights"]
    results = [f(frame, weights=weights, labels=labels) for f in family()]
    level: Any = alpha_level(o)
    if level is None:  # the weights' matrix, on the labels it was made for
        level, labels = results[1].weights, list(results[1].labels)
    results.append(concord.krippendorff_alpha(frame, level=level, labels=labels))
    return results


def alpha_level(o: dict[str, Any]) -> str | None:
    """Krippendorff's level for --level; None for auto with weights that only a matrix matches."""
    level: str = o["level"]
    return LEVEL_OF.get(o["weights"]) if level == "auto" else level
