"""Krippendorff's α's per-item terms of each panel without one rater, and each change's SE.

:func:`left_out_terms` gives what
:func:`~concord._coefficients.krippendorff.krippendorff_core.alpha_terms` gives
on a rater's joint patterns, bit for bit: where each row's number of ratings
m and agreement Σ r (A r − 1) are exact (agreement weights that are
multiples of one power of two, small counts: :func:`exact_products`), they
are read from the grid of every (panel pattern, code), formed once; the
float dots whose order matters run on the rater's own rows, as the
per-rater call has them. :func:`change_ses` takes every change's paired SE
as ``difference_se`` does, from the items × raters differences at once.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from concord._coefficients.krippendorff.krippendorff_core import alpha_terms
from concord._coefficients.multirater.agreement_core import Terms
from concord._common import exact as _exact
from concord._studies.raters.joints import Joints

_FLOAT_EXACT = 2**53


def exact_products(agreement: np.ndarray, top: int) -> bool:
    """Whether every Σ_l a_kl r_l of counts r_l ≤ ``top`` is exact in float64, in any order.

    True for weights that are multiples of one power of two (nominal; the
    interval level of whole numbers) with small enough counts.
    """
    if agreement.size == 0 or not np.isfinite(agreement).all():
        return False
    for power in range(11):
        scaled = agreement * 2.0**power
        if (scaled == np.rint(scaled)).all():
            bound = float(np.abs(scaled).max(initial=0)) * top * agreement.shape[0]
            return bool(bound * (top + 1) < _FLOAT_EXACT)
    return False


def left_out_terms(
    rows: np.ndarray,
    freq: np.ndarray,
    delta: np.ndarray,
    opts: dict[str, Any],
    at: tuple[Joints, int, dict[bytes, Any]] | None = None,
) -> np.ndarray:
    """α's term of each row of a left-out panel, as ``alpha_terms`` has them from its δ².

    ``at`` (the joint patterns, the rater, a cache): where each row's m and
    agreement Σ r (A r − 1) are exact, they are read from the grid of every
    (panel pattern, code), formed once per agreement matrix.
    """
    top = float(delta.max()) if delta.size else 0.0
    agreement = 1 - delta / top if top > 0 else np.ones_like(delta)
    population = opts["population_size"]
    grid = _grid_terms(at[0], agreement, at[2]) if at is not None else None
    if grid is None:
        rated = rows.sum(axis=1) > 0
        out = np.zeros(rated.shape[0])
        out[rated] = alpha_terms(
            rows[rated], agreement, population, counts=False, freq=freq[rated]
        )
        return out
    assert at is not None
    cells = at[0].cells(at[1])
    grid_rows, grid_m, grid_agree = grid
    m = grid_m[cells]
    rated = m > 0
    chosen, freq_f = cells[rated], freq[rated].astype(np.float64)
    m = m[rated]
    counted = Terms(
        grid_rows[chosen],
        freq_f,
        m,
        grid_agree[chosen],
        int(freq_f.sum()),
        int(freq_f[m >= 2].sum()),
    )
    out = np.zeros(rated.shape[0])
    out[rated] = alpha_terms(counted.rows, agreement, population, counts=False, counted=counted)
    return out


def _grid_terms(
    j: Joints, agreement: np.ndarray, cache: dict[bytes, Any]
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Return the grid's rows as floats, their m and Σ r (A r − 1), where they are exact."""
    if j.grid is None:
        return None
    key = agreement.tobytes()
    if key not in cache:
        rows = j.grid.astype(np.float64)
        m = rows.sum(axis=1)
        top = int(j.panel.sum(axis=1).max(initial=0))
        if not exact_products(agreement, top):
            cache[key] = None
        else:
            star = rows @ agreement.T  # exact: see exact_products
            cache[key] = (rows, m, (rows * (star - 1)).sum(axis=1))
    out: tuple[np.ndarray, np.ndarray, np.ndarray] | None = cache[key]
    return out


def change_ses(terms: list[tuple[np.ndarray, np.ndarray]], n: int) -> tuple[list[float], float]:
    """Return each change's paired SE and the df, as ``difference_se`` without clusters.

    ``terms``: for each rater, the difference of terms of each of its joint
    patterns and how many of the ``n`` items share it. An item's term is its
    pattern's, so each sum over the items is the patterns' sum weighted by
    their frequencies, exact and rounded once (:func:`~concord._common.exact.fsum_counts`):
    bit for bit the sum over the items.
    """
    out = []
    for d, freq in terms:
        centred = d - _exact.fsum_counts(d, freq) / n
        out.append(math.sqrt(_exact.fsum_counts(np.multiply(centred, centred), freq)))
    return out, float(n - 1)
