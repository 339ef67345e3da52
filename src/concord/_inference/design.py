"""Large-sample variances of the agreement coefficients.

* Cohen's kappa, any weights: Fleiss, Cohen & Everitt (1969), the non-null
  variance and the null variance of its z test (SAS PROC FREQ, statsmodels,
  R vcd and irr report these).
* The multi-rater coefficients: Gwet's (2014) design-based variance,
  conditional on the raters, from the raw-ratings formulas of R irrCAC: each
  item gets a linearised value κ*_i and var = (1 − f) Σ_i (κ*_i − κ)² /
  (n (n − 1)), where f = n / N is the sampling fraction of a finite
  population of N items (0 by default).
* Fleiss' kappa under H0: Fleiss, Nee & Landis (1979), for items all rated
  by the same number of raters.

Sums over items are sums over the distinct item patterns weighted by their
frequencies (:mod:`concord._tables.patterns`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from concord._common.errors import check_population
from concord._tables.patterns import Patterns

# rounding leaves the variance of a perfect-agreement sample a few ulps below 0
_ROUNDING = 1e-12


def standard_error(var: float) -> float:
    """Return √var, with rounding noise below 0 read as 0 and a negative variance as nan."""
    if var >= 0:
        return math.sqrt(var)
    return 0.0 if var > -_ROUNDING else float("nan")


def fraction(n: int, population: float | None) -> float:
    """Return the sampling fraction f = n / N (0 for an infinite population)."""
    if population is None or math.isinf(population):
        return 0.0
    check_population(population, "", n)  # the one check of N, here against the items counted
    return n / population


def fce(table: np.ndarray, agreement: np.ndarray, kappa: float) -> tuple[float, float]:
    """Fleiss, Cohen & Everitt (1969): (var κ, var κ under H0) for agreement weights.

    With cell shares p_ij, margins p_i., p_.j, w̄_i. = Σ_j p_.j w_ij and
    w̄_.j = Σ_i p_i. w_ij::

        var  = [Σ p_ij (w_ij − (w̄_i. + w̄_.j)(1 − κ))² − (κ − p_e(1 − κ))²] / (n (1 − p_e)²)
        var0 = [Σ p_i. p_.j (w_ij − (w̄_i. + w̄_.j))² − p_e²] / (n (1 − p_e)²)
    """
    n = float(table.sum())
    p = table / n
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    p_e = float(rows @ agreement @ cols)
    w_row = agreement @ cols  # w̄_i.
    w_col = rows @ agreement  # w̄_.j
    spread = w_row[:, None] + w_col[None, :]
    scale = n * (1 - p_e) ** 2
    var = np.sum(p * (agreement - spread * (1 - kappa)) ** 2) - (kappa - p_e * (1 - kappa)) ** 2
    var0 = np.sum(np.outer(rows, cols) * (agreement - spread) ** 2) - p_e**2
    if scale == 0:  # 1 − p_e underflows (sample weights of ~1e-300): no finite variance
        return math.nan, math.nan
    return float(var) / scale, float(var0) / scale


@dataclass(frozen=True)
class Terms:
    """Per-pattern quantities of Gwet's linearisation (float arrays of shape (P,))."""

    rows: np.ndarray  # (P, q) count vectors r_i
    freq: np.ndarray
    m: np.ndarray  # ratings per item
    agree: np.ndarray  # Σ_k r_ik (r*_ik − 1), r* = A r
    n: int
    n2: int

    @property
    def pairable(self) -> np.ndarray:
        out: np.ndarray = self.m >= 2
        return out

    @property
    def pa(self) -> np.ndarray:
        """Per-item percent agreement, 0 for items rated once."""
        den = self.m * (self.m - 1)
        out: np.ndarray = np.where(self.pairable, self.agree / np.where(den > 0, den, 1), 0.0)
        return out

    def variance(self, values: np.ndarray, center: float, population: float | None) -> float:
        """(1 − f) Σ_i (x_i − center)² / (n (n − 1)) over the items (patterns × freq)."""
        if self.n < 2:
            return float("nan")
        f = fraction(self.n, population)
        return float(
            (1 - f) * np.sum(self.freq * (values - center) ** 2) / (self.n * (self.n - 1))
        )


def terms(patterns: Patterns, agreement: np.ndarray) -> Terms:
    """Gwet's per-item terms of the item-count patterns under agreement weights A."""
    rows = patterns.rows.astype(np.float64)
    m = rows.sum(axis=1)
    star = rows @ agreement.T  # r*_k = Σ_l a_kl r_l
    agree = (rows * (star - 1)).sum(axis=1)
    freq = patterns.freq.astype(np.float64)
    return Terms(rows, freq, m, agree, int(freq.sum()), int(freq[m >= 2].sum()))


def gwet_family(
    kind: str,
    t: Terms,
    agreement: np.ndarray,
    pi: np.ndarray,
    pe: float,
    coefficient: float,
    population: float | None,
) -> float:
    """Var of percent agreement ('none'), Fleiss, Gwet AC or Brennan-Prediger ('uniform')."""
    if t.n2 == 0 or not math.isfinite(coefficient):
        return float("nan")
    scale = t.n / t.n2
    if kind == "none":
        return t.variance(scale * t.pa, coefficient, population)
    linear = scale * (t.pa - pe * t.pairable) / (1 - pe)
    if kind == "fleiss":
        shares = (agreement @ pi + agreement.T @ pi) / 2
        pe_i = (t.rows @ shares) / t.m
        linear = linear - 2 * (1 - coefficient) * (pe_i - pe) / (1 - pe)
    elif kind == "gwet":
        q = agreement.shape[0]
        pe_i = agreement.sum() / (q * (q - 1)) * (t.rows @ (1 - pi)) / t.m
        linear = linear - 2 * (1 - coefficient) * (pe_i - pe) / (1 - pe)
    return t.variance(linear, coefficient, population)


def conger(
    raters: Patterns,
    k: int,
    agreement: np.ndarray,
    pe: float,
    coefficient: float,
    population: float | None,
) -> float:
    """Var of Conger's kappa (irrCAC's conger.kappa.raw): its per-item chance term λ."""
    codes = raters.rows
    rated = codes > 0
    keep = rated.any(axis=0)  # raters who rated nothing take no part
    codes, rated = codes[:, keep], rated[:, keep]
    freq = raters.freq.astype(np.float64)
    counts = np.stack([(codes == j + 1).sum(axis=1) for j in range(k)], axis=1)
    t = terms(Patterns(counts, raters.freq), agreement)
    if t.n2 == 0 or not math.isfinite(coefficient):
        return float("nan")
    r = codes.shape[1]
    n_g = freq @ rated  # items rated by each rater
    by_rater = np.stack([freq @ (codes == j + 1) for j in range(k)], axis=1)  # (r, k)
    p_gk = by_rater / n_g[:, None]
    big_a = (t.n / n_g)[:, None] * (r * p_gk.mean(axis=0)[None, :] - p_gk)  # (r, k)
    big_b = p_gk @ agreement.T  # Σ_l a_kl p_gl
    aw = big_a @ agreement  # (r, k): Σ_k A_gk a_kl
    constant = (big_a * big_b).sum(axis=1)  # (r,)
    looked = np.take_along_axis(aw.T, np.maximum(codes - 1, 0), axis=0)  # (P, r)
    lam = rated * looked - (rated - n_g / t.n) * constant
    pe_i = lam.sum(axis=1) / (r * (r - 1))
    linear = (t.n / t.n2) * (t.pa - pe * t.pairable) / (1 - pe)
    linear = linear - 2 * (1 - coefficient) * (pe_i - pe) / (1 - pe)
    return t.variance(linear, coefficient, population)


def krippendorff(
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
    rows = t.rows[keep]
    freq, m = t.freq[keep], t.m[keep]
    n = float(freq.sum())
    n_rated = int(t.freq[t.m >= 1].sum())
    if n < 2:
        return float("nan"), int(n), n_rated
    pi = (freq @ rows) / float(freq @ m)
    pe = float(pi @ agreement @ pi)
    pi_weighted = (agreement @ pi + agreement.T @ pi) / 2
    var = krippendorff_items(
        freq, m, t.agree[keep], rows @ pi_weighted, pe, population, n_rated, counts=counts
    )
    return var, int(n), n_rated


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
    mean_m = float(freq @ m) / n
    epsilon = 1 / float(freq @ m)
    pa_item = agree / (mean_m * (m - 1))
    pa_prime = float(freq @ pa_item) / n
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
    f = fraction(n_rated, population)
    return (1 - f) * float(freq @ (linear - center) ** 2) / (n * (n - 1))


def light(
    raters: Patterns,
    pairs: list[tuple[int, int, np.ndarray, float, float, float]],
    agreement: np.ndarray,
    population: float | None,
) -> float:
    """Var of Light's kappa by linearising the mean of the pairwise Cohen kappas.

    For a pair with table shares p and margins p_k., p_.l, the item with
    ratings (a, b) has ψ = (w_ab − p_o − 2(1 − κ)(pe_i − p_e)) / (1 − p_e),
    pe_i = (Σ_l w_al p_.l + Σ_k w_kb p_k.)/2 (Gwet's influence of one item on
    Cohen's kappa). The mean over P pairs has Ψ_i = (1/P) Σ_pairs (n / n_gh) ψ_i
    over the pairs that rated item i, and var = Σ_i Ψ_i² / (n (n − 1)).
    """
    codes = raters.rows
    freq = raters.freq.astype(np.float64)
    n = int(freq.sum())
    psi = np.zeros(codes.shape[0])
    for g, h, table, p_o, p_e, kappa in pairs:
        if not math.isfinite(kappa) or p_e == 1:
            return float("nan")
        both = (codes[:, g] > 0) & (codes[:, h] > 0)
        a, b = codes[both, g] - 1, codes[both, h] - 1
        n_gh = float(table.sum())
        rows, cols = table.sum(axis=1) / n_gh, table.sum(axis=0) / n_gh
        pe_i = ((agreement @ cols)[a] + (rows @ agreement)[b]) / 2
        item = (agreement[a, b] - p_o - 2 * (1 - kappa) * (pe_i - p_e)) / (1 - p_e)
        psi[both] += (n / n_gh) * item / len(pairs)
    if n < 2 or not pairs:
        return float("nan")
    f = fraction(n, population)
    center = float(freq @ psi) / n
    return (1 - f) * float(freq @ (psi - center) ** 2) / (n * (n - 1))


def fleiss_null(totals: np.ndarray, n_items: int, m: int) -> float:
    """Fleiss, Nee & Landis (1979): var of Fleiss' kappa under H0, m ratings per item.

    var0 = 2 [(Σ p_j q_j)² − Σ p_j q_j (q_j − p_j)] / (n m (m − 1) (Σ p_j q_j)²).
    """
    p = totals / totals.sum()
    q = 1 - p
    spread = float(p @ q)
    if spread == 0 or m < 2:
        return float("nan")
    return 2 * (spread**2 - float(np.sum(p * q * (q - p)))) / (n_items * m * (m - 1) * spread**2)
