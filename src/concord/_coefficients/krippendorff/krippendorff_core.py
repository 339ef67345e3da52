"""Krippendorff's alpha from item patterns: the exact coincidences, the float twin, the variance.

* :func:`coincidences` and :func:`distances`: the coincidence matrix in
  integers and the metrics' δ², from which :mod:`concord._coefficients.krippendorff.krippendorff`
  computes α exactly;
* :class:`CoincidenceSampler`: the same α in floating point, vectorised over
  bootstrap resamples of the item patterns;
* :func:`alpha_variance` and :func:`krippendorff_items`: Gwet's (2014)
  variance of alpha, as R irrCAC 1.4 computes it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from concord._coefficients.multirater.agreement_core import Terms, terms
from concord._common import exact_rows
from concord._common.exact import as_object, fdot, fits_int64, rounded
from concord._inference.design import fraction
from concord._inference.resampling import Resampled
from concord._tables.item_table import ItemStats
from concord._tables.patterns import Patterns


def coincidences(stats: ItemStats) -> tuple[np.ndarray, int]:
    """Return (L·o, L): the coincidence matrix scaled by L = lcm(m − 1) to integers.

    Over the units with m values, Σ_u (n_uc n_uk − [c = k] n_uc) is their Gram
    matrix minus the diagonal of their totals.
    """
    sizes = [int(m) for m in stats.sizes]
    pairable = [g for g, m in enumerate(sizes) if m >= 2]
    scale = math.lcm(*(sizes[g] - 1 for g in pairable))  # 1 when none is pairable
    q = stats.totals.shape[1]
    if not pairable:
        return np.zeros((q, q), dtype=object), scale
    pairs = stats.gram[pairable].astype(object)
    diagonal = np.arange(q)
    pairs[:, diagonal, diagonal] -= stats.totals[pairable].astype(object)
    factors = np.array([scale // (sizes[g] - 1) for g in pairable], dtype=object)
    total = (pairs * factors[:, None, None]).sum(axis=0)
    return total, scale


def ordinal_scores(totals: np.ndarray) -> np.ndarray:
    """Return twice the mid-ranks, 2F_{c−1} + n_c, of the coincidence totals.

    Krippendorff's (2011) ordinal δ_ck = Σ_{g=c..k} n_g − (n_c + n_k)/2 is half
    the difference of these scores.
    """
    totals = np.asarray(totals)
    scores: np.ndarray = 2 * (np.cumsum(totals) - totals) + totals
    return scores


def distances(level: str, scores: np.ndarray) -> np.ndarray:
    """δ² for scores x: [x_c ≠ x_k], (x_c − x_k)² or ((x_c − x_k)/(x_c + x_k))²."""
    diff = scores[:, None] - scores[None, :]
    if level == "nominal":
        out: np.ndarray = (diff != 0).astype(np.float64)
    elif level == "ratio":
        total = scores[:, None] + scores[None, :]
        out = np.where(total == 0, 0.0, diff / np.where(total == 0, 1, total)) ** 2
    else:
        out = diff * diff
    return out


@dataclass(frozen=True)
class CoincidenceSampler(Resampled):
    """Krippendorff's alpha: each pairable item pattern adds (r rᵀ − diag r)/(m − 1)."""

    patterns: Patterns
    delta: np.ndarray  # δ² of the result; for the ordinal level recomputed per replicate
    level: str
    scores: np.ndarray | None = None

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        rows = self.patterns.rows.astype(np.float64)
        m = rows.sum(axis=1)
        pair = m >= 2
        q = rows.shape[1]
        each = (rows[:, :, None] * rows[:, None, :] - rows[:, :, None] * np.eye(q)) / np.where(
            pair, m - 1, 1.0
        )[:, None, None]
        each[~pair] = 0
        o = (counts @ each.reshape(-1, q * q)).reshape(-1, q, q)
        n_c = o.sum(axis=2)
        n = n_c.sum(axis=1)
        delta = self._delta(n_c)
        observed = np.einsum("bij,bij->b", o, delta) / n
        expected = np.einsum("bi,bij,bj->b", n_c, delta, n_c) / (n * (n - 1))
        with np.errstate(invalid="ignore", divide="ignore"):
            out: np.ndarray = 1 - observed / expected
        return out

    def _delta(self, n_c: np.ndarray) -> np.ndarray:
        if self.level != "ordinal":
            return np.broadcast_to(self.delta, (n_c.shape[0], *self.delta.shape))
        mid = np.cumsum(n_c, axis=1) - n_c / 2
        out: np.ndarray = (mid[:, :, None] - mid[:, None, :]) ** 2
        return out

    def frequencies(self) -> np.ndarray:
        return self.patterns.freq


def alpha_variance(
    patterns: Patterns, agreement: np.ndarray, population: float | None, *, counts: bool = False
) -> tuple[float, int, int]:
    """Gwet's variance of Krippendorff's alpha, as R irrCAC 1.4 computes it.

    ``counts``: the ratings came in count form; use ``krippen.alpha.dist``'s
    formula instead of ``krippen.alpha.raw``'s (see :func:`krippendorff_items`).
    Returns (variance, n'', n_rated): n'' items with two ratings or more, and
    n_rated with at least one.
    """
    t = terms(patterns, agreement)
    keep = t.pairable
    freq, m = t.freq[keep], t.m[keep]
    n = float(freq.sum())
    n_rated = int(t.freq[t.m >= 1].sum())
    if n < 2:
        return float("nan"), int(n), n_rated
    pe, chance = chance_terms(patterns.rows[keep], patterns.freq[keep], agreement)
    var = krippendorff_items(
        freq, m, t.agree[keep], chance, pe, population, n_rated, counts=counts
    )
    return var, int(n), n_rated


def chance_terms(
    rows: np.ndarray, freq: np.ndarray, agreement: np.ndarray
) -> tuple[float, np.ndarray]:
    """Return p_e = πᵀAπ and each item's r_i · π̄, π̄ = (Aπ + Aᵀπ)/2, each exact, rounded once.

    π_k = u_k / D with the integers u = Σ_i f_i r_i and D = Σ_i f_i m_i over
    the pairable items, so p_e = uᵀAu / D² and r_i · π̄ = r_i (A + Aᵀ) u / (2D)
    are rationals of the counts and the floats A
    (:mod:`concord._common.exact_rows`): the same digits on every CPU, where
    BLAS products would depend on its kernel.
    """
    counts = np.asarray(rows).astype(np.int64)
    weights = np.asarray(freq).astype(np.int64)
    if fits_int64(int(weights.sum()), int(counts.sum(axis=1).max(initial=0))):
        u = [int(v) for v in (weights @ counts).tolist()]  # integer matmul: exact
    else:
        u = [int(v) for v in (as_object(weights) @ as_object(counts)).tolist()]
    d = sum(u)
    top = int(counts.sum(axis=1).max(initial=0))
    if exact_rows.identity(agreement) and top * d < 2**53:  # nominal: Σ u² / D², r_i · u / D
        dots = (counts * np.array(u, dtype=np.int64)).sum(axis=1)  # ≤ m D: exact as floats
        return rounded(sum(v * v for v in u), d * d), dots.astype(np.float64) / d
    form, power = exact_rows.quadratic(agreement, u)
    pe = rounded(form << power, d * d) if power >= 0 else rounded(form, (d * d) << -power)
    shares, scale = exact_rows.matvec(agreement, u)
    chance = exact_rows.quotients(exact_rows.Rows(counts).dots(shares.tolist()), scale, 2 * d)
    return pe, chance


def krippendorff_items(
    freq: np.ndarray,
    m: np.ndarray,
    agree: np.ndarray,
    chance: np.ndarray,
    pe: float,
    population: float | None,
    n_rated: int,
    *,
    counts: bool = False,
) -> float:
    """Return the same variance from per-item terms of the n'' pairable items.

    ``agree`` is Σ_k r_ik (r*_ik − 1) and ``chance`` is Σ_k r_ik π̄_k, with
    π̄ = (Aπ + Aᵀπ)/2, for each item. With r̄ the mean number of ratings,
    ε = 1/Σ m, p'_a = mean of p'_a,i = agree_i / (r̄ (m_i − 1)),
    p_a = (1 − ε) p'_a + ε, α = (p_a − p_e)/(1 − p_e) and
    α' = (p'_a − p_e)/(1 − p_e), irrCAC 1.4's ``krippen.alpha.raw`` has::

        pa_i = p'_a,i − p'_a (m_i − r̄) / r̄
        pe_i = chance_i / r̄ − p_e (m_i − r̄) / r̄
        α*_i = (pa_i − p_e)/(1 − p_e) − 2 (1 − α') (pe_i − p_e)/(1 − p_e)
        var  = (1 − f) Σ_i (α*_i − α')² / (n'' (n'' − 1)),   f = n_rated / N

    and its ``krippen.alpha.dist`` (``counts=True``), for the count form::

        pa_i = (1 − ε) (p'_a,i − p'_a (m_i − r̄) / r̄) + ε
        pe_i = chance_i / r̄ − (m_i − r̄) / r̄          (Σ_k π_k = 1 where raw has p_e)
        α*_i = (pa_i − p_e)/(1 − p_e) − (1 − α) (pe_i − p_e)/(1 − p_e)
        var  = (1 − f) Σ_i (α*_i − α)² / (n'' (n'' − 1))

    irrCAC 1.0's raw formula, which concord followed before, had p_a where
    1.4 has p'_a in pa_i.
    """
    n = float(freq.sum())
    if n < 2 or pe == 1:
        return float("nan")
    linear, center = _alpha_linear(freq, m, agree, chance, pe, counts=counts)
    f = fraction(n_rated, population)
    return (1 - f) * fdot(freq, (linear - center) ** 2) / (n * (n - 1))


def _alpha_linear(
    freq: np.ndarray,
    m: np.ndarray,
    agree: np.ndarray,
    chance: np.ndarray,
    pe: float,
    *,
    counts: bool,
) -> tuple[np.ndarray, float]:
    """Return α*_i of each pairable item and their centre (see :func:`krippendorff_items`)."""
    n = float(freq.sum())
    mean_m = float(freq @ m) / n
    epsilon = 1 / float(freq @ m)
    pa_item = agree / (mean_m * (m - 1))
    pa_prime = fdot(freq, pa_item) / n  # exact sum: the same on every CPU
    spread = (m - mean_m) / mean_m
    if counts:
        alpha = ((1 - epsilon) * pa_prime + epsilon - pe) / (1 - pe)
        pa_i = (1 - epsilon) * (pa_item - pa_prime * spread) + epsilon
        pe_i = chance / mean_m - spread
        center, slope = alpha, 1 - alpha
    else:
        center = (pa_prime - pe) / (1 - pe)
        pa_i = pa_item - pa_prime * spread
        pe_i = chance / mean_m - pe * spread
        slope = 2 * (1 - center)
    linear = (pa_i - pe) / (1 - pe) - slope * (pe_i - pe) / (1 - pe)
    return linear, center


def alpha_terms(
    rows: np.ndarray,
    agreement: np.ndarray,
    population: float | None,
    *,
    counts: bool,
    freq: np.ndarray | None = None,
    counted: Terms | None = None,
) -> np.ndarray:
    """Per-item terms u_i of alpha, items in order (``rows``: their category counts).

    u_i = (α*_i − α') √((1 − f) / (n'' (n'' − 1))) for the n'' pairable items
    and 0 for the others, so Σ u_i² is :func:`alpha_variance`'s variance and
    :func:`concord.compare` can pair them item by item (Gwet 2016; pairedCAC's
    ``alpha.linear.i`` and ``ttest.alpha``). With ``freq``, the rows are
    patterns that many items share, and the term is each such item's.
    ``counted``: the rows' :func:`terms`, when the caller has them.
    """
    if counted is None:
        ones = np.ones(rows.shape[0], dtype=np.int64)
        counted = terms(Patterns(rows, ones if freq is None else freq), agreement)
    t = counted
    keep = t.pairable
    out = np.zeros(rows.shape[0])
    n = float(t.freq[keep].sum())
    n_rated = int(t.freq[t.m >= 1].sum())
    if n < 2:
        return np.full(rows.shape[0], np.nan)
    pe, chance = chance_terms(rows[keep], t.freq[keep], agreement)
    if pe == 1:
        return np.full(rows.shape[0], np.nan)
    linear, center = _alpha_linear(
        t.freq[keep], t.m[keep], t.agree[keep], chance, pe, counts=counts
    )
    f = fraction(n_rated, population)
    out[keep] = (linear - center) * np.sqrt((1 - f) / (n * (n - 1)))
    return out
