"""Krippendorff's alpha: α = 1 − D_o / D_e, from the coincidence matrix.

Notation of Krippendorff (2011): only units with m_u ≥ 2 values are
pairable; n_uc counts the values c in unit u; the coincidences are
o_ck = Σ_u (n_uc n_uk − [c = k] n_uc) / (m_u − 1), with totals n_c and n..;
D_o = Σ o_ck δ²_ck / n.. and D_e = Σ n_c n_k δ²_ck / (n.. (n.. − 1)).

Two engines compute the same value:

* the coincidence engine, for up to ``_DENSE_MAX`` categories or a custom δ²
  matrix: exact rational arithmetic on integer-scaled coincidences;
* the decomposition engine, for continuous data with many distinct values:
  every standard metric reduces to per-unit sums over the raters (interval
  and ordinal: Σ(x − y)² = 2mΣx² − 2(Σx)²; nominal and ratio: pairs of
  rater columns), so it never forms anything of size V × V or units × V.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from concord._coefficients.clustered import with_groups
from concord._coefficients.krippendorff import krippendorff_continuous as continuous
from concord._coefficients.krippendorff import krippendorff_sets as sets
from concord._coefficients.krippendorff.krippendorff_core import (
    CoincidenceSampler,
    alpha_terms,
    alpha_variance,
    coincidences,
    distances,
    ordinal_scores,
)
from concord._coefficients.multirater.gwet import undefined
from concord._common import exact as _exact
from concord._common.docs import fill
from concord._common.errors import ForCli, check_population, param_error
from concord._common.options import check_level
from concord._data.labels import Labels, spelled
from concord._data.long import long_groups
from concord._data.matrix import RatingMatrix
from concord._data.sets import empty_sets
from concord._inference.design import standard_error
from concord._inference.intervals import Deferred, Inference, deferred
from concord._results.multirater.agreement import KrippendorffResult
from concord._results.spec import Spec
from concord._tables.item_rows import item_counts
from concord._tables.item_table import Items, ItemStats
from concord._tables.items import batch_items, item_data
from concord._tables.patterns import distinct, merge
from concord._tables.weights import rational_steps

_DENSE_MAX = 256

ALPHA = Spec(
    "krippendorff_alpha",
    "Krippendorff's alpha",
    scale="krippendorff",
    chance="p_e = 1 − (1 − 1/n..) D_e / max δ², from the coincidence totals",
)


def resolve_level(level: Any, labels: Labels, func: str) -> tuple[str, np.ndarray | None]:
    """Validate ``level``: return its name and, for a custom metric, its q×q matrix of δ²."""
    if isinstance(level, str):
        name = check_level(level, func)
        if name == "ordinal" and not labels.numeric:
            labels.scores(func, name)  # text needs its order declared: never alphabetical
        if name == "ratio" and (labels.scores(func, "ratio") < 0).any():
            param_error(
                func,
                "level",
                "'ratio' only for non-negative values",
                "'ratio'",
                fix=f"The labels {labels.values!r} include negative values.",
                raw=True,
                cli=ForCli(
                    fix=f"The categories {spelled(labels.values)} include negative values."
                ),
            )
        return name, None
    try:
        delta = np.array(level, dtype=np.float64)
    except (TypeError, ValueError):
        param_error(
            func,
            "level",
            "a level name or a q×q matrix of squared distances",
            level,
            exc=TypeError,
        )
    q = labels.k
    ok = delta.shape == (q, q) and np.isfinite(delta).all() and (delta >= 0).all()
    if not ok or (np.diag(delta) != 0).any():
        param_error(
            func,
            "level",
            f"a {q}×{q} matrix of finite, non-negative squared distances with zero diagonal",
            level,
            fix=f"The labels are {labels.values!r}.",
        )
    delta.setflags(write=False)
    return "custom", delta


@fill
def krippendorff_alpha(
    ratings: Any,
    /,
    *,
    level: Any = "nominal",
    labels: Any = None,
    population_size: float | None = None,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    form: str = "auto",
    groups: Any = None,
    empty: str = "missing",
) -> KrippendorffResult:
    r"""Krippendorff's alpha for any number of raters, missing ratings and any metric.

    .. math::

        \alpha = 1 - \frac{D_o}{D_e}
               = 1 - (n_{..} - 1) \frac{\sum_{ck} o_{ck} \delta^2_{ck}}
                                       {\sum_{ck} n_c n_k \delta^2_{ck}}

    where o is the coincidence matrix of the pairable values (those of items
    with at least two ratings; an item rated once is not pairable and is
    left out, as Krippendorff prescribes) and δ² the metric:

    * ``"nominal"``: [c ≠ k];
    * ``"ordinal"``: (Σ_{g=c..k} n_g − (n_c + n_k)/2)², from the coincidence totals;
    * ``"interval"``: (c − k)², on the numeric values (positions for ordered non-numeric labels);
    * ``"ratio"``: ((c − k)/(c + k))², for non-negative values;
    * ``"masi"``, ``"jaccard"``: for label sets, δ² is the MASI distance
      (Passonneau 2006) or the Jaccard distance 1 − |A ∩ B|/|A ∪ B| (see Notes);
    * a q×q matrix of squared distances for any other metric.

    Parameters
    ----------
    ratings : array-like (n_items, n_raters), DataFrame or CategoryCounts
        One row per item (unit), one column per rater (observer); NaN, None
        or pd.NA for a missing rating. At the ordinal, interval and ratio
        levels the values may be continuous; nominal floats must be whole
        numbers unless ``labels`` are declared.
        ${device_ratings}
    level : str or array-like (q, q)
        The metric, as above.
    labels : sequence, optional
        The ordered categories (values).
    ${population_size}
    ${long_form}
    ${groups}
    ${empty}
        With ``"category"``, the set distances have d(∅, ∅) = 0 and d(∅, A) = 1.

    Returns
    -------
    KrippendorffResult
        With ``observed_disagreement`` (D_o), ``expected_disagreement``
        (D_e), the ``coincidences`` o and ``weights`` δ² (scaled to a
        maximum of 1). ``observed_agreement`` and ``chance_agreement`` are
        Gwet's (2014) p_a = 1 − (1 − 1/n..) D_o / max δ² and p_e = 1 −
        (1 − 1/n..) D_e / max δ², so that α = (p_a − p_e)/(1 − p_e), as in
        R irrCAC's ``krippen.alpha.raw``.

    Notes
    -----
    Inference: ``standard_error`` is Gwet's (2014) variance of alpha as
    R irrCAC 1.4 computes it: ``krippen.alpha.raw`` for a ratings matrix,
    ``krippen.alpha.dist`` for :class:`CategoryCounts` (the two formulas
    differ; see
    ``concord._coefficients.krippendorff.krippendorff_core.krippendorff_items``), summed over the
    n'' pairable items. irrCAC 1.0, which concord followed before, used p_a
    where 1.4 uses p'_a (the percent agreement without Krippendorff's
    1/n.. correction) in each item's agreement term; the difference is
    small (0.14557 against 1.4's 0.14548 on Krippendorff's data). t
    intervals and the p-value use irrCAC's degrees of freedom: n − 1 over
    the n items with at least one rating for a ratings matrix, n'' − 1 for
    the count form; the finite-population fraction is n / N. ``pvalue`` is
    two-sided, where irrCAC 1.4 prints the one-sided P(T > t). The
    bootstrap resamples items (grouped by item pattern).
    ${fisher_z_default}

    Label sets: a rating that is a set (set, frozenset, list or tuple) is
    one category whatever its order; ``level="masi"`` and ``"jaccard"``
    compare sets by the labels they share. MASI is 1 − J·M, J the Jaccard
    similarity and M = 1 for equal sets, 2/3 when one holds the other, 1/3
    when they overlap, 0 when disjoint, as NLTK 3.10's ``masi_distance``
    (earlier NLTK rounded them to 0.67 and 0.33, nltk#3361). As NLTK's
    ``AnnotationTask(distance=masi_distance).alpha()`` and Passonneau (2006),
    α takes the distance itself as δ² (Krippendorff (2011) writes his metrics
    as squared differences; the set distances are not differences of scores,
    and he leaves the metric to the data). α is exact: each distance is a
    rational of the set sizes, computed over the distinct sets that occur,
    never from a table of all possible sets. Where every value is the same,
    NLTK returns 1 and concord nan (α is 0/0).

    R irr's ``kripp.alpha`` is wrong for complete data with three or more
    raters; this implementation follows Krippendorff (2011) and agrees with
    his published examples and with the ``krippendorff`` package. Memory
    stays O(n_items · n_raters + V) for the standard metrics, even on
    continuous data with many distinct values V.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability.
    Annenberg School for Communication, University of Pennsylvania.
    https://repository.upenn.edu/asc_papers/43

    Hayes, A. F. & Krippendorff, K. (2007). Answering the call for a
    standard reliability measure for coding data. Communication Methods and
    Measures 1(1), 77-89. doi:10.1080/19312450709336664

    Examples
    --------
    Krippendorff's (2011) reliability data: 4 observers, 12 units, missing
    values; he reports α = 0.743 (nominal) and 0.849 (interval):

    >>> import numpy as np, concord
    >>> nan = np.nan
    >>> data = np.array([
    ...     [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...     [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...     [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...     [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]).T
    >>> round(concord.krippendorff_alpha(data).statistic, 3)
    0.743
    >>> round(concord.krippendorff_alpha(data, level="interval").statistic, 3)
    0.849

    Label sets, three coders on six items; NLTK's
    ``AnnotationTask(distance=masi_distance).alpha()`` gives 0.467785843920145
    (1031/2204):

    >>> sets = [[{"pol"}, {"pol"}, {"pol", "econ"}],
    ...         [{"pol", "econ"}, {"econ"}, {"pol", "econ"}],
    ...         [{"sport"}, {"sport"}, {"sport"}],
    ...         [{"econ"}, {"econ", "pol"}, {"econ"}],
    ...         [{"sport", "health"}, {"sport"}, {"health"}],
    ...         [{"health"}, {"health"}, {"health", "econ"}]]
    >>> cells = np.empty((6, 3), dtype=object)
    >>> cells[:] = [[frozenset(s) for s in row] for row in sets]
    >>> concord.krippendorff_alpha(cells, level="masi").statistic
    0.4677858439201452
    """
    with empty_sets(empty, ALPHA.name):
        return _alpha(ratings, level, labels, population_size, (item, rater, rating), form, groups)


def _alpha(
    ratings: Any,
    level: Any,
    labels: Any,
    population_size: float | None,
    long: tuple[Any, Any, Any],
    form: str,
    groups: Any,
) -> KrippendorffResult:
    func = ALPHA.name
    population = check_population(population_size, func)
    ratings, groups = long_groups(ratings, long, groups, func, form)
    items = item_data(
        ratings,
        labels,
        func,
        dense_limit=0 if sets.is_set_level(level) else _DENSE_MAX,
        continuous=is_continuous(level),
    )
    result = alpha_result(items, level, population)
    rows = partial(item_counts, ratings, items.labels.values, func)
    return with_groups(result, groups, ratings, func, rows)


def count_limit(level: Any) -> int | None:
    """Return the most categories for which α at ``level`` uses item counts (None: no limit)."""
    return _DENSE_MAX if isinstance(level, str) and not sets.is_set_level(level) else None


def coincidence_engine(k: int, level: Any) -> bool:
    """Whether α of k categories at ``level`` comes from the coincidence matrix (see above)."""
    limit = count_limit(level)
    return limit is None or k <= limit or sets.is_set_level(level)


def is_continuous(level: Any) -> bool:
    """Whether the level allows non-integral values without declared labels."""
    return isinstance(level, str) and level in ("ordinal", "interval", "ratio")


def count(data: tuple[Any, ...], options: dict[str, Any], sample_weight: Any) -> Items | None:
    """Validate and count one batch of a stream, as :func:`krippendorff_alpha` does."""
    level = options["level"]
    with empty_sets(options.get("empty", "missing"), ALPHA.name):
        items = batch_items(
            data[0],
            options["labels"],
            ALPHA.name,
            dense_limit=count_limit(level),
            continuous=is_continuous(level),
        )
    if items is not None and items.counts is None:  # many distinct values
        check_counts(options, items.labels.k)
    return items


def check_counts(options: dict[str, Any], k: int) -> None:
    """Refuse what the one-shot path computes without count tables: α of > 256 values."""
    if coincidence_engine(k, options["level"]):
        return
    raise NotImplementedError(
        f"krippendorff_alpha's accumulator keeps the items' category counts, which the "
        f"level {options['level']!r} uses for at most 256 distinct values; these data have "
        f"{k}. Compute krippendorff_alpha on the whole data instead (its engine for "
        "continuous data needs every item at once), or round the ratings to a coarser scale."
    )


def from_counts(items: Items, options: dict[str, Any]) -> KrippendorffResult:
    """α of a stream's merged item patterns."""
    return alpha_result(items, options["level"], options["population_size"])


def alpha_result(items: Items, level: Any, population: float | None) -> KrippendorffResult:
    """Krippendorff's alpha from the item patterns (one-shot and accumulators).

    With more than ``_DENSE_MAX`` categories and a standard level, the
    patterns are not formed (``items.counts`` is None) and the ratings matrix
    goes to the continuous engine instead.
    """
    func = ALPHA.name
    if sets.is_set_level(level):
        return _from_sets(func, level, items, population)
    found, matrix = items.labels, items.matrix
    name, custom = resolve_level(level, found, func)
    if items.counts is None:  # more than _DENSE_MAX categories
        assert matrix is not None
        if custom is None:
            return _decomposed(func, name, found, matrix, population)
        items = Items(found, distinct(matrix.counts()), names=items.names)
    return _from_coincidences(func, name, custom, items, population)


def _from_sets(
    func: str, level: str, items: Items, population: float | None
) -> KrippendorffResult:
    """α at a distance between label sets (:mod:`.krippendorff_sets`): exact, no q × q table."""
    found = sets.set_codes(items.labels.values, func, level)
    if items.matrix is not None:
        codes, freq = items.matrix.codes, np.ones(items.matrix.codes.shape[0])
    else:
        assert items.counts is not None
        codes, freq = sets.codes_of_patterns(items.counts)
    sums = sets.class_sums(found, codes, freq)
    observed, expected = sets.exact_sums(found, sums)
    top = sets.top_delta(found, sums)
    n = int(sums.n)
    values = _values(n, observed, expected, top, Fraction(1))
    inference = deferred(
        population,
        _set_inference,
        found,
        (codes, freq),
        sums,
        (values["alpha"], float(top)),
        population,
    )
    rated = codes >= 0
    totals = np.bincount(
        codes[rated], weights=np.repeat(freq, rated.sum(axis=1)), minlength=items.labels.k
    )
    q = items.labels.k
    if q <= _DENSE_MAX:  # the q × q distances of the result, as the coincidence engine shows
        every = np.arange(q)
        metric = found.delta(found.keys(every[:, None], every[None, :]))
    else:
        metric = np.zeros((0, 0))
    summary = (int(freq.sum()), totals.astype(np.int64))
    return _result(
        func, level, summary, items.labels, items.n_raters, metric, values, n, None, inference
    )


def _set_inference(
    found: sets.SetCodes,
    data: tuple[np.ndarray, np.ndarray],
    sums: sets.SetSums,
    values: tuple[float, float],
    population: float | None,
) -> Inference:
    """Gwet's (2014) variance of α on label sets, and the bootstrap of items."""
    (codes, freq), (alpha, top) = data, values
    var = sets.item_variance(found, codes, freq, sums, top, population)
    rated = (codes >= 0).sum(axis=1) >= 1
    return Inference(
        statistic=alpha,
        standard_error=standard_error(var),
        df=max(int(freq[rated].sum()) - 1, 0),
        bounds=ALPHA.bounds,
        default_method=ALPHA.interval,
        sampler=sets.SetSampler(found, codes, freq),
    )


def _from_coincidences(
    func: str,
    name: str,
    custom: np.ndarray | None,
    items: Items,
    population: float | None,
) -> KrippendorffResult:
    inference = partial(_dense_inference, func, name, items)
    return alpha_of_stats(
        func, name, custom, (items.stats, items.labels, items.n_raters), population, inference
    )[0]


def alpha_of_stats(
    func: str,
    name: str,
    custom: np.ndarray | None,
    counted: tuple[ItemStats, Labels, int | None],
    population: float | None,
    inference: Callable[..., Inference],
    shared: dict[str, Any] | None = None,
) -> tuple[KrippendorffResult, np.ndarray]:
    """Return α of the items' statistics (:class:`ItemStats`, labels, raters), and its δ².

    ``inference(delta, alpha, population)`` is the result's inference, deferred
    (:func:`_dense_inference` on the items, with their patterns bound).
    ``shared``: a cache of the δ² for calls on the same labels and level (all
    but the ordinal level's, which depend on the totals).
    """
    stats, labels, n_raters = counted
    scaled, scale = coincidences(stats)  # scale · o, integers
    totals = scaled.sum(axis=1)  # scale · n_c
    n = int((stats.sizes * stats.items)[stats.pairable()].sum())
    if shared is None or (custom is None and name == "ordinal"):
        d, delta, unit = _squared_distances(func, name, custom, labels, totals, scale)
    else:
        if "distances" not in shared:
            shared["distances"] = _squared_distances(func, name, custom, labels, totals, scale)
        d, delta, unit = shared["distances"]
        delta = delta.copy()  # each result its own array
    top = int(d.max()) if d.size else 0
    observed = Fraction(int((scaled * d).sum()), scale)  # n..·D_o in steps of d
    expected = Fraction(int(totals @ d @ totals), scale * scale)  # n..(n..−1)·D_e in steps of d
    values = _values(n, observed, expected, top, unit)
    shown = scaled / scale if n else np.zeros(scaled.shape)
    summary = (stats.n_items, stats.category_totals)
    deferring = deferred(population, inference, delta, values["alpha"], population)
    # δ² in the metric's own units, the units of D_o and D_e (the ordinal delta is scaled)
    metric = delta * (2.0 * scale) ** -2 if custom is None and name == "ordinal" else delta
    result = _result(func, name, summary, labels, n_raters, metric, values, n, shown, deferring, d)
    return result, delta


def _squared_distances(
    func: str, name: str, custom: np.ndarray | None, labels: Labels, totals: Any, scale: int
) -> tuple[np.ndarray, np.ndarray, Any]:
    """Return δ² as integers d (object), as floats, and the metric's δ² per step of d.

    Interval and ordinal δ² are squared differences of scores that are
    integers times one power of two (:func:`_exact.dyadic`), so d and the
    step (a Fraction) are exact whatever the scores' size: scores near 1e300
    have δ² beyond the float range (their floats are inf) and α needs only d.
    The ordinal floats are those of the scaled totals' mid-ranks, (2·scale)²
    times the metric's own δ².
    """
    if custom is None and name in ("interval", "ordinal"):
        if name == "ordinal":
            ints, power = [int(v) for v in ordinal_scores(totals).tolist()], 0
            unit = Fraction(1, 4 * scale * scale)
        else:
            ints, power = _exact.dyadic(labels.scores(func, name))
            unit = Fraction(2) ** (2 * power)
        column = np.array(ints, dtype=object)
        d = (column[:, None] - column[None, :]) ** 2
        return d, _floats(d, 2 * power), unit
    found = rational_steps(labels.scores(func, name), "ratio") if name == "ratio" else None
    if custom is None and found is not None:  # rational: exact integers over one denominator
        d, common = found
        step = Fraction(1, common)
        floats = np.array([_exact.rounded(int(v), common) for v in d.ravel()])
        return d, floats.reshape(d.shape), step
    if custom is not None:
        delta = custom
    else:
        scores = (
            labels.scores(func, name) if name != "nominal" else np.arange(labels.k, dtype=float)
        )
        delta = distances(name, scores)
    d = _exact.integers(delta).astype(object)
    top = int(d.max()) if d.size else 0
    return d, delta, float(delta.max()) / top if top else 1.0  # δ² per integer step of d


def _floats(d: np.ndarray, power: int) -> np.ndarray:
    """Return d · 2**power as floats, each rounded once (±inf beyond the float range)."""
    top = int(d.max()) if d.size else 0
    if top.bit_length() + power < 1000 and power > -900:
        # float(int) is rounded once, and a power of two in the normal range scales exactly
        out: np.ndarray = d.astype(np.float64) * 2.0**power
        return out
    step = Fraction(2) ** power
    return np.array([_exact.to_float(v * step) for v in d.ravel()]).reshape(d.shape)


def rows_inference(
    func: str,
    name: str,
    counted: tuple[Labels, np.ndarray, np.ndarray],
    delta: np.ndarray,
    alpha: float,
    population: float | None,
    *,
    n_raters: int | None = None,
) -> Inference:
    """:func:`_dense_inference` of count rows that ``freq`` items share (labels, rows, freq).

    The rows' patterns are merged (:func:`~concord._tables.patterns.merge`) on first use.
    ``n_raters``: the rows count the raw ratings of that many raters (α's SE
    then takes the raw form, irrCAC's ``krippen.alpha.raw``); None: the count form.
    """
    labels, rows, freq = counted
    names = None if n_raters is None else tuple(range(n_raters))
    items = Items(labels, merge(rows, freq)[0], names=names, declared=True)
    return _dense_inference(func, name, items, delta, alpha, population)


def _dense_inference(
    func: str, name: str, items: Items, delta: np.ndarray, alpha: float, population: float | None
) -> Inference:
    """Gwet's (2014) variance with agreement weights 1 − δ²/max δ², and the pattern bootstrap."""
    assert items.counts is not None
    top = float(delta.max()) if delta.size else 0.0
    agreement = 1 - delta / top if top > 0 else np.ones_like(delta)
    # the count form follows irrCAC's krippen.alpha.dist, raw ratings its krippen.alpha.raw
    counts = items.names is None
    var, n2, n_rated = alpha_variance(items.counts, agreement, population, counts=counts)
    return Inference(
        statistic=alpha,
        standard_error=standard_error(var),
        df=max((n2 if counts else n_rated) - 1, 0),
        bounds=ALPHA.bounds,
        default_method=ALPHA.interval,
        sampler=CoincidenceSampler(items.counts, delta, name),
    )


def _values(n: float, observed: Any, expected: Any, top: Any, unit: Any) -> dict[str, float]:
    """α, D_o, D_e (in the metric's units) and Gwet's p_a, p_e.

    ``observed`` = n.. D_o and ``expected`` = n..(n.. − 1) D_e are measured in
    steps of the δ² used, whose maximum is ``top``; one step is ``unit`` in
    the metric's own units. Exact when given Fractions, else floats.
    """
    if n < 2 or expected == 0 or top == 0:
        nan = float("nan")
        return {"alpha": nan, "d_o": nan, "d_e": nan, "p_a": nan, "p_e": nan}
    d_o = observed / n
    d_e = expected / (n * (n - 1))
    shrink = (n - 1) / Fraction(n) if isinstance(observed, Fraction) else (n - 1) / n
    if isinstance(unit, Fraction):  # exact steps: the metric's values rounded once
        scaled = {"d_o": _exact.to_float(d_o * unit), "d_e": _exact.to_float(d_e * unit)}
    else:
        scaled = {"d_o": float(d_o) * unit, "d_e": float(d_e) * unit}
    return {
        "alpha": float(1 - d_o / d_e),
        **scaled,
        "p_a": float(1 - shrink * d_o / top),
        "p_e": float(1 - shrink * d_e / top),
    }


def _result(
    func: str,
    name: str,
    summary: tuple[int, np.ndarray],
    labels: Labels,
    n_raters: int | None,
    delta: np.ndarray,
    values: dict[str, float],
    n_pairable: int,
    coincidence: np.ndarray | None,
    inference: Deferred,
    steps: np.ndarray | None = None,
) -> KrippendorffResult:
    if np.isnan(values["alpha"]):
        reason = (
            "no item has two ratings, so no value is pairable"
            if n_pairable < 2
            else "the expected disagreement D_e is 0 (all pairable values are equal)"
        )
        undefined(func, reason)
    top = delta.max() if delta.size else 0.0
    flat = [int(v) for v in steps.ravel().tolist()] if steps is not None else []
    most = max(flat, default=0)
    if most > 0:  # δ²/max δ², rounded once: int / int is correctly rounded, at most 1
        shown = np.array([v / most for v in flat]).reshape(steps.shape)  # type: ignore[union-attr]
    else:
        shown = np.asarray(delta / top if top > 0 else delta, dtype=np.float64)
    return KrippendorffResult(
        statistic=values["alpha"],
        observed_agreement=values["p_a"],
        chance_agreement=values["p_e"],
        labels=labels.values,
        weights=shown,
        weighting=name,
        n_items=int(summary[0]),
        n_raters=n_raters,
        coefficient=func,
        category_totals=summary[1],
        level=name,
        observed_disagreement=values["d_o"],
        expected_disagreement=values["d_e"],
        coincidences=None if coincidence is None else np.asarray(coincidence, dtype=np.float64),
        distances=np.asarray(delta, dtype=np.float64) if delta.size else None,
        n_pairable=n_pairable,
        _inference=inference,
        _spec=ALPHA,
    )


def _decomposed(
    func: str, name: str, labels: Labels, matrix: RatingMatrix, population: float | None
) -> KrippendorffResult:
    """α without a coincidence matrix (the engine of ``krippendorff_continuous``)."""
    rated = matrix.codes >= 0
    summary = (matrix.codes.shape[0], np.bincount(matrix.codes[rated], minlength=labels.k))
    per_item = rated.sum(axis=1)
    codes = matrix.codes[per_item >= 2]
    n_rated = int((per_item >= 1).sum())
    values = np.arange(labels.k, dtype=float) if name == "nominal" else labels.scores(func, name)
    t = continuous.terms(codes, name, values)
    if t.exact_top is not None:  # exact sums: every value rounded once
        numbers = _values(t.count, t.observed, t.expected, t.exact_top, 1.0)
    else:
        numbers = _values(t.n, t.observed, t.expected, t.top, 1.0)
    var = continuous.variance(t, population, n_rated)
    inference = Inference(
        statistic=numbers["alpha"],
        standard_error=standard_error(var),
        df=max(n_rated - 1, 0),
        bounds=ALPHA.bounds,
        default_method=ALPHA.interval,
        sampler=continuous.ContinuousSampler(codes, name, values),
    )
    return _result(
        func,
        name,
        summary,
        labels,
        matrix.codes.shape[1],
        np.zeros((0, 0)),
        numbers,
        int(t.n),
        None,
        inference,
    )


def item_terms(data: tuple[Any, ...], options: dict[str, Any]) -> np.ndarray:
    """Per-item terms of alpha, items in order: Σ u_i² is its variance (the ``terms`` hook)."""
    func = ALPHA.name
    result = krippendorff_alpha(data[0], **options)
    sampler = result._inferred().sampler
    if not isinstance(sampler, CoincidenceSampler):
        raise NotImplementedError(
            f"{func}: compare() does not pair continuous alpha (more than {_DENSE_MAX} "
            "categories) nor alpha on label sets (level='masi' or 'jaccard') yet; pass "
            "paired=False."
        )
    top = float(sampler.delta.max()) if sampler.delta.size else 0.0
    agreement = 1 - sampler.delta / top if top > 0 else np.ones_like(sampler.delta)
    # the count form follows irrCAC's krippen.alpha.dist, raw ratings krippen.alpha.raw
    counts = item_data(data[0], options["labels"], func).names is None
    population = check_population(options["population_size"], func)
    rows = item_counts(data[0], result.labels, func)
    return alpha_terms(rows, agreement, population, counts=counts)
