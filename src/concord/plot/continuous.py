"""Continuous ratings: the Bland–Altman plot and the concordance scatter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from concord._common.text import number
from concord._render import plotting as _plotting
from concord._render import plotting_continuous as _continuous

if TYPE_CHECKING:
    from matplotlib.axes import Axes


@dataclass(eq=False, repr=False)
class BlandAltmanDisplay:
    """A Bland–Altman plot: each pair's difference x − y against its mean (x + y) / 2.

    The bias and the limits of agreement are horizontal lines, each with its
    confidence interval shaded (the bias's t interval; the limits' exact
    ones, Carkeet 2015). A result with ``proportional=True`` shows instead the
    regression of the differences on the means and the limits around it
    (Bland & Altman 1999, §3.2), over the bias's interval.

    A result keeps its exact sums, not its pairs, so the points come from the
    data: ``from_result(result, x, y)`` checks that they are as many as the
    result's ``n``; ``from_data(x, y, ...)`` computes the result first.

    Attributes
    ----------
    means, differences : numpy.ndarray
        (x + y) / 2 and x − y of each pair (missing pairs dropped).
    result : BlandAltmanResult
        The lines: ``bias``, ``lower_limit``, ``upper_limit``, their intervals.

    Examples
    --------
    Bland & Altman's (1986) PEFR data (l/min), Wright and mini Wright meters:

    >>> import matplotlib; matplotlib.use("Agg")
    >>> wright = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656,
    ...           267, 478, 178, 423, 427]
    >>> mini = [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626,
    ...         260, 477, 259, 350, 451]
    >>> d = BlandAltmanDisplay.from_data(wright, mini).plot()
    >>> d.differences[:3], round(d.result.bias, 1)
    (array([-18., -35.,  -4.]), -2.1)
    >>> matplotlib.pyplot.close(d.figure_)
    """

    means: np.ndarray
    differences: np.ndarray
    result: Any

    @classmethod
    def from_result(
        cls, result: Any, x: Any, y: Any, /, *, nan_policy: str = "raise"
    ) -> BlandAltmanDisplay:
        """Build the display from a BlandAltmanResult and the ratings it was computed from."""
        func = "BlandAltmanDisplay.from_result"
        _plotting.need(result, "limits_at", "a BlandAltmanResult", func)
        vx, vy = _continuous.pairs(result, x, y, nan_policy, func)
        return cls((vx + vy) / 2, vx - vy, result)

    @classmethod
    def from_data(
        cls,
        x: Any,
        y: Any,
        /,
        *,
        confidence_level: float = 0.95,
        limits: float = 0.95,
        proportional: bool = False,
        nan_policy: str = "raise",
    ) -> BlandAltmanDisplay:
        """Compute :func:`concord.bland_altman` of the ratings and build its display."""
        from concord._coefficients.continuous.bland_altman import bland_altman

        result = bland_altman(
            x,
            y,
            confidence_level=confidence_level,
            limits=limits,
            proportional=proportional,
            nan_policy=nan_policy,
        )
        return cls.from_result(result, x, y, nan_policy=nan_policy)

    def plot(
        self, ax: Axes | None = None, *, legend: bool = True, **style: Any
    ) -> BlandAltmanDisplay:
        """Draw and return the display; ``style`` goes to the points' ``Axes.scatter``."""
        self.figure_, self.ax_ = _plotting.axes(ax)
        _continuous.points(self.ax_, self.means, self.differences, style)
        _continuous.bland_altman(self.ax_, self.means, self.result)
        level = f"{100 * self.result.confidence_level:g}%"
        self.ax_.set(
            title=f"Bland–Altman plot (shaded: {level} confidence intervals)",
            xlabel=_continuous.mean_label(self.result),
            ylabel=f"difference {self.result.difference}",
        )
        if legend:
            self.ax_.legend(loc="best", fontsize="small")
        return self


@dataclass(eq=False, repr=False)
class ConcordanceDisplay:
    """The pairs as a scatter, the identity line y = x and the reduced major axis.

    Lin's ρ_c is 1 only when every point lies on the identity line; the
    reduced-major-axis line through (x̄, ȳ) with slope sign(s_xy) s_y / s_x
    shows how far the pairs' own line lies from it (the accuracy C_b). As for
    :class:`BlandAltmanDisplay`, the points come from the data.

    Attributes
    ----------
    x, y : numpy.ndarray
        The pairs (missing ones dropped).
    result : CccResult

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> d = ConcordanceDisplay.from_data([1.0, 2.1, 2.9, 4.2], [1.2, 1.9, 3.1, 3.8]).plot()
    >>> [line.get_label() for line in d.ax_.lines]
    ['identity y = x', 'reduced major axis']
    >>> matplotlib.pyplot.close(d.figure_)
    """

    x: np.ndarray
    y: np.ndarray
    result: Any

    @classmethod
    def from_result(
        cls, result: Any, x: Any, y: Any, /, *, nan_policy: str = "raise"
    ) -> ConcordanceDisplay:
        """Build the display from a CccResult and the ratings it was computed from."""
        func = "ConcordanceDisplay.from_result"
        _plotting.need(result, "accuracy", "a CccResult", func)
        vx, vy = _continuous.pairs(result, x, y, nan_policy, func)
        return cls(vx, vy, result)

    @classmethod
    def from_data(
        cls, x: Any, y: Any, /, *, confidence_level: float = 0.95, nan_policy: str = "raise"
    ) -> ConcordanceDisplay:
        """Compute :func:`concord.concordance_correlation` of the ratings and build its display."""
        from concord._coefficients.continuous.concordance import concordance_correlation

        result = concordance_correlation(
            x, y, confidence_level=confidence_level, nan_policy=nan_policy
        )
        return cls.from_result(result, x, y, nan_policy=nan_policy)

    def plot(
        self, ax: Axes | None = None, *, legend: bool = True, **style: Any
    ) -> ConcordanceDisplay:
        """Draw and return the display; ``style`` goes to the points' ``Axes.scatter``."""
        self.figure_, self.ax_ = _plotting.axes(ax)
        _continuous.points(self.ax_, self.x, self.y, style)
        _continuous.concordance(self.ax_, self.x, self.y, self.result)
        r = self.result
        band = _continuous.interval_text(r.interval)
        self.ax_.set(
            title=f"Lin's concordance ρ_c = {number(r.statistic, 3)}{band}",
            xlabel=str(getattr(r, "names", ("x", "y"))[0]),
            ylabel=str(getattr(r, "names", ("x", "y"))[1]),
        )
        if legend:
            self.ax_.legend(loc="best", fontsize="small")
        return self
