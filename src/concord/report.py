"""A self-contained HTML agreement report.

:func:`to_html` lays out results the library has computed. It answers the
lead's questions first: a summary paragraph, the raters (leave one out, the
pairwise matrix, each rater's marginals), the categories (specific
agreement) and the flags (:mod:`concord._render.answers`); then one
compact section per coefficient with its interval, interpretation and
plots of :mod:`concord.plot` as inline SVG (the weights drawn once;
:mod:`concord._render.sections`), the
step-by-step explanation, the method notes and references (taken from each
coefficient's own docstring) folded away, and the provenance. The page makes
no network request and runs no script; every user-supplied string (labels,
rater names, file names, the title) is escaped by the template engine
(jinja2, autoescaping).

Needs the ``report`` extra: ``pip install "concord-agreement[report]"``.
"""

from __future__ import annotations

import datetime as _dt
import platform
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from concord._common.errors import check_bool
from concord._common.extras import require
from concord._render import answers as ask
from concord._render import continuous as _continuous
from concord._render import evaluation as _evaluation
from concord._render import records as rec
from concord._render import results as _results
from concord._render import sections as part
from concord._results.sentence import write as _sentence
from concord._version import __version__

__all__ = ["to_html"]


def _named(results: Any) -> list[Any]:
    if isinstance(results, Mapping):
        return list(results.values())
    if isinstance(results, Sequence) and not isinstance(results, str):
        return list(results)
    return [results]


def _data(data: Any, results: list[Any]) -> dict[str, Any] | None:
    if data is None:
        return None
    pd = require("pandas", "pandas", "concord.report's data summary (data=)")

    frame = pd.DataFrame(data)
    if results:
        summary = rec.data_summary(rec.frame_shape(frame), results)
    else:  # no coefficient to give the categories: the data's own values
        summary = {**rec.frame_shape(frame), "labels": _values(frame)}
    per_rater = frame.apply(lambda c: c.value_counts()).reindex(list(summary["labels"]))
    summary["per_rater"] = per_rater.fillna(0).astype(int).reset_index().to_numpy().tolist()
    return summary


def _values(frame: Any) -> list[Any]:
    """Return the data's distinct ratings, sorted (in order of appearance if they cannot be)."""
    pd = require("pandas", "pandas", "concord.report")

    values = [v for v in pd.unique(frame.stack().to_numpy()) if not pd.isna(v)]  # no missing
    try:
        return sorted(values)
    except TypeError:  # mixed kinds
        return values


def _comparisons(given: Any, level: float, plots: bool) -> list[dict[str, Any]]:
    """Return the "Comparison" section's entries: a title, the rows, the explanation, a figure."""
    if given is None:
        return []
    named = list(given.items()) if isinstance(given, Mapping) else None
    if named is None:
        named = [(f"{getattr(c.first, 'name', 'coefficient')}", c) for c in _named(given)]
    out = []
    for title, c in named:
        low, high = c.confidence_interval(level)
        rows = [
            {"": side, "value": rec.number(r.statistic), "SE": rec.number(r.standard_error)}
            for side, r in (("first", c.first), ("second", c.second))
        ]
        rows.append(
            {
                "": "second − first",
                "value": rec.number(c.difference),
                "SE": rec.number(c.standard_error),
                f"{100 * level:g}% CI": f"[{rec.number(low)}, {rec.number(high)}]",
                "t": rec.number(c.t_statistic),
                "df": f"{c.df:g}",
                "p": rec.pvalue(c.pvalue),
            }
        )
        figure = None
        if plots:
            from concord.plot import ComparisonDisplay

            figure = part.svg(ComparisonDisplay.from_result(c, confidence_level=level))
        out.append({"title": title, "rows": rows, "explanation": c.explain(), "figure": figure})
    return out


def _continuous_entries(given: Any) -> list[dict[str, Any]]:
    """Return the "Continuous ratings" entries: a title, the rows, the explanation.

    The rows are the ones ``concord bland-altman`` prints; no figure, since a
    result keeps its sums, not its pairs (draw them with :mod:`concord.plot`).
    """
    if given is None:
        return []
    named = list(given.items()) if isinstance(given, Mapping) else None
    if named is None:
        named = [(_continuous_title(r), r) for r in _named(given)]
    out = []
    for title, r in named:
        rows = _continuous.rows(r, "to_html")
        level = f"{100 * r.confidence_level:g}% CI"
        shown = [
            {
                "": row["quantity"],
                "estimate": rec.number(row["estimate"]),
                level: f"[{rec.number(row['ci_low'])}, {rec.number(row['ci_high'])}]"
                if row["interval"]
                else "",
                "interval": row["interval"],
            }
            for row in rows
        ]
        out.append({"title": str(title), "rows": shown, "explanation": r.explain()})
    return out


def _evaluation_entries(given: Any) -> list[dict[str, Any]]:
    """Return the "Evaluation of machine scores" entries: the sentence, the flags, the tables."""
    if given is None:
        return []
    named = list(given.items()) if isinstance(given, Mapping) else None
    if named is None:
        named = [(f"{r.primary} machine scores", r) for r in _named(given)]
    return [
        {
            "title": str(title),
            "summary": r.summary(),
            "flags": _evaluation.flags(r),
            "tables": _evaluation.tables(r),
            "has_human2": r.consistency is not None,
            "has_groups": bool(r.by_group),
        }
        for title, r in named
    ]


def _continuous_title(result: Any) -> str:
    name = getattr(result, "name", None)
    return str(name) if name else type(result).__name__


def to_html(
    results: Any,
    /,
    *,
    data: Any = None,
    title: str = "Agreement report",
    command: str | None = None,
    confidence_level: float = 0.95,
    method: str | None = None,
    n_resamples: int = 2000,
    rng: Any = 0,
    plots: bool = True,
    comparisons: Any = None,
    continuous: Any = None,
    evaluation: Any = None,
) -> str:
    """Return a self-contained HTML report of agreement results.

    Parameters
    ----------
    results : result, sequence of results or mapping of name to result
        Any result of concord. The coefficients (:class:`~concord.KappaResult`,
        :class:`~concord.AgreementResult` and its kinds) fill the agreement
        table, the answers to the lead's questions and a section each; every
        other result (:func:`~concord.agree`'s table, a comparison, an ICC,
        Bland–Altman limits, an evaluation, the Alt-Test, a gold standard,
        rater diagnostics, a category test, a plan, cut points, a mean…)
        gets the compact section it provides itself (its
        ``_report_section_()``: the sentence, a small table, its figures, the
        step-by-step explanation), under "Results", titled by its name or
        by its key in a mapping.
    data : DataFrame or array-like (n_items, n_raters), optional
        The ratings, for the data summary (items, raters, missing ratings,
        each rater's category counts).
    title : str
        The page title.
    command : str, optional
        The command that produced the report, shown as its provenance.
    confidence_level, method, n_resamples, rng
        The intervals and the bootstrap plots, as in
        ``result.confidence_interval`` (default: each coefficient's method).
    plots : bool
        Include the plots (needs matplotlib).
    comparisons : ComparisonResult, sequence or mapping of name to one, optional
        :func:`concord.compare` results, for a "Comparison" section: both
        estimates, the difference with its SE, interval and test, and a plot.
    continuous : result, sequence or mapping of name to result, optional
        Results of continuous ratings (:class:`~concord.IccResult`,
        :class:`~concord.CccResult`, :class:`~concord.BlandAltmanResult`), for
        a "Continuous ratings" section: each estimate with its interval (the
        limits of agreement with their exact and approximate ones) and the
        step-by-step explanation. ``results`` may then be empty (``[]``).
    evaluation : EvaluationResult, sequence or mapping of name to one, optional
        :func:`concord.evaluate` results, for an "Evaluation of machine
        scores" section: the summary sentence, the flags at the Williamson,
        Xi & Breyer (2012) thresholds, and every table under RSMTool's name.

    Returns
    -------
    str
        One HTML document: inline CSS and SVG, no script, no external resource.

    Examples
    --------
    >>> import concord
    >>> from concord.report import to_html
    >>> r = concord.cohen_kappa([1, 2, 3, 3, 2], [1, 2, 3, 2, 2], weights="quadratic")
    >>> page = to_html(r, title="<Pilot> study", plots=False)
    >>> "&lt;Pilot&gt; study" in page and "<script" not in page
    True

    Continuous ratings alone (Bland & Altman 1986, PEFR data, first 6 subjects):

    >>> ba = concord.bland_altman([494, 395, 516, 434, 476, 557], [512, 430, 520, 428, 500, 600])
    >>> page = to_html([], continuous={"Wright vs mini Wright": ba}, plots=False)
    >>> "Continuous ratings" in page and "exact (Carkeet 2015)" in page
    True

    An evaluation of machine scores (the first 8 responses of RSMTool's
    fixture ``predictions_scaled_with_subgroups.csv``, machine scores to 1 decimal):

    >>> e = concord.evaluate([4, 4, 4, 3, 2, 2, 4, 2], [4.1, 4.3, 2.9, 3.9, 3.5, 1.5, 4.2, 1.9])
    >>> page = to_html([], evaluation=e, plots=False)
    >>> "Evaluation of machine scores" in page and "<code>eval</code>" in page
    True
    """
    jinja2 = require("jinja2", "report", "concord.report")
    Markup = require("markupsafe", "report", "concord.report").Markup
    shown, others = _results.split(results)
    plots = check_bool("to_html", "plots", plots)
    options = {"confidence_level": confidence_level, "method": method, "alone": len(shown) == 1}
    options.update(n_resamples=n_resamples, rng=rng)
    rows = [rec.summary(r, confidence_level, method, rng) for r in shown]
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("concord", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    forest = None
    if plots and len(shown) > 1:
        from concord.plot import ForestDisplay

        forest = part.svg(
            ForestDisplay.from_results(shown, confidence_level=confidence_level, method=method)
        )
    frame = _frame(data)
    names = None if frame is None else [str(c) for c in frame.columns]
    # the sentences for the paper, with the intervals of the table
    sentences = [
        _sentence(r, confidence_level, method, (row["ci_low"], row["ci_high"]))
        for r, row in zip(shown, rows, strict=True)
    ]
    questions = ask.answers(shown, rows, frame, confidence_level, method, plots)
    parts = {
        "results": _results.sections(others, plots),
        "comparisons": _comparisons(comparisons, confidence_level, plots),
        "continuous": _continuous_entries(continuous),
        "evaluation": _evaluation_entries(evaluation),
    }
    page: str = environment.get_template("report.html").render(
        title=title,
        data=_data(data, shown),
        table=rec.display_rows(rows),
        forest=Markup(forest) if forest else None,
        weights=part.weights_figure(shown, plots, names),
        sections=[
            part.section(r, row, sentence, plots, options, names)
            for r, row, sentence in zip(shown, rows, sentences, strict=True)
        ],
        contents=ask.contents(bool(data is not None), bool(shown), questions, parts),
        **questions,
        **parts,
        markup=Markup,
        version=__version__,
        python=platform.python_version(),
        numpy=np.__version__,
        created=_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        command=command,
    )
    # a label holding U+202E (right-to-left override) would display reversed, and so would
    # the text after it: every bidirectional control is shown as its escape instead
    from concord._common.text import neutral_bidi

    return neutral_bidi(page)


def _frame(data: Any) -> Any:
    """Return the ratings as a DataFrame (columns: the raters), or None."""
    if data is None:
        return None
    pd = require("pandas", "pandas", "concord.report's data (data=)")

    return pd.DataFrame(data)
