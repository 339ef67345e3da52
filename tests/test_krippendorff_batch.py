"""The batched nominal α of ``concord.plan``'s simulations: krippendorff_alpha's, bit for bit.

:func:`concord._coefficients.krippendorff.krippendorff_batch.nominal_alphas`
computes α and its analytic SE of many simulated studies at once. The
expected values are ``concord.krippendorff_alpha(study).statistic`` and
``.standard_error`` one study at a time (themselves checked against
Krippendorff (2011), R irrCAC and the krippendorff package in
tests/test_krippendorff*.py), compared with ``==``. The plan results below
were computed by concord at commit 8f8f673, before the batched path, which
tested each simulated study with ``krippendorff_alpha``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import concord
from concord._coefficients.krippendorff import krippendorff as kripp
from concord._coefficients.krippendorff.krippendorff_batch import nominal_alphas
from concord._studies.plan import plan_sim

nan = np.nan


def one_by_one(studies: list[np.ndarray]) -> tuple[list[float], list[float]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = [concord.krippendorff_alpha(x) for x in studies]
    return [r.statistic for r in results], [r.standard_error for r in results]


def same(got: np.ndarray, want: list[float]) -> bool:
    """Equal bit for bit (``==``), nan where nan."""
    return len(got) == len(want) and all(
        (math.isnan(a) and math.isnan(b)) or a == b
        for a, b in zip(got.tolist(), want, strict=True)
    )


@pytest.mark.parametrize("seed", range(24))
def test_batch_equals_krippendorff_alpha_on_simulated_designs(seed: int) -> None:
    # plan's designs: 2 to 6 raters, 2 to 5 categories with rare ones, α from 0 to 1,
    # missing ratings, studies of 2 to 120 items (some with no pairable item, some
    # using only some categories, some with α undefined)
    rng = np.random.default_rng(seed)
    raters, k = int(rng.integers(2, 7)), int(rng.integers(2, 6))
    props = rng.dirichlet(np.ones(k) * rng.choice([0.3, 1.0, 5.0]))
    rho, missing = float(rng.uniform(0, 1)), float(rng.choice([0.0, 0.1, 0.3, 0.6]))
    studies = [
        plan_sim.alpha_data(int(rng.integers(2, 121)), raters, rho, props, missing, rng)
        for _ in range(50)
    ]
    alphas, ses = nominal_alphas(studies)
    want_alphas, want_ses = one_by_one(studies)
    assert same(alphas, want_alphas)
    assert same(ses, want_ses)


def test_batch_equals_krippendorff_alpha_on_edge_studies() -> None:
    studies = [
        np.array([[0, 1, 1], [1, 1, 1], [0, 0, 0]], dtype=float),  # complete
        np.array([[0, nan, nan], [nan, 1, nan], [1, nan, nan]]),  # none rated twice: nan
        np.array([[2, 2, 2], [2, 2, nan]]),  # one category: α undefined
        np.array([[0, 2, 2], [2, 2, nan], [0, 0, 0], [nan, nan, nan]]),  # 1 unused, empty row
        np.array([[3, 0, nan], [3, 3, 1], [nan, 1, 1], [0, nan, 3]]),  # 2 unused
        np.array([[1, 1, nan], [0, nan, nan]]),  # one pairable item
        np.array([[0, 1, 2], [2, 1, 0], [1, 2, 0]], dtype=float),  # no agreement
    ]
    alphas, ses = nominal_alphas(studies)  # no warning: nan where α is undefined
    want_alphas, want_ses = one_by_one(studies)
    assert same(alphas, want_alphas)
    assert same(ses, want_ses)
    two = [np.array([[0, 1], [1, 1], [0, 0]], dtype=float), np.array([[0, nan], [nan, 1]])]
    alphas, ses = nominal_alphas(two)
    assert same(alphas, one_by_one(two)[0])
    assert same(ses, one_by_one(two)[1])


def test_batch_leaves_what_it_does_not_cover_to_krippendorff_alpha() -> None:
    # codes beyond 254, negative or non-integral values, a study without a rating:
    # krippendorff_alpha's own values, or its own error
    fine = np.array([[0, 1], [1, 1]], dtype=float)
    for other in (np.array([[0, 1], [1, 300.0]]), np.array([[-1, 0], [0, 0.0]]), fine[:, :1]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # krippendorff_alpha's own: α undefined
            alphas, ses = nominal_alphas([fine, other])
        assert same(alphas, one_by_one([fine, other])[0])
        assert same(ses, one_by_one([fine, other])[1])
    for bad in (np.full((3, 2), nan), np.array([[0.5, 1], [1, 1]])):
        with pytest.raises(ValueError) as want:
            concord.krippendorff_alpha(bad)
        with pytest.raises(ValueError) as got:
            nominal_alphas([fine, bad])
        assert str(got.value) == str(want.value)


# concord.plan("alpha", **design): (n, achieved_power) at commit 8f8f673
PLANS = [
    (dict(expected=0.8, null=0.667, raters=3, prevalence=[0.3, 0.4, 0.3], missing=0.1), 89, 0.797),
    (
        dict(expected=0.7, null=0.5, raters=2, prevalence=0.3, simulations=300, seed=1),
        108,
        0.8066666666666666,
    ),
    (
        dict(
            expected=0.6,
            null=0.4,
            raters=4,
            prevalence=[0.1, 0.2, 0.3, 0.4],
            missing=0.25,
            simulations=300,
            seed=7,
        ),
        65,
        0.8066666666666666,
    ),
    (
        dict(
            expected=0.85,
            null=0.7,
            raters=5,
            prevalence=[0.05, 0.95],
            missing=0.3,
            simulations=200,
            seed=3,
            sides=2,
        ),
        494,
        0.795,
    ),
    (
        dict(
            expected=0.5,
            null=0.3,
            raters=3,
            prevalence=[0.5, 0.3, 0.15, 0.05],
            missing=0.5,
            simulations=200,
            seed=11,
            power=0.9,
        ),
        246,
        0.93,
    ),
    (
        dict(
            expected=0.9,
            null=0.8,
            raters=2,
            prevalence=[0.2, 0.8],
            missing=0.05,
            simulations=250,
            seed=5,
            alpha=0.01,
        ),
        380,
        0.776,
    ),
]


@pytest.mark.parametrize(("design", "n", "achieved"), PLANS)
def test_plan_alpha_unchanged_by_the_batches(design: dict, n: int, achieved: float) -> None:
    result = concord.plan("alpha", **design)
    assert (result.n, result.achieved_power) == (n, achieved)


def test_plan_alpha_pilots_and_rejection_rates_unchanged() -> None:
    # plan_sim.alpha_spread and rejection_rate at commit 8f8f673, to the last bit; the
    # spreads' last bits since the SE's p_e and r·π̄ are exact, rounded once, and the
    # mean of the pilot SEs an exact sum (were 0.5805286848278195 and 0.9788596638142191)
    spreads = [
        ((0.8, 3, [0.3, 0.4, 0.3], 0.1, 1000, 0), 0.4621190148707865),
        ((0.6, 4, [0.1, 0.2, 0.3, 0.4], 0.25, 300, 7), 0.5805286848278194),
        ((0.85, 5, [0.05, 0.95], 0.3, 200, 3), 0.9788596638142193),
    ]
    for (expected, raters, props, missing, reps, seed), want in spreads:
        got = plan_sim.alpha_spread(expected, raters, np.array(props), missing, reps, seed)
        assert got == want
    rates = [
        (60, (3, 0.8, [0.3, 0.4, 0.3], 0.1), 0.69),
        (40, (4, 0.6, [0.1, 0.2, 0.3, 0.4], 0.25), 0.436),
        (150, (5, 0.85, [0.05, 0.95], 0.3), 0.516),
    ]
    for n, (raters, rho, props, missing), want in rates:
        rate = plan_sim.rejection_rate(
            lambda g, n=n, r=raters, e=rho, p=props, m=missing: plan_sim.alpha_data(
                n, r, e, np.array(p), m, g
            ),
            plan_sim.alpha_test(rho - 0.15, 0.05, 1),
            500,
            2,
        )
        assert rate == want


def test_plan_alpha_does_not_compute_alpha_study_by_study(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("krippendorff_alpha called for one simulated study")

    monkeypatch.setattr(kripp, "krippendorff_alpha", refused)
    design = PLANS[0][0]
    assert concord.plan("alpha", **design, simulations=200).n > 0
