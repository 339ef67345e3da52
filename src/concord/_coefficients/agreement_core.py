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
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from concord._common import exact as _exact
from concord._tables.item_table import ItemStats


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
    lcm = int(np.lcm.reduce(stats.sizes.astype(object))) if stats.sizes.size else 1
    P = (
        stats.totals.astype(object)
        * np.array([lcm // int(m) for m in stats.sizes], dtype=object)[:, None]
    ).sum(axis=0)
    pairable = stats.pairable()
    n2 = int(stats.items[pairable].sum())
    if n2 == 0:
        pa = None
    elif top == 0:
        pa = Fraction(1)
    else:
        disagreement = sum(
            (
                Fraction(int((w * stats.gram[g].astype(object)).sum()), int(m) * (int(m) - 1))
                for g, m in enumerate(stats.sizes)
                if m >= 2
            ),
            start=Fraction(0),
        )
        pa = 1 - disagreement / (n2 * top)
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


def chance_conger(by_rater: np.ndarray, weights: np.ndarray) -> Fraction:
    """Conger (1980): p_e = Σ_kl a_kl (p̄_k p̄_l − s²_kl / r) from raters × categories counts.

    p_gk is rater g's share of category k, p̄_k its mean over the r raters
    and s²_kl the (r − 1)-denominator covariance of p_gk and p_gl over raters.
    """
    _, top = _weights(weights)
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


def category_kappas(stats: ItemStats) -> list[float]:
    """Fleiss' kappa of each category against all the others combined (Fleiss 1971, eq. 20).

    For category j, an item's two counts are c = r_ij and m − c, so
    r_iᵀ W r_i = 2c(m − c) and the sums need only Σ c and Σ c² per group.
    """
    out = []
    binary = 1.0 - np.eye(2)
    m, n = stats.sizes.astype(object), stats.items.astype(object)  # m² n can pass 2**63
    for j in range(stats.totals.shape[1]):
        c1, c2 = stats.totals[:, j].astype(object), stats.gram[:, j, j].astype(object)
        totals = np.column_stack([c1, m * n - c1])
        cross = m * c1 - c2  # Σ c (m − c)
        gram = np.zeros((m.size, 2, 2), dtype=object)
        gram[:, 0, 0], gram[:, 1, 1] = c2, m * m * n - 2 * m * c1 + c2
        gram[:, 0, 1] = gram[:, 1, 0] = cross
        two = ItemStats(stats.sizes, stats.items, totals, gram)
        s = shares(two, binary)
        out.append(coefficient(s.pa, chance_fleiss(s, binary)))
    return out


def coefficient(pa: Fraction | None, pe: Fraction) -> float:
    """(p_a − p_e) / (1 − p_e), rounded once; nan when undefined."""
    if pa is None or pe == 1:
        return float("nan")
    return float((pa - pe) / (1 - pe))
