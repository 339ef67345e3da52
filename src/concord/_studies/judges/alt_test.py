"""The Alt-Test: whether a candidate annotator (an LLM judge) can replace the humans.

Calderon, Reichart & Dror (2025). The arithmetic is in
:mod:`concord._studies.judges.alt_test_core`; the result is
:class:`~concord._results.studies.alt_test.AltTestResult`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from concord._common.errors import param_error
from concord._common.exact import fmean
from concord._data.arrays import to_host
from concord._data.columns import paired
from concord._data.matrix import rating_matrix
from concord._data.two import split_one, wide_values
from concord._data.wide import Wide
from concord._results.studies.alt_test import AltTestResult
from concord._studies.judges import alt_test_core as core

_FUNC = "alt_test"
_METRICS = ("accuracy", "neg_rmse")


def _checked(epsilon: Any, alpha: Any, metric: Any) -> tuple[float, float, str]:
    """Validate the options; return ε, α and the metric's name."""
    # numpy scalars too (np.float32 is no float subclass, np.int64 no int); not bools
    number = int | float | np.integer | np.floating
    if isinstance(epsilon, bool) or not isinstance(epsilon, number):
        param_error(_FUNC, "epsilon", "a number in [0, 1)", epsilon, exc=TypeError)
    if not 0 <= epsilon < 1:
        fix = "The paper suggests 0.2 for experts, 0.15 for skilled annotators, 0.1 for crowds."
        param_error(_FUNC, "epsilon", "in [0, 1)", epsilon, fix=fix)
    if isinstance(alpha, bool) or not isinstance(alpha, number) or not 0 < alpha < 1:
        param_error(_FUNC, "alpha", "a number in (0, 1)", alpha, fix="Pass 0.05 for 5%.")
    if callable(metric):
        return float(epsilon), float(alpha), getattr(metric, "__name__", repr(metric))
    if metric not in _METRICS:
        fix = "Or pass a function metric(annotation, others) -> float, higher is better."
        param_error(_FUNC, "metric", "'accuracy', 'neg_rmse' or a callable", metric, fix=fix)
    return float(epsilon), float(alpha), str(metric)


def _joint(humans: Any, candidate: Any) -> tuple[np.ndarray, tuple[Any, ...]]:
    """Return humans' and the candidate's annotations as one object matrix, and the names."""
    frame = hasattr(humans, "columns") and hasattr(humans, "iloc")
    if isinstance(humans, Wide):  # long form, or a polars or pyarrow frame
        names, matrix = wide_values(humans)
    elif frame:
        if len(humans.columns):
            candidate = paired(humans.iloc[:, 0], candidate, _FUNC, ("humans", "candidate"))[1]
        names, matrix = tuple(humans.columns), humans.to_numpy(dtype=object)
    else:
        if isinstance(humans, str | bytes) or np.isscalar(humans) or humans is None:
            param_error(
                _FUNC, "humans", "a 2-D array-like (items × humans)", humans, exc=TypeError
            )
        matrix = np.asarray(to_host(humans), dtype=object)
        names = tuple(range(matrix.shape[1])) if matrix.ndim == 2 else ()
    if matrix.ndim != 2 or matrix.shape[1] < 2:
        got = f"shape {matrix.shape}"
        fix = "Pass one column per human annotator, at least two of them."
        param_error(_FUNC, "humans", "2-D (items × humans)", got, fix=fix, raw=True)
    column = np.asarray(to_host(candidate), dtype=object)
    if column.shape != (matrix.shape[0],):
        got = f"shape {column.shape}"
        fix = f"Pass one annotation per item: {matrix.shape[0]} of them, None where missing."
        param_error(_FUNC, "candidate", "1-D, one per row of humans", got, fix=fix, raw=True)
    return np.column_stack([matrix, column]), names


def _outcomes(codes: np.ndarray, values: tuple[Any, ...], metric: Any) -> np.ndarray:
    """Return d (items × humans) of the items with a candidate and at least two humans."""
    humans, candidate = codes[:, :-1], codes[:, -1]
    present = humans >= 0
    if metric == "accuracy":
        return core.accuracy_outcomes(humans, candidate)
    lookup = np.empty(len(values) + 1, dtype=object)
    lookup[:-1] = values
    if metric == "neg_rmse":
        if not all(isinstance(v, int | float) and math.isfinite(v) for v in values):
            fix = "Use metric='accuracy' for categories, or pass numbers."
            param_error(_FUNC, "metric", "'accuracy' for non-numeric annotations", metric, fix=fix)
        numbers = np.array([float(v) for v in values] + [math.nan])
        return core.rmse_outcomes(numbers[humans], present, numbers[candidate])
    return core.callable_outcomes(lookup[humans], present, lookup[candidate], metric)


def alt_test(
    humans: Any,
    candidate: Any,
    /,
    *,
    epsilon: float = 0.1,
    alpha: float = 0.05,
    metric: str | Callable[[Any, list[Any]], float] = "accuracy",
    item: Any = None,
    rater: Any = None,
    rating: Any = None,
    form: str = "auto",
) -> AltTestResult:
    r"""Test whether a candidate annotator (an LLM judge) can replace the humans: the Alt-Test.

    One human at a time is left out. On each item the left-out human annotated,
    the candidate's annotation and the human's are scored against the other
    humans' (``metric``); the candidate "wins" the item if its score is at
    least the human's, and the human if theirs is at least the candidate's.
    For human j, with d = (human wins) − (candidate wins) per item, a paired
    one-sided t test of H0: mean(d) ≥ ε against mean(d) < ε asks whether the
    candidate is at least as good as the human, with ε the margin granted for
    being cheaper. The p-values of all humans are corrected by Benjamini &
    Yekutieli (2001) at false discovery rate ``alpha``; the candidate beats
    human j if j's hypothesis is rejected.

    Parameters
    ----------
    humans : array-like or DataFrame, shape (n_items, n_humans)
        One column per human annotator (at least two), one row per item; a
        missing annotation is None, NaN or pd.NA.
    candidate : array-like, shape (n_items,), or a name
        The candidate's annotation of each item, None where missing. A pandas
        Series beside a DataFrame pairs by index label. A column name picks
        the candidate's column out of the ``humans`` frame (the other
        columns are the humans); with the long form it names the candidate
        among the raters.
    epsilon : float
        The cost-benefit margin ε in [0, 1): 0.2 for experts, 0.15 for skilled
        annotators, 0.1 for crowd workers, as the paper suggests.
    alpha : float
        The false discovery rate of the BY correction; default 0.05.
    metric : {"accuracy", "neg_rmse"} or callable
        How an annotation is scored against the others: the share that
        match; minus the root mean squared difference (numbers); or
        ``metric(annotation, others)``, a float, higher is better.
    item, rater, rating : column name, optional
        Long form: ``humans`` is a table with one row per annotation (pandas,
        polars, pyarrow or a mapping of columns), these name its columns, and
        ``candidate`` names the candidate among the raters.
    form : {"auto", "wide"}
        Without the long form, "auto" refuses a table that looks long (an
        item column whose values repeat, a column of rater names, a column
        of ratings); "wide" says the columns are annotators.

    Returns
    -------
    AltTestResult
        ``winning_rate`` ω, ``advantage_probability`` ρ, ``passed`` (ω ≥ 0.5),
        per-human ``pvalues``, ``wins``, ``advantage_probabilities``;
        ``table()``, ``summary()``, ``explain()``, ``to_dict()``.

    Notes
    -----
    As the reference implementation (``nitaytech/AltTest``), only items with
    a candidate annotation and at least two human annotations are used, and a
    human with fewer than 30 such items is not tested (``skipped``) and not
    counted in ω: the t test needs about 30 items (the paper's FAQ suggests
    a rank test below that, and 50 to 100 items). ρ_j is the share of j's
    items the candidate wins; ρ is their mean over the tested humans.

    References
    ----------
    Calderon, N., Reichart, R., Dror, R. (2025). The Alternative Annotator
    Test for LLM-as-a-Judge: How to Statistically Justify Replacing Human
    Annotators with LLMs. Proceedings of ACL 2025, 16051-16081.
    doi:10.18653/v1/2025.acl-long.782

    Benjamini, Y., Yekutieli, D. (2001). The control of the false discovery
    rate in multiple testing under dependency. Annals of Statistics 29(4),
    1165-1188. doi:10.1214/aos/1013699998

    Examples
    --------
    Three humans and a judge on 40 items (made up for this example): the
    judge matches the majority on 38 items, each human on 34 to 36.

    >>> import numpy as np, concord
    >>> truth = np.tile(["yes", "no", "no", "yes", "maybe"], 8)
    >>> humans = np.column_stack([truth, truth, truth]).astype(object)
    >>> humans[[0, 5, 10, 15, 20, 25], 0] = "maybe"
    >>> humans[[1, 6, 11, 16], 1] = "yes"
    >>> humans[[2, 7, 12, 17, 22], 2] = "yes"
    >>> judge = truth.astype(object)
    >>> judge[[3, 8]] = "no"
    >>> r = concord.alt_test(humans, judge, epsilon=0.2)
    >>> r.winning_rate, round(r.advantage_probability, 3), r.passed
    (1.0, 0.95, True)
    """
    eps, level, name = _checked(epsilon, alpha, metric)
    long = (item, rater, rating)
    humans, candidate, _ = split_one(_FUNC, humans, candidate, ("humans", "candidate"), long, form)
    joint, names = _joint(humans, candidate)
    matrix = rating_matrix(joint, None, _FUNC, continuous=True)
    assert matrix is not None  # the candidate's column cannot be empty: checked below
    codes = matrix.codes
    kept = (codes[:, -1] >= 0) & ((codes[:, :-1] >= 0).sum(axis=1) >= 2)
    if not kept.any():
        got = "no such item"
        fix = "Check that the rows of humans and candidate are the same items."
        param_error(
            _FUNC, "humans", "items with a candidate and two humans", got, raw=True, fix=fix
        )
    codes = codes[kept]
    d = _outcomes(codes, matrix.labels.values, metric)
    outcomes = core.tally(d, codes[:, :-1] >= 0)
    dropped = matrix.n_dropped + int(kept.size - kept.sum())
    return from_outcomes(outcomes, names, epsilon=eps, alpha=level, metric=name, n_dropped=dropped)


def from_outcomes(
    outcomes: core.Outcomes,
    humans: tuple[Any, ...],
    *,
    epsilon: float,
    alpha: float,
    metric: str,
    n_dropped: int = 0,
) -> AltTestResult:
    """Test each human with enough items, correct by BY, and build the result."""
    n = outcomes.candidate_better + outcomes.ties + outcomes.human_better
    tested = np.flatnonzero(n >= core.MIN_ITEMS)
    if tested.size == 0:
        got = f"at most {int(n.max())} items per human"
        fix = "The t test needs 30 items per human; the paper suggests 50 to 100."
        param_error(
            _FUNC, "humans", f"a human with {core.MIN_ITEMS} items", got, raw=True, fix=fix
        )
    counts = [o[tested] for o in (outcomes.candidate_better, outcomes.ties, outcomes.human_better)]
    p = np.array(
        [core.pvalue(int(a), int(b), int(c), epsilon) for a, b, c in zip(*counts, strict=True)]
    )
    wins = core.by_rejected(p, alpha)
    rho = (counts[0] + counts[1]) / n[tested]
    return AltTestResult(
        winning_rate=float(wins.sum() / tested.size),
        advantage_probability=fmean(rho),  # math.fsum: the same on every CPU
        passed=bool(wins.sum() / tested.size >= 0.5),
        epsilon=epsilon,
        alpha=alpha,
        metric=metric,
        humans=tuple(humans[j] for j in tested),
        pvalues=p,
        adjusted_pvalues=core.by_adjusted(p),
        wins=wins,
        advantage_probabilities=rho,
        n_items=n[tested],
        candidate_better=counts[0],
        ties=counts[1],
        human_better=counts[2],
        skipped=tuple(humans[j] for j in np.flatnonzero(n < core.MIN_ITEMS)),
        n_dropped=n_dropped,
    )
