"""Clustered items: cluster-robust variances and the bootstrap that resamples clusters.

Items that come in clusters (several slides per patient, two eyes per
person) are not independent; the clusters are. Two pieces serve every
coefficient:

* :func:`cluster_variance`: the linearisation (sandwich) variance with the
  items' influence terms summed within clusters. With u_i the per-item terms
  whose squares sum to the coefficient's variance (Σ u_i² = var), centred,
  and S_c = Σ_{i∈c} u_i,

      var_C = g(C) / g(n) · Σ_c S_c²,

  g(x) = x / (x − 1) for a coefficient whose variance carries Gwet's
  n / (n − 1) (his n (n − 1) denominator), g = 1 for one with the delta
  method's n² (Cohen's kappa, Fleiss, Cohen & Everitt 1969). With u_i =
  (κ*_i − κ) / √(n (n − 1)) this is Gwet's (2014, §5.4) clustered form
  C / (C − 1) · Σ_c (Σ_{i∈c} (κ*_i − κ))² / n², the ratio estimator's
  variance over clusters of Obuchowski (1998) and Yang & Zhou (2014, 2015).
  With one item per cluster, C = n and it is the item variance.

* :class:`ClusterSampler`: the bootstrap draws C clusters with replacement;
  a resample's unit counts (table cells or item patterns) are the counts of
  the drawn clusters, ``multiplicities @ members``. Clusters with the same
  units are one row of ``members``, so the draw is one multinomial over the
  distinct clusters, and its jackknife (for BCa) leaves one cluster out.

References: Obuchowski, N. A. (1998). On the comparison of correlated
proportions for clustered data. Statistics in Medicine 17, 1495-1507.
Yang, Z. & Zhou, M. (2014). Kappa statistic for clustered matched-pair data.
Statistics in Medicine 33, 2612-2633; (2015) Weighted kappa statistic for
clustered matched-pair ordinal data. Computational Statistics & Data
Analysis 82, 1-18. Gwet, K. L. (2014). Handbook of Inter-Rater Reliability,
4th ed., §5.4.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._common.errors import param_error
from concord._common.exact import fdot, fmean, fsum
from concord._inference.resampling import Resampled


def _missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        return bool(value != value)  # NaN, NaT
    except (TypeError, ValueError):  # pd.NA refuses bool()
        return True


def cluster_ids(groups: Any, n: int, func: str) -> np.ndarray:
    """Return each item's cluster as a code 0..C−1 (first appearance order), validated.

    ``groups`` holds one label per item (row), aligned with the items; a
    missing label is an error that names its row.
    """
    values = groups.tolist() if hasattr(groups, "tolist") else groups
    if isinstance(values, str | bytes) or not hasattr(values, "__len__"):
        param_error(func, "groups", "a sequence of cluster labels, one per item", groups)
    if len(values) != n:
        param_error(func, "groups", f"one label per item ({n})", f"{len(values)} labels", raw=True)
    codes: dict[Any, int] = {}
    out = np.empty(n, dtype=np.int64)
    for row, value in enumerate(values):
        if _missing(value):
            param_error(
                func,
                "groups",
                "a cluster label for every item",
                f"a missing label in row {row}",
                raw=True,
                fix="Give that item its cluster, or drop it from the ratings and groups.",
            )
        out[row] = codes.setdefault(value, len(codes))
    return out


def singletons(clusters: np.ndarray) -> bool:
    """Return True when every cluster holds one item: the clustered formulas are the item ones."""
    return int(clusters.max(initial=-1)) + 1 == clusters.size


def _correction(x: int, corrected: bool) -> float:
    return x / (x - 1) if corrected else 1.0


def cluster_variance(terms: np.ndarray, clusters: np.ndarray, corrected: bool) -> float:
    """g(C) / g(n) · Σ_c (Σ_{i∈c} (u_i − ū))², the clustered variance of the terms u.

    ``terms`` are the per-item terms whose squares sum to the item variance;
    ``corrected`` says whether that variance carries n / (n − 1).
    """
    n = terms.size
    n_clusters = int(clusters.max(initial=-1)) + 1
    if n_clusters < 2 or not np.all(np.isfinite(terms)):
        return float("nan")
    sums = _cluster_sums(terms - fmean(terms), clusters, n_clusters)
    ratio = _correction(n_clusters, corrected) / _correction(n, corrected)
    return ratio * fdot(sums, sums)


def _cluster_sums(values: np.ndarray, clusters: np.ndarray, n_clusters: int) -> np.ndarray:
    """Σ of the values in each cluster, correctly rounded (math.fsum): whatever the items' order.

    Wide and long input (items in another order) and every CPU give the same sums.
    """
    order = np.argsort(clusters, kind="stable")
    ends = np.searchsorted(clusters[order], np.arange(1, n_clusters))
    parts = np.split(values[order], ends)
    return np.array([fsum(p) for p in parts], dtype=np.float64)


def jackknife_variance(values: np.ndarray, freq: np.ndarray) -> float:
    """(C − 1) / C · Σ_c (θ_(c) − θ̄)²: the jackknife variance over leave-one-cluster-out values."""
    keep = np.isfinite(values)
    if not keep.all():
        return float("nan")
    c = fsum(freq)
    if c < 2:
        return float("nan")
    mean = fdot(freq, values) / c
    return (c - 1) / c * fdot(freq, (values - mean) ** 2)


def match_rows(rows: np.ndarray, units: np.ndarray) -> np.ndarray:
    """Return the index of each row among ``units`` (distinct rows); −1 where absent."""
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    units = np.ascontiguousarray(units, dtype=np.int64)
    at = {units[j].tobytes(): j for j in range(units.shape[0])}
    return np.array([at.get(r.tobytes(), -1) for r in rows], dtype=np.int64)


@dataclass(frozen=True)
class ClusterSampler(Resampled):
    """Resample clusters: ``inner``'s statistic on the unit counts of the drawn clusters.

    ``members`` (distinct clusters × units) holds each distinct cluster's
    count of each unit of ``inner`` (table cell, item pattern); ``freq``
    how many clusters have those counts.
    """

    inner: Resampled
    members: np.ndarray
    freq: np.ndarray

    @classmethod
    def of(cls, inner: Resampled, clusters: np.ndarray, units: np.ndarray) -> ClusterSampler:
        """Return the sampler of items in ``clusters`` whose units of ``inner`` are ``units``."""
        n_units = inner.frequencies().size
        n_clusters = int(clusters.max(initial=-1)) + 1
        keep = units >= 0
        dense = np.zeros((n_clusters, n_units))
        np.add.at(dense, (clusters[keep], units[keep]), 1.0)
        members, freq = np.unique(dense, axis=0, return_counts=True)
        return cls(inner, members, freq.astype(np.int64))

    def statistic(self, counts: np.ndarray) -> np.ndarray:
        return self.inner.statistic(counts @ self.members)

    def frequencies(self) -> np.ndarray:
        return self.freq

    def variance(self) -> float:
        """Return the cluster jackknife variance of the statistic (:func:`jackknife_variance`)."""
        values, freq = self.jackknife()
        return jackknife_variance(values, freq)


def t_df(clusters: np.ndarray) -> int:
    """Degrees of freedom of t with clusters: C − 1 (the clusters are the units)."""
    return max(int(clusters.max(initial=-1)), 0)
