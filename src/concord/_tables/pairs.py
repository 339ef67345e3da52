"""Raw ratings of two raters → validated labels → the k×k confusion table.

This is the only place where two raters' ratings become a table (arrays of
PyTorch, CuPy and JAX are counted on their device by
:mod:`concord._tables.pairs_device`, which labels its table here). Integer
ratings (and integral floats) are counted on the range of their values by
:mod:`concord._tables.engines` without materialising codes; all other ratings are
encoded by label lookup and counted with ``np.bincount``. With sample
weights the table is summed from the distinct (cell, weight) units, so it
depends only on the set of pairs, not on their order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from concord._common.errors import param_error
from concord._common.options import check_nan_policy
from concord._data.arrays import Fallback, any_device_array, counted_on_device, to_host
from concord._data.columns import (
    Column,
    categorical_order,
    check_pair,
    check_some_weight,
    column,
    integral_floats,
    is_integral_number,
    label_array,
    omit_missing,
    paired,
    paired_weight,
    sample_weights,
)
from concord._data.labels import Labels, check_labels, infer, infer_sorted, lookup, positions
from concord._tables import engines as _count
from concord._tables.pair_table import PairTable, labelled_table, weighted_table


def confusion_table(
    rater1: Any,
    rater2: Any,
    *,
    labels: Any,
    nan_policy: str,
    sample_weight: Any,
    func: str,
    engine: _count.Engine = "auto",
) -> PairTable:
    """Validate two raters' ratings and count their confusion table."""
    counted = _table(rater1, rater2, labels, nan_policy, sample_weight, func, engine, False)
    assert counted is not None
    return counted


def batch_table(
    rater1: Any, rater2: Any, *, labels: Any, nan_policy: str, sample_weight: Any, func: str
) -> PairTable | None:
    """Count one batch of a stream; return None when no pair is left to count.

    An empty batch, or one whose every pair ``nan_policy="omit"`` drops, adds nothing.
    """
    return _table(rater1, rater2, labels, nan_policy, sample_weight, func, "auto", True)


def _table(
    rater1: Any,
    rater2: Any,
    labels: Any,
    nan_policy: str,
    sample_weight: Any,
    func: str,
    engine: _count.Engine,
    allow_empty: bool,
) -> PairTable | None:
    declared = check_labels(labels, func)
    check_nan_policy(nan_policy, func)
    if declared is None and sample_weight is None:
        plain = _plain_table(rater1, rater2, engine)
        if plain is not None:
            return plain
    rater1, rater2 = paired(rater1, rater2, func)
    sample_weight = paired_weight(rater1, sample_weight, func)
    if any_device_array(rater1, rater2, sample_weight):  # host or device, decided once here
        on_device = _device_table(rater1, rater2, declared, nan_policy, sample_weight, func)
        if on_device is not None:
            return on_device
        rater1, rater2, sample_weight = map(to_host, (rater1, rater2, sample_weight))
    # the host path: numpy arrays and array-likes from here on, no device check
    c1 = column(rater1, func, "rater1", coded=True, host=True)
    c2 = column(rater2, func, "rater2", coded=True, host=True)
    if allow_empty and c1.values.shape[0] == 0 == c2.values.shape[0]:
        return None
    check_pair(c1, c2, func)
    weight = sample_weights(sample_weight, c1.values.shape[0], func, host=True)
    every = None if declared is not None else _every_rating([c1, c2], func)
    (c1, c2), weight = omit_missing([c1, c2], weight, nan_policy, func, allow_empty=allow_empty)
    if c1.values.shape[0] == 0:
        return None if every is None else _empty(every, weighted=weight is not None)
    if not allow_empty:  # a batch of zero weights adds nothing; a whole input of them is empty
        check_some_weight(weight, func)
    declared = categorical_order(declared, [c1, c2], func)
    if declared is None and every is not None:
        counted = _count_pairs(c1, c2, every.values, func, engine)
        counted = PairTable(counted.table, every)  # inferred, not declared: its own order flag
    else:
        counted = _count_pairs(c1, c2, declared, func, engine)
    units = None if weight is None else _units(c1, c2, counted.labels, weight, func)
    table = counted.table if units is None else weighted_table(units, counted.labels.k)
    return PairTable(table, counted.labels, units, declared is not None)


def _empty(labels: Labels, *, weighted: bool) -> PairTable:
    """Return an empty table of ``labels``, for a batch whose every pair has a missing rating.

    It still shows its categories, so the merged labels are the one-shot call's.
    """
    k = labels.k
    if not weighted:
        return PairTable(np.zeros((k, k), dtype=np.int64), labels)
    none = (np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0, dtype=np.int64))
    return PairTable(np.zeros((k, k)), labels, none)


def _every_rating(cols: list[Column], func: str) -> Labels | None:
    """Return the categories of every rating, before pairs with a missing one are dropped.

    None when nothing is missing (the pairs hold every rating). Without it,
    ``nan_policy="omit"`` would take the categories from the pairs it keeps, and
    a category rated only beside a missing rating would vanish: the weights'
    spacing, and so a weighted kappa, would change with it.
    """
    if all(c.missing is None or not c.missing.any() for c in cols):
        return None
    kept = [c if c.missing is None else c.take(~c.missing) for c in cols]
    if all(c.values.shape[0] == 0 for c in kept):
        return None  # a stream's batch of missing ratings only: nothing to count
    if any(c.ordered and c.categories is not None for c in kept):
        return None  # ordered Categoricals declare their categories themselves
    values = []
    for c, name in zip(kept, ("rater1", "rater2"), strict=True):
        ints = integral_floats(c.values, None, func, name) if c.values.dtype.kind == "f" else None
        values.append(c.decoded() if ints is None else ints)
    labels, _ = infer(values)
    return labels


def _device_table(
    rater1: Any, rater2: Any, declared: Any, nan_policy: str, sample_weight: Any, func: str
) -> PairTable | None:
    """Count on the arrays' device; None where numpy's path counts (CPU arrays, a Fallback)."""
    if not any(counted_on_device(x) for x in (rater1, rater2, sample_weight)):
        return None
    from concord._tables.pairs_device import pair_table

    try:
        return pair_table(rater1, rater2, declared, nan_policy, sample_weight, func)
    except Fallback:  # numpy's path: the same result, or numpy's error
        return None


def _plain_table(rater1: Any, rater2: Any, engine: _count.Engine) -> PairTable | None:
    """Count two plain numpy integer arrays of one length; return None for any other input.

    The common case skips the general path's checks, each of which such
    arrays pass (no missing value, no categories, nothing to pair by index),
    and counts exactly as :func:`_integer_table` does.
    """
    if type(rater1) is not np.ndarray or type(rater2) is not np.ndarray:
        return None
    if rater1.ndim != 1 or rater1.shape != rater2.shape or rater1.shape[0] == 0:
        return None
    kinds = rater1.dtype.kind + rater2.dtype.kind
    if kinds.strip("iub") or (np.uint64 in (rater1.dtype, rater2.dtype)):
        return None  # uint64 may exceed int64: the general path checks
    return _integer_table(rater1, rater2, None, "", engine)


def _count_pairs(
    c1: Column, c2: Column, declared: tuple[Any, ...] | None, func: str, engine: _count.Engine
) -> PairTable:
    if c1.numeric and c2.numeric:
        ints = _as_integers(c1.values, c2.values, declared, func)
        if ints is not None:
            counted = _integer_table(*ints, declared, func, engine)
            if counted is not None:
                return counted
    if c1.categories is not None and c2.categories is not None:
        coded = _coded_table(c1, c2, declared, func, engine)
        if coded is not None:
            return coded
    return _lookup_table(c1, c2, declared, func)


def _coded_table(
    c1: Column, c2: Column, declared: tuple[Any, ...] | None, func: str, engine: _count.Engine
) -> PairTable | None:
    """Count codes into categories (Categoricals, factorised strings), then label that table.

    Only the k1×k2 table of codes is relabelled, never the n ratings. None
    (take the general path) when the codes span too many categories, when
    the categories do not sort, or when a rating is not among ``declared``
    (the general path names it in its error).
    """
    counted = _count.pair_table(c1.values, c2.values, engine=engine)
    if counted is None:
        return None
    dense, lo = counted
    used = [lo + np.flatnonzero(dense.sum(axis=1)), lo + np.flatnonzero(dense.sum(axis=0))]
    seen = [label_array(c.categories)[u] for c, u in zip((c1, c2), used, strict=True)]
    if declared is None:
        inferred = infer_sorted(seen, func)
        if inferred is None:
            return None
        labels, places = inferred
    else:
        labels = Labels(declared, ordered=True)
        found = [positions(s, declared) for s in seen]
        if not all(f.all() for _, f in found):
            return None
        places = [p for p, _ in found]
    k = labels.k
    table = np.zeros((k, k), dtype=np.int64)
    block = dense[np.ix_(used[0] - lo, used[1] - lo)]
    table[np.ix_(places[0], places[1])] = block  # distinct categories: distinct places
    return PairTable(table, labels)


def _units(
    c1: Column, c2: Column, labels: Labels, weight: np.ndarray, func: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the distinct (cell, sample weight) pairs and how often each occurs."""
    k = labels.k
    codes = [
        lookup(c.decoded(), labels.values, func, name)
        for c, name in ((c1, "rater1"), (c2, "rater2"))
    ]
    stacked = np.column_stack([(codes[0] * k + codes[1]).astype(np.float64), weight])
    unique, freq = np.unique(stacked, axis=0, return_counts=True)
    return unique[:, 0].astype(np.int64), unique[:, 1], freq.astype(np.int64)


def _as_integers(
    a: np.ndarray, b: np.ndarray, declared: tuple[Any, ...] | None, func: str
) -> tuple[np.ndarray, np.ndarray] | None:
    """Return the ratings as integer arrays, or None if they must be looked up instead."""
    if declared is not None and not all(is_integral_number(v) for v in declared):
        return None
    out = []
    for name, x in (("rater1", a), ("rater2", b)):
        ints = integral_floats(x, declared, func, name) if x.dtype.kind == "f" else x
        if ints is None or (ints.dtype == np.uint64 and ints.max(initial=0) >= 2**63):
            return None
        out.append(ints)
    return out[0], out[1]


def _integer_table(
    a: np.ndarray,
    b: np.ndarray,
    declared: tuple[Any, ...] | None,
    func: str,
    engine: _count.Engine,
) -> PairTable | None:
    counted = _count.pair_table(a, b, engine=engine)
    if counted is None:
        return None
    dense, lo = counted
    both_bool = a.dtype == np.bool_ and b.dtype == np.bool_
    return labelled_table(dense, lo, both_bool, declared, func)


def _lookup_table(
    c1: Column, c2: Column, declared: tuple[Any, ...] | None, func: str
) -> PairTable:
    if declared is None:
        labels, (k1, k2) = infer([c1.decoded(), c2.decoded()], func)
    else:
        labels = Labels(declared, ordered=True)
        k1, k2 = (
            c.values if c.categories == declared else lookup(c.decoded(), declared, func, name)
            for c, name in ((c1, "rater1"), (c2, "rater2"))
        )
    k = labels.k
    flat = np.bincount(k1 * k + k2, minlength=k * k).astype(np.int64, copy=False)  # no copy
    return PairTable(flat.reshape(k, k), labels)


def encode_rater(values: Any, labels: Any, func: str, name: str) -> tuple[np.ndarray, Labels]:
    """Validate one rater's ratings (no missing values) and return their label codes."""
    declared = check_labels(labels, func)
    c = column(values, func, name)
    if c.missing is not None:
        param_error(
            func,
            name,
            "free of missing values",
            f"{int(c.missing.sum())} missing",
            raw=True,
            fix="Drop those items first.",
        )
    if c.values.shape[0] == 0:
        param_error(func, name, "non-empty", "an empty array", raw=True)
    declared = categorical_order(declared, [c], func)
    values_ = c.decoded()
    if c.numeric and c.values.dtype.kind == "f":
        ints = integral_floats(c.values, declared, func, name)
        values_ = ints if ints is not None else c.values
    if declared is not None:
        return lookup(values_, declared, func, name), Labels(declared, ordered=True)
    found, (codes,) = infer([values_], func)
    if found.numeric and all(isinstance(v, float) and v.is_integer() for v in found.values):
        found = Labels(tuple(int(v) for v in found.values), ordered=True)
    return codes, found
