"""What :func:`concord.span_agreement` returns: span F1 per pair, label and item, and its means."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from concord._common.errors import check_option, param_error
from concord._common.jsonable import jsonable
from concord._data.spans import SpanTable
from concord._inference.intervals import ConfidenceInterval, Inference
from concord._inference.resampling import Resampled
from concord._results.protocol import Reported, row
from concord._results.spans import span_tables as tables

_AVERAGES = ("micro", "macro")
_METHODS = ("bootstrap-percentile", "bootstrap-bca")


@dataclass(frozen=True, eq=False)
class SpanAgreementResult(Reported):
    """Span F1 of every pair of raters, with precision and recall, per label, item and pair.

    Attributes
    ----------
    statistic : float
        Micro F1 (labels pooled), the mean over the pairs of raters.
    macro : float
        Macro F1: each pair's mean F1 over the labels either of its raters
        used, averaged over the pairs.
    match : str or float
        ``"exact"``, ``"overlap"`` or the IoU threshold.
    by : str or None
        ``"label"`` (spans match only spans of their label) or None.
    spans : SpanTable
        The checked spans (items, raters, labels and codes).
    counts : SpanCounts
        Spans per rater, item and label; matched spans per pair, item and
        label; the matched pairs of spans.
    standard_error, macro_standard_error : float
        The jackknife's over items.
    confidence_level : float
        The level of the interval the result shows.
    n_resamples, seed : int
        The bootstrap of the interval the result shows.
    """

    statistic: float
    macro: float
    match: Any
    by: str | None
    spans: SpanTable = field(repr=False)
    counts: Any = field(repr=False)
    standard_error: float
    macro_standard_error: float
    confidence_level: float
    n_resamples: int
    seed: int
    samplers: tuple[Resampled, Resampled] = field(repr=False)
    disagreeing: Callable[[], dict[str, np.ndarray]] = field(repr=False)
    _shown: dict[str, ConfidenceInterval] = field(default_factory=dict, repr=False)

    name = "span F1"

    @property
    def raters(self) -> tuple[Any, ...]:
        """The raters, in order of first appearance."""
        return tuple(self.spans.raters)

    @property
    def labels(self) -> tuple[Any, ...]:
        """The labels, in order of first appearance."""
        return tuple(self.spans.labels)

    @property
    def n_items(self) -> int:
        """The items: those of the table and those of ``lengths=``."""
        return len(self.spans.items)

    @property
    def n_matched(self) -> int:
        """Matched spans, summed over the pairs of raters."""
        return int(self.counts.matched.sum())

    def __repr__(self) -> str:
        return (
            f"SpanAgreementResult(statistic={self.statistic:.6g}, macro={self.macro:.6g}, "
            f"match={self.match!r}, by={self.by!r}, n_items={self.n_items}, "
            f"raters={len(self.raters)})"
        )

    def __float__(self) -> float:
        return float(self.statistic)

    def confidence_interval(
        self,
        confidence_level: float | None = None,
        *,
        method: str | None = None,
        n_resamples: int | None = None,
        rng: Any = None,
        average: str = "micro",
    ) -> ConfidenceInterval:
        """Return a bootstrap interval over items for micro (or macro) F1.

        Parameters
        ----------
        confidence_level : float, optional
            In (0, 1); by default the result's.
        method : {"bootstrap-percentile", "bootstrap-bca"}, optional
            Percentile (default) or BCa (Efron 1987; jackknife over items).
        n_resamples : int, optional
            Resamples of the items; by default the result's.
        rng : None, int or numpy.random.Generator
            By default the result's own seed, so the interval is the one shown.
        average : {"micro", "macro"}
            Which mean F1.
        """
        func = "SpanAgreementResult.confidence_interval"
        chosen = check_option(func, "average", average, _AVERAGES)
        if method is not None and method not in _METHODS:
            param_error(func, "method", "'bootstrap-percentile' or 'bootstrap-bca'", method)
        level = self.confidence_level if confidence_level is None else confidence_level
        n = self.n_resamples if n_resamples is None else n_resamples
        seed = self.seed if rng is None else rng
        key = repr((level, method, n, seed, chosen))
        if key not in self._shown or not isinstance(seed, int):
            value = self._inference(chosen).interval(level, method, n, seed, func)
            self._shown[key] = value
        return self._shown[key]

    def bootstrap(
        self, n_resamples: int | None = None, *, rng: Any = None, average: str = "micro"
    ) -> np.ndarray:
        """Return micro (or macro) F1 on ``n_resamples`` bootstrap resamples of the items."""
        func = "SpanAgreementResult.bootstrap"
        chosen = check_option(func, "average", average, _AVERAGES)
        n = self.n_resamples if n_resamples is None else n_resamples
        return self._inference(chosen).bootstrap(n, self.seed if rng is None else rng, func)

    def _inference(self, average: str) -> Inference:
        micro = average == "micro"
        return Inference(
            statistic=self.statistic if micro else self.macro,
            standard_error=self.standard_error if micro else self.macro_standard_error,
            df=max(self.n_items - 1, 0),
            bounds=(0.0, 1.0),
            default_method="bootstrap-percentile",
            sampler=self.samplers[0 if micro else 1],
        )

    def by_pair(self) -> Any:
        """Return a DataFrame, one row per pair of raters (rater1 the reference).

        Columns: ``matched``, ``n1`` and ``n2`` (each rater's spans),
        ``precision`` = matched / n2 and ``recall`` = matched / n1 (rater2's
        spans judged against rater1's; with rater2 as the reference they
        swap), ``f1`` (micro, symmetric) and ``macro_f1``.
        """
        return tables.by_pair(self)

    def by_label(self) -> Any:
        """Return a DataFrame, one row per label: its F1, the mean over pairs that used it."""
        return tables.by_label(self)

    def by_item(self) -> Any:
        """Return a DataFrame, one row per item: its F1 (labels pooled), the mean over pairs.

        An item on which neither rater of any pair has a span has F1 nan
        (nothing to compare; both said "nothing here").
        """
        return tables.by_item(self)

    def disagreements(self) -> Any:
        """Return a DataFrame of the spans no span of the other rater matched, for adjudication.

        One row per pair of raters and unmatched span: the span (item, rater,
        start, end, label, in the table's column names), the other rater
        and that rater's span that overlaps it most, whatever its label
        (``other_start``, ``other_end``, ``other_label``; missing where
        none overlaps).
        """
        return tables.disagreements(self)

    def _rows_(self) -> list[dict[str, Any]]:
        rows = [
            row(
                "span F1 (micro)",
                self.statistic,
                standard_error=self.standard_error,
                interval=self.confidence_interval(),
                n=self.n_items,
                matched=self.n_matched,
            ),
            row(
                "span F1 (macro)",
                self.macro,
                standard_error=self.macro_standard_error,
                interval=self.confidence_interval(average="macro"),
                n=self.n_items,
            ),
        ]
        return rows + tables.pair_rows(self) + tables.label_rows(self)

    def _report_section_(self) -> Any:
        """Return the report's section: the F1 per label, pairs, worst items, disagreements."""
        return tables.section(self)

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready data: the means, each pair and each label."""
        low, high = self.confidence_interval()
        out: dict[str, Any] = jsonable(
            {
                "coefficient": "span F1",
                "statistic": self.statistic,
                "micro": self.statistic,
                "macro": self.macro,
                "standard_error": self.standard_error,
                "ci_low": low,
                "ci_high": high,
                "confidence_level": self.confidence_level,
                "match": self.match,
                "by": self.by,
                "n_items": self.n_items,
                "n_spans": self.spans.n_spans,
                "n_matched": self.n_matched,
                "raters": [str(r) for r in self.raters],
                "pairs": tables.pair_rows(self),
                "labels": tables.label_rows(self),
            }
        )
        return out

    def _matching(self) -> str:
        if isinstance(self.match, str):
            return f"{self.match} match"
        return f"IoU ≥ {self.match:g}"

    def summary(self, *, digits: int = 2) -> str:
        """Return one sentence: micro F1 with its interval, macro F1, the matching, the sample.

        Examples
        --------
        >>> import concord
        >>> spans = {"item": [1, 1, 1, 1], "rater": ["ann", "ann", "bob", "bob"],
        ...          "start": [0, 10, 0, 11], "end": [4, 15, 4, 15],
        ...          "label": ["PER", "LOC", "PER", "LOC"]}
        >>> print(concord.span_agreement(spans).summary())
        Span F1 (exact match, by label) was 0.50 (micro; macro 0.50), 95% CI 0.50 to 0.50 (bootstrap over items); 2 of 4 spans matched (n = 1 item, 2 raters).
        """  # noqa: E501
        from concord._results.sentence import decimal, level

        low, high = self.confidence_interval()
        shown = "undefined" if not math.isfinite(low) else (
            f"{decimal(low, digits)} to {decimal(high, digits)}"
        )  # fmt: skip
        items = f"{self.n_items} item{'s' if self.n_items != 1 else ''}"
        both = int(self.counts.totals().sum())
        pairs = len(self.counts.pairs)
        return (
            f"Span F1 ({self._matching()}, {'by label' if self.by else 'labels ignored'}) "
            f"was {_shown(self.statistic, digits)} (micro; macro "
            f"{_shown(self.macro, digits)}), {level(self.confidence_level)} CI {shown} "
            f"(bootstrap over items); {2 * self.n_matched} of {both} spans matched"
            f"{' over ' + str(pairs) + ' pairs of raters' if pairs > 1 else ''} "
            f"(n = {items}, {len(self.raters)} raters)."
        )

    def explain(self) -> str:
        """Say in words how the F1 was computed."""
        return tables.explain(self)

    def __str__(self) -> str:
        return tables.text(self)


def _shown(value: float, digits: int) -> str:
    from concord._results.sentence import decimal

    return decimal(value, digits) if math.isfinite(value) else "undefined"
