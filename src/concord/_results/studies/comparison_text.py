"""The protocol of the comparisons: sentences, records and tidy rows.

Mixins of :class:`~concord.ComparisonResult` (the difference of two
coefficients, its headline ``statistic``) and :class:`~concord.HomogeneityResult`
(the χ² test that several coefficients are equal).
"""

from __future__ import annotations

import math
from typing import Any

from concord._common.jsonable import jsonable
from concord._results.protocol import Reported, row
from concord._results.sentence import decimal, level


def _name(result: Any) -> str:
    return str(getattr(result, "name", "coefficient"))


def _p(p: float) -> str:
    return "p < .001" if math.isfinite(p) and p < 0.001 else f"p = {p:.3g}"


class ComparisonText(Reported):
    """``statistic`` (the difference), ``summary()``, ``to_dict()`` and the tidy rows."""

    _figures_ = (
        ("Both estimates and their difference, each with its interval", "ComparisonDisplay"),
    )

    @property
    def statistic(self) -> float:
        """The headline: the difference second − first (t is ``t_statistic``)."""
        return float(self.difference)  # type: ignore[attr-defined]

    @property
    def name(self) -> str:
        return f"{_name(self.first)}: second − first"  # type: ignore[attr-defined]

    def summary(self, *, digits: int = 2) -> str:
        """Return one sentence: the two estimates, the difference with its interval and test.

        Examples
        --------
        pairedCAC's README: Fleiss' kappa 0.39 and 0.72 of two panels on the same items.

        >>> import concord
        >>> ratings1 = [[1, 1, 1, 1], [1, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [1, 2, 1, 1],
        ...             [2, 1, 1, 1], [2, 2, 2, 2], [2, 3, 2, 2], [3, 3, 3, 3], [1, 1, 1, 1],
        ...             [1, 1, 2, 3], [3, 3, 3, 3], [3, 2, 3, 3], [1, 2, 1, 1], [2, 1, 1, 1]]
        >>> ratings2 = [[1, 1, 1, 1], [3, 3, 3, 2], [3, 3, 3, 3], [1, 1, 2, 1], [1, 1, 1, 1],
        ...             [1, 1, 1, 1], [2, 2, 2, 2], [2, 2, 1, 1], [3, 3, 3, 3], [1, 1, 1, 3],
        ...             [2, 2, 2, 2], [3, 3, 3, 3], [3, 3, 3, 3], [1, 2, 1, 1], [3, 3, 3, 3]]
        >>> print(concord.compare(concord.fleiss_kappa, ratings1, ratings2).summary())
        Fleiss' kappa was 0.39 (first) and 0.72 (second): the difference 0.34 (95% CI 0.00 to 0.68, t) is paired, t(14) = 2.15, p = 0.0491.
        """  # noqa: E501
        r: Any = self
        low, high = r.confidence_interval()
        return (
            f"{_name(r.first)} was {decimal(r.first.statistic, digits)} (first) and "
            f"{decimal(r.second.statistic, digits)} (second): the difference "
            f"{decimal(r.difference, digits)} ({level(r.confidence_level)} CI "
            f"{decimal(low, digits)} to {decimal(high, digits)}, {r.method}) is "
            f"{'paired' if r.paired else 'unpaired'}, t({r.df:.3g}) = {r.t_statistic:.2f}, "
            f"{_p(r.pvalue)}."
        )

    def to_dict(self) -> dict[str, Any]:
        """Return both estimates and the difference with its SE, interval and test, JSON-ready."""
        r: Any = self
        low, high = r.confidence_interval()
        out: dict[str, Any] = jsonable(
            {
                "coefficient": _name(r.first),
                "first": r.first.statistic,
                "second": r.second.statistic,
                "statistic": r.difference,
                "difference": r.difference,
                "standard_error": r.standard_error,
                "t_statistic": r.t_statistic,
                "df": r.df,
                "pvalue": r.pvalue,
                "paired": r.paired,
                "confidence_level": r.confidence_level,
                "ci_method": r.method,
                "ci_low": low,
                "ci_high": high,
            }
        )
        return out

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        name = _name(r.first)
        sides = [
            row(
                f"{name} ({side})",
                one.statistic,
                standard_error=getattr(one, "standard_error", math.nan),
                side=side,
            )
            for side, one in (("first", r.first), ("second", r.second))
        ]
        difference = row(
            f"{name}: second − first",
            r.difference,
            standard_error=r.standard_error,
            interval=r.confidence_interval(),
            pvalue=r.pvalue,
            side="difference",
            t_statistic=r.t_statistic,
            df=r.df,
        )
        return [difference, *sides]


class HomogeneityText(Reported):
    """``summary()``, ``to_dict()`` and the tidy rows of the test of equal coefficients."""

    @property
    def name(self) -> str:
        return "Homogeneity of independent coefficients (χ²)"

    def summary(self, *, digits: int = 2) -> str:
        """Return one sentence: χ², df, p and the pooled coefficient.

        Examples
        --------
        >>> import concord
        >>> a = concord.cohen_kappa([1, 2, 3, 1, 2, 3, 1, 2], [1, 2, 3, 2, 2, 3, 1, 1])
        >>> b = concord.cohen_kappa([1, 2, 3] * 20, [1, 2, 3] * 19 + [1, 3, 2])
        >>> print(concord.homogeneity(a, b).summary())
        Test that the 2 coefficients (0.62, 0.95) are equal: χ²(1) = 1.84, p = 0.175 (not significant at 5%); pooled 0.94.
        """  # noqa: E501
        r: Any = self
        values = ", ".join(decimal(x.statistic, digits) for x in r.results)
        significant = "significant" if r.pvalue < 0.05 else "not significant"
        return (
            f"Test that the {len(r.results)} coefficients ({values}) are equal: "
            f"χ²({r.df}) = {r.statistic:.2f}, {_p(r.pvalue)} ({significant} at 5%); "
            f"pooled {decimal(r.pooled, digits)}."
        )

    def to_dict(self) -> dict[str, Any]:
        """Return χ², df, p, the pooled value and each coefficient with its share, JSON-ready."""
        r: Any = self
        out: dict[str, Any] = jsonable(
            {
                "statistic": r.statistic,
                "df": r.df,
                "pvalue": r.pvalue,
                "pooled": r.pooled,
                "coefficients": [
                    {
                        "name": _name(x),
                        "statistic": x.statistic,
                        "standard_error": x.standard_error,
                        "share": share,
                    }
                    for x, share in zip(r.results, r.shares, strict=True)
                ],
            }
        )
        return out

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        rows = [row("χ² of homogeneity", r.statistic, pvalue=r.pvalue, df=r.df, pooled=r.pooled)]
        for i, (x, share) in enumerate(zip(r.results, r.shares, strict=True), 1):
            rows.append(
                row(
                    f"{i}: {_name(x)}",
                    x.statistic,
                    standard_error=x.standard_error,
                    share_of_chi2=share,
                )
            )
        return rows
