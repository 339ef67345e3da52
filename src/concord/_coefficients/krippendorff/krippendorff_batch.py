"""Nominal α and its analytic SE of many small studies at once (``concord.plan``'s simulations).

Each study is a numeric items × raters matrix of category codes 0 … k − 1
(NaN where missing), all with the same raters. For each study this returns
exactly ``krippendorff_alpha(study).statistic`` and ``.standard_error``, bit
for bit, with the per-call work (validation, label discovery, one table of
item patterns per study, Fractions, the result object) done once for all:

* every item's category counts, and its pattern code with a study offset,
  are formed for all studies together; one sort of the codes gives every
  study's item patterns in the order ``krippendorff_alpha`` forms them
  (ascending mixed-radix code, :func:`concord._tables.patterns.from_codes`),
  over the categories that study uses;
* α is exact: with n_uc the counts of a pairable item u (m_u ≥ 2 ratings),
  n = Σ m_u, n_c = Σ_u n_uc and T_m = Σ_{u: m_u = m} (m² − Σ_c n_uc²),
  nominal α = 1 − (n − 1) Σ_m T_m / (m − 1) / (n² − Σ_c n_c²), the rational
  :func:`krippendorff_alpha` rounds once. The sums are int64 (each is at most
  the study's ratings times the raters, far below 2**62; checked), the last
  step Python ints, whose true division rounds once;
* the SE repeats :func:`.krippendorff_core.alpha_variance` step by step. Its
  elementwise steps run over all studies' patterns at once (IEEE operations,
  each rounded once: the same result wherever they run); its integer-valued
  sums are int64 here, exact as floats there (below 2**53); p_e and each
  item's r·π̄ are exact rationals rounded once, there as here, and the sums
  Σ f p'_a,i and the last one are :func:`concord._common.exact.fsum`, as
  there: no BLAS product, so the same digits on every CPU.

With nominal δ² the agreement weights are the identity, so Aπ, Aᵀπ, the
shares π̄ = (Aπ + Aᵀπ)/2 and r* = A r are π and r exactly (products by 0 and 1
and sums with 0 are exact).

A study this path does not cover (no rating at all, too many categories or
raters for int64 codes) is computed by :func:`krippendorff_alpha` itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from concord._common.exact import fits_int64, fsum
from concord._inference.design import standard_error
from concord._tables.patterns import decode, radix_fits

_NAN = float("nan")


def nominal_alphas(studies: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Return nominal α and its analytic SE of each study (codes 0, 1, …; NaN missing).

    Where α is undefined both are nan, without :func:`krippendorff_alpha`'s warning.

    Examples
    --------
    Krippendorff's (2011) reliability data (4 observers, 12 units, values 1–5),
    whose nominal α he reports as 0.743, and its first six units:

    >>> import numpy as np
    >>> nan = np.nan
    >>> data = np.array([
    ...     [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...     [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...     [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...     [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]).T
    >>> alphas, ses = nominal_alphas([data, data[:6]])
    >>> round(float(alphas[0]), 3)
    0.743
    >>> from concord import krippendorff_alpha
    >>> [krippendorff_alpha(x).standard_error for x in (data, data[:6])] == ses.tolist()
    True
    """
    alphas, ses = np.full(len(studies), _NAN), np.full(len(studies), _NAN)
    found = _patterns(studies)
    if found is None:
        return _one_by_one(studies, range(len(studies)), alphas, ses)
    study, rows, freq = found
    empty = np.bincount(study, minlength=len(studies)) == 0
    if empty.any():  # no rating at all: krippendorff_alpha says why
        _one_by_one(studies, np.flatnonzero(empty).tolist(), alphas, ses)
    _alphas(study, rows, freq, len(studies), alphas)
    _errors(study, rows, freq, len(studies), ses)
    return alphas, ses


def _one_by_one(
    studies: Sequence[np.ndarray], which: Sequence[int], alphas: np.ndarray, ses: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    from concord._coefficients.krippendorff.krippendorff import krippendorff_alpha

    for s in which:
        result = krippendorff_alpha(studies[s])
        alphas[s], ses[s] = result.statistic, result.standard_error
    return alphas, ses


def _patterns(studies: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Every study's item patterns: (study, counts over k categories, frequency), sorted.

    Sorted by study, then by the mixed-radix code Σ_j n_j (r + 1)^j, which orders
    a study's patterns as :func:`krippendorff_alpha` does whichever categories it
    uses (unused ones are 0 in every code). None where this path does not apply:
    a value that is not a code 0 … 253, studies of different raters, codes
    beyond int64, or 2**31 ratings times raters (the bound of every sum below).
    """
    r = studies[0].shape[1] if studies and studies[0].ndim == 2 else 0
    if not r or any(x.ndim != 2 or x.shape[1] != r or x.dtype.kind != "f" for x in studies):
        return None
    x = np.concatenate(studies)
    rated = ~np.isnan(x)
    codes = np.where(rated, x, 0.0)
    if not np.isfinite(codes).all():
        return None
    k = int(codes.max(initial=0)) + 1
    whole = bool(((codes >= 0) & (codes == np.floor(codes))).all())
    base = (r + 1) ** k if k < 255 and radix_fits(r + 1, k) else 0
    if not (whole and base and fits_int64(len(studies) + 1, base)):
        return None
    if not x.shape[0] * (r + 1) ** 2 < 2**31:  # every n < 2**31, so n² fits int64
        return None
    counts = np.zeros((x.shape[0], k), dtype=np.int64)
    for j in range(k):
        counts[:, j] = ((codes == j) & rated).sum(axis=1)
    key = counts @ ((r + 1) ** np.arange(k, dtype=np.int64))
    sizes = [s.shape[0] for s in studies]
    owner = np.repeat(np.arange(len(studies), dtype=np.int64), sizes)
    key = (owner * base + key)[rated.any(axis=1)]  # an item nobody rated is no item
    present, freq = np.unique(key, return_counts=True)
    study, code = np.divmod(present, base)
    return study, decode(code, r + 1, k), freq.astype(np.int64)


def _sums(study: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    """Per-study sums of non-negative integers, exact: their total is below 2**31 (see above)."""
    return np.bincount(study, weights=values, minlength=count).astype(np.int64)


def _alphas(
    study: np.ndarray, rows: np.ndarray, freq: np.ndarray, count: int, out: np.ndarray
) -> None:
    """Write the exact nominal α of each study into ``out`` (see the module's docstring)."""
    m = rows.sum(axis=1)
    pair = m >= 2
    study, rows, freq, m = study[pair], rows[pair], freq[pair], m[pair]
    n = _sums(study, freq * m, count)
    totals = [_sums(study, freq * rows[:, c], count) for c in range(rows.shape[1])]
    spread = n * n - sum(t * t for t in totals)  # n² − Σ_c n_c²: int64, n < 2**31
    squares = (rows * rows).sum(axis=1)
    sizes = [int(g) for g in np.unique(m)]
    lcm = math.lcm(*(g - 1 for g in sizes))
    parts = [
        (lcm // (g - 1), _sums(study[m == g], (freq * (g * g - squares))[m == g], count).tolist())
        for g in sizes
    ]
    n_list, spread_list = n.tolist(), spread.tolist()
    for s in np.flatnonzero(spread > 0).tolist():
        den = spread_list[s] * lcm
        num = sum(step * t[s] for step, t in parts)
        out[s] = (den - (n_list[s] - 1) * num) / den  # ints: rounded once


def _errors(
    study: np.ndarray, rows: np.ndarray, freq: np.ndarray, count: int, out: np.ndarray
) -> None:
    """Write the SE of nominal α into ``out``, step by step as ``alpha_variance`` computes it."""
    k = rows.shape[1]
    used = np.stack([_sums(study, rows[:, c], count) for c in range(k)], 1) > 0
    m = rows.sum(axis=1)
    pair = m >= 2
    study, rows, freq, m = study[pair], rows[pair], freq[pair], m[pair]
    n = _sums(study, freq, count).astype(np.float64)  # n'' pairable items
    total = _sums(study, freq * m, count).astype(np.float64)  # Σ f m
    shares = np.stack([_sums(study, freq * rows[:, c], count) for c in range(k)], 1)
    f, mf = freq.astype(np.float64), m.astype(np.float64)
    with np.errstate(all="ignore"):  # studies without two pairable items: nan, left out
        mean_m = total / n
        pa_item = (rows * (rows - 1)).sum(axis=1) / (mean_m[study] * (mf - 1))
        pi_all = shares / total[:, None]
    level = _chance(study, rows, f, pa_item, (n, total, shares, pi_all, used))
    pe, pa_prime, chance = level
    with np.errstate(all="ignore"):
        p, mean, center = pe[study], mean_m[study], ((pa_prime - pe) / (1 - pe))[study]
        spread = (mf - mean) / mean
        pa_i = pa_item - pa_prime[study] * spread
        pe_i = chance / mean - p * spread
        slope = 2 * (1 - center)
        linear = (pa_i - p) / (1 - p) - slope * (pe_i - p) / (1 - p)
        squares = np.multiply(f, (linear - center) ** 2)
    starts = np.searchsorted(study, np.arange(count + 1)).tolist()
    for s in np.flatnonzero(~np.isnan(pe)).tolist():
        size = float(n[s])  # there (1 − f)·Σ/…: f = 0 (no finite population), a product by 1
        out[s] = standard_error(fsum(squares[starts[s] : starts[s + 1]]) / (size * (size - 1)))


def _chance(
    study: np.ndarray,
    rows: np.ndarray,
    f: np.ndarray,
    pa_item: np.ndarray,
    sums: tuple[np.ndarray, ...],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """p_e, p'_a and each item's r·π of every study, as ``alpha_variance`` rounds them.

    With the identity as agreement weights, :func:`.krippendorff_core.chance_terms`'s
    p_e = Σ_k u_k² / D² and r_i · π̄ = r_i · u / D (u the study's category totals
    over its pairable items, D = Σ u): integers here (int64: u_k ≤ D < 2**31, so
    D² < 2**62 and r_i · u < 2**53), each quotient rounded once (Python's int / int;
    numpy's float division of integers below 2**53), and p'_a an exact sum
    (:func:`concord._common.exact.fsum`); nan where ``alpha_variance`` stops.
    """
    n, total, shares, _, _ = sums
    count = n.shape[0]
    pe, pa_prime = np.full(count, _NAN), np.full(count, _NAN)
    squares = (shares * shares).sum(axis=1).tolist()  # Σ_k u_k²: int64, below 2**62
    dots = (rows * shares[study]).sum(axis=1)  # r_i · u: int64, exact
    with np.errstate(all="ignore"):
        chance = dots.astype(np.float64) / total[study]  # both exact floats: rounded once
    totals = total.astype(np.int64).tolist()
    starts = np.searchsorted(study, np.arange(count + 1)).tolist()
    for s in np.flatnonzero(n >= 2).tolist():
        value = squares[s] / (totals[s] * totals[s])  # ints: rounded once
        if value == 1:
            continue
        pe[s] = value
        a, b = starts[s], starts[s + 1]
        pa_prime[s] = fsum(f[a:b] * pa_item[a:b]) / float(n[s])
    return pe, pa_prime, chance
