"""One sentence for the paper: a result in the style of the APA (7th edition).

``result.summary()`` reads, for the README's ten pairs::

    Cohen's κ with quadratic weights was 0.47 (95% CI −0.23 to 0.85, Fisher's z;
    n = 10 pairs), moderate agreement on the Landis–Koch scale.

Choices, where the APA manual leaves room:

* Two decimals and a true minus sign (APA 7th §6.36, §6.40). APA drops the
  zero before the decimal point for values that cannot exceed 1; kappa-type
  coefficients cannot, but they can be negative and are often read beside
  percentages, so concord keeps the zero ("0.47"), as the medical journals do.
* The interval names its level and method; the sample names its unit: pairs
  for two raters, items and raters (and missing ratings) for many.
* The interpretation is the coefficient's default scale (its ``Spec``), named
  after its authors; percent agreement has none, so the clause is left out.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from concord._common import text as _text
from concord._results import interpret as _scales
from concord._results.spec import Spec

# the interval methods as a methods section names them
METHODS = {
    "fisher-z": "Fisher's z",
    "wald": "Wald",
    "t": "Student's t",
    "bootstrap-percentile": "percentile bootstrap",
    "bootstrap-bca": "BCa bootstrap",
}

# the two raters' names when the data gives none
_TWO = ("rater1", "rater2")

# the Greek letters the literature writes for the coefficients' names
_SYMBOLS = {"kappa": "κ", "pi": "π", "alpha": "α"}


def decimal(x: float, digits: int = 2) -> str:
    """Return ``x`` rounded to ``digits`` decimals, with a true minus sign and no −0.00.

    >>> decimal(-0.2324), decimal(0.8528), decimal(-0.001)
    ('−0.23', '0.85', '0.00')
    """
    shown = f"{x:.{digits}f}"
    if float(shown) == 0:
        shown = shown.lstrip("-")
    return shown.replace("-", "−")


def symbol(spec: Spec, weighting: str) -> str:
    """Return the coefficient's name with its Greek letter: "Cohen's κ", "Krippendorff's α"."""
    words = spec.display_for(weighting).replace("-", "–").split(" ")
    return " ".join(_SYMBOLS.get(w, w) for w in words)


def _subject(spec: Spec, weighting: str, metric: bool) -> str:
    name = symbol(spec, weighting)
    if metric:  # Krippendorff's alpha: the weighting is its level of measurement
        article = "a" if weighting == "custom" else "the"
        return f"{name} with {article} {weighting} metric"
    if weighting == "unweighted":
        # Gwet's AC1 says so in its name; elsewhere "unweighted" tells it from weighted κ
        return name if spec.display_weighted else f"Unweighted {lower_first(name)}"
    return f"{name} with {weighting} weights"


def lower_first(text: str) -> str:
    """Lowercase a leading common noun ("Percent agreement"), never a name ("Cohen's κ")."""
    first = text.split(" ", 1)[0]
    if first[1:].islower() and first.isalpha():
        return text[0].lower() + text[1:]
    return text


def level(confidence_level: float) -> str:
    """Return a confidence level as a percentage: 0.95 → '95%'."""
    return f"{round(100 * confidence_level, 6):g}%"


def sample(result: Any) -> str:
    """Return the sample: "n = 10 pairs", or "n = 5 items, 3 raters, 2 missing ratings"."""
    if hasattr(result, "observed"):  # two raters, named when the data named them
        raters = tuple(getattr(result, "raters", _TWO))
        named = "" if raters == _TWO else f" of {raters[0]} and {raters[1]}"
        return f"n = {_text.number(result.n)} pairs{named}"
    parts = [f"n = {result.n_items} items"]
    if result.n_raters is not None:
        parts.append(f"{result.n_raters} raters")
        missing = result.n_items * result.n_raters - int(np.sum(result.category_totals))
        if missing > 0:
            parts.append(f"{missing} missing rating{'s' if missing != 1 else ''}")
    return ", ".join(parts)


def _why_undefined(result: Any) -> str:
    if getattr(result, "n_pairable", None) == 0:
        return "no item has two ratings"
    if np.count_nonzero(result.category_totals) <= 1:
        return "no variation: every rating is in one category"
    chance = getattr(result, "chance_agreement", None)
    if chance is not None and chance != chance:  # nan: Conger's kappa with a silent rater
        return "a rater rated no item, so chance agreement is undefined"
    return "chance agreement is 1"


def write(
    result: Any,
    confidence_level: float,
    method: str | None,
    interval: tuple[float, float],
    digits: int = 2,
) -> str:
    """Return the sentence of ``result`` with a computed ``interval`` (its ``method``)."""
    spec = result._described
    subject = _subject(spec, result.weighting, hasattr(result, "level"))
    n = sample(result)
    if not math.isfinite(result.statistic):
        return f"{subject} was undefined ({_why_undefined(result)}; {n})."
    low, high = interval
    chosen = METHODS.get(method or result.interval_method, method)
    ci = f"{level(confidence_level)} CI {decimal(low, digits)} to {decimal(high, digits)}"
    if not (math.isfinite(low) and math.isfinite(high)):
        ci = f"{level(confidence_level)} CI not available"
    head = f"{subject} was {decimal(result.statistic, digits)} ({ci}, {chosen}; {n})"
    return head + _reading(result.statistic, spec)


def _reading(value: float, spec: Spec) -> str:
    """Return the sentence's end: its reading on the default scale, named by its authors."""
    scale = spec.scale
    if scale is None or not math.isfinite(value):
        return "."
    reading = _scales.interpret(value, scale, "summary")
    author = _scales.SOURCES[scale].rsplit(" ", 1)[0].replace(" & ", "–")
    return f", {reading} agreement on the {author} scale."


class Sentence:
    """``summary()``: the result as one sentence in APA style."""

    def summary(
        self,
        confidence_level: float = 0.95,
        *,
        method: str | None = None,
        rng: Any = None,
        digits: int = 2,
    ) -> str:
        """Return the result as one sentence for a paper, in APA style.

        The statistic with its confidence interval (the result's own
        ``confidence_interval()``), the interval's method, the sample, and
        the interpretation on the coefficient's default benchmark scale.

        Parameters
        ----------
        confidence_level : float
            In (0, 1); default 0.95.
        method : str, optional
            The interval method, as in ``confidence_interval``; default the
            coefficient's own (``interval_method``).
        rng : None, int or numpy.random.Generator
            Seed or generator for a bootstrap interval.
        digits : int
            Decimals of the statistic and the interval; APA: 2.

        Returns
        -------
        str

        Examples
        --------
        The README's ten pairs:

        >>> import concord
        >>> gold = [3, 2, 1, 3, 2, 3, 1, 2, 3, 1]
        >>> model = [3, 2, 1, 2, 2, 3, 3, 2, 3, 2]
        >>> concord.cohen_kappa(gold, model, weights="quadratic").summary()
        "Cohen's κ with quadratic weights was 0.47 (95% CI −0.23 to 0.85, Fisher's z; n = 10 pairs), moderate agreement on the Landis–Koch scale."
        """  # noqa: E501
        result: Any = self
        interval = result.confidence_interval(confidence_level, method=method, rng=rng)
        return write(result, confidence_level, method, interval, digits)


class ThresholdSentence:
    """``summary()`` of fitted cut points: the kappa they reach, marked in-sample."""

    def summary(
        self,
        confidence_level: float = 0.95,
        *,
        method: str | None = None,
        rng: Any = None,
        digits: int = 2,
    ) -> str:
        """Return the in-sample kappa at the fitted cut points as one sentence (APA style).

        The kappa's own sentence (``kappa.summary()``), marked in-sample: the
        cut points were fitted to the same data, so report the
        cross-validated kappa (:func:`cross_validated_kappa`) beside it.
        """
        result: Any = self
        told = result.kappa.summary(confidence_level, method=method, rng=rng, digits=digits)
        return f"In-sample, at cut points fitted to these data, {lower_first(told)}"


class FoldsSentence:
    """``summary()`` of a cross-validated kappa: the out-of-fold value, folds and optimism."""

    def summary(self, *, digits: int = 2) -> str:
        """Return the cross-validated kappa as one sentence (APA style).

        Examples
        --------
        >>> import concord
        >>> truth, scores = [1, 1, 2, 2, 3, 3] * 4, list(range(24))
        >>> cv = concord.cross_validated_kappa(truth, scores, cv=3, rng=0)
        >>> cv.summary()  # doctest: +ELLIPSIS
        'Cross-validated κ was ... (3 folds, fold κ ... to ...; in-sample ..., optimism ...).'
        """
        result: Any = self
        folds = result.fold_kappas
        finite = folds[np.isfinite(folds)]
        spread = (
            f", fold κ {decimal(finite.min(), digits)} to {decimal(finite.max(), digits)}"
            if finite.size
            else ""
        )
        return (
            f"Cross-validated κ was {decimal(result.statistic, digits)} ({folds.size} folds"
            f"{spread}; in-sample {decimal(result.in_sample, digits)}, "
            f"optimism {decimal(result.optimism, digits)})."
        )


class GroupedSentence:
    """``summary()`` of per-group kappas: their Fisher-z mean, range and reading."""

    def summary(self, confidence_level: float = 0.95, *, digits: int = 2) -> str:
        """Return the Fisher-z mean of the group kappas as one sentence (APA style).

        With its Fisher-z interval (:meth:`GroupedKappaResult.confidence_interval`).
        """
        result: Any = self
        groups = list(result.results.values())
        first = groups[0]
        spec = first._described
        values = np.array([g.statistic for g in groups], dtype=float)
        finite = values[np.isfinite(values)]
        spread = (
            f"group values {decimal(finite.min(), digits)} to {decimal(finite.max(), digits)}; "
            if finite.size
            else ""
        )
        low, high = result.confidence_interval(confidence_level)
        interval = (
            f"{level(confidence_level)} CI {decimal(low, digits)} to {decimal(high, digits)}, "
            "Fisher's z; "
            if math.isfinite(low) and math.isfinite(high)
            else ""
        )
        n = sum(g.n for g in groups)
        head = (
            f"The Fisher-z mean of {lower_first(_subject(spec, first.weighting, False))} over "
            f"{len(groups)} groups of {result.by} was {decimal(result.statistic, digits)} "
            f"({interval}{spread}n = {_text.number(n)} pairs)"
        )
        return head + _reading(result.statistic, spec)
