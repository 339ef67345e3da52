"""Conger's and Light's kappas: the exact chance term, the float twins, the variances.

* :func:`chance_conger`: Conger's p_e in exact rational arithmetic (Light's
  kappa is the mean of exact pairwise Cohen kappas);
* :class:`CongerSampler`, :class:`LightSampler`: the same coefficients in
  floating point, vectorised over bootstrap resamples of who rated what;
* :func:`conger_variance`: Gwet's (2014) variance of Conger's kappa;
  :func:`light_variance`: the linearised mean of the pairwise kappas.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from concord._coefficients import agreement_core as core
from concord._coefficients.agreement_core import quadratic_form
from concord._coefficients.cohen_core import kappa_of_tables
from concord._common import exact as _exact
from concord._inference.design import fraction
from concord._inference.resampling import Resampled
from concord._tables.patterns import Patterns


def chance_conger(by_rater: np.ndarray, weights: np.ndarray) -> Fraction:
    """Conger (1980): p_e = Σ_kl a_kl (p̄_k p̄_l − s²_kl / r) from raters × categories counts.

    p_gk is rater g's share of category k, p̄_k its mean over the r raters
    and s²_kl the (r − 1)-denominator covariance of p_gk and p_gl over raters.
    """
    top = int(_exact.integers(weights).max())
    r = by_rater.shape[0]
    if top == 0 or r < 2:
        return Fraction(1)
    n_g = [int(v) for v in by_rater.sum(axis=1)]
    lcm = int(np.lcm.reduce(np.array(n_g, dtype=object)))
    mean_num = sum(
        (by_rater[g].astype(object) * (lcm // n_g[g]) for g in range(r)),
        start=np.zeros(by_rater.shape[1], dtype=object),
    )
    mean_form = Fraction(quadratic_form(mean_num, weights), r * r * lcm * lcm)  # p̄ᵀWp̄
    own = sum(Fraction(quadratic_form(by_rater[g], weights), n_g[g] ** 2) for g in range(r))
    covariance = (own - r * mean_form) / (r - 1)  # Σ_kl W_kl s²_kl
    pe: Fraction = 1 - (mean_form - covariance / r) / top
    return pe


@dataclass(frozen=True)
class _RaterSampler(Resampled):
    """Resample the patterns of who rated what (codes + 1, 0 = missing)."""

    raters: Patterns
    k: int
    weights: np.ndarray  # disagreement weights

    def frequencies(self) -> np.ndarray:
        return self.raters.freq


@dataclass(frozen=True)
class LightSampler(_RaterSampler):
    """Light's kappa's float twin: the mean pairwise κ of each resample."""

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        r = self.raters.rows.shape[1]
        pairs = [(g, h) for g in range(r) for h in range(g + 1, r)]
        kappas = [
            kappa_of_tables(self._pair_tables(counts, g, h), self.weights, False) for g, h in pairs
        ]
        out: np.ndarray = np.mean(kappas, axis=0)
        return out

    def _pair_tables(self, counts: np.ndarray, g: int, h: int) -> np.ndarray:
        codes = self.raters.rows
        both = (codes[:, g] > 0) & (codes[:, h] > 0)
        cells = (codes[:, g] - 1) * self.k + codes[:, h] - 1
        flat = np.zeros((counts.shape[0], self.k * self.k))
        for cell in np.unique(cells[both]):
            flat[:, cell] = counts[:, both & (cells == cell)].sum(axis=1)
        return flat.reshape(-1, self.k, self.k)


@dataclass(frozen=True)
class CongerSampler(_RaterSampler):
    """Conger's kappa's float twin: p_a of the item counts, p_e of each rater's shares."""

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        codes = self.raters.rows
        top = self.weights.max()
        agreement = 1 - self.weights / top if top > 0 else np.ones_like(self.weights)
        item_counts = np.stack([(codes == j + 1).sum(axis=1) for j in range(self.k)], axis=1)
        pa = core.PatternSampler(Patterns(item_counts, self.raters.freq), agreement, core.NONE)
        by_rater = np.stack(
            [counts @ (codes == j + 1).astype(np.float64) for j in range(self.k)], axis=2
        )  # (B, r, k)
        keep = (codes > 0).any(axis=0)
        by_rater = by_rater[:, keep]
        r = by_rater.shape[1]
        with np.errstate(invalid="ignore", divide="ignore"):
            p = by_rater / by_rater.sum(axis=2, keepdims=True)
            mean = p.mean(axis=1)
            cross = np.einsum("bgk,bgl->bkl", p, p)
            s2 = (cross - r * mean[:, :, None] * mean[:, None, :]) / (r - 1)
            pe = np.einsum("kl,bkl->b", agreement, mean[:, :, None] * mean[:, None, :] - s2 / r)
            out: np.ndarray = (pa.statistic(counts) - pe) / (1 - pe)
        return out


def conger_variance(
    raters: Patterns,
    by_rater: np.ndarray,
    agreement: np.ndarray,
    pe: float,
    coefficient: float,
    population: float | None,
) -> float:
    """Var of Conger's kappa (irrCAC's conger.kappa.raw): its per-item chance term λ.

    ``by_rater`` is :meth:`Items.by_rater`, the raters × categories counts.
    """
    k = by_rater.shape[1]
    keep = by_rater.sum(axis=1) > 0  # raters who rated nothing take no part
    codes = raters.rows if keep.all() else raters.rows[:, keep]
    counts = _tally(codes, k)[:, 1:]  # (P, k): each pattern's ratings per category
    t = core.terms(Patterns(counts, raters.freq), agreement)
    if t.n2 == 0 or not math.isfinite(coefficient):
        return float("nan")
    r = codes.shape[1]
    n_g = by_rater[keep].sum(axis=1).astype(np.float64)  # items rated by each rater
    p_gk = by_rater[keep] / n_g[:, None]
    big_a = (t.n / n_g)[:, None] * (r * p_gk.mean(axis=0)[None, :] - p_gk)  # (r, k)
    big_b = p_gk @ agreement.T  # Σ_l a_kl p_gl
    aw = big_a @ agreement  # (r, k): Σ_k A_gk a_kl
    constant = (big_a * big_b).sum(axis=1)  # (r,)
    # λ_ig = rated·aw[g, code] − (rated − n_g/n)·constant_g depends on (g, code) only:
    # one lookup per rating instead of several passes over the items × raters matrix
    rated = np.arange(k + 1) > 0
    looked = np.concatenate([aw[:, :1], aw], axis=1)  # code 0 (missing) looks at aw[g, 0]
    by_code = rated * looked - (rated[None, :] - (n_g / t.n)[:, None]) * constant[:, None]
    # λ[:, g] = by_code[g, codes[:, g]], laid out like codes: its row sums keep their order
    lam = np.empty_like(codes, dtype=np.float64)
    np.take(by_code, codes + np.arange(r) * (k + 1), out=lam)
    pe_i = lam.sum(axis=1) / (r * (r - 1))
    linear = (t.n / t.n2) * (t.pa - pe * t.pairable) / (1 - pe)
    linear = linear - 2 * (1 - coefficient) * (pe_i - pe) / (1 - pe)
    return t.variance(linear, coefficient, population)


def _tally(codes: np.ndarray, k: int) -> np.ndarray:
    """(rows, k + 1) counts of the codes 0..k in each row of ``codes``."""
    cells = (np.arange(codes.shape[0])[:, None] * (k + 1) + codes).ravel()
    return np.bincount(cells, minlength=codes.shape[0] * (k + 1)).reshape(-1, k + 1)


def light_variance(
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


def conger_terms(
    codes: np.ndarray,
    by_rater: np.ndarray,
    agreement: np.ndarray,
    pe: float,
    coefficient: float,
    population: float | None,
) -> np.ndarray:
    """Per-item terms of Conger's kappa (items in order), so that Σ u_i² is its variance.

    ``codes`` are the label codes + 1 (0 = missing) of each item, in order;
    the linearisation is :func:`conger_variance`'s, item by item (Gwet 2014;
    pairedCAC's ``conger.linear.i``).
    """
    k = by_rater.shape[1]
    keep = by_rater.sum(axis=1) > 0
    codes = codes if keep.all() else codes[:, keep]
    counts = _tally(codes, k)[:, 1:]
    t = core.terms(Patterns(counts, np.ones(codes.shape[0], dtype=np.int64)), agreement)
    if t.n2 == 0:
        return np.full(codes.shape[0], np.nan)
    r = codes.shape[1]
    n_g = by_rater[keep].sum(axis=1).astype(np.float64)
    p_gk = by_rater[keep] / n_g[:, None]
    big_a = (t.n / n_g)[:, None] * (r * p_gk.mean(axis=0)[None, :] - p_gk)
    aw = big_a @ agreement
    constant = (big_a * (p_gk @ agreement.T)).sum(axis=1)
    rated = codes > 0
    looked = np.take_along_axis(aw.T, np.maximum(codes - 1, 0), axis=0)  # aw[g, code − 1]
    lam = rated * looked - (rated - (n_g / t.n)[None, :]) * constant[None, :]
    pe_i = lam.sum(axis=1) / (r * (r - 1))
    linear = (t.n / t.n2) * (t.pa - pe * t.pairable) / (1 - pe)
    linear = linear - 2 * (1 - coefficient) * (pe_i - pe) / (1 - pe)
    return core.scaled_terms(linear, coefficient, population)
