"""Plots of agreement results, as display objects in scikit-learn's pattern.

``XDisplay.from_result(result, ...)`` reads what a result already carries
(O, E, W, contributions, bootstrap replicates, intervals) and computes no
statistic of its own; ``display.plot(ax=None, **style)`` draws it and returns
the display, with ``figure_`` and ``ax_`` (and ``im_`` for matrices) set.
matplotlib is imported only when drawing: ``pip install "concord-agreement[plot]"``.

Examples
--------
>>> import matplotlib; matplotlib.use("Agg")
>>> import concord
>>> from concord.plot import ObservedMatrixDisplay
>>> r = concord.cohen_kappa([1, 2, 3, 3, 2], [1, 2, 3, 2, 2], weights="quadratic")
>>> display = ObservedMatrixDisplay.from_result(r).plot()
>>> display.matrix
array([[1, 0, 0],
       [0, 2, 0],
       [0, 1, 1]])
>>> display.figure_.savefig("/dev/null", format="svg")
>>> matplotlib.pyplot.close(display.figure_)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from concord._common.errors import check_option
from concord._common.text import number
from concord._inference.intervals import ConfidenceInterval
from concord._render import plotting as _plotting
from concord._render import plotting_chart as _chart
from concord._render import plotting_continuous as _continuous
from concord._thresholds.optimize import _scores

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "AgreementChartDisplay",
    "BlandAltmanDisplay",
    "BootstrapDisplay",
    "ComparisonDisplay",
    "ConcordanceDisplay",
    "ContributionsDisplay",
    "ExpectedMatrixDisplay",
    "ForestDisplay",
    "ObservedMatrixDisplay",
    "PairwiseMatrixDisplay",
    "RaterDisplay",
    "ThresholdDisplay",
    "WeightMatrixDisplay",
]

_M = TypeVar("_M", bound="_MatrixDisplay")
_OBSERVED = {None: "Observed matrix O", "row": "O, share of each row", "all": "O, share of all"}
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
        return cls(matrix, tuple(result.labels), _OBSERVED[normalize], normalize is not None)


class ExpectedMatrixDisplay(_MatrixDisplay):
    """The chance-expected matrix E of a :class:`~concord.KappaResult`: ``matrix``, ``labels``."""

    @classmethod
    def from_result(cls, result: Any, /) -> ExpectedMatrixDisplay:
        """Build the display from a KappaResult."""
        expected = _plotting.need(
            result, "expected", "a KappaResult", "ExpectedMatrixDisplay.from_result"
        )
        return cls(expected, tuple(result.labels), "Expected matrix E (independent raters)")


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
        names = ("rater2", "rater1") if hasattr(result, "observed") else ("category", "category")
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
        display = cls(getattr(parts, against), tuple(parts.labels), _SHARE_OF[against], True)
        display.against = against
        return display


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


@dataclass(eq=False, repr=False)
class BootstrapDisplay:
    """The bootstrap distribution of a coefficient, its estimate and a confidence interval.

    Attributes
    ----------
    replicates : numpy.ndarray
        ``result.bootstrap(n_resamples, rng=...)``; undefined (nan) ones are not drawn.
    statistic : float
    interval : ConfidenceInterval
        ``result.confidence_interval(confidence_level, method=..., rng=...)``,
        from the same resamples when the method is a bootstrap one.
    confidence_level : float
    method : str
        The interval's method (the result's default unless given).
    name : str
        The coefficient's name.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import concord
    >>> r = concord.cohen_kappa([1, 2, 3, 3, 2, 1, 2], [1, 2, 3, 2, 2, 1, 3])
    >>> d = BootstrapDisplay.from_result(r, n_resamples=999, rng=0).plot()
    >>> d.replicates.shape, d.method
    ((999,), 'fisher-z')
    >>> matplotlib.pyplot.close(d.figure_)
    """

    replicates: np.ndarray
    statistic: float
    interval: ConfidenceInterval
    confidence_level: float
    method: str
    name: str

    @classmethod
    def from_result(
        cls,
        result: Any,
        /,
        *,
        n_resamples: int = 9999,
        confidence_level: float = 0.95,
        method: str | None = None,
        rng: Any = None,
    ) -> BootstrapDisplay:
        """Build the display from any result with ``bootstrap`` and ``confidence_interval``."""
        func = "BootstrapDisplay.from_result"
        _plotting.need(result, "bootstrap", "a result with a bootstrap", func)
        chosen = _plotting.interval_method(result, method, func)
        seed = _plotting.shared_seed(rng)  # the same resamples for the histogram and interval
        replicates = result.bootstrap(n_resamples, rng=seed)
        ci = result.confidence_interval(
            confidence_level, method=chosen, n_resamples=n_resamples, rng=seed
        )
        name = _plotting.result_name(result)
        return cls(replicates, float(result), ci, float(confidence_level), chosen, name)

    def plot(self, ax: Axes | None = None, **style: Any) -> BootstrapDisplay:
        """Draw and return the display; ``style`` goes to ``Axes.hist`` (e.g. ``bins``)."""
        self.figure_, self.ax_ = _plotting.axes(ax)
        legend = f"{100 * self.confidence_level:g}% CI ({self.method})"
        _plotting.histogram(
            self.ax_, self.replicates, self.statistic, self.interval, legend, style
        )
        dropped = int(np.isnan(self.replicates).sum())
        note = f" ({dropped} undefined not shown)" if dropped else ""
        self.ax_.set(title=f"Bootstrap of {self.name}{note}", xlabel=self.name)
        return self


@dataclass(eq=False, repr=False)
class ForestDisplay:
    """A forest plot: one row per coefficient, its estimate and confidence interval.

    Attributes
    ----------
    names : tuple of str
        Row names: the mapping's keys, else each result's ``name`` (repeated
        names are numbered).
    statistics : numpy.ndarray
        The estimates; a nan one is drawn as an "undefined" row.
    intervals : tuple of ConfidenceInterval
    confidence_level : float
    methods : tuple of str
        Each interval's method.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import concord
    >>> a, b = [1, 2, 3, 3, 2, 1, 2], [1, 2, 3, 2, 2, 1, 3]
    >>> results = {"kappa": concord.cohen_kappa(a, b), "pi": concord.scott_pi(a, b)}
    >>> d = ForestDisplay.from_results(results).plot()
    >>> d.names, d.texts
    (('kappa', 'pi'), ('0.562 [-0.127, 0.885]', '0.562 [-0.186, 0.898]'))
    >>> matplotlib.pyplot.close(d.figure_)
    """

    names: tuple[str, ...]
    statistics: np.ndarray
    intervals: tuple[ConfidenceInterval, ...]
    confidence_level: float
    methods: tuple[str, ...]

    @property
    def texts(self) -> tuple[str, ...]:
        """The value written beside each row: "estimate [low, high]", or "undefined"."""
        return tuple(
            _plotting.value_text(s, ci)
            for s, ci in zip(self.statistics, self.intervals, strict=True)
        )

    @classmethod
    def from_results(
        cls,
        results: Any,
        /,
        *,
        confidence_level: float = 0.95,
        method: str | None = None,
        rng: Any = None,
    ) -> ForestDisplay:
        """Build the display from a mapping name → result, or a sequence of results.

        ``rng`` seeds the bootstrap when ``method`` is a bootstrap one.
        """
        func = "ForestDisplay.from_results"
        names, items = _plotting.named_results(results, func)
        methods = tuple(_plotting.interval_method(r, method, func, "results") for r in items)
        intervals = tuple(
            r.confidence_interval(confidence_level, method=m, rng=rng)
            for r, m in zip(items, methods, strict=True)
        )
        stats = np.array([float(r) for r in items], dtype=np.float64)
        return cls(names, stats, intervals, float(confidence_level), methods)

    def plot(self, ax: Axes | None = None, **style: Any) -> ForestDisplay:
        """Draw and return the display; ``style`` goes to the estimates' ``Axes.plot``."""
        self.figure_, self.ax_ = _plotting.axes(ax, (6.4, 1.4 + 0.45 * len(self.names)))
        _plotting.forest(self.ax_, self.names, self.statistics, self.intervals, self.texts, style)
        methods = ", ".join(dict.fromkeys(self.methods))
        level = f"{100 * self.confidence_level:g}%"
        self.ax_.set_xlabel(f"estimate and {level} confidence interval ({methods})")
        return self


@dataclass(eq=False, repr=False)
class ComparisonDisplay:
    """A comparison: both estimates with their intervals, and the difference with its own.

    Three rows of a forest plot, against a zero line: the first and second
    coefficients (each with its own default interval) and their difference,
    second − first, with the comparison's paired (or unpaired) interval.

    Attributes
    ----------
    names : tuple of str
        The rows: "first", "second", "second − first", or the names given.
    statistics : numpy.ndarray
        The two estimates and the difference.
    intervals : tuple of ConfidenceInterval
    confidence_level : float

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import concord
    >>> truth, a, b = [1, 2, 3, 3, 2, 1, 2, 3], [1, 2, 3, 2, 2, 1, 3, 3], [1, 2, 3, 3, 2, 1, 2, 2]
    >>> r = concord.compare(concord.cohen_kappa, (truth, a), (truth, b))
    >>> d = ComparisonDisplay.from_result(r, names=("model a", "model b")).plot()
    >>> d.names
    ('model a', 'model b', 'model b − model a')
    >>> matplotlib.pyplot.close(d.figure_)
    """

    names: tuple[str, ...]
    statistics: np.ndarray
    intervals: tuple[ConfidenceInterval, ...]
    confidence_level: float

    @property
    def texts(self) -> tuple[str, ...]:
        """The value written beside each row: "estimate [low, high]"."""
        return tuple(
            _plotting.value_text(s, ci)
            for s, ci in zip(self.statistics, self.intervals, strict=True)
        )

    @classmethod
    def from_result(
        cls,
        result: Any,
        /,
        *,
        names: tuple[str, str] | None = None,
        confidence_level: float = 0.95,
    ) -> ComparisonDisplay:
        """Build the display from a :class:`~concord.ComparisonResult` (``names``: the sides')."""
        func = "ComparisonDisplay.from_result"
        difference = _plotting.need(result, "difference", "a ComparisonResult", func)
        one, two = names if names is not None else ("first", "second")
        intervals = (
            result.first.confidence_interval(confidence_level),
            result.second.confidence_interval(confidence_level),
            result.confidence_interval(confidence_level),
        )
        stats = np.array(
            [result.first.statistic, result.second.statistic, difference], dtype=np.float64
        )
        return cls((one, two, f"{two} − {one}"), stats, intervals, float(confidence_level))

    def plot(self, ax: Axes | None = None, **style: Any) -> ComparisonDisplay:
        """Draw and return the display; ``style`` goes to the estimates' ``Axes.plot``."""
        self.figure_, self.ax_ = _plotting.axes(ax, (6.4, 2.8))
        _plotting.forest(self.ax_, self.names, self.statistics, self.intervals, self.texts, style)
        self.ax_.axhline(1.5, color="0.75", linewidth=0.8)  # the difference apart from the two
        level = f"{100 * self.confidence_level:g}%"
        self.ax_.set_xlabel(f"estimate and {level} confidence interval; difference second − first")
        return self


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
            xlabel="mean of the two ratings (x + y) / 2",
            ylabel="difference x − y",
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
            xlabel="x",
            ylabel="y",
        )
        if legend:
            self.ax_.legend(loc="best", fontsize="small")
        return self


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
        return cls(observed, tuple(result.labels), partial, statistic)

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
