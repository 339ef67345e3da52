"""What :func:`concord.against_gold` returns: each rater against the gold labels, and the mean."""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from concord._common.extras import require
from concord._common.jsonable import jsonable
from concord._inference.intervals import ConfidenceInterval, check_level
from concord._results.studies.studies_text import GoldText


@dataclass(frozen=True, eq=False, repr=False)
class GoldResult(GoldText):
    """Agreement of each rater with gold labels, and the panel's mean agreement.

    Attributes
    ----------
    coefficient : str
        The function name of the two-rater coefficient (``"cohen_kappa"``).
    raters : tuple
        The raters' names.
    labels : tuple
        The categories, in order.
    results : tuple of KappaResult
        Each rater against the gold labels (gold as rater1), with its own SE.
    n_items : int
        Items with a gold label.
    statistic : float
        The headline: the raters' mean coefficient with the gold labels,
        the same as ``mean`` (kept).
    mean : float
        The raters' coefficients averaged, weighted by their numbers of items
        (kappaGold's ``value0``).
    estimate : float
        The jackknife's bias-corrected mean (kappaGold's ``value``).
    standard_error : float
        The jackknife SE of the mean over items (kappaGold's ``se_j``): the
        raters share the items, and the jackknife carries their covariance.
    confidence_level : float
        The default level of :meth:`confidence_interval`.
    """

    coefficient: str
    raters: tuple[Any, ...]
    labels: tuple[Any, ...]
    results: tuple[Any, ...]
    n_items: int
    mean: float
    estimate: float
    standard_error: float
    confidence_level: float = 0.95

    def __float__(self) -> float:
        return self.mean

    def confidence_interval(self, confidence_level: float | None = None) -> ConfidenceInterval:
        """Return the normal interval around the bias-corrected ``estimate``, as kappam_gold's."""
        level = self.confidence_level if confidence_level is None else confidence_level
        level = check_level(level, "confidence_interval")
        z = NormalDist().inv_cdf(1 - (1 - level) / 2)
        half = z * self.standard_error
        return ConfidenceInterval(self.estimate - half, self.estimate + half)

    def _rows(self) -> list[dict[str, Any]]:
        rows = []
        for rater, r in zip(self.raters, self.results, strict=True):
            low, high = r.confidence_interval(self.confidence_level)
            rows.append(
                {
                    "rater": rater,
                    "n_items": int(r.n_items),
                    "statistic": float(r.statistic),
                    "standard_error": float(r.standard_error),
                    "low": float(low),
                    "high": float(high),
                }
            )
        return rows

    def table(self) -> Any:
        """Return a pandas DataFrame, one row per rater against the gold labels."""
        pd = require("pandas", "pandas", "GoldResult.table")

        return pd.DataFrame(self._rows()).set_index("rater")

    def to_dict(self) -> dict[str, Any]:
        """Return the result as plain JSON-ready data."""
        low, high = self.confidence_interval()
        out: dict[str, Any] = jsonable(
            {
                "coefficient": self.coefficient,
                "n_items": self.n_items,
                "statistic": self.mean,
                "mean": self.mean,
                "estimate": self.estimate,
                "standard_error": self.standard_error,
                "confidence_level": self.confidence_level,
                "ci_low": low,
                "ci_high": high,
                "low": low,
                "high": high,
                "raters": self._rows(),
            }
        )
        return out

    def summary(self, *, digits: int = 2) -> str:
        """Return one sentence: the mean coefficient with its jackknife interval, raters, items.

        ``str(result)`` is the short text table (the mean, then one line per rater).

        Examples
        --------
        kappaGold's help example: three raters and a gold label on four items.

        >>> import concord
        >>> m = [["O", "G", "O"], ["G", "G", "R"], ["R", "R", "R"], ["G", "G", "O"]]
        >>> print(concord.against_gold([row[1:] for row in m], [row[0] for row in m]).summary())
        The 2 raters' mean Cohen's kappa with the gold labels was 0.44 (bias-corrected 0.55, 95% CI −0.13 to 1.22, jackknife; n = 4 items).
        """  # noqa: E501
        from concord._results.sentence import decimal, level

        low, high = self.confidence_interval()
        return (
            f"The {len(self.raters)} raters' {self.name} was {decimal(self.mean, digits)} "
            f"(bias-corrected {decimal(self.estimate, digits)}, {level(self.confidence_level)} "
            f"CI {decimal(low, digits)} to {decimal(high, digits)}, jackknife; "
            f"n = {self.n_items} items)."
        )

    def __str__(self) -> str:
        """Return a short text table: the mean, then one line per rater."""
        low, high = self.confidence_interval()
        lines = [
            f"mean {self.coefficient} with the gold labels: {self.mean:.3f} "
            f"(bias-corrected {self.estimate:.3f}, SE {self.standard_error:.3f}, "
            f"{self.confidence_level:.0%} CI [{low:.3f}, {high:.3f}])"
        ]
        for row in self._rows():
            lines.append(
                f"{row['rater']!s:>12} {row['statistic']:7.3f} [{row['low']:.3f}, "
                f"{row['high']:.3f}]  n={row['n_items']}"
            )
        return "\n".join(lines)

    def explain(self) -> str:
        """Say in words how the mean and its SE were formed."""
        return "\n".join(
            [
                f"Each of {len(self.raters)} raters' {self.coefficient} against the gold labels "
                f"of {self.n_items} items; their mean, weighted by items rated, is "
                f"{self.mean:.4f}.",
                "Its SE is the jackknife's over items, leaving each item out of every "
                "rater's table at once, so it accounts for the items the raters share; "
                f"the bias-corrected mean is {self.estimate:.4f} (R kappaGold's kappam_gold).",
            ]
        )

    def __repr__(self) -> str:
        return (
            f"GoldResult(coefficient={self.coefficient!r}, mean={self.mean:.4f}, "
            f"estimate={self.estimate:.4f}, standard_error={self.standard_error:.4f})"
        )
