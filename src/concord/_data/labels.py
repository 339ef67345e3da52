"""Categories: declared or inferred, their order, and encoding ratings as category codes.

Policy
------
* Declared ``labels`` fix the categories and their order.
* An ordered pandas Categorical declares its categories in its own order.
* Numbers without declared labels: the sorted distinct values. Linear and
  quadratic distances come from the numeric values themselves.
* Anything else without declared labels is nominal: the distinct values,
  sorted only so that the table has a stable layout. Nominal labels carry no
  order, so weighted statistics refuse them (see :func:`Labels.scores`).
"""

from __future__ import annotations

import contextlib
import numbers
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._common.errors import ForCli, describe, param_error
from concord._data.columns import label_array, listing
from concord._data.kinds import check_text_numbers
from concord._data.sets import declared_sets, is_label_set, sorted_sets


@dataclass(frozen=True)
class Labels:
    """Ordered categories.

    ``values`` are the categories as Python scalars. ``ordered`` says whether
    the order carries meaning (numbers, declared labels, ordered categoricals).
    """

    values: tuple[Any, ...]
    ordered: bool

    @property
    def k(self) -> int:
        return len(self.values)

    @property
    def numeric(self) -> bool:
        return all(isinstance(v, numbers.Real) for v in self.values)

    def scores(self, func: str, weights: str) -> np.ndarray:
        """Return the positions used for linear/quadratic distances.

        Numeric labels are their own scores; ordered non-numeric labels are
        scored 1, 2, ..., k in their declared order, as R irrCAC's
        ``weights.gen`` scores them (the start matters for ratio weights and
        Krippendorff's ratio metric: a score of 0 would put the first
        category at the largest distance from every other).
        """
        if self.numeric:
            return _numeric_scores(self.values, func, weights)
        if not self.ordered:
            param_error(
                func,
                "labels",
                f"given to order non-numeric ratings for weights={weights!r}",
                "None",
                fix=(
                    f"The ratings {_preview(self.values)} have no natural order and concord "
                    "never sorts them alphabetically. Pass labels=[...] listing them from "
                    "lowest to highest, or use an ordered pandas Categorical."
                ),
                raw=True,
                cli=ForCli(
                    expected=f"given to order non-numeric ratings for {weights} distances",
                    got="none",
                    fix=f"The ratings {spelled(self.values)} have no natural order and concord "
                    "never sorts them alphabetically. List them from lowest to highest with "
                    "{labels}.",
                ),
            )
        return np.arange(1, self.k + 1, dtype=np.float64)


def _numeric_scores(values: tuple[Any, ...], func: str, weights: str) -> np.ndarray:
    """Numeric labels as float64 scores, shifted when they are integers beyond 2**53.

    Linear and quadratic distances depend only on differences, so integer
    labels shifted by the smallest one keep them exact while the span is
    below 2**53; other distances, or wider spans, would round: an error.
    """
    ints = [v for v in values if isinstance(v, int)]
    if not ints or max(abs(v) for v in ints) < 2**53:
        return np.array(values, dtype=np.float64)
    lo = min(values)
    shift = len(ints) == len(values) and weights in ("linear", "quadratic")
    if shift and max(values) - lo < 2**53:
        return np.array([v - lo for v in values], dtype=np.float64)
    if shift:  # the weights are right; the ratings' span is what float64 cannot hold
        param_error(
            func,
            "weights",
            "None (unweighted) for integer ratings spanning 2**53 or more",
            weights,
            fix=f"The ratings run from {lo} to {max(values)}: their distances would be "
            "rounded in floating point. Shift or rescale the ratings, or rate them unweighted.",
            cli=ForCli(expected="none for integer ratings spanning 2^53 or more"),
        )
    param_error(
        func,
        "weights",
        "'linear' or 'quadratic' for integer ratings beyond 2**53, spanning less than 2**53",
        weights,
        fix="Distances between such ratings would be rounded in floating point. "
        "Shift the ratings to small integers first.",
        cli=ForCli(expected="linear or quadratic for integers beyond 2^53, spanning under 2^53"),
    )


def _preview(values: Sequence[Any], limit: int = 5) -> str:
    return f"({spelled(values, limit)})"


def spelled(values: Sequence[Any], limit: int = 5) -> str:
    """Return the first ``limit`` values, comma-separated (the command line's words for a list)."""
    shown = ", ".join(describe(v, 40) for v in list(values)[:limit])
    return f"{shown}{', ...' if len(values) > limit else ''}"


def check_labels(labels: Any, func: str) -> tuple[Any, ...] | None:
    """Validate the ``labels`` parameter: None, or a non-empty 1-D sequence of distinct values."""
    if labels is None:
        return None
    if isinstance(labels, str | bytes) or np.isscalar(labels):
        param_error(
            func,
            "labels",
            "a list of categories",
            labels,
            exc=TypeError,
            fix="For example labels=[1, 2, 3, 4, 5, 6].",
        )
    if type(labels) in (list, tuple) and any(map(is_label_set, labels)):
        arr = np.empty(len(labels), dtype=object)  # label sets: one element each, not a row
        arr[:] = declared_sets(tuple(labels), func)
    else:
        arr = np.asarray(labels, dtype=object)
    if arr.ndim != 1 or arr.shape[0] == 0:
        param_error(func, "labels", "a non-empty 1-D list of categories", labels)
    values = tuple(v.item() if isinstance(v, np.generic) else v for v in arr)
    if any(v is None or (isinstance(v, float) and v != v) for v in values):
        param_error(func, "labels", "free of missing values", labels)
    if any(isinstance(v, float) and abs(v) == float("inf") for v in values):
        param_error(
            func,
            "labels",
            "finite",
            labels,
            fix="An infinite category has no distance to the others; remove it.",
        )
    repeated = [v for v, c in Counter(values).items() if c > 1]
    if repeated:
        param_error(
            func,
            "labels",
            "distinct categories",
            labels,
            fix=f"Repeated: {listing(repeated)}.",
        )
    return values


def lookup(values: np.ndarray, labels: tuple[Any, ...], func: str, name: str) -> np.ndarray:
    """Return the position in ``labels`` of each rating; raise naming ratings not in ``labels``."""
    codes, found = positions(values, labels)
    if not found.all():
        unknown(Counter(values[~found].tolist()), labels, func, name)
    return codes


def positions(values: np.ndarray, labels: tuple[Any, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Return the position in ``labels`` of each rating, and where it was found there."""
    keys = label_array(labels)
    numeric = keys.dtype.kind in "biuf" and values.dtype.kind in "biuf"
    text = keys.dtype.kind == "U" and values.dtype.kind == "U"
    if numeric and keys.dtype.kind in "iu" and values.dtype.kind in "iu" and values.size:
        dense = _dense_positions(values, keys)
        if dense is not None:
            return dense
    if (numeric or text) and exactly_joined([keys, values]):
        order = np.argsort(keys, kind="stable")
        ranked = keys[order]
        pos = np.clip(np.searchsorted(ranked, values), 0, len(ranked) - 1)
        found = ranked[pos] == values
        codes = order[pos]
    else:
        index = {v: i for i, v in enumerate(labels)}
        codes = np.fromiter((index.get(v, -1) for v in values.tolist()), np.int64, len(values))
        found = codes >= 0
    return codes.astype(np.intp), found


def _dense_positions(values: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`positions` of integer ratings under integer labels of a short range: one gather.

    None when the labels span more than the ratings' count (or 2**16) values.
    """
    lo, hi = int(keys.min()), int(keys.max())
    if hi - lo >= max(1 << 16, values.size):
        return None
    table = np.full(hi - lo + 1, -1, dtype=np.intp)
    table[keys.astype(np.int64) - lo] = np.arange(keys.size)
    v_lo, v_hi = int(values.min()), int(values.max())
    if lo <= v_lo and v_hi <= hi:  # every rating in the labels' range (int64 there)
        index = values.astype(np.int64, copy=False)
        codes = table[index - lo if lo else index]
        if (table[v_lo - lo : v_hi - lo + 1] >= 0).all():  # every value there is a label
            return codes, np.ones(values.shape, dtype=bool)
    else:
        inside = (values >= lo) & (values <= hi)
        codes = np.full(values.shape, -1, dtype=np.intp)
        codes[inside] = table[values[inside].astype(np.int64) - lo]
    found = codes >= 0
    if not found.all():
        codes[~found] = 0  # as the sorted path, where a missing rating's position is arbitrary
    return codes, found


def unknown(counts: Counter[Any], labels: tuple[Any, ...], func: str, name: str) -> None:
    """Raise the error for ratings (value → count) that are not among the declared labels."""
    ranked = sorted(counts.items(), key=lambda t: -t[1])
    listed = ", ".join(f"{describe(v, 40)} ({c}×)" for v, c in ranked[:5])
    more = f" and {len(counts) - 5:,} more" if len(counts) > 5 else ""
    param_error(
        func,
        "labels",
        f"a list containing every rating in {name!r}",
        f"ratings not in labels={_preview(labels)}: {listed}{more}",
        fix="Add those categories to 'labels', or remove those ratings.",
        raw=True,
        cli=ForCli(
            expected=f"a list containing every rating in {{{name}}}",
            got=f"ratings not in {{labels}}: {listed}{more}",
            fix="Add those categories to {labels}, or remove those ratings.",
        ),
    )


def exactly_joined(arrays: Sequence[np.ndarray]) -> bool:
    """Whether numpy's common dtype of ``arrays`` keeps every value distinct and exact.

    Numbers beside strings would turn 1 into '1'; int64 beside uint64 or
    float64 becomes float64, which merges 2**53 + 1 with 2**53.
    """
    kinds = {a.dtype.kind for a in arrays}
    if len({k in "biuf" for k in kinds}) > 1:
        return False
    if not kinds & set("iu") or len(kinds | {"b"}) <= 2 or np.result_type(*arrays).kind != "f":
        return True  # integers of one kind (with bools) have an exact common type
    return all(a.dtype.kind not in "iu" or _small(a) for a in arrays)


def _small(a: np.ndarray) -> bool:
    """Whether every integer in ``a`` is exact as a float64."""
    return a.size == 0 or max(-int(a.min()), int(a.max())) < 2**53


def infer(arrays: Sequence[np.ndarray], func: str = "") -> tuple[Labels, list[np.ndarray]]:
    """Infer nominal or numeric labels from the ratings and return them with the codes.

    ``func`` names the function in the error for label sets beside single labels.
    """
    if not exactly_joined(arrays):  # compare the values as Python objects instead
        arrays = [a.astype(object) for a in arrays]
    joined = np.concatenate(arrays)
    try:
        values, inverse = _sorted_distinct(joined, func)
    except TypeError:  # incomparable objects: keep the order of first appearance
        index: dict[Any, int] = {}
        inverse = np.fromiter(
            (index.setdefault(v, len(index)) for v in joined.tolist()), np.intp, len(joined)
        )
        values = tuple(index)
    check_text_numbers(values, func)
    return _split(values, inverse, arrays)


def infer_sorted(
    arrays: Sequence[np.ndarray], func: str = ""
) -> tuple[Labels, list[np.ndarray]] | None:
    """:func:`infer` for values that sort; None for incomparable ones.

    Their labels depend on the order of the values alone, not on the order
    of their appearance, so the distinct values of each array give them.
    """
    if not exactly_joined(arrays):
        arrays = [a.astype(object) for a in arrays]
    try:
        values, inverse = _sorted_distinct(np.concatenate(arrays), func)
    except TypeError:
        return None
    check_text_numbers(values, func)
    return _split(values, inverse, arrays)


def _sorted_distinct(joined: np.ndarray, func: str) -> tuple[tuple[Any, ...], np.ndarray]:
    if joined.dtype.kind == "O" and any(isinstance(v, frozenset) for v in joined.tolist()):
        # label sets: numpy would sort them by inclusion, a partial order that splits
        # equal sets; they are distinct by hash and laid out by size, then labels
        index = dict.fromkeys(joined.tolist())
        values = sorted_sets(index, func)
        rank = {v: i for i, v in enumerate(values)}
        inverse = np.fromiter(map(rank.__getitem__, joined.tolist()), np.intp, len(joined))
        return values, inverse
    uniq, inverse = np.unique(joined, return_inverse=True)
    return tuple(v.item() if isinstance(v, np.generic) else v for v in uniq), inverse


def _split(
    values: tuple[Any, ...], inverse: np.ndarray, arrays: Sequence[np.ndarray]
) -> tuple[Labels, list[np.ndarray]]:
    labels = Labels(values, ordered=all(isinstance(v, numbers.Real) for v in values))
    bounds = np.cumsum([0] + [len(a) for a in arrays])
    codes = [inverse.reshape(-1)[bounds[i] : bounds[i + 1]] for i in range(len(arrays))]
    return labels, codes


def union(a: Labels, b: Labels, func: str = "") -> Labels:
    """Return the labels :func:`infer` finds in two batches together, from those of each.

    Sorted when the values compare with each other (numbers; strings), as
    ``np.unique`` sorts them; otherwise in order of first appearance.
    """
    seen = set(a.values)
    values = a.values + tuple(v for v in b.values if v not in seen)
    check_text_numbers(values, func)
    if any(isinstance(v, frozenset) for v in values):  # label sets: by size, then labels
        return Labels(sorted_sets(values, func), ordered=False)
    with contextlib.suppress(TypeError):  # incomparable values: order of first appearance
        values = tuple(sorted(values))
    return Labels(values, ordered=all(isinstance(v, numbers.Real) for v in values))


def merged_labels(
    a: Labels, a_declared: bool, b: Labels, b_declared: bool, where: tuple[str, str]
) -> Labels:
    """Return the labels of two tables together (a stream's batches, or two streams).

    Found labels grow as :func:`~concord._data.labels.union`; declared ones (an
    ordered Categorical, the count form) fix the categories and their order.
    """
    if not (a_declared or b_declared):
        return union(a, b, where[0])
    if a_declared and b_declared:
        if a.values != b.values:
            param_error(
                *where,
                f"rated on the categories {_preview(a.values, 10)}, in this order",
                f"the declared categories {_preview(b.values, 10)}",
                raw=True,
                fix="Declare labels=[...] in accumulate() to fix the categories and their order.",
                cli=ForCli(fix="Declare every category, in order, with {labels}."),
            )
        return a
    fixed, found = (a, b) if a_declared else (b, a)
    stray = [v for v in found.values if v not in set(fixed.values)]
    if stray:
        param_error(
            *where,
            f"rated on the declared categories {_preview(fixed.values)}",
            f"ratings outside them: {listing(stray)}",
            raw=True,
            fix="Declare labels=[...] in accumulate() listing every category.",
            cli=ForCli(fix="Declare every category, in order, with {labels}."),
        )
    return fixed
