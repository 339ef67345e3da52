"""Krippendorff's α's per-item terms of every panel without one rater, and each change's SE.

:func:`alpha_terms_all` gives, for every rater's joint patterns at once,
what :func:`~concord._coefficients.krippendorff.krippendorff_core.alpha_terms`
gives for each rater's alone, bit for bit: the element-wise steps run on
all the rows together (an element-wise float operation is rounded the same
wherever it runs), sums of integers are exact in any order, and the few
float reductions whose order matters (a dot of counts with floats) run per
rater on a copy of that rater's rows, as the per-rater call has them. The
counts' products with the agreement weights run together only when each is
exact (weights that are multiples of a power of two, small counts), else
per rater too. :func:`change_ses` takes each rater's paired SE as
``difference_se`` does, from the items × raters differences at once.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from concord._common import exact as _exact
from concord._inference.design import fraction
from concord._studies.raters.leave_out import Joints

_FLOAT_EXACT = 2**53


def exact_products(agreement: np.ndarray, top: int) -> bool:
    """Whether every Σ_l a_kl r_l of counts r_l ≤ ``top`` is exact in float64, in any order."""
    if agreement.size == 0 or not np.isfinite(agreement).all():
        return False
    for power in range(11):
        scaled = agreement * 2.0**power
        if (scaled == np.rint(scaled)).all():
            bound = float(np.abs(scaled).max(initial=0)) * top * agreement.shape[0]
            return bound * (top + 1) < _FLOAT_EXACT
    return False


def alpha_terms_all(j: Joints, delta: np.ndarray, population: Any) -> np.ndarray | None:
    """Return α's term of each joint row of every rater (0 for rows nobody else rated).

    ``delta`` is the δ² every rater's α shares; None when its agreement
    weights' products are not exact (the caller then takes each rater's call).
    """
    top = float(delta.max()) if delta.size else 0.0
    agreement = 1 - delta / top if top > 0 else np.ones_like(delta)
    m_int = j.rows.sum(axis=1)
    if not exact_products(agreement, int(m_int.max(initial=0))):
        return None
    n_raters = j.starts.shape[0] - 1
    rated = np.flatnonzero(m_int > 0)
    owner = np.repeat(np.arange(n_raters), np.diff(j.starts))[rated]
    rows = j.rows[rated].astype(np.float64)
    m = rows.sum(axis=1)
    star = rows @ agreement.T  # exact: multiples of one power of two, small counts
    agree = (rows * (star - 1)).sum(axis=1)
    freq = j.freq[rated].astype(np.float64)
    keep = m >= 2
    sums = _sums(owner, keep, freq, rows, m, n_raters)
    out = np.zeros(j.rows.shape[0])
    kept = (owner[keep], rows[keep], freq[keep], m[keep], agree[keep])
    with np.errstate(divide="ignore", invalid="ignore"):  # the nan raters' rows: replaced
        terms, bad = _kept_terms(kept, sums, agreement, population)
    out[rated[keep]] = terms
    for r in bad:  # n < 2 or p_e = 1: every rated row's term is nan
        out[rated[owner == r]] = np.nan
    return out


def _sums(
    owner: np.ndarray,
    keep: np.ndarray,
    freq: np.ndarray,
    rows: np.ndarray,
    m: np.ndarray,
    n_raters: int,
) -> dict[str, np.ndarray]:
    """Each rater's sums of integers (exact in float64): n'', Σ f m, Σ f r, n rated."""
    who, f = owner[keep], freq[keep]
    per = rows[keep] * f[:, None]
    q = rows.shape[1]
    cells = (who[:, None] * q + np.arange(q)).ravel()
    return {
        "n": np.bincount(who, weights=f, minlength=n_raters),
        "fm": np.bincount(who, weights=f * m[keep], minlength=n_raters),
        "fr": np.bincount(cells, weights=per.ravel(), minlength=n_raters * q).reshape(-1, q),
        "rated": np.bincount(owner, weights=freq, minlength=n_raters),
    }


def _kept_terms(
    kept: tuple[np.ndarray, ...],
    sums: dict[str, np.ndarray],
    agreement: np.ndarray,
    population: Any,
) -> tuple[np.ndarray, list[int]]:
    """Return the terms of the rows rated twice or more, and the raters whose terms are nan.

    The steps of ``alpha_terms`` and ``_alpha_linear`` (raw form), in their order.
    """
    owner, rows, freq, m, agree = kept
    n_raters = sums["n"].shape[0]
    bounds = np.searchsorted(owner, np.arange(n_raters + 1))
    scalars = np.zeros((5, n_raters))  # p_e, mean m, p'_a, centre, scale
    chance = np.empty(owner.shape[0])
    bad = []
    for r in range(n_raters):
        a, b = int(bounds[r]), int(bounds[r + 1])
        n = float(sums["n"][r])
        if n < 2:
            bad.append(r)
            continue
        pi = sums["fr"][r] / float(sums["fm"][r])
        pe = float(pi @ agreement @ pi)
        if pe == 1:
            bad.append(r)
            continue
        weighted = (agreement @ pi + agreement.T @ pi) / 2
        chance[a:b] = rows[a:b].copy() @ weighted  # a float dot: per rater, as its call has it
        mean_m = float(sums["fm"][r]) / n
        pa_item = agree[a:b] / (mean_m * (m[a:b] - 1))
        pa_prime = float(freq[a:b].copy() @ pa_item) / n
        centre = (pa_prime - pe) / (1 - pe)
        f = fraction(int(sums["rated"][r]), population)
        scalars[:, r] = (pe, mean_m, pa_prime, centre, np.sqrt((1 - f) / (n * (n - 1))))
    pe, mean_m, pa_prime, centre, scale = (s[owner] for s in scalars)
    pa_item = agree / (mean_m * (m - 1))
    spread = (m - mean_m) / mean_m
    pa_i = pa_item - pa_prime * spread
    pe_i = chance / mean_m - pe * spread
    slope = 2 * (1 - centre)
    linear = (pa_i - pe) / (1 - pe) - slope * (pe_i - pe) / (1 - pe)
    return (linear - centre) * scale, bad


def change_ses(d: np.ndarray) -> tuple[list[float], float]:
    """Return each column's paired SE and the df, as ``difference_se`` without clusters.

    ``d`` is items × raters: each rater's per-item difference of terms.
    """
    columns = np.ascontiguousarray(d.T)
    n = columns.shape[1]
    out = []
    for column in columns:
        centred = column - _exact.fsum(column) / n
        out.append(math.sqrt(_exact.fsum(np.multiply(centred, centred))))
    return out, float(n - 1)
