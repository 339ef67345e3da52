"""Frozen results of Cronbach's alpha and of the overall concordance correlation."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from concord._common.extras import require
from concord._common.text import number
from concord._inference.intervals import ConfidenceInterval, check_level
from concord._results.reported import Reported, record
from concord._results.sentence import decimal


def _ci(interval: ConfidenceInterval, level: float) -> str:
    return f"{level:.0%} CI {decimal(interval.low)} to {decimal(interval.high)}"


@dataclass(frozen=True, eq=False, repr=False)
class CronbachResult(Reported):
    """Cronbach's alpha of k raters' scores and its Feldt interval.

    Attributes
    ----------
    statistic : float
        α; nan when the total scores do not vary.
    confidence_level : float
        The level of ``interval``.
    n_items, n_raters : int
        n (rows used) and k.
    nan_policy : str
        "pairwise" or "listwise".
    mean_variance, mean_covariance : float
        v̄ and c̄ of the covariance matrix: α = k c̄ / (v̄ + (k − 1) c̄).
    """

    statistic: float
    confidence_level: float
    n_items: int
    n_raters: int
    nan_policy: str
    mean_variance: float
    mean_covariance: float

    def __repr__(self) -> str:
        low, high = self.interval
        return (
            f"CronbachResult(statistic={self.statistic:.6g}, interval=({low:.4g}, {high:.4g}), "
            f"n_items={self.n_items}, n_raters={self.n_raters})"
        )

    @property
    def interval(self) -> ConfidenceInterval:
        """Feldt's interval at ``confidence_level``."""
        return self.confidence_interval()

    def confidence_interval(self, confidence_level: float | None = None) -> ConfidenceInterval:
        """Return Feldt's (1965) interval: 1 − (1 − α) F quantiles on n − 1, (n − 1)(k − 1) df."""
        f = require("scipy.stats", "stats", "cronbach_alpha's interval").f

        level = self.confidence_level if confidence_level is None else confidence_level
        level = check_level(level, "CronbachResult.confidence_interval")
        if not math.isfinite(self.statistic):
            return ConfidenceInterval(math.nan, math.nan)
        df1 = self.n_items - 1
        df2 = df1 * (self.n_raters - 1)
        tail = (1 - level) / 2
        low = 1 - (1 - self.statistic) * float(f.isf(tail, df1, df2))
        high = 1 - (1 - self.statistic) * float(f.isf(1 - tail, df1, df2))
        return ConfidenceInterval(low, high)

    def _record(self, confidence_level: float) -> dict[str, Any]:
        return record(
            "Cronbach's alpha",
            self.statistic,
            self.n_items,
            interval=self.confidence_interval(confidence_level),
            confidence_level=confidence_level,
            ci_method="feldt",
            n_raters=self.n_raters,
            nan_policy=self.nan_policy,
        )

    def summary(self) -> str:
        """Return one sentence: α, its interval and the sample."""
        return (
            f"Cronbach's α was {decimal(self.statistic)} "
            f"({_ci(self.interval, self.confidence_level)}, Feldt; n = {self.n_items} items, "
            f"k = {self.n_raters} raters)."
        )

    def explain(self) -> str:
        """Return the computation: the mean variance and covariance, α and Feldt's interval."""
        low, high = self.interval
        k = self.n_raters
        return "\n".join(
            [
                f"Cronbach's alpha of k = {k} raters on n = {self.n_items} items "
                f"({self.nan_policy} covariances, n − 1 denominators):",
                f"  mean variance v̄ = {number(self.mean_variance)}, mean covariance "
                f"c̄ = {number(self.mean_covariance)}",
                f"  α = k c̄ / (v̄ + (k − 1) c̄) = {number(self.statistic)}",
                f"  {self.confidence_level:.0%} CI (Feldt, F on {self.n_items - 1} and "
                f"{(self.n_items - 1) * (k - 1)} df): [{number(low)}, {number(high)}]",
            ]
        )


@dataclass(frozen=True, eq=False, repr=False)
class OverallConcordanceResult(Reported):
    """The overall concordance correlation of many raters, its precision and accuracy.

    Attributes
    ----------
    statistic : float
        The OCCC ρ_c^o (Barnhart, Haber & Song 2002).
    precision, accuracy : float
        The overall precision and accuracy (epiR's ``oprec``, ``oaccu``):
        statistic = precision × accuracy.
    standard_error : float
        The jackknife SE of the OCCC.
    z_standard_error : float
        The jackknife SE of artanh(OCCC), from which the interval comes.
    confidence_level : float
        The level of ``interval``.
    n_items, n_raters : int
        Items and raters.
    """

    statistic: float
    precision: float
    accuracy: float
    standard_error: float
    z_standard_error: float
    confidence_level: float
    n_items: int
    n_raters: int

    def __repr__(self) -> str:
        return (
            f"OverallConcordanceResult(statistic={self.statistic:.6g}, "
            f"precision={self.precision:.4g}, accuracy={self.accuracy:.4g}, "
            f"n_items={self.n_items}, n_raters={self.n_raters})"
        )

    @property
    def interval(self) -> ConfidenceInterval:
        """The jackknife Fisher-z interval at ``confidence_level``."""
        return self.confidence_interval()

    def confidence_interval(self, confidence_level: float | None = None) -> ConfidenceInterval:
        """Return tanh(artanh ρ ± z_{1−γ/2} SE_J): the jackknife over items on Fisher's z."""
        level = self.confidence_level if confidence_level is None else confidence_level
        level = check_level(level, "OverallConcordanceResult.confidence_interval")
        if not (math.isfinite(self.statistic) and math.isfinite(self.z_standard_error)):
            return ConfidenceInterval(math.nan, math.nan)
        z = math.atanh(self.statistic) if abs(self.statistic) < 1 else self.statistic * math.inf
        half = NormalDist().inv_cdf(0.5 + level / 2) * self.z_standard_error
        return ConfidenceInterval(math.tanh(z - half), math.tanh(z + half))

    def _record(self, confidence_level: float) -> dict[str, Any]:
        return record(
            "overall concordance correlation",
            self.statistic,
            self.n_items,
            standard_error=self.standard_error,
            interval=self.confidence_interval(confidence_level),
            confidence_level=confidence_level,
            ci_method="jackknife-fisher-z",
            n_raters=self.n_raters,
            precision=self.precision,
            accuracy=self.accuracy,
        )

    def summary(self) -> str:
        """Return one sentence: the OCCC, its interval, its precision and accuracy."""
        return (
            f"The overall concordance correlation of {self.n_raters} raters on {self.n_items} "
            f"items was {decimal(self.statistic)} ({_ci(self.interval, self.confidence_level)}, "
            f"jackknife); precision {decimal(self.precision)}, accuracy {decimal(self.accuracy)}."
        )

    def explain(self) -> str:
        """Return the formula, its value, its parts and the interval."""
        low, high = self.interval
        return "\n".join(
            [
                f"Overall concordance correlation of k = {self.n_raters} raters on "
                f"n = {self.n_items} items (Barnhart, Haber & Song 2002; n − 1 moments, as epiR):",
                "  ξ_jk = s_j² + s_k² + (x̄_j − x̄_k)²;  OCCC = Σ 2 s_jk / Σ ξ_jk "
                f"= {number(self.statistic)}",
                f"  = precision Σ s_jk / Σ s_j s_k {number(self.precision)} × accuracy "
                f"Σ 2 s_j s_k / Σ ξ_jk {number(self.accuracy)}",
                f"  SE (jackknife over items) = {number(self.standard_error)}; "
                f"{self.confidence_level:.0%} CI tanh(artanh ρ ± z SE_z) = "
                f"[{number(low)}, {number(high)}]",
            ]
        )
