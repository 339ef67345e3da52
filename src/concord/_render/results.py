"""The report's "Results" section: every result that is not a coefficient, as it renders itself.

Helpers of :func:`concord.report.to_html`. A result gives its compact
section through the protocol (:mod:`concord._results.protocol`): its
``_report_section_()`` returns a :class:`~concord._results.protocol.ReportSection`
(title, sentence, rows, explanation and the names of its figures); the
report only draws the figures it names (displays of :mod:`concord.plot`) and
hands the rest to the template, which escapes every string. No type is
named here: a result added later renders once it speaks the protocol.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from concord._common.errors import param_error
from concord._results.described import Described


def _items(results: Any) -> list[tuple[str | None, Any]]:
    if isinstance(results, Mapping):
        return [(str(k), v) for k, v in results.items()]
    if isinstance(results, Sequence) and not isinstance(results, str):
        return [(None, r) for r in results]
    return [(None, results)]


def split(results: Any) -> tuple[list[Any], list[tuple[str | None, Any]]]:
    """Return the coefficients (for the agreement table) and the other results with their titles.

    A coefficient is a result read on a benchmark scale with an interval and
    a test (a :class:`~concord.KappaResult` or :class:`~concord.AgreementResult`):
    it fills the agreement table and the questions. Every other result needs
    only to speak the protocol.
    """
    coefficients, others = [], []
    for title, r in _items(results):
        if isinstance(r, Described):
            coefficients.append(r)
        elif callable(getattr(r, "_report_section_", None)):
            others.append((title, r))
        else:
            param_error(
                "to_html",
                "results",
                "concord results (each with a _report_section_ method)",
                r,
                exc=TypeError,
            )
    return coefficients, others


def _figure(result: Any, name: str) -> str:
    """Draw the :mod:`concord.plot` display ``name`` of ``result`` (at the result's own level).

    A result with a ``_figure_options_(name)`` method gives the display's options
    (γ: the item of lowest γ).
    """
    from concord import plot
    from concord._render.sections import svg

    options = getattr(result, "_figure_options_", None)  # e.g. which item to draw
    return svg(getattr(plot, name).from_result(result, **(options(name) if options else {})))


def sections(others: list[tuple[str | None, Any]], plots: bool) -> list[dict[str, Any]]:
    """Return each result's section for the template: its own record, with its figures drawn."""
    out = []
    for title, r in others:
        s = r._report_section_()
        figures = [(caption, _figure(r, name)) for caption, name in s.figures] if plots else []
        out.append(
            {
                "title": title or s.title,
                "sentence": s.sentence,
                "head": list(s.rows[0]) if s.rows else [],
                "rows": [list(row.values()) for row in s.rows],
                "explanation": s.explanation,
                "figures": figures,
                "tables": [
                    {
                        "caption": caption,
                        "head": list(rows[0]),
                        "rows": [list(r.values()) for r in rows],
                    }
                    for caption, rows in s.tables
                    if rows
                ],
            }
        )
    return out
