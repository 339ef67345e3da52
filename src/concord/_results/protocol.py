"""The one protocol every public result speaks, written once.

Every result that a public function returns has

* ``statistic``: its headline number (κ, ICC, ω of the Alt-Test, the planned
  n, the difference of a comparison, …);
* ``summary()``: one sentence; ``explain()``: the computation step by step;
* ``to_dict()``: JSON-ready values (``json.dumps(..., allow_nan=False)`` works);
* ``to_frame()``: a tidy pandas DataFrame whose first columns are always
  :data:`COLUMNS` (``coefficient``, ``statistic``, ``standard_error``,
  ``ci_low``, ``ci_high``, ``pvalue``, ``n``; nan where a result has none);
* ``_repr_html_()``: how a notebook shows it;
* ``_report_section_()``: its compact section of :func:`concord.report.to_html`,
  a :class:`ReportSection` that the report's template renders (and escapes);
* ``interpret()`` where a published scale exists.

:class:`Reported` gives ``to_frame``, ``_repr_html_`` and
``_report_section_`` from two things a result defines: ``_rows_()``, its
tidy rows, and ``summary()``. :class:`ResultProtocol` states the protocol
for type checkers and ``isinstance``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from concord._common.extras import require

_R = TypeVar("_R")

# the tidy columns every to_frame() starts with, in this order
COLUMNS = ("coefficient", "statistic", "standard_error", "ci_low", "ci_high", "pvalue", "n")

# the display names of the tidy columns, in a notebook table and a report section
_HEADS = {
    "coefficient": "",
    "statistic": "value",
    "standard_error": "SE",
    "pvalue": "p",
}


@dataclass(frozen=True)
class ReportSection:
    """A result's compact section of the HTML report; the template escapes every string.

    Attributes
    ----------
    title : str
        The section's heading.
    sentence : str
        The result's ``summary()``.
    rows : tuple of dict
        A small table: one dict per row, column name → display string.
    explanation : str
        The result's ``explain()``, folded away in the report.
    figures : tuple of (str, str)
        (caption, name of a :mod:`concord.plot` display with ``from_result``):
        the report draws them when it has plots.
    tables : tuple of (str, tuple of dict)
        Further small tables, each with its caption, shown after ``rows``
        (a span result's pairs of raters, worst items and spans to adjudicate).
    """

    title: str
    sentence: str
    rows: tuple[dict[str, str], ...]
    explanation: str
    figures: tuple[tuple[str, str], ...] = ()
    tables: tuple[tuple[str, tuple[dict[str, str], ...]], ...] = ()


@runtime_checkable
class ResultProtocol(Protocol):
    """What every public result offers (see the module docstring)."""

    @property
    def statistic(self) -> Any: ...  # pragma: no cover - a protocol

    def summary(self) -> str: ...  # pragma: no cover - a protocol

    def explain(self) -> str: ...  # pragma: no cover - a protocol

    def to_dict(self) -> Any: ...  # pragma: no cover - a protocol

    def to_frame(self) -> Any: ...  # pragma: no cover - a protocol

    def _repr_html_(self) -> str: ...  # pragma: no cover - a protocol

    def _report_section_(self) -> ReportSection: ...  # pragma: no cover - a protocol


def row(
    coefficient: str,
    statistic: Any,
    *,
    standard_error: Any = math.nan,
    interval: Sequence[Any] = (math.nan, math.nan),
    pvalue: Any = math.nan,
    n: Any = math.nan,
    **more: Any,
) -> dict[str, Any]:
    """Return one tidy row: the :data:`COLUMNS` first, then ``more``."""
    low, high = interval
    return {
        "coefficient": coefficient,
        "statistic": statistic,
        "standard_error": standard_error,
        "ci_low": low,
        "ci_high": high,
        "pvalue": pvalue,
        "n": n,
        **more,
    }


def tidy_frame(rows: Sequence[Mapping[str, Any]], index: str | None = None) -> Any:
    """Return ``rows`` as a DataFrame whose first columns are :data:`COLUMNS`.

    A standard column a row lacks is nan (``coefficient``: empty); nested
    values (lists, arrays, dicts) are left out. ``index`` names a column
    to become the index (it stays a column name of ``reset_index()``).
    """
    import numpy as np

    pd = require("pandas", "pandas", "to_frame()")

    nested = (list, tuple, dict, np.ndarray)
    flat = [{k: v for k, v in r.items() if not isinstance(v, nested)} for r in rows]
    frame = pd.DataFrame(flat)
    for name in COLUMNS:
        if name not in frame.columns:
            frame[name] = "" if name == "coefficient" else math.nan
    rest = [c for c in frame.columns if c not in COLUMNS]
    frame = frame[[*COLUMNS, *rest]]
    return frame.set_index(index) if index is not None else frame


def lead_tidy(frame: Any, coefficient: str, statistic: str = "statistic", n: str = "n") -> Any:
    """Return a per-row ``frame`` (per item, per window) with the tidy :data:`COLUMNS` first.

    ``statistic`` and ``n`` name the frame's columns that hold each row's
    value and count (copied under the tidy names when they differ); a
    tidy column the frame lacks is nan.
    """
    out = frame.copy()
    out["coefficient"] = coefficient
    for tidy, own in (("statistic", statistic), ("n", n)):
        if tidy not in out.columns:
            out[tidy] = out[own] if own in out.columns else math.nan
    for name in COLUMNS:
        if name not in out.columns:
            out[name] = math.nan
    rest = [c for c in out.columns if c not in COLUMNS]
    return out[[*COLUMNS, *rest]]


def _cell(value: Any) -> str:
    """Return a table cell: four decimals for a float, — when undefined, str otherwise."""
    import numbers

    if value is None:
        return "—"
    if isinstance(value, str | bool | numbers.Integral):
        return str(value)
    try:
        x = float(value)
    except (TypeError, ValueError):
        return str(value)
    if not math.isfinite(x):
        return "—"
    if x.is_integer() and abs(x) > 1:
        return str(int(x))
    return f"{x:.4g}" if abs(x) < 1e-3 and x != 0 else f"{x:.4f}"


def _defined(value: Any) -> bool:
    if value is None:
        return False
    if isinstance(value, float):
        return math.isfinite(value)
    return not (isinstance(value, str) and value == "")


def display_rows(rows: Sequence[Mapping[str, Any]]) -> tuple[dict[str, str], ...]:
    """Return tidy rows as display strings: the interval in one column, empty columns dropped."""
    scalar = [{k: v for k, v in r.items() if not isinstance(v, list | tuple | dict)} for r in rows]
    keys: list[str] = []
    for r in scalar:
        keys += [k for k in r if k not in keys]
    shown = [k for k in keys if any(_defined(r.get(k)) for r in scalar)]
    out = []
    for r in scalar:
        cells: dict[str, str] = {}
        for k in shown:
            if k == "ci_high":
                continue
            if k == "ci_low":
                low, high = r.get("ci_low"), r.get("ci_high")
                both = _defined(low) and _defined(high)
                cells["CI"] = f"[{_cell(low)}, {_cell(high)}]" if both else ""
                continue
            value = r.get(k)
            cells[_HEADS.get(k, k)] = _cell(value) if _defined(value) else ""
        out.append(cells)
    return tuple(out)


class Reported:
    """The protocol's defaults, from the result's tidy rows ``_rows_()`` and its ``summary()``.

    A result lists its tidy rows once (:func:`row`); ``to_frame()``, the
    notebook's table and the report's section are laid out from them.
    """

    def _rows_(self) -> list[dict[str, Any]]:  # pragma: no cover - each result defines it
        raise NotImplementedError

    @property
    def _title_(self) -> str:
        """The heading of the result's report section."""
        return str(getattr(self, "name", type(self).__name__))

    # (caption, concord.plot display) the report draws for this result
    _figures_: tuple[tuple[str, str], ...] = ()

    def to_frame(self) -> Any:
        """Return the result as a tidy pandas DataFrame, one row per estimate.

        The first columns are always ``coefficient``, ``statistic``,
        ``standard_error``, ``ci_low``, ``ci_high``, ``pvalue`` and ``n``
        (nan where the result has none); the result's own columns follow.
        """
        return tidy_frame(self._rows_())

    def _repr_html_(self) -> str:
        from concord._results import html

        result: Any = self
        rows = display_rows(self._rows_())
        head = list(rows[0]) if rows else []
        body = [[html.text(r.get(h, "")) for h in head] for r in rows]
        return html.page(
            [
                f'<p class="concord-sentence">{html.text(result.summary())}</p>',
                html.table([html.text(h) for h in head], body),
            ]
        )

    def _report_section_(self) -> ReportSection:
        """Return the result's compact section of the HTML report."""
        result: Any = self
        return ReportSection(
            title=self._title_,
            sentence=result.summary(),
            rows=display_rows(self._rows_()),
            explanation=result.explain(),
            figures=self._figures_,
        )


def named(result: _R, names: tuple[str, str], field: str = "raters") -> _R:
    """Return ``result`` with the raters' ``names`` in its ``field`` (itself if unchanged)."""
    import dataclasses

    if tuple(getattr(result, field)) == tuple(names):
        return result
    return dataclasses.replace(result, **{field: tuple(names)})  # type: ignore[type-var]


def with_names(result: _R, first: Any, second: Any) -> _R:
    """Return ``result`` named after the two inputs (Series' names), as the one-shot function does.

    A two-rater result keeps its raters' names in ``raters`` (default rater1,
    rater2) or, for continuous ratings, ``names`` (default x, y); another
    result is returned as it is.
    """
    from concord._data.names import name_of, rater_names

    field = next((f for f in ("raters", "names") if hasattr(result, f)), None)
    if field is None:
        return result
    default = ("x", "y") if field == "names" else ("rater1", "rater2")
    if isinstance(first, str) and isinstance(second, str):  # the names themselves
        given = (first, second) if first != second else default
    else:
        given = (
            rater_names(first, second, default) if name_of(first) or name_of(second) else default
        )
    return named(result, given, field)
