"""Helpers of :mod:`concord.plot`: checks on its inputs, and the drawing.

matplotlib is imported here, inside the functions that draw. The drawing
helpers only draw arrays a display already holds; nothing here computes a
statistic.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from concord._common.errors import describe, param_error
from concord._common.extras import require
from concord._common.options import check_method
from concord._common.text import number
from concord._tables.pairs import encode_rater

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.image import AxesImage

# perceptually uniform, monotone in lightness (reads in greyscale) and designed for colour-blind
# readers (Nuñez, Anderton & Renslow 2018, doi:10.1371/journal.pone.0199239)
CMAP = "cividis"
DARK, LIGHT = "#111111", "#ffffff"


def pyplot() -> Any:
    """Return ``matplotlib.pyplot``, or raise an ImportError that says how to install it."""
    return require("matplotlib.pyplot", "plot", "concord.plot")


def axes(ax: Axes | None, size: tuple[float, float] | None = None) -> tuple[Figure, Axes]:
    """Return ``ax`` and its figure, or a new figure and axes (constrained layout)."""
    plt = pyplot()
    if ax is None:
        figure, ax = plt.subplots(figsize=size, layout="constrained")
        return figure, ax
    # the root figure, which has savefig, even for axes in a subfigure
    return ax.figure.figure, ax


def cell_text(value: float, share: bool) -> str:
    """Format a matrix cell: shares as percentages, counts as integers, others to 3 digits."""
    if not math.isfinite(value):
        return "–"
    return f"{value:.1%}" if share else number(value, 3)


def heatmap(
    ax: Axes,
    matrix: np.ndarray,
    labels: Sequence[Any],
    *,
    share: bool,
    annotate: bool | None,
    colorbar: bool,
    style: dict[str, Any],
) -> AxesImage:
    """Draw a labelled k×k matrix, annotated when k is small, and return the image."""
    names = [str(v) for v in labels]
    # colours from 0 (not from the smallest cell), so that equal values look alike across plots
    floor = min(0.0, float(np.nanmin(matrix))) if np.isfinite(matrix).any() else 0.0
    im = ax.imshow(matrix, **{"cmap": CMAP, "vmin": floor, "interpolation": "nearest", **style})
    ticks = np.arange(len(names))
    tilt: dict[str, Any] = {"rotation": 45, "ha": "right", "rotation_mode": "anchor"}
    ax.set_xticks(ticks, names, **(tilt if max(map(len, names), default=0) > 4 else {}))
    ax.set_yticks(ticks, names)
    if annotate or (annotate is None and len(names) <= 12):
        _annotate(ax, im, matrix, share)
    if colorbar:
        bar = ax.figure.colorbar(im, ax=ax)
        if share:
            ticker = require("matplotlib.ticker", "plot", "concord.plot")
            bar.ax.yaxis.set_major_formatter(ticker.PercentFormatter(1.0))
    return im


def _annotate(ax: Axes, im: AxesImage, matrix: np.ndarray, share: bool) -> None:
    """Write each cell's value, dark on light cells and light on dark ones."""
    for (i, j), value in np.ndenumerate(matrix):
        colour = DARK
        if math.isfinite(value):
            red, green, blue, _ = im.cmap(im.norm(value))
            # relative luminance (ITU-R BT.709) of the cell's colour
            colour = DARK if 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.45 else LIGHT
        ax.text(j, i, cell_text(value, share), ha="center", va="center", color=colour)


def ridges(
    ax: Axes,
    groups: Sequence[np.ndarray],
    labels: Sequence[Any],
    cuts: np.ndarray,
    style: dict[str, Any],
) -> None:
    """Draw one histogram per true grade, a row each (lowest grade at the bottom), and the cuts."""
    plt = pyplot()
    edges = np.histogram_bin_edges(np.concatenate(groups), bins=style.pop("bins", 40))
    colours = plt.get_cmap(CMAP)(np.linspace(0.2, 0.9, len(groups)))
    for row, (scores, colour) in enumerate(zip(groups, colours, strict=True)):
        counts = np.histogram(scores, edges)[0].astype(np.float64)
        tops = row + 0.85 * counts / max(counts.max(), 1.0)
        ax.stairs(tops, edges, baseline=row, fill=True, **{"color": colour, **style})
        ax.stairs(tops, edges, baseline=row, color=DARK, linewidth=0.8)
    names = [f"{v} (n = {len(g)})" for v, g in zip(labels, groups, strict=True)]
    ax.set_yticks(np.arange(len(names)), names)
    ax.set_ylim(-0.1, len(names))
    finite = [float(c) for c in cuts if math.isfinite(c)]
    for cut in finite:
        ax.axvline(cut, color=DARK, linestyle="--", linewidth=1.2)
    top = ax.secondary_xaxis("top")
    top.set_xticks(finite, [number(c, 3) for c in finite])
    top.set_xlabel("cut points")
    ax.set(xlabel="score", ylabel="true grade")


def histogram(
    ax: Axes,
    replicates: np.ndarray,
    statistic: float,
    interval: tuple[float, float],
    legend: str,
    style: dict[str, Any],
) -> None:
    """Draw the defined bootstrap replicates, the estimate (solid) and the interval (dashed)."""
    plt = pyplot()
    finite = replicates[np.isfinite(replicates)]
    face = plt.get_cmap(CMAP)(0.7)
    options = {"bins": "auto", "color": face, "edgecolor": DARK, "linewidth": 0.3}
    ax.hist(finite, label=f"{finite.size} bootstrap replicates", **{**options, **style})
    ax.axvline(statistic, color=DARK, linewidth=2, label=f"estimate {number(statistic, 3)}")
    if all(math.isfinite(b) for b in interval):
        legend += f" [{number(interval[0], 3)}, {number(interval[1], 3)}]"
    for i, bound in enumerate(b for b in interval if math.isfinite(b)):
        ax.axvline(bound, color=DARK, linestyle="--", label=legend if i == 0 else "_")
    ax.set_ylabel("resamples")
    ax.legend(loc="best", fontsize="small")


def forest(
    ax: Axes,
    names: Sequence[str],
    statistics: np.ndarray,
    intervals: Sequence[tuple[float, float]],
    texts: Sequence[str],
    style: dict[str, Any],
) -> None:
    """Draw one row per coefficient, top to bottom, with the values written on the right."""
    rows = np.arange(len(names))
    low = np.array([lo for lo, _ in intervals], dtype=np.float64)
    high = np.array([hi for _, hi in intervals], dtype=np.float64)
    # a bootstrap interval need not contain the estimate: draw bars, not error offsets
    ax.hlines(rows, low, high, color=DARK, linewidth=1.5)
    ends: dict[str, Any] = {"linestyle": "none", "marker": "|", "markersize": 10, "color": DARK}
    ax.plot(np.concatenate([low, high]), np.concatenate([rows, rows]), **ends)
    ax.plot(statistics, rows, **{"linestyle": "none", "marker": "o", "color": DARK, **style})
    ax.axvline(0, color=DARK, linestyle=":", linewidth=1)
    for row in rows[np.isnan(statistics)]:
        ax.text(0, row, "undefined", ha="center", va="center", style="italic", color=DARK)
    ax.set_yticks(rows, list(names))
    ax.set_ylim(len(names) - 0.5, -0.5)
    values = ax.secondary_yaxis("right")
    values.set_yticks(rows, list(texts))
    values.tick_params(length=0)


def need(result: Any, attribute: str, expected: str, func: str, param: str = "result") -> Any:
    """Return ``result.attribute``, or raise TypeError saying what ``param`` should be."""
    if not hasattr(result, attribute):
        param_error(func, param, expected, result, exc=TypeError)
    return getattr(result, attribute)


def interval_method(result: Any, method: str | None, func: str, param: str = "result") -> str:
    """Return the validated interval method, or the result's own default."""
    need(result, "confidence_interval", "a result with confidence intervals", func, param)
    if method is not None:
        return check_method(method, func)
    return str(result.interval_method)


def grade_codes(y_true: Any, labels: tuple[Any, ...], func: str) -> np.ndarray:
    """Return the position in ``labels`` of each true grade; unknown grades are an error."""
    values = np.asarray(y_true, dtype=object).ravel().tolist()
    unknown = sorted({repr(v) for v in values if v not in labels and v == v})  # v == v: not NaN
    if unknown:
        # the labels are the result's, so the fix is in y_true
        fix = "Pass the grades the cut points were fitted to."
        expected = f"grades among the result's labels {describe(labels)}"
        param_error(func, "y_true", expected, ", ".join(unknown[:5]), raw=True, fix=fix)
    codes, _ = encode_rater(y_true, list(labels), func, "y_true")
    return codes


def shared_seed(rng: Any) -> Any:
    """Return an integer seed: ``rng`` itself if it is one, else one drawn from it."""
    if isinstance(rng, int | np.integer) and not isinstance(rng, bool):
        return rng
    return int(np.random.default_rng(rng).integers(2**63))


def result_name(result: Any) -> str:
    """Return the coefficient's name as the literature writes it, else its function's name."""
    name = getattr(result, "name", None)
    return str(name) if name else str(getattr(result, "coefficient", type(result).__name__))


def named_results(results: Any, func: str) -> tuple[tuple[str, ...], list[Any]]:
    """Return the row names and results of a mapping or a sequence (repeated names numbered)."""
    if isinstance(results, Mapping):
        names, items = [str(k) for k in results], list(results.values())
    elif isinstance(results, Iterable) and not isinstance(results, str):
        items = list(results)
        names = [result_name(r) for r in items]
        names = [
            f"{n} ({names[: i + 1].count(n)})" if names.count(n) > 1 else n
            for i, n in enumerate(names)
        ]
    else:
        expected = "a mapping name → result or a sequence of results"
        param_error(func, "results", expected, results, exc=TypeError)
    if not items:
        param_error(func, "results", "non-empty", results)
    return tuple(names), items


def value_text(statistic: float, interval: tuple[float, float]) -> str:
    """Return "estimate [low, high]" to 3 decimals, or "undefined" for a nan estimate."""
    if math.isnan(statistic):
        return "undefined"
    low, high = interval
    bounds = f"[{low:.3f}, {high:.3f}]" if math.isfinite(low + high) else "(no interval)"
    return f"{statistic:.3f} {bounds}"
