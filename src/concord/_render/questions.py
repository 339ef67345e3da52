"""The report's first part: the lead's questions, answered from results the library computes.

Which rater drifts (:func:`concord.rater_diagnostics`: the rater table, the
pairwise matrix, the leave-one-rater-out forest), which category nobody
agrees on (:func:`concord.specific_agreement`), whether two raters' marginals
differ (:func:`concord.marginal_homogeneity`), and a paragraph that says the
headline numbers in words. Everything here lays out numbers; nothing is
computed that a public function does not return.
"""

from __future__ import annotations

import warnings
from typing import Any

from concord._coefficients.registry import REGISTRY
from concord._render import records as rec
from concord._results.sentence import write as _sentence


def headline(results: list[Any]) -> Any:
    """Return the result the summary leads with: the registry's lead (α), else the first."""
    leading = {c.name for c in REGISTRY if c.leads}
    return next((r for r in results if r.coefficient in leading), results[0])


def _options(result: Any, c: Any) -> dict[str, Any]:
    """Return the options that give ``result`` again: its level or weights (c: its entry)."""
    options: dict[str, Any] = {"labels": list(result.labels)}
    if "level" in c.options:
        options["level"] = result.level
    elif "weights" in c.options and result.weighting not in ("unweighted", "nominal"):
        options["weights"] = result.weighting
    return options


def probabilistic(result: Any) -> str | None:
    """Return the benchmark membership probabilities in words (Gwet 2014), None without them.

    ``interpret(probabilistic=True)``; a result without ``interpret`` has none, and
    neither has a coefficient without a benchmark scale (percent agreement).
    """
    interpret = getattr(result, "interpret", None)
    described = getattr(result, "_described", None)
    if interpret is None or (described is not None and described.scale is None):
        return None
    return str(interpret(probabilistic=True))


def encoded(frame: Any, result: Any) -> Any:
    """Return a panel's ratings encoded once for the raters and the categories, or None.

    The label codes (:func:`concord._data.matrix.rating_matrix`, with
    ``result``'s labels) that :func:`concord.rater_diagnostics` and
    :func:`concord.specific_agreement` would each make from the frame; None
    for fewer than three raters, or where the encoding fails (each section
    then reads the frame itself, and fails as it does).
    """
    from concord._data.matrix import rating_matrix

    if frame is None or frame.shape[1] < 3:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return rating_matrix(frame, list(result.labels), "rater_diagnostics")
    except (ValueError, TypeError):
        return None


def counted(matrix: Any) -> Any:
    """Return the count patterns of encoded ratings and each item's (None: no ``matrix``).

    :func:`concord._tables.patterns.counted_patterns`, counted once for the
    raters' and the categories' sections.
    """
    from concord._tables.patterns import counted_patterns

    return None if matrix is None else counted_patterns(matrix.codes, matrix.labels.k)


def raters(frame: Any, result: Any, level: float, matrix: Any = None, patterns: Any = None) -> Any:
    """Return the rater diagnostics of the panel for ``result``'s coefficient, or None.

    None for fewer than three raters, and where the diagnostics do not
    apply (a coefficient with no leave-one-out terms, items nobody rated).
    ``matrix``: the frame already encoded (:func:`encoded`); ``patterns``:
    its count patterns (:func:`counted`).
    """
    import concord
    from concord._studies.raters.diagnostics import of_matrix

    function = getattr(concord, result.coefficient, None)
    c = next((c for c in REGISTRY if c.function is function), None)
    if frame is None or frame.shape[1] < 3 or c is None or c.table == "sums":
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if matrix is not None:
                return of_matrix(
                    matrix,
                    frame,
                    function=function,
                    confidence_level=level,
                    counted=patterns,
                    **_options(result, c),
                )
            return concord.rater_diagnostics(  # the data the results came from: wide
                frame,
                function=function,
                confidence_level=level,
                form="wide",
                **_options(result, c),
            )
    except (ValueError, TypeError):
        return None


# the change's direction in the flag column; the flags section says it in sentences
_WAY = {"disagrees": "panel agrees more without", "consistent": "panel agrees less without"}


def rater_rows(d: Any) -> list[dict[str, str]]:
    """Return one display row per rater: without, change with its CI, κ vs panel, MH p, flags."""
    ci = f"{100 * d.confidence_level:g}% CI"
    out = []
    for row in d.to_dict()["raters"]:
        flags = [
            _WAY.get(row["direction"], ""),
            "categories" if row["marginals_flagged"] else "",
        ]
        out.append(
            {
                "rater": str(row["rater"]),
                "without": rec.number(row["without"]),
                "change": rec.number(row["change"]),
                ci: f"[{rec.number(row['change_low'])}, {rec.number(row['change_high'])}]",
                "p": rec.pvalue(row["pvalue"]),
                "κ vs panel": rec.number(row["kappa_vs_panel"]),
                "marginals p": rec.pvalue(row["homogeneity_pvalue"]),
                "flag": ", ".join(f for f in flags if f),
            }
        )
    return out


def categories(frame: Any, result: Any, matrix: Any = None, patterns: Any = None) -> Any:
    """Return the specific agreement of each category (two raters or a panel), or None.

    ``matrix``: a panel's frame already encoded (:func:`encoded`), counted
    here once unless ``patterns`` (:func:`counted`) are given.
    """
    import concord

    if frame is None or frame.shape[1] < 2:
        return None
    labels = list(result.labels)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if matrix is not None:
                return _specific(matrix, patterns)
            if frame.shape[1] == 2:
                a, b = (frame.iloc[:, j] for j in range(2))
                return concord.specific_agreement(a, b, labels=labels, nan_policy="omit")
            return concord.specific_agreement(frame, labels=labels, form="wide")
        except (ValueError, TypeError):
            return None


def _specific(matrix: Any, patterns: Any = None) -> Any:
    """Specific agreement from the label codes: their items' count patterns, as the frame's."""
    from concord._coefficients.kappa.categories import of_patterns

    found = counted(matrix) if patterns is None else patterns
    return of_patterns(found[0], matrix.labels, matrix.codes.shape[1])


def category_rows(s: Any, level: float) -> list[dict[str, str]]:
    """Return one display row per category: its specific agreement with the interval."""
    low, high = s.confidence_interval(level)
    return [
        {
            "category": str(label),
            "specific agreement": rec.number(float(p)),
            "SE": rec.number(float(se)),
            f"{100 * level:g}% CI": f"[{rec.number(float(lo))}, {rec.number(float(hi))}]",
        }
        for label, p, se, lo, hi in zip(
            s.labels, s.agreement, s.standard_error, low, high, strict=True
        )
    ]


def marginals(frame: Any, result: Any) -> Any:
    """Return the Stuart–Maxwell test of two raters' marginals, or None (not two raters)."""
    import concord

    if frame is None or frame.shape[1] != 2:
        return None
    a, b = (frame.iloc[:, j].dropna() for j in range(2))
    both = a.index.intersection(b.index)
    try:
        return concord.marginal_homogeneity(a[both], b[both], labels=list(result.labels))
    except (ValueError, TypeError):
        return None


def flags(d: Any, s: Any, mh: Any, names: list[str], level: float) -> list[str]:
    """Return the flags in words: raters who move the coefficient (which way), raters' marginals.

    And the weakest category.
    """
    alpha = 1 - level
    out: list[str] = []
    if d is not None:
        out.extend(s[0].upper() + s[1:] for s in d.flag_sentences())
        for rater, test in zip(d.raters, d.homogeneity, strict=True):
            if test.pvalue < alpha:
                out.append(
                    f"{rater} uses the categories at other rates than the panel "
                    f"(Stuart–Maxwell χ²({test.df}) = {test.statistic:.2f}, "
                    f"{_p(test.pvalue)})."
                )
    if mh is not None and mh.pvalue < alpha:
        out.append(
            f"{names[0]} and {names[1]} use the categories at different rates "
            f"(Stuart–Maxwell χ²({mh.df}) = {mh.statistic:.2f}, {_p(mh.pvalue)})."
        )
    if s is not None and len(s.labels) > 1:
        worst = min(range(len(s.labels)), key=lambda j: _or_inf(s.agreement[j]))
        out.append(
            f"Category {s.labels[worst]!s} has the lowest specific agreement: "
            f"{rec.number(float(s.agreement[worst]))}."
        )
    return out


def _p(value: float) -> str:
    """Return "p = 0.012" or "p < 0.0001" (records' p-value text)."""
    text = rec.pvalue(value)
    return f"p {text[0]} {text[1:]}" if text.startswith("<") else f"p = {text}"


def _or_inf(value: float) -> float:
    return float(value) if value == value else float("inf")  # nan: never the weakest


def summary(
    results: list[Any], rows: list[dict[str, Any]], d: Any, level: float, method: Any
) -> list[str]:
    """Return the summary paragraph's sentences: the headline, the others' range, the raters.

    ``rows`` are the results' summary rows, whose intervals the sentences quote.
    """
    lead = headline(results)
    row = rows[next(i for i, r in enumerate(results) if r is lead)]
    said = [_sentence(lead, level, method, (row["ci_low"], row["ci_high"]))]
    chances = probabilistic(lead)
    if chances:
        said.append(f"Read against the benchmarks: {chances}.")
    others = [r for r in results if r is not lead]
    if others:
        ordered = sorted(others, key=lambda r: _or_inf(r.statistic))
        said.append(
            f"The other {len(others)} coefficient{'s' if len(others) > 1 else ''} range from "
            f"{rec.number(ordered[0].statistic)} ({ordered[0].name}) to "
            f"{rec.number(ordered[-1].statistic)} ({ordered[-1].name})."
        )
    if d is not None:
        top = max(range(len(d.raters)), key=lambda i: d.changes[i].difference)
        c = d.changes[top]
        lo, hi = c.confidence_interval(level)
        without = rec.number(d.without[top].statistic)
        said.append(
            f"Without {d.raters[top]!s}, {lead.name} would be {without}"
            f" ({c.difference:+.3f}, {100 * level:g}% CI {lo:+.3f} to {hi:+.3f})."
        )
    return said
