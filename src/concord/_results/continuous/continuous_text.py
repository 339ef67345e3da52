"""The protocol of the results of continuous ratings: sentences and tidy rows.

Mixins of :class:`~concord.BlandAltmanResult`, :class:`~concord.CccResult`
and :class:`~concord.IccResult`: ``summary()`` (one sentence, APA style),
``_rows_()`` (their tidy rows, :mod:`concord._results.protocol`) and, from
:class:`~concord._results.protocol.Reported`, ``to_frame()``, the notebook's
table and the report's section. The raters' names (``names``: the columns or
Series given, else "x" and "y") are in every sentence and row.
"""

from __future__ import annotations

from typing import Any

from concord._results.protocol import Reported, row
from concord._results.sentence import decimal, level


class BlandAltmanText(Reported):
    """``summary()`` and the tidy rows of the Bland–Altman limits of agreement."""

    _figures_ = ()  # the display needs the pairs, which the result does not keep

    @property
    def difference(self) -> str:
        """The difference the limits are of: "x − y", or the raters' names."""
        first, second = self.names  # type: ignore[attr-defined]
        return f"{first} − {second}"

    def summary(self, *, digits: int = 2) -> str:
        """Return one sentence: the bias with its interval, and the limits of agreement.

        Examples
        --------
        Bland & Altman (1986), PEFR, the first 6 subjects:

        >>> import concord
        >>> r = concord.bland_altman([494, 395, 516, 434, 476, 557], [512, 430, 520, 428, 500, 600])
        >>> r.summary()
        'The mean difference x − y was −19.67 (95% CI −39.05 to −0.29, n = 6 pairs); 95% of the differences lie between −55.86 and 16.53 (the limits of agreement).'
        """  # noqa: E501
        r: Any = self
        low, high = r.bias_interval
        return (
            f"The mean difference {self.difference} was {decimal(r.bias, digits)} "
            f"({level(r.confidence_level)} CI {decimal(low, digits)} to {decimal(high, digits)}, "
            f"n = {r.n} pairs); {level(r.coverage)} of the differences lie between "
            f"{decimal(r.lower_limit, digits)} and {decimal(r.upper_limit, digits)} "
            "(the limits of agreement)."
        )

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        share = level(r.coverage)
        return [
            row(
                f"bias ({self.difference})",
                r.bias,
                standard_error=r.standard_error,
                interval=r.bias_interval,
                n=r.n,
                interval_method="t",
            ),
            row("SD of the differences", r.sd, n=r.n),
            row(
                f"{share} lower limit",
                r.lower_limit,
                interval=r.lower_interval,
                n=r.n,
                interval_method="exact (Carkeet 2015)",
            ),
            row(
                f"{share} upper limit",
                r.upper_limit,
                interval=r.upper_interval,
                n=r.n,
                interval_method="exact (Carkeet 2015)",
            ),
        ]


class CccText(Reported):
    """``summary()``, ``interpret()`` and the tidy row of Lin's concordance correlation."""

    def summary(self, *, digits: int = 2) -> str:
        """Return one sentence: ρ_c with Lin's interval, its precision and accuracy.

        Examples
        --------
        >>> import concord
        >>> r = concord.concordance_correlation([1.0, 2, 3, 4, 5], [1.1, 2.3, 2.8, 4.2, 5.4])
        >>> r.summary()
        "Lin's concordance correlation of x and y was 0.98 (95% CI 0.88 to 1.00, Fisher's z; n = 5 pairs): precision r = 0.99, accuracy C_b = 0.99."
        """  # noqa: E501
        r: Any = self
        low, high = r.interval
        first, second = r.names
        return (
            f"Lin's concordance correlation of {first} and {second} was "
            f"{decimal(r.statistic, digits)} ({level(r.confidence_level)} CI "
            f"{decimal(low, digits)} to {decimal(high, digits)}, Fisher's z; n = {r.n} pairs): "
            f"precision r = {decimal(r.precision, digits)}, accuracy C_b = "
            f"{decimal(r.accuracy, digits)}."
        )

    def interpret(self, scale: str | None = None) -> str:
        """Return the verbal category of ρ_c: McBride (2005) by default.

        McBride: below 0.90 poor, 0.90 to 0.95 moderate, 0.95 to 0.99
        substantial, above 0.99 almost perfect.
        """
        from concord._results import interpret as _scales

        r: Any = self
        return _scales.interpret(r.statistic, scale or "mcbride", "CccResult.interpret")

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        return [
            row(
                r.name,
                r.statistic,
                standard_error=r.standard_error,
                interval=r.interval,
                n=r.n,
                precision=r.precision,
                accuracy=r.accuracy,
            ),
        ]


class IccText(Reported):
    """``summary()``, ``to_dict()`` and the tidy row of an intraclass correlation."""

    def summary(self, *, digits: int = 2) -> str:
        """Return one sentence: the form, the ICC, its F interval and test, n and k.

        Examples
        --------
        Shrout & Fleiss (1979), Table 2: ICC(2,1) = .29.

        >>> import concord
        >>> x = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
        ...      [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
        >>> concord.icc(x).summary()
        'ICC(A,1) (Shrout & Fleiss ICC(2,1)) was 0.29 (95% CI 0.02 to 0.76, F test; n = 6 items, k = 4 raters), F(5, 15) = 11.03, p = 0.00013: poor reliability on the Koo–Li scale.'
        """  # noqa: E501
        r: Any = self
        low, high = r.confidence_interval()
        reading = r.interpret()
        return (
            f"{r.name} (Shrout & Fleiss {r.shrout_fleiss}) was {decimal(r.statistic, digits)} "
            f"({level(r.confidence_level)} CI {decimal(low, digits)} to {decimal(high, digits)}, "
            f"F test; n = {r.n_items} items, k = {r.n_raters} raters), F({r.df1:.3g}, "
            f"{r.df2:.3g}) = {r.f_statistic:.2f}, p = {r.pvalue:.2g}: {reading} reliability "
            "on the Koo–Li scale."
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the ICC, its form, F test, interval and counts, JSON-ready (nan as None)."""
        from concord._common.jsonable import jsonable

        r: Any = self
        low, high = r.confidence_interval()
        out: dict[str, Any] = jsonable(
            {
                "coefficient": r.name,
                "shrout_fleiss": r.shrout_fleiss,
                "model": r.model,
                "type": r.type,
                "unit": r.unit,
                "statistic": r.statistic,
                "standard_error": r.standard_error,
                "confidence_level": r.confidence_level,
                "ci_low": low,
                "ci_high": high,
                "f": r.f_statistic,
                "df1": r.df1,
                "df2": r.df2,
                "r0": r.r0,
                "pvalue": r.pvalue,
                "n_items": r.n_items,
                "n_raters": r.n_raters,
                "n_ratings": r.n_ratings,
                "k0": r.k0,
                "interpretation": r.interpret(),
            }
        )
        return out

    def _rows_(self) -> list[dict[str, Any]]:
        r: Any = self
        return [
            row(
                r.name,
                r.statistic,
                standard_error=r.standard_error,
                interval=r.confidence_interval(),
                pvalue=r.pvalue,
                n=r.n_items,
                shrout_fleiss=r.shrout_fleiss,
                f=r.f_statistic,
                df1=r.df1,
                df2=r.df2,
                n_raters=r.n_raters,
            ),
        ]
