"""``concord.plan``'s methods: each coefficient's n for a checked design, and the grid."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from statistics import NormalDist

import numpy as np

from concord._common.errors import ForCli, fail, param_error
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


# the most ratings one search step may simulate (simulations × items × raters): about 25 s
# on one core (1.3 µs a rating for the ICC); beyond it plan() says so at once instead of
# running for many minutes
BUDGET = 2 * 10**7


def _affordable(d: Design, n: float) -> None:
    """Refuse a simulation of ``n`` items per study that would run for many minutes."""
    cells = d.simulations * n * d.raters
    if not cells <= BUDGET:  # nan too
        kept = ""
        if d.missing:
            kept = (
                f" With missing={d.missing:g}, only {100 * _paired_share(d):.2g}% of the items "
                "keep two ratings or more."
            )
        fix = (
            "Lower {missing}, move {null} further from {expected}, or lower {simulations} "
            f"(the search simulates at most {BUDGET:.0e} ratings a step)."
        )
        name = "simulations" if d.simulations > 1000 else "missing" if d.missing else "null"
        param_error(
            "plan",
            name,
            "a design whose simulation runs in minutes",
            f"{d.simulations:,} simulated studies of about {n:,.0f} items × {d.raters} raters "
            "per search step",
            raw=True,
            fix=f"{kept} {fix.replace('{', '').replace('}', '')}".lstrip(),
            cli=ForCli(fix=f"{kept} {fix}".lstrip()),
        )


def _paired_share(d: Design) -> float:
    """Return the chance that an item keeps two ratings or more, each missing at random."""
    m, k = d.missing, d.raters
    return 1 - m**k - k * (1 - m) * m ** (k - 1)


def _simulated(d: Design, start: int, draw: Callable[..., np.ndarray], test: ps.Test) -> _Answer:
    """Search n by simulation from ``start``: √n is about linear in z of the power.

    A rate of 0 (or 1) says nothing of the distance: n grows fourfold (halves, down to
    3 items). A search that ends at a rate of 0 has no answer, and says so.
    """
    z_alpha, n, achieved = _Z.inv_cdf(1 - d.alpha / d.sides), start, 0.0
    for attempt in range(5):
        _affordable(d, n)
        achieved = ps.rejection_rate(partial(draw, n), test, d.simulations, d.seed)
        if attempt == 4 or abs(achieved - d.power) < 0.01:
            break
        below = 0 < achieved < 1 and z_alpha + _Z.inv_cdf(achieved) <= 0
        if achieved == 0 or below or (achieved == 1 and n > 3):
            # at or below the test's size the rate says nothing of the distance either
            n = 4 * n if achieved < 1 else max(3, n // 2)
            continue
        if achieved == 1:  # 3 items already reach the power
            break
        step = ((z_alpha + _Z.inv_cdf(d.power)) / (z_alpha + _Z.inv_cdf(achieved))) ** 2
        moved = max(3, math.ceil(n * step))
        if moved == n:
            break
        n = moved
    if achieved == 0:
        fail(
            f"plan could not find n: after 5 steps of {d.simulations} simulated studies, "
            f"{n} items reject at rate {achieved:g}, not near power {d.power:g}. Raise "
            "simulations, or check the design (missing, null, raters).",
            cli="plan could not find n: the simulated studies reject at rate "
            f"{achieved:g} at {n} items, not near {{power}} {d.power:g}. Raise "
            "{simulations}, or check the design.",
        )
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

    _affordable(d, n / _paired_share(d))  # a lower bound of the items needed: fail at once
    start = math.ceil(n / (1 - d.missing))
    answer = _simulated(d, start, draw, ps.icc_test(null, d.alpha, d.sides))
    return replace(answer, closed_form=walter)


def _alpha(d: Design) -> _Answer:
    null = float(d.null)  # type: ignore[arg-type]
    _affordable(d, 50)  # the pilots: simulations / 4 studies of 200 items
    spread = ps.alpha_spread(d.expected, d.raters, d.props, d.missing, d.simulations, d.seed)
    if not math.isfinite(spread):
        name, given = (
            ("missing", f"{d.missing:g}")
            if d.missing
            else ("prevalence", f"{tuple(float(p) for p in d.props)}")
        )
        param_error(
            "plan",
            name,
            "a design whose simulated pilot studies (200 items) have a defined α",
            given,
            raw=True,
            fix="α is undefined where no item keeps two ratings or every pairable rating falls "
            "in one category; lower missing or raise the rarest rate.",
        )
    z = _Z.inv_cdf(1 - d.alpha / d.sides) + _Z.inv_cdf(d.power)
    guess = (z * spread / (d.expected - null)) ** 2
    _affordable(d, guess)
    start = max(10, math.ceil(guess))

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
