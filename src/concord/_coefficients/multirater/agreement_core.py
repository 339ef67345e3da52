"""Exact cores shared by the multi-rater coefficients: p_a, the shares π_k, p_e.

Notation (Gwet 2014, ch. 2 and 5): item i has r_ik ratings in category k and
r_i = Σ_k r_ik ratings in all; n items have at least one rating and n₂ at
least two; a_kl = 1 − W_kl / max W are the agreement weights.

* percent agreement   p_a = (1/n₂) Σ_{i: r_i ≥ 2} Σ_k r_ik (r*_ik − 1) / (r_i (r_i − 1)),
  with r*_ik = Σ_l a_kl r_il, which equals 1 − (1/n₂) Σ_i r_iᵀ W r_i / (max W · r_i (r_i − 1));
* category shares     π_k = (1/n) Σ_i r_ik / r_i.

Every such sum depends on the items only through a few integer statistics
of the items that have the same number of ratings m (:class:`ItemStats`):
how many there are, their category totals Σ r_i and their Gram matrix
Σ r_i r_iᵀ. These are combined in exact rational arithmetic and each
coefficient is rounded once. Krippendorff's coincidence matrix is another
function of the same statistics.

Beside the exact cores, each coefficient's float twin and variance:

* :class:`PatternSampler`: the same coefficients in floating point, vectorised
  over bootstrap resamples of the item patterns;
* :func:`variance`: Gwet's (2014) design-based variance, conditional on the
  raters, from the raw-ratings formulas of R irrCAC: each item gets a
  linearised value κ*_i and var = (1 − f) Σ_i (κ*_i − κ)² / (n (n − 1)), where
  f = n / N is the sampling fraction of a finite population of N items;
* :func:`fleiss_null`: Fleiss' kappa under H0 (Fleiss, Nee & Landis 1979),
  for items all rated by the same number of raters.

A coefficient of the family is its :class:`Chance`: how it corrects p_a for
chance, exactly, in floating point and per item. Sums over items are sums
over the distinct item patterns weighted by their frequencies
(:mod:`concord._tables.patterns`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from concord._common import exact as _exact
from concord._common import exact_rows
from concord._common.exact import fdot
from concord._inference.design import fraction
from concord._inference.resampling import Resampled
from concord._tables.item_table import ItemStats
from concord._tables.patterns import Patterns


@dataclass(frozen=True)
class Shares:
    """π_k = P_k / D as integers, and the exact percent agreement."""

    P: np.ndarray  # object (Python ints), shape (q,)
    D: int
    pa: Fraction | None  # None when no item has two ratings


def _weights(weights: np.ndarray) -> tuple[np.ndarray, int]:
    w = _exact.integers(weights).astype(object)
    return w, int(w.max())


def shares(stats: ItemStats, weights: np.ndarray) -> Shares:
    """Return the exact π and p_a (with disagreement ``weights``) of the items."""
    w, top = _weights(weights)
    sizes = [int(m) for m in stats.sizes]
    lcm = math.lcm(*sizes)  # 1 when there are no items
    P = (
        stats.totals.astype(object) * np.array([lcm // m for m in sizes], dtype=object)[:, None]
    ).sum(axis=0)
    pair = [g for g, m in enumerate(sizes) if m >= 2]
    n2 = int(stats.items[pair].sum()) if pair else 0
    if n2 == 0:
        pa = None
    elif top == 0:
        pa = Fraction(1)
    else:
        # Σ_g (Σ W ∘ gram_g) / (m (m − 1)), over one common denominator: one Fraction
        weighted = (stats.gram[pair].astype(object) * w).sum(axis=(1, 2))
        den = math.lcm(*(sizes[g] * (sizes[g] - 1) for g in pair))
        num = sum(
            int(d) * (den // (sizes[g] * (sizes[g] - 1)))
            for d, g in zip(weighted, pair, strict=True)
        )
        pa = 1 - Fraction(num, den) / (n2 * top)
    return Shares(P, stats.n_items * lcm, pa)


def quadratic_form(x: np.ndarray, weights: np.ndarray) -> int:
    """xᵀ W x in exact integer arithmetic (W scaled to integers)."""
    w, _ = _weights(weights)
    xo = x.astype(object)
    return int(xo @ w @ xo)


def chance_fleiss(s: Shares, weights: np.ndarray) -> Fraction:
    """Fleiss (1971) / Scott: p_e = Σ_kl a_kl π_k π_l = 1 − πᵀWπ / max W."""
    _, top = _weights(weights)
    if top == 0:
        return Fraction(1)
    return 1 - Fraction(quadratic_form(s.P, weights), top * s.D * s.D)


def chance_gwet(s: Shares, weights: np.ndarray) -> Fraction:
    """Gwet (2008, 2014) AC1/AC2: p_e = T_a / (q(q − 1)) · Σ_k π_k (1 − π_k), T_a = Σ a_kl."""
    w, top = _weights(weights)
    q = w.shape[0]
    if q < 2:
        return Fraction(1)
    t_a = Fraction(q * q * top - int(w.sum()), top) if top else Fraction(q * q)
    spread = Fraction(s.D * int(s.P.sum()) - int((s.P * s.P).sum()), s.D * s.D)
    pe: Fraction = t_a / (q * (q - 1)) * spread
    return pe


def chance_uniform(weights: np.ndarray) -> Fraction:
    """Brennan & Prediger (1981), Randolph (2005): p_e = Σ_kl a_kl / q²."""
    w, top = _weights(weights)
    q = w.shape[0]
    if top == 0:
        return Fraction(1)
    return Fraction(q * q * top - int(w.sum()), q * q * top)


def category_kappas(stats: ItemStats) -> list[float]:
    """Fleiss' kappa of each category against all the others combined (Fleiss 1971, eq. 20).

    For category j, an item's two counts are c = r_ij and m − c, so with
    W = 1 − I, r_iᵀ W r_i = 2c(m − c) and the sums need only Σ c and Σ c²
    per group: :func:`shares` and :func:`chance_fleiss` of that 2-category
    table, in Python integers over common denominators.
    """
    sizes = [int(m) for m in stats.sizes]
    items = [int(v) for v in stats.items]
    lcm = math.lcm(*sizes)
    pair = [g for g, m in enumerate(sizes) if m >= 2]
    n2 = sum(items[g] for g in pair)
    den = math.lcm(*(sizes[g] * (sizes[g] - 1) for g in pair))
    total = sum(items) * lcm  # D of the shares
    out = []
    for j in range(stats.totals.shape[1]):
        c1 = [int(v) for v in stats.totals[:, j]]
        c2 = [int(v) for v in stats.gram[:, j, j]]
        p0 = sum(c * (lcm // m) for c, m in zip(c1, sizes, strict=True))
        p1 = sum((m * n - c) * (lcm // m) for c, m, n in zip(c1, sizes, items, strict=True))
        pe = 1 - Fraction(2 * p0 * p1, total * total)  # πᵀWπ = 2 π_0 π_1
        if n2 == 0:
            out.append(coefficient(None, pe))
            continue
        cross = sum(
            2 * (sizes[g] * c1[g] - c2[g]) * (den // (sizes[g] * (sizes[g] - 1))) for g in pair
        )
        out.append(coefficient(1 - Fraction(cross, den) / n2, pe))
    return out


def coefficient(pa: Fraction | None, pe: Fraction) -> float:
    """(p_a − p_e) / (1 − p_e), rounded once; nan when undefined."""
    if pa is None or pe == 1:
        return float("nan")
    return float((pa - pe) / (1 - pe))


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
        return float((1 - f) * fdot(self.freq, (values - center) ** 2) / (self.n * (self.n - 1)))


def terms(patterns: Patterns, agreement: np.ndarray) -> Terms:
    """Gwet's per-item terms of the item-count patterns under agreement weights A.

    Each item's Σ_k r_ik (r*_ik − 1) = r_iᵀ A r_i − r_i is exact, rounded once
    (:mod:`concord._common.exact_rows`): the same on every CPU, unlike a BLAS product.
    """
    rows = patterns.rows.astype(np.float64)
    m = rows.sum(axis=1)
    counts = np.asarray(patterns.rows).astype(np.int64)
    if exact_rows.identity(agreement):  # unweighted: Σ_k r_k² − m, an integer
        top = int(counts.sum(axis=1).max(initial=0))
        whole = counts if _exact.fits_int64(top, top) else _exact.as_object(counts)
        agree = ((whole * whole).sum(axis=1) - whole.sum(axis=1)).astype(np.float64)
    else:
        forms = exact_rows.Rows(counts).forms(agreement)
        num, power = exact_rows.less(forms, counts.sum(axis=1))
        agree = exact_rows.quotients(num, power, 1)
    freq = patterns.freq.astype(np.float64)
    return Terms(rows, freq, m, agree, int(freq.sum()), int(freq[m >= 2].sum()))


def chance_none(s: Shares, weights: np.ndarray) -> Fraction:
    """Percent agreement: no correction for chance, p_e = 0."""
    return Fraction(0)


def chance_shares(s: Shares, weights: np.ndarray) -> Fraction:
    """Brennan & Prediger: p_e from the weights alone (see :func:`chance_uniform`)."""
    return chance_uniform(weights)


def _twin_none(pi: np.ndarray, agreement: np.ndarray) -> np.ndarray:
    return np.zeros(pi.shape[0])


def _twin_fleiss(pi: np.ndarray, agreement: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.einsum("bk,kl,bl->b", pi, agreement, pi)
    return out


def _twin_gwet(pi: np.ndarray, agreement: np.ndarray) -> np.ndarray:
    q = agreement.shape[0]
    out: np.ndarray = agreement.sum() / (q * (q - 1)) * (pi * (1 - pi)).sum(axis=1)
    return out


def _twin_uniform(pi: np.ndarray, agreement: np.ndarray) -> np.ndarray:
    q = agreement.shape[0]
    return np.full(pi.shape[0], agreement.sum() / (q * q))


def _item_fleiss(t: Terms, agreement: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """pe_i = r_i · (Aπ + Aᵀπ) / (2 r_i), exact from the floats A and π, rounded once."""
    ints, power = _exact.dyadic(pi)
    shares, scale = exact_rows.matvec(agreement, ints)
    dots = exact_rows.Rows(t.rows).dots(shares.tolist())
    return _per_rating(dots, power + scale, 2, t.m)


def _item_gwet(t: Terms, agreement: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """pe_i = Σ A / (q (q − 1)) · r_i · (1 − π) / r_i, exact from A and the floats 1 − π."""
    q = agreement.shape[0]
    ints, power = _exact.dyadic(1 - pi)  # 1 − π elementwise: rounded alike on every CPU
    total, scale = exact_rows.total(agreement)
    dots = _exact.as_object(exact_rows.Rows(t.rows).dots(ints)) * total
    return _per_rating(dots, power + scale, q * (q - 1), t.m)


def _per_rating(dots: np.ndarray, power: int, den: int, m: np.ndarray) -> np.ndarray:
    """Return dots · 2**power / (den · m) of each item, rounded once; nan where m is 0."""
    sizes = m.astype(np.int64)
    out = exact_rows.quotients(dots, power, den * np.maximum(sizes, 1))
    out[sizes == 0] = np.nan
    return out


@dataclass(frozen=True)
class Chance:
    """How a coefficient of the family corrects p_a for chance: exactly, in floats, per item.

    ``exact`` is p_e from the exact shares and disagreement weights; ``twin``
    the same p_e of a stack of shares π (B, q) under agreement weights;
    ``item`` each item's own chance term pe_i in Gwet's linearisation (None
    where p_e does not depend on the items). ``corrected`` is False for
    percent agreement, which is p_a itself.
    """

    exact: Callable[[Shares, np.ndarray], Fraction]
    twin: Callable[[np.ndarray, np.ndarray], np.ndarray]
    item: Callable[[Terms, np.ndarray, np.ndarray], np.ndarray] | None = None
    corrected: bool = True


NONE = Chance(chance_none, _twin_none, corrected=False)
FLEISS = Chance(chance_fleiss, _twin_fleiss, _item_fleiss)
GWET = Chance(chance_gwet, _twin_gwet, _item_gwet)
UNIFORM = Chance(chance_shares, _twin_uniform)


def variance(
    chance: Chance,
    t: Terms,
    agreement: np.ndarray,
    pi: np.ndarray,
    pe: float,
    coefficient: float,
    population: float | None,
) -> float:
    """Gwet's (2014) variance of a coefficient of the family, from its linearisation."""
    if t.n2 == 0 or not math.isfinite(coefficient):
        return float("nan")
    return t.variance(
        linearised(chance, t, agreement, pi, pe, coefficient), coefficient, population
    )


def linearised(
    chance: Chance, t: Terms, agreement: np.ndarray, pi: np.ndarray, pe: float, coefficient: float
) -> np.ndarray:
    """Gwet's linearised coefficient κ*_i of each pattern, whose mean is κ (t.n2 > 0)."""
    scale = t.n / t.n2
    if not chance.corrected:
        out: np.ndarray = scale * t.pa
        return out
    linear = scale * (t.pa - pe * t.pairable) / (1 - pe)
    if chance.item is not None:
        pe_i = chance.item(t, agreement, pi)
        linear = linear - 2 * (1 - coefficient) * (pe_i - pe) / (1 - pe)
    return linear


@dataclass(frozen=True)
class PatternSampler(Resampled):
    """The float twin: the coefficient of each bootstrap resample of the item patterns."""

    patterns: Patterns
    agreement: np.ndarray
    chance: Chance

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        """Return the coefficient for each row of item counts per pattern, shape (B, P)."""
        rows = self.patterns.rows.astype(np.float64)
        m = rows.sum(axis=1)
        star = rows @ self.agreement.T
        pair = m >= 2
        den = np.where(pair, m * (m - 1), 1.0)
        pa_item = np.where(pair, (rows * (star - 1)).sum(axis=1) / den, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            out: np.ndarray = (counts @ pa_item) / (counts @ pair)
            if self.chance.corrected:
                pi = (counts @ (rows / m[:, None])) / counts.sum(axis=1)[:, None]
                pe = self.chance.twin(pi, self.agreement)
                out = (out - pe) / (1 - pe)
        return out

    def frequencies(self) -> np.ndarray:
        return self.patterns.freq


def fleiss_null(totals: np.ndarray, n_items: int, m: int) -> float:
    """Fleiss, Nee & Landis (1979): var of Fleiss' kappa under H0, m ratings per item.

    var0 = 2 [(Σ p_j q_j)² − Σ p_j q_j (q_j − p_j)] / (n m (m − 1) (Σ p_j q_j)²).

    With t_j the category totals and T their sum, p_j = t_j / T, so
    Σ p_j q_j = S / T² and Σ p_j q_j (q_j − p_j) = C / T³ with integers
    S = Σ t_j (T − t_j) and C = Σ t_j (T − t_j)(T − 2 t_j), and
    var0 = 2 (S² − C T) / (n m (m − 1) S²): exact, rounded once.
    """
    t = [int(v) for v in np.asarray(totals).tolist()]
    whole = sum(t)
    spread = sum(v * (whole - v) for v in t)
    if spread == 0 or m < 2:
        return float("nan")
    skew = sum(v * (whole - v) * (whole - 2 * v) for v in t)
    return _exact.rounded(
        2 * (spread * spread - skew * whole), n_items * m * (m - 1) * spread * spread
    )


def scaled_terms(
    linear: np.ndarray, coefficient: float, population: float | None, n: int | None = None
) -> np.ndarray:
    """Per-item terms u_i = (κ*_i − κ) √((1 − f) / (n (n − 1))), so that var = Σ u_i².

    :func:`concord.compare` pairs these item by item: the variance of a
    difference of two coefficients on the same items is Σ (u₂ᵢ − u₁ᵢ)²
    (Gwet 2016). ``n`` is the number of items the sampling fraction counts.
    """
    items = linear.shape[0]
    if items < 2 or not math.isfinite(coefficient):
        return np.full(items, np.nan)
    f = fraction(items if n is None else n, population)
    out: np.ndarray = (linear - coefficient) * math.sqrt((1 - f) / (items * (items - 1)))
    return out


def item_terms(
    chance: Chance,
    rows: np.ndarray,
    agreement: np.ndarray,
    pi: np.ndarray,
    pe: float,
    coefficient: float,
    population: float | None,
) -> np.ndarray:
    """:func:`scaled_terms` of each item, from its row of counts per category (items in order).

    The same linearisation as :func:`variance`, with each item its own
    pattern: Σ of the squared terms is the coefficient's variance.
    """
    t = terms(Patterns(rows, np.ones(rows.shape[0], dtype=np.int64)), agreement)
    if t.n2 == 0:
        return np.full(rows.shape[0], np.nan)
    return scaled_terms(
        linearised(chance, t, agreement, pi, pe, coefficient), coefficient, population
    )
