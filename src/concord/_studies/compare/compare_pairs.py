"""Paired comparison of two-rater coefficients, from the joint table of the pairs' cells.

A pair's linearised term (:func:`concord._coefficients.kappa.cohen.pair_item_terms`)
depends only on its cell (rater1's code, rater2's code), so a paired item's
difference of terms depends only on its two cells. The items are counted once
into the joint table of (cell on the first side, cell on the second); the
terms are evaluated once per joint pattern (the registry's ``pattern_terms``,
the same values bit for bit), and the SE is :func:`~concord._common.exact.fsum_counts`
over the patterns: the same correctly rounded sums as over the items. The
paired bootstrap redraws these joint patterns, in the order and with the
counts :func:`~concord._studies.compare.compare_boot.paired_sampler` finds
(each side's units are its table's non-zero cells, in order), so a seed
draws the same replicates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._coefficients.registry import Coefficient
from concord._common import exact as _exact
from concord._common.errors import param_error
from concord._inference.clusters import ClusterSampler, singletons
from concord._inference.resampling import PairedSampler, Resampled, joint_patterns
from concord._tables.item_rows import pair_codes
from concord._tables.pair_table import PairTable
from concord._tables.pairs import confusion_table


@dataclass(frozen=True)
class PairJoint:
    """Paired items as joint patterns: each pattern's cell a·k + b on each side, and count.

    Patterns are sorted by (first cell, second cell); ``item`` is each item's
    pattern, kept when clusters need the items.
    """

    cells: tuple[np.ndarray, np.ndarray]
    freq: np.ndarray
    item: np.ndarray | None = None


def _cells(
    c: Coefficient, data: tuple[Any, ...], options: dict[str, Any]
) -> tuple[PairTable, Any]:
    """Return the side's confusion table and each pair's cell, as ``pair_item_terms`` does."""
    if options.get("sample_weight") is not None:
        raise NotImplementedError(f"{c.name}: compare() does not take sample_weight yet.")
    counted = confusion_table(
        *data,
        labels=options["labels"],
        nan_policy=options["nan_policy"],
        sample_weight=None,
        func=c.name,
    )
    a, b = pair_codes(data[0], data[1], counted.labels.values, c.name)
    return counted, a * counted.labels.k + b


def _keys(cells: np.ndarray, k: int) -> np.ndarray:
    """Return the pattern terms' key of each cell: the two raters' codes + 1."""
    return np.column_stack([cells // k + 1, cells % k + 1]).astype(np.int64)


def paired_pairs(
    c: Coefficient,
    sides: tuple[tuple[Any, ...], tuple[Any, ...]],
    options: tuple[dict[str, Any], dict[str, Any]],
    clusters: np.ndarray | None,
) -> tuple[np.ndarray, PairJoint]:
    """Return each joint pattern's difference of terms (second − first) and the joint table.

    ``options`` are each side's options with their defaults; with ``clusters``
    (not all singletons), the joint table keeps each item's pattern.
    """
    assert c.pattern_terms is not None
    found = [_cells(c, d, o) for d, o in zip(sides, options, strict=True)]
    counted, cells = [t for t, _ in found], [x for _, x in found]
    if cells[0].shape != cells[1].shape:
        param_error(
            "compare",
            "second",
            f"the same {cells[0].shape[0]} items as first (paired=True)",
            f"{cells[1].shape[0]} items",
            fix="Pass paired=False for independent samples.",
        )
    ks = [t.labels.k for t in counted]
    first, second, freq = joint_patterns(cells[0], cells[1], (ks[0] ** 2, ks[1] ** 2))
    item = None
    if clusters is not None and not singletons(clusters):
        width = ks[1] ** 2 + 1  # joint_patterns' codes, returned sorted
        present = (first + 1) * width + (second + 1)
        item = np.searchsorted(present, (cells[0] + 1) * width + (cells[1] + 1))
    u = [
        c.pattern_terms.terms(t, o, _keys(side, k), freq)
        for t, o, side, k in zip(counted, options, (first, second), ks, strict=True)
    ]
    return u[1] - u[0], PairJoint((first, second), freq, item)


def difference_se(d: np.ndarray, freq: np.ndarray) -> tuple[float, float]:
    """SE and df of a paired difference whose per-item terms are ``d`` ``freq`` times each.

    The sums of :func:`~concord._studies.compare.compare.difference_se` over the items.
    """
    n = int(freq.sum())
    centred = np.asarray(d, dtype=np.float64) - _exact.fsum_counts(d, freq) / n
    return math.sqrt(_exact.fsum_counts(centred * centred, freq)), float(n - 1)


def pair_sampler(
    samplers: list[Resampled], joint: PairJoint, clusters: np.ndarray | None
) -> Resampled:
    """Return the paired bootstrap of the joint table, on each side's own sampler.

    ``samplers`` are the sides' table samplers (their units: the non-zero
    cells in order); with clusters, whole clusters of joint patterns are redrawn.
    """
    index = []
    for sampler, cells in zip(samplers, joint.cells, strict=True):
        units = np.flatnonzero(getattr(sampler, "table"))  # noqa: B009 (a TableSampler)
        at = np.searchsorted(units, cells)
        # the joint table must hold exactly each side's own units
        counted = np.bincount(at, weights=joint.freq, minlength=units.size)
        assert np.array_equal(counted, sampler.frequencies())
        index.append(at)
    paired = PairedSampler(samplers[0], samplers[1], (index[0], index[1]), joint.freq)
    if joint.item is None or clusters is None:
        return paired
    return ClusterSampler.of(paired, clusters, joint.item)
