"""Every worked example of the seed notebooks, reproduced with concord.

The seeds are the project's teaching notebooks (shared/seeds, not read at
test time; the data are typed here):

* 000 "Motivations Behind this Notebook" (LEAP essay scoring, QWK step by step)
* 001 "Quadratic Weighted Kappa" (PANDA competition, O, W, E explained)
* 002 "Quadratic Kappa Metric" (PetFinder, in Spanish, with Ben Hamner's code)
* 003 "Evaluations: Exploring Evaluation Strategies and Kappa's Score" (sentiment)
* 004 a blog post reproducing Ben Hamner's Metrics code (in Chinese)

Each expected value is the one the seed prints, compared to the exact
rational value; where a seed is wrong, the test says so and why.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import concord
from tests.exact_reference import fraction_kappa, fraction_table, positions_weights

# --- seed 000: a grade shift costs less the smaller it is -------------------------------------
Y_TRUE = np.array([1, 1, 1, 2, 2, 2])


@pytest.mark.parametrize(
    ("shift", "printed", "exact"),
    [(2, 0.11111111111111116, Fraction(1, 9)), (1, 0.33333333333333337, Fraction(1, 3))],
)
def test_seed000_quadratic_shift(shift, printed, exact):
    # seed 000 prints 0.11111111111111116 and 0.33333333333333337 (float noise of 1/9, 1/3)
    qwk = concord.quadratic_weighted_kappa(Y_TRUE, Y_TRUE + shift, min_rating=1, max_rating=6)
    assert qwk == float(exact)
    assert qwk == pytest.approx(printed, abs=1e-15)
    r = concord.cohen_kappa(Y_TRUE, Y_TRUE + shift, weights="quadratic", labels=range(1, 7))
    assert r.statistic == float(exact)
    # the seed's sklearn appendix: cohen_kappa_score(..., labels=[1..6]) gives the same
    sk = cohen_kappa_score(Y_TRUE, Y_TRUE + shift, weights="quadratic", labels=range(1, 7))
    assert r.statistic == pytest.approx(sk, abs=1e-15)


@pytest.mark.parametrize(("shift", "exact"), [(2, Fraction(0)), (1, Fraction(-1, 3))])
def test_seed000_unweighted_shift(shift, exact):
    # compute_kappa in seed 000: ΣW·O = 6 in both cases, ΣW·E = 6 (+2) and 4.5 (+1)
    r = concord.cohen_kappa(Y_TRUE, Y_TRUE + shift, labels=range(1, 7))
    assert r.statistic == float(exact)
    wo = (r.weights * r.observed).sum()
    we = (r.weights * r.expected).sum()
    assert (wo, we) == (6, 6.0 if shift == 2 else 4.5)


def test_seed000_identical_matrices():
    # seed 000 prints O and E for y_true vs itself on a 6-point scale
    r = concord.cohen_kappa(Y_TRUE, Y_TRUE, labels=range(1, 7))
    expected_o = np.zeros((6, 6))
    expected_o[0, 0] = expected_o[1, 1] = 3
    np.testing.assert_array_equal(r.observed, expected_o)
    expected_e = np.zeros((6, 6))
    expected_e[:2, :2] = 1.5  # np.outer([.5, .5], [.5, .5]) * 6
    np.testing.assert_array_equal(r.expected, expected_e)
    assert r.statistic == 1.0


def test_seed000_weights_print():
    # compute_weights_matrix(6): (i - j)**2 / 25, e.g. 0.04 for neighbours
    w = concord.weight_matrix(range(1, 7), "quadratic")
    assert w[0, 1] == pytest.approx(0.04, abs=1e-16) and w[0, 5] == 1.0


# --- seed 001: the PANDA walk-through ---------------------------------------------------------
ACTUAL = [2, 2, 2, 3, 4, 5, 5, 5, 5, 5]
PRED = [2, 2, 2, 3, 2, 1, 1, 1, 1, 3]


def test_seed001_qwk():
    # seed 001 prints -0.13924050632911378 (methods 1, 2 and sklearn); exactly -11/79
    r = concord.cohen_kappa(ACTUAL, PRED, weights="quadratic", labels=range(1, 6))
    assert r.statistic == float(Fraction(-11, 79))
    assert r.statistic == pytest.approx(-0.13924050632911378, abs=1e-15)
    assert concord.quadratic_weighted_kappa(ACTUAL, PRED) == r.statistic


def test_seed001_matrices():
    r = concord.cohen_kappa(ACTUAL, PRED, weights="quadratic", labels=range(1, 6))
    # C as printed by the seed (confusion_matrix(actual, pred))
    np.testing.assert_array_equal(
        r.observed,
        [[0, 0, 0, 0, 0], [0, 3, 0, 0, 0], [0, 0, 1, 0, 0], [0, 1, 0, 0, 0], [4, 0, 1, 0, 0]],
    )
    # E = np.outer(act_hist, pred_hist) / 10 as printed
    np.testing.assert_allclose(
        r.expected,
        [
            [0, 0, 0, 0, 0],
            [1.2, 1.2, 0.6, 0, 0],
            [0.4, 0.4, 0.2, 0, 0],
            [0.4, 0.4, 0.2, 0, 0],
            [2, 2, 1, 0, 0],
        ],
        atol=1e-15,
    )
    # weighted_matrix(5) as printed (rounded to 2 decimals by the seed's print options)
    np.testing.assert_array_equal(r.weights, concord.weight_matrix(5, "quadratic"))
    assert r.weights[0, 1] == 0.0625 and r.weights[0, 3] == 0.5625


def test_seed001_animals():
    # the unordered 'animals' counter-example: the seed plots its confusion matrix C
    y_true = ["cat", "cat", "dog", "cat", "cat", "cat", "pig", "pig", "hen", "pig"]
    y_pred = ["bird", "hen", "pig", "bird", "bird", "bird", "pig", "pig", "hen", "pig"]
    r = concord.cohen_kappa(y_true, y_pred)
    assert r.labels == ("bird", "cat", "dog", "hen", "pig")
    assert r.observed[1, 0] == 4  # "we predicted 4 cats to be birds"
    assert r.observed[1, 3] == 1  # "and 1 cat as hen"
    assert r.statistic == float(Fraction(13, 43))
    assert r.statistic == pytest.approx(cohen_kappa_score(y_true, y_pred), abs=1e-15)
    # the seed is right that these labels have no order: weighted kappa refuses them
    with pytest.raises(ValueError, match="no natural order"):
        concord.cohen_kappa(y_true, y_pred, weights="quadratic")


def test_seed001_weight_example_is_off_by_one_category():
    # The seed's y_true uses grades 0..5 (six categories), but it computes the
    # 2-vs-1 penalty as (2-1)**2/(5-1)**2 = 0.0625. With six categories the
    # normalising range is 5, so the penalty is 1/25 = 0.04 (0.0625 belongs to 0..4).
    labels = [0, 1, 2, 3, 4, 5]
    w = concord.weight_matrix(labels, "quadratic")
    assert w[2, 1] == pytest.approx(0.04, abs=1e-16)
    assert w[2, 4] == pytest.approx(0.16, abs=1e-16)  # the seed's 0.25 is (2-4)**2/16
    assert concord.weight_matrix(5, "quadratic")[2, 1] == 0.0625


# --- seed 002: PetFinder, with Ben Hamner's quadratic_weighted_kappa -------------------------
def test_seed002_example():
    actuals = np.array([4, 4, 3, 4, 4, 4, 1, 1, 2, 1])
    preds = np.array([0, 2, 1, 0, 0, 0, 1, 1, 2, 1])
    # the seed runs without printed outputs; sklearn gives -0.13924050632911378 (= -11/79)
    expected = Fraction(-11, 79)
    assert concord.quadratic_weighted_kappa(actuals, preds) == float(expected)
    assert concord.cohen_kappa(actuals, preds, weights="quadratic").statistic == float(expected)
    assert float(expected) == pytest.approx(
        cohen_kappa_score(actuals, preds, weights="quadratic"), abs=1e-15
    )


def test_seed002_perfect_agreement():
    same = np.array([4, 4, 3, 4, 4, 4, 1, 1, 2, 0])
    assert concord.quadratic_weighted_kappa(same, same) == 1.0


def test_seed002_all_zero_vs_all_four_is_not_minus_one():
    # The seed claims that actuals all 0 and predictions all 4 give QWK = -1.
    # False: each rater is constant, so O equals E (the single cell (0, 4)) and
    # κ = 1 - n / n = 0. A constant rater carries no information about agreement.
    r = concord.cohen_kappa([0] * 10, [4] * 10, weights="quadratic", labels=range(5))
    assert r.statistic == 0.0
    np.testing.assert_array_equal(r.observed, r.expected)
    assert concord.quadratic_weighted_kappa([0] * 10, [4] * 10) == 0.0


# --- seed 003: sentiment, Cohen's kappa and weighted kappa ------------------------------------
GOLD = "positive neutral negative positive neutral positive negative neutral positive negative"
GOLD = GOLD.split()
MODEL_1 = "positive neutral negative neutral neutral positive positive neutral positive neutral"
MODEL_1 = MODEL_1.split()
ORDER = ["negative", "neutral", "positive"]


def test_seed003_cohen():
    r = concord.cohen_kappa(GOLD, MODEL_1)
    # printed: Po 0.7, Pe 0.3400000000000001, kappa 0.5454545454545453 (by hand) and
    # 0.5454545454545454 (sklearn); exactly 6/11
    assert r.observed_agreement == 0.7
    assert r.chance_agreement == pytest.approx(0.3400000000000001, abs=1e-15)
    assert r.statistic == float(Fraction(6, 11)) == 0.5454545454545454
    assert r.interpret() == "moderate"


@pytest.mark.parametrize(
    ("weights", "printed", "exact"),
    [("linear", 0.5121951219512195, Fraction(21, 41)), ("quadratic", 0.4736842105263158, None)],
)
def test_seed003_weighted(weights, printed, exact):
    r = concord.cohen_kappa(GOLD, MODEL_1, weights=weights, labels=ORDER)
    # printed by hand: 0.5121951219512195 and 0.47368421052631593; sklearn 0.512195..., 0.473684...
    exact = exact or Fraction(9, 19)
    assert r.statistic == float(exact)
    assert r.statistic == pytest.approx(printed, abs=1e-15)


def test_seed003_matrices():
    r = concord.cohen_kappa(GOLD, MODEL_1, weights="linear", labels=ORDER)
    # observed_probability and expected_probability as printed (sklearn's order = ORDER here)
    np.testing.assert_allclose(
        r.observed / r.n, [[0.1, 0.1, 0.1], [0, 0.3, 0], [0, 0.1, 0.3]], atol=1e-15
    )
    np.testing.assert_allclose(
        r.expected / r.n,
        [[0.03, 0.15, 0.12], [0.03, 0.15, 0.12], [0.04, 0.2, 0.16]],
        atol=1e-15,
    )
    np.testing.assert_array_equal(r.weights, [[0, 0.5, 1], [0.5, 0, 0.5], [1, 0.5, 0]])
    q = concord.cohen_kappa(GOLD, MODEL_1, weights="quadratic", labels=ORDER)
    np.testing.assert_array_equal(q.weights, [[0, 0.25, 1], [0.25, 0, 0.25], [1, 0.25, 0]])


def test_seed003_landis_koch_top_band_is_almost_perfect():
    # The seed's table calls 0.81-1.00 "Perfect"; Landis & Koch (1977) call it
    # "almost perfect" (only κ = 1 is perfect agreement).
    r = concord.cohen_kappa([1, 2, 3, 1, 2, 3, 1, 2, 3, 3], [1, 2, 3, 1, 2, 3, 1, 2, 3, 2])
    assert 0.8 < r.statistic < 1
    assert r.interpret("landis-koch") == "almost perfect"


# --- seed 004: Ben Hamner's Metrics code ------------------------------------------------------
def test_seed004_min_of_sum_is_elementwise_on_arrays():
    # Hamner's linear_weighted_kappa and kappa take min(rater_a + rater_b). On
    # lists that concatenates; on numpy arrays it adds element-wise, so the
    # minimum rating is wrong (here 3 instead of 1) and ratings index outside
    # the table. concord takes the minimum over both raters for any input.
    a, b = np.array([1, 2, 4]), np.array([3, 1, 1])
    assert min(a + b) == 3 and min([*a, *b]) == 1
    # ΣW·O = 2 + 1 + 3 = 6 and ΣW·E = (2 + 3 + 7) / 3 = 4, so κ = 1 - 6/4
    expected = Fraction(-1, 2)
    assert fraction_kappa(fraction_table(a, b, [1, 2, 3, 4]), positions_weights(4, "linear")) == (
        expected
    )
    for x, y in ((a, b), (a.tolist(), b.tolist())):
        r = concord.cohen_kappa(x, y, weights="linear", labels=[1, 2, 3, 4])
        assert r.labels[0] == 1
        assert r.statistic == float(expected)


def test_seed004_kappa_formula():
    # The blog writes kappa = (p0 - pe) / (n - pe); the denominator is 1 - pe
    r = concord.cohen_kappa([1, 2, 2, 3, 3, 3], [1, 2, 3, 3, 3, 2], weights="linear")
    p_o, p_e = r.observed_agreement, r.chance_agreement
    assert r.statistic == pytest.approx((p_o - p_e) / (1 - p_e), rel=1e-14)
