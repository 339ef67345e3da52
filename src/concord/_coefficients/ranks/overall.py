"""The overall concordance correlation of many raters (Barnhart, Haber & Song 2002), as epiR."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from concord._coefficients.continuous.icc import ratings_matrix
from concord._coefficients.ranks.ranking import undefined
from concord._common.errors import param_error
from concord._common.exact import fdot, fmean, fsum
from concord._inference.intervals import check_level
from concord._results.continuous.reliability import OverallConcordanceResult

_FUNC = "overall_concordance"
_CHUNK = 1 << 22  # cells of the leave-one-out sums computed at a time


def overall_concordance(
    ratings: Any, /, *, confidence_level: float = 0.95
) -> OverallConcordanceResult:
    r"""Return the overall concordance correlation coefficient (OCCC) of many raters' scores.

    .. math::

        \rho_c^o = \frac{\sum_{j<k} \xi_{jk} \rho_{c,jk}}{\sum_{j<k} \xi_{jk}}
                 = \frac{\sum_{j<k} 2 s_{jk}}{\sum_{j<k} \xi_{jk}}, \qquad
        \xi_{jk} = s_j^2 + s_k^2 + (\bar x_j - \bar x_k)^2

    the ξ-weighted mean of the pairwise concordance correlations ρ_c,jk of
    Lin (1989) (Barnhart, Haber & Song 2002). It factors into the overall
    precision Σ s_jk / Σ s_j s_k and the overall accuracy
    Σ 2 s_j s_k / Σ ξ_jk, as R epiR's ``epi.occc``.

    Parameters
    ----------
    ratings : array-like (n_items, n_raters) or DataFrame
        Numeric scores, one row per item, one column per rater; NaN or None
        for a missing score.
    confidence_level : float
        The level of ``interval``, default 0.95.

    Returns
    -------
    OverallConcordanceResult
        ``statistic`` (the OCCC), ``precision``, ``accuracy``, ``interval``,
        ``standard_error``, ``summary()``, ``explain()``, ``to_dict()``.

    Notes
    -----
    The moments are epiR's: means and variances (n − 1 denominators) from
    each rater's scores, covariances from the items both raters scored
    (``epi.occc(na.rm = TRUE)``; on complete data the two agree).

    The interval is not epiR's (it gives none): it is the jackknife over
    items on Fisher's z scale, tanh(z ± z_{1−γ/2} SE_J) with z = artanh ρ_c^o
    and SE_J the jackknife standard error of z (the approach Barnhart, Haber
    & Song recommend for inference on the OCCC; the jackknife SE is a
    numerical delta method). ``standard_error`` is that of ρ_c^o,
    SE_J (1 − ρ²). Undefined (no variation at all): nan with an
    :class:`~concord.UndefinedKappaWarning`.

    References
    ----------
    Barnhart, H. X., Haber, M. & Song, J. (2002). Overall concordance
    correlation coefficient for evaluating agreement among multiple
    observers. Biometrics 58(4), 1020-1027.

    Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate
    reproducibility. Biometrics 45(1), 255-268.

    Examples
    --------
    Three raters' scores of five items; the third scores about one point higher:

    >>> import concord
    >>> r = concord.overall_concordance([[1, 1, 2], [2, 2, 3], [3, 4, 4], [4, 4, 5], [5, 5, 6]])
    >>> round(r.statistic, 4), round(r.precision, 4), round(r.accuracy, 4)
    (0.8782, 0.9745, 0.9012)
    """
    level = check_level(confidence_level, _FUNC)
    x, _, _ = ratings_matrix(ratings, _FUNC)
    x = x.astype(np.float64, copy=False)
    # every sum over the items exact (fsum, fmean, fdot): the same digits on every CPU
    offset = np.array([fmean(c[~np.isnan(c)]) for c in x.T])
    features = _features(x, offset)
    n = x.shape[0]
    if n < 3:
        param_error(_FUNC, "ratings", "at least 3 items with scores", f"{n}", raw=True)
    total = _totals(x, offset)
    occc, precision, accuracy = (float(v[0]) for v in _parts(total[None, :], offset))
    if math.isnan(occc):
        undefined(_FUNC, "no rater's scores vary and all the raters agree on one score")
    se_z = _jackknife_se(features, total, offset, occc)
    return OverallConcordanceResult(
        statistic=occc,
        precision=precision,
        accuracy=accuracy,
        standard_error=se_z * (1 - occc**2),
        z_standard_error=se_z,
        confidence_level=level,
        n_items=n,
        n_raters=x.shape[1],
    )


def _features(x: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """Per item: each rater's (present, x, x²), each pair's (both present, x_j, x_k, x_j x_k).

    The scores are centred on ``offset`` (each rater's mean) first, so the sums do not cancel.
    """
    present = ~np.isnan(x)
    centred = np.where(present, x - offset, 0.0)
    parts = [present.astype(np.float64), centred, centred**2]
    k = x.shape[1]
    for a in range(k):
        for b in range(a + 1, k):
            both = (present[:, a] & present[:, b]).astype(np.float64)
            u, v = centred[:, a] * both, centred[:, b] * both
            parts.append(np.stack([both, u, v, u * v], axis=1))
    return np.concatenate(parts, axis=1)


def _totals(x: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """Return the sums over the items of :func:`_features`' columns, exact: on any CPU alike.

    Each column is formed again as a contiguous row, from the same elementwise
    operations, and summed by :func:`concord._common.exact.fsum` (the counts are
    integers, exact in any order); a pair both of whose raters scored every
    item repeats their centred scores, whose sums are reused.
    """
    present = ~np.isnan(x).T
    centred = np.where(present, x.T - offset[:, None], 0.0)  # (k, n), contiguous rows
    k = x.shape[1]
    out = [float(p.sum()) for p in present]
    sums = [fsum(c) for c in centred]
    out += sums + [fsum(c * c) for c in centred]
    for a in range(k):
        for b in range(a + 1, k):
            both = present[a] & present[b]
            count = int(both.sum())
            if count == x.shape[0]:
                u, v, su, sv = centred[a], centred[b], sums[a], sums[b]
            else:
                weight = both.astype(np.float64)
                u, v = centred[a] * weight, centred[b] * weight
                su, sv = fsum(u), fsum(v)
            out += [float(count), su, sv, fsum(u * v)]
    return np.array(out)


def _parts(sums: np.ndarray, offset: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return the OCCC, overall precision and accuracy of each row of feature sums, shape (B,).

    ``offset``: the centres the scores were shifted by, added back to the means.
    """
    k = offset.size
    c, s1, s2 = sums[:, :k], sums[:, k : 2 * k], sums[:, 2 * k : 3 * k]
    with np.errstate(invalid="ignore", divide="ignore"):
        shifted = s1 / c
        var = (s2 - s1 * shifted) / (c - 1)
        mean = shifted + offset
        sd = np.sqrt(var)
        covs, ksis, scales = [], [], []
        col = 3 * k
        for a in range(k):
            for b in range(a + 1, k):
                nb, u, v, uv = (sums[:, col + i] for i in range(4))
                col += 4
                covs.append((uv - u * v / nb) / (nb - 1))
                ksis.append(var[:, a] + var[:, b] + (mean[:, a] - mean[:, b]) ** 2)
                scales.append(sd[:, a] * sd[:, b])
        cov, ksi, scale = (np.sum(p, axis=0) for p in (covs, ksis, scales))
        occc = np.where(ksi > 0, 2 * cov / ksi, np.nan)
        return occc, cov / scale, 2 * scale / ksi


def _jackknife_se(
    features: np.ndarray, total: np.ndarray, offset: np.ndarray, occc: float
) -> float:
    """Return the jackknife SE of artanh(OCCC), leaving out one item at a time."""
    n = features.shape[0]
    if not (math.isfinite(occc) and abs(occc) < 1):
        return math.nan if not math.isfinite(occc) else 0.0
    per = max(1, _CHUNK // features.shape[1])
    zs = []
    for start in range(0, n, per):
        left = total[None, :] - features[start : start + per]
        with np.errstate(invalid="ignore", divide="ignore"):
            zs.append(np.arctanh(np.clip(_parts(left, offset)[0], -1.0, 1.0)))
    z = np.concatenate(zs)
    z = z[np.isfinite(z)]
    if z.size < 2:
        return math.nan
    centred = z - fmean(z)
    return float(math.sqrt((z.size - 1) / z.size * fdot(centred, centred)))
