"""``concord.plan``'s parameters, checked: the planned design."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from concord._common.errors import ForCli, param_error

COEFFICIENTS = ("cohen", "fleiss", "alpha", "icc")


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
    if isinstance(prevalence, int | float):
        p = unit("prevalence", prevalence)
        return np.array([p, p]) if coefficient == "cohen" else np.array([1 - p, p])
    props = np.asarray(prevalence, dtype=float)
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
    raters = count("raters", raters, 2, 2 if coefficient == "cohen" else None)
    missing = unit("missing", missing, closed=True)
    if missing and coefficient not in ("icc", "alpha"):
        param_error("plan", "missing", "0 for 'cohen' and 'fleiss'", missing)
    return Design(
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
        seed,
    )
