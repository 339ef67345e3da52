"""Estimates with their intervals: the bootstrap distribution, the forest, a comparison."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from concord._inference.intervals import ConfidenceInterval
from concord._render import plotting as _plotting

if TYPE_CHECKING:
    from matplotlib.axes import Axes


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
