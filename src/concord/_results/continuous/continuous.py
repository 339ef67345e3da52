"""The result of the intraclass correlation: :class:`IccResult` and its table of forms."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Literal, overload

import numpy as np

from concord._common import text as _explain
from concord._common.errors import check_bool
from concord._common.extras import require
from concord._inference.intervals import ConfidenceInterval, Inference
from concord._results import benchmark as _benchmark
from concord._results import interpret as _scales
from concord._results.benchmark import BenchmarkProbabilities
from concord._results.continuous import icc_anova as _f
from concord._results.continuous.continuous_text import IccText
from concord._results.deprecation import RenamedRecord, renamed_frame


@dataclass(frozen=True, eq=False, repr=False)
class IccResult(IccText):
    """An intraclass correlation, its F test and the ANOVA it comes from.

    Attributes
    ----------
    statistic : float
        The ICC of the form (``model``, ``type``, ``unit``); ``float(result)`` too.
    model, type, unit : str
        "oneway" or "twoway"; "agreement" or "consistency"; "single" or "average".
    f_statistic, df1, df2 : float
        McGraw & Wong's (1996) F test of H0: ICC = ``r0`` (df2 is
        Satterthwaite's for the two-way agreement forms).
    r0 : float
        The ICC under H0.
    confidence_level : float
        The level of ``confidence_interval()`` by default.
    n_items, n_raters, n_ratings : int
        Items with a rating, raters with a rating, and ratings.
    k0 : float
        The number of ratings per item the formulas use: k on complete data,
        Ebel's (1951) (N − Σk_i²/N)/(n − 1) on incomplete data.
    """

    statistic: float
    model: str
    type: str
    unit: str
    f_statistic: float
    df1: float
    df2: float
    r0: float
    confidence_level: float
    n_items: int
    n_raters: int
    n_ratings: int
    k0: float
    _anova: _f.Anova = field(repr=False)
    _sampler: Any = field(default=None, repr=False)

    def __float__(self) -> float:
        return float(self.statistic)

    def __repr__(self) -> str:
        return (
            f"IccResult({self.name}, statistic={self.statistic:.6g}, n_items={self.n_items}, "
            f"n_raters={self.n_raters})"
        )

    @property
    def name(self) -> str:
        """McGraw & Wong's (1996) name of the form: ICC(1), ICC(A,1), ICC(C,k), ..."""
        return _f.MCGRAW_WONG[_f.key(self.model, self.type, self.unit)]

    @property
    def shrout_fleiss(self) -> str:
        """Shrout & Fleiss' (1979) name: ICC(1,1), ICC(2,1), ICC(3,1), ICC(1,k), ..."""
        return _f.SHROUT_FLEISS[_f.key(self.model, self.type, self.unit)]

    @property
    def pvalue(self) -> float:
        """One-sided P(F > f_statistic): the p-value of H0: ICC = r0 against ICC > r0."""
        return _f.f_sf(self.f_statistic, self.df1, self.df2)

    @property
    def mean_squares(self) -> dict[str, float]:
        """MS between items (two-way: after the raters' means), within items, raters, error."""
        ms = self._anova.mean_squares()
        rows = ms["items"] if self.model == "oneway" else ms["items_adjusted"]
        out = {"items": _f.to_float(rows), "within": _f.to_float(ms["within"])}
        if self.model == "twoway":
            out.update(raters=_f.to_float(ms["raters"]), error=_f.to_float(ms["error"]))
        return out

    @property
    def variance_components(self) -> dict[str, float]:
        """The method-of-moments variance components: items, raters (two-way) and error."""
        ms, k0, n = self._anova.mean_squares(), self._anova.k0, self.n_items
        if self.model == "oneway":  # exact on exact sums, rounded once
            parts = {"items": (ms["items"] - ms["within"]) / k0, "error": ms["within"]}
        else:
            parts = {
                "items": (ms["items_adjusted"] - ms["error"]) / k0,
                "raters": (ms["raters"] - ms["error"]) / n,
                "error": ms["error"],
            }
        return {name: _f.to_float(v) for name, v in parts.items()}

    @property
    def standard_error(self) -> float:
        """Fisher's large-sample SE of the one-way single-rating ICC; nan for the other forms.

        SE² = 2(1 − ρ)²(1 + (k − 1)ρ)² / (k(k − 1)(n − 1)) (Fisher 1925; Donner
        1986, eq. 3.1), with k₀ for k. No closed formula is standard for the
        two-way forms: use the F interval or the bootstrap.
        """
        if self.model != "oneway" or self.unit != "single" or self.k0 <= 1:
            return math.nan
        rho, k, n = self.statistic, self.k0, self.n_items
        return math.sqrt(2 * (1 - rho) ** 2 * (1 + (k - 1) * rho) ** 2 / (k * (k - 1) * (n - 1)))

    def confidence_interval(
        self,
        confidence_level: float | None = None,
        *,
        method: str | None = None,
        n_resamples: int = 9999,
        rng: Any = None,
    ) -> ConfidenceInterval:
        """Return a confidence interval for the ICC.

        Parameters
        ----------
        confidence_level : float, optional
            In (0, 1); by default the result's ``confidence_level``.
        method : {"f", "bootstrap-bca", "bootstrap-percentile"}, optional
            ``"f"`` (default): McGraw & Wong's (1996) exact F-based interval,
            as R irr's ``icc``; the bootstrap methods resample items.
        n_resamples : int
            Bootstrap resamples.
        rng : None, int or numpy.random.Generator
            Seed or generator for the bootstrap.
        """
        level = self.confidence_level if confidence_level is None else confidence_level
        if method is None or method == "f":
            # checks the level (a Wald interval of SE 0 is the point)
            self._inference().interval(level, "wald", 2, None, self._func("confidence_interval"))
            if not math.isfinite(self.statistic):
                return ConfidenceInterval(math.nan, math.nan)
            low, high = _f.f_interval(
                self._anova, self.model, self.type, self.unit, self.statistic, float(level)
            )
            return ConfidenceInterval(float(low), float(high))
        return self._inference().interval(
            level, method, n_resamples, rng, self._func("confidence_interval")
        )

    def bootstrap(self, n_resamples: int = 9999, *, rng: Any = None) -> np.ndarray:
        """Return the ICC on ``n_resamples`` bootstrap resamples of the items."""
        return self._inference().bootstrap(n_resamples, rng, self._func("bootstrap"))

    def _func(self, method: str) -> str:
        return f"IccResult.{method}"

    def _inference(self) -> Inference:
        # the F interval's level is checked by Inference (a Wald interval of SE 0)
        return Inference(
            statistic=self.statistic,
            standard_error=0.0,
            df=max(self.n_items - 1, 0),
            bounds=(-math.inf, 1.0),
            default_method="bootstrap-bca",
            sampler=self._sampler,
        )

    @overload
    def interpret(
        self, scale: str | None = None, *, probabilistic: Literal[False] = ...
    ) -> str: ...

    @overload
    def interpret(
        self, scale: str | None = None, *, probabilistic: Literal[True]
    ) -> BenchmarkProbabilities: ...

    def interpret(
        self, scale: str | None = None, *, probabilistic: bool = False
    ) -> str | BenchmarkProbabilities:
        """Return the verbal category of the ICC: Koo & Li (2016) by default.

        Koo & Li: below 0.5 poor, 0.5 to 0.75 moderate, 0.75 to 0.9 good,
        above 0.9 excellent (:mod:`concord._results.interpret`).

        With ``probabilistic=True``, a :class:`BenchmarkProbabilities`: how
        probable each level is. The two-way forms have no standard SE, so the
        probability of "c or better" is the confidence 1 − p(c) of McGraw &
        Wong's (1996) one-sided F test of H0: ICC = c, the test whose
        inversion gives the F interval (for the one-way forms it is exact).
        """
        chosen = scale or "koo-li"
        label = _scales.interpret(self.statistic, chosen, self._func("interpret"))
        if not check_bool(self._func("interpret"), "probabilistic", probabilistic):
            return label
        if not math.isfinite(self.statistic):
            return _benchmark.normal(chosen, self.statistic, math.nan)

        def better_than(c: float) -> float:
            f, df1, df2 = _f.f_test(self._anova, self.model, self.type, self.unit, c)
            return 1.0 - _f.f_sf(f, df1, df2)

        return _benchmark.from_cumulative(chosen, self.statistic, math.nan, better_than, "f")

    def forms(self) -> IccForms:
        """Return all six forms of the ICC on the same data, with F tests and intervals."""
        return IccForms(tuple(self.form(*f) for f in _f.FORMS))

    def form(self, model: str, type: str, unit: str) -> IccResult:
        """Return another form of the ICC on the same data (no bootstrap sampler)."""
        value = float(_f.coefficient(self._anova, model, type, unit))
        f, df1, df2 = _f.f_test(self._anova, model, type, unit, self.r0)
        return replace(
            self,
            statistic=value,
            model=model,
            type=type,
            unit=unit,
            f_statistic=f,
            df1=df1,
            df2=df2,
            _sampler=None,
        )

    def sem(self) -> float:
        """Return the standard error of measurement, SD √(1 − ICC) (Weir 2005).

        SD convention: for the single-rating forms the SD of all the ratings,
        √(SS_total / (N − 1)); for the average forms the SD of the items' mean
        scores, √(SS_items / (k₀(n − 1))). It is in the ratings' units; nan
        when the ICC is nan. (√MS_error, another convention, is in
        ``mean_squares``.)

        Examples
        --------
        >>> import concord
        >>> x = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
        ...      [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
        >>> round(concord.icc(x).sem(), 4)
        2.2842
        """
        from concord._results.continuous.icc_reliability import sem

        return sem(self)

    def mdc(self, confidence_level: float = 0.95) -> float:
        """Return the minimal detectable change, z_{(1+c)/2} · √2 · SEM (Weir 2005).

        The smallest difference between two measurements of one item that
        exceeds their measurement error at this confidence (MDC95 = 2.77 SEM).
        """
        from concord._results.continuous.icc_reliability import mdc

        return mdc(self, confidence_level)

    def spearman_brown(self, raters: float) -> float:
        """Return the ICC of the mean of ``raters`` ratings (the Spearman–Brown prophecy).

        ρ_m = m ρ₁ / (1 + (m − 1) ρ₁), from this form's single-rating ICC ρ₁
        (an average form is first stepped down from its k₀ raters). The
        D-study question "how many raters do I need for a reliability of R?"
        is m = R (1 − ρ₁) / (ρ₁ (1 − R)): try ``spearman_brown`` at that m.

        Examples
        --------
        >>> import concord
        >>> x = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
        ...      [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
        >>> r = concord.icc(x)
        >>> average = r.form("twoway", "agreement", "average")
        >>> round(r.spearman_brown(4), 4), round(average.statistic, 4)
        (0.6201, 0.6201)
        """
        from concord._results.continuous.icc_reliability import spearman_brown

        return spearman_brown(self, raters)

    def explain(self) -> str:
        """Return the ANOVA table, the form's formula and its value.

        Examples
        --------
        Shrout & Fleiss (1979), Table 2: 6 targets, 4 judges; ICC(2,1) = .29.

        >>> import concord
        >>> x = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8],
        ...      [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
        >>> print(concord.icc(x).explain())  # doctest: +ELLIPSIS
        ICC(A,1) = ICC(2,1), two-way, absolute agreement, single rating: n = 6 items, k = 4 raters
        ...
        ICC = (MSR − MSE) / (MSR + (k − 1)·MSE + k/n·(MSC − MSE)) = 0.289764
        ...
        """
        from concord._results.continuous.icc_text import explain

        return explain(self)


# the renamed keys of the forms' records: old → new
_RENAMED = {"icc": "statistic"}


@dataclass(frozen=True)
class IccForms:
    """The six forms of the ICC on one data set: ``results`` in Shrout & Fleiss' order."""

    results: tuple[IccResult, ...]

    def to_dict(self) -> list[dict[str, Any]]:
        """One record per form: names, ICC (``statistic``), F test, p-value and interval.

        The ICC's key was ``icc``; it still reads, with a FutureWarning.
        """
        out = []
        for r in self.results:
            low, high = r.confidence_interval()
            out.append(
                {
                    "form": r.name,
                    "shrout_fleiss": r.shrout_fleiss,
                    "model": r.model,
                    "type": r.type,
                    "unit": r.unit,
                    "statistic": r.statistic,
                    "f": r.f_statistic,
                    "df1": r.df1,
                    "df2": r.df2,
                    "pvalue": r.pvalue,
                    "ci_low": low,
                    "ci_high": high,
                }
            )
        return [RenamedRecord(d, _RENAMED, "IccForms.to_dict()") for d in out]

    def to_frame(self) -> Any:
        """Return the records as a pandas DataFrame, indexed by form.

        The ICC's column is ``statistic``, as in every result's frame; the
        old name ``icc`` still reads, with a FutureWarning.
        """
        pd = require("pandas", "pandas", "IccForms.to_frame")

        frame = pd.DataFrame([dict(d) for d in self.to_dict()]).set_index("form")
        return renamed_frame(frame, _RENAMED, "IccForms.to_frame()")

    def __str__(self) -> str:
        level = self.results[0].confidence_level if self.results else 0.95
        head = f"{'form':<9}{'S&F':<9}{'ICC':>8}{'F':>10}{'df1':>7}{'df2':>9}{'p':>10}"
        lines = [head + f"   {level:.0%} CI"]
        num = _explain.number
        for d in self.to_dict():
            lines.append(
                f"{d['form']:<9}{d['shrout_fleiss']:<9}{d['statistic']:>8.4f}{d['f']:>10.4g}"
                f"{d['df1']:>7.4g}{d['df2']:>9.4g}{d['pvalue']:>10.3g}   "
                f"[{num(d['ci_low'])}, {num(d['ci_high'])}]"
            )
        return "\n".join(lines)
