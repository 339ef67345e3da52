"""Results in a notebook: ``_repr_html_``, small styled tables, every string escaped.

Jupyter shows a result through its ``_repr_html_``: the coefficient table
(value, SE, interval, p-value, interpretation), the sentence of
``summary()``, and the tables it was computed from (O, W and E for two
raters; the category totals, the weights and, for Krippendorff's alpha, the
coincidence matrix for many). :func:`results_table_html` lays out any list
of results as one coefficient table.

Every label, name and sentence goes through :func:`html.escape` with
``quote=True``: the same five characters (& < > " ') that the report's
template engine (jinja2, autoescaping, markupsafe) escapes, without needing
jinja2 to show a result.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

import numpy as np

from concord._common import text as _text
from concord._results import interpret as _scales
from concord._results.sentence import METHODS, level

# the report's palette (templates/report.html), scoped to the result's <div>
STYLE = """<style>
.concord-result table { border-collapse: collapse; margin: .4em 0;
  font-variant-numeric: tabular-nums; }
.concord-result th, .concord-result td { padding: .2em .6em; text-align: right;
  border-bottom: 1px solid #d0d0d0; }
.concord-result th:first-child, .concord-result td:first-child { text-align: left; }
.concord-result thead th { border-bottom: 2px solid #1b1b1b; }
.concord-result caption { caption-side: top; text-align: left; color: #5a5a5a;
  white-space: nowrap; }
.concord-result .concord-tables { display: flex; flex-wrap: wrap; gap: 1.5em;
  align-items: flex-start; }
</style>"""


def text(value: Any) -> str:
    """Return ``str(value)`` escaped for HTML, quotes included."""
    return escape(str(value), quote=True)


def number(x: Any) -> str:
    """Return a table's number: four decimals (four significant digits when tiny), — if none."""
    if x is None or not math.isfinite(float(x)):
        return "—"
    return f"{x:.4g}" if abs(x) < 1e-3 and x != 0 else f"{x:.4f}"


def _row(cells: Sequence[str], head: bool = False) -> str:
    tag = "th" if head else "td"
    return "<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"


def table(head: Sequence[str], rows: Sequence[Sequence[str]], caption: str | None = None) -> str:
    """Return an HTML table; ``head``, ``rows`` and ``caption`` are already escaped."""
    top = f"<caption>{caption}</caption>" if caption else ""
    body = "".join(_row(r) for r in rows)
    return f"<table>{top}<thead>{_row(head, True)}</thead><tbody>{body}</tbody></table>"


def _reading(result: Any) -> str:
    scale = result._described.scale
    if scale is None:
        return "none (not chance-corrected)"
    return f"{result.interpret()} ({_scales.SOURCES[scale]})"


def results_table_html(
    results: Sequence[Any],
    confidence_level: float = 0.95,
    *,
    method: str | None = None,
    rng: Any = None,
    index: Sequence[Any] | None = None,
    index_name: str = "",
) -> str:
    """Return one HTML coefficient table of ``results``: one row per result.

    Columns: the coefficient, its value, SE, interval (level, method), p-value
    and interpretation on its default scale; ``index`` adds a first column
    (a group's key, a table's row name) headed ``index_name``.
    """
    head = ["coefficient", "value", "SE", f"{level(confidence_level)} CI", "p", "interpretation"]
    rows = []
    for r in results:
        low, high = r.confidence_interval(confidence_level, method=method, rng=rng)
        chosen = METHODS.get(method or r.interval_method, method)
        p = r.pvalue
        rows.append(
            [
                text(r.name),
                number(r.statistic),
                number(r.standard_error),
                f"[{number(low)}, {number(high)}] {text(chosen)}",
                "&lt;0.0001" if math.isfinite(p) and p < 1e-4 else number(p),
                text(_reading(r)),
            ]
        )
    if index is not None:
        head = [index_name, *head]
        rows = [[text(k), *row] for k, row in zip(index, rows, strict=True)]
    return table([text(h) for h in head], rows)


def matrix_html(values: np.ndarray, labels: Sequence[Any], caption: str) -> str:
    """Return a labelled k×k matrix (rows: the first rater) as a small HTML table."""
    names = [text(v) for v in labels]
    rows = [
        [name, *(text(_text.number(v, 4)) for v in row)]
        for name, row in zip(names, values.tolist(), strict=True)
    ]
    return table(["", *names], rows, text(caption))


def _two_raters(result: Any) -> list[str]:
    labels = result.labels
    first, second = getattr(result, "raters", ("rater 1", "rater 2"))
    return [
        matrix_html(result.observed, labels, f"Observed O (rows: {first}, columns: {second})"),
        matrix_html(result.weights, labels, "Weights W (disagreement)"),
        matrix_html(result.expected, labels, "Expected E (chance)"),
    ]


def _many_raters(result: Any) -> list[str]:
    totals = result.category_totals
    shares = totals / totals.sum() if totals.sum() else totals
    rows = [
        [text(v), text(_text.number(t)), number(s)]
        for v, t, s in zip(result.labels, totals, shares, strict=True)
    ]
    shown = [table(["category", "ratings", "share"], rows, "Ratings per category")]
    coincidences = getattr(result, "coincidences", None)
    if coincidences is not None:
        shown.append(matrix_html(coincidences, result.labels, "Coincidences o_ck"))
    weights = result.weights
    # α without a q × q table (continuous values, label sets beyond 256 sets) has none to show
    if result.weighting != "unweighted" and weights.shape == (len(result.labels),) * 2:
        shown.append(matrix_html(weights, result.labels, "Weights W (disagreement)"))
    return shown


def page(body: Sequence[str]) -> str:
    """Return the result's <div>: the style, then ``body``'s parts (already escaped)."""
    return '<div class="concord-result">' + STYLE + "".join(body) + "</div>"


class HTML:
    """``_repr_html_``: how Jupyter shows a result."""

    def _repr_html_(self) -> str:
        result: Any = self
        tables = _two_raters(result) if hasattr(result, "observed") else _many_raters(result)
        return page(
            [
                results_table_html([result]),
                f'<p class="concord-sentence">{text(result.summary())}</p>',
                f'<div class="concord-tables">{"".join(tables)}</div>',
            ]
        )


class ThresholdHTML:
    """``_repr_html_`` of fitted cut points: the sentence, the cut points, the kappa's tables."""

    def _repr_html_(self) -> str:
        result: Any = self
        names = [text(v) for v in result.labels]
        rows = [
            [f"{low} | {high}", text(f"{t:.6g}")]
            for low, high, t in zip(names, names[1:], result.thresholds, strict=False)
        ]
        return page(
            [
                f'<p class="concord-sentence">{text(result.summary())}</p>',
                table(["grades", "cut point"], rows, "Cut points"),
                result.kappa._repr_html_(),
            ]
        )


class FoldsHTML:
    """``_repr_html_`` of a cross-validated kappa: the sentence and each fold's kappa."""

    def _repr_html_(self) -> str:
        result: Any = self
        rows = [[str(i), number(k)] for i, k in enumerate(result.fold_kappas, 1)]
        return page(
            [
                f'<p class="concord-sentence">{text(result.summary())}</p>',
                table(["fold", "κ"], rows, "Held-out folds"),
            ]
        )


class GroupedHTML:
    """``_repr_html_`` of per-group kappas: the sentence and one row per group."""

    def _repr_html_(self) -> str:
        result: Any = self
        keys = list(result.results)
        return page(
            [
                f'<p class="concord-sentence">{text(result.summary())}</p>',
                results_table_html(
                    [result.results[k] for k in keys], index=keys, index_name=result.by
                ),
            ]
        )
