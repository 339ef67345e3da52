"""Agreement on each label of multi-label annotations: :func:`label_agreement`.

Each rating is a label set (a set, frozenset, list or tuple of labels). For
every label, the ratings become binary, "the label is present": 1 where the
rater's set holds it, 0 where the rater gave a set without it, missing where
the rating is missing; the chosen coefficient (Krippendorff's alpha by
default) of those binary ratings measures the agreement on that label.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from concord._coefficients.krippendorff.krippendorff import krippendorff_alpha
from concord._coefficients.registry import REGISTRY
from concord._common.errors import describe, param_error
from concord._common.exact import fmean
from concord._data.long import long_groups
from concord._data.matrix import rating_matrix
from concord._data.sets import empty_sets, set_key
from concord._inference.intervals import check_level
from concord._results.studies.labels import LabelAgreementResult, LabelRow

_FUNC = "label_agreement"


def label_agreement(
    ratings: Any,
    /,
    *,
    function: Any = krippendorff_alpha,
    labels: Any = None,
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    empty: str = "missing",
    confidence_level: float = 0.95,
    method: str | None = None,
    n_resamples: int = 9999,
    rng: Any = None,
    **options: Any,
) -> LabelAgreementResult:
    """Agreement on each label of label-set ratings, worst label first.

    Parameters
    ----------
    ratings : array-like (n_items, n_raters) or DataFrame
        One row per item, one column per rater; each rating a label set
        (set, frozenset, list or tuple); None or NaN for a missing rating.
    function : callable
        A coefficient of a ratings matrix (``concord.krippendorff_alpha``,
        ``concord.fleiss_kappa``, ``concord.gwet_ac``, ...), computed on each
        label's binary ratings; a two-rater one (``concord.cohen_kappa``)
        for the ratings of two raters.
    labels : sequence, optional
        The labels to report (single labels, not sets). Default: every label
        that occurs, by type then value.
    item, rater, rating : column name, optional
        Long form: ``ratings`` is a table with one row per rating.
    empty : {"missing", "category"}
        An empty set: a missing rating (default), or a rating that holds no
        label (0 for every label).
    confidence_level : float
        The intervals' level.
    method, n_resamples, rng
        The interval method of each label's result (None: the coefficient's
        default), as in ``confidence_interval``.
    **options
        Passed to ``function`` (e.g. ``population_size``).

    Returns
    -------
    LabelAgreementResult
        ``statistic`` is the mean over the labels of their coefficients (the
        macro average; labels where it is undefined are left out of it);
        ``worst`` the lowest label; ``table()`` one row per label, worst first.

    Examples
    --------
    Three coders on six items (the label sets of the MASI example of
    ``concord.krippendorff_alpha``); NLTK's ``AnnotationTask(...).alpha()`` of
    each label's 0/1 ratings gives 0.5277777777777778 for pol and
    0.7384615384615385 for sport:

    >>> import concord
    >>> sets = [[{"pol"}, {"pol"}, {"pol", "econ"}],
    ...         [{"pol", "econ"}, {"econ"}, {"pol", "econ"}],
    ...         [{"sport"}, {"sport"}, {"sport"}],
    ...         [{"econ"}, {"econ", "pol"}, {"econ"}],
    ...         [{"sport", "health"}, {"sport"}, {"health"}],
    ...         [{"health"}, {"health"}, {"health", "econ"}]]
    >>> r = concord.label_agreement(sets)
    >>> r.labels
    ('pol', 'econ', 'health', 'sport')
    >>> round(r.worst.statistic, 4), round(r["sport"].statistic, 4)
    (0.5278, 0.7385)
    """
    level = check_level(confidence_level, _FUNC)
    with empty_sets(empty, _FUNC):
        wide, _ = long_groups(ratings, (item, rater, rating), None, _FUNC)
        matrix = rating_matrix(wide, None, _FUNC)
    assert matrix is not None
    values = matrix.labels.values
    if not all(isinstance(v, frozenset) for v in values):
        param_error(
            _FUNC,
            "ratings",
            "label sets (set, frozenset, list or tuple per rating)",
            f"single labels such as {describe(values[0])}",
            raw=True,
            fix="Rate with sets of labels, e.g. {'a', 'b'}; for single labels call the "
            "coefficient itself.",
        )
    chosen = _labels(labels, values)
    compute = _on_matrix(function, matrix.codes.shape[1])
    interval = {"method": method, "n_resamples": n_resamples, "rng": rng}
    rows = [
        _one(label, matrix.codes, values, compute, options, level, interval) for label in chosen
    ]
    defined = [r.statistic for r in rows if not math.isnan(r.statistic)]
    rows.sort(key=lambda r: (math.isnan(r.statistic), r.statistic))
    mean = fmean(defined) if defined else math.nan  # correctly rounded: the same everywhere
    name = getattr(function, "__name__", str(function))
    return LabelAgreementResult(mean, name, tuple(rows), level, method)


def _labels(labels: Any, values: tuple[Any, ...]) -> list[Any]:
    """Return the labels to report: those given (each must occur), or every one found."""
    found: set[Any] = set().union(*values)
    if labels is None:
        return sorted(found, key=_key)
    chosen = list(labels)
    if not chosen:
        param_error(
            _FUNC,
            "labels",
            "at least one label to report",
            "an empty list",
            raw=True,
            fix="Pass labels=None for every label, or some of "
            f"{describe(sorted(found, key=_key))}.",
        )
    for label in chosen:
        if label not in found:
            param_error(
                _FUNC,
                "labels",
                "labels that occur in the ratings' sets",
                describe(label),
                raw=True,
                fix=f"The labels found are {describe(sorted(found, key=_key))}.",
            )
    return chosen


def _on_matrix(function: Any, raters: int) -> Any:
    """Return ``function`` as a coefficient of a ratings matrix (a two-rater one takes columns)."""
    known = next((c for c in REGISTRY if c.function is function), None)
    if known is None or known.arity != 2:
        return function
    if raters != 2:
        param_error(
            _FUNC,
            "function",
            "a coefficient of many raters for more than two raters",
            f"{known.name} for {raters} raters",
            raw=True,
            fix="Use e.g. function=concord.fleiss_kappa, or the ratings of two raters.",
        )

    def two(binary: np.ndarray, **options: Any) -> Any:
        return function(binary[:, 0], binary[:, 1], **options)

    return two


def _key(label: Any) -> tuple[int, Any, str]:
    return set_key(frozenset([label]))[1][0]


def _one(
    label: Any,
    codes: np.ndarray,
    values: tuple[Any, ...],
    function: Any,
    options: dict[str, Any],
    level: float,
    interval: dict[str, Any],
) -> LabelRow:
    """Return one label's row: the coefficient of its binary ratings, SE and interval."""
    member = np.array([label in v for v in values] + [False], dtype=np.float64)
    binary = np.where(codes >= 0, member[codes], np.nan)
    rated = int(((codes >= 0).sum(axis=1) >= 1).sum())
    prevalence = float(np.nanmean(binary)) if (codes >= 0).any() else math.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a label held by every rating, or none: nan
        result = function(binary, **options)
    statistic = float(getattr(result, "statistic", result))
    se, low, high = math.nan, math.nan, math.nan
    if math.isfinite(statistic) and hasattr(result, "confidence_interval"):
        se = float(getattr(result, "standard_error", math.nan))
        low, high = (float(b) for b in result.confidence_interval(level, **interval))
    return LabelRow(label, result, statistic, se, low, high, rated, prevalence)
