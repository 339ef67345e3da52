"""``groups=``: a coefficient's SE, t test and bootstrap with clusters of items as the units.

Every public coefficient function with an SE takes ``groups=``, one cluster
label per item, and hands its result here. The result keeps its statistic;
its inference (computed when first read) becomes the clustered one
(:mod:`concord._inference.clusters`):

* the standard error sums the coefficient's per-item linearised terms (the
  registry's ``terms``) within clusters; where a coefficient has no such
  terms yet (Light's kappa, Krippendorff's alpha) it is the cluster
  jackknife's, (C − 1)/C Σ_c (θ_(c) − θ̄)²;
* t has C − 1 degrees of freedom; the p-value is Gwet's t test (the null
  SEs of Cohen's and Fleiss' kappa assume independent items and are not used);
* the bootstrap resamples clusters, and BCa's jackknife leaves one out.

With one item per cluster the result is the one without ``groups``, bit for
bit: its item formulas are the clustered ones with C = n.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import numpy as np

from concord._coefficients.kappa.cohen_core import TableSampler
from concord._coefficients.multirater.raters_core import OnDemand
from concord._common.errors import param_error
from concord._data.columns import paired
from concord._data.matrix import CategoryCounts
from concord._inference.clusters import (
    ClusterSampler,
    cluster_ids,
    cluster_variance,
    match_rows,
    singletons,
    t_df,
)
from concord._inference.design import standard_error
from concord._inference.intervals import Deferred, Inference
from concord._inference.resampling import Resampled

Terms = Callable[[], np.ndarray]
R = TypeVar("R")


def n_rows(data: Any) -> int:
    """Return the number of items (rows) of a coefficient's first positional argument."""
    if isinstance(data, CategoryCounts):
        data = data.counts
    shape = getattr(data, "shape", None)
    return int(shape[0]) if shape is not None and len(shape) else len(data)


def clusters_of(groups: Any, first: Any, func: str) -> np.ndarray:
    """Validate ``groups`` against the items of ``first``: a pandas Series pairs by index."""
    if hasattr(first, "index") and hasattr(groups, "index") and not hasattr(first, "columns"):
        groups = paired(first, groups, func, ("rater1", "groups"))[1]
    elif (
        hasattr(first, "columns")
        and hasattr(groups, "index")
        and not first.index.equals(groups.index)
    ):
        param_error(
            func,
            "groups",
            "the ratings' index (clusters pair with items by index label)",
            "a different index",
            raw=True,
            fix="Pass groups.loc[ratings.index], or a list in row order.",
        )
    return cluster_ids(groups, n_rows(first), func)


def with_groups(
    result: R,
    groups: Any,
    first: Any,
    func: str,
    rows: Terms,
    terms: Terms | None = None,
    *,
    corrected: bool = True,
) -> R:
    """Return ``result`` whose inference treats the clusters of ``groups`` as the units.

    ``rows()`` gives each item's row in its sampler's units (item pattern,
    rater pattern, or table cell as a 1-column row); ``terms()`` its
    per-item terms (None: the cluster jackknife variance); ``corrected``
    whether the item variance carries n / (n − 1) (Gwet) or not (Cohen's n²).
    """
    if groups is None:
        return result
    clusters = clusters_of(groups, first, func)
    base = getattr(result, "_inference", None)
    if singletons(clusters) or base is None:
        return result  # one item per cluster: today's formulas are the clustered ones
    deferred = partial(_clustered, base, clusters, rows, terms, corrected, func)
    return dataclasses.replace(result, _inference=deferred)  # type: ignore[type-var]


def _unit_rows(sampler: Any) -> np.ndarray:
    """Return the rows the sampler resamples, in its order."""
    if isinstance(sampler, OnDemand):
        sampler = sampler.sampler
    if isinstance(sampler, TableSampler):
        return np.flatnonzero(sampler.table)[:, None]
    for name in ("patterns", "raters"):
        table = getattr(sampler, name, None)
        if table is not None:
            rows: np.ndarray = table.rows
            return rows
    raise NotImplementedError("groups=: this result's bootstrap cannot resample clusters yet")


def _clustered(
    base: Deferred,
    clusters: np.ndarray,
    rows: Terms,
    terms: Terms | None,
    corrected: bool,
    func: str,
) -> Inference:
    inference = base if isinstance(base, Inference) else base()
    if not isinstance(inference.sampler, Resampled):
        raise NotImplementedError(f"{func}: groups= is not available for this input yet")
    units = match_rows(rows(), _unit_rows(inference.sampler))
    if units.size != clusters.size:
        param_error(
            func, "groups", f"one label per item ({units.size})", f"{clusters.size}", raw=True
        )
    sampler = ClusterSampler.of(inference.sampler, clusters, units)
    if terms is None:
        var = sampler.variance()
    else:
        var = cluster_variance(np.asarray(terms(), dtype=np.float64), clusters, corrected)
    return dataclasses.replace(
        inference,
        standard_error=standard_error(var),
        df=t_df(clusters),
        sampler=sampler,
        null_z=None,
    )


def cell_rows(codes: tuple[np.ndarray, np.ndarray], k: int) -> np.ndarray:
    """Each pair's cell a·k + b of the k×k table, as 1-column rows."""
    a, b = codes
    out: np.ndarray = (a.astype(np.int64) * k + b)[:, None]
    return out
