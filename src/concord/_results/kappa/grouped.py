"""One kappa per group, their Fisher-z mean, and the mean's standard error and interval.

Fisher's (1921) z = artanh(κ) is averaged with weights w_g:
z̄ = Σ w_g z_g / Σ w_g and κ̄ = tanh(z̄). The groups are disjoint sets of
items, so their kappas are independent and Var(z̄) = Σ w_g² Var(z_g) / (Σ w_g)²,
with Var(z_g) = SE_g² / (1 − κ_g²)² by the delta method, as the "fisher-z"
interval of every result takes it. With inverse-variance weights
w_g = 1 / Var(z_g) this is 1 / Σ w_g, the fixed-effect mean of the
meta-analysis literature (Hedges & Olkin 1985, ch. 6; Borenstein et al. 2009,
ch. 11), and the mean with the smallest variance.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np

from concord._common.jsonable import jsonable
from concord._inference.intervals import ConfidenceInterval, _level
from concord._results import tidy as _tidy
from concord._results.html import GroupedHTML
from concord._results.kappa.kappa import KappaResult
from concord._results.protocol import tidy_frame
from concord._results.sentence import GroupedSentence
from concord._results.tables_text import GroupedText

# artanh(±1) is infinite: a perfect kappa counts as ±0.999, as Hamner's metrics package does
CLIP = 0.999


def fisher_z(kappas: np.ndarray) -> np.ndarray:
    """Return artanh of the kappas, clipped to [−0.999, 0.999] first."""
    z: np.ndarray = np.arctanh(np.clip(kappas, -CLIP, CLIP))
    return z


def z_errors(kappas: np.ndarray, errors: np.ndarray) -> np.ndarray:
    """Return SE(z) = SE(κ) / (1 − κ²), the delta method at the clipped κ."""
    clipped = np.clip(kappas, -CLIP, CLIP)
    out: np.ndarray = errors / (1 - clipped * clipped)
    return out


def mean_error(kappas: np.ndarray, weights: np.ndarray, errors: np.ndarray) -> float:
    """Return SE(z̄) = sqrt(Σ w² SE(z)²) / Σ w for independent groups."""
    se_z = z_errors(kappas, errors)
    return float(np.sqrt(np.sum(weights * weights * se_z * se_z)) / np.sum(weights))


@dataclass(frozen=True, eq=False, repr=False)
class GroupedKappaResult(GroupedSentence, GroupedHTML, GroupedText):
    """One kappa per group and their Fisher-z mean.

    Attributes
    ----------
    statistic : float
        The Fisher-z mean of the group kappas (:func:`mean_kappa`).
    results : dict
        Group key → :class:`KappaResult`, in sorted group order.
    group_weights : dict
        Group key → the weight of that group in the mean.
    by : str
        The grouping column.

    Methods
    -------
    confidence_interval(confidence_level=0.95)
        The Fisher-z interval of the mean, tanh(z̄ ± q·SE(z̄)).
    group_intervals(confidence_level=0.95, *, method=None, rng=None)
        Group key → each group's own interval.
    """

    statistic: float
    results: Mapping[Any, KappaResult]
    group_weights: Mapping[Any, float]
    by: str

    def __float__(self) -> float:
        return float(self.statistic)

    def __repr__(self) -> str:
        return (
            f"GroupedKappaResult(statistic={self.statistic:.6g}, by={self.by!r}, "
            f"groups={len(self.results)})"
        )

    @property
    def group_standard_errors(self) -> dict[Any, float]:
        """Group key → the standard error of that group's kappa."""
        return {key: r.standard_error for key, r in self.results.items()}

    def group_intervals(
        self, confidence_level: float = 0.95, *, method: str | None = None, rng: Any = None
    ) -> dict[Any, ConfidenceInterval]:
        """Return group key → that group's :meth:`KappaResult.confidence_interval`."""
        return {
            key: r.confidence_interval(confidence_level, method=method, rng=rng)
            for key, r in self.results.items()
        }

    def _z_error(self) -> float:
        kappas = np.array([r.statistic for r in self.results.values()])
        errors = np.array(list(self.group_standard_errors.values()))
        return mean_error(kappas, np.array(list(self.group_weights.values())), errors)

    @property
    def standard_error(self) -> float:
        """The standard error of the mean: SE(z̄) · (1 − κ̄²), the delta method back from z."""
        return self._z_error() * (1 - self.statistic * self.statistic)

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Return the Fisher-z interval of the mean: tanh(z̄ ± q·SE(z̄)).

        SE(z̄) comes from each group's SE (module docstring); q is the normal
        quantile. It keeps the interval inside (−1, 1).

        Examples
        --------
        >>> import pandas as pd, concord
        >>> df = pd.DataFrame({"set": [1] * 6 + [2] * 6,
        ...                    "a": [1, 2, 3, 1, 2, 3, 1, 2, 3, 3, 2, 1],
        ...                    "b": [1, 2, 3, 1, 3, 3, 1, 2, 2, 3, 2, 1]})
        >>> g = concord.grouped_kappa(df, by="set", rater1="a", rater2="b")
        >>> low, high = g.confidence_interval()
        >>> bool(low < g.statistic < high)
        True
        """
        level = _level(confidence_level, "GroupedKappaResult.confidence_interval")
        if not math.isfinite(self.statistic):
            return ConfidenceInterval(float("nan"), float("nan"))
        q = NormalDist().inv_cdf(0.5 + level / 2)
        z, se = math.atanh(self.statistic), self._z_error()
        return ConfidenceInterval(math.tanh(z - q * se), math.tanh(z + q * se))

    def _record(self, confidence_level: float, method: str | None, rng: Any) -> dict[str, Any]:
        low, high = self.confidence_interval(confidence_level)
        groups = [
            {
                "group": key,
                "weight": self.group_weights[key],
                "n": r.n,
                **_tidy.summary(r, confidence_level, method, rng),
            }
            for key, r in self.results.items()
        ]
        return {
            "by": self.by,
            "n_groups": len(self.results),
            "statistic": self.statistic,
            "standard_error": self.standard_error,
            "confidence_level": confidence_level,
            "ci_method": "fisher-z",
            "ci_low": low,
            "ci_high": high,
            "groups": groups,
        }

    def to_dict(
        self, confidence_level: float = 0.95, *, method: str | None = None, rng: Any = None
    ) -> dict[str, Any]:
        """Return the mean, its SE and interval, and each group's row, JSON-ready.

        ``groups`` holds one record per group: its key, weight and ``n`` and
        the keys of :meth:`KappaResult.to_dict`'s summary (``method`` and
        ``rng`` choose the groups' intervals); ``pandas.DataFrame(d["groups"])``
        is a frame with one row per group.
        """
        return dict(jsonable(self._record(confidence_level, method, rng)))

    def to_frame(
        self, confidence_level: float = 0.95, *, method: str | None = None, rng: Any = None
    ) -> Any:
        """Return a one-row DataFrame of the mean: :meth:`to_dict` without ``groups``.

        The columns start with the tidy ones: ``coefficient``, ``statistic``,
        ``standard_error``, ``ci_low``, ``ci_high``, ``pvalue`` and ``n`` (the
        pairs over all groups).
        """
        record = self._record(confidence_level, method, rng)
        return tidy_frame([{**record, "coefficient": self.name, "n": self.n}])
