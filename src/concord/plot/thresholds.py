"""The scores of each grade and the optimal cut points of :func:`concord.optimize_thresholds`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from concord._common.text import number
from concord._render import plotting as _plotting
from concord._thresholds.optimize import _scores

if TYPE_CHECKING:
    from matplotlib.axes import Axes


@dataclass(eq=False, repr=False)
class ThresholdDisplay:
    """The scores of each true grade, one histogram row per grade, and the optimal cut points.

    Attributes
    ----------
    scores : tuple of numpy.ndarray
        The scores of the items of each grade, in the order of ``labels``.
    labels : tuple
        The grades, in the result's order (the lowest drawn at the bottom).
    thresholds : numpy.ndarray
        The result's cut points; ±inf ones (empty end grades) are not drawn.
    statistic : float
        The kappa the cut points reach.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import concord
    >>> truth, score = [1, 1, 2, 2, 3, 3, 3], [0.9, 1.4, 1.6, 2.1, 2.2, 3.5, 2.9]
    >>> best = concord.optimize_thresholds(truth, score)
    >>> d = ThresholdDisplay.from_result(best, truth, score).plot(bins=10)
    >>> d.thresholds, [len(s) for s in d.scores]
    (array([1.5 , 2.15]), [2, 2, 3])
    >>> matplotlib.pyplot.close(d.figure_)
    """

    scores: tuple[np.ndarray, ...]
    labels: tuple[Any, ...]
    thresholds: np.ndarray
    statistic: float

    @classmethod
    def from_result(cls, result: Any, y_true: Any, y_score: Any, /) -> ThresholdDisplay:
        """Build the display from a ThresholdResult and the data (same length) it was fitted to."""
        func = "ThresholdDisplay.from_result"
        cuts = _plotting.need(result, "thresholds", "a ThresholdResult", func)
        codes = _plotting.grade_codes(y_true, tuple(result.labels), func)
        scores = _scores(y_score, codes.shape[0], func)
        groups = tuple(scores[codes == j] for j in range(len(result.labels)))
        return cls(groups, tuple(result.labels), cuts, float(result.statistic))

    def plot(self, ax: Axes | None = None, **style: Any) -> ThresholdDisplay:
        """Draw and return the display; ``style`` goes to ``Axes.stairs`` (and ``bins``)."""
        self.figure_, self.ax_ = _plotting.axes(ax)
        _plotting.ridges(self.ax_, self.scores, self.labels, self.thresholds, style)
        kappa = number(self.statistic, 3)
        self.ax_.set_title(f"Scores by true grade and the optimal cut points (κ = {kappa})")
        return self
