"""Frozen results of the category diagnostics: marginal homogeneity, specific agreement, B."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._common.extras import require
from concord._common.jsonable import jsonable
from concord._common.text import number
from concord._inference.intervals import ConfidenceInterval, check_level
from concord._results.kappa.categories_text import METHODS as _METHODS
from concord._results.kappa.categories_text import (
    BangdiwalaText,
    MarginalText,
    SpecificText,
)


def _z(confidence_level: float) -> float:
    from statistics import NormalDist

    level = check_level(confidence_level, "confidence_interval")
    return NormalDist().inv_cdf(0.5 + level / 2)


@dataclass(frozen=True, repr=False)
class MarginalHomogeneityResult(MarginalText):
    """Whether two raters use the categories at the same rates: a χ² test.

    Attributes
    ----------
    statistic : float
        The χ² statistic of ``method``.
    df : int
        Its degrees of freedom: the rank of the covariance of the marginal
        differences (k − 1 when every category sees a disagreement; 0 when
        the raters never disagree, and then ``statistic`` is 0 and ``pvalue`` 1).
    pvalue : float
        P(χ²_df ≥ statistic).
    method : str
        'stuart-maxwell', 'bhapkar' or 'mcnemar'.
    labels : tuple
        The k categories.
    rater1_totals, rater2_totals : numpy.ndarray
        How often each rater used each category, shape (k,).
    differences : numpy.ndarray
        rater1_totals − rater2_totals, shape (k,): where the marginals differ.
    n : int or float
        The number of rated pairs.
    raters : tuple of str
        The two raters' names: the Series' or columns' names when given,
        else ("rater1", "rater2").
    """

    statistic: float
    df: int
    pvalue: float
    method: str
    labels: tuple[Any, ...]
    rater1_totals: np.ndarray
    rater2_totals: np.ndarray
    differences: np.ndarray
    n: int | float
    raters: tuple[str, str] = ("rater1", "rater2")

    def __post_init__(self) -> None:
        for name in ("rater1_totals", "rater2_totals", "differences"):
            getattr(self, name).setflags(write=False)

    def __repr__(self) -> str:
        return (
            f"MarginalHomogeneityResult(method={self.method!r}, statistic={self.statistic:.6g}, "
            f"df={self.df}, pvalue={self.pvalue:.4g})"
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the fields as plain Python values (JSON-ready: nan becomes None)."""
        return {
            "method": self.method,
            "statistic": jsonable(self.statistic),
            "df": self.df,
            "pvalue": jsonable(self.pvalue),
            "n": jsonable(self.n),
            "labels": jsonable(list(self.labels)),
            "rater1_totals": jsonable(self.rater1_totals),
            "rater2_totals": jsonable(self.rater2_totals),
            "differences": jsonable(self.differences),
            "raters": [str(v) for v in self.raters],
        }

    def summary(self, *, digits: int = 2) -> str:
        """Return one sentence: the test, its χ², df and p-value, and the largest difference."""
        name = _METHODS[self.method]
        head = (
            f"{name} test of marginal homogeneity: χ²({self.df}) = "
            f"{self.statistic:.{digits}f}, p = {self.pvalue:.{max(digits, 2)}g}, n = "
            f"{number(self.n)}."
        )
        if not np.any(self.differences):
            return head + " The two raters used every category equally often."
        i = int(np.argmax(np.abs(self.differences)))
        more = self.raters[0] if self.differences[i] > 0 else self.raters[1]
        return (
            f"{head} The largest difference is in {self.labels[i]!s}: {more} used it "
            f"{number(abs(float(self.differences[i])))} more times."
        )


@dataclass(frozen=True, repr=False)
class SpecificAgreementResult(SpecificText):
    """Each category's proportion of specific agreement, with its delta-method SE.

    Attributes
    ----------
    labels : tuple
        The k categories.
    agreement : numpy.ndarray
        p_s per category, shape (k,): of the pairs of ratings that involve the
        category, the share in which both raters chose it (nan if nobody did).
    standard_error : numpy.ndarray
        The delta-method SE of each p_s over items, shape (k,).
    n_items : int
        Items with at least two ratings.
    n_raters : int
        The number of raters (2 for two raters).
    statistic : float
        The headline: the lowest category's p_s (the category agreed on least).
    """

    labels: tuple[Any, ...]
    agreement: np.ndarray
    standard_error: np.ndarray
    n_items: int
    n_raters: int

    def __post_init__(self) -> None:
        self.agreement.setflags(write=False)
        self.standard_error.setflags(write=False)

    def __repr__(self) -> str:
        parts = ", ".join(
            f"{v!s}: {a:.4g}" for v, a in zip(self.labels, self.agreement, strict=True)
        )
        return f"SpecificAgreementResult({parts}; n_items={self.n_items})"

    def _two(self, index: int) -> float:
        if len(self.labels) != 2:
            return float("nan")
        return float(self.agreement[index])

    @property
    def positive(self) -> float:
        """Positive agreement: p_s of the second of two categories (1, True, 'yes'); else nan."""
        return self._two(1)

    @property
    def negative(self) -> float:
        """Negative agreement: p_s of the first of two categories (0, False, 'no'); else nan."""
        return self._two(0)

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Return the Wald intervals p_s ± z·SE, clipped to [0, 1]: (low, high), each (k,)."""
        z = _z(confidence_level)
        low = np.clip(self.agreement - z * self.standard_error, 0.0, 1.0)
        high = np.clip(self.agreement + z * self.standard_error, 0.0, 1.0)
        return low, high

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """Return one record per category: label, agreement, SE, interval; and the counts."""
        low, high = self.confidence_interval(confidence_level)
        rows = [
            {
                "label": jsonable(v),
                "agreement": jsonable(float(a)),
                "standard_error": jsonable(float(s)),
                "ci_low": jsonable(float(lo)),
                "ci_high": jsonable(float(hi)),
            }
            for v, a, s, lo, hi in zip(
                self.labels, self.agreement, self.standard_error, low, high, strict=True
            )
        ]
        return {
            "statistic": jsonable(self.statistic),
            "n_items": self.n_items,
            "n_raters": self.n_raters,
            "confidence_level": confidence_level,
            "categories": rows,
        }

    def summary(self, *, digits: int = 2) -> str:
        """Return one sentence: each category's specific agreement, lowest first."""
        order = np.argsort(np.nan_to_num(self.agreement, nan=2.0), kind="stable")
        parts = [f"{self.labels[i]!s} {self.agreement[i]:.{digits}f}" for i in order]
        return (
            f"Specific agreement of {self.n_raters} raters on {self.n_items} items, "
            f"lowest first: {', '.join(parts)}."
        )


@dataclass(frozen=True, repr=False)
class BangdiwalaResult(BangdiwalaText):
    """Bangdiwala's B (or B^w with partial credit) and its delta-method SE.

    Attributes
    ----------
    statistic : float
        B = Σ n_ii² / Σ r_i c_i, or B^w with ``partial_weights``: the share of
        the agreement chart's rectangles filled by (partial) agreement.
    standard_error : float
        The multinomial delta-method SE.
    weighting : str
        'unweighted', 'linear', 'quadratic' or 'custom'.
    partial_weights : tuple of float
        w_0 = 1, w_1, …: the credit for ratings 0, 1, … categories apart.
    observed : numpy.ndarray
        The k×k table (rows: rater1), which the agreement chart draws.
    labels : tuple
        The k categories.
    n : int or float
        The number of rated pairs.
    raters : tuple of str
        The two raters' names (rows: the first): the Series' names when
        given, else ("rater1", "rater2").
    """

    statistic: float
    standard_error: float
    weighting: str
    partial_weights: tuple[float, ...]
    observed: np.ndarray
    labels: tuple[Any, ...]
    n: int | float
    raters: tuple[str, str] = ("rater1", "rater2")

    def __post_init__(self) -> None:
        self.observed.setflags(write=False)

    def __float__(self) -> float:
        return float(self.statistic)

    def __repr__(self) -> str:
        return (
            f"BangdiwalaResult(statistic={self.statistic:.6g}, weighting={self.weighting!r}, "
            f"n={number(self.n)}, k={len(self.labels)})"
        )

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Return B ± t_{n−1}·SE clipped to [0, 1], as Gwet's irrCAC (``bangdiwala.table``)."""
        stats = require("scipy.stats", "stats", "BangdiwalaResult.confidence_interval")
        level = check_level(confidence_level, "confidence_interval")
        if self.n < 2:
            return ConfidenceInterval(float("nan"), float("nan"))
        t = float(stats.t.ppf(0.5 + level / 2, self.n - 1))
        low = max(0.0, self.statistic - t * self.standard_error)
        return ConfidenceInterval(low, min(1.0, self.statistic + t * self.standard_error))

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """Return the fields and the interval as plain Python values."""
        low, high = self.confidence_interval(confidence_level)
        return {
            "statistic": jsonable(self.statistic),
            "standard_error": jsonable(self.standard_error),
            "confidence_level": confidence_level,
            "ci_low": jsonable(low),
            "ci_high": jsonable(high),
            "weighting": self.weighting,
            "partial_weights": list(self.partial_weights),
            "n": jsonable(self.n),
            "labels": jsonable(list(self.labels)),
            "observed": jsonable(self.observed),
            "raters": [str(v) for v in self.raters],
        }

    def summary(self, confidence_level: float = 0.95, *, digits: int = 2) -> str:
        """Return one sentence: B, its interval and n."""
        low, high = self.confidence_interval(confidence_level)
        name = "Bangdiwala's B" if self.weighting == "unweighted" else "Bangdiwala's B^w"
        return (
            f"{name} = {self.statistic:.{digits}f} ({confidence_level:.0%} CI "
            f"{low:.{digits}f} to {high:.{digits}f}), n = {number(self.n)}."
        )
