"""Lin's concordance correlation: the exact core, its float twin, its variance.

* :func:`ccc_core`: ρ_c, Pearson's r, C_b, the scale shift v and the
  location shift u from the exact sums (:class:`~concord._tables.moments.Moments`),
  each rounded once;
* :func:`ccc_of_sums` and :class:`PairSampler`: the same ρ_c in floating point,
  vectorised over bootstrap resamples of the distinct pairs;
* :func:`z_variance`: Lin's (1989, corrected 2000) large-sample variance of
  the Fisher z-transform of ρ_c.

With A = nΣx² − (Σx)², B = nΣy² − (Σy)², C = nΣxy − ΣxΣy and D = Σx − Σy
(population, 1/n, moments, as Lin 1989 defines the estimate)::

    ρ_c = 2C / (A + B + D²),  r = C / √(AB),  C_b = ρ_c / r = 2√(AB) / (A + B + D²),
    v = σ_x / σ_y = √(A / B),  u = (μ_x − μ_y) / √(σ_x σ_y) = D / (AB)^¼.

All are ratios in which the power of two of the sums cancels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from concord._common.exact import root_ratio, rounded
from concord._inference.resampling import Resampled
from concord._tables.moments import Moments


def sqrt_ratio(num: int, den: int) -> float:
    """Return √(num/den) for non-negative integers, to the last bit; nan when den is 0."""
    return root_ratio(num, den)


def _fraction(x: Fraction) -> float:
    return rounded(x.numerator, x.denominator)


@dataclass(frozen=True)
class Ccc:
    """ρ_c and its parts, each rounded once from the exact sums."""

    statistic: float
    precision: float  # Pearson's r
    accuracy: float  # C_b
    scale_shift: float  # v = σ_x / σ_y
    location_shift: float  # u = (μ_x − μ_y) / √(σ_x σ_y)
    mean_x: float
    mean_y: float
    var_x: float  # population variances (1/n)
    var_y: float
    covariance: float


def parts(s: Moments) -> tuple[int, int, int, int]:
    """Return (A, B, C, D) of the module docstring, integers on the sums' scale."""
    n = s.n
    return n * s.sxx - s.sx * s.sx, n * s.syy - s.sy * s.sy, n * s.sxy - s.sx * s.sy, s.sx - s.sy


def ccc_core(s: Moments) -> Ccc:
    """Return ρ_c, r, C_b, v, u and the moments of the sums, each rounded once."""
    a, b, c, d = parts(s)
    chance = a + b + d * d
    statistic = 2 * c / chance if chance else math.nan
    r = math.copysign(sqrt_ratio(c * c, a * b), -1 if c < 0 else 1) if a * b else math.nan
    accuracy = sqrt_ratio(4 * a * b, chance * chance) if chance else math.nan
    u = math.nan if a * b == 0 else 0.0
    if a * b and d:  # u = D / (AB)^¼, one root of the exact D⁴ / (AB)
        u = math.copysign(root_ratio(d**4, a * b, 4), -1 if d < 0 else 1)
    n, scale = s.n, Fraction(2) ** s.exp
    return Ccc(
        statistic=statistic,
        precision=r,
        accuracy=accuracy,
        scale_shift=sqrt_ratio(a, b),
        location_shift=u,
        mean_x=_fraction(Fraction(s.sx, n) * scale) if n else math.nan,
        mean_y=_fraction(Fraction(s.sy, n) * scale) if n else math.nan,
        var_x=_fraction(Fraction(a, n * n) * scale**2) if n else math.nan,
        var_y=_fraction(Fraction(b, n * n) * scale**2) if n else math.nan,
        covariance=_fraction(Fraction(c, n * n) * scale**2) if n else math.nan,
    )


def z_variance(ccc: Ccc, n: int) -> float:
    """Lin's (1989, corrected 2000) variance of z = artanh(ρ_c), on n − 2 degrees of freedom.

    ::

        σ²_z = [(1 − r²) ρ_c² / ((1 − ρ_c²) r²) + 2ρ_c³ (1 − ρ_c) u² / (r (1 − ρ_c²)²)
                − ρ_c⁴ u⁴ / (2 r² (1 − ρ_c²)²)] / (n − 2)

    as R epiR's ``epi.ccc`` and DescTools' ``CCC`` compute it.
    """
    p, r, u = ccc.statistic, ccc.precision, ccc.location_shift
    if n <= 2 or not (math.isfinite(p) and math.isfinite(r)) or abs(p) >= 1 or r == 0:
        return math.nan
    one = 1 - p * p
    try:
        terms = (
            (1 - r * r) * p * p / (one * r * r)
            + 2 * p**3 * (1 - p) * u * u / (r * one * one)
            - p**4 * u**4 / (2 * r * r * one * one)
        )
    except (OverflowError, ZeroDivisionError):  # u of ~1e77 SDs; r² below the subnormals
        return math.nan
    return max(terms, 0.0) / (n - 2)


def ccc_of_sums(sums: np.ndarray) -> np.ndarray:
    """ρ_c of a stack of sums, columns (n, Σx, Σy, Σx², Σy², Σxy), in floating point."""
    n, sx, sy, sxx, syy, sxy = sums.T
    a, b, c, d = n * sxx - sx * sx, n * syy - sy * sy, n * sxy - sx * sy, sx - sy
    with np.errstate(invalid="ignore", divide="ignore"):
        out: np.ndarray = 2 * c / (a + b + d * d)
    return out


@dataclass(frozen=True)
class PairSampler(Resampled):
    """Resample the pairs: one multinomial draw over the distinct (x, y) pairs.

    The ratings are centred on the observed means before the sums are taken,
    which keeps the float sums of squares from cancelling.
    """

    x: np.ndarray
    y: np.ndarray
    freq: np.ndarray

    def sums(self, counts: np.ndarray) -> np.ndarray:
        """Return the sums (n, Σx, Σy, Σx², Σy², Σxy) of each row of counts per pair."""
        n = self.freq.sum()
        x = self.x - (self.freq @ self.x) / n
        y = self.y - (self.freq @ self.y) / n
        columns = np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=1)
        out: np.ndarray = counts @ columns
        return out

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        """Return ρ_c for each row of counts per distinct pair, shape (B, pairs)."""
        return ccc_of_sums(self.sums(counts))

    def frequencies(self) -> np.ndarray:
        return self.freq
