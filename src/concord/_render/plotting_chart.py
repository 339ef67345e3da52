"""The agreement chart of Bangdiwala (1985): its rectangles, and their drawing.

:func:`rectangles` is the geometry only (no matplotlib), as R vcd's
``agreementplot`` lays it out: the unit square is split by rater2's shares
along x and rater1's along y; category i's rectangle (r_i by c_i, white)
holds a square of exact agreement n_ii by n_ii (black) and, with partial
credit, the ratings b categories apart around it (shaded by their credit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from concord._common.extras import require
from concord._render.plotting import CMAP, DARK

if TYPE_CHECKING:
    from matplotlib.axes import Axes

# a rectangle: (x, y, width, height, credit); credit None for a category's outer rectangle
Rect = tuple[float, float, float, float, "float | None"]


def rectangles(observed: np.ndarray, partial: tuple[float, ...]) -> list[Rect]:
    """Return the chart's rectangles, outer ones first, then each category's widest band in."""
    t = np.asarray(observed, dtype=np.float64)
    k, n = t.shape[0], float(t.sum())
    xc = np.concatenate([[0.0], np.cumsum(t.sum(axis=0)) / n])
    yc = np.concatenate([[0.0], np.cumsum(t.sum(axis=1)) / n])
    out: list[Rect] = []
    for i in range(k):
        width, height = xc[i + 1] - xc[i], yc[i + 1] - yc[i]
        out.append((xc[i], yc[i], width, height, None))
        col, row = t[:, i], t[i, :]
        if col.sum() == 0 or row.sum() == 0:
            continue
        x0 = np.concatenate([[0.0], np.cumsum(col)]) / col.sum()
        y0 = np.concatenate([[0.0], np.cumsum(row)]) / row.sum()
        for b in range(min(len(partial), k) - 1, -1, -1):
            lo, hi = max(0, i - b), min(k, i + b + 1)
            out.append(
                (
                    xc[i] + width * x0[lo],
                    yc[i] + height * y0[lo],
                    width * (x0[hi] - x0[lo]),
                    height * (y0[hi] - y0[lo]),
                    float(partial[b]),
                )
            )
    return out


def agreement_chart(
    ax: Axes, observed: np.ndarray, labels: tuple[Any, ...], partial: tuple[float, ...]
) -> None:
    """Draw the chart on ``ax``: rectangles, the diagonal, category names at their centres."""
    colormaps = require("matplotlib", "plot", "concord.plot").colormaps
    Rectangle = require("matplotlib.patches", "plot", "concord.plot").Rectangle
    shade = colormaps[CMAP]
    for x, y, w, h, credit in rectangles(observed, partial):
        if credit is None:
            ax.add_patch(Rectangle((x, y), w, h, facecolor="white", edgecolor=DARK, lw=1))
        else:  # full credit darkest; partial credit lighter, as vcd's grey levels
            colour = DARK if credit >= 1 else shade(0.35 + 0.6 * (1 - credit))
            ax.add_patch(Rectangle((x, y), w, h, facecolor=colour, edgecolor="white", lw=0.5))
    ax.plot([0, 1], [0, 1], ls="--", color="#d62728", lw=1, label="perfect agreement")
    t = np.asarray(observed, dtype=np.float64)
    n = t.sum()
    xc = np.concatenate([[0.0], np.cumsum(t.sum(axis=0)) / n])
    yc = np.concatenate([[0.0], np.cumsum(t.sum(axis=1)) / n])
    names = [str(v) for v in labels]
    ax.set_xticks((xc[:-1] + xc[1:]) / 2, names)
    ax.set_yticks((yc[:-1] + yc[1:]) / 2, names)
    ax.set(xlim=(0, 1), ylim=(0, 1), aspect="equal")
