"""Raters one by one: the pairwise kappa matrix and the leave-one-rater-out forest."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from concord._common.text import number
from concord._inference.intervals import ConfidenceInterval
from concord._render import plotting as _plotting

if TYPE_CHECKING:
    from matplotlib.axes import Axes

from concord.plot.kappa import _MatrixDisplay


class PairwiseMatrixDisplay(_MatrixDisplay):
    """The raters × raters Cohen's kappa of a :class:`~concord.RaterDiagnostics`.

    ``matrix`` is the pairwise kappa over the items both raters rated, and
    ``labels`` the raters' names, on both axes.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import concord
    >>> ratings = [[1, 1, 2], [2, 2, 2], [3, 3, 1], [1, 1, 1], [2, 3, 2], [3, 3, 3]]
    >>> d = PairwiseMatrixDisplay.from_result(concord.rater_diagnostics(ratings)).plot()
    >>> d.labels, round(float(d.matrix[0, 1]), 3)
    ((0, 1, 2), 0.75)
    >>> matplotlib.pyplot.close(d.figure_)
    """

    @classmethod
    def from_result(cls, result: Any, /) -> PairwiseMatrixDisplay:
        """Build the display from :func:`concord.rater_diagnostics`' result."""
        func = "PairwiseMatrixDisplay.from_result"
        matrix = _plotting.need(result, "pairwise", "a RaterDiagnostics", func)
        title = "Cohen's kappa of each pair of raters"
        return cls(np.asarray(matrix), tuple(result.raters), title, axis_names=("rater", "rater"))


@dataclass(eq=False, repr=False)
class RaterDisplay:
    """The leave-one-rater-out forest: the coefficient without each rater, and the panel's.

    Each row is the coefficient without one rater; its bar is the panel's
    value plus the paired interval of the change (:attr:`RaterDiagnostics.changes`),
    so a bar that misses the panel's line (dashed) is a significant change.

    Attributes
    ----------
    names : tuple of str
        One row per rater: "without <rater>".
    statistics : numpy.ndarray
        The coefficient without each rater.
    intervals : tuple of ConfidenceInterval
    full : float
        The whole panel's coefficient.
    coefficient : str
    confidence_level : float

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import concord
    >>> ratings = [[1, 1, 2], [2, 2, 2], [3, 3, 1], [1, 1, 1], [2, 3, 2], [3, 3, 3]]
    >>> d = RaterDisplay.from_result(concord.rater_diagnostics(ratings)).plot()
    >>> d.names
    ('without 0', 'without 1', 'without 2')
    >>> matplotlib.pyplot.close(d.figure_)
    """

    names: tuple[str, ...]
    statistics: np.ndarray
    intervals: tuple[ConfidenceInterval, ...]
    full: float
    coefficient: str
    confidence_level: float

    @property
    def texts(self) -> tuple[str, ...]:
        """The value written beside each row: "estimate [low, high]"."""
        return tuple(
            _plotting.value_text(s, ci)
            for s, ci in zip(self.statistics, self.intervals, strict=True)
        )

    @classmethod
    def from_result(cls, result: Any, /, *, confidence_level: float | None = None) -> RaterDisplay:
        """Build the display from :func:`concord.rater_diagnostics`' result."""
        func = "RaterDisplay.from_result"
        changes = _plotting.need(result, "changes", "a RaterDiagnostics", func)
        level = result.confidence_level if confidence_level is None else confidence_level
        full = float(result.full.statistic)
        intervals = []
        for change in changes:
            low, high = change.confidence_interval(level)
            intervals.append(ConfidenceInterval(full + low, full + high))
        stats = np.array([r.statistic for r in result.without], dtype=np.float64)
        names = tuple(f"without {r}" for r in result.raters)
        return cls(names, stats, tuple(intervals), full, result.coefficient, float(level))

    def plot(self, ax: Axes | None = None, **style: Any) -> RaterDisplay:
        """Draw and return the display; ``style`` goes to the estimates' ``Axes.plot``."""
        self.figure_, self.ax_ = _plotting.axes(ax, (6.4, 1.4 + 0.45 * len(self.names)))
        _plotting.forest(self.ax_, self.names, self.statistics, self.intervals, self.texts, style)
        self.ax_.axvline(self.full, color=_plotting.DARK, linestyle="--", linewidth=1)
        level = f"{100 * self.confidence_level:g}%"
        self.ax_.set_xlabel(
            f"{self.coefficient} without each rater; {level} paired interval; "
            f"dashed: the whole panel ({number(self.full, 3)})"
        )
        return self
