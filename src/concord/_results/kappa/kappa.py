"""The result object of two-rater kappa statistics."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from concord._common import text as _explain
from concord._common.extras import require
from concord._inference.intervals import ConfidenceInterval, Deferred, InferenceMixin
from concord._results import interpret as _scales
from concord._results.described import Described
from concord._results.html import HTML
from concord._results.protocol import Reported
from concord._results.sentence import Sentence
from concord._results.spec import Spec
from concord._results.tidy import Tidy

# the coefficient of a KappaResult made without one; its repr does not repeat it
_DEFAULT = "cohen_kappa"


@dataclass(frozen=True, eq=False, repr=False)
class KappaResult(InferenceMixin, Described, Tidy, Sentence, HTML, Reported):
    """Cohen's kappa of two raters, with the tables it was computed from.

    Attributes
    ----------
    statistic : float
        κ = 1 − ΣW·O / ΣW·E; nan when ΣW·E = 0 (see
        :class:`~concord.UndefinedKappaWarning`). ``float(result)`` gives it too.
    observed : numpy.ndarray
        O, shape (k, k): ``observed[i, j]`` counts the items rater1 put in
        category i and rater2 in category j (sums of sample weights if given).
    expected : numpy.ndarray
        E, shape (k, k): the counts expected if the raters were independent,
        the outer product of the row and column totals divided by n. It has
        the same total as ``observed``.
    weights : numpy.ndarray
        W, shape (k, k): the disagreement weights (0 on the diagonal).
    labels : tuple
        The k categories, in the order of the rows and columns.
    n : int or float
        The number of rated pairs (the total weight with sample weights).
    observed_agreement, chance_agreement : float
        The weighted p_o and p_e, with agreement weights 1 − W / max W, so
        that κ = (p_o − p_e) / (1 − p_e).
    weighting : str
        'unweighted', the name of the weight family, or 'custom'.
    coefficient : str
        'cohen_kappa', or 'scott_pi' (chance from the pooled shares).
    standard_error, pvalue : float
        The large-sample SE (not under H0) and the two-sided p-value for
        H0: κ = 0; see :func:`cohen_kappa` and :func:`scott_pi`.
    raters : tuple of str
        The two raters' names: the Series' or columns' names when the data
        has them, else ("rater1", "rater2"). O's rows are the first's.

    Methods
    -------
    confidence_interval(confidence_level=0.95, *, method=None, n_resamples=9999, rng=None)
        A :class:`ConfidenceInterval` (low, high).
    bootstrap(n_resamples=9999, *, rng=None)
        κ on bootstrap resamples of the pairs.
    """

    statistic: float
    observed: np.ndarray
    expected: np.ndarray
    weights: np.ndarray
    labels: tuple[Any, ...]
    n: int | float
    observed_agreement: float
    chance_agreement: float
    weighting: str
    coefficient: str = _DEFAULT
    _inference: Deferred | None = field(default=None, repr=False)
    _spec: Spec | None = field(default=None, repr=False)
    raters: tuple[str, str] = field(default=("rater1", "rater2"), repr=False)

    def __post_init__(self) -> None:
        for name in ("observed", "expected", "weights"):
            getattr(self, name).setflags(write=False)

    def __float__(self) -> float:
        return float(self.statistic)

    def __repr__(self) -> str:
        kind = "" if self.coefficient == _DEFAULT else f"coefficient={self.coefficient!r}, "
        return (
            f"KappaResult({kind}statistic={self.statistic:.6g}, weighting={self.weighting!r}, "
            f"n={_explain.number(self.n)}, k={len(self.labels)})"
        )

    @property
    def kappa_max(self) -> float:
        """The largest value the raters' marginal totals allow (Cohen 1960).

        κ_max = (p_o,max − p_e) / (1 − p_e), where p_o,max is the largest
        weighted observed agreement of any table with these row and column
        totals: Σ_k min(r_k, c_k) / n unweighted; for linear, quadratic and
        ordinal weights the monotone (north-west corner) coupling of the
        sorted categories, which is optimal because these weights are convex
        in the distance; for other weights a linear programme (needs scipy).
        """
        from concord._results.kappa.kappa_max import kappa_max

        return kappa_max(self)

    def _two_by_two(self) -> tuple[float, float, float, float, float] | None:
        """Return (a, b, c, d, n) of a 2×2 table, the second category as "yes"; None if k ≠ 2."""
        if self.observed.shape != (2, 2):
            return None
        (d, c), (b, a) = self.observed.tolist()
        return a, b, c, d, float(self.n)

    @property
    def prevalence_index(self) -> float:
        """(a − d) / n for a 2×2 table (Byrt, Bishop & Carlin 1993); nan for k > 2.

        a counts the items both raters put in the second category (1, True,
        'yes'), d those both put in the first; the sign follows R epiR's
        ``epi.kappa`` with its first row as "yes".
        """
        cells = self._two_by_two()
        return float("nan") if cells is None else (cells[0] - cells[3]) / cells[4]

    @property
    def bias_index(self) -> float:
        """(b − c) / n for a 2×2 table (Byrt, Bishop & Carlin 1993); nan for k > 2.

        b counts rater1 "yes" (the second category) and rater2 "no", c the
        reverse: rater1's share of "yes" minus rater2's.
        """
        cells = self._two_by_two()
        return float("nan") if cells is None else (cells[1] - cells[2]) / cells[4]

    @property
    def pabak(self) -> float:
        """Prevalence- and bias-adjusted kappa 2 p_o − 1 of a 2×2 table; nan for k > 2.

        PABAK (Byrt, Bishop & Carlin 1993) is Brennan & Prediger's
        coefficient with q = 2 (:func:`brennan_prediger` of the same two
        raters); p_o is the unweighted share of agreement.
        """
        cells = self._two_by_two()
        return float("nan") if cells is None else 2 * (cells[0] + cells[3]) / cells[4] - 1

    def pabak_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """Return the exact interval of PABAK: 2 × the Clopper–Pearson interval of p_o − 1.

        As R epiR's ``epi.kappa`` computes it. nan for k > 2, and with sample
        weights (the binomial needs counts). Needs scipy.
        """
        cells = self._two_by_two()
        if cells is None or not np.issubdtype(self.observed.dtype, np.integer):
            return ConfidenceInterval(float("nan"), float("nan"))
        binomtest = require("scipy.stats", "stats", "KappaResult.pabak_interval").binomtest
        agree = round(cells[0] + cells[3])
        low, high = binomtest(agree, round(cells[4])).proportion_ci(confidence_level, "exact")
        return ConfidenceInterval(2 * low - 1, 2 * high - 1)

    def contributions(self) -> Contributions:
        """Return where the kappa is lost: each confusion's part of the weighted disagreement.

        Since κ = 1 − ΣW·O / ΣW·E, the cell (i, j) costs (W·O)_ij / ΣW·E of
        kappa, and these losses add up to 1 − κ. Compare each confusion's
        share of the observed disagreement with its share under chance.

        Returns
        -------
        Contributions
            ``loss``, ``observed`` and ``expected`` (k×k) and ``ranked()``.

        Examples
        --------
        Seed 000's grades shifted by one: every disagreement is a +1 confusion.

        >>> import concord
        >>> r = concord.cohen_kappa([1, 1, 1, 2, 2, 2], [2, 2, 2, 3, 3, 3], weights="quadratic")
        >>> [(a, b, round(loss, 4)) for a, b, loss, *_ in r.contributions().ranked()]
        [(1, 2, 0.3333), (2, 3, 0.3333)]
        """
        weighted_o = self.weights * self.observed
        weighted_e = self.weights * self.expected
        total_o, total_e = weighted_o.sum(), weighted_e.sum()
        with np.errstate(invalid="ignore", divide="ignore"):
            return Contributions(
                raters=self.raters,
                labels=self.labels,
                loss=weighted_o / total_e,
                observed=weighted_o / total_o if total_o > 0 else np.zeros_like(weighted_o),
                expected=weighted_e / total_e,
            )

    @property
    def n_items(self) -> int | float:
        """The number of rated items: for two raters, the number of pairs ``n``."""
        return self.n

    @property
    def category_totals(self) -> np.ndarray:
        """Ratings per category over both raters (row plus column totals of O), shape (k,)."""
        totals: np.ndarray = self.observed.sum(axis=0) + self.observed.sum(axis=1)
        return totals

    def explain(self) -> str:
        """Return the computation step by step: O, W, E, the two weighted sums and κ.

        Examples
        --------
        >>> import concord
        >>> r = concord.cohen_kappa([1, 1, 2, 2], [1, 2, 2, 2], weights="linear")
        >>> print(r.explain())  # doctest: +ELLIPSIS
        Cohen's kappa, linear weights: n = 4 pairs, k = 2 categories
        ...
        κ = 1 − ΣW·O / ΣW·E = 1 − 1 / 2 = 0.5
        ...
        """
        wo = float((self.weights * self.observed).sum())
        we = float((self.weights * self.expected).sum())
        num = _explain.number
        labels = self.labels
        weighting = "unweighted" if self.weighting == "unweighted" else f"{self.weighting} weights"
        lines = [
            f"{self.name}, {weighting}: n = {num(self.n)} pairs, k = {len(labels)} categories",
            "",
            f"1. Observed matrix O (rows: {self.raters[0]}, columns: {self.raters[1]})",
            _explain.matrix(self.observed, labels),
            "",
            "2. Weight matrix W (disagreement weights, 0 on the diagonal)",
            _explain.matrix(self.weights, labels),
            "",
            "3. Expected matrix E = (row totals ⊗ column totals) / n, as if the raters were "
            "independent",
            _explain.matrix(self.expected, labels),
            "",
            "4. Weighted disagreement",
            f"    ΣW·O = {num(wo)}    (observed)",
            f"    ΣW·E = {num(we)}    (expected by chance)",
            "",
            f"κ = 1 − ΣW·O / ΣW·E = 1 − {num(wo)} / {num(we)} = {num(self.statistic)}",
            f"  = (p_o − p_e) / (1 − p_e) with p_o = {num(self.observed_agreement)}, "
            f"p_e = {num(self.chance_agreement)}",
            *self._uncertainty(),
            _scales.interpretation_line(self.statistic, self._described),
        ]
        return "\n".join(lines)


@dataclass(frozen=True, eq=False)
class Contributions:
    """Where a kappa is lost: each cell's part of the weighted disagreement.

    Attributes
    ----------
    labels : tuple
        The categories (rows: the first rater, columns: the second).
    loss : numpy.ndarray
        (W·O)_ij / ΣW·E, shape (k, k): the kappa each confusion costs; sums to 1 − κ.
    observed : numpy.ndarray
        (W·O)_ij / ΣW·O: the share of the observed weighted disagreement.
    expected : numpy.ndarray
        (W·E)_ij / ΣW·E: the share it would have if the raters were independent.
    """

    labels: tuple[Any, ...]
    loss: np.ndarray
    observed: np.ndarray
    expected: np.ndarray
    raters: tuple[str, str] = ("rater1", "rater2")

    def ranked(self, top: int | None = None) -> list[tuple[Any, Any, float, float, float]]:
        """Return the confusions with a positive loss, costliest first.

        Each is (first rater's label, second rater's label, loss, observed share,
        expected share).
        """
        cells = np.argwhere(self.loss > 0)
        order = sorted(cells.tolist(), key=lambda ij: -self.loss[ij[0], ij[1]])[:top]
        return [
            (
                self.labels[i],
                self.labels[j],
                float(self.loss[i, j]),
                float(self.observed[i, j]),
                float(self.expected[i, j]),
            )
            for i, j in order
        ]

    def __str__(self) -> str:
        first, second = self.raters
        shown = _explain.label_text
        w = max(6, len(first), len(second), *(len(shown(v)) for v in self.labels))
        lines = [f"{first:>{w}} → {second:<{w}}   κ lost   share of ΣW·O   share under chance"]
        for a, b, loss, obs, exp in self.ranked(10):
            lines.append(
                f"{shown(a):>{w}} → {shown(b):<{w}}   {loss:6.4f}   {obs:13.1%}   {exp:18.1%}"
            )
        return "\n".join(lines)
