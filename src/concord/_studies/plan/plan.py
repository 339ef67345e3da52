"""``concord.plan``: how many items a study of agreement needs."""

from __future__ import annotations

from collections.abc import Sequence

from concord._common.errors import check_option
from concord._results.studies.plan import PlanResult
from concord._studies.plan.plan_check import COEFFICIENTS, design
from concord._studies.plan.plan_solve import SOLVE, grid


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
    d = design(
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
    answer = SOLVE[coefficient](d)
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
        grid=grid(d),
    )
