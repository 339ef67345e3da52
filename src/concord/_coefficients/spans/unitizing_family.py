"""|uα, cuα and (k)uα of Krippendorff, Mathet, Bouvry & Widlöcher (2016), exactly.

From the integer sums of :mod:`.unitizing_coincidences` (l_ck, the observed
coincidences of lengths; φ the gaps; m raters; l.. = m L):

* the expected coincidences (2016, eq. 4) e_ck = l.. (l_c. l_.k − [c = k] own_c)
  / (l..² − Σ own), own_c the self-pairing term of value c;
* uα (2016; Krippendorff 2019, § 12.6, "_uα") over the whole matrix, gaps a
  value like the categories: uα = 1 − (l.. − Σ l_cc) / (l.. − Σ e_cc);
* |uα (binary: relevant matter, any unit, against the gaps) = 1 − l_φ¬φ / e_φ¬φ
  with l_φ¬φ = l_φ. − l_φφ and e_φ¬φ = l.. l_φ. (l.. − l_φ.) / (l..² − Σ own):
  the coincidence matrix collapsed to φ and not φ;
* cuα (the categories where the raters' units intersect) on the coincidences
  among categories only, l*_ck = l_ck (c, k ≠ φ), l*.. their sum, with
  e*_ck = (l*_c. l*_.k − [c = k] met_c / (m − 1)) / (l*.. − Σ met / ((m − 1) l*..)):
  cuα = 1 − (l*.. − Σ l*_cc) / (l*.. − Σ e*_cc);
* (k)uα of one category k = 1 − (e*_k. / l*_k.) (l*_k. − l*_kk) / (e*_k. − e*_kk),
  which simplifies to D_o,k / D_e,k with D_o,k = (l*_k. − l*_kk) / l*_k. (the share of
  k's intersections that meet another category) and D_e,k = l*_k. (l*.. − l*_k.) /
  (l*_k. l*.. − met_k / (m − 1)).

Every value is a :class:`fractions.Fraction`; an undefined one is None.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from concord._coefficients.spans.unitizing_coincidences import Coincidences


@dataclass(frozen=True)
class Alpha:
    """One coefficient: 1 − D_o / D_e (None when D_e is 0 or nothing is pairable)."""

    observed: Fraction | None
    expected: Fraction | None

    @property
    def value(self) -> Fraction | None:
        if self.observed is None or not self.expected:
            return None
        return 1 - self.observed / self.expected


def _observed(c: Coincidences) -> list[list[Fraction]]:
    m = c.n_raters
    return [[Fraction(x, m - 1) for x in row] for row in c.intersections]


def binary(c: Coincidences) -> Alpha:
    """|uα: D_o = 2 l_φ¬φ / l.., D_e = 2 e_φ¬φ / l.."""
    total = c.n_raters * c.length
    lo = _observed(c)
    gap = sum(lo[0], Fraction(0))
    if not total or gap in (0, total):
        return Alpha(None, None)
    chance = Fraction(total * gap * (total - gap), total * total - sum(c.own))
    return Alpha(2 * (gap - lo[0][0]) / total, 2 * chance / total)


def nominal(c: Coincidences) -> Alpha:
    """uα (2016): D_o = (l.. − Σ l_cc) / l.., D_e = (l.. − Σ e_cc) / l.., φ a value."""
    total = c.n_raters * c.length
    lo = _observed(c)
    scale = total * total - sum(c.own)
    if not total or not scale:
        return Alpha(None, None)
    agree = sum((lo[v][v] for v in range(len(lo))), Fraction(0))
    margins = [sum(row, Fraction(0)) for row in lo]
    chance = sum(
        (total * (margins[v] ** 2 - c.own[v]) / scale for v in range(len(lo))), Fraction(0)
    )
    return Alpha((total - agree) / total, (total - chance) / total)


def _categories(c: Coincidences) -> tuple[list[list[Fraction]], list[Fraction], Fraction]:
    lo = _observed(c)
    star = [row[1:] for row in lo[1:]]
    margins = [sum(row, Fraction(0)) for row in star]
    return star, margins, sum(margins, Fraction(0))


def coded(c: Coincidences) -> tuple[Alpha, Fraction]:
    """cuα: D_o and D_e as shares of l*..; and l*.. / l.. (the share of the coincidences)."""
    star, margins, pooled = _categories(c)
    total = c.n_raters * c.length
    share = pooled / total if total else Fraction(0)
    if not pooled:
        return Alpha(None, None), share
    met = [Fraction(x, c.n_raters - 1) for x in c.met[1:]]
    scale = pooled - sum(met, Fraction(0)) / pooled
    if not scale:
        return Alpha(None, None), share
    agree = sum((star[k][k] for k in range(len(star))), Fraction(0))
    chance = sum(((margins[k] ** 2 - met[k]) / scale for k in range(len(star))), Fraction(0))
    return Alpha((pooled - agree) / pooled, (pooled - chance) / pooled), share


def per_category(c: Coincidences) -> list[Alpha]:
    """(k)uα of every category (codes 1 … V), as D_o,k / D_e,k (see the module)."""
    star, margins, pooled = _categories(c)
    out = []
    for k, lk in enumerate(margins):
        met = Fraction(c.met[k + 1], c.n_raters - 1)
        room = lk * pooled - met
        if not lk or not room:
            out.append(Alpha(None, None))
            continue
        out.append(Alpha((lk - star[k][k]) / lk, lk * (pooled - lk) / room))
    return out
