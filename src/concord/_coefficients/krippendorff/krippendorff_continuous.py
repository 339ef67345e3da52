"""Krippendorff's alpha for continuous data: no coincidence matrix, O(items × raters + V) memory.

Every standard metric reduces to per-item sums over the rater columns:

* interval (and ordinal, on mid-ranks): Σ_{g,h}(x_g − x_h)² = 2mΣx² − 2(Σx)², and
  Σ_l n_l (x − x_l)² = n.. x² − 2x Σ n_l x_l + Σ n_l x_l²;
* nominal: Σ_{g,h}[x_g ≠ x_h] = m² − #equal pairs, and Σ_l n_l [x ≠ x_l] = n.. − n_x;
* ratio: pairs of rater columns, and blocks of values (O(V · block) memory).

From these come α, Gwet's (2014) per-item terms for its variance, and the
bootstrap by resampling items. At the interval and ordinal levels the two
sums of α are exact (:mod:`concord._tables.dyadic_rows`: n..D_o and
n..(n.. − 1)D_e as fractions, whatever the offset of the values), so α is
correctly rounded. The per-item terms of the variance are floats formed
elementwise (each item's sums column after column) and summed exactly
(:func:`concord._common.exact.fsum`, ``fdot``), the same on every CPU; so
are the ratio metric's per-value sums Σ_l n_l δ²(x_c, x_l), exact over
blocks of values (:func:`concord._common.exact_rows.matvec_scaled`: about
twice the time of the BLAS products they replace, O(V²) work either way).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from concord._coefficients.krippendorff.krippendorff_core import krippendorff_items
from concord._common import exact_rows
from concord._common.exact import dyadic, fdot, fsum
from concord._tables.dyadic_rows import digits, product_total, scaled

_BLOCK = 1 << 20  # values per block of the ratio metric's V × V sums
_GROUPS = 100  # blocks of the grouped jackknife


def _ratio(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    total = x + y
    out: np.ndarray = np.where(total == 0, 0.0, (x - y) / np.where(total == 0, 1.0, total)) ** 2
    return out


@dataclass(frozen=True)
class Terms:
    """Per-item terms of the pairable items, and the two sums of α."""

    m: np.ndarray  # ratings per item
    pairs: np.ndarray  # Σ_{g,h} δ²(x_g, x_h) per item
    chance: np.ndarray  # Σ_g Σ_l a(x_g, l) π_l per item, a = 1 − δ²/max δ²
    observed: Any  # n.. D_o = Σ_i pairs_i / (m_i − 1): exact (a Fraction) or a float
    expected: Any  # n..(n.. − 1) D_e = Σ_ck n_c n_k δ²_ck: exact (a Fraction) or a float
    top: float  # max δ²
    exact_top: Any = None  # max δ² as a Fraction, with exact sums

    @property
    def n(self) -> float:
        return float(self.m.sum())

    @property
    def count(self) -> int:
        """n.., the pairable values, an integer."""
        return int(self.m.sum())


def _scores(level: str, values: np.ndarray, n_c: np.ndarray) -> np.ndarray:
    if level == "ordinal":  # mid-ranks of the pairable values
        out: np.ndarray = np.cumsum(n_c) - n_c / 2
        return out
    return values


def _row_sums(level: str, scores: np.ndarray, n_c: np.ndarray) -> np.ndarray:
    """Σ_l n_l δ²(x_c, x_l) for every value c."""
    if level == "nominal":
        out: np.ndarray = n_c.sum() - n_c
        return out
    if level in ("interval", "ordinal"):
        t1, t2 = fdot(n_c, scores), fdot(n_c, scores * scores)  # exact sums
        out = n_c.sum() * scores * scores - 2 * scores * t1 + t2
        return out
    sums = np.empty(scores.shape[0])
    step = max(1, _BLOCK // 4 // scores.shape[0])  # a quarter: the exact sum's limbs take room
    ints, scale = dyadic(n_c)
    column = np.array(ints, dtype=object)
    if all(0 <= v < 1 << 62 for v in ints):
        column = column.astype(np.int64)  # counts: once, for every block
    counts = (column, scale)
    for s in range(0, scores.shape[0], step):
        block = _ratio(scores[s : s + step, None], scores[None, :])
        sums[s : s + step] = exact_rows.matvec_scaled(block, counts)  # exact, rounded once
    return sums


def _pairs(level: str, x: np.ndarray, codes: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Σ_{g,h} δ² between the ratings of each item."""
    if level in ("interval", "ordinal"):
        s1, s2, m = _columns(x), _columns(x * x), present.sum(axis=1)
        out: np.ndarray = 2 * m * s2 - 2 * s1 * s1
        return out
    total = np.zeros(x.shape[0])
    for g in range(x.shape[1]):
        for h in range(x.shape[1]):
            both = present[:, g] & present[:, h]
            if level == "nominal":
                total += both & (codes[:, g] != codes[:, h])
            else:
                total += np.where(both, _ratio(x[:, g], x[:, h]), 0.0)
    return total


def _columns(x: np.ndarray) -> np.ndarray:
    """Each row's sum, column after column: elementwise additions, the same on every CPU."""
    out = np.zeros(x.shape[0])
    for g in range(x.shape[1]):
        out += x[:, g]
    return out


def _max_delta(level: str, scores: np.ndarray) -> float:
    if level == "nominal":
        return 1.0
    lo, hi = float(scores.min()), float(scores.max())
    if level == "ratio":
        return ((hi - lo) / (hi + lo)) ** 2 if hi + lo > 0 else 0.0
    return (hi - lo) ** 2


def terms(codes: np.ndarray, level: str, values: np.ndarray) -> Terms:
    """Return the terms of the items ``codes`` (pairable, −1 = missing) with label ``values``."""
    present = codes >= 0
    m = present.sum(axis=1).astype(np.float64)
    n_c = np.bincount(codes[present], minlength=values.shape[0]).astype(np.float64)
    scores = _scores(level, values, n_c)
    x = np.where(present, scores[np.maximum(codes, 0)], 0.0)
    pairs = _pairs(level, x, codes, present)
    rows = _row_sums(level, scores, n_c)
    top = _max_delta(level, scores)
    n = float(m.sum())
    per_value = 1 - rows / (n * top) if top > 0 and n > 0 else np.ones_like(rows)
    chance = _columns(np.where(present, per_value[np.maximum(codes, 0)], 0.0))
    if level in ("interval", "ordinal") and x.size:
        observed, expected = _exact_sums(x, m)
        lo, hi = float(scores.min()), float(scores.max())
        exact_top = (Fraction(hi) - Fraction(lo)) ** 2
        return Terms(m, pairs, chance, observed, expected, top, exact_top)
    return Terms(m, pairs, chance, fsum(pairs / (m - 1)), fdot(n_c, rows), top)


def _exact_sums(x: np.ndarray, m: np.ndarray) -> tuple[Fraction, Fraction]:
    """Return n.. D_o and n..(n.. − 1) D_e of the squared difference, exact, from the digits of x.

    x holds each pairable item's scores (0 where missing). Per item,
    Σ_{g,h} (x_g − x_h)² = 2(m Σx² − T²), summed over the items with m
    values and divided by m − 1; Σ_{c,k} n_c n_k (x_c − x_k)² = 2(n.. Σx² − (Σx)²).
    """
    d = digits(x)
    n = int(m.sum())
    total = d.total()
    expected = scaled(2 * (n * d.square_total() - total * total), 2 * d.low)
    rows = d.row_totals()
    observed = Fraction(0)
    for size in np.unique(m).tolist():
        pick = m == size
        within, t = d.take(pick), rows.take(pick)
        observed += Fraction(
            2 * (int(size) * within.square_total() - product_total(t, t)), int(size) - 1
        )
    return observed * scaled(1, 2 * d.low), Fraction(expected)


def _float(v: Any) -> float:
    try:
        return float(v)
    except OverflowError:
        return float("inf") if v > 0 else float("-inf")


def alpha(t: Terms) -> float:
    """α = 1 − (n.. − 1) Σ_i pairs_i/(m_i − 1) / Σ n_c n_k δ²."""
    if t.n < 2 or t.expected == 0 or t.top == 0:
        return float("nan")
    return float(1 - (t.count - 1) * t.observed / t.expected)  # rounded once when exact


def variance(t: Terms, population: float | None, n_rated: int) -> float:
    """Gwet's variance of α from the per-item terms (see ``_variance.krippendorff_items``).

    ``n_rated`` counts the items with at least one rating (irrCAC's n for f = n / N).
    """
    if t.top == 0 or t.n < 2:
        return float("nan")
    agree = t.m * (t.m - 1) - t.pairs / t.top
    pe = 1 - _float(t.expected / (t.count * t.count * (t.exact_top or t.top)))
    return krippendorff_items(np.ones_like(t.m), t.m, agree, t.chance, pe, population, n_rated)


@dataclass(frozen=True)
class ContinuousSampler:
    """Bootstrap of α on continuous data: resample the pairable items (O(n · raters²) each)."""

    codes: np.ndarray
    level: str
    values: np.ndarray

    def _alpha(self, rows: Any) -> float:
        return alpha(terms(self.codes[rows], self.level, self.values))

    def observed(self) -> float:
        """Return α of every pairable item: the engine's own value, recomputed."""
        return self._alpha(np.arange(self.codes.shape[0]))

    def replicates(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        from concord._inference.intervals import progress

        n = self.codes.shape[0]
        out = np.empty(n_resamples)
        with progress(n_resamples, "bootstrap") as bar:
            for b in range(n_resamples):
                out[b] = self._alpha(rng.integers(0, n, n))
                if bar is not None:
                    bar.update(1)
        return out

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        """Return a grouped jackknife: α without each of up to 100 blocks of items."""
        blocks = np.array_split(np.arange(self.codes.shape[0]), min(_GROUPS, self.codes.shape[0]))
        keep = [np.setdiff1d(np.arange(self.codes.shape[0]), b) for b in blocks]
        return np.array([self._alpha(k) for k in keep]), np.array([b.size for b in blocks], float)
