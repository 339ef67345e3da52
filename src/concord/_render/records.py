"""Results → plain records: the rows and JSON forms the CLI and the HTML report share.

Every number comes from a result object; this module only picks and lays
them out. The JSON forms are documented in docs/guide/command-line.md and
stable: numbers are never rounded, nan and ±inf become null.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from concord._common.jsonable import jsonable as jsonable  # re-exported: the CLI's CSV
from concord._results import tidy as _tidy
from concord._results.interpret import SOURCES


def dumps(value: Any) -> str:
    """Return the JSON text of ``value`` (UTF-8, indented, no NaN)."""
    return json.dumps(jsonable(value), indent=2, ensure_ascii=False, allow_nan=False)


def summary(result: Any, confidence_level: float, method: str | None, rng: Any) -> dict[str, Any]:
    """Return one coefficient's row: value, SE, interval, p-value, interpretation.

    The keys and values of ``result.to_dict()`` (:mod:`concord._results.tidy`
    defines them), before nan becomes None.
    """
    return _tidy.summary(result, confidence_level, method, rng)


def kappa_record(result: Any, row: dict[str, Any], top: int = 5) -> dict[str, Any]:
    """Return the JSON form of ``concord kappa``: the summary row, O, W, E, costliest cells.

    With ``row`` from :func:`summary`, the record of ``result.to_dict()``.
    """
    return {**row, **_tidy.kappa_fields(result, top)}


def number(x: Any) -> str:
    """Return ``x`` with four decimals (four significant digits when tiny), — when undefined."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "—"
    return f"{x:.4g}" if abs(x) < 1e-3 and x != 0 else f"{x:.4f}"


def pvalue(p: Any) -> str:
    """Return a p-value for display: <0.0001 below that."""
    if isinstance(p, float) and math.isfinite(p) and p < 1e-4:
        return "<0.0001"
    return number(p)


def reading(label: str | None, scale: str | None) -> str:
    """Return an interpretation with the scale it was read on: 'tentative (Krippendorff 2004)'."""
    if scale is None:
        return "none (not chance-corrected)"
    return f"{label} ({SOURCES[scale]})"


def display_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, str]]:
    """Return the summary rows as display strings, one column per field shown."""
    shown = []
    for r in rows:
        level = f"{round(100 * r['confidence_level'], 6):g}%"
        interval = f"[{number(r['ci_low'])}, {number(r['ci_high'])}]"
        shown.append(
            {
                "coefficient": r["coefficient"],
                "value": number(r["statistic"]),
                "SE": number(r["standard_error"]),
                f"{level} CI": f"{interval} {r['ci_method']}",
                "p": pvalue(r["pvalue"]),
                "interpretation": reading(r["interpretation"], r["interpretation_scale"]),
            }
        )
    return shown


def frame_shape(frame: Any) -> dict[str, Any]:
    """Return the items, raters, ratings and missing ratings of a wide frame."""
    missing = int(frame.isna().to_numpy().sum())
    return {
        "items": int(frame.shape[0]),
        "raters": [str(c) for c in frame.columns],
        "ratings": int(frame.size - missing),
        "missing_ratings": missing,
    }


def data_summary(shape: dict[str, Any], results: Sequence[Any]) -> dict[str, Any]:
    """Return the data's shape (:func:`frame_shape`) with the categories and their totals."""
    return {
        **shape,
        "labels": list(results[0].labels),
        "category_totals": results[0].category_totals,
    }
