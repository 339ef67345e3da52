"""The report's section of each coefficient: its row, sentence, figures and notes.

Helpers of :func:`concord.report.to_html`. Each figure is a display of
:mod:`concord.plot` drawn as inline SVG; a two-rater matrix carries the
data's column names on its axes; the weight matrix is drawn once for the
report, and a bootstrap histogram only when the report has one coefficient
(the agreement section's forest shows every interval).
"""

from __future__ import annotations

import inspect
import io
import math
import re
from dataclasses import dataclass, field
from typing import Any

from concord._coefficients.registry import by_name
from concord._common.extras import require
from concord._render import records as rec

_HEADER = re.compile(r"^(\w[\w ]*)\n-{3,}$", re.MULTILINE)
_LITERAL = re.compile(r"``(.+?)``")
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.DOTALL)


@dataclass
class Section:
    """One coefficient: its row, explanation, figures, method notes and references."""

    title: str
    row: dict[str, str]
    sentence: str
    explanation: str
    notes: Any  # markup: escaped text with <code> literals
    references: list[str]
    figures: list[tuple[str, str]] = field(default_factory=list)


def docstring_parts(func: Any) -> tuple[str, list[str]]:
    """Return the 'Inference:' note and the references of a coefficient's docstring."""
    doc = inspect.cleandoc(func.__doc__ or "")
    parts = _HEADER.split(doc)
    sections = {k: v.strip() for k, v in zip(parts[1::2], parts[2::2], strict=True)}
    notes = sections.get("Notes", "")
    inference = next((p for p in notes.split("\n\n") if p.startswith("Inference:")), "")
    references = [" ".join(r.split()) for r in sections.get("References", "").split("\n\n")]
    return " ".join(inference.split()), [r for r in references if r]


def literals(text: str) -> Any:
    """Escape ``text`` and show its reST ``literals`` as <code>."""
    markupsafe = require("markupsafe", "report", "concord.report")
    return markupsafe.Markup(_LITERAL.sub(r"<code>\1</code>", str(markupsafe.escape(text))))


def svg(display: Any) -> str:
    """Draw a display and return its figure as an inline <svg> element."""
    matplotlib = require("matplotlib", "report", "the report's plots")
    plt = require("matplotlib.pyplot", "report", "the report's plots")
    with matplotlib.rc_context({"svg.hashsalt": "concord", "svg.fonttype": "path"}):
        display.plot()
        buffer = io.StringIO()
        display.figure_.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
        plt.close(display.figure_)
    text = buffer.getvalue()
    # drop the XML prologue and the RDF metadata block (namespace URLs, no content)
    return _METADATA.sub("", text[text.index("<svg") :])


def _named_axes(display: Any, names: list[str] | None) -> Any:
    """Put the data's column names on a two-rater matrix's axes (x: the second, y: the first)."""
    axes = getattr(display, "axis_names", None)
    if names is not None and len(names) == 2 and axes == ("rater2", "rater1"):
        display.axis_names = (names[1], names[0])
    return display


def _figures(
    result: Any, plots: bool, options: dict[str, Any], names: list[str] | None
) -> list[tuple[str, str]]:
    """Return a coefficient's figures: O and E, the costliest cells, and the bootstrap alone.

    The weights are drawn once for the report (:func:`_weights_figure`); a
    bootstrap histogram only when the report has one coefficient, since the
    forest of the agreement section already shows every interval.
    """
    from concord import plot

    if not plots or not math.isfinite(result.statistic):
        return []
    shown: list[tuple[str, Any]] = []
    named = getattr(result, "raters", ("rater1", "rater2"))[0]
    first = names[0] if names and len(names) == 2 else named
    if hasattr(result, "observed"):
        shown += [
            (f"Observed matrix O (rows: {first})", plot.ObservedMatrixDisplay.from_result(result)),
            ("Expected matrix E (chance)", plot.ExpectedMatrixDisplay.from_result(result)),
        ]
    if hasattr(result, "contributions") and result.statistic < 1:
        shown.append(("Where the kappa is lost", plot.ContributionsDisplay.from_result(result)))
    if options["alone"]:
        boot = plot.BootstrapDisplay.from_result(
            result,
            n_resamples=options["n_resamples"],
            confidence_level=options["confidence_level"],
            method=options["method"],
            rng=options["rng"],
        )
        shown.append(("Bootstrap distribution", boot))
    return [(caption, svg(_named_axes(display, names))) for caption, display in shown]


def weights_figure(results: list[Any], plots: bool, names: list[str] | None) -> Any:
    """Return the weight matrix of the first weighted coefficient, drawn once, or None."""
    first = first_weighted(results)
    if not plots or first is None or getattr(first, "weights", None) is None:
        return None
    from concord.plot import WeightMatrixDisplay

    drawn = svg(_named_axes(WeightMatrixDisplay.from_result(first), names))
    markup = require("markupsafe", "report", "concord.report").Markup
    return {"name": first.weighting, "svg": markup(drawn)}


def section(
    result: Any,
    row: dict[str, Any],
    sentence: str,
    plots: bool,
    options: dict[str, Any],
    names: list[str] | None,
) -> Section:
    notes, references = docstring_parts(by_name(result.coefficient).function)
    return Section(
        title=result.name,
        row=rec.display_rows([row])[0],
        sentence=sentence,
        explanation=result.explain(),
        notes=literals(notes),
        references=references,
        figures=_figures(result, plots, options, names),
    )


def first_weighted(results: list[Any]) -> Any:
    return next((r for r in results if r.weighting not in ("unweighted", "nominal")), None)
