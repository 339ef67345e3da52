"""Two raters' displays: the matrices O, E, W and the contributions, and the agreement chart."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from concord._common.errors import check_option
from concord._common.text import number
from concord._render import plotting as _plotting
from concord._render import plotting_chart as _chart

if TYPE_CHECKING:
    from matplotlib.axes import Axes


_M = TypeVar("_M", bound="_MatrixDisplay")
_OBSERVED = {None: "Observed matrix O", "row": "O, share of each row", "all": "O, share of all"}


def _rater_axes(result: Any) -> tuple[str, str]:
    """Return a two-rater matrix's axis names: (x: the second rater, y: the first)."""
    first, second = getattr(result, "raters", ("rater1", "rater2"))
    return (str(second), str(first))


_SHARE_OF = {
    "loss": "Kappa lost to each confusion (sums to 1 − κ)",
    "observed": "Share of the weighted disagreement",
    "expected": "Share of the weighted disagreement expected by chance",
}


@dataclass(eq=False, repr=False)
class _MatrixDisplay:
    """A labelled k×k matrix drawn as a heatmap; ``share`` cells show as percentages."""

    matrix: np.ndarray
    labels: tuple[Any, ...]
    title: str = ""
    share: bool = False
    axis_names: tuple[str, str] = ("rater2", "rater1")

    def plot(
        self: _M,
        ax: Axes | None = None,
        *,
        annotate: bool | None = None,
        colorbar: bool = True,
        **style: Any,
    ) -> _M:
        """Draw the matrix (rows and columns in label order) and return the display.

        ``annotate`` writes the cell values (default: when k ≤ 12); ``style``
        goes to ``Axes.imshow`` (e.g. ``cmap``, default "cividis").
        """
        self.figure_, self.ax_ = _plotting.axes(ax)
        self.im_ = _plotting.heatmap(
            self.ax_,
            self.matrix,
            self.labels,
            share=self.share,
            annotate=annotate,
            colorbar=colorbar,
            style=style,
        )
        self.ax_.set(title=self.title, xlabel=self.axis_names[0], ylabel=self.axis_names[1])
        return self


class ObservedMatrixDisplay(_MatrixDisplay):
    """The observed matrix O of a :class:`~concord.KappaResult` (rows: rater1).

    Attributes
    ----------
    matrix : numpy.ndarray, shape (k, k)
        O, or its row or total shares with ``normalize="row"`` or ``"all"``
        (an empty row's shares are nan).
    labels : tuple
        The categories in the result's order.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import concord
    >>> r = concord.cohen_kappa(["low", "high", "mid", "mid"], ["low", "mid", "mid", "high"],
    ...                         labels=["low", "mid", "high"])
    >>> d = ObservedMatrixDisplay.from_result(r, normalize="row").plot()
    >>> d.labels, d.matrix.sum(axis=1)
    (('low', 'mid', 'high'), array([1., 1., 1.]))
    >>> matplotlib.pyplot.close(d.figure_)
    """

    @classmethod
    def from_result(cls, result: Any, /, *, normalize: str | None = None) -> ObservedMatrixDisplay:
        """Build the display from a KappaResult; ``normalize`` is None, "row" or "all"."""
        func = "ObservedMatrixDisplay.from_result"
        observed = _plotting.need(result, "observed", "a KappaResult", func)
        if normalize is not None:
            check_option(
                func, "normalize", normalize, ("row", "all"), expected="None, 'row' or 'all'"
            )
        totals = {None: None, "row": observed.sum(axis=1, keepdims=True), "all": observed.sum()}
        with np.errstate(invalid="ignore", divide="ignore"):
            matrix = observed if normalize is None else observed / totals[normalize]
        return cls(
            matrix,
            tuple(result.labels),
            _OBSERVED[normalize],
            normalize is not None,
            _rater_axes(result),
        )


class ExpectedMatrixDisplay(_MatrixDisplay):
    """The chance-expected matrix E of a :class:`~concord.KappaResult`: ``matrix``, ``labels``."""

    @classmethod
    def from_result(cls, result: Any, /) -> ExpectedMatrixDisplay:
        """Build the display from a KappaResult."""
        expected = _plotting.need(
            result, "expected", "a KappaResult", "ExpectedMatrixDisplay.from_result"
        )
        title = "Expected matrix E (independent raters)"
        return cls(expected, tuple(result.labels), title, False, _rater_axes(result))


class WeightMatrixDisplay(_MatrixDisplay):
    """The disagreement weights W of any result that has them: ``matrix``, ``labels``.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import concord
    >>> r = concord.fleiss_kappa([[1, 2, 2], [1, 1, 1], [3, 3, 2]], weights="linear")
    >>> d = WeightMatrixDisplay.from_result(r).plot()
    >>> d.matrix
    array([[0. , 0.5, 1. ],
           [0.5, 0. , 0.5],
           [1. , 0.5, 0. ]])
    >>> matplotlib.pyplot.close(d.figure_)
    """

    @classmethod
    def from_result(cls, result: Any, /) -> WeightMatrixDisplay:
        """Build the display from a KappaResult, AgreementResult or KrippendorffResult."""
        func = "WeightMatrixDisplay.from_result"
        weights = _plotting.need(result, "weights", "a result with weights", func)
        names = _rater_axes(result) if hasattr(result, "observed") else ("category", "category")
        return cls(weights, tuple(result.labels), "Disagreement weights W", False, names)


class ContributionsDisplay(_MatrixDisplay):
    """Each confusion's part of a kappa's weighted disagreement, in percent.

    ``against="loss"`` shows the kappa each cell costs (the cells add up to
    1 − κ); ``"observed"`` its share of ΣW·O; ``"expected"`` its share of
    ΣW·E, what it would be if the raters were independent. See
    :meth:`concord.KappaResult.contributions`.

    Attributes
    ----------
    matrix : numpy.ndarray, shape (k, k)
        The chosen array of the result's :class:`Contributions`.
    labels : tuple
    against : str

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import concord
    >>> r = concord.cohen_kappa([1, 1, 2, 2, 3], [1, 2, 2, 3, 3], weights="quadratic")
    >>> d = ContributionsDisplay.from_result(r, against="loss").plot()
    >>> round(float(d.matrix.sum()), 6) == round(1 - r.statistic, 6)
    True
    >>> matplotlib.pyplot.close(d.figure_)
    """

    against: str = "observed"

    @classmethod
    def from_result(cls, result: Any, /, *, against: str = "observed") -> ContributionsDisplay:
        """Build the display from a KappaResult; ``against``: "loss", "observed" or "expected"."""
        func = "ContributionsDisplay.from_result"
        check_option(func, "against", against, tuple(_SHARE_OF))
        parts = _plotting.need(result, "contributions", "a KappaResult", func)()
        display = cls(
            getattr(parts, against),
            tuple(parts.labels),
            _SHARE_OF[against],
            True,
            _rater_axes(result),
        )
        display.against = against
        return display


@dataclass(eq=False, repr=False)
class AgreementChartDisplay:
    """Bangdiwala's (1985) agreement chart of two raters, as R vcd's ``agreementplot``.

    Each category is a rectangle r_i by c_i (rater1's and rater2's totals,
    as shares of the unit square); inside it the black square n_ii by n_ii
    is exact agreement and, with partial credit, the shaded bands around it
    are ratings b categories apart. The filled share of the rectangles is
    Bangdiwala's B (B^w with partial credit); squares off the dashed
    diagonal mean the raters' marginals differ.

    Attributes
    ----------
    observed : numpy.ndarray, shape (k, k)
        The table (rows: rater1).
    labels : tuple
        The categories in order.
    partial_weights : tuple of float
        The credit by distance, (1,) for exact agreement only.
    statistic : float
        B or B^w.
    axis_names : tuple of str
        The x (rater2) and y (rater1) axis names.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> d = AgreementChartDisplay.from_data([1, 1, 2, 2, 3, 3], [1, 2, 2, 2, 3, 1]).plot()
    >>> round(d.statistic, 4)  # (1 + 4 + 1) / (2·2 + 2·3 + 2·1)
    0.5
    >>> matplotlib.pyplot.close(d.figure_)
    """

    observed: np.ndarray
    labels: tuple[Any, ...]
    partial_weights: tuple[float, ...]
    statistic: float
    axis_names: tuple[str, str] = ("rater2", "rater1")

    @classmethod
    def from_result(cls, result: Any, /) -> AgreementChartDisplay:
        """Build the chart of a BangdiwalaResult or a KappaResult (exact agreement only)."""
        observed = _plotting.need(
            result, "observed", "a BangdiwalaResult or KappaResult", "AgreementChartDisplay"
        )
        partial = tuple(getattr(result, "partial_weights", (1.0,)))
        if hasattr(result, "partial_weights"):
            statistic = float(result.statistic)
        else:
            from concord._coefficients.kappa.categories_core import bangdiwala

            statistic = bangdiwala(observed, np.asarray(partial))[0]
        return cls(observed, tuple(result.labels), partial, statistic, _rater_axes(result))

    @classmethod
    def from_data(
        cls,
        rater1: Any,
        rater2: Any,
        /,
        *,
        weights: Any = None,
        labels: Any = None,
        nan_policy: str = "raise",
    ) -> AgreementChartDisplay:
        """Compute :func:`concord.bangdiwala_b` of the ratings and build its chart."""
        from concord._coefficients.kappa.categories import bangdiwala_b

        return cls.from_result(
            bangdiwala_b(rater1, rater2, weights=weights, labels=labels, nan_policy=nan_policy)
        )

    def plot(self, ax: Axes | None = None) -> AgreementChartDisplay:
        """Draw and return the display (square axes)."""
        self.figure_, self.ax_ = _plotting.axes(ax, (5.0, 5.0))
        _chart.agreement_chart(self.ax_, self.observed, self.labels, self.partial_weights)
        name = "B" if len(self.partial_weights) == 1 else "B^w"
        self.ax_.set(
            title=f"Agreement chart (Bangdiwala's {name} = {number(self.statistic, 3)})",
            xlabel=self.axis_names[0],
            ylabel=self.axis_names[1],
        )
        return self
