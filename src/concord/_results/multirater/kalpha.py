"""Alpha's own bootstrap on its result: ``confidence_interval(method="kalpha")``, ``q()``.

The algorithm is in :mod:`concord._inference.kalpha` (Hayes & Krippendorff
2007); this mixin reads the result's coincidences, distances and D_e.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, overload

import numpy as np

from concord._common.errors import check_option, param_error
from concord._common.options import ALPHA_INTERVAL_METHODS
from concord._inference import kalpha as _kalpha
from concord._inference.intervals import ConfidenceInterval, InferenceMixin, check_level


def _threshold(value: Any) -> bool:
    """Whether ``value`` is one number (a bool or a string is not)."""
    return isinstance(value, int | float | np.floating | np.integer) and not isinstance(
        value, bool | np.bool_
    )


def _thresholds(given: Any, func: str, alpha_min: Any) -> list[float]:
    """Return the thresholds as floats; a clear error for nan, text or anything not a number."""
    expected = "a finite number, or a sequence of them (the smallest acceptable alpha)"
    fix = "For Krippendorff's (2004) tentative threshold pass alpha_min=0.667."
    if isinstance(given, str | bytes) or not isinstance(given, Sequence | np.ndarray):
        param_error(func, "alpha_min", expected, alpha_min, exc=TypeError, fix=fix)
    for t in given:
        if not _threshold(t):
            param_error(func, "alpha_min", expected, t, exc=TypeError, fix=fix)
        if not math.isfinite(t):
            param_error(func, "alpha_min", expected, t, fix=fix)
    return [float(t) for t in given]


class KalphaMixin(InferenceMixin):
    """Adds ``method="kalpha"`` to ``confidence_interval()``, and ``q()``."""

    statistic: float
    n_raters: int | None
    expected_disagreement: float
    coincidences: np.ndarray | None
    distances: np.ndarray | None

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        method: str | None = None,
        n_resamples: int = 9999,
        rng: Any = None,
    ) -> ConfidenceInterval:
        """Return a confidence interval for alpha.

        Parameters
        ----------
        confidence_level : float
            In (0, 1); default 0.95.
        method : str, optional
            ``"wald"``, ``"t"``, ``"fisher-z"``, ``"bootstrap-percentile"`` or
            ``"bootstrap-bca"`` as for every coefficient (the bootstrap
            methods resample items), or ``"kalpha"``: Hayes & Krippendorff's
            (2007) bootstrap, which resamples pairable values from the
            coincidence matrix with D_e held fixed, and takes KALPHA's order
            statistics.
        n_resamples : int
            Bootstrap resamples (bootstrap methods and ``"kalpha"``).
        rng : None, int or numpy.random.Generator
            Seed or generator for the bootstrap.

        Returns
        -------
        ConfidenceInterval
            ``(low, high)``.

        Examples
        --------
        The first six units of Hayes & Krippendorff's (2007) data (all 40: α = 0.7598):

        >>> import concord
        >>> data = [[1, 1, 2, None, 2], [1, 1, 0, 1, None], [2, 3, 3, 3, None],
        ...         [None, 0, 0, None, 0], [0, 0, 0, None, 0], [0, 0, 0, None, 0]]
        >>> r = concord.krippendorff_alpha(data, level="ordinal")
        >>> low, high = r.confidence_interval(method="kalpha", rng=0)
        >>> bool(low <= r.statistic <= high)
        True
        """
        func = f"{type(self).__name__}.confidence_interval"
        if method is not None:
            check_option(func, "method", method, ALPHA_INTERVAL_METHODS)
        if method != "kalpha":
            return super().confidence_interval(
                confidence_level, method=method, n_resamples=n_resamples, rng=rng
            )
        level = check_level(confidence_level, func)
        values = self._kalpha(n_resamples, rng, func)
        if values is None:
            return ConfidenceInterval(math.nan, math.nan)
        return ConfidenceInterval(*_kalpha.interval(values, level))

    @overload
    def q(self, alpha_min: float, *, n_resamples: int = ..., rng: Any = ...) -> float: ...

    @overload
    def q(
        self, alpha_min: Sequence[float] = ..., *, n_resamples: int = ..., rng: Any = ...
    ) -> dict[float, float]: ...

    def q(
        self,
        alpha_min: float | Sequence[float] = _kalpha.THRESHOLDS,
        *,
        n_resamples: int = 9999,
        rng: Any = None,
    ) -> float | dict[float, float]:
        """Return q, the probability that alpha is below ``alpha_min`` (Hayes & Krippendorff 2007).

        The share of KALPHA bootstrap replicates (see ``confidence_interval``
        with ``method="kalpha"``) below the threshold: the probability of
        failing to reach the smallest acceptable alpha.

        Parameters
        ----------
        alpha_min : float or sequence of float
            The threshold, or several; by default KALPHA's .9, .8, .7, .667,
            .6 and .5 (Krippendorff 2004 relies on α ≥ .800 and draws
            tentative conclusions from α ≥ .667).
        n_resamples : int
            Bootstrap replicates.
        rng : None, int or numpy.random.Generator
            Seed or generator; one seed gives the same replicates as
            ``confidence_interval(method="kalpha", rng=seed)``.

        Returns
        -------
        float or dict
            q for one threshold; threshold → q for several.
        """
        func = f"{type(self).__name__}.q"
        several = not _threshold(alpha_min)
        thresholds = _thresholds(alpha_min if several else [alpha_min], func, alpha_min)
        values = self._kalpha(n_resamples, rng, func)
        out = {t: math.nan if values is None else _kalpha.below(values, t) for t in thresholds}
        return out if several else out[thresholds[0]]

    def _kalpha(self, n_resamples: int, rng: Any, func: str) -> np.ndarray | None:
        """Return the KALPHA replicates; None where alpha is undefined."""
        if not isinstance(n_resamples, int | np.integer) or n_resamples < 2:
            param_error(func, "n_resamples", "an integer of at least 2", n_resamples)
        if self.coincidences is None or self.distances is None or self.n_raters is None:
            param_error(
                func,
                "method",
                "another interval method on this result",
                "'kalpha' on a result without its coincidence matrix or number of raters",
                raw=True,
                fix="KALPHA draws pairs from the coincidence matrix and needs the number "
                "of observers: pass the ratings as an items × raters matrix with few "
                "distinct values, or use method='bootstrap-bca'.",
            )
        d_e = self.expected_disagreement
        if not (math.isfinite(self.statistic) and math.isfinite(d_e) and d_e > 0):
            return None
        if self.statistic == 1:
            # no disagreement to resample: every drawn pair agrees (Stata's kalpha skips
            # the bootstrap here; KALPHA's correction would turn some draws into 0)
            return np.ones(int(n_resamples))
        generator = np.random.default_rng(rng)
        return _kalpha.replicates(
            self.coincidences, self.distances, d_e, self.n_raters, int(n_resamples), generator
        )
