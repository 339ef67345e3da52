"""The bootstrap of :func:`concord.compare`: which unit of each side's table an item is.

Each result's bootstrap redraws the units of its own small table: the
cells of a pair table, the distinct item rows (category counts, or who
rated what). A paired bootstrap needs, for every item, its unit on both
sides; the joint patterns of those two indices are what it redraws
(:class:`~concord._inference.resampling.PairedSampler`). The registry's
``table`` says which representation a coefficient's sampler resamples.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from concord._coefficients.registry import Coefficient
from concord._inference.clusters import ClusterSampler
from concord._inference.resampling import (
    IndependentSampler,
    PairedSampler,
    Resampled,
    _marginal,
    joint_patterns,
)
from concord._tables.item_rows import item_codes, item_counts, pair_codes
from concord._tables.patterns import encode, radix_fits

_DENSE = 1 << 16  # rows of at most this many possible codes are located through a table


def _locate(rows: np.ndarray, units: np.ndarray) -> np.ndarray:
    """Index of each row of ``rows`` among ``units`` (distinct rows), −1 where absent."""
    base = int(max(rows.max(initial=0), units.max(initial=0))) + 1
    width = rows.shape[1]
    dense = radix_fits(base, width) and base**width <= max(_DENSE, rows.shape[0])
    if dense and (width == 1 or rows.min(initial=0) >= 0):
        # few possible codes: a table from code to unit, one gather (a −1, the cell
        # of a pair with a missing rating, finds no unit)
        table = np.full(base**width + 1, -1, dtype=np.intp)
        table[encode(units, base) + 1] = np.arange(units.shape[0])
        wanted = encode(rows, base) if width > 1 else rows[:, 0].astype(np.int64)
        lookup: np.ndarray = table[np.where(wanted >= 0, wanted + 1, 0)]
        return lookup
    if radix_fits(base, width):
        keys, wanted = encode(units, base), encode(rows, base)
    else:  # wide rows: compare them as byte strings
        void = np.dtype((np.void, 8 * rows.shape[1]))
        keys = np.ascontiguousarray(units, dtype=np.int64).view(void).ravel()
        wanted = np.ascontiguousarray(rows, dtype=np.int64).view(void).ravel()
    order = np.argsort(keys)
    ordered = keys[order]
    at = np.minimum(np.searchsorted(ordered, wanted), keys.size - 1)
    out: np.ndarray = np.where(ordered[at] == wanted, order[at], -1)
    return out


def _sampler(result: Any, func: str, items: bool = False) -> Resampled:
    """Return the result's own bootstrap sampler (formed now if it waits for first use).

    With ``items``, a clustered result's sampler of items (the one its clusters wrap).
    """
    sampler = result._inferred().sampler
    if items and isinstance(sampler, ClusterSampler):
        sampler = sampler.inner
    sampler = getattr(sampler, "sampler", sampler)  # raters_core.OnDemand
    if not isinstance(sampler, Resampled):
        raise NotImplementedError(
            f"{func}: this coefficient's bootstrap does not resample a table of patterns "
            "(continuous Krippendorff's alpha); use method='t'."
        )
    return sampler


def _cell_units(a: np.ndarray, b: np.ndarray, k: int, sampler: Any) -> np.ndarray:
    """Each pair's cell among the pair table's nonzero cells (codes a, b; −1: missing)."""
    cells = np.where((a >= 0) & (b >= 0), a * k + b, -1)
    return _locate(cells[:, None], np.flatnonzero(sampler.table)[:, None])


def _units(c: Coefficient, data: tuple[Any, ...], result: Any, sampler: Any) -> np.ndarray:
    """Each item's unit in the side's sampler, items in order (−1: not in its table)."""
    func = c.name
    if c.table == "pairs":
        _refuse_weighted(sampler, func)
        a, b = pair_codes(data[0], data[1], result.labels, func)
        return _cell_units(a, b, len(result.labels), sampler)
    if c.table == "raters":
        return _locate(item_codes(data[0], result.labels, func), sampler.raters.rows)
    return _locate(item_counts(data[0], result.labels, func), sampler.patterns.rows)


def _key_units(c: Coefficient, keys: np.ndarray, result: Any, sampler: Any) -> np.ndarray:
    """Each stream key's unit in the side's sampler (−1: not in its table).

    A stream's keys (:mod:`concord._coefficients.pattern_terms`) are the rows
    :func:`_units` derives from the data: codes + 1 of a pair, an item's
    counts per category, or its raters' codes + 1, on the result's labels.
    """
    if c.table == "pairs":
        _refuse_weighted(sampler, c.name)
        return _cell_units(keys[:, 0] - 1, keys[:, 1] - 1, len(result.labels), sampler)
    if c.table == "raters":
        return _locate(keys, sampler.raters.rows)
    return _locate(keys, sampler.patterns.rows)


def _refuse_weighted(sampler: Any, func: str) -> None:
    if getattr(sampler, "unit_cells", None) is not None:
        raise NotImplementedError(f"{func}: compare() does not take sample_weight yet.")


def _joint(
    samplers: list[Resampled], units: list[np.ndarray], weights: np.ndarray | None = None
) -> PairedSampler:
    """Return the joint sampler of each item's units (a key's: ``weights`` items)."""
    sizes = (samplers[0].frequencies().size, samplers[1].frequencies().size)
    first, second, freq = joint_patterns(units[0], units[1], sizes, weights)
    for sampler, index in zip(samplers, (first, second), strict=True):
        # the joint table must hold exactly each side's own units
        marginal = _marginal(freq[None, :].astype(np.float64), index, sampler.frequencies().size)
        assert np.array_equal(marginal[0], sampler.frequencies())
    return PairedSampler(samplers[0], samplers[1], (first, second), freq)


def paired_sampler(
    c: Coefficient,
    sides: tuple[tuple[Any, ...], tuple[Any, ...]],
    results: tuple[Any, Any],
    clusters: np.ndarray | None = None,
) -> Resampled:
    """Return the joint sampler of two sides rated on the same items, row for row.

    With ``clusters`` (one label code per item), whole clusters are redrawn:
    each drawn cluster brings its items' joint patterns (a
    :class:`~concord._inference.clusters.ClusterSampler` around the joint one).
    """
    samplers = [_sampler(r, "compare", items=True) for r in results]
    units = [_units(c, d, r, s) for d, r, s in zip(sides, results, samplers, strict=True)]
    if units[0].shape != units[1].shape:
        raise ValueError(
            f"compare: paired=True needs the same items on both sides; got "
            f"{units[0].size} and {units[1].size}. Pass paired=False for independent samples."
        )
    joint = _joint(samplers, units)
    if clusters is None:
        return joint
    first, second = joint.index
    width = joint.second.frequencies().size + 1  # joint_patterns' codes, returned sorted
    present = (first + 1) * width + (second + 1)
    item = np.searchsorted(present, (units[0] + 1) * width + (units[1] + 1))
    return ClusterSampler.of(joint, clusters, item)


def paired_sampler_of_joint(
    c: Coefficient,
    results: tuple[Any, Any],
    keys: tuple[np.ndarray, np.ndarray],
    freq: np.ndarray,
) -> PairedSampler:
    """Return the joint sampler of a stream's joint pattern table.

    ``keys`` are each joint pattern's key rows on both sides, on the labels
    of ``results`` (the sides' merged results), and ``freq`` their counts.
    Keys falling in the same pair of units add up, and the joint patterns
    come out in :func:`joint_patterns`' order, so the table (and a seed's
    draws) is the one :func:`paired_sampler` forms from the items.
    """
    samplers = [_sampler(r, "accumulate") for r in results]
    units = [_key_units(c, k, r, s) for k, r, s in zip(keys, results, samplers, strict=True)]
    return _joint(samplers, units, freq)


def independent_sampler(results: tuple[Any, Any]) -> IndependentSampler:
    """Return the sampler of a difference of two independent samples."""
    return IndependentSampler(_sampler(results[0], "compare"), _sampler(results[1], "compare"))
