"""What :func:`concord.mean_kappa` returns: the Fisher-z mean of several kappas, a float too.

``MeanKappaResult`` is a ``float`` (the mean itself), so code that used the
bare float :func:`concord.mean_kappa` returned before keeps working
(``round(m, 4)``, ``m > 0.6``, ``json.dumps(m)``); it also carries the
kappas, their weights, the standard error of the mean and its interval.

The standard error takes the kappas as independent (disjoint sets of items),
as :class:`~concord.GroupedKappaResult` does: SE(z̄) = √(Σ w² SE(z)²) / Σ w
with SE(z) = SE(κ) / (1 − κ²), and SE(κ̄) = SE(z̄) (1 − κ̄²) by the delta
method (Hedges & Olkin 1985, ch. 6; Borenstein et al. 2009, ch. 11). Kappas
given as bare floats have no SE: then the SE and the interval are nan.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np

from concord._common.exact import fdot, fsum
from concord._common.jsonable import jsonable
from concord._inference.intervals import ConfidenceInterval, _level
from concord._results import interpret as _scales
from concord._results.kappa.grouped import mean_error
from concord._results.protocol import Reported, row
from concord._results.sentence import decimal, level


class MeanKappaResult(float, Reported):
    """The Fisher-z mean of several kappas: a float, with its SE and interval.

    Attributes
    ----------
    statistic : float
        κ̄ = tanh(Σ w_g artanh(κ_g) / Σ w_g), each κ clipped to ±0.999 first;
        the float value of the result itself.
    kappas : numpy.ndarray
        The kappas averaged, shape (g,).
    weights : numpy.ndarray
        Their weights, shape (g,): equal, given, or 1 / SE(z)².
    standard_errors : numpy.ndarray
        Each kappa's SE (nan for a kappa given as a bare number).
    weighting : str
        "equal", "given" or "inverse-variance".
    """

    kappas: np.ndarray
    weights: np.ndarray
    standard_errors: np.ndarray
    weighting: str

    def __new__(
        cls,
        statistic: float,
        kappas: np.ndarray,
        weights: np.ndarray,
        standard_errors: np.ndarray,
        weighting: str,
    ) -> MeanKappaResult:
        self = super().__new__(cls, statistic)
        for name, array in (("kappas", kappas), ("weights", weights)):
            array = np.array(array, dtype=np.float64)
            array.setflags(write=False)
            object.__setattr__(self, name, array)
        errors = np.array(standard_errors, dtype=np.float64)
        errors.setflags(write=False)
        object.__setattr__(self, "standard_errors", errors)
        object.__setattr__(self, "weighting", weighting)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"MeanKappaResult is frozen: cannot set {name!r}")

    def __reduce__(self) -> Any:
        return (
            MeanKappaResult,
            (float(self), self.kappas, self.weights, self.standard_errors, self.weighting),
        )

    def __repr__(self) -> str:
        return (
            f"MeanKappaResult(statistic={float(self):.6g}, kappas={self.kappas.size}, "
            f"weighting={self.weighting!r})"
        )

    @property
    def statistic(self) -> float:
        """The mean κ̄ (the float value of the result)."""
        return float(self)

    @property
    def name(self) -> str:
        return "Fisher-z mean of kappas"

    @property
    def standard_error(self) -> float:
        """SE(κ̄) = SE(z̄) (1 − κ̄²); nan if a kappa was given without its SE."""
        if not math.isfinite(self.statistic):
            return math.nan
        se_z = mean_error(self.kappas, self.weights, self.standard_errors)
        return se_z * (1 - self.statistic * self.statistic)

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Return tanh(z̄ ± q SE(z̄)), q the normal quantile; nan without the kappas' SEs.

        Examples
        --------
        >>> import concord
        >>> a = concord.cohen_kappa([1, 2, 3, 1, 2, 3, 1, 2], [1, 2, 3, 2, 2, 3, 1, 1])
        >>> b = concord.cohen_kappa([1, 2, 3] * 20, [1, 2, 3] * 19 + [1, 3, 2])
        >>> low, high = concord.mean_kappa([a, b]).confidence_interval()
        >>> round(low, 4), round(high, 4)
        (0.6402, 0.9465)
        """
        q = NormalDist().inv_cdf(0.5 + _level(confidence_level, "confidence_interval") / 2)
        if not math.isfinite(self.statistic):
            return ConfidenceInterval(math.nan, math.nan)
        z = math.atanh(max(-0.999, min(0.999, self.statistic)))
        se = mean_error(self.kappas, self.weights, self.standard_errors)
        return ConfidenceInterval(math.tanh(z - q * se), math.tanh(z + q * se))

    def interpret(self, scale: str | None = None) -> str:
        """Return the mean's verbal category: Landis & Koch (1977) by default."""
        chosen = scale or "landis-koch"
        return _scales.interpret(self.statistic, chosen, "MeanKappaResult.interpret")

    def summary(self, confidence_level: float = 0.95, *, digits: int = 2) -> str:
        """Return one sentence: the mean, its interval and how many kappas it averages."""
        low, high = self.confidence_interval(confidence_level)
        interval = (
            f" ({level(confidence_level)} CI {decimal(low, digits)} to {decimal(high, digits)}, "
            "Fisher's z)"
            if math.isfinite(low)
            else ""
        )
        return (
            f"The Fisher-z mean of {self.kappas.size} kappas ({self.weighting} weights) was "
            f"{decimal(self.statistic, digits)}{interval}."
        )

    def explain(self) -> str:
        """Return the computation: each kappa's z and weight, the mean z̄ and κ̄ = tanh(z̄)."""
        z = np.arctanh(np.clip(self.kappas, -0.999, 0.999))
        lines = [f"Fisher-z mean of {self.kappas.size} kappas, {self.weighting} weights:"]
        for i, (k, zi, w, se) in enumerate(
            zip(self.kappas, z, self.weights, self.standard_errors, strict=True), 1
        ):
            lines.append(f"  {i}: κ = {k:.6g}, z = artanh(κ) = {zi:.6g}, w = {w:.6g}, SE {se:.4g}")
        mean_z = fdot(self.weights, z) / fsum(self.weights)
        lines += [
            f"z̄ = Σ w z / Σ w = {mean_z:.6g}; κ̄ = tanh(z̄) = {self.statistic:.6g}"
            " (each κ clipped to ±0.999 first)",
            f"SE(κ̄) = SE(z̄)(1 − κ̄²) = {self.standard_error:.4g} (independent kappas)",
        ]
        return "\n".join(lines)

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """Return the mean, its SE and interval, and the kappas with their weights, JSON-ready."""
        low, high = self.confidence_interval(confidence_level)
        out: dict[str, Any] = jsonable(
            {
                "statistic": self.statistic,
                "standard_error": self.standard_error,
                "confidence_level": confidence_level,
                "ci_low": low,
                "ci_high": high,
                "weighting": self.weighting,
                "kappas": self.kappas,
                "weights": self.weights,
                "standard_errors": self.standard_errors,
            }
        )
        return out

    def _rows_(self) -> list[dict[str, Any]]:
        return [
            row(
                self.name,
                self.statistic,
                standard_error=self.standard_error,
                interval=self.confidence_interval(),
                n=int(self.kappas.size),
                weighting=self.weighting,
            )
        ]
