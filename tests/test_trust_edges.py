"""Issue 24 (trust, round 3): flag directions, conventions, options, extremes, clear errors.

Expected values name their source beside them: Krippendorff's alpha of the panel
without a rater is ``concord.krippendorff_alpha`` of the other columns (the leave-one-out
is the coefficient on fewer raters by definition); the sign of that change is the
direction a flag must say.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import concord
from concord._common.errors import UndefinedKappaWarning


def _panel(seed: int = 3, n: int = 300) -> pd.DataFrame:
    """Three raters of one truth: a and b right 60% of the time, c 98% (the best rater)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 4, n)

    def rater(p: float) -> np.ndarray:
        return np.where(rng.random(n) < p, truth, rng.integers(1, 4, n))

    return pd.DataFrame({"a": rater(0.6), "b": rater(0.6), "c": rater(0.98)})


# --- 5. the best rater flagged ---------------------------------------------------------------


def test_flags_say_their_direction() -> None:
    frame = _panel()
    d = concord.rater_diagnostics(frame)
    full = concord.krippendorff_alpha(frame).statistic
    for i, name in enumerate(frame.columns):
        without = concord.krippendorff_alpha(frame.drop(columns=name)).statistic
        assert d.without[i].statistic == pytest.approx(without, abs=1e-12)
        assert d.changes[i].difference == pytest.approx(without - full, abs=1e-12)
    # c, the most accurate rater: without c the panel agrees less, significantly
    assert d.changes[2].difference < -0.1 and d.changes[2].pvalue < 1e-6
    assert "c" in d.flagged
    assert d.directions[2] == "consistent"
    assert d.directions[0] == "disagrees"  # a's removal raises alpha (+0.094, p 0.0012)
    assert d.directions[1] is None  # b's change is not significant
    said = d.flag_sentences()
    assert "without c the panel agrees less: c is its most consistent rater" in said[1]
    assert "without a the panel agrees more: a disagrees most" in said[0]
    assert d.table()["direction"].tolist()[::2] == ["disagrees", "consistent"]
    assert [r["direction"] for r in d.to_dict()["raters"]] == ["disagrees", None, "consistent"]
    assert "c is its most consistent rater" in d.summary()
    assert "c is its most consistent rater" in d.explain()
    assert "consistent=['c']" in repr(d) and "disagrees=['a']" in repr(d)


def test_the_report_says_the_direction() -> None:
    from concord._render import questions

    d = concord.rater_diagnostics(_panel())
    words = questions.flags(d, None, None, [], 0.95)
    assert any(w.startswith("Without c the panel agrees less") for w in words)
    rows = questions.rater_rows(d)
    assert rows[2]["flag"] == "panel agrees less without"
    assert rows[0]["flag"] == "panel agrees more without"
    assert not any("drifts" in r["flag"] for r in rows)


# --- 14. options ignored: confidence_level in (0, 1), bool options bool ------------------------

_PANEL = np.array([[1, 1, 1], [2, 2, 2], [3, 3, 2], [1, 1, 1], [2, 2, 2], [3, 2, 3]] * 2)


@pytest.mark.parametrize("level", [1.5, 0.0, float("nan"), "0.9", True])
def test_rater_diagnostics_refuses_a_level_outside_0_1(level: object) -> None:
    with pytest.raises((ValueError, TypeError), match="'confidence_level' parameter of rater_d"):
        concord.rater_diagnostics(_PANEL, confidence_level=level)


@pytest.mark.parametrize("level", [1.5, float("nan"), "0.9"])
def test_compare_refuses_a_level_outside_0_1(level: object) -> None:
    a, b, c = _PANEL.T
    with pytest.raises((ValueError, TypeError), match="'confidence_level' parameter of compare"):
        concord.compare(concord.cohen_kappa, (a, b), (a, c), confidence_level=level)


def test_every_interval_refuses_a_nan_level() -> None:
    a, b, _ = _PANEL.T
    results = [
        concord.against_gold(_PANEL, a),
        concord.agree(_PANEL),
        concord.cohen_kappa(a, b),
        concord.fleiss_kappa(_PANEL),
    ]
    for r in results:
        with pytest.raises(ValueError, match="'confidence_level'"):
            r.confidence_interval(float("nan")) if hasattr(r, "confidence_interval") else (
                r.records(float("nan"))
            )
    with pytest.raises(ValueError, match="'confidence_level'"):
        concord.specific_agreement(a, b).confidence_interval(float("nan"))
    with pytest.raises(ValueError, match="'confidence_level'"):
        concord.bangdiwala_b(a, b).confidence_interval(1.5)


def test_bool_options_must_be_bool() -> None:
    human, machine = [4, 4, 4, 3, 2, 2, 4, 2], [4.1, 4.3, 2.9, 3.9, 3.5, 1.5, 4.2, 1.9]
    with pytest.raises(
        TypeError, match=r"'exclude_zero' parameter of evaluate.*exclude_zero=False"
    ):
        concord.evaluate(human, machine, exclude_zero="False")
    with pytest.raises(TypeError, match="'scale' parameter of evaluate"):
        concord.evaluate(human, machine, scale="yes")
    a, b, c = _PANEL.T
    with pytest.raises(TypeError, match="'paired' parameter of compare"):
        concord.compare(concord.cohen_kappa, (a, b), (a, c), paired="False")
    with pytest.raises(TypeError, match="'probabilistic'"):
        concord.cohen_kappa(a, b).interpret(probabilistic="False")
    with pytest.raises(TypeError, match="'inference'"):
        concord.evaluate(human, machine).tables(inference="False")
    assert concord.evaluate(human, machine, exclude_zero=np.bool_(False)).eval is not None


# --- 14. crashes: report.to_html on what it cannot show; the rater section's words ------------


def test_to_html_names_the_parameter_for_what_is_not_a_result() -> None:
    from concord.report import to_html

    with pytest.raises(TypeError, match=r"'results' parameter of to_html.*Got 0\.5"):
        to_html(0.5, plots=False)


def test_the_report_of_rater_diagnostics_says_the_direction() -> None:
    import html
    import re

    from concord.report import to_html

    page = to_html(concord.rater_diagnostics(_panel()), plots=False)
    text = html.unescape(re.sub("<[^>]+>", " ", page))
    assert "c is its most consistent rater" in text and "a disagrees most" in text
    assert "drifts" not in text


# --- 14. crashes and extremes: homogeneity, KrippendorffResult.q -------------------------------


def test_homogeneity_of_numbers_names_the_parameter() -> None:
    with pytest.raises(TypeError, match=r"'results' parameter of homogeneity.*Got 0\.5.*float"):
        concord.homogeneity(0.5, 0.6)
    a = concord.cohen_kappa([0, 1, 1, 0, 1], [0, 1, 0, 0, 1])
    with pytest.raises(ValueError, match=r"separate arguments: homogeneity\(\*results\)"):
        concord.homogeneity([a, a])


def test_homogeneity_with_a_zero_se_is_nan_with_the_reason() -> None:
    a = concord.cohen_kappa([0, 1, 1, 0, 1], [0, 1, 0, 0, 1])
    perfect = concord.cohen_kappa([0, 1, 1, 0, 1], [0, 1, 1, 0, 1])  # κ = 1, SE 0
    assert perfect.standard_error == 0
    with pytest.warns(
        UndefinedKappaWarning, match="result 1 has statistic 1.0 and standard error"
    ):
        h = concord.homogeneity(a, perfect)
    assert np.isnan(h.statistic) and np.isnan(h.pvalue) and h.df == 1


@pytest.mark.parametrize(
    ("alpha_min", "error"),
    [
        (float("nan"), ValueError),
        ([0.8, float("inf")], ValueError),
        ("0.8", TypeError),
        (True, TypeError),
        (None, TypeError),
    ],
)
def test_kalpha_q_refuses_a_threshold_that_is_not_a_number(
    alpha_min: object, error: type[Exception]
) -> None:
    r = concord.krippendorff_alpha([[1, 1, 2], [2, 2, 2], [3, 3, 1], [1, 2, 1], [2, 2, 3]])
    with pytest.raises(error, match=r"'alpha_min' parameter of KrippendorffResult\.q"):
        r.q(alpha_min, n_resamples=50, rng=0)  # type: ignore[call-overload]
    # KALPHA's q (Hayes & Krippendorff 2007): the share of replicates below the threshold
    assert r.q(0.8, n_resamples=50, rng=0) == r.q([0.8], n_resamples=50, rng=0)[0.8]


# --- 14. extremes: plan on edge designs ---------------------------------------------------------


def test_plan_icc_with_almost_every_rating_missing_answers_at_once() -> None:
    import time

    start = time.perf_counter()
    with pytest.raises(ValueError, match="'missing' parameter of plan") as info:
        concord.plan("icc", expected=0.6, null=0.4, missing=0.99)
    assert time.perf_counter() - start < 5  # it ran for 9 minutes
    assert "only 0.01% of the items keep two ratings" in str(info.value)


def test_plan_simulation_never_returns_an_n_that_rejects_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from concord._studies.plan import plan_sim

    monkeypatch.setattr(plan_sim, "rejection_rate", lambda *args: 0.0)
    with pytest.raises(ValueError, match="plan could not find n"):
        concord.plan("alpha", expected=0.6, null=0.4, simulations=20)


def test_plan_simulation_at_the_tests_size_does_not_divide_by_zero(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # one of 20 studies rejecting is the one-sided test's size: z_α + z(0.05) = 0, whose
    # step divided by zero; the rate says nothing of the distance, so n grows fourfold
    from concord._studies.plan import plan_sim

    rates = iter([0.05, 0.8])
    monkeypatch.setattr(plan_sim, "rejection_rate", lambda *args: next(rates))
    r = concord.plan("alpha", expected=0.6, null=0.4, simulations=20)
    assert r.achieved_power == 0.8 and r.n >= 40


def test_plan_refuses_what_no_design_reaches() -> None:
    # the most Cohen's κ of raters with positive rates 0.01 and 0.99: po 0.02, pe 0.0198
    with pytest.raises(ValueError, match=r"'expected' parameter of plan.*0\.000204"):
        concord.plan("cohen", expected=0.5, null=0.4, prevalence=(0.01, 0.99))
    with pytest.raises(ValueError, match=r"'power' parameter of plan must be greater than 0\.05"):
        concord.plan("cohen", expected=0.5, null=0.4, power=0.01)
    # kappaSize's one-sided χ² test has size 2α
    with pytest.raises(ValueError, match=r"greater than 0\.1, the test's size"):
        concord.plan("fleiss", expected=0.5, null=0.4, power=0.08)
    with pytest.raises(ValueError, match="'raters' parameter of plan must be between 2 and 1000"):
        concord.plan("fleiss", expected=0.5, null=0.4, raters=10**6)
    with pytest.raises(ValueError, match="'prevalence' parameter of plan"):
        concord.plan("alpha", expected=0.6, null=0.4, prevalence=1e-9, simulations=10)


def test_plan_icc_search_is_fast_where_n_is_huge() -> None:
    import time

    from concord._studies.plan import plan_sim

    start = time.perf_counter()
    r = concord.plan("icc", expected=0.5, null=0.499999)
    assert time.perf_counter() - start < 5  # 12.6 s stepping one item at a time
    # the least n: the exact F test reaches the power at n, not at n − 1
    assert plan_sim.icc_power(r.n, 2, 0.499999, 0.5, 0.05, 1) >= 0.8
    assert plan_sim.icc_power(r.n - 1, 2, 0.499999, 0.5, 0.05, 1) < 0.8


# --- 14. extremes: marginal homogeneity of many categories --------------------------------------


def _sparse_table(k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    table = rng.integers(1, 5, (k, k)) * (rng.random((k, k)) < 3 / k)
    table[rng.integers(0, k, k // 4)] = 0  # rows nobody used: several components
    table[:, rng.integers(0, k, k // 4)] = 0
    return table


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_stuart_maxwell_of_many_categories_is_the_pseudo_inverse_form(seed: int) -> None:
    from concord._coefficients.kappa import categories_core as core

    table = _sparse_table(300, seed)  # beyond 256 categories: the sparse blocks
    chi2, df = core.stuart_maxwell(table)
    # the definition (Stuart 1955, Maxwell 1970): dᵀ S⁺ d on rank S, S from the table
    t = table.astype(float)
    d = t.sum(axis=1) - t.sum(axis=0)
    s = -(t + t.T)
    np.fill_diagonal(s, t.sum(axis=1) + t.sum(axis=0) - 2 * np.diag(t))
    assert df == np.linalg.matrix_rank(s)
    assert chi2 == pytest.approx(float(d @ np.linalg.pinv(s, hermitian=True) @ d), rel=1e-12)


def test_marginal_homogeneity_of_thousands_of_categories_is_fast() -> None:
    import time

    rng = np.random.default_rng(0)
    k, n = 3000, 30_000
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.7, a, rng.integers(0, k, n))
    start = time.perf_counter()
    r = concord.marginal_homogeneity(a, b)
    assert time.perf_counter() - start < 30  # the k×k pseudo-inverse: minutes (68 s at 2000)
    assert r.df <= k - 1 and np.isfinite(r.statistic)
    assert int(np.abs(r.differences).sum()) <= 2 * n


# --- 10(b). nan_policy="omit" takes the categories from every rating -----------------------------

_A = [1, 2, 4, 5, 3, 1, 2, 4, 5, 2, 4, 4]
_B = [1, 2, 4, 5, np.nan, 1, 4, 4, 5, 2, 2, 5]  # 3 is rated only beside the missing rating


def test_omit_keeps_the_categories_of_every_rating() -> None:
    kept = [i for i, b in enumerate(_B) if b == b]
    a, b = [_A[i] for i in kept], [int(_B[i]) for i in kept]
    r = concord.cohen_kappa(_A, _B, nan_policy="omit", weights="ordinal")
    assert r.labels == (1, 2, 3, 4, 5)
    # the definition: the kept pairs' kappa over the categories of all ratings, declared
    declared = concord.cohen_kappa(a, b, weights="ordinal", labels=[1, 2, 3, 4, 5])
    assert r.statistic == declared.statistic
    # the kept pairs' own categories change the ordinal weights: 0.8333 (the defect), 0.7902
    assert concord.cohen_kappa(a, b, weights="ordinal").statistic == pytest.approx(
        0.8333, abs=1e-4
    )
    assert r.statistic == pytest.approx(0.7902, abs=1e-4)
    # scikit-learn, unweighted, with the same labels: the kept pairs' table
    from sklearn.metrics import cohen_kappa_score

    assert concord.cohen_kappa(_A, _B, nan_policy="omit").statistic == pytest.approx(
        cohen_kappa_score(a, b, labels=[1, 2, 3, 4, 5]), abs=1e-15
    )


def test_omit_keeps_every_category_of_text_and_nullable_columns() -> None:
    text_b = [None if b != b else str(int(b)) for b in _B]
    r = concord.cohen_kappa([str(a) for a in _A], text_b, nan_policy="omit")
    assert r.labels == ("1", "2", "3", "4", "5")
    nullable = pd.Series([None if b != b else int(b) for b in _B], dtype="Int64")
    r = concord.cohen_kappa(pd.Series(_A, dtype="Int64"), nullable, nan_policy="omit")
    assert r.labels == (1, 2, 3, 4, 5)
    # text without labels still has no order for weights: the error asks for labels
    with pytest.raises(ValueError, match="'labels' parameter of cohen_kappa"):
        concord.cohen_kappa([str(a) for a in _A], text_b, nan_policy="omit", weights="ordinal")


def test_a_category_no_pair_uses_warns_in_specific_agreement() -> None:
    with pytest.warns(UndefinedKappaWarning, match="undefined \\(nan\\) for category 3"):
        s = concord.specific_agreement(_A, _B, nan_policy="omit")
    assert np.isnan(s.agreement[2]) and np.isnan(s.agreement).sum() == 1


# --- 10(c). conger_kappa with a rater who rated nothing -----------------------------------------


def test_conger_with_a_rater_who_rated_nothing_is_nan_as_irrcac() -> None:
    # R irrCAC's conger.kappa.raw gives NaN: that rater's category shares are 0/0.
    # concord dropped the rater silently (0.6154, the kappa of the other two).
    frame = pd.DataFrame({"a": [1, 2, 1, 2, 1], "b": [1, 2, 2, 2, 1], "c": [np.nan] * 5})
    with pytest.warns(UndefinedKappaWarning, match="rater 'c' rated no item.*0/0.*irrCAC"):
        r = concord.conger_kappa(frame)
    assert np.isnan(r.statistic) and np.isnan(r.standard_error)
    assert r.n_raters == 3 and np.isnan(r.pvalue)
    assert all(np.isnan(v) for v in r.confidence_interval())
    assert "a rater rated no item" in r.summary()
    # the two raters who rated: Conger's kappa is defined (and equals it without c)
    assert not np.isnan(concord.conger_kappa(frame[["a", "b"]]).statistic)


# --- 10(a). the two-way agreement ICC's F test takes its df at r0 (documented) -------------------


def test_icc_agreement_df_at_r0_is_the_documented_convention() -> None:
    import inspect
    from pathlib import Path

    # at r0 = 0 the exact F test: MSR / MSE on (n − 1)(k − 1) df (McGraw & Wong 1996, Table 8)
    x = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    r = concord.icc(x)
    assert (r.df1, r.df2) == (5, 15)
    doc = inspect.getdoc(concord.icc) or ""
    assert "taken at ``r0``" in doc and "irr takes" in doc
    page = (Path(__file__).parents[1] / "docs" / "guide" / "continuous.md").read_text("utf-8")
    assert "concord takes them at `r0`" in page and "39.75" in page


# --- 14. unclear errors: each names the parameter, what was expected, what was given ------------

_PLAN = {"expected": 0.6, "null": 0.4}


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: concord.against_gold(None, [1, 2]), r"'ratings' parameter of against_gold.*None"),
        (lambda: concord.against_gold([1, 2, 3], [1, 2, 3]), r"'ratings'.*Got shape \(3,\)"),
        (lambda: concord.plan("cohen", **_PLAN, prevalence="abc"), r"'prevalence'.*'abc'"),
        (lambda: concord.plan("alpha", **_PLAN, seed="abc"), r"'seed' parameter of plan"),
        (lambda: concord.plan("alpha", **_PLAN, simulations=10**9), r"'simulations' parameter"),
    ],
)
def test_bad_input_names_the_parameter(call: object, match: str) -> None:
    with pytest.raises((TypeError, ValueError), match=match):
        call()  # type: ignore[operator]


def test_against_gold_takes_a_dict_of_columns() -> None:
    gold = [1, 2, 3, 1, 2, 3]
    columns = {"r1": [1, 2, 3, 1, 2, 2], "r2": [1, 2, 2, 1, 2, 3]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedKappaWarning)
        by_dict = concord.against_gold(columns, gold)
        by_frame = concord.against_gold(pd.DataFrame(columns), gold)
    assert by_dict.raters == ("r1", "r2") and by_dict.estimate == by_frame.estimate


def test_a_nan_of_the_continuous_measures_says_why() -> None:
    with pytest.warns(UndefinedKappaWarning, match="1 pair gives no spread"):
        ba = concord.bland_altman([1.0], [2.0])
    assert ba.bias == -1 and np.isnan(ba.sd) and np.isnan(ba.lower_limit)
    # Lin's CCC of two equal constants is 0/0
    with pytest.warns(UndefinedKappaWarning, match="both constant and equal"):
        ccc = concord.concordance_correlation([2.0] * 4, [2.0] * 4)
    assert np.isnan(ccc.statistic)


@pytest.mark.parametrize("weighted", [False, True])
def test_omit_keeps_every_ratings_categories_in_a_stream_too(weighted):
    """A batch whose only pair has a missing rating still brings its category (hypothesis
    found it: the one-shot call's labels are every rating's, the stream's must be too)."""
    r1 = ["no"] * 7 + ["maybe"] + ["no"] * 4
    r2 = ["no"] * 7 + [None] + ["no"] * 3 + ["yes"]
    w = [1.5] * 12 if weighted else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", concord.UndefinedKappaWarning)
        one = concord.cohen_kappa(r1, r2, nan_policy="omit", sample_weight=w)
        acc = concord.accumulate(concord.cohen_kappa, nan_policy="omit")
        for lo, hi in ((0, 7), (7, 8), (8, 12)):
            acc = acc.update(r1[lo:hi], r2[lo:hi], sample_weight=None if w is None else w[lo:hi])
        streamed = acc.result()
    assert one.labels == streamed.labels == ("maybe", "no", "yes")
    assert streamed.statistic == one.statistic
