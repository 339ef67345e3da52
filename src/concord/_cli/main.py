"""The ``concord`` command line: thin glue over the public API.

This module is the ``concord`` group and ``--version``; each command is a
module of its own (:mod:`~concord._cli.kappa`, :mod:`~concord._cli.agree`,
:mod:`~concord._cli.thresholds`, :mod:`~concord._cli.report`) with the
shared options of :mod:`concord._cli.options`. The CLI reads files
(:mod:`concord._cli.inputs`, :mod:`concord._cli.read`), calls the library
and lays out its results (:mod:`concord._cli.output`); it computes nothing
itself. Errors are one line naming the file, column or row, in the
command line's words (:mod:`concord._cli.speak`), with exit status 1 for
data errors and 2 for usage errors; text output falls back to ASCII
spellings where the terminal cannot encode a symbol
(:mod:`concord._cli.terminal`).
"""

from __future__ import annotations

import errno
import os
from typing import Any

import click

from concord._cli.agree import agree
from concord._cli.bland_altman import bland_altman
from concord._cli.compare import compare
from concord._cli.evaluate import evaluate
from concord._cli.icc import icc
from concord._cli.judge import judge
from concord._cli.kappa import kappa
from concord._cli.plan import plan
from concord._cli.raters import raters
from concord._cli.report import report
from concord._cli.terminal import encoding, fitted
from concord._cli.thresholds import thresholds
from concord._common.extras import MissingExtraError
from concord._version import __version__

EXAMPLES = """
\b
Examples:
  concord kappa data/essays.csv --rater1 truth --rater2 model_grade --weights quadratic
  concord agree data/fleiss1971_diagnoses.csv --format markdown
  concord agree annotations.csv --item doc --rater annotator --rating label
  concord raters data/fleiss1971_diagnoses.csv
  concord icc data/shrout_fleiss1979.csv
  concord thresholds data/essays.csv --truth truth --score model_score --save cuts.json
  concord bland-altman data/pefr.csv --x wright --y mini_wright
  concord plan cohen --expected 0.7 --null 0.85 --prevalence 0.5
  concord evaluate scores.csv --human h1 --machine score --human2 h2 --trim 1,6
  concord judge labels.csv --humans ann,bo,cy --candidate gpt --gold adjudicated
  concord report data/essays.csv --raters rater1,rater2,rater3 -o report.html
"""


class _Group(click.Group):
    """The ``concord`` group: an error the commands did not foresee is still one line.

    Every command turns bad input into a one-line error of its own; a
    missing optional package is the one line that names the extra to
    install; any other exception that escapes them is a defect of concord's,
    and is reported as one line too (``CONCORD_DEBUG=1`` shows the traceback), never as a
    traceback. Click's own exits, Ctrl-C and a closed pipe keep click's
    handling. Every error line is in symbols standard error can encode.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            # click types message Final, yet show() reads it: the one place to fit the line
            exc.message = fitted(exc.message, encoding(err=True))  # type: ignore[misc]
            raise
        except (click.exceptions.Exit, click.Abort):
            raise
        except MissingExtraError as exc:  # an optional package: the line names its extra
            raise click.ClickException(fitted(str(exc), encoding(err=True))) from None
        except Exception as exc:
            if os.environ.get("CONCORD_DEBUG") or (
                isinstance(exc, OSError) and exc.errno == errno.EPIPE
            ):
                raise
            text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            raise click.ClickException(
                fitted(
                    f"internal error ({type(exc).__name__}{': ' + text[:200] if text else ''}). "
                    "This is a defect in concord: please report it with the command you ran "
                    "(CONCORD_DEBUG=1 shows the traceback).",
                    encoding(err=True),
                )
            ) from None


@click.group(cls=_Group, epilog=EXAMPLES)
@click.version_option(__version__, prog_name="concord", message="%(prog)s %(version)s")
def main() -> None:
    """Measure how well raters agree: kappa, the agreement family, cut points, reports.

    Every command reads CSV, TSV, Parquet or Excel (FILE, or - for CSV on
    stdin), in wide form (one column per rater) or long form (--item,
    --rater, --rating: one row per rating).
    """


def _register() -> None:
    """Add the commands, one module each."""
    for command in (
        kappa,
        agree,
        raters,
        compare,
        icc,
        thresholds,
        report,
        bland_altman,
        evaluate,
        judge,
        plan,
    ):
        main.add_command(command)


_register()
