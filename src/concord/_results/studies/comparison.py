"""The results of comparing agreement coefficients: a difference, and a test of equality."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from concord._inference.intervals import (
    ConfidenceInterval,
    Deferred,
    Inference,
    _analytic,
    _level,
)
from concord._results.studies.comparison_text import ComparisonText, HomogeneityText

BOOTSTRAP = ("bootstrap-percentile", "bootstrap-bca")


@dataclass(frozen=True, repr=False)
class ComparisonResult(ComparisonText):
    """The difference of two agreement coefficients, second − first, and its uncertainty.

    Attributes
    ----------
    first, second : result
        The two full results, as the coefficient function returns them.
    difference : float
        ``second.statistic − first.statistic``.
    statistic : float
        The headline: the difference, as every result's ``statistic`` is its
        headline number. (Before, ``statistic`` was t; t is ``t_statistic``.)
    standard_error : float
        SE of the difference. Paired: from the per-item linearised terms of
        both coefficients, item by item (Gwet 2016), so it carries their
        covariance; unpaired: √(SE₁² + SE₂²).
    t_statistic : float
        t = difference / standard_error.
    df : float
        Degrees of freedom of t: n − 1 paired (as R pairedCAC);
        Welch–Satterthwaite's from the two SEs unpaired.
    pvalue : float
        Two-sided p-value of t (Student's t with ``df``).
    paired : bool
        Whether both sides rated the same items, row for row.
    confidence_level : float
        The default level of :meth:`confidence_interval`.
    method : str
        The default interval method: "t", "wald", "bootstrap-percentile" or
        "bootstrap-bca".
    """

    first: Any
    second: Any
    difference: float
    standard_error: float
    t_statistic: float
    df: float
    pvalue: float
    paired: bool
    confidence_level: float = 0.95
    method: str = "t"
    _n_resamples: int = field(default=9999, repr=False)
    _rng: Any = field(default=None, repr=False)
    _inference: Deferred | None = field(default=None, repr=False, compare=False)

    def confidence_interval(
        self,
        confidence_level: float | None = None,
        *,
        method: str | None = None,
        n_resamples: int | None = None,
        rng: Any = None,
    ) -> ConfidenceInterval:
        """Confidence interval of the difference.

        Parameters
        ----------
        confidence_level : float, optional
            Default: the result's ``confidence_level``.
        method : {"t", "wald", "bootstrap-percentile", "bootstrap-bca"}, optional
            "t": Student's t on ``df``; "wald": normal; the bootstrap methods
            redraw the items (paired: jointly, one multinomial draw over the
            joint patterns of both sides; unpaired: each sample on its own)
            and recompute both coefficients. Default: the result's ``method``.
        n_resamples, rng : optional
            For the bootstrap; default: the values given to :func:`concord.compare`.
            The same seed gives the same interval.

        Returns
        -------
        ConfidenceInterval
        """
        func = "confidence_interval"
        level = _level(
            self.confidence_level if confidence_level is None else confidence_level, func
        )
        chosen = check_method(self.method if method is None else method, func)
        if chosen in BOOTSTRAP:
            return self._inferred().interval(
                level,
                chosen,
                self._n_resamples if n_resamples is None else n_resamples,
                self._rng if rng is None else rng,
                func,
            )
        df = self.df if math.isfinite(self.df) else 0
        if self.standard_error == 0:  # identical sides: the interval is the point
            return ConfidenceInterval(self.difference, self.difference)
        low, high = _analytic(chosen, self.difference, self.standard_error, df, level)  # type: ignore[arg-type]
        return ConfidenceInterval(low, high)

    def _inferred(self) -> Inference:
        inference = self._inference
        if inference is None:
            raise NotImplementedError("this ComparisonResult was built without a bootstrap")
        if not isinstance(inference, Inference):
            inference = inference()
            object.__setattr__(self, "_inference", inference)  # cache: the field itself
        return inference

    def explain(self) -> str:
        """Say in words what was compared, the difference, its interval and its test."""
        name = getattr(self.first, "name", "coefficient")
        low, high = self.confidence_interval()
        how = (
            "paired (the same items, row for row; the SE uses the covariance of the "
            "per-item linearised terms, Gwet 2016)"
            if self.paired
            else "unpaired (independent samples; the SEs combine without covariance)"
        )
        return "\n".join(
            [
                f"{name}: first = {self.first.statistic:.4f}, "
                f"second = {self.second.statistic:.4f}.",
                f"Difference (second − first) = {self.difference:.4f}, "
                f"SE {self.standard_error:.4f}, {how}.",
                f"{self.confidence_level:.0%} {self.method} interval [{low:.4f}, {high:.4f}]; "
                f"t = {self.t_statistic:.3f} on {self.df:.1f} df, "
                f"two-sided p = {self.pvalue:.4g}.",
            ]
        )

    def __repr__(self) -> str:
        return (
            f"ComparisonResult(difference={self.difference:.4f}, "
            f"standard_error={self.standard_error:.4f}, pvalue={self.pvalue:.4g}, "
            f"paired={self.paired})"
        )


def check_method(method: str, func: str) -> str:
    """Return the interval method of a difference: "t", "wald" or a bootstrap method."""
    if method in ("t", "wald", *BOOTSTRAP):
        return method
    from concord._common.errors import param_error

    param_error(func, "method", "'t', 'wald', 'bootstrap-percentile' or 'bootstrap-bca'", method)


@dataclass(frozen=True, repr=False)
class HomogeneityResult(HomogeneityText):
    """The χ² test that several independent coefficients are equal.

    Attributes
    ----------
    results : tuple
        The coefficients' results, in the order given.
    pooled : float
        Their inverse-variance weighted mean, Σ w_g κ_g / Σ w_g, w_g = 1 / SE_g².
    statistic : float
        χ² = Σ w_g (κ_g − pooled)² (Fleiss, Levin & Paik 2003, §18.1).
    df : int
        Number of coefficients − 1.
    pvalue : float
        P(χ²_df > statistic).
    shares : tuple of float
        Each coefficient's share of the statistic, w_g (κ_g − pooled)² / χ².
    """

    results: tuple[Any, ...]
    pooled: float
    statistic: float
    df: int
    pvalue: float
    shares: tuple[float, ...]

    def explain(self) -> str:
        """Say in words what the test compared and what it found."""
        lines = [
            f"Homogeneity of {len(self.results)} independent coefficients "
            f"(Fleiss, Levin & Paik 2003, §18.1): pooled = {self.pooled:.4f}, "
            f"χ² = {self.statistic:.3f} on {self.df} df, p = {self.pvalue:.4g}."
        ]
        for i, (r, share) in enumerate(zip(self.results, self.shares, strict=True), 1):
            lines.append(
                f"  {i}: {r.statistic:.4f} (SE {r.standard_error:.4f}), {share:.1%} of χ²"
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"HomogeneityResult(statistic={self.statistic:.4f}, df={self.df}, "
            f"pvalue={self.pvalue:.4g})"
        )
