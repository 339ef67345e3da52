"""Results of continuous ratings → rows: what ``concord bland-altman`` and the report show.

Each row is one estimate with its interval: the bias, the SD and the limits
of agreement (each limit twice: its exact interval and its approximate
one), the regression on the means when asked for, Lin's ρ_c, an ICC. Every
number comes from the result; this module only picks and names them.
"""

from __future__ import annotations

import math
from typing import Any

from concord._common.errors import param_error

ROW_KEYS = ("quantity", "estimate", "ci_low", "ci_high", "interval")
_EXPECTED = "an IccResult, CccResult or BlandAltmanResult"


def _row(quantity: str, estimate: float, band: Any, interval: str) -> dict[str, Any]:
    low, high = band if band is not None else (math.nan, math.nan)
    return dict(zip(ROW_KEYS, (quantity, estimate, low, high, interval), strict=True))


def bland_altman_rows(r: Any) -> list[dict[str, Any]]:
    """Return the bias, SD, limits (exact and approximate intervals) and the regression."""
    pct = f"{100 * r.coverage:g}%"
    rows = [
        _row("bias (mean of x − y)", r.bias, r.bias_interval, "t"),
        _row("SD of the differences", r.sd, None, ""),
    ]
    for side, value, exact, approx in (
        ("lower", r.lower_limit, r.lower_interval, r.lower_interval_approximate),
        ("upper", r.upper_limit, r.upper_interval, r.upper_interval_approximate),
    ):
        if getattr(r, "n_subjects", 0):  # repeated measurements: no interval of the limits
            rows.append(_row(f"{pct} {side} limit", value, None, ""))
            continue
        rows.append(_row(f"{pct} {side} limit", value, exact, "exact (Carkeet 2015)"))
        rows.append(_row(f"{pct} {side} limit", value, approx, "approximate (Bland–Altman 1999)"))
    if getattr(r, "scale", "difference") == "ratio":
        rows += [
            _row("geometric mean ratio x / y", r.ratio_bias, None, ""),
            _row(f"{pct} lower limit of x / y", r.ratio_limits[0], None, ""),
            _row(f"{pct} upper limit of x / y", r.ratio_limits[1], None, ""),
        ]
    if r.proportional:
        rows += [
            _row("regression of x − y on the mean: slope", r.slope, None, ""),
            _row("regression: intercept", r.intercept, None, ""),
            _row("regression: p-value of the slope", r.slope_pvalue, None, ""),
            _row("regression: residual SD", r.residual_sd, None, ""),
        ]
    return rows


def ccc_rows(r: Any) -> list[dict[str, Any]]:
    """Return ρ_c with Lin's interval, and its precision (r) and accuracy (C_b)."""
    return [
        _row("Lin's concordance ρ_c", r.statistic, r.interval, "Fisher z (Lin 1989, 2000)"),
        _row("precision (Pearson's r)", r.precision, None, ""),
        _row("accuracy C_b", r.accuracy, None, ""),
    ]


def icc_rows(r: Any) -> list[dict[str, Any]]:
    """Return the ICC with its own default interval (F, McGraw & Wong 1996)."""
    return [_row(f"{r.name} ({r.shrout_fleiss})", r.statistic, r.confidence_interval(), "F")]


def rows(result: Any, func: str = "rows") -> list[dict[str, Any]]:
    """Return the rows of any result of continuous ratings (keys :data:`ROW_KEYS`)."""
    if hasattr(result, "lower_limit"):
        return bland_altman_rows(result)
    if hasattr(result, "accuracy"):
        return ccc_rows(result)
    if hasattr(result, "shrout_fleiss"):
        return icc_rows(result)
    param_error(func, "continuous", _EXPECTED, result, exc=TypeError)
