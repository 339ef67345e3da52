"""How sure a benchmark label is: Gwet's (2014) membership probabilities.

One word ("substantial") hides how uncertain the coefficient is. Gwet
(2014, Handbook of Inter-Rater Reliability, 4th ed., ch. 6) treats the
coefficient as normal with its standard error, truncated to [−1, 1], and
gives each level of a benchmark scale the probability that the true value
lies in it, and the cumulative probability of the level *or a better one*;
he retains the best level whose cumulative probability reaches 0.95. This
is irrCAC's ``landis.koch.bf``, ``altman.bf`` and ``fleiss.bf`` (R/benchmarking.r),
for every scale of :mod:`concord._results.interpret`.

The intraclass correlation's two-way forms have no standard SE; for it the
cumulative probability of "c or better" is the confidence 1 − p(c) of McGraw
& Wong's (1996) one-sided F test of H0: ICC = c, the distribution its F
interval inverts (see :meth:`concord.IccResult.interpret`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist

from concord._results import interpret as _scales

_NORMAL = NormalDist()
#: Gwet's (2014) rule: retain the best level whose cumulative probability reaches this.
RETAIN = 0.95


@dataclass(frozen=True)
class BenchmarkLevel:
    """One level of a benchmark scale and how probable it is.

    Attributes
    ----------
    label : str
        The level's name, e.g. 'substantial'.
    interval : tuple of float
        (low, high): its range, clipped to the coefficient's [−1, 1].
    probability : float
        The probability that the true coefficient lies in this level.
    cumulative : float
        The probability that it lies in this level or a better one.
    """

    label: str
    interval: tuple[float, float]
    probability: float
    cumulative: float


@dataclass(frozen=True)
class BenchmarkProbabilities:
    """A coefficient's benchmark levels with their membership probabilities (Gwet 2014).

    ``str()`` gives the sentence: the most probable level and the best level
    whose cumulative probability reaches 0.95, e.g. "substantial with
    probability 0.71; moderate or better 0.98". Where only the worst level
    reaches it (its cumulative probability is 1 by definition), the sentence
    gives the next level's instead, e.g. "poor with probability 0.87;
    moderate or better 0.13".

    Attributes
    ----------
    scale : str
        The benchmark scale, e.g. 'landis-koch'.
    statistic, standard_error : float
        The coefficient and the SE the probabilities come from (nan for the
        F-based probabilities of the ICC).
    levels : tuple of BenchmarkLevel
        Best level first, as irrCAC prints them.
    method : str
        'normal' (Gwet's truncated normal) or 'f' (the ICC's F test).
    """

    scale: str
    statistic: float
    standard_error: float
    levels: tuple[BenchmarkLevel, ...]
    method: str = "normal"

    @property
    def most_likely(self) -> BenchmarkLevel:
        """The level with the largest membership probability (the better one on a tie)."""
        return max(self.levels, key=lambda level: level.probability)

    def retained(self, probability: float = RETAIN) -> BenchmarkLevel:
        """Return the best level whose cumulative probability reaches ``probability``."""
        for level in self.levels:
            if level.cumulative >= probability:
                return level
        return self.levels[-1]

    def __str__(self) -> str:
        if not all(math.isfinite(level.probability) for level in self.levels):
            return "undefined"
        likely, kept = self.most_likely, self.retained()
        if kept is self.levels[-1] and len(self.levels) > 1:
            kept = self.levels[-2]
        return (
            f"{likely.label} with probability {_shown(likely.probability)}; "
            f"{kept.label} or better {_shown(kept.cumulative)}"
        )


def _shown(p: float) -> str:
    """Two decimals, or more where two would round a probability short of 1 (or 0) to it."""
    for digits in range(2, 7):
        text = f"{p:.{digits}f}"
        if (float(text) < 1 or p == 1) and (float(text) > 0 or p == 0):
            return text
    return f"{p:.6g}"


def _ranges(scale: str) -> list[tuple[str, float, float]]:
    """Return the scale's levels as (label, low, high) in [−1, 1], worst first."""
    out, low = [], -1.0
    for label, upper, _ in _scales.SCALES[scale]:
        high = min(upper, 1.0)
        out.append((label, low, high))
        low = max(high, -1.0)
    return out


def from_cumulative(
    scale: str,
    statistic: float,
    standard_error: float,
    better_than: Callable[[float], float],
    method: str,
) -> BenchmarkProbabilities:
    """Build the result from ``better_than(c)``, the probability that the coefficient exceeds c.

    The worst level's cumulative probability is 1 by definition; each level's
    own probability is the difference of consecutive cumulative ones.
    """
    ranges = _ranges(scale)
    above = [1.0 if i == 0 else better_than(low) for i, (_, low, _) in enumerate(ranges)]
    above.append(0.0)
    levels = [
        BenchmarkLevel(label, (low, high), max(above[i] - above[i + 1], 0.0), above[i])
        for i, (label, low, high) in enumerate(ranges)
    ]
    return BenchmarkProbabilities(
        scale, statistic, standard_error, tuple(reversed(levels)), method
    )


def normal(scale: str, statistic: float, standard_error: float) -> BenchmarkProbabilities:
    """Gwet's (2014) probabilities: the coefficient ~ N(statistic, SE²) truncated to [−1, 1].

    irrCAC computes each level's probability and sums them from the best
    level down; the cumulative probability is computed here directly,
    (Φ((κ − low)/SE) − Φ((κ − 1)/SE)) / (Φ((κ + 1)/SE) − Φ((κ − 1)/SE)), the same
    number without the rounding of the sum.
    """
    value, se = statistic, standard_error
    if not (math.isfinite(value) and math.isfinite(se) and se >= 0):
        return from_cumulative(scale, value, se, lambda c: math.nan, "normal")
    if se == 0:  # no sampling variability: the level holding the value is certain
        label = _scales.interpret(value, scale, "")
        lows = [low for name, low, _ in _ranges(scale) if name == label]
        return from_cumulative(scale, value, se, lambda c: float(c <= lows[0]), "normal")
    top = _NORMAL.cdf((value - 1) / se)
    mass = _NORMAL.cdf((value + 1) / se) - top
    return from_cumulative(
        scale, value, se, lambda c: (_NORMAL.cdf((value - c) / se) - top) / mass, "normal"
    )
