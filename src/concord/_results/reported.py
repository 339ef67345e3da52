"""The result protocol, small: ``to_dict``, ``to_frame``, ``_repr_html_`` from one record.

A result that mixes in :class:`Reported` states only what is its own: its
``_record(confidence_level)`` (the tidy row: ``coefficient``, ``statistic``,
``standard_error``, ``ci_low``, ``ci_high``, ``pvalue``, ``n`` and its own
keys), ``summary()`` (the sentence) and ``explain()`` (the computation). The
rank statistics and the square-table tests use it; the methods are small so
that they can move onto the results' shared base unchanged.
"""

from __future__ import annotations

import math
from typing import Any

from concord._common.jsonable import jsonable
from concord._results.html import number, page, table, text
from concord._results.protocol import COLUMNS
from concord._results.protocol import Reported as _Protocol
from concord._results.tidy import one_row


def record(
    coefficient: str,
    statistic: float,
    n: int,
    *,
    standard_error: float = math.nan,
    interval: tuple[float, float] = (math.nan, math.nan),
    pvalue: float = math.nan,
    **extra: Any,
) -> dict[str, Any]:
    """Return a tidy record: the shared columns first, then the result's own keys."""
    low, high = interval
    shared = (coefficient, statistic, standard_error, low, high, pvalue, n)
    return {**dict(zip(COLUMNS, shared, strict=True)), **extra}


class Reported(_Protocol):
    """``to_dict()``, ``to_frame()``, ``_repr_html_()`` and ``float()`` from ``_record``.

    The report's section comes from the shared base (:mod:`concord._results.protocol`),
    laid out from the same record.
    """

    statistic: float

    def _record(self, confidence_level: float) -> dict[str, Any]:
        raise NotImplementedError  # pragma: no cover

    def summary(self) -> str:
        raise NotImplementedError  # pragma: no cover

    def explain(self) -> str:
        raise NotImplementedError  # pragma: no cover

    def _rows_(self) -> list[dict[str, Any]]:
        return [self._record(0.95)]

    def __float__(self) -> float:
        return float(self.statistic)

    def to_dict(self, confidence_level: float = 0.95) -> dict[str, Any]:
        """Return the tidy record as JSON-ready values: nan and ±inf are None.

        The keys start with ``coefficient``, ``statistic``, ``standard_error``,
        ``ci_low``, ``ci_high``, ``pvalue`` and ``n`` (nan where the result has none).
        """
        return dict(jsonable(self._record(confidence_level)))

    def to_frame(self, confidence_level: float = 0.95) -> Any:
        """Return the tidy record as a one-row pandas DataFrame (nan stays NaN)."""
        return one_row(self._record(confidence_level))

    def _repr_html_(self) -> str:
        row = self._record(0.95)
        head = ["coefficient", "statistic", "SE", "95% CI", "p", "n"]
        cells = [
            text(row["coefficient"]),
            number(row["statistic"]),
            number(row["standard_error"]),
            f"{number(row['ci_low'])} to {number(row['ci_high'])}",
            number(row["pvalue"]),
            text(row["n"]),
        ]
        return page(
            [
                table(head, [cells]),
                f"<p>{text(self.summary())}</p>",
                f"<pre>{text(self.explain())}</pre>",
            ]
        )
