"""``concord judge``: an LLM judge (a candidate annotator) against humans and gold labels.

Reads the named columns of FILE (wide form: one row per item) and prints
the judge study of :mod:`concord._studies.judges.study`: the Alt-Test,
Cohen's kappa of the judge and of each human against the reference, the
accuracy against gold, the judge's bias by category in words, its
self-consistency over --repeats, the hardest items and the disagreements
(all of them with --disagreements FILE, as CSV for adjudication); --html FILE
writes the study as a section of the HTML report (:func:`concord.report.to_html`).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import click

from concord._cli import columns as cin
from concord._cli import options as opt
from concord._cli import output as out
from concord._cli import terminal as terminal
from concord._cli.read import select
from concord._cli.reading.cells import Group, whole
from concord._cli.reading.source import Source, options
from concord._render import records as rec


def _names(text: str | None) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()] if text else []


def study(file: str, o: dict[str, Any]) -> Any:
    """Read FILE's columns and return the judge study."""
    from concord._studies.judges.study import judge_study

    source = Source(file, options(file, o), 0)
    names = source.names()
    humans = select(names, _names(o["humans"]), file, "--humans")
    if not humans:
        raise click.UsageError("--humans names no column; name one or more, e.g. --humans a,b,c.")
    repeats = select(names, _names(o["repeats"]), file, "--repeats")
    gold = select(names, [o["gold"]], file, "--gold") if o["gold"] else []
    labelled = select(
        names, list(dict.fromkeys([*humans, o["candidate"], *repeats, *gold])), file, "--candidate"
    )
    ids = select(names, [o["id"]], file, "--id") if o["id"] else []
    groups = [Group(labelled)] + ([Group(ids)] if ids else [])
    frame = whole(source, groups)
    positive = None
    if o["positive"] is not None:
        parsed = cin.parse_labels(o["positive"], [frame[c] for c in labelled])
        positive = parsed[0] if parsed else None
    return judge_study(
        frame,
        humans=humans,
        candidate=o["candidate"],
        gold=gold[0] if gold else None,
        repeats=tuple(repeats),
        positive=positive,
        epsilon=o["epsilon"],
        ids=frame[ids[0]] if ids else None,
        top=o["top"],
    )


def _write_disagreements(s: Any, o: dict[str, Any]) -> None:
    import pandas as pd

    out.check_target(o["disagreements"], "--disagreements", o["overwrite"])
    frame = pd.DataFrame(
        s.disagreement_rows(), columns=["item", "reference", *s.humans, s.candidate]
    )
    with out.replacing(o["disagreements"], "--disagreements", overwrite=o["overwrite"]) as fh:
        fh.write(str(frame.to_csv(index=False, lineterminator="\n")))
    terminal.echo(f"wrote {o['disagreements']} ({len(frame):,} items)", err=True)


def _write_html(s: Any, file: str, o: dict[str, Any]) -> None:
    from concord.report import to_html

    html = to_html(
        [s],
        title=f"Judge {s.candidate} in {Path(file).name}",
        command=shlex.join(["concord", *sys.argv[1:]]),
        plots=False,
    )
    with out.replacing(o["html"], "--html", overwrite=o["overwrite"]) as fh:
        fh.write(html)
    terminal.echo(f"wrote {o['html']} ({len(html) / 1024:.0f} KiB)", err=True)


@click.command(
    epilog="""
\b
Examples:
  concord judge labels.csv --humans ann,bo,cy --candidate gpt
  concord judge labels.csv --humans ann,bo,cy --candidate gpt --gold adjudicated \\
      --positive toxic --repeats gpt_run2,gpt_run3
  concord judge labels.csv --humans ann,bo,cy --candidate gpt --disagreements review.csv
  concord judge labels.csv --humans ann,bo,cy --candidate gpt --html judge.html
"""
)
@click.argument("file", metavar="FILE")
@opt.read_options
@click.option(
    "--humans", required=True, metavar="COLS", help="The human columns, comma-separated."
)
@click.option("--candidate", required=True, metavar="COL", help="The judge's column.")
@click.option("--gold", metavar="COL", help="Gold labels. Default: the humans' majority.")
@click.option(
    "--repeats",
    metavar="COLS",
    help="Further runs of the judge, comma-separated: its self-consistency.",
)
@click.option("--positive", metavar="LABEL", help="The positive category of the accuracy.")
@click.option(
    "--epsilon",
    type=click.FloatRange(min=0),
    default=0.1,
    show_default=True,
    help="The Alt-Test's margin for a cheaper annotator (0.2 experts, 0.1 crowd).",
)
@click.option("--id", metavar="COL", help="The column that names the items. Default: row numbers.")
@click.option(
    "--top", type=click.IntRange(min=0), default=10, show_default=True, help="Hardest items shown."
)
@click.option("--disagreements", type=click.Path(), help="Write the disagreement list as CSV.")
@click.option(
    "--html", type=click.Path(), metavar="FILE", help="Write the study as an HTML report."
)
@click.option(
    "--overwrite", is_flag=True, help="Replace the --disagreements or --html file if it exists."
)
@opt.output_options(("text", "json"))
@opt.fail_under_options
@opt.data_errors
def judge(file: str, **o: Any) -> list[dict[str, Any]]:
    """Is the judge in FILE as good as the humans? The judge study, section by section.

    The Alt-Test (Calderon et al. 2025); Cohen's kappa of the judge and of
    each human against gold (--gold) or the humans' majority (each human
    against the others'); with --gold, sensitivity, specificity and the
    rest of diagnostic_accuracy; the judge's bias by category in words;
    with --repeats, its agreement with itself; the hardest items and the
    items where the judge differs from the reference. --fail-under gates
    the judge's kappa against the reference.
    """
    if o["html"] is not None:  # fail before the study is computed
        out.check_target(o["html"], "--html", o["overwrite"])
    s = study(file, o)
    if o["disagreements"] is not None:
        _write_disagreements(s, o)
    if o["html"] is not None:
        _write_html(s, file, o)
    if o["fmt"] == "json":
        terminal.echo(rec.dumps({"file": file, "judge": s.to_dict()}), as_json=True)
    else:
        terminal.echo(f"{file}: {s.explain()}")
    tidy = s.to_frame()
    return tidy[tidy.role == "judge"].iloc[:1].to_dict("records")  # type: ignore[no-any-return]
