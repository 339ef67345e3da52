"""Variants "u2016", "|u", "cu", "(k)u" of :func:`concord.unitizing_alpha` (Krippendorff 2016).

Their coincidences need each rater's units to partition the continuum into
units and gaps (Krippendorff et al. 2016, § 2): two spans of one rater on
one item may not overlap, whatever their labels (the error names both
rows). Variant "u" (2004) takes each category on its own and allows that.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from concord._coefficients.spans.unitizing_coincidences import coincidences
from concord._coefficients.spans.unitizing_family import (
    Alpha,
    binary,
    coded,
    nominal,
    per_category,
)
from concord._common.errors import UndefinedKappaWarning, describe, param_error
from concord._common.exact import to_float
from concord._data.long import where
from concord._data.span_checks import sorted_by
from concord._data.spans import SpanTable
from concord._results.spans.unitizing import UnitizingAlphaResult

POOLED = ("u2016", "|u")  # one coefficient over the categories pooled: no per-category α
_SYMBOL = {"u2016": "uα (2016)", "|u": "|uα", "cu": "cuα", "(k)u": "cuα"}
_WHY = {
    "u2016": "every rater's segments have one value everywhere (all gap, or all one "
    "category), so no disagreement is possible",
    "|u": "the raters' units cover either none or all of the continuum, so there is no "
    "relevant-against-irrelevant distinction to agree on",
    "cu": "the raters' units of different categories never intersect, or only one category "
    "occurs where they do",
}
_WHY["(k)u"] = _WHY["cu"]


def two_raters(table: SpanTable, func: str) -> None:
    """Refuse fewer than two raters (one error for every variant)."""
    m = len(table.raters)
    if m < 2:
        param_error(
            func,
            "spans",
            "the spans of at least two raters",
            f"one rater, {table.raters[0]!r}" if m else "no spans",
            raw=True,
            fix="Agreement needs two or more raters who annotated the same items.",
        )


def no_overlap(table: SpanTable, func: str) -> None:
    """Refuse two overlapping spans of one rater on one item, whatever their labels."""
    item, rater, first, last = table.item, table.rater, table.start, table.end
    order = sorted_by(item, rater, first)
    same = (item[order][1:] == item[order][:-1]) & (rater[order][1:] == rater[order][:-1])
    clash = same & (first[order][1:] < last[order][:-1])
    if not clash.any():
        return
    at = int(np.argmax(clash))
    a, b = sorted((int(order[at]), int(order[at + 1])))
    label = table.labels
    param_error(
        func,
        "spans",
        "spans of one rater on an item that do not overlap, whatever their labels "
        "(variants 'u2016', '|u', 'cu' and '(k)u' take each rater's units as a partition of "
        "the text)",
        f"[{first[a]}, {last[a]}) labelled {describe(label[table.label[a]])} at "
        f"{where(a, table.index)} and [{first[b]}, {last[b]}) labelled "
        f"{describe(label[table.label[b]])} at "
        f"{where(b, table.index)}, "
        f"by rater {describe(table.raters[rater[a]])} on item {describe(table.items[item[a]])}",
        raw=True,
        fix="Resolve the nested or overlapping spans, or use variant='u', which takes each "
        "label on its own.",
    )


def _float(x: Any) -> float:
    return math.nan if x is None else to_float(x)


def _warn(func: str, variant: str, undefined: list[Any], overall: bool) -> None:
    if overall:
        warnings.warn(
            f"{func}: {_SYMBOL[variant]} is undefined (nan): {_WHY[variant]}.",
            UndefinedKappaWarning,
            stacklevel=4,
        )
    if undefined:
        warnings.warn(
            f"{func}: (k)uα of {', '.join(repr(c) for c in undefined)} is undefined (nan): the "
            "category's units never intersect another rater's units, or every intersection "
            "is of that category alone.",
            UndefinedKappaWarning,
            stacklevel=4,
        )


def family(table: SpanTable, variant: str, func: str) -> UnitizingAlphaResult:
    """Return uα (2016), |uα, or cuα with the (k)uα of every category ("cu", "(k)u")."""
    two_raters(table, func)
    no_overlap(table, func)
    lengths = table.lengths if table.lengths is not None else np.zeros(0, np.int64)
    sums = coincidences(
        lengths, table.item, table.rater, table.start, table.end, table.label,
        len(table.raters), len(table.labels),
    )  # fmt: skip
    n = len(table.labels)
    share = None
    if variant in POOLED:
        overall = binary(sums) if variant == "|u" else nominal(sums)
        each = [Alpha(None, None)] * n
    else:
        (overall, cover), each = coded(sums), per_category(sums)
        share = to_float(cover)
    undefined = (
        []
        if variant in POOLED
        else [c for c, a in zip(table.labels, each, strict=True) if a.value is None]
    )
    _warn(func, variant, undefined, overall.value is None)
    return UnitizingAlphaResult(
        statistic=_float(overall.value),
        exact=overall.value,
        variant=variant,
        labels=tuple(table.labels),
        alphas=np.array([_float(a.value) for a in each]),
        observed=np.array([_float(a.observed) for a in each]),
        expected=np.array([_float(a.expected) for a in each]),
        units=np.bincount(table.label, minlength=n).astype(np.int64),
        raters=tuple(table.raters),
        n_items=len(table.items),
        length=int(lengths.sum()),
        label_column=str(table.names["label"]),
        pooled=(_float(overall.observed), _float(overall.expected)),
        coverage=share,
    )
