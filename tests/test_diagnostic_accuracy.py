"""concord.diagnostic_accuracy against R epiR's epi.tests and epi.prev, and scikit-learn.

The reference values are in tests/reference/judges/: epi_tests.out and
epi_prev.out, printed by epi_tests.R and epi_prev.R from epiR 2.0.94
(GPL >= 2, https://CRAN.R-project.org/package=epiR).
"""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import concord
from concord._studies.judges.accuracy import f1_interval

REF = Path(__file__).parent / "reference" / "judges"
# epiR's names → concord's
NAMES = {
    "ap": "apparent_prevalence",
    "tp": "prevalence",
    "se": "sensitivity",
    "sp": "specificity",
    "diag.ac": "accuracy",
    "diag.or": "diagnostic_odds_ratio",
    "youden": "youden",
    "pv.pos": "ppv",
    "pv.neg": "npv",
    "lr.pos": "lr_positive",
    "lr.neg": "lr_negative",
}


def epi_tests() -> dict[tuple[str, str], dict[str, tuple[float, float, float]]]:
    """epi_tests.out: per (cells, method) the statistic → (est, lower, upper)."""
    out: dict[tuple[str, str], dict[str, tuple[float, float, float]]] = {}
    current: dict[str, tuple[float, float, float]] = {}
    for line in (REF / "epi_tests.out").read_text().splitlines():
        if line.startswith("#"):
            cells, method = line[2:].split()
            current = out.setdefault((cells, method), {})
        else:
            name, *values = line.split()
            current[name] = tuple(float(v) for v in values)  # R's Inf and NaN parse
    return out


def ratings(tp: int, fp: int, fn: int, tn: int) -> tuple[list[int], list[int]]:
    truth = [1] * tp + [0] * fp + [1] * fn + [0] * tn
    judge = [1] * tp + [1] * fp + [0] * fn + [0] * tn
    return truth, judge


@pytest.mark.parametrize(
    ("cells", "method"),
    [("670,202,74,640", "exact"), ("670,202,74,640", "wilson"), ("25,0,5,70", "exact")],
)
def test_every_measure_matches_epir_epi_tests(cells, method):
    # epiR epi.tests(c(TP, FP, FN, TN), method = ...): example 1 of its help page,
    # and a table with FP = 0 (specificity 1: LR+ and the odds ratio are Inf, their lower
    # bounds NaN, as epiR prints them)
    expected = epi_tests()[(cells, method)]
    tp, fp, fn, tn = (int(c) for c in cells.split(","))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = concord.diagnostic_accuracy(*ratings(tp, fp, fn, tn), method=method)
    assert (tp, fp, fn, tn) == (r.TP, r.FP, r.FN, r.TN)
    for theirs, ours in NAMES.items():
        got = (getattr(r, ours), *r.interval(ours))
        np.testing.assert_allclose(got, expected[theirs], rtol=1e-9, err_msg=ours)


def test_acceptance_epir_example_1_as_printed():
    # epiR epi.tests help page, example 1 (Scott et al. 2008, table 1), as issue 27 states it
    r = concord.diagnostic_accuracy(*ratings(670, 202, 74, 640))
    printed = {
        "sensitivity": (0.901, 0.877, 0.921),
        "specificity": (0.760, 0.730, 0.789),
        "ppv": (0.768, 0.739, 0.796),
        "npv": (0.896, 0.872, 0.918),
    }
    for name, values in printed.items():
        assert tuple(round(v, 3) for v in (getattr(r, name), *r.interval(name))) == values
    assert tuple(round(v, 2) for v in (r.lr_positive, *r.interval("lr_positive"))) == (
        3.75,
        3.32,
        4.24,
    )
    # exact: the estimates are the table's fractions
    assert Fraction(r.sensitivity).limit_denominator(10_000) == Fraction(670, 744)
    assert r.statistic == r.accuracy == (670 + 640) / 1586


def test_true_prevalence_matches_epir_epi_prev():
    # epiR epi.prev(872, 1586, se, sp, method = "c-p" / "wilson"), epi_prev.out
    lines = (REF / "epi_prev.out").read_text().splitlines()
    expected = [[float(v) for v in line.split()[-3:]] for line in lines]
    truth, judge = ratings(670, 202, 74, 640)
    own = concord.diagnostic_accuracy(truth, judge).true_prevalence()
    np.testing.assert_allclose(own[:3], expected[0], rtol=1e-8)
    wilson = concord.diagnostic_accuracy(truth, judge, method="wilson").true_prevalence()
    np.testing.assert_allclose(wilson[:3], expected[1], rtol=1e-8)
    passed = concord.diagnostic_accuracy(truth, judge).true_prevalence(0.95, 0.90)
    np.testing.assert_allclose(passed[:3], expected[2], rtol=1e-8)
    assert passed.sensitivity == 0.95 and passed.specificity == 0.90


def test_true_prevalence_is_clipped_and_undefined_when_se_plus_sp_is_not_above_1():
    truth, judge = ratings(670, 202, 74, 640)
    r = concord.diagnostic_accuracy(truth, judge)
    # AP 0.55 with Se 0.5, Sp 0.99: (0.55 + 0.99 - 1) / 0.49 > 1, clipped to 1
    assert r.true_prevalence(0.5, 0.99).statistic == 1.0
    with pytest.warns(concord.UndefinedKappaWarning, match="not above 1"):
        assert math.isnan(r.true_prevalence(0.5, 0.5).statistic)


def test_positive_defaults_to_the_second_sorted_label_and_says_so():
    truth = ["safe", "toxic", "toxic", "safe", "toxic", "safe"]
    judge = ["safe", "toxic", "safe", "safe", "toxic", "toxic"]
    r = concord.diagnostic_accuracy(truth, judge)
    assert r.positive == "toxic"
    assert "second of the labels" in r.explain()
    assert (r.TP, r.FP, r.FN, r.TN) == (2, 1, 1, 2)
    flipped = concord.diagnostic_accuracy(truth, judge, positive="safe")
    assert flipped.sensitivity == r.specificity and flipped.ppv == r.npv
    declared = concord.diagnostic_accuracy(truth, judge, labels=["toxic", "safe"])
    assert declared.positive == "safe"


def test_a_judge_that_never_says_positive_gives_nan_with_the_warning_not_a_crash():
    truth = [1, 1, 0, 0, 0]
    judge = [0, 0, 0, 0, 0]
    with pytest.warns(concord.UndefinedKappaWarning, match="the ppv is undefined.*never says 1"):
        r = concord.diagnostic_accuracy(truth, judge, positive=1)
    assert math.isnan(r.ppv) and r.sensitivity == 0.0 and r.specificity == 1.0
    assert r.TP == 0 and r.FN == 2
    assert "nan" in r.explain()
    json.dumps(r.to_dict())  # nan → None


def test_gold_with_no_positive_item_has_no_sensitivity():
    with pytest.warns(concord.UndefinedKappaWarning, match="sensitivity is undefined"):
        r = concord.diagnostic_accuracy([0, 0, 0], [0, 1, 0], positive=1)
    assert math.isnan(r.sensitivity) and r.specificity == pytest.approx(2 / 3)


def test_positive_not_among_the_categories_is_the_parameter_error():
    with pytest.raises(ValueError, match="'positive' parameter of diagnostic_accuracy"):
        concord.diagnostic_accuracy([0, 1], [1, 1], positive="yes")


def test_method_and_level_are_checked():
    with pytest.raises(ValueError, match="'method' parameter of diagnostic_accuracy"):
        concord.diagnostic_accuracy([0, 1], [1, 1], method="wald")
    with pytest.raises(ValueError, match="'confidence_level'"):
        concord.diagnostic_accuracy([0, 1], [1, 1], confidence_level=95)


def test_many_categories_match_scikit_learn_and_name_the_confusion_matrix():
    sklearn = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(3)
    labels = ["cat", "dog", "eel"]
    truth = rng.choice(labels, 300).tolist()
    judge = [t if rng.random() < 0.7 else rng.choice(labels) for t in truth]
    r = concord.diagnostic_accuracy(truth, judge)
    assert r.positive is None and not r.measures
    p, rec, f1, _ = sklearn.precision_recall_fscore_support(truth, judge, labels=labels)
    np.testing.assert_allclose(r.per_class["precision"][:, 0], p, rtol=1e-12)
    np.testing.assert_allclose(r.per_class["recall"][:, 0], rec, rtol=1e-12)
    np.testing.assert_allclose(r.per_class["f1"][:, 0], f1, rtol=1e-12)
    macro = sklearn.precision_recall_fscore_support(truth, judge, average="macro")
    np.testing.assert_allclose([r.macro[m] for m in ("precision", "recall", "f1")], macro[:3])
    assert r.statistic == pytest.approx(sklearn.accuracy_score(truth, judge))
    frame = r.confusion_frame()
    assert list(frame.index) == labels and list(frame.columns) == labels
    np.testing.assert_array_equal(
        frame.to_numpy(), sklearn.confusion_matrix(truth, judge, labels=labels)
    )
    tidy = r.to_frame()
    assert {"coefficient", "measure", "class", "statistic", "ci_low", "ci_high", "n"} <= set(
        tidy.columns
    )
    micro = tidy[tidy.measure == "micro_f1"].iloc[0]
    assert micro.statistic == r.statistic and (micro.ci_low, micro.ci_high) == r.interval(
        "accuracy"
    )


def test_gold_categories_the_judge_never_uses_have_nan_precision_left_out_of_macro():
    truth = ["a", "b", "c", "c", "a", "b"]
    judge = ["a", "b", "a", "b", "a", "b"]
    with pytest.warns(concord.UndefinedKappaWarning, match="precision of 'c' is undefined"):
        r = concord.diagnostic_accuracy(truth, judge)
    precision = r.per_class["precision"][:, 0]
    assert math.isnan(precision[2]) and r.per_class["recall"][2, 0] == 0.0
    assert r.macro["precision"] == pytest.approx((2 / 3 + 2 / 3) / 2)


def test_f1_interval_is_the_delta_method_over_the_multinomial_counts():
    # numerical delta method: the gradient of F1 by finite differences, the multinomial
    # covariance (diag(p) − p pᵀ)/n over (TP, FP, FN, TN)
    tp, fp, fn, tn = 40, 10, 15, 35
    n = tp + fp + fn + tn
    p = np.array([tp, fp, fn, tn]) / n

    def f1(q):
        return 2 * q[0] / (2 * q[0] + q[1] + q[2])

    grad = np.array([(f1(p + h) - f1(p - h)) / 2e-7 for h in np.eye(4) * 1e-7])
    se = math.sqrt(grad @ ((np.diag(p) - np.outer(p, p)) / n) @ grad)
    est, low, high = f1_interval(tp, fp, fn, 1.959963984540054)
    assert est == pytest.approx(80 / 105)
    assert (high - low) / 2 == pytest.approx(1.959963984540054 * se, rel=1e-6)


def test_result_protocol():
    r = concord.diagnostic_accuracy(*ratings(670, 202, 74, 640))
    assert repr(r).startswith("DiagnosticResult(accuracy=0.826")
    assert "sensitivity is 0.901 (0.877 to 0.921)" in r.summary()
    assert "TP 670  FP 202  FN 74  TN 640" in r.explain()
    d = r.to_dict()
    assert d["counts"] == {"TP": 670, "FP": 202, "FN": 74, "TN": 640}
    json.dumps(d)
    assert "<table>" in r._repr_html_()
    row = r.to_frame().set_index("measure").loc["lr_positive"]
    assert row.statistic == pytest.approx(3.7537261791)
    with pytest.raises(KeyError):
        r.interval("kappa")


def test_positive_among_more_categories_is_one_against_the_rest():
    truth = ["cat", "dog", "eel", "cat", "dog", "eel", "cat"]
    judge = ["cat", "cat", "eel", "dog", "dog", "cat", "cat"]
    r = concord.diagnostic_accuracy(truth, judge, positive="cat")
    # by hand: gold cat & said cat 2, gold other & said cat 2, gold cat & said other 1, rest 2
    assert (r.TP, r.FP, r.FN, r.TN) == (2, 2, 1, 2)
    assert r.sensitivity == pytest.approx(2 / 3) and r.ppv == 0.5
    assert r.per_class["recall"].shape == (3, 3)


def test_a_two_category_measure_of_many_categories_says_to_pass_positive():
    r = concord.diagnostic_accuracy(["a", "b", "c"], ["a", "c", "b"])
    with pytest.raises(AttributeError, match="pass positive="):
        _ = r.sensitivity
    with pytest.raises(AttributeError, match="TP, FP, FN and TN need a positive category"):
        _ = r.TP
