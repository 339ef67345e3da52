"""How accurate is a rater against gold labels: :func:`diagnostic_accuracy`.

The two-category measures are R epiR's ``epi.tests``: each proportion with
its binomial interval (Clopper–Pearson or Wilson), the likelihood ratios
with Simel et al.'s (1991) log intervals, the diagnostic odds ratio with
Woolf's, and Youden's J with epiR's rule (the lower bounds of sensitivity
and specificity combined, and the upper). For more categories: per class
precision and recall (binomial intervals) and F1 (delta-method interval).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from concord._common.errors import UndefinedKappaWarning, param_error
from concord._inference.intervals import check_level
from concord._inference.proportions import METHODS, proportion_interval, z_value
from concord._results.studies.diagnostic import DiagnosticResult
from concord._tables.pairs import confusion_table

_FUNC = "diagnostic_accuracy"
Triple = tuple[float, float, float]


def _ratio(x: float, n: float, level: float, method: str) -> Triple:
    return (x / n if n else math.nan, *proportion_interval(x, n, level, method))


def _log_interval(est: float, se: float, z: float) -> Triple:
    """``est`` with the interval exp(log est ± z·se); nan where est or se is not finite."""
    with np.errstate(divide="ignore", invalid="ignore"):
        log = float(np.log(est)) if est > 0 else -math.inf
        return est, float(np.exp(log - z * se)), float(np.exp(log + z * se))


def _divide(a: float, b: float) -> float:
    if b == 0:
        return math.inf if a > 0 else math.nan
    return a / b


def binary_measures(
    tp: int, fp: int, fn: int, tn: int, level: float, method: str
) -> dict[str, Triple]:
    """Return epiR ``epi.tests``' measures of a 2×2 table, each (estimate, low, high)."""
    n, m1, m0 = tp + fp + fn + tn, tp + fn, fp + tn
    z = z_value(level)
    se, sp = _ratio(tp, m1, level, method), _ratio(tn, m0, level, method)
    s, p = se[0], sp[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        se_lrp = math.sqrt(_divide(1 - s, m1 * s) + _divide(p, m0 * (1 - p)))
        se_lrn = math.sqrt(_divide(s, m1 * (1 - s)) + _divide(1 - p, m0 * p))
        se_dor = math.sqrt(sum(_divide(1, c) for c in (tp, fp, fn, tn)))
    bounds = (se[1] + sp[1] - 1, se[2] + sp[2] - 1)
    return {
        "apparent_prevalence": _ratio(tp + fp, n, level, method),
        "prevalence": _ratio(m1, n, level, method),
        "sensitivity": se,
        "specificity": sp,
        "ppv": _ratio(tp, tp + fp, level, method),
        "npv": _ratio(tn, fn + tn, level, method),
        "accuracy": _ratio(tp + tn, n, level, method),
        "lr_positive": _log_interval(_divide(s, 1 - p), se_lrp, z),
        "lr_negative": _log_interval(_divide(1 - s, p), se_lrn, z),
        "diagnostic_odds_ratio": _log_interval(_divide(tp * tn, fp * fn), se_dor, z),
        "youden": (s + p - 1, min(bounds), max(bounds)),
    }


def f1_interval(tp: float, fp: float, fn: float, z: float) -> Triple:
    """F1 = 2TP / (2TP + FP + FN) with its delta-method (Wald) interval, clipped to [0, 1].

    Over the multinomial shares a, b, c of TP, FP, FN among n items the
    gradient of F1 is orthogonal to (a, b, c), so var = 4a(b + c)(a + b + c)
    / (n (2a + b + c)⁴), as Takahashi et al. (2022) derive for micro F1.
    """
    if 2 * tp + fp + fn == 0:
        return math.nan, math.nan, math.nan
    f1 = 2 * tp / (2 * tp + fp + fn)
    var = 4 * tp * (fp + fn) * (tp + fp + fn) / (2 * tp + fp + fn) ** 4
    half = z * math.sqrt(var)
    return f1, max(f1 - half, 0.0), min(f1 + half, 1.0)


def per_class(table: np.ndarray, level: float, method: str) -> dict[str, np.ndarray]:
    """Per category precision, recall (binomial intervals) and F1, each an array (k, 3)."""
    z = z_value(level)
    hits, said, gold = np.diag(table), table.sum(axis=0), table.sum(axis=1)
    out: dict[str, list[Triple]] = {"precision": [], "recall": [], "f1": []}
    for j in range(table.shape[0]):
        out["precision"].append(_ratio(hits[j], said[j], level, method))
        out["recall"].append(_ratio(hits[j], gold[j], level, method))
        out["f1"].append(f1_interval(hits[j], said[j] - hits[j], gold[j] - hits[j], z))
    return {k: np.array(v, dtype=float).reshape(-1, 3) for k, v in out.items()}


def _check_method(method: Any) -> str:
    if method not in METHODS:
        param_error(_FUNC, "method", "'exact' or 'wilson'", method)
    return str(method)


def _positive(labels: tuple[Any, ...], positive: Any) -> tuple[Any, str]:
    """Return the positive category and how it was chosen; (None, "") for k > 2 without one."""
    if positive is not None:
        if positive not in labels:
            param_error(
                _FUNC,
                "positive",
                f"one of the categories {list(labels)}",
                positive,
                fix="Name a category of the gold labels or the ratings, or pass labels=.",
            )
        return positive, "given"
    if len(labels) == 2:
        return labels[1], "the second of the labels, sorted or as declared"
    return None, ""


def _undefined(measures: dict[str, Triple], positive: Any) -> None:
    """Warn, with the reason, for each two-category measure whose estimate is nan."""
    reasons = {
        "sensitivity": f"the gold labels have no {positive!r} item",
        "specificity": f"every gold label is {positive!r}",
        "ppv": f"the rating never says {positive!r}",
        "npv": f"the rating says {positive!r} for every item",
    }
    for name, why in reasons.items():
        if math.isnan(measures[name][0]):
            warnings.warn(
                f"{_FUNC}: the {name} is undefined (nan) because {why}.",
                UndefinedKappaWarning,
                stacklevel=3,
            )


def _unused(values: tuple[Any, ...], table: np.ndarray) -> None:
    """Warn for the categories whose precision (never said) or recall (never gold) is nan."""
    for axis, what, why in (
        (0, "precision", "the rating never says"),
        (1, "recall", "no gold label is"),
    ):
        unused = [values[j] for j in np.flatnonzero(table.sum(axis=axis) == 0)]
        if unused:
            warnings.warn(
                f"{_FUNC}: the {what} of {', '.join(map(repr, unused))} is undefined (nan) "
                f"because {why} {'it' if len(unused) == 1 else 'them'}; the macro means "
                "leave it out.",
                UndefinedKappaWarning,
                stacklevel=3,
            )


def diagnostic_accuracy(
    truth: Any,
    rating: Any,
    /,
    *,
    positive: Any = None,
    labels: Any = None,
    confidence_level: float = 0.95,
    method: str = "exact",
) -> DiagnosticResult:
    """How accurate a rater (an LLM judge, a test) is against gold labels.

    Parameters
    ----------
    truth : array-like, shape (n,)
        The gold labels (a pandas Series pairs with ``rating`` by index).
    rating : array-like, shape (n,)
        The rater's labels of the same items.
    positive : optional
        The positive category of the two-category measures. Without it, for
        two categories, the second of the labels (as declared, else sorted),
        as elsewhere in concord; the result says which. With more than two
        categories it makes the measures one-against-the-rest.
    labels : sequence, optional
        The categories, in order: a declared category nobody used stays in
        the confusion matrix.
    confidence_level : float
        The intervals' level.
    method : {"exact", "wilson"}
        The proportions' intervals: Clopper–Pearson ("exact", as epiR's
        default; needs scipy, the ``stats`` extra) or Wilson's score interval.

    Returns
    -------
    DiagnosticResult
        ``statistic`` is the accuracy. With a positive category: ``TP``,
        ``FP``, ``FN``, ``TN``, and each measure of epiR's ``epi.tests`` by
        name (``sensitivity``, ``specificity``, ``ppv``, ``npv``,
        ``accuracy``, ``prevalence``, ``apparent_prevalence``,
        ``lr_positive``, ``lr_negative``, ``diagnostic_odds_ratio``,
        ``youden``) with ``interval(name)``; ``true_prevalence()``; always
        per class precision, recall, F1 with intervals, their macro means,
        and ``confusion_frame()`` with the labels.

    Warns
    -----
    UndefinedKappaWarning
        For a measure that is 0/0, with the reason: a judge that never says
        the positive category has no PPV; gold with no positive item, no
        sensitivity. The value is nan; nothing raises.

    Notes
    -----
    Likelihood ratios take Simel et al.'s (1991) log intervals, the odds
    ratio Woolf's; Youden's J's interval combines the bounds of sensitivity
    and specificity, as epiR does (it is not a coverage-guaranteed
    interval). Per class, precision and recall take the binomial interval
    of ``method``; F1 = 2TP/(2TP + FP + FN) the delta method over the
    multinomial counts (Wald), clipped to [0, 1]. Micro precision, recall
    and F1 equal the accuracy (one label per item); macro means have no
    interval. A category the rater never uses has precision nan (its
    recall is 0), left out of the macro means.

    References
    ----------
    Stevenson, M. et al. epiR: tools for the analysis of epidemiological
    data, ``epi.tests``. https://CRAN.R-project.org/package=epiR

    Simel, D. L., Samsa, G. P. & Matchar, D. B. (1991). Likelihood ratios
    with confidence: sample size estimation for diagnostic test studies.
    J Clin Epidemiol 44(8), 763-770.

    Rogan, W. J. & Gladen, B. (1978). Estimating prevalence from the results
    of a screening test. Am J Epidemiol 107(1), 71-76.

    Examples
    --------
    epiR's ``epi.tests`` example 1 (Scott et al. 2008, table 1): TP 670,
    FP 202, FN 74, TN 640.

    >>> import concord
    >>> truth = [1] * 670 + [0] * 202 + [1] * 74 + [0] * 640
    >>> judge = [1] * 670 + [1] * 202 + [0] * 74 + [0] * 640
    >>> r = concord.diagnostic_accuracy(truth, judge)
    >>> r.TP, r.FP, r.FN, r.TN
    (670, 202, 74, 640)
    >>> round(r.sensitivity, 3), [round(b, 3) for b in r.interval("sensitivity")]
    (0.901, [0.877, 0.921])
    >>> round(r.lr_positive, 2), [round(b, 2) for b in r.interval("lr_positive")]
    (3.75, [3.32, 4.24])
    """
    level = check_level(confidence_level, _FUNC)
    method = _check_method(method)
    counted = confusion_table(
        truth, rating, labels=labels, nan_policy="raise", sample_weight=None, func=_FUNC
    )
    values, table = counted.labels.values, np.asarray(counted.table, dtype=np.int64)
    positive, said = _positive(values, positive)
    hits = int(np.trace(table))
    n = int(table.sum())
    measures: dict[str, Triple] = {}
    if positive is not None:
        p = values.index(positive)
        tp, said_pos, gold_pos = int(table[p, p]), int(table[:, p].sum()), int(table[p].sum())
        fp, fn = said_pos - tp, gold_pos - tp
        measures = binary_measures(tp, fp, fn, n - tp - fp - fn, level, method)
        _undefined(measures, positive)
    else:
        _unused(values, table)
    classes = per_class(table, level, method)
    macro = {}
    for name, rows in classes.items():
        finite = rows[:, 0][~np.isnan(rows[:, 0])]
        macro[name] = float(finite.mean()) if finite.size else math.nan
    return DiagnosticResult(
        statistic=hits / n if n else math.nan,
        labels=values,
        confusion=table,
        positive=positive,
        positive_said=said,
        measures=measures,
        per_class=classes,
        macro=macro,
        accuracy_interval=proportion_interval(hits, n, level, method),
        method=method,
        confidence_level=level,
    )
