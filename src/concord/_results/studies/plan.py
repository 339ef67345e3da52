"""The result of :func:`concord.plan`: how many items a study needs, and why."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from concord._common.jsonable import jsonable
from concord._results.studies.studies_text import PlanText

_METHODS = {
    "cantor": "Cantor's (1996) z test of Cohen's κ, as R irr's N.cohen.kappa",
    "cantor-width": "the Wald interval of Cohen's κ with the Fleiss–Cohen–Everitt (1969) variance",
    "donner-eliasziw": (
        "the χ² goodness-of-fit test of Donner & Eliasziw (1992), as R kappaSize's Power*"
    ),
    "donner-rotondi": "the interval of Donner & Rotondi (2010), as R kappaSize's CI*",
    "f-test": "the exact power of the one-way F test of the ICC (Donner & Eliasziw 1987)",
    "simulation": "simulated studies of the planned design",
}
_NAMES = {
    "cohen": "Cohen's κ",
    "fleiss": "Fleiss' κ",
    "alpha": "Krippendorff's α",
    "icc": "the ICC",
}


def _n(value: float) -> str:
    return "—" if not math.isfinite(value) else f"{value:.4g}"


@dataclass(frozen=True, repr=False)
class PlanResult(PlanText):
    """How many items a study of agreement needs (:func:`concord.plan`).

    Attributes
    ----------
    coefficient : str
        'cohen', 'fleiss', 'alpha' or 'icc'.
    goal : str
        'power' (reject ``null`` when the coefficient is ``expected``) or
        'width' (an interval of ``width`` around ``expected``).
    method : str
        'cantor', 'cantor-width', 'donner-eliasziw', 'donner-rotondi',
        'f-test' or 'simulation'.
    n : int
        The number of items to rate.
    n_exact : float
        The unrounded n of a closed form (nan where n was searched).
    achieved_power : float
        The power at ``n``: from the method's own formula, or the share of
        ``simulations`` simulated studies that rejected; nan for a width.
    closed_form_n : float
        A second method's n for comparison: Walter, Eliasziw & Donner's
        (1998) for the ICC; nan elsewhere.
    expected, null, width : float or None
        The anticipated coefficient, the value to reject, the interval's width.
    alpha, power : float
        The test's level (the interval's 1 − level) and the power aimed at.
    sides : int
        1 or 2: a one- or two-sided test.
    raters : int
        Ratings per item.
    prevalence : tuple of float
        The category rates assumed (empty for the ICC).
    missing : float
        The share of ratings assumed missing at random.
    simulations : int
        Simulated studies behind ``achieved_power`` (0: none).
    grid : tuple of dict
        n over nearby designs: ``expected`` ± 0.05 and ± 0.1 by power 0.7,
        0.8 and 0.9 (or widths ± 0.05); empty for simulations.
    """

    coefficient: str
    goal: str
    method: str
    n: int
    n_exact: float
    achieved_power: float
    closed_form_n: float
    expected: float
    null: float | None
    width: float | None
    alpha: float
    power: float
    sides: int
    raters: int
    prevalence: tuple[float, ...]
    missing: float
    simulations: int
    grid: tuple[dict[str, float], ...]

    def __repr__(self) -> str:
        return (
            f"PlanResult(coefficient={self.coefficient!r}, goal={self.goal!r}, "
            f"method={self.method!r}, n={self.n})"
        )

    def __int__(self) -> int:
        return self.n

    def to_dict(self) -> dict[str, Any]:
        """Return the fields as plain Python values (JSON-ready: nan becomes None)."""
        return {
            name: jsonable(getattr(self, name))
            for name in self.__dataclass_fields__
            if name != "grid"
        } | {"grid": [dict(row) for row in self.grid]}

    def summary(self) -> str:
        """Return one sentence: the n and what it buys."""
        what = _NAMES[self.coefficient]
        if self.goal == "width":
            goal = (
                f"a {100 * (1 - self.alpha):g}% interval {self.width:g} wide around "
                f"{what} = {self.expected:g}"
            )
        else:
            goal = (
                f"{100 * self.power:g}% power to reject {what} = {self.null:g} when it is "
                f"{self.expected:g} ({self.sides}-sided, level {self.alpha:g})"
            )
        return f"{self.n} items rated by {self.raters} raters give {goal}."

    def explain(self) -> str:
        """Return a paragraph: the method, its assumptions and the check."""
        parts = [self.summary(), f"Method: {_METHODS[self.method]}."]
        if self.prevalence:
            rates = ", ".join(f"{p:g}" for p in self.prevalence)
            parts.append(f"Category rates assumed: {rates}.")
        if self.missing:
            parts.append(f"Each rating is missing at random with probability {self.missing:g}.")
        if math.isfinite(self.achieved_power):
            how = (
                f"in {self.simulations} simulated studies"
                if self.simulations
                else "by the formula"
            )
            parts.append(f"Power at n = {self.n}: {self.achieved_power:.3f} ({how}).")
        if math.isfinite(self.closed_form_n):
            walter = _n(self.closed_form_n)
            parts.append(f"Walter, Eliasziw & Donner's (1998) closed form gives n = {walter}.")
        return " ".join(parts)
