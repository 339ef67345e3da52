"""One row of the evaluation: a human score against a machine (or second human) score.

The arithmetic follows RSMTool's ``Analyzer.metrics_helper`` (rsmtool 12,
``rsmtool/analyzer.py`` and ``rsmtool/utils/metrics.py``) operation by
operation, so that means, SDs, SMD, DSM, R², RMSE and the agreements are
RSMTool's bit for bit. The two kappas and Pearson's r come from concord's
own results instead (:func:`~concord.cohen_kappa` and
:func:`~concord.concordance_correlation`, exact sums rounded once), which
carry standard errors and intervals; they are the correctly rounded values,
within 2 units in the last place of RSMTool's floating-point ones.
"""

from __future__ import annotations

import functools
import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._coefficients.continuous.concordance import concordance_correlation
from concord._coefficients.kappa.cohen import cohen_kappa
from concord._common import exact as _exact
from concord._results.studies.evaluation_parts import Metrics


@dataclass(frozen=True)
class Population:
    """The whole data's mean and SD (ddof=1) of a human and a machine score, for DSM."""

    human_mean: float
    human_sd: float
    machine_mean: float
    machine_sd: float


def round_scores(x: np.ndarray, rounding: str = "half-even") -> np.ndarray:
    """Round to score points: half to even as :func:`numpy.rint` (RSMTool's), or half up.

    RSMTool's ``process_predictions`` rounds the trimmed scores with
    ``numpy.rint`` and skll's ``kappa`` rounds with ``numpy.round``, both half
    to even (2.5 → 2); ``rounding="half-up"`` rounds 2.5 to 3.

    >>> round_scores(np.array([0.5, 1.5, 2.5, 2.4999]))
    array([0., 2., 2., 2.])
    >>> round_scores(np.array([0.5, 1.5, 2.5, 2.4999]), "half-up")
    array([1., 2., 3., 2.])
    """
    out: np.ndarray = np.rint(x) if rounding == "half-even" else np.floor(x + 0.5)
    return out


def trim(x: np.ndarray, low: float, high: float, tolerance: float) -> np.ndarray:
    """Clip to [low − tolerance, high + tolerance], RSMTool's ``FeaturePreprocessor.trim``."""
    out: np.ndarray = x.copy()
    out[out > high + tolerance] = high + tolerance
    out[out < low - tolerance] = low - tolerance
    return out


def agreement(human: np.ndarray, machine: np.ndarray, tolerance: int) -> float:
    """Percent of pairs within ``tolerance`` (RSMTool's ``agreement``: count / n × 100)."""
    hits = int(np.count_nonzero(np.abs(human - machine) <= tolerance))
    return (float(hits) / len(human)) * 100


def smd(human: np.ndarray, machine: np.ndarray, pooled: bool, side: Human | None = None) -> float:
    """Standardized mean difference: over the human SD, or the pooled SD of both (ddof=1)."""
    side = Human(human) if side is None else side
    numerator = np.mean(machine) - side.mean
    mixed = (side.std**2 + np.std(machine, ddof=1) ** 2) / 2 if pooled else None
    sd = side.std if mixed is None else np.sqrt(mixed)
    return math.nan if sd == 0 else float(numerator / sd)


def dsm(
    human: np.ndarray, machine: np.ndarray, pop: Population, side: Human | None = None
) -> float:
    """Difference of standardized means, z-scored on the whole data (Loukina et al. 2019)."""
    if np.isclose(pop.machine_sd, 0, atol=1e-07) or np.isclose(pop.human_sd, 0, atol=1e-07):
        return math.nan
    if side is None:
        side = Human(human)
    z_human = side.z(pop.human_mean, pop.human_sd)
    z_machine = (machine - pop.machine_mean) / pop.machine_sd
    return float(np.mean(z_machine - z_human))


class Human:
    """A human score column and what every row of metrics against it shares.

    Each is computed on first use, with the arithmetic it always had, so a
    column set against several machine scores (the score types of the
    evaluation, of a group's rows) is rounded, summarized and z-scored once.
    """

    def __init__(self, values: np.ndarray, rounding: str = "half-even") -> None:
        self.values = values
        self.rounding = rounding
        self._z: dict[tuple[float, float], np.ndarray] = {}

    @functools.cached_property
    def rounded(self) -> np.ndarray:
        return round_scores(self.values, self.rounding)

    @functools.cached_property
    def mean(self) -> np.floating[Any]:
        out: np.floating[Any] = np.mean(self.values)
        return out

    @functools.cached_property
    def std(self) -> np.floating[Any]:
        out: np.floating[Any] = np.std(self.values, ddof=1)
        return out

    @functools.cached_property
    def sd(self) -> float:
        return _sd(self.values)

    @functools.cached_property
    def range(self) -> tuple[float, float]:
        return float(np.min(self.values)), float(np.max(self.values))

    def z(self, mean: float, sd: float) -> np.ndarray:
        """Return the z-scores on a population's mean and SD."""
        if (mean, sd) not in self._z:
            self._z[(mean, sd)] = (self.values - mean) / sd
        return self._z[(mean, sd)]


def _r2(human: np.ndarray, machine: np.ndarray) -> float:
    """R² of the machine as a prediction of the human score (scikit-learn's ``r2_score``)."""
    if len(human) == 1:
        return math.nan
    residual = ((human - machine) ** 2).sum()
    total = ((human - np.average(human)) ** 2).sum()
    return math.nan if total == 0 else float(1 - residual / total)


def _corr(human: np.ndarray, machine: np.ndarray, r: float) -> float:
    """Pearson's r, nan (as RSMTool) for one pair or a constant score."""
    constant = np.all(human == human[0]) or np.all(machine == machine[0])
    return math.nan if len(human) == 1 or constant else r


def pair_metrics(
    human: np.ndarray,
    machine: np.ndarray,
    *,
    pooled: bool = False,
    population: Population | None = None,
    rounding: str = "half-even",
    side: Human | None = None,
) -> Metrics:
    """All of RSMTool's metrics of ``machine`` against ``human`` (same length, no NaN).

    ``pooled`` gives the human-human SMD; ``population`` replaces SMD by DSM
    (a subgroup's row). A metric a row cannot have (the SD of one score, κ of
    one category) is nan, as in RSMTool's tables, without a warning per row.
    ``side`` is ``Human(human, rounding)`` when the caller shares it between rows.
    """
    side = Human(human, rounding) if side is None else side
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # UndefinedKappaWarning is one
        return _pair_metrics(side, machine, pooled, population, rounding)


def _sd(x: np.ndarray) -> float:
    """RSMTool's ``np.std(x, ddof=1)``; exact where its squares overflow (scores near 1e200).

    The SD of finite scores is finite unless it exceeds the float range: where
    numpy's squares overflow, it is √((nΣx² − (Σx)²) / (n(n − 1))) on the
    scores' integers (``exact.dyadic``), rounded once.
    """
    value = float(np.std(x, ddof=1))
    if math.isfinite(value) or len(x) < 2 or not np.isfinite(x).all():
        return value
    ints, power = _exact.dyadic(x)
    total, square, n = sum(ints), sum(v * v for v in ints), len(ints)
    return _scaled_root(n * square - total * total, n * (n - 1), power)


def _rmse(human: np.ndarray, machine: np.ndarray) -> float:
    """RSMTool's RMSE; exact where its squares overflow: √(Σ(h − m)²/n), rounded once."""
    value = float(np.sqrt(np.average((human - machine) ** 2)))
    both = np.concatenate([human, machine])
    if math.isfinite(value) or not len(human) or not np.isfinite(both).all():
        return value
    ints, power = _exact.dyadic(both)
    n = len(human)
    square = sum((a - b) ** 2 for a, b in zip(ints[:n], ints[n:], strict=True))
    return _scaled_root(square, n, power)


def _scaled_root(num: int, den: int, power: int) -> float:
    """√(num/den) · 2**power, rounded once where it is a normal float; inf beyond the range."""
    root = _exact.root_ratio(num, den)
    try:
        return math.ldexp(root, power)
    except OverflowError:
        return math.inf


def _pair_metrics(
    side: Human,
    machine: np.ndarray,
    pooled: bool,
    population: Population | None,
    rounding: str,
) -> Metrics:
    human = side.values
    # κ on the rounded scores (skll's ``kappa`` rounds both, half to even, before counting)
    kappa = cohen_kappa(side.rounded, round_scores(machine, rounding))
    wtkappa = concordance_correlation(human, machine)
    values = {
        "N": len(human),
        "h_mean": float(side.mean),
        "h_sd": side.sd,
        "h_min": side.range[0],
        "h_max": side.range[1],
        "sys_mean": float(np.mean(machine)),
        "sys_sd": _sd(machine),
        "sys_min": float(np.min(machine)),
        "sys_max": float(np.max(machine)),
        "corr": _corr(human, machine, wtkappa.precision),
        "wtkappa": float(wtkappa.statistic),
        "R2": _r2(human, machine),
        "kappa": float(kappa.statistic),
        "exact_agr": agreement(human, machine, 0),
        "adj_agr": agreement(human, machine, 1),
        "RMSE": _rmse(human, machine),
    }
    if population is None:
        values["SMD"] = smd(human, machine, pooled, side)
    else:
        values["DSM"] = dsm(human, machine, population, side)
    return Metrics(values, kappa, wtkappa)


def with_dsm(
    whole: Metrics,
    human: np.ndarray,
    machine: np.ndarray,
    population: Population,
    side: Human | None = None,
) -> Metrics:
    """Return the whole data's row as a subgroup's ("All data"): ``whole``'s, DSM for SMD.

    The same arrays give the same metrics, so only the DSM is computed.
    """
    values = {k: v for k, v in whole.values.items() if k != "SMD"}
    with np.errstate(all="ignore"):
        values["DSM"] = dsm(human, machine, population, side)
    return Metrics(values, whole.kappa, whole.wtkappa)
