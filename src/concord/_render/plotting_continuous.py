"""Drawing helpers of :mod:`concord.plot` for continuous ratings: Bland–Altman and concordance.

As in :mod:`concord._render.plotting`, matplotlib is imported inside the
functions that draw, and nothing here computes a statistic: the lines are
the result's (bias, limits, their intervals, the regression on the means),
the points are the pairs the result was computed from.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from concord._common.errors import param_error
from concord._common.text import number
from concord._render.plotting import CMAP, DARK, need, pyplot
from concord._tables.moments import paired_ratings

if TYPE_CHECKING:
    from matplotlib.axes import Axes

# the shaded intervals: light enough that the points over them stay legible
_BAND = {"alpha": 0.18, "linewidth": 0}


def mean_label(result: Any) -> str:
    """Return the Bland–Altman plot's x axis: the mean of the two raters, by their names."""
    first, second = getattr(result, "names", ("x", "y"))
    if (first, second) == ("x", "y"):
        return "mean of the two ratings (x + y) / 2"
    return f"mean of {first} and {second}"


def pairs(result: Any, x: Any, y: Any, nan_policy: str, func: str) -> tuple[Any, Any]:
    """Return the validated pairs, as many as ``result.n`` (else they are not its data)."""
    n = need(result, "n", "a result of two raters' continuous ratings", func)
    vx, vy = paired_ratings(x, y, func, nan_policy)
    if vx.shape[0] != n:
        param_error(
            func,
            "x",
            f"the {n:,} pairs the result was computed from",
            f"{vx.shape[0]:,} pairs",
            raw=True,
            fix="Pass the ratings (and nan_policy) the result was computed from.",
        )
    return vx.astype(np.float64), vy.astype(np.float64)


def points(ax: Axes, x: np.ndarray, y: np.ndarray, style: dict[str, Any]) -> None:
    """Draw the pairs as points, smaller and fainter when there are many."""
    face = pyplot().get_cmap(CMAP)(0.35)
    many = x.size > 2000
    options = {"s": 6 if many else 18, "alpha": 0.35 if many else 0.8, "color": face}
    # thousands of points: one raster image in a vector file, not thousands of paths
    ax.scatter(x, y, rasterized=many, **{**options, "label": f"{x.size:,} pairs", **style})


def level_line(
    ax: Axes, value: float, band: tuple[float, float], label: str, dashed: bool
) -> None:
    """Draw a horizontal line at ``value`` and its interval ``band`` shaded (when finite)."""
    style = "--" if dashed else "-"
    ax.axhline(value, color=DARK, linestyle=style, linewidth=1.4, label=label)
    if all(math.isfinite(b) for b in band):
        ax.axhspan(band[0], band[1], color=DARK, **_BAND)


def interval_text(band: tuple[float, float]) -> str:
    """Return "[low, high]" to 3 significant digits, or "" when undefined."""
    return f" [{number(band[0], 3)}, {number(band[1], 3)}]" if math.isfinite(sum(band)) else ""


def bland_altman(ax: Axes, means: np.ndarray, result: Any) -> None:
    """Draw the bias and the limits (constant, or the regression's), with their intervals."""
    pct = f"{100 * result.coverage:g}%"
    bias = f"bias {number(result.bias, 3)}{interval_text(result.bias_interval)}"
    if not result.proportional:
        level_line(ax, result.bias, result.bias_interval, bias, dashed=False)
        for name, value, band in (
            ("lower", result.lower_limit, result.lower_interval),
            ("upper", result.upper_limit, result.upper_interval),
        ):
            text = f"{pct} {name} limit {number(value, 3)}{interval_text(band)}"
            level_line(ax, value, band, text, dashed=True)
        return
    ax.axhspan(*result.bias_interval, color=DARK, **_BAND, label=bias)
    grid = np.linspace(float(means.min()), float(means.max()), 101)
    low, high = result.limits_at(grid)
    slope = f"d = {number(result.intercept, 3)} + {number(result.slope, 3)} m"
    ax.plot(grid, result.intercept + result.slope * grid, color=DARK, label=slope)
    ax.plot(grid, low, color=DARK, linestyle="--", label=f"{pct} limits around that line")
    ax.plot(grid, high, color=DARK, linestyle="--", label="_")


def concordance(ax: Axes, x: np.ndarray, y: np.ndarray, result: Any) -> None:
    """Draw the identity line and the reduced-major-axis line of the result's moments.

    The reduced major axis, ȳ + sign(s_xy) (s_y / s_x)(x − x̄), is symmetric in
    the raters (Lin 1989): ρ_c measures how far it lies from the identity.
    """
    both = np.concatenate([x, y])
    ends = np.array([both.min(), both.max()])
    ax.plot(ends, ends, color=DARK, linewidth=1.2, label="identity y = x")
    if result.var_x > 0 and result.var_y > 0:
        slope = math.copysign(math.sqrt(result.var_y / result.var_x), result.covariance)
        line = result.mean_y + slope * (ends - result.mean_x)
        ax.plot(ends, line, color=DARK, linestyle="--", label="reduced major axis")
    pad = 0.04 * (ends[1] - ends[0]) or 0.5
    ax.set_xlim(ends[0] - pad, ends[1] + pad)
    ax.set_ylim(ends[0] - pad, ends[1] + pad)
    ax.set_aspect("equal")
