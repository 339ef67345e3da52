"""Rater diagnostics: each rater left out, against the panel, against each other rater.

The ratings are read once, into label codes (items × raters) and each item's
counts per category, whose distinct rows are the panel's patterns. Leaving
rater r out subtracts r's rating from an item's counts: the items that share
a panel pattern and r's rating share their row without r, so the
coefficient's core and its per-item linearised terms run on those joint
patterns, and no rater's data are read again (Conger's and Light's kappas,
whose table keeps who rated what, take the general path: the public
function on the other columns).
The change's SE pairs the per-item terms of the panel with those of the
panel without r, as :func:`concord.compare` does (Gwet 2016).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from concord._coefficients.clustered import clusters_of
from concord._coefficients.krippendorff.krippendorff import krippendorff_alpha
from concord._coefficients.krippendorff.krippendorff_core import CoincidenceSampler, alpha_terms
from concord._coefficients.registry import Coefficient
from concord._common.errors import param_error
from concord._data.labels import Labels
from concord._data.long import long_groups
from concord._data.matrix import RatingMatrix, rating_matrix
from concord._inference.clusters import singletons
from concord._inference.intervals import check_level
from concord._results.studies.raters import RaterDiagnostics
from concord._studies.compare.compare import _options, compared, difference_se, finish
from concord._studies.raters.diagnostics_panel import kappa_weights, versus
from concord._studies.raters.joints import Joints, joints
from concord._studies.raters.leave_out import alpha_left_out
from concord._studies.raters.leave_out_terms import change_ses, left_out_terms
from concord._tables.item_table import Items
from concord._tables.patterns import Patterns, counted_patterns, merge

_FUNC = "rater_diagnostics"
_DENSE = 256  # beyond it α takes its continuous engine, which keeps no count rows


def _matrix(wide: Any, labels: Any) -> RatingMatrix:
    matrix = rating_matrix(wide, labels, _FUNC)
    assert matrix is not None
    return _checked(matrix)


def _checked(matrix: RatingMatrix) -> RatingMatrix:
    if matrix.n_dropped:
        param_error(
            _FUNC,
            "ratings",
            "every item rated at least once (the changes pair the items)",
            f"{matrix.n_dropped} item(s) with no rating",
            raw=True,
            fix="Drop the items nobody rated first.",
        )
    if matrix.codes.shape[1] < 3:
        param_error(
            _FUNC,
            "ratings",
            "three raters or more (one left out leaves a panel)",
            f"{matrix.codes.shape[1]} rater(s)",
            raw=True,
        )
    rated = np.flatnonzero((matrix.codes >= 0).any(axis=0))
    if rated.size < 2:  # leaving that rater out leaves no rating: nothing to compare
        param_error(
            _FUNC,
            "ratings",
            "ratings by two raters or more (one left out leaves a panel)",
            f"ratings by {matrix.raters[rated[0]]!r} only",
            raw=True,
            fix="Rater diagnostics need a panel whose raters rated common items.",
        )
    return matrix


def _values(codes: np.ndarray, labels: Labels) -> np.ndarray:
    """Return the ratings of ``codes`` as values; missing: nan (numbers) or None."""
    if labels.numeric:
        table = np.array([float(v) for v in labels.values] + [np.nan])
    else:
        table = np.array([*labels.values, None], dtype=object)
    out: np.ndarray = table[codes]  # code -1 picks the last entry: missing
    return out


def _core_side(
    c: Coefficient,
    rows: np.ndarray,
    freq: np.ndarray,
    labels: Labels,
    opts: dict[str, Any],
    names: tuple[Any, ...],
) -> tuple[Any, np.ndarray]:
    """Return the coefficient and the term of each row from count rows that ``freq`` items share.

    Rows left empty (items only the left-out rater rated) are not in the
    coefficient: their term is 0. ``names``: the raters of this panel, so the
    result is the one-shot function's on their ratings (α's SE takes the raw
    ratings' form, not the count form's).
    """
    rated = rows.sum(axis=1) > 0
    rows, freq = rows[rated], freq[rated]
    items = Items(labels, merge(rows, freq)[0], names=names, declared=True)
    result = c.core(items, opts)
    out = np.zeros(rated.shape[0])
    if c.pattern_terms is not None:  # the percent-agreement family
        if np.isfinite(result.statistic):  # nan (undefined, warned): so is the change
            out[rated] = c.pattern_terms.terms(items, opts, rows, freq)
        return result, out
    sampler = result._inferred().sampler
    assert isinstance(sampler, CoincidenceSampler)
    top = float(sampler.delta.max()) if sampler.delta.size else 0.0
    agreement = 1 - sampler.delta / top if top > 0 else np.ones_like(sampler.delta)
    population = opts["population_size"]
    out[rated] = alpha_terms(rows, agreement, population, counts=False, freq=freq)
    return result, out


def _raw_side(
    c: Coefficient, codes: np.ndarray, labels: Labels, opts: dict[str, Any]
) -> tuple[Any, np.ndarray]:
    """Return the result and terms by the general path: the function and its terms hook.

    Items that only the left-out rater rated are not in the coefficient: their term is 0.
    """
    rated = (codes >= 0).any(axis=1)
    data = (_values(codes[rated], labels),)
    assert c.terms is not None
    out = np.zeros(codes.shape[0])
    out[rated] = c.terms(data, opts)
    return c.function(*data, **opts), out


def _by_counts(
    c: Coefficient,
    counted: tuple[RatingMatrix, Patterns, Joints],
    opts: dict[str, Any],
    clusters: Any,
    level: float,
) -> tuple[Any, tuple[Any, ...], tuple[Any, ...]]:
    """Leave each rater out of the panel's count patterns, which are counted once.

    The items that share a panel pattern and the left-out rater's code share
    their row without the rater, hence their terms: each side runs on those
    joint patterns (:func:`~concord._studies.raters.leave_out.joints`), not
    on the items; α's sides are formed for every rater at once.
    """
    matrix, panel, j = counted
    labels = matrix.labels
    names = tuple(matrix.raters)
    full, u_full = _core_side(c, panel.rows, panel.freq, labels, opts, names)
    alphas = alpha_left_out(j, matrix, opts) if c.table == "coincidences" else None
    n_raters = j.starts.shape[0] - 1
    sides, terms = [], []
    grids: dict[bytes, Any] = {}
    for r in range(n_raters):
        rows, freq, pattern = j.of(r)
        if alphas is None:
            result, u = _core_side(c, rows, freq, labels, opts, names[:r] + names[r + 1 :])
        else:
            result, delta = alphas[r]
            u = left_out_terms(rows, freq, delta, opts, (j, r, grids))
        sides.append(result)
        terms.append((u - u_full[pattern], freq))  # each joint pattern's change of terms
    without = tuple(sides)
    if clusters is not None and not singletons(clusters):
        ses = [difference_se(c, t[j.item(r)], clusters) for r, (t, _) in enumerate(terms)]
    else:
        se, df = change_ses(terms, matrix.codes.shape[0])
        ses = [(v, df) for v in se]
    changes = tuple(
        finish(full, result, se, df, True, level, "t")
        for result, (se, df) in zip(without, ses, strict=True)
    )
    return full, without, changes


def _left_out(
    c: Coefficient,
    counted: tuple[RatingMatrix, Patterns, Joints],
    opts: dict[str, Any],
    clusters: Any,
    level: float,
) -> tuple[Any, tuple[Any, ...], tuple[Any, ...]]:
    """Return the panel's result, and for each rater the result without them and the change."""
    matrix = counted[0]
    if c.table in ("items", "coincidences") and matrix.labels.k <= _DENSE:
        return _by_counts(c, counted, opts, clusters, level)
    labels, codes = matrix.labels, matrix.codes
    full, u_full = _raw_side(c, codes, labels, opts)
    without, changes = [], []
    for r in range(codes.shape[1]):
        result, u = _raw_side(c, np.delete(codes, r, axis=1), labels, opts)
        se, df = difference_se(c, u - u_full, clusters)
        without.append(result)
        changes.append(finish(full, result, se, df, True, level, "t"))
    return full, tuple(without), tuple(changes)


def rater_diagnostics(
    ratings: Any,
    /,
    *,
    function: Any = krippendorff_alpha,
    groups: Any = None,
    confidence_level: float = 0.95,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    form: str = "auto",
    **options: Any,
) -> RaterDiagnostics:
    """Which rater drifts: each rater left out, against the panel and against each other rater.

    Parameters
    ----------
    ratings : array-like or DataFrame
        Items × raters (missing ratings as NaN or None), or the long form
        with ``item=``, ``rater=`` and ``rating=``; three raters or more.
    function : callable, default concord.krippendorff_alpha
        A many-rater coefficient (Fleiss, Gwet, Brennan–Prediger, percent
        agreement, Conger, Light, Krippendorff).
    groups : array-like or str, optional
        Cluster labels, one per item (a column name in the long form): the
        changes' SEs sum the item terms within clusters, as in
        :func:`concord.compare`.
    confidence_level : float, default 0.95
        The level of the changes' intervals; a change is flagged when its
        p-value is below 1 − ``confidence_level``.
    item, rater, rating : str, optional
        The long form's columns.
    form : {"auto", "wide"}
        Without the long form, "auto" refuses a table that looks long (an
        item column whose values repeat, a column of rater names, a column
        of ratings), naming its columns and the long-form call; "wide" says
        the columns are raters.
    **options
        The function's own options (``weights``, ``level``, ``labels``, ...).
        Every coefficient uses the whole panel's labels.

    Returns
    -------
    RaterDiagnostics

    Notes
    -----
    The change is the coefficient without the rater minus the panel's; its
    SE pairs the per-item linearised terms of both (Gwet 2016), so it
    accounts for the items they share, and t has n − 1 df (C − 1 with
    clusters). Each rater's Cohen's kappa is taken against the other
    raters' majority label (an item whose majority ties is left out); with
    ``weights`` (or α's ordinal, interval or ratio level: linear, quadratic
    and quadratic weights) against the others' lower median.

    Each rater's category distribution is tested against the panel's with
    the Stuart–Maxwell test of marginal homogeneity (:func:`concord.marginal_homogeneity`)
    of the rater's labels against the others' majority label, item by item
    (with weights too: the lower median of raters who disagree leans low,
    which would shift the reference's marginals). It is a paired test, as the items
    are shared; comparing the rater's totals with the panel's in an unpaired
    χ² would count the rater on both sides. A rater is flagged for its
    marginals (``marginals_flagged``) when that p-value is below
    1 − ``confidence_level``.

    References
    ----------
    Gwet, K. L. (2016). Testing the difference of correlated agreement
    coefficients for statistical significance. Educational and Psychological
    Measurement 76(4), 609-637.

    Examples
    --------
    Krippendorff's (2011) reliability data, four observers and twelve units:
    α is 0.743, and without observer C (column 2) it would be 0.868.

    >>> import concord
    >>> nan = float("nan")
    >>> data = [[1, 1, nan, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3],
    ...         [2, 2, 2, 2], [1, 2, 3, 4], [4, 4, 4, 4], [1, 1, 2, 1],
    ...         [2, 2, 2, 2], [nan, 5, 5, 5], [nan, nan, 1, 1], [nan, nan, 3, nan]]
    >>> d = concord.rater_diagnostics(data)
    >>> round(d.full.statistic, 3), [round(r.statistic, 3) for r in d.without]
    (0.743, [0.715, 0.704, 0.868, 0.675])
    """
    confidence_level = check_level(confidence_level, _FUNC)
    c = _panel_function(function)
    wide, groups = long_groups(ratings, (item, rater, rating), groups, _FUNC, form)
    matrix = _matrix(wide, options.get("labels"))
    return _diagnose(c, wide, matrix, groups, confidence_level, options)


def of_matrix(
    matrix: RatingMatrix,
    wide: Any,
    /,
    *,
    function: Any,
    confidence_level: float,
    counted: tuple[Patterns, np.ndarray] | None = None,
    **options: Any,
) -> RaterDiagnostics:
    """:func:`rater_diagnostics` of wide ratings already encoded, for a caller that shares them.

    ``matrix`` is ``rating_matrix(wide, options["labels"], ...)``: the report
    encodes its frame once for every section. ``counted``: its count
    patterns and each item's, ``counted_patterns(matrix.codes, k)``, where
    the caller has them. No clusters; the same checks.
    """
    confidence_level = check_level(confidence_level, _FUNC)
    c = _panel_function(function)
    matrix = _checked(matrix)
    return _diagnose(c, wide, matrix, None, confidence_level, options, counted)


def _panel_function(function: Any) -> Coefficient:
    c = compared(function, True, _FUNC, "terms")
    if c.arity != 1:
        param_error(
            _FUNC,
            "function",
            "a coefficient of many raters (concord.fleiss_kappa, concord.krippendorff_alpha, ...)",
            function,
            exc=TypeError,
            fix="Two-rater coefficients have no panel to leave a rater out of.",
        )
    return c


def _diagnose(
    c: Coefficient,
    wide: Any,
    matrix: RatingMatrix,
    groups: Any,
    confidence_level: float,
    options: dict[str, Any],
    counted: tuple[Patterns, np.ndarray] | None = None,
) -> RaterDiagnostics:
    opts = _options(
        c, (wide,), {**options, "labels": list(matrix.labels.values)}, "rater_diagnostics"
    )
    clusters = None if groups is None else clusters_of(groups, wide, _FUNC)
    k = matrix.labels.k
    panel, inverse = counted_patterns(matrix.codes, k) if counted is None else counted
    j = joints(panel.rows, inverse, matrix.codes, k)
    full, without, changes = _left_out(c, (matrix, panel, j), opts, clusters, confidence_level)
    versus_panel, pairwise, homogeneity = versus(matrix, j, inverse, kappa_weights(opts))
    by_rater = j.by_rater(k)
    totals = by_rater.sum(axis=0)  # each rating once: the items × categories counts' column sums
    return RaterDiagnostics(
        c.name,
        tuple(matrix.raters),
        matrix.labels.values,
        full,
        without,
        changes,
        versus_panel,
        pairwise,
        by_rater,
        totals.astype(np.int64),
        float(confidence_level),
        homogeneity,
    )
