"""Standard errors, p-values and confidence intervals shared by every result.

Each result holds an :class:`Inference`: its standard error, the degrees of
freedom of its t intervals, how its p-value is computed, the coefficient's
possible range, and a sampler that draws bootstrap replicates from the
result's own small table (see :mod:`concord._inference.resampling`).

Intervals never leave the coefficient's range [lower, 1]: Wald, t and
bootstrap intervals are clipped to it; the Fisher-z interval stays inside it
by construction.
"""

from __future__ import annotations

import math
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from statistics import NormalDist
from typing import Any, NamedTuple, Protocol

import numpy as np

from concord._common.errors import param_error
from concord._common.exact import fdot, fsum
from concord._common.extras import require
from concord._common.options import check_method

_NORMAL = NormalDist()


class ConfidenceInterval(NamedTuple):
    """A confidence interval: ``low`` and ``high``.

    Its repr shows four significant digits (an interval's last digits are
    sampling noise, and the last bit of a float may differ between CPUs); the
    fields hold the full floats.

    >>> ConfidenceInterval(0.013968611795406491, 0.026386634220081855)
    ConfidenceInterval(low=0.01397, high=0.02639)
    """

    low: float
    high: float

    def __repr__(self) -> str:
        return f"ConfidenceInterval(low={_shown(self.low)}, high={_shown(self.high)})"


def _shown(x: float) -> str:
    """Four significant digits, a float's look kept (0.0, 1.0, nan, -inf)."""
    text = f"{x:.4g}"
    return text if any(c in text for c in ".enai") else text + ".0"


class Sampler(Protocol):
    """Draws bootstrap replicates of a statistic from a result's table."""

    def replicates(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        """Return the statistic on ``n_resamples`` resamples of the items."""
        ...

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        """Return leave-one-item-out values and how many items give each."""
        ...


def t_sf(x: float, df: float) -> float:
    """Survival function of Student's t, P(T > x) (scipy, imported when first needed).

    ``stdtr(df, −x)`` is the lower tail at −x, computed from the incomplete
    beta function: full relative precision in the far tail, never 1 − cdf.
    """
    return float(_scipy_special().stdtr(df, -x))


def t_quantile(p: float, df: float) -> float:
    """Quantile function of Student's t."""
    return float(_scipy_special().stdtrit(df, p))


def _scipy_special() -> Any:
    what = "Student's t (t intervals, Gwet's p-values, the t tests)"
    return require("scipy.special", "stats", what)


def normal_pvalue(z: float) -> float:
    """Two-sided p-value of a standard normal statistic: 2 Φ(−|z|) = erfc(|z|/√2).

    The complementary error function keeps full relative precision far into
    the tail (2·cdf(−|z|) loses digits past |z| ≈ 8 and is 0 past 8.3); it
    reaches 0 only where the double underflows, |z| > 38.4.
    """
    return math.erfc(abs(z) / math.sqrt(2)) if math.isfinite(z) else float("nan")


#: Seconds a step runs before its progress bar appears (tqdm's ``delay``).
BAR_DELAY = 0.5
# the command line's --quiet turns progress bars off (see quiet())
_SHOW_PROGRESS: ContextVar[bool] = ContextVar("concord_show_progress", default=True)


@contextmanager
def quiet() -> Iterator[None]:
    """Turn progress bars off inside the block."""
    token = _SHOW_PROGRESS.set(False)
    try:
        yield
    finally:
        _SHOW_PROGRESS.reset(token)


def show_progress() -> bool:
    """Whether a long step may show a progress bar: on a terminal, unless quiet()."""
    return _SHOW_PROGRESS.get() and sys.stderr.isatty()


@contextmanager
def progress(
    total: int, description: str, *, unit: str = "resample", worth: bool | None = None
) -> Iterator[Any]:
    """Yield a tqdm progress bar when stderr is a terminal and tqdm is installed, else None.

    ``worth`` says whether the step is long enough for a bar (default: at
    least 2,000 units). The bar appears only once the step has taken
    :data:`BAR_DELAY` seconds, so a fast step does not flash a bar at 0%.
    """
    bar = None
    if (total >= 2000 if worth is None else worth) and show_progress():
        try:
            from tqdm.auto import tqdm

            bar = tqdm(total=total, desc=description, unit=unit, leave=False, delay=BAR_DELAY)
        except ImportError:  # pragma: no cover - tqdm is optional
            bar = None
    try:
        yield bar
    finally:
        if bar is not None:
            bar.close()


@dataclass(frozen=True)
class Inference:
    """Everything a result needs for its SE, p-value and intervals.

    ``null_z`` is the test statistic under H0 for coefficients with a null
    standard error (Cohen: Fleiss, Cohen & Everitt 1969; Fleiss: Fleiss, Nee
    & Landis 1979), tested against the normal distribution; without it the
    p-value is Gwet's (2014): t = statistic / standard_error on ``df`` degrees
    of freedom. ``bounds`` is the coefficient's possible range.
    """

    statistic: float
    standard_error: float
    df: int
    bounds: tuple[float, float]
    default_method: str
    sampler: Sampler | None = None
    null_z: float | None = None

    def pvalue(self) -> float:
        if self.null_z is not None:
            return normal_pvalue(self.null_z)
        se = self.standard_error
        if not (math.isfinite(self.statistic) and math.isfinite(se) and self.df > 0):
            return float("nan")
        if se == 0:  # no sampling variability: a non-zero coefficient is certainly non-zero
            return 0.0 if self.statistic != 0 else float("nan")
        return 2 * t_sf(abs(self.statistic / se), self.df)

    def interval(
        self,
        confidence_level: float,
        method: str | None,
        n_resamples: int,
        rng: Any,
        func: str,
    ) -> ConfidenceInterval:
        level = _level(confidence_level, func)
        chosen = check_method(method or self.default_method, func)
        if not math.isfinite(self.statistic):
            return ConfidenceInterval(float("nan"), float("nan"))
        if chosen.startswith("bootstrap"):
            return self._bootstrap(level, chosen, n_resamples, rng, func)
        low, high = _analytic(chosen, self.statistic, self.standard_error, self.df, level)
        return self._clip(low, high)

    def _clip(self, low: float, high: float) -> ConfidenceInterval:
        lower, upper = self.bounds
        return ConfidenceInterval(max(low, lower), min(high, upper))

    def bootstrap(self, n_resamples: int, rng: Any, func: str) -> np.ndarray:
        if self.sampler is None:
            raise NotImplementedError(f"{func}: this result has no bootstrap")
        if not isinstance(n_resamples, int | np.integer) or n_resamples < 2:
            param_error(func, "n_resamples", "an integer of at least 2", n_resamples)
        generator = np.random.default_rng(rng)
        return self.sampler.replicates(int(n_resamples), generator)

    def _bootstrap(
        self, level: float, method: str, n_resamples: int, rng: Any, func: str
    ) -> ConfidenceInterval:
        values = self.bootstrap(n_resamples, rng, func)
        finite = values[np.isfinite(values)]
        if finite.size < 0.9 * values.size:
            warnings.warn(
                f"{func}: {values.size - finite.size} of {values.size} bootstrap resamples "
                "have an undefined coefficient; the interval uses the others.",
                RuntimeWarning,
                stacklevel=4,
            )
        if finite.size == 0:
            return ConfidenceInterval(float("nan"), float("nan"))
        alpha = 1 - level
        if method == "bootstrap-percentile":
            probs = (alpha / 2, 1 - alpha / 2)
        else:
            assert self.sampler is not None
            probs = _bca_probabilities(self.statistic, finite, self.sampler.jackknife(), alpha)
        low, high = np.quantile(finite, probs)
        return self._clip(float(low), float(high))


def check_level(confidence_level: Any, func: str) -> float:
    """Return ``confidence_level`` as a float in (0, 1), else raise naming ``func``."""
    return _level(confidence_level, func)


def _level(confidence_level: Any, func: str) -> float:
    try:
        if isinstance(confidence_level, bool | str | bytes):
            raise TypeError  # float("0.9") and float(True) would pass a wrong type
        level = float(confidence_level)
    except (TypeError, ValueError):
        param_error(
            func, "confidence_level", "a number in (0, 1)", confidence_level, exc=TypeError
        )
    if not 0 < level < 1:
        param_error(
            func,
            "confidence_level",
            "in (0, 1)",
            confidence_level,
            fix="For a 95% interval pass 0.95.",
        )
    return level


def _analytic(
    method: str, statistic: float, se: float, df: int, level: float
) -> tuple[float, float]:
    if not math.isfinite(se):
        return float("nan"), float("nan")
    alpha = 1 - level
    if method == "t":
        q = t_quantile(1 - alpha / 2, df) if df > 0 else float("inf")
    else:
        q = _NORMAL.inv_cdf(1 - alpha / 2)
    if method != "fisher-z":
        return statistic - q * se, statistic + q * se
    if abs(statistic) >= 1:  # artanh(±1) is infinite: the interval is the point
        return statistic, statistic
    z, se_z = math.atanh(statistic), se / (1 - statistic * statistic)
    return math.tanh(z - q * se_z), math.tanh(z + q * se_z)


def _bca_probabilities(
    estimate: float, values: np.ndarray, jackknife: tuple[np.ndarray, np.ndarray], alpha: float
) -> tuple[float, float]:
    """Efron's (1987) bias-corrected and accelerated percentile levels."""
    below = np.mean(values < estimate) + 0.5 * np.mean(values == estimate)
    below = min(max(below, 0.5 / values.size), 1 - 0.5 / values.size)
    z0 = _NORMAL.inv_cdf(float(below))
    theta, count = jackknife
    keep = np.isfinite(theta)
    theta, count = theta[keep], count[keep]
    mean = fdot(count, theta) / fsum(count)
    d = mean - theta
    denominator = 6 * fdot(count, d**2) ** 1.5
    a = fdot(count, d**3) / denominator if denominator > 0 else 0.0
    out = []
    for p in (alpha / 2, 1 - alpha / 2):
        z = _NORMAL.inv_cdf(p)
        out.append(_NORMAL.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))))
    return out[0], out[1]


# an Inference, or a zero-argument callable (a functools.partial of a module-level
# function, so that results stay picklable) that computes it on first use
Deferred = Inference | Callable[[], Inference]


def deferred(population: float | None, compute: Callable[..., Inference], *args: Any) -> Deferred:
    """Return ``compute(*args)`` to be computed on first use, as a picklable partial.

    With a finite ``population_size`` it is computed now: its check against
    the number of items (``design.fraction``) must fail in the call that got it.
    """
    if population is not None:
        return compute(*args)
    return partial(compute, *args)


class InferenceMixin:
    """``standard_error``, ``pvalue``, ``confidence_interval()`` and ``bootstrap()``.

    A result may hold its inference deferred: the SE, the test and the sampler
    cost more than the statistic itself on small inputs, so they are computed
    the first time one of them is read, once, and kept.
    """

    _inference: Deferred | None

    def _inferred(self) -> Inference:
        inference = self._inference
        if inference is None:
            raise NotImplementedError(f"{type(self).__name__} was built without inference")
        if not isinstance(inference, Inference):
            inference = inference()
            # results are frozen; the cache is the field itself (a race computes it twice)
            object.__setattr__(self, "_inference", inference)
        return inference

    def _uncertainty(self) -> list[str]:
        """Return the explain() line: SE, 95% CI with the default method, p-value."""
        if self._inference is None:
            return []
        from concord._common.text import number

        low, high = self.confidence_interval()
        p = self.pvalue  # below 1e-4 the digits say nothing (and underflow to 0)
        shown = "p < 0.0001" if math.isfinite(p) and p < 1e-4 else f"p = {number(p)}"
        return [
            f"SE = {number(self.standard_error)}, 95% CI [{number(low)}, {number(high)}] "
            f"({self.interval_method}), {shown}"
        ]

    @property
    def interval_method(self) -> str:
        """The method ``confidence_interval()`` uses by default for this coefficient."""
        return self._inferred().default_method

    @property
    def standard_error(self) -> float:
        """The large-sample standard error (not under H0); see the function's docstring."""
        return self._inferred().standard_error

    @property
    def pvalue(self) -> float:
        """Two-sided p-value for H0: the coefficient is 0."""
        return self._inferred().pvalue()

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        method: str | None = None,
        n_resamples: int = 9999,
        rng: Any = None,
    ) -> ConfidenceInterval:
        """Return a confidence interval for the coefficient.

        Parameters
        ----------
        confidence_level : float
            In (0, 1); default 0.95.
        method : {"wald", "t", "fisher-z", "bootstrap-percentile", "bootstrap-bca"}, optional
            ``"wald"``: estimate ± z·SE; ``"t"``: ± t(n_items − 1)·SE, as
            irrCAC; ``"fisher-z"``: Wald on artanh(κ), mapped back with tanh,
            which keeps the interval inside (−1, 1) and is asymmetric near
            the bounds; the bootstrap methods resample items. The default
            depends on the coefficient (see its docstring and the coverage
            study in docs/guide/uncertainty.md).
        n_resamples : int
            Bootstrap resamples (bootstrap methods only).
        rng : None, int or numpy.random.Generator
            Seed or generator for the bootstrap.

        Returns
        -------
        ConfidenceInterval
            ``(low, high)``, clipped to the coefficient's possible range.
        """
        name = f"{type(self).__name__}.confidence_interval"
        return self._inferred().interval(confidence_level, method, n_resamples, rng, name)

    def bootstrap(self, n_resamples: int = 9999, *, rng: Any = None) -> np.ndarray:
        """Return the coefficient on ``n_resamples`` bootstrap resamples of the items.

        Resampling n items is one multinomial draw over the result's distinct
        table cells (two raters) or item patterns (many raters), so the cost
        does not grow with n. A progress bar shows on a terminal.
        """
        return self._inferred().bootstrap(n_resamples, rng, f"{type(self).__name__}.bootstrap")
