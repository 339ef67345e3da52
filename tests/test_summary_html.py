"""summary(): one APA-style sentence; _repr_html_: the result in a notebook, every string escaped.

The contract sentence is issue 14's, for the README's ten pairs: κ_w = 9/19
(ΣW·O = 1.5, ΣW·E = 2.85, by hand in the README's explain()) and the Fisher-z
interval [−0.232457, 0.85282] printed there.
"""

from __future__ import annotations

import html
import warnings

import numpy as np
import pandas as pd
import pytest

import concord
from concord._results.html import results_table_html
from concord._results.sentence import decimal

GOLD = [3, 2, 1, 3, 2, 3, 1, 2, 3, 1]  # the README's sentiment: 1 negative, 2 neutral, 3 positive
MODEL = [3, 2, 1, 2, 2, 3, 3, 2, 3, 2]
# five items, three raters, two ratings missing
MATRIX = np.array([[1, 1, 2], [2, 2, np.nan], [1, 2, 2], [3, 3, 3], [np.nan, 1, 1]])
HOSTILE = ["<script>alert(1)</script>", "a & b", '"quoted"']


def test_the_issue_sentence_exactly():
    r = concord.cohen_kappa(GOLD, MODEL, weights="quadratic")
    assert r.summary() == (
        "Cohen's κ with quadratic weights was 0.47 (95% CI −0.23 to 0.85, Fisher's z; "
        "n = 10 pairs), moderate agreement on the Landis–Koch scale."
    )


def test_the_sentence_follows_the_interval_asked_for():
    r = concord.cohen_kappa(GOLD, MODEL, weights="linear")
    low, high = r.confidence_interval(0.9, method="wald")
    told = r.summary(0.9, method="wald", digits=3)
    assert f"(90% CI {decimal(low, 3)} to {decimal(high, 3)}, Wald; n = 10 pairs)" in told
    assert told.startswith("Cohen's κ with linear weights was 0.512 ")  # 21/41, sentiment tutorial
    boot = r.summary(method="bootstrap-percentile", rng=1)
    low, high = r.confidence_interval(method="bootstrap-percentile", rng=1)
    assert f"95% CI {decimal(low)} to {decimal(high)}, percentile bootstrap;" in boot


def test_decimal_rounds_with_a_true_minus_and_no_negative_zero():
    assert [decimal(x) for x in (-0.2324, 0.4737, -0.004, 1.0)] == [
        "−0.23",
        "0.47",
        "0.00",
        "1.00",
    ]


def test_unweighted_many_raters_and_missing_ratings():
    told = concord.fleiss_kappa(MATRIX).summary()
    assert told.startswith("Unweighted Fleiss' κ was 0.58 (")  # its statistic, 7/12, rounded
    # 5 items × 3 raters − 13 ratings = 2 missing
    assert "; n = 5 items, 3 raters, 2 missing ratings), moderate agreement" in told


def test_krippendorff_names_its_metric_and_scale():
    told = concord.krippendorff_alpha(MATRIX, level="ordinal").summary()
    assert told.startswith("Krippendorff's α with the ordinal metric was ")
    assert told.endswith("agreement on the Krippendorff scale.")


def test_percent_agreement_has_no_interpretation_clause():
    told = concord.percent_agreement(MATRIX).summary()
    # by hand: the items agree in 1/3, 1, 1/3, 1 and 1 of their pairs; mean 11/15
    assert told.startswith("Unweighted percent agreement was 0.73 (95% CI ")
    assert told.endswith(", Student's t; n = 5 items, 3 raters, 2 missing ratings).")


def test_gwet_names_ac1_and_ac2():
    assert concord.gwet_ac(MATRIX).summary().startswith("Gwet's AC1 was ")
    weighted = concord.gwet_ac(MATRIX, weights="quadratic").summary()
    assert weighted.startswith("Gwet's AC2 with quadratic weights was ")


def test_undefined_says_why():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", concord.UndefinedKappaWarning)
        r = concord.cohen_kappa([1, 1, 1], [1, 1, 1])
    assert r.summary() == (
        "Unweighted Cohen's κ was undefined (no variation: every rating is in one category; "
        "n = 3 pairs)."
    )


def test_thresholds_cross_validation_and_groups():
    truth, scores = [1, 1, 2, 2, 3, 3] * 4, list(range(24))
    best = concord.optimize_thresholds(truth, scores)
    assert best.summary() == (
        "In-sample, at cut points fitted to these data, " + best.kappa.summary()
    )
    cv = concord.cross_validated_kappa(truth, scores, cv=3, rng=0)
    assert cv.summary().startswith(f"Cross-validated κ was {decimal(cv.statistic)} (3 folds")
    frame = pd.DataFrame(
        {"set": [1, 1, 1, 2, 2, 2], "a": [1, 2, 3, 2, 3, 4], "b": [1, 2, 2, 2, 4, 4]}
    )
    g = concord.grouped_kappa(frame, by="set", rater1="a", rater2="b")
    # grouped_kappa's docstring: 2/3 and 4/5, Fisher-z mean 0.7406; the interval is the
    # result's own confidence_interval() (tests/test_grouped.py checks it by hand)
    low, high = g.confidence_interval()
    assert g.summary() == (
        "The Fisher-z mean of Cohen's κ with quadratic weights over 2 groups of set was 0.74 "
        f"(95% CI {decimal(low)} to {decimal(high)}, Fisher's z; group values 0.67 to 0.80; "
        "n = 6 pairs), substantial agreement on the Landis–Koch scale."
    )
    assert g.summary().count("95% CI 0.29 to 0.92") == 1
    for result in (best, cv, g):
        assert html.escape(result.summary(), quote=True) in result._repr_html_()


@pytest.mark.parametrize(
    "make",
    [
        lambda a, b: concord.cohen_kappa(a, b, labels=HOSTILE, weights="linear"),
        lambda a, b: concord.fleiss_kappa(pd.DataFrame({"r1": a, "r2": b, "r3": b})),
        lambda a, b: concord.krippendorff_alpha(pd.DataFrame({"r1": a, "r2": b})),
    ],
)
def test_html_escapes_every_label(make):
    a = [HOSTILE[i] for i in (0, 1, 2, 0, 1, 2, 0)]
    b = [HOSTILE[i] for i in (0, 1, 1, 0, 2, 2, 1)]
    page = make(a, b)._repr_html_()
    for label in HOSTILE:
        assert html.escape(label, quote=True) in page
    assert "<script" not in page and '"quoted"' not in page and "a & b" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_html_shows_the_statistic_interval_and_tables():
    r = concord.cohen_kappa(GOLD, MODEL, weights="quadratic")
    page = r._repr_html_()
    assert "0.4737" in page and "[-0.2325, 0.8528] Fisher&#x27;s z" in page
    assert "moderate (Landis &amp; Koch 1977)" in page
    for caption in ("Observed O", "Weights W", "Expected E"):
        assert caption in page
    alpha = concord.krippendorff_alpha(MATRIX, level="ordinal")._repr_html_()
    assert "Coincidences" in alpha and "Ratings per category" in alpha


def test_results_table_html_lays_out_many_results():
    results = [concord.fleiss_kappa(MATRIX), concord.percent_agreement(MATRIX)]
    page = results_table_html(results, index=["<a>", "b"], index_name="set")
    assert page.count("<tr>") == 3 and "&lt;a&gt;" in page and "<a>" not in page
    assert "none (not chance-corrected)" in page and "Student&#x27;s t" in page
