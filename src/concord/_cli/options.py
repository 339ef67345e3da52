"""The options the ``concord`` subcommands share, declared once as decorators.

As in sqlite-utils, an option that several commands take is written here
once. Its choices are the library's vocabulary
(:mod:`concord._common.options`), with ``none`` (unweighted) and ``auto``
(the level matching --weights) added for the command line.
"""

from __future__ import annotations

import contextlib
import functools
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import click

from concord._cli import columns as cin
from concord._cli import output as out
from concord._cli import speak as speak
from concord._cli import terminal as terminal
from concord._common import options as vocabulary
from concord._inference.intervals import quiet

F = Callable[..., Any]

WEIGHTS = ("none", *vocabulary.WEIGHTS)
LEVELS = ("auto", *vocabulary.LEVELS)


# --level auto: the Krippendorff metric that matches --weights (interval δ² is
# the quadratic weight, ratio δ² irrCAC's ratio weight); the other weights are
# passed to alpha as its δ² matrix
def options(*decorators: F) -> Callable[[F], F]:
    """Combine option decorators into one."""

    def apply(func: F) -> F:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return apply


read_options = options(
    click.option(
        "--input-format",
        type=click.Choice(cin.FORMATS + cin.EXPORTS),
        help="Default: the suffix's. An annotation tool's export (.json, .jsonl, .ann, "
        ".conll, a folder or .zip) is detected and the tool named on stderr.",
    ),
    click.option(
        "--control",
        help="Annotation exports: the Label Studio control (from_name) or Argilla question.",
    ),
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
long_options = options(
    click.option("--item", help="Long form: the item column."),
    click.option("--rater", help="Long form: the rater column."),
    click.option("--rating", help="Long form: the rating column."),
)
input_options = options(
    click.argument("file", metavar="FILE"),
    read_options,
    long_options,
    click.option("--labels", help="Ordered categories, comma-separated, e.g. low,mid,high."),
)
wide_options = options(
    click.option(
        "--raters",
        help="Wide form: the rater columns, comma-separated; an annotation export: the "
        "annotators to keep.",
    ),
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
confidence_option = click.option(
    "--confidence-level",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.95,
    show_default=True,
)
inference_options = options(
    confidence_option,
    click.option(
        "--ci-method",
        type=click.Choice(vocabulary.INTERVAL_METHODS),
        help="Interval method. Default: each coefficient's own (see docs/guide/uncertainty.md).",
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
    """Run quietly if asked; warnings become notes and the library's errors one line.

    The line names FILE and says the error in the command line's words
    (:mod:`concord._cli.speak`). A text the terminal could not encode is no
    fault of FILE's: it is not caught here (:mod:`concord._cli.terminal`
    keeps it from happening).
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if kwargs.get("fail_under_bound") and kwargs.get("fail_under") is None:
            raise click.UsageError("--fail-under-bound needs --fail-under X.")
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                with quiet() if kwargs.get("quiet") else contextlib.nullcontext():
                    value = func(*args, **kwargs)
            for w in caught:  # an undefined coefficient, say: one line each, on stderr
                terminal.echo(f"note: {w.message}", err=True)
            if kwargs.get("fail_under") is not None:  # the gate of every command: one place
                fail_under(kwargs["fail_under"], bool(kwargs.get("fail_under_bound")), value)
            return value
        except UnicodeEncodeError:
            raise
        except (ValueError, TypeError) as exc:
            said = speak.message(exc, kwargs)
            raise click.ClickException(f"{kwargs.get('file', '-')}: {said}") from None
        except OSError as exc:  # an output folder that is missing, say
            where = f"{exc.filename}: " if exc.filename else ""
            raise click.ClickException(f"{where}{exc.strerror or exc}.") from None

    return wrapper


def weights(o: dict[str, Any]) -> str | None:
    """Return --weights as the library takes it: None for ``none``."""
    value: str = o["weights"]
    return None if value == "none" else value


def alpha_level(o: dict[str, Any]) -> str | None:
    """Krippendorff's level for --level; None for auto with weights that only a matrix matches."""
    level: str = o["level"]
    return vocabulary.LEVEL_OF_WEIGHTS.get(weights(o)) if level == "auto" else level


def rater_pair_options(first: str, second: str) -> Callable[[F], F]:
    """Return --rater1 and --rater2 with their help texts."""
    return options(
        click.option("--rater1", help=first),
        click.option("--rater2", help=second),
    )


fail_under_options = options(
    click.option(
        "--fail-under",
        type=float,
        metavar="X",
        help="Exit with code 3 when a coefficient printed is below X (a gate for CI pipelines).",
    ),
    click.option(
        "--fail-under-bound",
        is_flag=True,
        help="With --fail-under: compare the lower bound of each coefficient's confidence "
        "interval with X instead of its value.",
    ),
)

FAIL_UNDER_EXIT = 3


def fail_under(threshold: float, bound: bool, rows: Sequence[dict[str, Any]]) -> None:
    """Exit with code 3, after the output, when a row's value (or lower bound) is below X.

    ``rows`` are the printed coefficients' records (``coefficient``, ``statistic``,
    ``ci_low``), which each command with :data:`fail_under_options` returns. A
    value that is nan (undefined) fails the gate: it is not at least X.
    """
    key, what = ("ci_low", "lower bound") if bound else ("statistic", "value")
    below = []
    for row in rows:
        value = row.get(key)
        if value is None or not value >= threshold:
            below.append(f"{row['coefficient']} {what} {_shown(value)}")
    if below:
        click.echo(
            f"Failed: {'; '.join(below)} below --fail-under {threshold:g} (exit code 3).",
            err=True,
        )
        raise click.exceptions.Exit(FAIL_UNDER_EXIT)


def _shown(value: Any) -> str:
    return "nan (undefined)" if value is None or value != value else f"{value:.4g}"
