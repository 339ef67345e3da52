"""Two raters' ratings on their device (PyTorch, CuPy, JAX) → the k×k confusion table.

The device twin of :func:`concord._tables.pairs.confusion_table`, step for step:
missing ratings (NaN) follow ``nan_policy``; whole numbers within
``MAX_RANGE`` values are counted as offsets from the smallest rating with
one ``bincount`` on the device; other ratings are encoded against their
distinct values (a sort and ``searchsorted`` on the device) and counted
the same way. What comes to the host: the k×k table (size² cells
with size ≤ ``MAX_RANGE``), the distinct values when they are looked up,
and with sample weights the distinct (cell, weight) units. The labels and
the table are then made by the host code itself, so they are identical to
those of the same ratings passed as numpy arrays.

Every input that the host path rejects raises :class:`Fallback` here, and
the caller copies the inputs to the host, where numpy's path raises its own
error; so do uint64 ratings and arrays of different libraries or devices.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._data.arrays import (
    MAX_RANGE,
    Fallback,
    bounds,
    check_numeric,
    count_cells,
    device_of,
    filled,
    index_dtype,
    index_max,
    is_device_array,
    kind,
    namespace,
    offsets,
    pair_codes,
    scalar,
    sorted_unique,
    to_host,
    unique_counts,
)
from concord._data.columns import is_integral_number, sample_weights
from concord._data.labels import Labels, infer, lookup
from concord._tables.pair_table import PairTable, labelled_table, weighted_table

_EXACT_FLOAT = 2.0**53
_NAMES = ("rater1", "rater2")

# How one rater's ratings map to label codes: (lo, keys, positions). With ``keys``
# None the code of x is positions[x − lo]; otherwise it is
# positions[searchsorted(keys, x)], keys being the rater's sorted distinct values.
Encoder = tuple[int, Any, np.ndarray]


def pair_table(
    rater1: Any,
    rater2: Any,
    declared: tuple[Any, ...] | None,
    nan_policy: str,
    sample_weight: Any,
    func: str,
) -> PairTable:
    """Count the confusion table of two raters' device arrays; raise Fallback if not handled.

    Pairs that ``nan_policy="omit"`` drops are not removed (under JAX that
    would copy a mask to the host) but counted in a last cell, then discarded.
    """
    if not (is_device_array(rater1) and is_device_array(rater2)):
        raise Fallback  # a device array beside a host one (or only the weights on a device)
    xp = namespace(rater1, rater2)
    kinds = (check_numeric(xp, rater1, 1), check_numeric(xp, rater2, 1))
    if rater1.shape != rater2.shape:
        raise Fallback
    weight = _weights(xp, sample_weight, rater1, func)
    keep = _keep(xp, rater1, rater2, kinds, nan_policy)
    both_bool = kinds == ("b", "b")
    idx = index_dtype(xp, rater1)
    raters = tuple(
        xp.astype(x, idx) if code == "b" else x
        for x, code in zip((rater1, rater2), kinds, strict=True)
    )  # bool cannot be searched: 0 and 1
    kinds = (kinds[0].replace("b", "i"), kinds[1].replace("b", "i"))
    integral = declared is None or all(is_integral_number(v) for v in declared)
    whole = integral and all(
        _whole(xp, x, code, keep, declared is not None)
        for x, code in zip(raters, kinds, strict=True)
    )
    found = [bounds(xp, x, code, keep) for x, code in zip(raters, kinds, strict=True)]
    low, high = (found[0][0], found[1][0]), (found[0][1], found[1][1])
    pair = _Pair(xp, (raters[0], raters[1]), kinds, keep, idx, low, high)
    counted = _dense(pair, declared, func, both_bool) if whole else None
    if counted is None:
        counted = _looked_up(pair, declared, func)
    table, encoders = counted
    if weight is None:
        return PairTable(table.table, table.labels, None, declared is not None)
    k = table.labels.k
    units = _units(pair, encoders, k, *weight)
    return PairTable(weighted_table(units, k), table.labels, units, declared is not None)


@dataclass(frozen=True)
class _Pair:
    """Two raters' ratings on the device: kinds, pairs kept, index dtype, smallest and largest."""

    xp: Any
    raters: tuple[Any, Any]
    kinds: tuple[str, str]
    keep: Any
    idx: Any
    low: tuple[Any, Any]
    high: tuple[Any, Any]

    def rater(self, side: int, s: slice) -> Any:
        """Return one rater's ratings over a slice, its smallest one where a pair is dropped."""
        x = self.raters[side][s]
        return x if self.keep is None else filled(self.xp, x, self.keep[s], self.low[side])

    def cells(self, s: slice, k: int, code: Callable[[int, slice], Any], shift: int = 0) -> Any:
        """Return code(rater1) · k + code(rater2) − shift over a slice, k² where dropped."""
        cells = pair_codes(self.xp, code(0, s), k, code(1, s))
        if shift:
            cells = cells - shift
        if self.keep is None:
            return cells
        return self.xp.where(self.keep[s], cells, self.xp.full_like(cells, k * k))

    def count(self, k: int, code: Callable[[int, slice], Any], shift: int = 0) -> np.ndarray:
        """Return the k×k table of the pairs of codes, counted on the device."""
        dropped = 0 if self.keep is None else 1
        n = self.raters[0].shape[0]
        flat = count_cells(lambda s: self.cells(s, k, code, shift), n, k * k + dropped)
        return flat[: k * k].reshape(k, k)

    def codes(self, encoders: tuple[Encoder, Encoder]) -> Callable[[int, slice], Any]:
        """Return the function that gives one rater's label codes over a slice."""
        tables = [
            self.xp.asarray(positions, dtype=self.idx, device=device_of(self.raters[0]))
            for _, _, positions in encoders
        ]

        def code(side: int, s: slice) -> Any:
            lo, keys, _ = encoders[side]
            x = self.rater(side, s)
            if keys is None:
                at = offsets(self.xp, x, self.kinds[side], lo, self.idx)
            else:
                at = self.xp.astype(self.xp.searchsorted(keys, x), self.idx)
            return self.xp.take(tables[side], at)

        return code


def _weights(xp: Any, weight: Any, a: Any, func: str) -> tuple[np.ndarray, Any] | None:
    """Return the sorted distinct sample weights (host, float64) and each pair's index in them."""
    if weight is None:
        return None
    n, idx = a.shape[0], index_dtype(xp, a)
    if not is_device_array(weight):
        host = sample_weights(weight, n, func)  # numpy's checks and errors
        assert host is not None
        values, inverse = np.unique(host, return_inverse=True)
        return values, xp.asarray(inverse.reshape(-1), dtype=idx, device=device_of(a))
    namespace(a, weight)  # one library, one device
    code = kind(xp, weight)
    if weight.shape != (n,) or code not in "biuf":
        raise Fallback
    if code in "iuf":
        bad = ~xp.isfinite(weight) | (weight < 0) if code == "f" else weight < 0
        if scalar(xp.any(bad)):
            raise Fallback  # numpy names the bad weights
    else:
        weight = xp.astype(weight, idx)  # bool cannot be searched: 0 and 1
    distinct = sorted_unique(xp, weight)
    found = np.asarray(to_host(distinct), dtype=np.float64)
    if np.unique(found).shape != found.shape:  # integers beyond 2**53 that float64 merges
        raise Fallback
    return found, xp.astype(xp.searchsorted(distinct, weight), idx)


def _keep(xp: Any, a: Any, b: Any, kinds: tuple[str, str], nan_policy: str) -> Any:
    """Apply ``nan_policy``: return the mask of complete pairs, or None when all are."""
    masks = [xp.isnan(x) for x, code in zip((a, b), kinds, strict=True) if code == "f"]
    if not masks:
        return None
    missing = masks[0] if len(masks) == 1 else masks[0] | masks[1]
    if not scalar(xp.any(missing)):
        return None
    if nan_policy == "raise" or scalar(xp.all(missing)):
        raise Fallback  # numpy raises, or (a stream's batch) finds nothing to count
    return ~missing


def _whole(xp: Any, x: Any, code: str, keep: Any, declared: bool) -> bool:
    """Whether one rater's ratings are whole numbers to count; False: look them up."""
    if code != "f":
        return True
    x = filled(xp, x, keep, 0.0)
    if scalar(xp.all(x == xp.round(x))) and scalar(xp.max(xp.abs(x))) < _EXACT_FLOAT:
        return True  # and finite: ±inf is whole, but not below 2**53
    if not declared or not scalar(xp.all(xp.isfinite(x))):
        raise Fallback  # numpy: an infinite rating, or non-integral ones without labels
    return False


def _dense(
    pair: _Pair, declared: tuple[Any, ...] | None, func: str, both_bool: bool
) -> tuple[PairTable, tuple[Encoder, Encoder]] | None:
    """Count whole-number ratings on the range of their values, as ``_count.pair_table``."""
    lo = int(min(pair.low))
    size = int(max(pair.high)) - lo + 1
    if size > MAX_RANGE:
        return None

    def offset(side: int, s: slice) -> Any:
        return offsets(pair.xp, pair.rater(side, s), pair.kinds[side], lo, pair.idx)

    def value(side: int, s: slice) -> Any:
        return pair.xp.astype(pair.rater(side, s), pair.idx, copy=False)

    if (abs(lo) + size) * (size + 1) < index_max(pair.xp, pair.idx):
        # (a − lo) · size + (b − lo) = a · size + b − lo · (size + 1): one pass fewer
        dense = pair.count(size, value, lo * (size + 1))
    else:
        dense = pair.count(size, offset)
    table = labelled_table(dense, lo, both_bool, declared, func)
    positions = np.full(size, -1, dtype=np.int64)
    for i, v in enumerate(table.labels.values):
        if 0 <= int(v) - lo < size:
            positions[int(v) - lo] = i
    return table, ((lo, None, positions), (lo, None, positions))


def _looked_up(
    pair: _Pair, declared: tuple[Any, ...] | None, func: str
) -> tuple[PairTable, tuple[Encoder, Encoder]]:
    """Encode the ratings against their distinct values, as ``_tables._lookup_table``."""
    everything = slice(0, pair.raters[0].shape[0])
    keys = [sorted_unique(pair.xp, pair.rater(side, everything)) for side in (0, 1)]
    host = [to_host(k) for k in keys]
    if declared is None:
        labels, maps = infer(host)
    else:
        labels = Labels(declared, ordered=True)
        try:
            maps = [lookup(h, declared, func, name) for h, name in zip(host, _NAMES, strict=True)]
        except ValueError:  # ratings not in labels: numpy's error counts them
            raise Fallback from None
    k = labels.k
    if k * k + 1 > index_max(pair.xp, pair.idx):
        raise Fallback
    encoders: tuple[Encoder, Encoder] = (
        (0, keys[0], np.asarray(maps[0])),
        (0, keys[1], np.asarray(maps[1])),
    )
    return PairTable(pair.count(k, pair.codes(encoders)), labels), encoders


def _units(
    pair: _Pair, encoders: tuple[Encoder, Encoder], k: int, values: np.ndarray, inverse: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the distinct (cell, weight) pairs with their frequencies, as ``_tables._units``."""
    xp, m = pair.xp, values.shape[0]
    if (k * k + 1) * m > index_max(xp, pair.idx):
        raise Fallback
    cells = pair.cells(slice(0, pair.raters[0].shape[0]), k, pair.codes(encoders))
    found, freq = unique_counts(xp, cells * m + xp.astype(inverse, pair.idx))
    combined = np.asarray(to_host(found), dtype=np.int64)
    counts = np.asarray(to_host(freq), dtype=np.int64)
    kept = combined < k * k * m  # the dropped pairs' cell is k²
    combined, counts = combined[kept], counts[kept]
    return combined // m, values[combined % m], counts
