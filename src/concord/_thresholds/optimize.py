"""Cut points that maximise weighted kappa, and the honest out-of-fold kappa."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._coefficients.kappa.cohen import COHEN, kappa_result
from concord._common.errors import describe, param_error
from concord._common.jsonable import jsonable
from concord._data.columns import check_some_weight, paired, paired_weight, sample_weights
from concord._data.labels import Labels
from concord._inference.intervals import progress
from concord._results.html import FoldsHTML, ThresholdHTML
from concord._results.kappa.kappa import KappaResult
from concord._results.protocol import tidy_frame
from concord._results.sentence import FoldsSentence, ThresholdSentence
from concord._results.tables_text import FoldsText, ThresholdText
from concord._tables.pairs import encode_rater
from concord._tables.weights import Weighting, resolve
from concord._thresholds import dinkelbach as _thresholds


@dataclass(frozen=True, eq=False, repr=False)
class ThresholdResult(ThresholdSentence, ThresholdHTML, ThresholdText):
    """The cut points of largest weighted kappa.

    Attributes
    ----------
    thresholds : numpy.ndarray
        t_1 ≤ … ≤ t_{k−1}: a score s gets the grade ``labels[j]`` where j is
        the number of cut points strictly below s. Each lies midway between
        two adjacent distinct scores (±inf when an end grade is empty).
    labels : tuple
        The k grades, in order.
    statistic : float
        The kappa these cut points reach on the data they were fitted to.
    kappa : KappaResult
        The full result at the optimum (O, W, E, SE, intervals, contributions).
    gap : float
        The optimality certificate: min over all monotone gradings of
        Σ_i (W[y_i, g_i] − λ* e(g_i)) at the optimal ratio λ* = D_o/D_e.
        Dinkelbach's theorem: it is 0 exactly when no grading does better.
    iterations : int
        Dinkelbach steps taken.
    """

    thresholds: np.ndarray
    labels: tuple[Any, ...]
    statistic: float
    kappa: KappaResult
    gap: float
    iterations: int

    def __post_init__(self) -> None:
        self.thresholds.setflags(write=False)

    def __float__(self) -> float:
        return float(self.statistic)

    def __repr__(self) -> str:
        cuts = ", ".join(f"{t:.6g}" for t in self.thresholds)
        return f"ThresholdResult(statistic={self.statistic:.6g}, thresholds=[{cuts}])"

    def apply(self, scores: Any) -> np.ndarray:
        """Return the grade (a label) of each score."""
        values = np.asarray(scores, dtype=np.float64)
        if np.isnan(values).any():
            param_error("ThresholdResult.apply", "scores", "free of NaN", "NaN scores", raw=True)
        out: np.ndarray = label_array(self.labels)[_thresholds.grade(values, self.thresholds)]
        return out

    def to_dict(self) -> dict[str, Any]:
        """Return the cut points JSON-ready, with the keys of ``concord thresholds --format json``.

        ``labels``, ``thresholds`` (±inf as the strings "inf" and "-inf", as
        in the cut-point file), ``weights`` (the kappa's weighting),
        ``statistic``, ``gap`` and ``iterations``; the kappa's own record is
        ``result.kappa.to_dict()``.

        Examples
        --------
        >>> import concord
        >>> best = concord.optimize_thresholds([1, 1, 2, 2, 3], [0.1, 0.3, 0.4, 0.6, 0.9])
        >>> best.to_dict()["thresholds"], best.to_dict()["statistic"]
        ([0.35, 0.75], 1.0)
        """
        return {
            "labels": jsonable(list(self.labels)),
            "thresholds": [cut_value(float(t)) for t in self.thresholds],
            "weights": self.kappa.weighting,
            **jsonable({"statistic": self.statistic, "gap": self.gap}),
            "iterations": self.iterations,
        }

    def to_frame(self) -> Any:
        """Return a one-row DataFrame: the tidy columns, the kappa's weights, a column per cut.

        ``coefficient``, ``statistic`` (the in-sample kappa), its
        ``standard_error``, ``ci_low``, ``ci_high``, ``pvalue`` and ``n``, then
        ``gap``, ``iterations``, ``threshold_1``, … and ``weights``.
        """
        return tidy_frame([{**self._rows_()[0], "weights": self.kappa.weighting}])


def cut_value(x: float) -> float | str:
    """Return a cut point for JSON: itself, or "inf" / "-inf" (JSON has no infinity)."""
    return x if math.isfinite(x) else ("inf" if x > 0 else "-inf")


def label_array(labels: tuple[Any, ...]) -> np.ndarray:
    """Return the labels as an array: numeric if they are numbers, else objects (no conversion)."""
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in labels)
    return np.asarray(labels) if numeric else np.asarray(labels, dtype=object)


def _scores(y_score: Any, n: int, func: str) -> np.ndarray:
    try:
        scores = np.asarray(y_score, dtype=np.float64)
    except (TypeError, ValueError):
        param_error(func, "y_score", "an array of numbers", y_score, exc=TypeError)
    if scores.ndim != 1 or scores.shape[0] != n:
        param_error(
            func, "y_score", f"1-D of length {n}, like y_true", f"shape {scores.shape}", raw=True
        )
    if not np.isfinite(scores).all():
        param_error(
            func,
            "y_score",
            "finite",
            f"{int((~np.isfinite(scores)).sum())} NaN or infinite scores",
            raw=True,
            fix="Drop or impute those items first.",
        )
    return scores


def _fit(
    codes: np.ndarray,
    scores: np.ndarray,
    labels: Labels,
    weighting: Weighting,
    weight: np.ndarray | None,
    func: str,
) -> ThresholdResult:
    k = labels.k
    if np.count_nonzero(np.bincount(codes, minlength=k)) < 2:
        param_error(
            func,
            "y_true",
            "at least two classes",
            f"only {describe(labels.values[codes[0]], 40)}",
            raw=True,
            fix="Kappa is undefined with a single true class.",
        )
    blocks = _thresholds.blocks(codes, scores, k, weight)
    best = _thresholds.optimise(blocks, weighting.floats())
    cuts = _thresholds.thresholds(blocks, best.cuts)
    grades = _thresholds.grade(scores, cuts)
    table = np.bincount(codes * k + grades, weights=weight, minlength=k * k).reshape(k, k)
    result = kappa_result(
        table if weight is not None else table.astype(np.int64), labels, weighting, COHEN
    )
    return ThresholdResult(cuts, labels.values, result.statistic, result, best.gap, best.steps)


def optimize_thresholds(
    y_true: Any,
    y_score: Any,
    /,
    *,
    labels: Any = None,
    weights: Any = "quadratic",
    sample_weight: Any = None,
) -> ThresholdResult:
    r"""Find the cut points of continuous scores that maximise weighted kappa, exactly.

    Grades are obtained by cutting ``y_score`` at t_1 ≤ … ≤ t_{k−1}; the cut
    points maximise κ between ``y_true`` and the grades over *all* monotone
    gradings (tied scores always share a grade). The search is exact, not
    local: Dinkelbach's fractional-programming iteration with an O(k · J)
    dynamic programme over the J distinct scores (see
    :mod:`concord._thresholds.dinkelbach`), and the result carries the certificate.

    Parameters
    ----------
    y_true : array-like, shape (n,)
        The true grades. Two pandas Series (``y_true`` and ``y_score``) pair
        by index label, as in :func:`cohen_kappa`.
    y_score : array-like of float, shape (n,)
        Continuous scores (e.g. a regression model's predictions). Higher
        scores get higher grades.
    labels : sequence, optional
        The ordered grades; default the sorted distinct values of ``y_true``.
    weights : None, str or array-like (k, k)
        As in :func:`cohen_kappa`; default quadratic.
    sample_weight : array-like, shape (n,), optional
        A non-negative weight per item.

    Returns
    -------
    ThresholdResult
        ``thresholds``, ``statistic``, ``apply(scores)``, the optimality
        ``gap`` and the :class:`KappaResult` at the optimum.

    Notes
    -----
    The kappa reached on the data the cut points were fitted to is optimistic
    for new data; :func:`cross_validated_kappa` measures it out of fold.
    If the scores have fewer distinct values than there are grades, some
    grades stay empty (their cut points are ±inf or coincide).

    References
    ----------
    Dinkelbach, W. (1967). On nonlinear fractional programming. Management
    Science 13(7), 492-498. doi:10.1287/mnsc.13.7.492

    Vaughn, D. & Justice, D. (2015). On the direct maximization of quadratic
    weighted kappa. arXiv:1509.07107

    Examples
    --------
    >>> import concord
    >>> truth = [1, 1, 2, 2, 3, 3, 3]
    >>> score = [0.9, 1.4, 1.6, 2.1, 2.2, 3.5, 2.9]
    >>> best = concord.optimize_thresholds(truth, score)
    >>> best.thresholds
    array([1.5 , 2.15])
    >>> best.apply([1.0, 2.0, 3.0])
    array([1, 2, 3])
    >>> best.statistic, best.gap
    (1.0, 0.0)
    """
    func = "optimize_thresholds"
    y_true, y_score = paired(y_true, y_score, func, ("y_true", "y_score"))
    sample_weight = paired_weight(y_true, sample_weight, func, "y_true")
    codes, found = encode_rater(y_true, labels, func, "y_true")
    scores = _scores(y_score, codes.shape[0], func)
    weight = sample_weights(sample_weight, codes.shape[0], func)
    check_some_weight(weight, func)
    weighting = resolve(weights, found, func)
    return _fit(codes, scores, found, weighting, weight, func)


@dataclass(frozen=True, eq=False, repr=False)
class CrossValidatedKappa(FoldsSentence, FoldsHTML, FoldsText):
    """Kappa measured on held-out folds, with cut points fitted on the other folds.

    Attributes
    ----------
    statistic : float
        Kappa of all out-of-fold grades against the truth: the number to report.
    fold_kappas : numpy.ndarray
        The kappa of each held-out fold.
    fold_thresholds : list of numpy.ndarray
        The cut points fitted without each fold.
    in_sample : float
        The kappa of cut points fitted and measured on all the data.
    optimism : float
        ``in_sample − statistic``: how much the in-sample kappa overstates.
    grades : numpy.ndarray
        The out-of-fold grade of each item.
    """

    statistic: float
    fold_kappas: np.ndarray
    fold_thresholds: list[np.ndarray]
    in_sample: float
    grades: np.ndarray

    @property
    def optimism(self) -> float:
        return self.in_sample - self.statistic

    def __float__(self) -> float:
        return float(self.statistic)

    def to_dict(self) -> dict[str, Any]:
        """Return the cross-validated kappa JSON-ready: the keys of the attributes, but ``grades``.

        ``statistic`` (``cross_validated`` in ``concord thresholds --format
        json``), ``in_sample``, ``optimism``, ``fold_kappas`` and
        ``fold_thresholds`` (±inf as "inf" and "-inf"); the per-item
        ``grades`` are left out.
        """
        return {
            **jsonable(
                {
                    "statistic": self.statistic,
                    "in_sample": self.in_sample,
                    "optimism": self.optimism,
                    "fold_kappas": self.fold_kappas,
                }
            ),
            "fold_thresholds": [[cut_value(float(t)) for t in f] for f in self.fold_thresholds],
        }

    def to_frame(self) -> Any:
        """Return a one-row DataFrame: the tidy columns, in_sample, optimism and n_folds."""
        return tidy_frame(self._rows_())

    def __repr__(self) -> str:
        return (
            f"CrossValidatedKappa(statistic={self.statistic:.6g}, in_sample={self.in_sample:.6g}, "
            f"folds={len(self.fold_kappas)})"
        )


def _folds(cv: Any, n: int, codes: np.ndarray, rng: Any, func: str) -> list[tuple[Any, Any]]:
    if isinstance(cv, int | np.integer) and not isinstance(cv, bool):
        if not 2 <= cv <= n:
            param_error(func, "cv", f"a number of folds between 2 and n = {n}", cv)
        order = np.random.default_rng(rng).permutation(n)
        parts = np.array_split(order, int(cv))
        return [(np.concatenate(parts[:i] + parts[i + 1 :]), part) for i, part in enumerate(parts)]
    if hasattr(cv, "split"):
        return list(cv.split(np.zeros((n, 1)), codes))
    if isinstance(cv, Iterable) and not isinstance(cv, str | Mapping):
        return list(cv)
    param_error(
        func,
        "cv",
        "an int, a scikit-learn splitter or (train, test) index pairs",
        cv,
        exc=TypeError,
    )


def cross_validated_kappa(
    y_true: Any,
    y_score: Any,
    /,
    *,
    cv: Any = 5,
    labels: Any = None,
    weights: Any = "quadratic",
    rng: Any = None,
) -> CrossValidatedKappa:
    """Kappa of cut points on data they were not fitted to: the honest number to report.

    For each fold, :func:`optimize_thresholds` fits cut points on the other
    folds and grades the held-out items; ``statistic`` is the kappa of all
    the out-of-fold grades.

    Parameters
    ----------
    y_true, y_score : array-like, shape (n,)
        As in :func:`optimize_thresholds`.
    cv : int, splitter or iterable
        The number of shuffled folds (default 5), a scikit-learn splitter
        (anything with ``split(X, y)``, e.g. ``StratifiedKFold``), or
        (train, test) index pairs.
    labels : sequence, optional
        The ordered grades, as in :func:`optimize_thresholds`.
    weights : None, str or array-like (k, k)
        As in :func:`cohen_kappa`; default quadratic.
    rng : None, int or numpy.random.Generator
        Shuffles the folds when ``cv`` is an int.

    Returns
    -------
    CrossValidatedKappa

    Examples
    --------
    >>> import numpy as np, concord
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.integers(1, 6, 500)
    >>> score = truth + rng.normal(0, 0.8, 500)
    >>> cv = concord.cross_validated_kappa(truth, score, rng=0)
    >>> bool(cv.optimism >= 0), len(cv.fold_kappas)
    (True, 5)
    """
    func = "cross_validated_kappa"
    y_true, y_score = paired(y_true, y_score, func, ("y_true", "y_score"))
    codes, found = encode_rater(y_true, labels, func, "y_true")
    scores = _scores(y_score, codes.shape[0], func)
    weighting = resolve(weights, found, func)
    grades = np.empty(codes.shape[0], dtype=np.int64)
    fold_kappas, fold_cuts = [], []
    k = found.k
    folds = _folds(cv, codes.shape[0], codes, rng, func)
    with progress(len(folds), func, unit="fold", worth=codes.shape[0] >= 200_000) as bar:
        for train, test in folds:
            fitted = _fit(codes[train], scores[train], found, weighting, None, func)
            grades[test] = _thresholds.grade(scores[test], fitted.thresholds)
            held = np.bincount(codes[test] * k + grades[test], minlength=k * k).reshape(k, k)
            fold_kappas.append(kappa_result(held, found, weighting, COHEN, caller=func).statistic)
            fold_cuts.append(fitted.thresholds)
            if bar is not None:
                bar.update()
    table = np.bincount(codes * k + grades, minlength=k * k).reshape(k, k)
    pooled = kappa_result(table, found, weighting, COHEN, caller=func).statistic
    in_sample = _fit(codes, scores, found, weighting, None, func).statistic
    return CrossValidatedKappa(
        pooled, np.array(fold_kappas), fold_cuts, in_sample, label_array(found.values)[grades]
    )
