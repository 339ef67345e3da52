"""Inter- and intra-rater reliability from repeated measurements (Eliasziw et al. 1994).

The design is balanced: n subjects, each measured m times by each of t
raters. The two-way ANOVA with replication (subjects × raters) gives the
mean squares MSS, MSR, MSSR and MSE, and each rater's own one-way ANOVA its
MSE_j; the reliability coefficients, the F tests of H0: ρ = ρ0, the
one-sided lower confidence bounds and the standard errors of measurement
are those of Eliasziw et al.'s tables 2 and 3 (raters random or fixed), as
R irr's ``relInterIntra`` computes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from concord._common.exact import to_float
from concord._common.extras import require
from concord._results.studies.intra_rater import Reliability
from concord._tables.dyadic_rows import digits, product_total


@dataclass(frozen=True)
class MeanSquares:
    """The ANOVA of an (n, t, m) array: subjects × raters × measurements."""

    n: int
    t: int
    m: int
    mss: float
    msr: float
    mssr: float
    mse: float
    mse_rater: np.ndarray


def mean_squares(y: np.ndarray) -> MeanSquares:
    """Return the mean squares of a complete (subjects, raters, measurements) array.

    Each sum of squares is a combination of exact integer sums of the scores'
    dyadic digits (:mod:`concord._tables.dyadic_rows`): with cell totals S_ij,
    subject totals A_i, rater totals B_j, grand total T and Σy² = Q over
    N = ntm scores, SS_S = ΣA²/(tm) − T²/N, SS_R = ΣB²/(nm) − T²/N,
    SS_SR = ΣS²/m − ΣA²/(tm) − ΣB²/(nm) + T²/N and each rater's
    SS_e,j = Q_j − Σ_i S_ij²/m; each mean square is rounded once.
    """
    n, t, m = y.shape
    y = np.ascontiguousarray(y, dtype=np.float64)
    cells = digits(y.reshape(n * t, m))
    totals = cells.row_totals()
    subjects = digits(y.reshape(n, t * m)).row_totals()
    raters = digits(np.ascontiguousarray(y.transpose(1, 0, 2)).reshape(t, n * m)).row_totals()
    grand = Fraction(cells.total() ** 2, n * t * m)
    a = Fraction(product_total(subjects, subjects), t * m)
    b = Fraction(product_total(raters, raters), n * m)
    s = Fraction(product_total(totals, totals), m)
    scale = Fraction(2) ** (2 * cells.low)  # every sum is on 2**low, every square on 4**low
    within = []
    for j in range(t):
        one = digits(np.ascontiguousarray(y[:, j, :]))
        rows = one.row_totals()
        within.append(
            (one.square_total() - Fraction(product_total(rows, rows), m)) * one_scale(one.low)
        )
    mss = to_float((a - grand) * scale / (n - 1))
    msr = to_float((b - grand) * scale / (t - 1))
    mssr = to_float((s - a - b + grand) * scale / ((n - 1) * (t - 1)))
    mse = to_float(sum(within, Fraction(0)) / (n * t * (m - 1)))
    per_rater = np.array([to_float(w / (n * (m - 1))) for w in within])
    return MeanSquares(n, t, m, mss, msr, mssr, mse, per_rater)


def one_scale(low: int) -> Fraction:
    """Return 4**low, the scale of a sum of squares of digits on 2**low."""
    return Fraction(2) ** (2 * low)


def _variances(ms: MeanSquares) -> tuple[float, float, float, float, float]:
    """σ²_S (random), σ²_R, σ²_SR, and σ²_S (fixed), σ²_e: tables 2 and 3."""
    n, t, m = ms.n, ms.t, ms.m
    s_random = (ms.mss - ms.mssr) / (m * t)
    r = (ms.msr - ms.mssr) / (m * n)
    sr = (ms.mssr - ms.mse) / m
    s_fixed = (ms.mss - ms.mse) / (m * t)
    return s_random, r, sr, s_fixed, ms.mse


def _degrees(ms: MeanSquares, rho_r: float, rho_f: float) -> tuple[float, float]:
    """Return the approximate denominator df of the inter-rater bounds: random, fixed raters."""
    n, t, m, msr, mssr, mse = ms.n, ms.t, ms.m, ms.msr, ms.mssr, ms.mse
    e = n * t * (m - 1)
    big = n * (1 + (t - 1) * rho_r)
    nu1 = (n - 1) * (t - 1) * (t * rho_r * (msr - mssr) + big * mssr + e * rho_r * mse) ** 2
    nu1 /= (
        (n - 1) * (t * rho_r) ** 2 * msr**2
        + (big - t * rho_r) ** 2 * mssr**2
        + (n - 1) * (t - 1) * e * rho_r**2 * mse**2
    )
    big = n * (1 + (t - 1) * rho_f)
    nu2 = (n - 1) * (t - 1) * (big * mssr + e * rho_f * mse) ** 2
    nu2 /= big**2 * mssr**2 + (n - 1) * (t - 1) * e * rho_f**2 * mse**2
    return nu1, nu2


def reliability(
    y: np.ndarray,
    raters: tuple[Any, ...],
    *,
    rho0_inter: float = 0.6,
    rho0_intra: float = 0.8,
    confidence_level: float = 0.95,
) -> Reliability:
    """Return the Eliasziw et al. (1994) reliabilities of a complete (n, t, m) array."""
    special = require("scipy.special", "stats", "intra_rater's reliabilities")

    ms = mean_squares(np.asarray(y, dtype=float))
    n, t, m = ms.n, ms.t, ms.m
    s_r, r, sr, s_f, e = _variances(ms)
    e_j = ms.mse_rater
    inter_random = s_r / (s_r + r + sr + e)
    fixed_between = s_f + (t - 1) * sr / t
    inter_fixed = (s_f - sr / t) / (fixed_between + e)
    alpha = 1 - confidence_level
    nu1, nu2 = _degrees(ms, inter_random, inter_fixed)
    f1 = special.fdtri(n - 1, nu1, 1 - alpha)
    f2 = special.fdtri(n - 1, nu2, 1 - alpha)
    low_r = n * (ms.mss - f1 * ms.mssr)
    low_r /= n * ms.mss + f1 * (
        t * (ms.msr - ms.mssr) + n * (t - 1) * ms.mssr + n * t * (m - 1) * ms.mse
    )
    low_f = n * (ms.mss - f2 * ms.mssr)
    low_f /= n * ms.mss + f2 * (n * (t - 1) * ms.mssr + n * t * (m - 1) * ms.mse)
    f_inter = (1 - rho0_inter) * ms.mss / ((1 + (t - 1) * rho0_inter) * ms.mssr)
    intra_f = (1 - rho0_intra) * ms.mss / ((1 + (m - 1) * rho0_intra) * t)
    f3 = special.fdtri(n - 1, n * (m - 1), 1 - alpha)

    def low_intra(mse: Any) -> Any:
        return np.minimum((ms.mss / t - f3 * mse) / (ms.mss / t + f3 * (m - 1) * mse), 1.0)

    def p_intra(f: Any) -> Any:
        return special.fdtrc(n - 1, n * (m - 1), f)

    return Reliability(
        raters=raters,
        inter_random=inter_random,
        inter_fixed=inter_fixed,
        intra_random=(s_r + r + sr) / (s_r + r + sr + e),
        intra_fixed=fixed_between / (fixed_between + e),
        intra_random_rater=(s_r + r + sr) / (s_r + r + sr + e_j),
        intra_fixed_rater=fixed_between / (fixed_between + e_j),
        f_inter=f_inter,
        f_intra=intra_f / e,
        f_intra_rater=intra_f / e_j,
        p_inter=float(special.fdtrc(n - 1, (n - 1) * (t - 1), f_inter)),
        p_intra=float(p_intra(intra_f / e)),
        p_intra_rater=p_intra(intra_f / e_j),
        low_inter_random=min(float(low_r), 1.0),
        low_inter_fixed=min(float(low_f), 1.0),
        low_intra=float(low_intra(e)),
        low_intra_rater=low_intra(e_j),
        sem_intra=float(np.sqrt(e)),
        sem_intra_rater=np.sqrt(e_j),
        sem_inter_random=float(np.sqrt(r + sr + e)),
        sem_inter_fixed=float(np.sqrt(sr + e)),
        rho0_inter=rho0_inter,
        rho0_intra=rho0_intra,
        confidence_level=confidence_level,
        n_subjects=n,
        n_measurements=m,
    )
