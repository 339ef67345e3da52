"""The coefficient table of one panel: :class:`AgreementTable`, what :func:`concord.agree` returns.

It holds the results and lays them out: as records (the command line's JSON),
as a DataFrame, as HTML in a notebook, as sentences. It computes nothing
itself; every number is a result's.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._common.extras import require
from concord._common.jsonable import jsonable
from concord._inference.intervals import check_level
from concord._results import html as _html
from concord._results.multirater.agreement import AgreementResult
from concord._results.tables_text import TableText
from concord._results.tidy import summary as _row


@dataclass(frozen=True, eq=False)
class AgreementTable(TableText):
    """Several agreement coefficients of one panel of raters, one row each.

    Returned by :func:`concord.agree`. Index it by a coefficient's function
    name (``table["fleiss_kappa"]``) for the full result; iterate over it
    for the results in order.

    Attributes
    ----------
    results : tuple of AgreementResult
        One result per coefficient, in the order of the table.
    confidence_level : float
        The level of the intervals that :meth:`to_frame`, :meth:`to_dict`,
        the HTML and :meth:`summary` show by default.
    n_items : int
        Items with at least one rating.
    raters : tuple or None
        The raters' names (column names; 0, 1, … for an array), None for
        the count form.
    n_ratings : int
        Ratings over all items.
    labels : tuple
        The categories, in order.
    category_totals : numpy.ndarray
        Ratings per category.
    """

    results: tuple[AgreementResult, ...]
    confidence_level: float
    n_items: int
    raters: tuple[Any, ...] | None
    n_ratings: int
    labels: tuple[Any, ...]
    category_totals: np.ndarray

    def __post_init__(self) -> None:
        self.category_totals.setflags(write=False)

    def __len__(self) -> int:
        return len(self.results)

    def __iter__(self) -> Iterator[AgreementResult]:
        return iter(self.results)

    def __getitem__(self, name: str) -> AgreementResult:
        for r in self.results:
            if name in (r.coefficient, r.name):
                return r
        names = ", ".join(repr(r.coefficient) for r in self.results)
        raise KeyError(f"{name!r} is not in this table; it holds {names}.")

    @property
    def coefficients(self) -> tuple[str, ...]:
        """The function names of the coefficients, in order."""
        return tuple(r.coefficient for r in self.results)

    def _level(self, confidence_level: float | None) -> float:
        level = self.confidence_level if confidence_level is None else confidence_level
        return check_level(level, "confidence_interval")

    def records(
        self, confidence_level: float | None = None, *, method: str | None = None, rng: Any = None
    ) -> list[dict[str, Any]]:
        """Return one row per coefficient (nan kept), with the keys of a result's ``to_dict()``."""
        level = self._level(confidence_level)
        return [_row(r, level, method, rng) for r in self.results]

    def to_dict(
        self, confidence_level: float | None = None, *, method: str | None = None, rng: Any = None
    ) -> dict[str, Any]:
        """Return the table as ``concord agree --format json`` does: ``data``, ``coefficients``.

        JSON-ready and unrounded: nan is None, arrays are lists.
        """
        data = {
            "items": self.n_items,
            "raters": None if self.raters is None else [str(r) for r in self.raters],
            "ratings": self.n_ratings,
            "labels": list(self.labels),
            "category_totals": self.category_totals,
        }
        rows = self.records(confidence_level, method=method, rng=rng)
        out: dict[str, Any] = jsonable({"data": data, "coefficients": rows})
        return out

    def to_frame(
        self, confidence_level: float | None = None, *, method: str | None = None, rng: Any = None
    ) -> Any:
        """Return a pandas DataFrame, one row per coefficient, indexed by the coefficient's name.

        Columns: the tidy ones every result's frame starts with (``statistic``,
        ``standard_error``, ``ci_low``, ``ci_high``, ``pvalue``, ``n``: the
        items), then ``confidence_level``, ``ci_method``, ``interpretation``
        and ``interpretation_scale``, the function name, the weighting and
        p_a, p_e. Undefined values are nan.
        """
        pd = require("pandas", "pandas", "AgreementTable.to_frame")

        rows = self.records(confidence_level, method=method, rng=rng)
        frame = pd.DataFrame(rows).set_index("coefficient")
        frame["n"] = self.n_items
        first = [
            "statistic",
            "standard_error",
            "ci_low",
            "ci_high",
            "pvalue",
            "n",
            "confidence_level",
            "ci_method",
            "interpretation",
            "interpretation_scale",
        ]
        rest = [c for c in frame.columns if c not in first]
        return frame[first + rest]

    def summary(
        self,
        confidence_level: float | None = None,
        *,
        method: str | None = None,
        rng: Any = None,
        digits: int = 2,
    ) -> str:
        """Return one APA-style sentence per coefficient, one per line (see a result's summary)."""
        level = self._level(confidence_level)
        return "\n".join(
            r.summary(level, method=method, rng=rng, digits=digits) for r in self.results
        )

    def _repr_html_(self) -> str:
        return _html.page([_html.results_table_html(self.results, self.confidence_level)])

    def __repr__(self) -> str:
        rows = "\n".join(f"  {r.name:<30} {r.statistic: .4f}" for r in self.results)
        raters = "?" if self.raters is None else len(self.raters)
        head = f"AgreementTable({self.n_items} items, {raters} raters, {len(self)} coefficients)"
        return f"{head}\n{rows}"
