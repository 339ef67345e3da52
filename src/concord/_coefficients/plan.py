"""``concord.plan``: how many items a study of agreement needs."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from statistics import NormalDist

import numpy as np

from concord._coefficients import plan_kappa as pk
from concord._coefficients import plan_sim as ps
from concord._common.errors import ForCli, check_option, param_error
from concord._results.plan import PlanResult

_Z = NormalDist()
COEFFICIENTS = ("cohen", "fleiss", "alpha", "icc")
_NAN = float("nan")


@dataclass(frozen=True)
class _Design:
    coefficient: str
    expected: float
    null: float | None
    width: float | None
    props: np.ndarray  # category rates; for 'cohen', (rate1, rate2)
    raters: int
    alpha: float
    power: float
    sides: int
    missing: float
    simulations: int
    seed: int | None


@dataclass(frozen=True)
class _Answer:
    method: str
    n: int
    n_exact: float = _NAN
    achieved: float = _NAN
    closed_form: float = _NAN
    simulations: int = 0


def _cohen(d: _Design) -> _Answer:
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


def _fleiss(d: _Design) -> _Answer:
    if d.width is not None:
        n = pk.width_n(d.expected, d.props, d.raters, d.alpha, d.width)
        return _Answer("donner-rotondi", n)
    from scipy.stats import chi2, ncx2

    null = float(d.null)  # type: ignore[arg-type]
    exact = pk.power_n(null, d.expected, d.props, d.raters, d.alpha, d.power, d.sides)
    n = math.ceil(exact)
    crit = float(chi2.ppf(1 - d.alpha * (3 - d.sides), 1))
    achieved = float(ncx2.sf(crit, 1, n * pk.separation(d.expected, null, d.props, d.raters)))
    return _Answer("donner-eliasziw", n, exact, achieved)


def _simulated(d: _Design, start: int, draw: Callable[..., np.ndarray], test: ps.Test) -> _Answer:
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


def _icc(d: _Design) -> _Answer:
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


def _alpha(d: _Design) -> _Answer:
    null = float(d.null)  # type: ignore[arg-type]
    spread = ps.alpha_spread(d.expected, d.raters, d.props, d.missing, d.simulations, d.seed)
    z = _Z.inv_cdf(1 - d.alpha / d.sides) + _Z.inv_cdf(d.power)
    start = max(10, math.ceil((z * spread / (d.expected - null)) ** 2))

    def draw(m: int, g: np.random.Generator) -> np.ndarray:
        return ps.alpha_data(m, d.raters, d.expected, d.props, d.missing, g)

    return _simulated(d, start, draw, ps.alpha_test(null, d.alpha, d.sides))


_SOLVE = {"cohen": _cohen, "fleiss": _fleiss, "icc": _icc, "alpha": _alpha}


def _unit(name: str, value: float, *, closed: bool = False) -> float:
    """Return ``value`` as a float in (0, 1) (or [0, 1) with ``closed``), else raise."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        param_error("plan", name, "a number", value, exc=TypeError)
    if not (0 <= x < 1 if closed else 0 < x < 1):
        param_error("plan", name, "in [0, 1)" if closed else "strictly between 0 and 1", value)
    return x


def _rates(coefficient: str, prevalence: float | Sequence[float]) -> np.ndarray:
    """Return the category rates: (1 − p, p) for one p; for 'cohen' a pair is (rate1, rate2)."""
    if isinstance(prevalence, int | float):
        p = _unit("prevalence", prevalence)
        return np.array([p, p]) if coefficient == "cohen" else np.array([1 - p, p])
    props = np.asarray(prevalence, dtype=float)
    if coefficient == "cohen":
        if props.shape != (2,):
            param_error("plan", "prevalence", "one rate or (rate1, rate2) for 'cohen'", prevalence)
        return np.array([_unit("prevalence", x) for x in props])
    if props.ndim != 1 or props.size < 2 or np.any(props <= 0) or abs(props.sum() - 1) > 1e-3:
        param_error(
            "plan",
            "prevalence",
            "one rate in (0, 1) or positive category rates that sum to 1",
            prevalence,
        )
    return props


def _goal(coefficient: str, expected: float, null: float | None, width: float | None) -> None:
    """Check that exactly one goal is set, and that it fits the coefficient."""
    if (null is None) == (width is None):
        param_error(
            "plan",
            "null",
            "set (a test) or width set (an interval), not both or neither",
            null,
            fix="Pass null=... for power, or width=... for precision.",
            cli=ForCli(
                expected="set (a test) or {width} set (an interval), not both or neither",
                fix="Pass {null} for power, or {width} for precision.",
            ),
        )
    if width is not None:
        if coefficient not in ("cohen", "fleiss"):
            param_error("plan", "width", "None for 'alpha' and 'icc' (plan them by power)", width)
        bound = _unit("width", width)
        _unit("expected", expected - bound / 2)
        _unit("expected", expected + bound / 2)
    elif null == expected:
        param_error("plan", "null", "different from expected", null)
    elif coefficient in ("alpha", "icc") and null is not None and null > expected:
        param_error("plan", "null", f"below expected ({expected:g}) for {coefficient!r}", null)


def _grid(d: _Design) -> tuple[dict[str, float], ...]:
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
                _goal(d.coefficient, expected, trial.null, trial.width)
                _unit("expected", expected)
            except ValueError:
                continue
            rows.append({"expected": expected, key: level, "n": _SOLVE[d.coefficient](trial).n})
    return tuple(rows)


def _levels(d: _Design) -> list[tuple[str, float]]:
    if d.width is None:
        return [("power", p) for p in (0.7, 0.8, 0.9)]
    return [("width", round(d.width + w, 10)) for w in (-0.05, 0.0, 0.05) if d.width + w > 0]


def plan(
    coefficient: str = "cohen",
    /,
    *,
    expected: float,
    null: float | None = None,
    width: float | None = None,
    prevalence: float | Sequence[float] = 0.5,
    raters: int = 2,
    alpha: float = 0.05,
    power: float = 0.8,
    sides: int = 1,
    missing: float = 0.0,
    simulations: int = 1000,
    seed: int | None = 0,
) -> PlanResult:
    """Return how many items a study of agreement needs.

    Two goals. Power: pass ``null``, and n is the number of items for which
    a test of H0: coefficient = ``null`` rejects with probability ``power``
    when the coefficient is ``expected`` (κ₀ and κ₁ of the literature).
    Precision: pass ``width``, and n is the number of items whose
    (1 − ``alpha``) interval around ``expected`` is ``width`` wide.

    ========== ======================================================================
    'cohen'    two raters, two categories: Cantor (1996), as R irr's
               ``N.cohen.kappa``; ``prevalence`` is both raters' rate of the
               positive category, or (rate1, rate2). Width: the Wald interval
               with the Fleiss–Cohen–Everitt variance.
    'fleiss'   κ of m raters (2 or more) and k categories, as R kappaSize: the
               χ² test of Donner & Eliasziw (1992) (``Power*``: ``sides=2``) or
               the interval of Donner & Rotondi (2010) (``CI*``).
    'icc'      the one-way ICC of m raters: the exact power of its F test, with
               Walter, Eliasziw & Donner's (1998) closed form beside it; with
               ``missing`` > 0, searched by simulating the design.
    'alpha'    nominal Krippendorff's α of m raters and k categories, with each
               rating missing at random with probability ``missing``: searched
               by simulating the design and testing with α's analytic SE.
    ========== ======================================================================

    Simulated studies draw each item's category from ``prevalence`` and, with
    probability ``expected``, give it to every rater, else let each rater draw
    independently (the mixture whose κ and α are ``expected``); for the ICC,
    item effects of variance ``expected`` plus errors of variance
    1 − ``expected``. The search starts from a closed-form n and corrects it
    until ``simulations`` studies (seeded by ``seed``) reject at the target
    rate within a point; ``achieved_power`` reports that rate.

    Parameters
    ----------
    coefficient : {'cohen', 'fleiss', 'icc', 'alpha'}
        What the study will report.
    expected : float
        The coefficient's anticipated value.
    null : float, optional
        The value to reject (power goal). For 'icc' and 'alpha', below ``expected``.
    width : float, optional
        The interval's full width (precision goal; 'cohen' and 'fleiss').
    prevalence : float or sequence of float, default 0.5
        The positive category's rate, or every category's rate (summing to 1).
    raters : int, default 2
        Ratings per item (2 for 'cohen').
    alpha : float, default 0.05
        The test's level; the interval's level is 1 − alpha.
    power : float, default 0.8
        The power aimed at.
    sides : {1, 2}, default 1
        A one-sided test (irr's default) or a two-sided one (kappaSize's).
    missing : float, default 0
        The share of ratings missing at random ('icc' and 'alpha').
    simulations : int, default 1000
        Simulated studies per candidate n.
    seed : int or None, default 0
        The simulations' seed.

    Returns
    -------
    PlanResult
        ``n``, the method, the power it achieves, and ``grid``: n over nearby designs.

    References
    ----------
    Cantor, A. B. (1996). Sample-size calculations for Cohen's kappa.
    Psychological Methods 1(2), 150–153.
    Donner, A. & Eliasziw, M. (1992). A goodness-of-fit approach to inference
    procedures for the kappa statistic. Statistics in Medicine 11, 1511–1519.
    Donner, A. & Rotondi, M. A. (2010). Sample size requirements for interval
    estimation of the kappa statistic. International Journal of Biostatistics 6(1).
    Walter, S. D., Eliasziw, M. & Donner, A. (1998). Sample size and optimal
    designs for reliability studies. Statistics in Medicine 17, 101–110.

    Examples
    --------
    R irr's ``N.cohen.kappa(0.5, 0.5, 0.7, 0.85)`` (true κ 0.7, null 0.85):

    >>> import concord
    >>> concord.plan("cohen", expected=0.7, null=0.85, prevalence=0.5).n
    96

    R kappaSize's ``PowerBinary(0.4, 0.6, props=0.3)`` (190.46, two-sided):

    >>> concord.plan("fleiss", expected=0.6, null=0.4, prevalence=0.3, sides=2).n
    191
    """
    check_option("plan", "coefficient", coefficient, COEFFICIENTS)
    d = _design(
        coefficient,
        expected,
        null,
        width,
        prevalence,
        raters,
        alpha,
        power,
        sides,
        missing,
        simulations,
        seed,
    )
    answer = _SOLVE[coefficient](d)
    return PlanResult(
        coefficient=coefficient,
        goal="power" if width is None else "width",
        method=answer.method,
        n=answer.n,
        n_exact=answer.n_exact,
        achieved_power=answer.achieved,
        closed_form_n=answer.closed_form,
        expected=d.expected,
        null=d.null,
        width=d.width,
        alpha=d.alpha,
        power=d.power,
        sides=d.sides,
        raters=d.raters,
        prevalence=() if coefficient == "icc" else tuple(float(p) for p in d.props),
        missing=d.missing,
        simulations=answer.simulations,
        grid=_grid(d),
    )


def _count(name: str, value: int, least: int, most: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        param_error("plan", name, "an integer", value, exc=TypeError)
    if value < least or (most is not None and value > most):
        span = f"between {least} and {most}" if most is not None else f"at least {least}"
        param_error("plan", name, span, value)
    return int(value)


def _design(
    coefficient: str,
    expected: float,
    null: float | None,
    width: float | None,
    prevalence: float | Sequence[float],
    raters: int,
    alpha: float,
    power: float,
    sides: int,
    missing: float,
    simulations: int,
    seed: int | None,
) -> _Design:
    """Return the checked design, or raise the first parameter's error."""
    expected = _unit("expected", expected)
    null = None if null is None else _unit("null", null)
    width = None if width is None else float(width)
    _goal(coefficient, expected, null, width)
    raters = _count("raters", raters, 2, 2 if coefficient == "cohen" else None)
    missing = _unit("missing", missing, closed=True)
    if missing and coefficient not in ("icc", "alpha"):
        param_error("plan", "missing", "0 for 'cohen' and 'fleiss'", missing)
    return _Design(
        coefficient,
        expected,
        null,
        width,
        _rates(coefficient, prevalence),
        raters,
        _unit("alpha", alpha),
        _unit("power", power),
        _count("sides", sides, 1, 2),
        missing,
        _count("simulations", simulations, 10),
        seed,
    )
