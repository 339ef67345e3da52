"""Conger's and Light's kappas: the exact chance term, the float twins, the variances.

* :func:`chance_conger`: Conger's p_e in exact rational arithmetic (Light's
  kappa is the mean of exact pairwise Cohen kappas);
* :class:`CongerSampler`, :class:`LightSampler`: the same coefficients in
  floating point, vectorised over bootstrap resamples of who rated what;
* :class:`OnDemand`: a sampler formed when a bootstrap first needs it;
* :func:`conger_variance`: Gwet's (2014) variance of Conger's kappa;
  :func:`light_variance`: the linearised mean of the pairwise kappas.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from concord._coefficients.kappa.cohen_core import kappa_of_tables
from concord._coefficients.multirater import agreement_core as core
from concord._coefficients.multirater.agreement_core import quadratic_form
from concord._common import exact as _exact
from concord._common import exact_rows
from concord._common.exact import fdot
from concord._inference.design import fraction
from concord._inference.resampling import Resampled
from concord._tables.item_table import Items
from concord._tables.patterns import Patterns
from concord._tables.rater_terms import grouped_sum, row_terms


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
class OnDemand(Resampled):
    """A sampler formed on first use: the rater patterns it resamples may not exist yet."""

    form: Callable[[], Resampled]

    @cached_property
    def sampler(self) -> Resampled:
        return self.form()

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        return self.sampler.statistic(counts)

    def frequencies(self) -> np.ndarray:
        return self.sampler.frequencies()


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


def _conger_linear(
    codes: np.ndarray,
    freq: np.ndarray | None,
    by_rater: np.ndarray,
    agreement: np.ndarray,
    pe: float,
    coefficient: float,
) -> tuple[np.ndarray, int] | None:
    """Each row's linearised Conger kappa κ*_i (Gwet 2014), and the number of items n.

    Each row costs O(raters + categories²): λ_i is a sum over the row's
    raters of a lookup into a raters × codes table built from each rater's
    category totals, never a sum over rater pairs. ``codes`` are label codes
    + 1 (0 = missing), one row per item or per distinct pattern (``freq``
    its count); :func:`row_terms` gives the same bits for both. None when
    no item holds two ratings.
    """
    k = by_rater.shape[1]
    keep = by_rater.sum(axis=1) > 0  # raters who rated nothing take no part
    codes = codes if keep.all() else codes[:, keep]
    n = codes.shape[0] if freq is None else int(freq.sum())
    r = codes.shape[1]
    n_g = by_rater[keep].sum(axis=1).astype(np.float64)  # items rated by each rater
    p_gk = by_rater[keep] / n_g[:, None]
    # every sum over raters or categories exact, rounded once (exact_rows): no BLAS
    mean = exact_rows.matmul(np.ones((1, r)), p_gk)[0] / r
    big_a = (n / n_g)[:, None] * (r * mean[None, :] - p_gk)  # (r, k)
    big_b = exact_rows.matmul(p_gk, agreement.T)  # Σ_l a_kl p_gl
    aw = exact_rows.matmul(big_a, agreement)  # (r, k): Σ_k A_gk a_kl
    constant = exact_rows.row_sums(big_a * big_b)  # (r,)
    # λ_ig = rated·aw[g, code] − (rated − n_g/n)·constant_g depends on (g, code) only
    rated = np.arange(k + 1) > 0
    looked = np.concatenate([aw[:, :1], aw], axis=1)  # code 0 (missing) looks at aw[g, 0]
    by_code = rated * looked - (rated[None, :] - (n_g / n)[:, None]) * constant[:, None]
    m, agree, lam = row_terms(codes, np.ascontiguousarray(by_code), agreement)
    pairable = m >= 2
    n2 = int(pairable.sum()) if freq is None else int(freq[pairable].sum())
    if n2 == 0 or not math.isfinite(coefficient):
        return None
    pa = np.where(pairable, agree / np.where(pairable, m * (m - 1), 1.0), 0.0)
    pe_i = lam / (r * (r - 1))
    linear = (n / n2) * (pa - pe * pairable) / (1 - pe)
    return linear - 2 * (1 - coefficient) * (pe_i - pe) / (1 - pe), n


def conger_variance(
    items: Items,
    agreement: np.ndarray,
    pe: float,
    coefficient: float,
    population: float | None,
) -> float:
    """Var of Conger's kappa (irrCAC's conger.kappa.raw) from :func:`_conger_linear`.

    The rows are every item where the one-pass route kept the codes, else
    the distinct rater patterns; :func:`grouped_sum` gives the same bits for both.
    """
    if items.codes is not None:
        codes, freq = items.codes.rows, None
    else:
        raters = items.rater_patterns()
        codes, freq = raters.rows, raters.freq.astype(np.float64)
    found = _conger_linear(codes, freq, items.by_rater(), agreement, pe, coefficient)
    if found is None or found[1] < 2:
        return float("nan")
    linear, n = found
    f = fraction(n, population)
    return float((1 - f) * grouped_sum((linear - coefficient) ** 2, freq) / (n * (n - 1)))


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
    freq = raters.freq.astype(np.float64)
    n = int(freq.sum())
    psi = light_influence(raters.rows, n, pairs, agreement)
    if psi is None or n < 2 or not pairs:
        return float("nan")
    f = fraction(n, population)
    center = fdot(freq, psi) / n  # exact sums: the same on every CPU
    return (1 - f) * fdot(freq, (psi - center) ** 2) / (n * (n - 1))


def light_influence(
    codes: np.ndarray,
    n: int,
    pairs: list[tuple[int, int, np.ndarray, float, float, float]],
    agreement: np.ndarray,
) -> np.ndarray | None:
    """Ψ of each row of rater codes (+1, 0 = missing) of n items (see :func:`light_variance`).

    None where a pair's kappa is undefined.
    """
    psi = np.zeros(codes.shape[0])
    for g, h, table, p_o, p_e, kappa in pairs:
        if not math.isfinite(kappa) or p_e == 1:
            return None
        both = (codes[:, g] > 0) & (codes[:, h] > 0)
        a, b = codes[both, g] - 1, codes[both, h] - 1
        n_gh = float(table.sum())
        rows, cols = table.sum(axis=1) / n_gh, table.sum(axis=0) / n_gh
        by_row = exact_rows.matmul(agreement, cols[:, None])[:, 0]  # exact, rounded once
        by_col = exact_rows.matmul(rows[None, :], agreement)[0]
        pe_i = (by_row[a] + by_col[b]) / 2
        item = (agreement[a, b] - p_o - 2 * (1 - kappa) * (pe_i - p_e)) / (1 - p_e)
        psi[both] += (n / n_gh) * item / len(pairs)
    return psi


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
    found = _conger_linear(codes, None, by_rater, agreement, pe, coefficient)
    if found is None:
        return np.full(codes.shape[0], np.nan)
    return core.scaled_terms(found[0], coefficient, population)
