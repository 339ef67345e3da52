"""The report's answers to the lead's questions, gathered for the template, and its contents.

Helpers of :func:`concord.report.to_html`: :func:`answers` calls the
questions of :mod:`concord._render.questions` on the headline coefficient and
draws the raters' figures; :func:`contents` lists the sections the page has.
"""

from __future__ import annotations

from typing import Any

from concord._render import questions as ask
from concord._render.sections import svg


def _rater_figures(d: Any, lead: Any, level: float) -> list[tuple[str, str]]:
    """Return the pairwise kappa heatmap and the leave-one-rater-out forest, as SVG."""
    from concord.plot import PairwiseMatrixDisplay, RaterDisplay

    return [
        ("Cohen's kappa of each pair of raters", svg(PairwiseMatrixDisplay.from_result(d))),
        (
            f"{lead.name} without each rater, with its interval",
            svg(RaterDisplay.from_result(d, confidence_level=level)),
        ),
    ]


def answers(
    shown: list[Any],
    rows: list[dict[str, Any]],
    frame: Any,
    level: float,
    method: Any,
    plots: bool,
) -> dict[str, Any]:
    """Return the answers to the lead's questions: summary, raters, categories and flags."""
    if not shown:
        return {"summary": [], "raters": None, "categories": None, "flags": []}
    lead = ask.headline(shown)
    matrix = ask.encoded(frame, lead)  # the panel's ratings encoded once, for both sections
    patterns = ask.counted(matrix)  # and their count patterns counted once
    d = ask.raters(frame, lead, level, matrix, patterns)
    s = ask.categories(frame, lead, matrix, patterns)
    mh = ask.marginals(frame, lead)
    names = [] if frame is None else [str(c) for c in frame.columns]
    raters = None
    if d is not None:
        figures = _rater_figures(d, lead, level) if plots else []
        raters = {"name": lead.name, "rows": ask.rater_rows(d), "figures": figures}
    return {
        "summary": ask.summary(shown, rows, d, level, method),
        "raters": raters,
        "categories": None if s is None else ask.category_rows(s, level),
        "flags": ask.flags(d, s, mh, names, level),
    }


def contents(
    data: bool, coefficients: bool, questions: dict[str, Any], parts: dict[str, Any]
) -> list[tuple[str, str]]:
    """Return the table of contents: (anchor, title) of each section the page has.

    ``parts`` are the optional sections after the coefficients (``comparisons``,
    ``continuous``, …): each non-empty one gets an entry, titled by :data:`TITLES`.
    """
    entries = [
        ("summary", "Summary", bool(questions["summary"])),
        ("data", "Data", data),
        ("coefficients", "Agreement", coefficients),
        ("raters", "Raters", questions["raters"] is not None),
        ("categories", "Categories", questions["categories"] is not None),
        ("flags", "Flags", bool(questions["flags"])),
        ("details", "Each coefficient", coefficients),
    ]
    entries += [(name, TITLES.get(name, name.title()), bool(v)) for name, v in parts.items()]
    return [(anchor, title) for anchor, title, present in entries if present]


# the optional sections' titles, by their anchor (the template's section id)
TITLES = {
    "results": "Results",
    "comparisons": "Comparison",
    "continuous": "Continuous ratings",
    "evaluation": "Scoring model evaluation",
}
