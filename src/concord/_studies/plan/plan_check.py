"""``concord.plan``'s parameters, checked: the planned design."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from concord._common.errors import ForCli, param_error

COEFFICIENTS = ("cohen", "fleiss", "alpha", "icc")
# kappaSize plans 2 to 6 raters; its cell probabilities take 0.5 s each beyond 10⁶ raters
_MOST_FLEISS = 1000


@dataclass(frozen=True)
class Design:
    """A planned study, checked: what plan() was asked, with the category rates as an array."""

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


def unit(name: str, value: float, *, closed: bool = False) -> float:
    """Return ``value`` as a float in (0, 1) (or [0, 1) with ``closed``), else raise."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        param_error("plan", name, "a number", value, exc=TypeError)
    if not (0 <= x < 1 if closed else 0 < x < 1):
        param_error("plan", name, "in [0, 1)" if closed else "strictly between 0 and 1", value)
    return x


def rates(coefficient: str, prevalence: float | Sequence[float]) -> np.ndarray:
    """Return the category rates: (1 − p, p) for one p; for 'cohen' a pair is (rate1, rate2)."""
    if isinstance(prevalence, int | float) and not isinstance(prevalence, bool):
        p = unit("prevalence", prevalence)
        return np.array([p, p]) if coefficient == "cohen" else np.array([1 - p, p])
    try:
        if isinstance(prevalence, str | bytes | bool | dict):
            raise TypeError
        props = np.asarray(prevalence, dtype=float)
    except (TypeError, ValueError):
        param_error(
            "plan",
            "prevalence",
            "a rate in (0, 1), or a sequence of category rates",
            prevalence,
            exc=TypeError,
            fix="For three categories pass e.g. prevalence=(0.2, 0.5, 0.3).",
        )
    if coefficient == "cohen":
        if props.shape != (2,):
            param_error("plan", "prevalence", "one rate or (rate1, rate2) for 'cohen'", prevalence)
        return np.array([unit("prevalence", x) for x in props])
    if props.ndim != 1 or props.size < 2 or np.any(props <= 0) or abs(props.sum() - 1) > 1e-3:
        param_error(
            "plan",
            "prevalence",
            "one rate in (0, 1) or positive category rates that sum to 1",
            prevalence,
        )
    return props


def goal(coefficient: str, expected: float, null: float | None, width: float | None) -> None:
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
                got="neither" if null is None else "both",  # the library's words: None
                fix="Pass {null} for power, or {width} for precision.",
            ),
        )
    if width is not None:
        if coefficient not in ("cohen", "fleiss"):
            param_error(
                "plan",
                "width",
                "None for 'alpha' and 'icc' (plan them by power)",
                width,
                cli=ForCli(
                    expected="left out for 'alpha' and 'icc' (plan them by power, with {null})"
                ),
            )
        bound = unit("width", width)
        unit("expected", expected - bound / 2)
        unit("expected", expected + bound / 2)
    elif null == expected:
        param_error(
            "plan",
            "null",
            "different from expected",
            null,
            cli=ForCli("different from {expected}"),
        )
    elif coefficient in ("alpha", "icc") and null is not None and null > expected:
        where = f"({expected:g}) for {coefficient!r}"
        param_error(
            "plan",
            "null",
            f"below expected {where}",
            null,
            cli=ForCli(f"below {{expected}} {where}"),
        )


def count(name: str, value: int, least: int, most: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        param_error("plan", name, "an integer", value, exc=TypeError)
    if value < least or (most is not None and value > most):
        span = f"between {least} and {most}" if most is not None else f"at least {least}"
        span = str(least) if least == most else span
        param_error("plan", name, span, value)
    return int(value)


def design(
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
) -> Design:
    """Return the checked design, or raise the first parameter's error."""
    expected = unit("expected", expected)
    null = None if null is None else unit("null", null, closed=True)
    width = None if width is None else float(width)
    goal(coefficient, expected, null, width)
    most = {"cohen": 2, "fleiss": _MOST_FLEISS}.get(coefficient)
    raters = count("raters", raters, 2, most)
    missing = unit("missing", missing, closed=True)
    if missing and coefficient not in ("icc", "alpha"):
        param_error("plan", "missing", "0 for 'cohen' and 'fleiss'", missing)
    d = Design(
        coefficient,
        expected,
        null,
        width,
        rates(coefficient, prevalence),
        raters,
        unit("alpha", alpha),
        unit("power", power),
        count("sides", sides, 1, 2),
        missing,
        count("simulations", simulations, 10),
        None if seed is None else count("seed", seed, 0),
    )
    _reachable(d)
    return d


def _reachable(d: Design) -> None:
    """Refuse a power no test falls short of, and a Cohen's κ these rates cannot reach."""
    # kappaSize's one-sided χ² test has size 2α (sides=1), every other test α
    size = d.alpha * (3 - d.sides) if d.coefficient == "fleiss" else d.alpha
    if d.null is not None and not d.power > size:
        param_error(
            "plan",
            "power",
            f"greater than {size:g}, the test's size",
            d.power,
            fix="At any n the test rejects at least that often; ask for the power you need "
            "(0.8 or 0.9 are usual).",
        )
    if d.coefficient != "cohen":
        return
    from concord._studies.plan.plan_kappa import cantor_variance

    rate1, rate2 = float(d.props[0]), float(d.props[1])
    low, high = kappa_range(rate1, rate2)
    shown = f"({d.props[0]:g}, {d.props[1]:g})"
    for name, value in (("expected", d.expected), ("null", d.null)):
        # irr's N.cohen.kappa computes a κ a little beyond the reachable range too (its
        # manual's 0.8 at rates 0.3 and 0.4, whose most is 0.78); where the variance
        # turns negative there is no answer
        if value is not None and not cantor_variance(value, rate1, rate2) >= 0:
            param_error(
                "plan",
                name,
                f"a κ that raters with rates {shown} can reach: between {low:.4g} and {high:.4g}",
                value,
                fix="Two raters whose positive rates differ this much cannot agree more; "
                "check prevalence.",
                cli=ForCli(
                    fix="Two raters whose positive rates differ this much cannot agree "
                    "more; check {prevalence}."
                ),
            )


def kappa_range(rate1: float, rate2: float) -> tuple[float, float]:
    """Return the least and the greatest Cohen's κ of a 2×2 table with these positive rates."""
    pe = rate1 * rate2 + (1 - rate1) * (1 - rate2)
    # po = p11 + p22 = 2·p11 + 1 − rate1 − rate2, p11 between its Fréchet bounds
    bounds = (max(0.0, rate1 + rate2 - 1), min(rate1, rate2))
    low, high = ((2 * p11 + 1 - rate1 - rate2 - pe) / (1 - pe) for p11 in bounds)
    return low, high
