"""``concord.plan``'s methods: each coefficient's n for a checked design, and the grid."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from statistics import NormalDist

import numpy as np

from concord._common.extras import require
from concord._studies.plan import plan_kappa as pk
from concord._studies.plan import plan_sim as ps
from concord._studies.plan.plan_check import Design, goal, unit

_Z = NormalDist()
_NAN = float("nan")


@dataclass(frozen=True)
class _Answer:
    method: str
    n: int
    n_exact: float = _NAN
    achieved: float = _NAN
    closed_form: float = _NAN
    simulations: int = 0


def _cohen(d: Design) -> _Answer:
    rates = (float(d.props[0]), float(d.props[1]))
    if d.width is not None:
        exact = pk.cantor_width_n(d.expected, rates, d.alpha, d.width)
        return _Answer("cantor-width", math.ceil(exact), exact)
    null = float(d.null)  # type: ignore[arg-type]
    exact = pk.cantor_n(null, d.expected, rates, d.alpha, d.power, d.sides)
    n = math.ceil(exact)
    z = abs(d.expected - null) * math.sqrt(n) - _Z.inv_cdf(1 - d.alpha / d.sides) * math.sqrt(
        pk.cantor_variance(null, *rates)
    )
    achieved = _Z.cdf(z / math.sqrt(pk.cantor_variance(d.expected, *rates)))
    return _Answer("cantor", n, exact, achieved)


def _fleiss(d: Design) -> _Answer:
    if d.width is not None:
        n = pk.width_n(d.expected, d.props, d.raters, d.alpha, d.width)
        return _Answer("donner-rotondi", n)
    stats = require("scipy.stats", "stats", "concord.plan")
    chi2, ncx2 = stats.chi2, stats.ncx2
    null = float(d.null)  # type: ignore[arg-type]
    exact = pk.power_n(null, d.expected, d.props, d.raters, d.alpha, d.power, d.sides)
    n = math.ceil(exact)
    crit = float(chi2.ppf(1 - d.alpha * (3 - d.sides), 1))
    achieved = float(ncx2.sf(crit, 1, n * pk.separation(d.expected, null, d.props, d.raters)))
    return _Answer("donner-eliasziw", n, exact, achieved)


def _simulated(d: Design, start: int, draw: Callable[..., np.ndarray], test: ps.Test) -> _Answer:
    """Search n by simulation from ``start``: √n is about linear in z of the power."""
    z_alpha, n, achieved = _Z.inv_cdf(1 - d.alpha / d.sides), start, 0.0
    for attempt in range(5):
        achieved = ps.rejection_rate(partial(draw, n), test, d.simulations, d.seed)
        if attempt == 4 or abs(achieved - d.power) < 0.01 or not 0 < achieved < 1:
            break
        step = ((z_alpha + _Z.inv_cdf(d.power)) / (z_alpha + _Z.inv_cdf(achieved))) ** 2
        moved = max(3, math.ceil(n * step))
        if moved == n:
            break
        n = moved
    return _Answer("simulation", n, achieved=achieved, simulations=d.simulations)


def _icc(d: Design) -> _Answer:
    null = float(d.null)  # type: ignore[arg-type]
    args = (null, d.expected, d.raters, d.alpha, d.power, d.sides)
    walter = ps.walter_n(*args)
    n = ps.icc_n(*args)
    if d.missing == 0:
        achieved = ps.icc_power(n, d.raters, null, d.expected, d.alpha, d.sides)
        return _Answer("f-test", n, achieved=achieved, closed_form=walter)

    def draw(m: int, g: np.random.Generator) -> np.ndarray:
        return ps.icc_data(m, d.raters, d.expected, d.missing, g)

    start = math.ceil(n / (1 - d.missing))
    answer = _simulated(d, start, draw, ps.icc_test(null, d.alpha, d.sides))
    return replace(answer, closed_form=walter)


def _alpha(d: Design) -> _Answer:
    null = float(d.null)  # type: ignore[arg-type]
    spread = ps.alpha_spread(d.expected, d.raters, d.props, d.missing, d.simulations, d.seed)
    z = _Z.inv_cdf(1 - d.alpha / d.sides) + _Z.inv_cdf(d.power)
    start = max(10, math.ceil((z * spread / (d.expected - null)) ** 2))

    def draw(m: int, g: np.random.Generator) -> np.ndarray:
        return ps.alpha_data(m, d.raters, d.expected, d.props, d.missing, g)

    return _simulated(d, start, draw, ps.alpha_test(null, d.alpha, d.sides))


SOLVE = {"cohen": _cohen, "fleiss": _fleiss, "icc": _icc, "alpha": _alpha}


def grid(d: Design) -> tuple[dict[str, float], ...]:
    """Return n at nearby designs (closed forms only; the simulations would take minutes)."""
    if d.coefficient == "alpha" or d.missing:
        return ()
    rows = []
    for shift in (-0.1, -0.05, 0.0, 0.05, 0.1):
        expected = round(d.expected + shift, 10)
        for key, level in _levels(d):
            trial = (
                replace(d, expected=expected, power=level)
                if key == "power"
                else replace(d, expected=expected, width=level)
            )
            try:
                goal(d.coefficient, expected, trial.null, trial.width)
                unit("expected", expected)
            except ValueError:
                continue
            rows.append({"expected": expected, key: level, "n": SOLVE[d.coefficient](trial).n})
    return tuple(rows)


def _levels(d: Design) -> list[tuple[str, float]]:
    if d.width is None:
        return [("power", p) for p in (0.7, 0.8, 0.9)]
    return [("width", round(d.width + w, 10)) for w in (-0.05, 0.0, 0.05) if d.width + w > 0]
