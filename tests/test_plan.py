"""concord.plan: published sample sizes, and the simulated power at the planned n.

Expected values come from R: irr 0.84.1's ``N.cohen.kappa`` and kappaSize
1.2's ``PowerBinary``, ``Power3Cats``, ``Power4Cats``, ``Power5Cats``,
``CIBinary``, ``CI3Cats``, ``CI4Cats`` and ``CI5Cats``, run on their CRAN
sources (R 4, ``source()`` of each file). The unrounded kappaSize n is printed
with R's 7 digits; kappaSize finds the noncentrality by bisection to 1e-5 in
probability, concord with scipy's root finder, hence the 1e-4 tolerance.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import concord
from concord._studies.plan import plan_sim

# N.cohen.kappa(rate1, rate2, k1 = true κ, k0 = null κ, alpha, power, twosided)
IRR = [
    # the irr manual's example: N.cohen.kappa(0.5, 0.5, 0.7, 0.85) = 96
    (dict(expected=0.7, null=0.85, prevalence=0.5), 96),
    # N.cohen.kappa(0.5, 0.5, 0.85, 0.7) = 117: the null at 0.7, as the example's comment reads
    (dict(expected=0.85, null=0.7, prevalence=0.5), 117),
    # N.cohen.kappa(0.3, 0.4, 0.6, 0.8, twosided=TRUE) = 90
    (dict(expected=0.6, null=0.8, prevalence=(0.3, 0.4), sides=2), 90),
    # N.cohen.kappa(0.2, 0.25, 0.6, 0.4, alpha=0.01, power=0.9, twosided=TRUE) = 399
    (dict(expected=0.6, null=0.4, prevalence=(0.2, 0.25), alpha=0.01, power=0.9, sides=2), 399),
    # N.cohen.kappa(0.3, 0.3, 0.4, 0) = 39 and, two-sided, 49: a null of 0 is allowed
    (dict(expected=0.4, null=0.0, prevalence=0.3), 39),
    (dict(expected=0.4, null=0.0, prevalence=0.3, sides=2), 49),
]


@pytest.mark.parametrize(("options", "n"), IRR)
def test_cohen_matches_irr(options: dict, n: int) -> None:
    result = concord.plan("cohen", **options)
    assert result.n == n
    assert result.method == "cantor"
    assert result.achieved_power >= result.power


# kappaSize, two-sided χ² test (sides=2): the manual's examples and PowerBinary over raters
POWER = [
    (0.3, 2, 190.4564),  # PowerBinary(0.4, 0.6, props=0.30)
    (0.3, 3, 105.5217),  # PowerBinary(0.4, 0.6, 0.3, raters=3)
    (0.3, 4, 80.61158),
    (0.3, 5, 68.74164),
    (0.3, 6, 61.69873),
    ((0.3, 0.6, 0.1), 2, 134.7823),  # Power3Cats(0.4, 0.6, c(.3, .6, .1))
    ((0.3, 0.6, 0.1), 4, 53.14919),  # Power3Cats(..., raters=4)
    ((0.3, 0.3, 0.3, 0.1), 2, 91.84611),  # Power4Cats(0.4, 0.6, c(.3, .3, .3, .1))
    ((0.3, 0.2, 0.1, 0.3, 0.1), 2, 82.72849),  # Power5Cats(0.4, 0.6, c(.3, .2, .1, .3, .1))
]


@pytest.mark.parametrize(("prevalence", "raters", "n_r"), POWER)
def test_fleiss_power_matches_kappasize(prevalence: object, raters: int, n_r: float) -> None:
    result = concord.plan(
        "fleiss", expected=0.6, null=0.4, prevalence=prevalence, raters=raters, sides=2
    )
    assert result.n_exact == pytest.approx(n_r, rel=1e-4)
    assert result.n == int(np.ceil(n_r))


WIDTH = [
    (0.4, 0.2, 0.3, 2, 397),  # CIBinary(0.4, 0.3, 0.5, props=0.30): the manual's example
    (0.6, 0.2, 0.2, 4, 212),  # CIBinary(0.6, 0.5, 0.7, props=0.2, raters=4)
    (0.5, 0.2, (0.3, 0.2, 0.5), 3, 126),  # CI3Cats(0.5, 0.4, 0.6, c(.3, .2, .5), raters=3)
    (0.4, 0.2, (0.3, 0.2, 0.2, 0.3), 2, 174),  # CI4Cats: the manual's example
    (0.4, 0.2, (0.13, 0.17, 0.2, 0.2, 0.3), 2, 153),  # CI5Cats: the manual's example
]


@pytest.mark.parametrize(("expected", "width", "prevalence", "raters", "n"), WIDTH)
def test_fleiss_width_matches_kappasize(
    expected: float, width: float, prevalence: object, raters: int, n: int
) -> None:
    result = concord.plan(
        "fleiss", expected=expected, width=width, prevalence=prevalence, raters=raters
    )
    assert (result.n, result.method, result.goal) == (n, "donner-rotondi", "width")


def test_cohen_width_is_the_wald_interval() -> None:
    # at the planned n the Wald interval of κ (z·SE each side) is at most 0.2 wide,
    # at n − 1 wider: SE from the Fleiss–Cohen–Everitt variance (irr's Q)
    from concord._studies.plan.plan_kappa import cantor_variance

    result = concord.plan("cohen", expected=0.8, width=0.2, prevalence=(0.3, 0.4))
    q = cantor_variance(0.8, 0.3, 0.4)
    half = 1.959963984540054
    assert 2 * half * np.sqrt(q / result.n) <= 0.2 < 2 * half * np.sqrt(q / (result.n - 1))


def test_icc_f_test_and_walter() -> None:
    # Walter, Eliasziw & Donner (1998), eq. 6, transcribed here by hand:
    # n = 1 + 2·(z_α + z_β)²·k / ((ln C0)²·(k − 1)), C0 = (1 + kθ0)/(1 + kθ1), θ = ρ/(1 − ρ)
    z = 1.6448536269514722 + 0.8416212335729143  # z of 0.95 and of 0.80
    for k in (2, 3, 5):
        c0 = (1 + k * 0.6 / 0.4) / (1 + k * 0.8 / 0.2)
        walter = 1 + 2 * z**2 * k / (math.log(c0) ** 2 * (k - 1))
        result = concord.plan("icc", expected=0.8, null=0.6, raters=k)
        assert result.closed_form_n == pytest.approx(walter, rel=1e-12)
        assert abs(result.n - walter) <= 1.5  # the closed form tracks the exact F test
        assert result.achieved_power >= 0.8
        # the exact power falls short one item earlier: n is the least that reaches 0.8
        assert plan_sim.icc_power(result.n - 1, k, 0.6, 0.8, 0.05, 1) < 0.8


def test_icc_power_holds_in_simulation() -> None:
    # a fresh seed: 2000 studies of the planned design, tested with concord.icc's F test
    result = concord.plan("icc", expected=0.8, null=0.6, raters=3)
    rate = plan_sim.rejection_rate(
        lambda g: plan_sim.icc_data(result.n, 3, 0.8, 0.0, g),
        plan_sim.icc_test(0.6, 0.05, 1),
        2000,
        2026,
    )
    assert abs(rate - 0.8) <= 0.02


def test_icc_with_missing_ratings_holds_in_simulation() -> None:
    result = concord.plan("icc", expected=0.8, null=0.6, raters=3, missing=0.2)
    assert result.method == "simulation" and result.n > 26  # ratings lost cost items
    rate = plan_sim.rejection_rate(
        lambda g: plan_sim.icc_data(result.n, 3, 0.8, 0.2, g),
        plan_sim.icc_test(0.6, 0.05, 1),
        2000,
        2026,
    )
    assert abs(rate - 0.8) <= 0.02


def test_alpha_power_holds_in_simulation() -> None:
    props = np.array([0.3, 0.4, 0.3])
    result = concord.plan(
        "alpha", expected=0.8, null=0.667, raters=3, prevalence=props, missing=0.1
    )
    assert abs(result.achieved_power - 0.8) <= 0.02
    rate = plan_sim.rejection_rate(
        lambda g: plan_sim.alpha_data(result.n, 3, 0.8, props, 0.1, g),
        plan_sim.alpha_test(0.667, 0.05, 1),
        2000,
        2026,
    )
    assert abs(rate - 0.8) <= 0.02


def test_alpha_mixture_has_the_planned_alpha() -> None:
    # the simulated design's α is ``expected``: a large study recovers it
    data = plan_sim.alpha_data(
        20000, 3, 0.7, np.array([0.2, 0.5, 0.3]), 0.1, np.random.default_rng(1)
    )
    assert concord.krippendorff_alpha(data).statistic == pytest.approx(0.7, abs=0.01)


def test_result_reads_and_serialises() -> None:
    result = concord.plan("cohen", expected=0.7, null=0.85)
    assert int(result) == 96
    assert result.summary() == (
        "96 items rated by 2 raters give 80% power to reject Cohen's κ = 0.85 when it is 0.7 "
        "(1-sided, level 0.05)."
    )
    assert "N.cohen.kappa" in result.explain()
    record = json.loads(json.dumps(result.to_dict()))
    assert record["n"] == 96 and record["width"] is None and record["closed_form_n"] is None
    assert {
        "expected": 0.7,
        "power": 0.9,
        "n": (concord.plan("cohen", expected=0.7, null=0.85, power=0.9).n),
    } in record["grid"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (dict(expected=0.7), "not both or neither"),
        (dict(expected=0.7, null=0.5, width=0.2), "not both or neither"),
        (dict(expected=0.7, null=0.7), "different from expected"),
        (dict(expected=1.2, null=0.5), "'expected' parameter of plan"),
        (dict(expected=0.9, width=0.3), "'expected' parameter"),
        (dict(expected=0.7, null=0.5, raters=3), "'raters' parameter"),
        (dict(expected=0.7, null=0.5, prevalence=(0.2, 0.3, 0.5)), "'prevalence' parameter"),
        (dict(expected=0.7, null=0.5, missing=0.1), "'missing' parameter"),
        (dict(expected=0.7, null=0.5, sides=3), "'sides' parameter"),
    ],
)
def test_errors_name_the_parameter(options: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        concord.plan("cohen", **options)


def test_errors_for_other_coefficients() -> None:
    with pytest.raises(ValueError, match="Did you mean 'cohen'"):
        concord.plan("coheen", expected=0.7, null=0.5)
    with pytest.raises(ValueError, match="'width' parameter"):
        concord.plan("icc", expected=0.7, width=0.2)
    with pytest.raises(ValueError, match="below expected"):
        concord.plan("alpha", expected=0.6, null=0.7)
    with pytest.raises(ValueError, match="sum to 1"):
        concord.plan("fleiss", expected=0.6, null=0.4, prevalence=(0.3, 0.3, 0.3))
