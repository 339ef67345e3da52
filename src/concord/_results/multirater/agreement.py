"""The result object of the multi-rater agreement coefficients."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from concord._common import text as _explain
from concord._inference.intervals import Deferred, InferenceMixin
from concord._results import interpret as _scales
from concord._results.described import Described
from concord._results.html import HTML
from concord._results.kappa.kappa import KappaResult
from concord._results.multirater.kalpha import KalphaMixin
from concord._results.protocol import Reported
from concord._results.sentence import Sentence
from concord._results.spec import Spec
from concord._results.tidy import Tidy


@dataclass(frozen=True, eq=False, repr=False)
class AgreementResult(InferenceMixin, Described, Tidy, Sentence, HTML, Reported):
    """A multi-rater agreement coefficient and what it was computed from.

    Attributes
    ----------
    statistic : float
        The coefficient, (p_a − p_e) / (1 − p_e); nan when undefined (see
        :class:`~concord.UndefinedKappaWarning`). ``float(result)`` gives it.
    observed_agreement, chance_agreement : float
        p_a and p_e, with agreement weights 1 − W / max W (Gwet 2014).
    labels : tuple
        The q categories, in order.
    weights : numpy.ndarray
        W, shape (q, q): the disagreement weights (Krippendorff: δ²).
    weighting : str
        'unweighted', the name of the weight family, 'custom', or
        Krippendorff's level.
    n_items : int
        Items with at least one rating (items nobody rated are dropped).
    n_raters : int or None
        Raters (columns); None for the count form.
    coefficient : str
        The function that computed it, e.g. 'fleiss_kappa'.
    category_totals : numpy.ndarray
        Ratings per category over all items, shape (q,).
    standard_error, pvalue : float
        Gwet's (2014) design-based SE (conditional on the raters) and the
        two-sided p-value for H0: coefficient = 0; see each function's docstring.

    Methods
    -------
    confidence_interval(confidence_level=0.95, *, method=None, n_resamples=9999, rng=None)
        A :class:`ConfidenceInterval` (low, high).
    bootstrap(n_resamples=9999, *, rng=None)
        The coefficient on bootstrap resamples of the items.
    """

    statistic: float
    observed_agreement: float
    chance_agreement: float
    labels: tuple[Any, ...]
    weights: np.ndarray
    weighting: str
    n_items: int
    n_raters: int | None
    coefficient: str
    category_totals: np.ndarray
    _inference: Deferred | None = field(default=None, repr=False)
    _spec: Spec | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.weights.setflags(write=False)
        self.category_totals.setflags(write=False)

    def __float__(self) -> float:
        return float(self.statistic)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(coefficient={self.coefficient!r}, "
            f"statistic={self.statistic:.6g}, weighting={self.weighting!r}, "
            f"n_items={self.n_items}, k={len(self.labels)})"
        )

    def _steps(self) -> list[str]:
        num = _explain.number
        totals = self.category_totals
        shares = totals / totals.sum() if totals.sum() else totals
        lines = [
            "1. Ratings per category (all items), and their share",
            "    "
            + "   ".join(
                f"{v}: {num(t)} ({s:.3g})"
                for v, t, s in zip(self.labels, totals, shares, strict=True)
            ),
        ]
        if self.weighting != "unweighted":
            lines += [
                "",
                "2. Weight matrix W (disagreement, 0 on the diagonal)",
                _explain.matrix(self.weights, self.labels),
            ]
        return lines

    def explain(self) -> str:
        """Return the computation step by step: the category shares, W, p_a, p_e and the value."""
        num = _explain.number
        raters = f", {self.n_raters} raters" if self.n_raters is not None else ""
        head = (
            f"{self.name}, {self.weighting}: {self.n_items} items{raters}, "
            f"{len(self.labels)} categories"
        )
        return "\n".join(
            [
                head,
                "",
                *self._steps(),
                "",
                f"Observed agreement p_a = {num(self.observed_agreement)}",
                f"Chance agreement   {self._described.chance} = {num(self.chance_agreement)}",
                f"{self.name} = (p_a − p_e) / (1 − p_e) = {num(self.statistic)}",
                *self._uncertainty(),
                _scales.interpretation_line(self.statistic, self._described),
            ]
        )


@dataclass(frozen=True, eq=False, repr=False)
class FleissResult(AgreementResult):
    """Fleiss' kappa, with the kappa of each category against all others (Fleiss 1971).

    Attributes
    ----------
    category_kappas : dict
        Label → the kappa of that category against the others combined
        (R irr's ``kappam.fleiss(detail=TRUE)``).
    """

    category_kappas: Mapping[Any, float] = field(default_factory=dict)


@dataclass(frozen=True, eq=False, repr=False)
class LightResult(AgreementResult):
    """Light's kappa, the mean of every pair of raters' Cohen kappas.

    ``observed_agreement`` and ``chance_agreement`` are the means of the
    pairwise values, so here the statistic is not (p_a − p_e)/(1 − p_e).

    Attributes
    ----------
    pairwise : dict
        (rater, rater) → :class:`KappaResult` on the items both rated.
    """

    pairwise: Mapping[tuple[Any, Any], KappaResult] = field(default_factory=dict)


@dataclass(frozen=True, eq=False, repr=False)
class KrippendorffResult(KalphaMixin, AgreementResult):
    """Krippendorff's alpha, with its coincidence matrix and disagreements.

    Attributes
    ----------
    level : str
        'nominal', 'ordinal', 'interval', 'ratio' or 'custom'.
    observed_disagreement, expected_disagreement : float
        D_o and D_e, so that α = 1 − D_o / D_e.
    coincidences : numpy.ndarray or None
        The q×q coincidence matrix o_ck (Krippendorff 2011); None when it
        was not formed (continuous data with very many values).
    n_pairable : int
        n.., the number of pairable values (ratings of items rated twice or more).
    distances : numpy.ndarray or None
        The q×q δ²_ck in the metric's own units, those of D_o and D_e
        (``weights`` is δ² scaled to a maximum of 1); None with
        ``coincidences``.

    Methods
    -------
    confidence_interval(..., method="kalpha")
        Hayes & Krippendorff's (2007) bootstrap of pairable values.
    q(alpha_min=(0.9, 0.8, 0.7, 0.667, 0.6, 0.5))
        The probability that alpha is below each threshold (same bootstrap).
    """

    level: str = "nominal"
    observed_disagreement: float = float("nan")
    expected_disagreement: float = float("nan")
    coincidences: np.ndarray | None = None
    n_pairable: int = 0
    distances: np.ndarray | None = None

    def _steps(self) -> list[str]:
        num = _explain.number
        n = self.n_pairable
        lines = [f"1. Pairable values n.. = {n}"]
        d_o, d_e = self.observed_disagreement, self.expected_disagreement
        if self.coincidences is None or self.distances is None:
            return [
                *lines,
                "",
                f"D_o = Σ o_ck δ²_ck / n.. = {num(d_o)}",
                f"D_e = Σ n_c n_k δ²_ck / (n.. (n.. − 1)) = {num(d_e)}",
                f"α = 1 − D_o / D_e = {num(self.statistic)}",
            ]
        # enough digits that D_o and D_e follow from the printed o_ck, n_c and δ²_ck
        totals = self.coincidences.sum(axis=1)
        return [
            *lines,
            "",
            "2. Coincidence matrix o_ck and its totals n_c = Σ_k o_ck",
            _explain.matrix(self.coincidences, self.labels, digits=10),
            "    n_c: "
            + ", ".join(f"{v}: {num(t, 10)}" for v, t in zip(self.labels, totals, strict=True)),
            "",
            f"3. Distances δ²_ck ({self.level} metric)",
            _explain.matrix(self.distances, self.labels, digits=10),
            "",
            f"D_o = Σ o_ck δ²_ck / n.. = {num(d_o * n, 10)} / {n} = {num(d_o, 10)}",
            f"D_e = Σ n_c n_k δ²_ck / (n.. (n.. − 1)) = {num(d_e * n * (n - 1), 10)} / "
            f"({n} · {n - 1}) = {num(d_e, 10)}",
            f"α = 1 − D_o / D_e = {num(self.statistic)}",
        ]
