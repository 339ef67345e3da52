"""The results of continuous ratings by two raters: Lin's concordance and Bland–Altman."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from concord._common.jsonable import jsonable
from concord._common.text import number
from concord._inference.intervals import ConfidenceInterval, Deferred, InferenceMixin
from concord._results.continuous.continuous_text import BlandAltmanText, CccText
from concord._results.deprecation import deprecated
from concord._results.spec import Spec


class _AtLevel(InferenceMixin):
    """``confidence_interval()`` at the level the result was asked for, by default."""

    confidence_level: float

    def confidence_interval(
        self,
        confidence_level: float | None = None,
        *,
        method: str | None = None,
        n_resamples: int = 9999,
        rng: Any = None,
    ) -> ConfidenceInterval:
        """Return a confidence interval of the statistic (see :class:`InferenceMixin`).

        ``confidence_level`` defaults to the one the function was called with;
        ``method`` to the coefficient's own ("fisher-z" for ρ_c, "t" for the
        bias); "bootstrap-percentile" and "bootstrap-bca" resample the pairs.
        """
        level = self.confidence_level if confidence_level is None else confidence_level
        return super().confidence_interval(level, method=method, n_resamples=n_resamples, rng=rng)

    def to_dict(self) -> dict[str, Any]:
        """Return the fields (not the private ones) as JSON-ready values (nan as None)."""
        out = {k: v for k, v in asdict(self).items() if not k.startswith("_")}  # type: ignore[call-overload]
        out["standard_error"] = self.standard_error
        out["names"] = list(out["names"])
        return dict(jsonable(out))

    def __float__(self) -> float:
        return float(self.statistic)  # type: ignore[attr-defined]


@dataclass(frozen=True, eq=False, repr=False)
class CccResult(CccText, _AtLevel):
    """Lin's concordance correlation coefficient ρ_c of two raters, with its parts.

    Attributes
    ----------
    statistic : float
        ρ_c = 2 s_xy / (s_x² + s_y² + (x̄ − ȳ)²), population (1/n) moments.
    n : int
        The number of pairs.
    confidence_level : float
        The level of ``interval`` and of ``confidence_interval()``'s default.
    interval : ConfidenceInterval
        Lin's interval: Fisher's z-transform with Lin's (1989, 2000) variance.
    precision : float
        Pearson's r: how far the points lie from their best-fit line.
    accuracy : float
        C_b = ρ_c / r: how far that line lies from the identity.
    scale_shift : float
        v = s_x / s_y.
    location_shift : float
        u = (x̄ − ȳ) / √(s_x s_y).
    mean_x, mean_y, var_x, var_y, covariance : float
        The moments ρ_c is computed from (variances and covariance over n).
    standard_error : float
        The SE of ρ_c from the delta method: σ_z (1 − ρ_c²).
    """

    statistic: float
    n: int
    confidence_level: float
    interval: ConfidenceInterval
    precision: float
    accuracy: float
    scale_shift: float
    location_shift: float
    mean_x: float
    mean_y: float
    var_x: float
    var_y: float
    covariance: float
    coefficient: str = "concordance_correlation"
    names: tuple[str, str] = ("x", "y")
    _inference: Deferred | None = field(default=None, repr=False)
    _spec: Spec | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        return f"CccResult(statistic={self.statistic:.6g}, n={self.n})"

    @property
    def name(self) -> str:
        return "Lin's concordance correlation"

    def explain(self) -> str:
        """Return the computation step by step: the moments, ρ_c, its parts and its interval."""
        low, high = self.interval
        pct = f"{100 * self.confidence_level:g}%"
        return "\n".join(
            [
                f"Lin's concordance correlation of {self.n} pairs (Lin 1989):",
                f"  means x̄ = {number(self.mean_x)}, ȳ = {number(self.mean_y)}; variances (1/n) "
                f"s_x² = {number(self.var_x)}, s_y² = {number(self.var_y)}; "
                f"covariance s_xy = {number(self.covariance)}",
                f"  ρ_c = 2 s_xy / (s_x² + s_y² + (x̄ − ȳ)²) = {number(self.statistic)}",
                f"  = precision r {number(self.precision)} × accuracy C_b "
                f"{number(self.accuracy)} (scale shift v = {number(self.scale_shift)}, "
                f"location shift u = {number(self.location_shift)})",
                f"  SE = {number(self.standard_error)}, {pct} CI [{number(low)}, {number(high)}] "
                "(Fisher z, Lin's variance)",
                "  On integer scores, ρ_c is the quadratic weighted kappa with value-spaced "
                "weights (x − y)², since both are 1 − Σ(x − y)² / (expected Σ(x − y)² "
                "under independence) with the same n-denominators.",
            ]
        )


@dataclass(frozen=True, eq=False, repr=False)
class BlandAltmanResult(BlandAltmanText, _AtLevel):
    """Bland–Altman limits of agreement of two raters (d = x − y).

    Attributes
    ----------
    statistic, bias : float
        The mean difference d̄; ``statistic`` is what ``confidence_interval()``
        and the bootstrap are about.
    sd : float
        The SD s of the differences (n − 1 denominator).
    lower_limit, upper_limit : float
        d̄ ∓ z s, with z the normal quantile of ``limits``.
    n : int
        The number of pairs.
    confidence_level : float
        The level of the intervals.
    coverage : float
        The share of differences the limits of agreement hold (0.95); the
        function's ``limits=`` argument. ``result.limits`` is its old,
        deprecated name (it was not the limits: those are ``lower_limit``
        and ``upper_limit``).
    bias_interval : ConfidenceInterval
        d̄ ± t_{n−1} s / √n.
    lower_interval, upper_interval : ConfidenceInterval
        The exact intervals of the limits (Carkeet 2015, non-central t).
    lower_interval_approximate, upper_interval_approximate : ConfidenceInterval
        Bland & Altman's (1999) approximate ones.
    proportional : bool
        Whether the differences were regressed on the means.
    slope, intercept, slope_se, slope_pvalue, residual_sd : float
        That regression, d = intercept + slope · m (nan unless ``proportional``).
    scale : str
        "difference", "ratio" (d = ln x − ln y) or "percent" (d = 100 (x − y) / mean).
    n_subjects : int
        The subjects of repeated measurements (0 without ``subject``).
    sd_between, sd_within : float
        With ``subject``: σ_b and σ_w, where sd = √(σ_b² + σ_w²) (Bland & Altman 2007).
        When the true value is constant, σ_b is the SD of the subjects' mean
        differences and σ_w² = (1 − 1/m_x) s²_xw + (1 − 1/m_y) s²_yw.
    true_value : str
        With ``subject``: "varies" (paired replicates) or "constant" (Bland & Altman 2007).
    """

    statistic: float
    bias: float
    sd: float
    lower_limit: float
    upper_limit: float
    n: int
    confidence_level: float
    coverage: float
    bias_interval: ConfidenceInterval
    lower_interval: ConfidenceInterval
    upper_interval: ConfidenceInterval
    lower_interval_approximate: ConfidenceInterval
    upper_interval_approximate: ConfidenceInterval
    proportional: bool = False
    slope: float = math.nan
    intercept: float = math.nan
    slope_se: float = math.nan
    slope_pvalue: float = math.nan
    residual_sd: float = math.nan
    scale: str = "difference"
    n_subjects: int = 0
    sd_between: float = math.nan
    sd_within: float = math.nan
    true_value: str = "varies"
    coefficient: str = "bland_altman"
    names: tuple[str, str] = ("x", "y")
    _inference: Deferred | None = field(default=None, repr=False)
    _spec: Spec | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        return (
            f"BlandAltmanResult(bias={self.bias:.6g}, sd={self.sd:.6g}, "
            f"lower_limit={self.lower_limit:.6g}, upper_limit={self.upper_limit:.6g}, "
            f"coverage={self.coverage:g}, n={self.n})"
        )

    @property
    def limits(self) -> float:
        """Deprecated: the coverage of the limits of agreement, now ``coverage``."""
        deprecated("limits", "coverage", "BlandAltmanResult")
        return self.coverage

    @property
    def name(self) -> str:
        return "Bland–Altman limits of agreement"

    @property
    def z(self) -> float:
        """The multiple of s at which the limits lie."""
        return (self.upper_limit - self.bias) / self.sd if self.sd > 0 else math.nan

    def limits_at(self, mean: Any) -> tuple[np.ndarray, np.ndarray]:
        """Return the limits at the given means: constant, or from the regression.

        With ``proportional=True``, intercept + slope · m ∓ z · residual SD
        (Bland & Altman 1999, §3.2).
        """
        m = np.asarray(mean, dtype=np.float64)
        if not self.proportional:
            return np.full(m.shape, self.lower_limit), np.full(m.shape, self.upper_limit)
        centre = self.intercept + self.slope * m
        half = self._z() * self.residual_sd
        return centre - half, centre + half

    @property
    def ratio_bias(self) -> float:
        """On the ratio scale, exp(bias): the geometric mean of x / y; else nan."""
        return math.exp(self.bias) if self.scale == "ratio" else math.nan

    @property
    def ratio_limits(self) -> tuple[float, float]:
        """On the ratio scale, the limits of agreement of x / y, exp(d̄ ∓ z s); else nan."""
        if self.scale != "ratio":
            return (math.nan, math.nan)
        return (math.exp(self.lower_limit), math.exp(self.upper_limit))

    def _z(self) -> float:
        from statistics import NormalDist

        return NormalDist().inv_cdf((1 + self.coverage) / 2)

    def explain(self) -> str:
        """Return the bias, the SD, the limits and their intervals, step by step."""
        pct = f"{100 * self.confidence_level:g}%"
        z = number(self._z())

        def ci(c: ConfidenceInterval) -> str:
            return f"[{number(c.low)}, {number(c.high)}]"

        lines = [
            f"Bland–Altman agreement of {self.n} pairs, d = {self.difference} "
            "(Bland & Altman 1986):",
            f"  bias d̄ = {number(self.bias)}, {pct} CI {ci(self.bias_interval)} (t, n − 1 df)",
            f"  SD of the differences s = {number(self.sd)}",
            f"  {100 * self.coverage:g}% limits of agreement d̄ ∓ {z} s: "
            f"{number(self.lower_limit)} to {number(self.upper_limit)}",
            f"  {pct} CI of the lower limit {ci(self.lower_interval)} exact (Carkeet 2015), "
            f"{ci(self.lower_interval_approximate)} approximate (Bland & Altman 1999)",
            f"  {pct} CI of the upper limit {ci(self.upper_interval)} exact, "
            f"{ci(self.upper_interval_approximate)} approximate",
        ]
        from concord._results.continuous.bland_altman_text import extended

        lines = extended(self, lines)
        if self.proportional:
            lines.append(
                f"  d on the mean m: d = {number(self.intercept)} + {number(self.slope)} m "
                f"(slope SE {number(self.slope_se)}, p = {number(self.slope_pvalue)}); "
                f"limits ∓ {z} × {number(self.residual_sd)} around that line"
            )
        return "\n".join(lines)
