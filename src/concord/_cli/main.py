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
import importlib
import os
from collections.abc import MutableMapping
from typing import Any

import click

from concord._cli.terminal import encoding, fitted, interrupted
from concord._common.extras import MissingExtraError
from concord._version import __version__

#: Each command: the module that defines it, and the first paragraph of its help, which
#: ``concord --help`` lists without importing the command (and numpy, pandas, the library);
#: tests/test_lazy_import.py checks the summaries against the commands' own help.
COMMANDS: dict[str, tuple[str, str]] = {
    "agree": (
        "concord._cli.agree",
        "Every agreement coefficient of many raters in FILE, with SE, CI and p-value.",
    ),
    "bland-altman": (
        "concord._cli.bland_altman",
        "Bland-Altman limits of agreement and Lin's concordance of two numeric columns in FILE.",
    ),
    "compare": (
        "concord._cli.compare",
        "Compare agreement on the same items: two raters against a truth, or two panels.",
    ),
    "drift": (
        "concord._cli.drift",
        "Agreement in FILE per time window, windows that differ from the reference flagged.",
    ),
    "evaluate": (
        "concord._cli.evaluate",
        "Evaluate machine scores in FILE against human scores, as RSMTool's rsmeval.",
    ),
    "icc": (
        "concord._cli.icc",
        "Print the intraclass correlation of the numeric scores in FILE, in all six forms.",
    ),
    "items": (
        "concord._cli.items",
        "Which items in FILE are hard: per item its pairwise agreement, majority and entropy.",
    ),
    "judge": (
        "concord._cli.judge",
        "Is the judge in FILE as good as the humans? The judge study, section by section.",
    ),
    "kappa": (
        "concord._cli.kappa",
        "Cohen's kappa of two raters in FILE, with SE, confidence interval and p-value.",
    ),
    "plan": (
        "concord._cli.plan",
        "Print how many items a study needs: COEFFICIENT is cohen, fleiss, icc or alpha.",
    ),
    "raters": (
        "concord._cli.raters",
        "Which rater drifts from the panel in FILE: one row per rater, and the pairwise matrix.",
    ),
    "report": (
        "concord._cli.report",
        "Write a self-contained HTML report of the agreement in FILE.",
    ),
    "spans": (
        "concord._cli.spans",
        "Agreement on the spans in FILE: span F1, token alpha, unitizing alpha or gamma.",
    ),
    "thresholds": (
        "concord._cli.thresholds",
        "Cut points of continuous scores in FILE that maximise kappa against the truth.",
    ),
}

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
  concord spans entities.csv --match overlap --measure f1,token-alpha
"""


class _Group(click.Group):
    """The ``concord`` group: an error the commands did not foresee is still one line.

    Every command turns bad input into a one-line error of its own; a
    missing optional package is the one line that names the extra to
    install; any other exception that escapes them is a defect of concord's,
    and is reported as one line too (``CONCORD_DEBUG=1`` shows the traceback), never as a
    traceback. Click's own exits, Ctrl-C and a closed pipe keep click's
    handling. Every error line is in symbols standard error can encode.

    The commands load when named (:data:`COMMANDS`): ``concord --help`` and
    ``concord --version`` import neither numpy nor the library.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self._load(cmd_name) if cmd_name in COMMANDS else None

    @property  # click's groups keep a dict; this one loads it when it is read
    def commands(self) -> MutableMapping[str, click.Command]:
        """Every command, loaded: for code that reads them all (``--help`` does not)."""
        return {name: self._load(name) for name in COMMANDS}

    @commands.setter
    def commands(self, value: MutableMapping[str, click.Command]) -> None:
        """Ignore click's empty dict: the commands are :data:`COMMANDS`."""

    @staticmethod
    def _load(name: str) -> click.Command:
        try:
            module = importlib.import_module(COMMANDS[name][0])
        except KeyboardInterrupt:  # Ctrl-C while the command imports: one line, as before
            interrupted()
        command = getattr(module, name.replace("-", "_"))
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands with their summaries, as click does, without loading them."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [
            (name, click.Command(name, help=summary).get_short_help_str(limit))
            for name, (_, summary) in sorted(COMMANDS.items())
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

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
