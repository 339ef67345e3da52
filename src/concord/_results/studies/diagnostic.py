"""The result of :func:`concord.diagnostic_accuracy`: :class:`DiagnosticResult`."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from concord._common.errors import UndefinedKappaWarning
from concord._common.extras import require
from concord._common.jsonable import jsonable
from concord._inference.proportions import proportion_interval
from concord._results.html import number, page, table, text
from concord._results.protocol import Reported

#: The two-category measures, in epiR ``epi.tests``' order, with their names in words.
BINARY = {
    "apparent_prevalence": "apparent prevalence (judge's positive share)",
    "prevalence": "true prevalence (gold's positive share)",
    "sensitivity": "sensitivity",
    "specificity": "specificity",
    "ppv": "positive predictive value",
    "npv": "negative predictive value",
    "accuracy": "accuracy (correctly classified)",
    "lr_positive": "positive likelihood ratio",
    "lr_negative": "negative likelihood ratio",
    "diagnostic_odds_ratio": "diagnostic odds ratio",
    "youden": "Youden's J",
}
PER_CLASS = ("precision", "recall", "f1")


class TruePrevalence(NamedTuple):
    """The Rogan–Gladen prevalence: the judge's positive share corrected for its errors."""

    statistic: float
    ci_low: float
    ci_high: float
    apparent: float
    sensitivity: float
    specificity: float


def rogan_gladen(apparent: float, sensitivity: float, specificity: float) -> float:
    """(AP + Sp − 1) / (Se + Sp − 1), clipped to [0, 1]; nan when Se + Sp ≤ 1."""
    youden = sensitivity + specificity - 1
    if not youden > 0:
        return math.nan
    return min(max((apparent + specificity - 1) / youden, 0.0), 1.0)


@dataclass(frozen=True, eq=False, repr=False)
class DiagnosticResult(Reported):
    """A rater (an LLM judge, a test) against gold labels, as epiR's ``epi.tests``.

    ``statistic`` is the accuracy, the share of items on which the rating is
    the gold label: the headline for any number of categories (for one
    label per item it is also micro precision, recall and F1).

    Attributes
    ----------
    statistic : float
        The accuracy.
    labels : tuple
        The categories, in order (the confusion matrix's rows and columns).
    confusion : numpy.ndarray
        ``confusion[i, j]`` counts gold = labels[i] and rating = labels[j].
    positive : object or None
        The positive category of the two-category measures (None: more than
        two categories and no ``positive=``).
    measures : dict
        For a positive category: each of :data:`BINARY`'s measures as
        (estimate, ci_low, ci_high); empty otherwise.
    per_class : dict
        "precision", "recall", "f1": arrays of shape (k, 3), per category
        (estimate, ci_low, ci_high).
    macro : dict
        The unweighted means of precision, recall and F1 over the categories
        that have them (no interval).
    method, confidence_level :
        The interval method ("exact": Clopper–Pearson; "wilson") and level.
    """

    statistic: float
    labels: tuple[Any, ...]
    confusion: np.ndarray
    positive: Any
    positive_said: str
    measures: dict[str, tuple[float, float, float]]
    per_class: dict[str, np.ndarray]
    macro: dict[str, float]
    accuracy_interval: tuple[float, float]
    method: str
    confidence_level: float

    def __post_init__(self) -> None:
        self.confusion.setflags(write=False)

    @property
    def n(self) -> int:
        """The number of items with a gold label and a rating."""
        return int(self.confusion.sum())

    def _cell(self, gold: bool, said: bool) -> int:
        if self.positive is None:
            raise AttributeError("TP, FP, FN and TN need a positive category: pass positive=")
        p = self.labels.index(self.positive)
        rows = self.confusion[p] if gold else np.delete(self.confusion, p, axis=0).sum(axis=0)
        return int(rows[p] if said else rows.sum() - rows[p])

    @property
    def TP(self) -> int:
        """Gold positive, rated positive."""
        return self._cell(True, True)

    @property
    def FP(self) -> int:
        """Gold negative, rated positive."""
        return self._cell(False, True)

    @property
    def FN(self) -> int:
        """Gold positive, rated negative."""
        return self._cell(True, False)

    @property
    def TN(self) -> int:
        """Gold negative, rated negative."""
        return self._cell(False, False)

    def __getattr__(self, name: str) -> float:
        # sensitivity, specificity, ppv, ...: the estimate of a two-category measure
        measures = self.__dict__.get("measures", {})
        if name in measures:
            return float(measures[name][0])
        if name in _COUNTS:  # a property's AttributeError comes here: say it again
            raise AttributeError("TP, FP, FN and TN need a positive category: pass positive=")
        if name in BINARY and "measures" in self.__dict__:
            raise AttributeError(
                f"{name!r} is a two-category measure: pass positive= to name the positive "
                "category (the per-class measures are in per_class)"
            )
        raise AttributeError(f"'DiagnosticResult' object has no attribute {name!r}")

    def interval(self, measure: str) -> tuple[float, float]:
        """Return the (ci_low, ci_high) of a measure of :data:`BINARY` or of the accuracy."""
        if measure == "accuracy" and measure not in self.measures:
            return self.accuracy_interval
        if measure not in self.measures:
            raise KeyError(f"{measure!r}: the measures are {', '.join(self.measures)}")
        return self.measures[measure][1], self.measures[measure][2]

    def true_prevalence(
        self, sensitivity: float | None = None, specificity: float | None = None
    ) -> TruePrevalence:
        """Return the Rogan–Gladen (1978) prevalence of the positive category, clipped to [0, 1].

        (AP + Sp − 1) / (Se + Sp − 1), where AP is the judge's apparent
        prevalence (its positive share) and Se, Sp its sensitivity and
        specificity: this result's, or those passed (from a validation
        study). The interval is the apparent prevalence's interval (this
        result's method: Clopper–Pearson or Wilson) carried through the same
        correction, Se and Sp taken as known, as R epiR's ``epi.prev``; it
        leaves out the uncertainty of Se and Sp. nan, with an
        :class:`UndefinedKappaWarning`, when Se + Sp ≤ 1.
        """
        if self.positive is None:
            raise ValueError("true_prevalence needs a positive category: pass positive=")
        se = self.measures["sensitivity"][0] if sensitivity is None else float(sensitivity)
        sp = self.measures["specificity"][0] if specificity is None else float(specificity)
        said = self.TP + self.FP
        apparent = said / self.n
        low, high = proportion_interval(said, self.n, self.confidence_level, self.method)
        if not se + sp > 1:
            warnings.warn(
                f"The true prevalence is undefined (nan): sensitivity + specificity is "
                f"{se + sp:.3g}, not above 1, so the judge's labels say nothing about it.",
                UndefinedKappaWarning,
                stacklevel=2,
            )
        bounds = (rogan_gladen(low, se, sp), rogan_gladen(high, se, sp))
        return TruePrevalence(rogan_gladen(apparent, se, sp), *bounds, apparent, se, sp)

    def rows(self) -> list[dict[str, Any]]:
        """Return the tidy rows: the two-category measures, then per class, macro and micro."""
        out = [
            {"measure": name, "class": None, "statistic": v[0], "ci_low": v[1], "ci_high": v[2]}
            for name, v in self.measures.items()
        ]
        for name in PER_CLASS:
            for label, (est, low, high) in zip(self.labels, self.per_class[name], strict=True):
                row = {"measure": name, "class": label, "statistic": est}
                out.append({**row, "ci_low": low, "ci_high": high})
        for name, value in self.macro.items():
            out.append({"measure": f"macro_{name}", "class": None, "statistic": value})
        low, high = self.accuracy_interval
        micro = {"statistic": self.statistic, "ci_low": low, "ci_high": high}
        out.extend({"measure": f"micro_{n}", "class": None, **micro} for n in PER_CLASS)
        base = {"coefficient": "diagnostic_accuracy", "measure": "", "class": None}
        nan = {"statistic": math.nan, "ci_low": math.nan, "ci_high": math.nan, "n": self.n}
        return [{**base, **nan, **row} for row in out]

    def _rows_(self) -> list[dict[str, Any]]:
        return list(self.rows())

    def confusion_frame(self) -> Any:
        """Return the confusion matrix with the labels: rows gold, columns the rating."""
        pd = require("pandas", "pandas", "DiagnosticResult.confusion_frame")

        names = [str(v) for v in self.labels]
        return pd.DataFrame(
            self.confusion,
            index=pd.Index(names, name="gold"),
            columns=pd.Index(names, name="rating"),
        )

    def to_dict(self) -> dict[str, Any]:
        """Return the result as JSON-ready values (nan and ±inf are None)."""
        counts = {} if self.positive is None else {c: getattr(self, c) for c in _COUNTS}
        return dict(
            jsonable(
                {
                    "coefficient": "diagnostic_accuracy",
                    "statistic": self.statistic,
                    "n": self.n,
                    "method": self.method,
                    "confidence_level": self.confidence_level,
                    "labels": [str(v) for v in self.labels],
                    "positive": None if self.positive is None else str(self.positive),
                    "counts": counts,
                    "confusion": self.confusion,
                    "rows": self.rows(),
                }
            )
        )

    def summary(self) -> str:
        """One sentence: the accuracy, and sensitivity and specificity for a positive class."""
        low, high = self.accuracy_interval
        level = f"{self.confidence_level:.0%}"
        out = (
            f"Against the gold labels the rating is right on {self.statistic:.1%} of "
            f"{self.n:,} items ({level} CI {low:.1%} to {high:.1%})"
        )
        if self.positive is None:
            f1 = self.macro.get("f1", math.nan)
            return f"{out}; its macro F1 over {len(self.labels)} categories is {f1:.3f}."
        se, sp = self.measures["sensitivity"], self.measures["specificity"]
        return (
            f"{out}; with {self.positive!r} as positive its sensitivity is {_est(se)} "
            f"and its specificity {_est(sp)}."
        )

    def explain(self) -> str:
        """Return the computation: the counts, each measure with its interval, and the method."""
        method = "Clopper-Pearson (exact)" if self.method == "exact" else "Wilson score"
        lines = [f"{self.n:,} items; {self.confidence_level:.0%} intervals: {method}."]
        if self.positive is not None:
            lines.append(f"Positive category {self.positive!r} ({self.positive_said}).")
            lines.append(
                f"TP {self.TP:,}  FP {self.FP:,}  FN {self.FN:,}  TN {self.TN:,} "
                "(rows: gold; T = the rating agrees with gold)"
            )
            lines += [f"  {BINARY[k]:<45} {_est(v)}" for k, v in self.measures.items()]
        lines.append("Per category (precision, recall, F1):")
        for i, label in enumerate(self.labels):
            parts = "  ".join(_est(self.per_class[m][i]) for m in PER_CLASS)
            lines.append(f"  {label!s:<20} {parts}")
        macro = ", ".join(f"{k} {v:.3f}" for k, v in self.macro.items())
        lines.append(f"Macro means: {macro}; micro precision = recall = F1 = the accuracy.")
        lines.append(
            "LR intervals: Simel et al. (1991); the odds ratio's: Woolf's log interval; "
            "Youden's J: the bounds of sensitivity and specificity combined, as epiR; "
            "F1: the delta method (Wald), clipped to [0, 1]."
        )
        return "\n".join(lines)

    def __repr__(self) -> str:
        pos = "" if self.positive is None else f", positive={self.positive!r}"
        return (
            f"DiagnosticResult(accuracy={self.statistic:.4g}, n={self.n}, "
            f"k={len(self.labels)}{pos}, method={self.method!r})"
        )

    def _repr_html_(self) -> str:
        rows = [
            [
                text(r["measure"]),
                text("" if r["class"] is None else r["class"]),
                number(r["statistic"]),
                f"{number(r['ci_low'])} to {number(r['ci_high'])}",
            ]
            for r in self.rows()
        ]
        head = ["measure", "class", "estimate", f"{self.confidence_level:.0%} CI"]
        return page([f"<p>{text(self.summary())}</p>", table(head, rows)])


_COUNTS = ("TP", "FP", "FN", "TN")


def _est(value: Any) -> str:
    est, low, high = (float(v) for v in value)
    return f"{est:.3f} ({low:.3f} to {high:.3f})"
