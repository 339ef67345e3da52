"""Issue 24 (trust, round 3), the front door: inputs that gave silent wrong answers.

Each test fails on the code before the fix. Expected values name their
source: scikit-learn's ``cohen_kappa_score`` on the complete pairs, or an
exact ``fractions.Fraction`` recomputation from the definition.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

import concord

ROOT = Path(__file__).resolve().parents[1]


def raises(exc, *fragments):
    pattern = ".*".join(re.escape(f) for f in fragments)
    return pytest.raises(exc, match=re.compile(pattern, re.S))


def qwk_by_sums(a, b):
    """Quadratic κ from its five sums (Cohen 1968, quadratic weights), exactly."""
    n = len(a)
    sa, sb = sum(a), sum(b)
    saa, sbb, sab = (
        sum(x * x for x in a),
        sum(y * y for y in b),
        sum(x * y for x, y in zip(a, b, strict=True)),
    )
    return Fraction(2 * (n * sab - sa * sb), n * saa + n * sbb - 2 * sa * sb)


# --- 1. quadratic_weighted_kappa: a missing rating is never counted as 0 ----------------------

ISSUE_A = [1, 2, 3, None, 4, 2, 5, 1]
ISSUE_B = [1, 2, 4, 4, 3, 2, 5, 1]
COMPLETE = [(x, y) for x, y in zip(ISSUE_A, ISSUE_B, strict=True) if x is not None]


def missing_forms():
    """The issue's rater1 in each form that held a missing rating as 0."""
    with_nan = [np.nan if v is None else v for v in ISSUE_A]
    return {
        "list with None": ISSUE_A,
        "list with nan": with_nan,
        "object array": np.array(ISSUE_A, dtype=object),
        "Int64 array": pd.array(ISSUE_A, dtype="Int64"),
        "Int64 Series": pd.Series(ISSUE_A, dtype="Int64"),
        "float array": np.array(with_nan, dtype=np.float64),  # raised before too
    }


@pytest.mark.parametrize("form", list(missing_forms()))
def test_qwk_refuses_a_missing_rating_by_default(form):
    # before: 0.5135..., the missing rating counted as a rating of 0
    rater1 = missing_forms()[form]
    with raises(
        ValueError,
        "'nan_policy' parameter of quadratic_weighted_kappa",
        "1 pairs with a missing rating",
        "position 3 of 'rater1'",
        "nan_policy='omit'",
    ):
        concord.quadratic_weighted_kappa(rater1, ISSUE_B)


@pytest.mark.parametrize("form", list(missing_forms()))
def test_qwk_omit_drops_the_pair(form):
    a, b = zip(*COMPLETE, strict=True)
    expected = qwk_by_sums(a, b)  # exact: 49/51... by the five sums
    assert expected == Fraction(cohen_kappa_score(a, b, weights="quadratic")).limit_denominator()
    got = concord.quadratic_weighted_kappa(missing_forms()[form], ISSUE_B, nan_policy="omit")
    assert got == float(expected)
    # the second rater missing, too: named as rater2
    with raises(ValueError, "position 3 of 'rater2'"):
        concord.quadratic_weighted_kappa(ISSUE_B, missing_forms()[form])


def test_qwk_on_the_bundled_essays_as_cohen():
    essays = pd.read_csv(ROOT / "data" / "essays.csv", dtype={"rater3": "Int64"})
    r1, r3 = essays["rater1"], essays["rater3"]
    assert str(r1.dtype) == "int64" and r3.isna().any()
    with raises(ValueError, "'nan_policy'", "pairs with a missing rating", "'rater2'"):
        concord.quadratic_weighted_kappa(r1, r3)
    kept = r3.notna()
    a, b = r1[kept].astype(int).tolist(), r3[kept].astype(int).tolist()
    expected = qwk_by_sums(a, b)
    got = concord.quadratic_weighted_kappa(r1, r3, nan_policy="omit")
    assert got == float(expected)  # 0.7051..., where the zeros gave 0.286
    assert abs(got - cohen_kappa_score(a, b, weights="quadratic")) < 1e-12
    assert abs(got - 0.7051763711864439) < 1e-15
    cohen = concord.cohen_kappa(r1, r3, weights="quadratic", nan_policy="omit").statistic
    assert got == cohen


TWO_RATER = [
    concord.quadratic_weighted_kappa,
    concord.cohen_kappa,
    concord.scott_pi,
    concord.bangdiwala_b,
    concord.specific_agreement,
    concord.marginal_homogeneity,
    concord.concordance_correlation,
    concord.bland_altman,
]


@pytest.mark.parametrize("function", TWO_RATER, ids=lambda f: f.__name__)
@pytest.mark.parametrize("form", ["list with None", "object array", "Int64 array"])
def test_every_two_rater_entry_refuses_a_missing_rating_or_omits_its_pair(function, form):
    # the sweep of the public 1-D entries: only quadratic_weighted_kappa counted it as 0
    rater1 = missing_forms()[form]
    with pytest.raises(ValueError, match="missing"):
        function(rater1, ISSUE_B)
    a, b = (list(t) for t in zip(*COMPLETE, strict=True))
    omitted, complete = function(rater1, ISSUE_B, nan_policy="omit"), function(a, b)
    if hasattr(complete, "statistic") or isinstance(complete, float):
        assert getattr(omitted, "statistic", omitted) == getattr(complete, "statistic", complete)
    else:  # specific agreement: one proportion per category
        assert repr(omitted) == repr(complete)


def test_qwk_nan_policy_is_checked_and_reaches_the_accumulator():
    with raises(ValueError, "'nan_policy' parameter of quadratic_weighted_kappa", "'omit'"):
        concord.quadratic_weighted_kappa([1, 2], [1, 2], nan_policy="drop")
    acc = concord.accumulate(concord.quadratic_weighted_kappa, nan_policy="omit")
    acc.update(ISSUE_A[:4], ISSUE_B[:4]).update(ISSUE_A[4:], ISSUE_B[4:])
    a, b = zip(*COMPLETE, strict=True)
    assert acc.result() == float(qwk_by_sums(a, b))


# --- 3. label sets: equal sets are one category -------------------------------------------------

SETS = [{"x", "y"}, {"z"}, {"x"}, {"y", "z"}, {"x", "y", "z"}, {"z"}]


def reordered(sets, kind):
    """The same sets, built in another order (their iteration order differs)."""
    return [kind(sorted(s, reverse=True)) for s in sets]


@pytest.mark.parametrize("kind", [frozenset, set, list, tuple])
def test_equal_label_sets_are_one_category(kind):
    # before: frozensets 0.17 (numpy sorted them by inclusion), lists 0.35 (compared in order)
    first = [kind(sorted(s)) for s in SETS]
    again = reordered(SETS, kind)
    result = concord.cohen_kappa(first, again)
    assert result.statistic == 1.0
    assert set(result.labels) == {frozenset(s) for s in SETS}
    assert concord.cohen_kappa(pd.Series(first), pd.Series(again)).statistic == 1.0


def test_label_sets_agree_as_their_categories_do():
    # the sets coded as the strings of their sorted labels: the same table, the same κ
    r1 = [{"a"}, {"a", "b"}, {"b"}, {"a", "b"}, {"b"}, {"a"}]
    r2 = [["b", "a"], ["a"], ["b"], ("b", "a"), ["a", "b"], ["a"]]
    code = ["+".join(sorted(s)) for s in r1], ["+".join(sorted(s)) for s in r2]
    assert concord.cohen_kappa(r1, r2).statistic == concord.cohen_kappa(*code).statistic
    # by hand: p_o = 3/6, p_e = (2·2 + 2·3 + 2·1)/36 = 1/3, κ = (1/2 − 1/3)/(2/3) = 1/4
    assert concord.cohen_kappa(r1, r2).statistic == 0.25
    assert abs(cohen_kappa_score(*code) - 0.25) < 1e-15
    matrix = pd.DataFrame({"a": r1, "b": r2, "c": r1})
    coded = pd.DataFrame({"a": code[0], "b": code[1], "c": code[0]})
    for f in (concord.fleiss_kappa, concord.krippendorff_alpha, concord.gwet_ac):
        assert f(matrix).statistic == f(coded).statistic


def test_the_empty_set_is_a_missing_rating():
    r1, r2 = [{"a"}, set(), {"b"}, {"a"}], [["a"], ["a"], ["b"], []]
    with raises(ValueError, "2 pairs with a missing rating", "position 1 of 'rater1'"):
        concord.cohen_kappa(r1, r2)
    omitted = concord.cohen_kappa(r1, r2, nan_policy="omit")
    assert omitted.statistic == 1.0 and omitted.n_items == 2


def test_label_sets_in_streams_and_declared_labels():
    first, again = [frozenset(s) for s in SETS], reordered(SETS, list)
    acc = concord.accumulate(concord.cohen_kappa)
    acc.update(first[:3], again[:3]).update(first[3:], again[3:])
    assert acc.result().statistic == 1.0
    declared = [("z",), ["x"], {"y", "x"}, ("z", "y"), ["x", "z", "y"]]
    result = concord.cohen_kappa(first, again, labels=declared)
    assert result.statistic == 1.0 and result.labels[0] == frozenset({"z"})


def test_label_sets_beside_single_labels_are_refused():
    with raises(ValueError, "'rater1' parameter of cohen_kappa", "label sets throughout", "'y'"):
        concord.cohen_kappa([["x"], "y", ["y", "x"]], [["x"], ["y"], ["x", "y"]])
    with raises(ValueError, "cohen_kappa", "label sets throughout", "'x'"):
        concord.cohen_kappa([["x"], ["y", "z"]], ["x", "y"])
    with raises(ValueError, "'labels' parameter", "label sets throughout"):
        concord.cohen_kappa([{"x"}], [{"x"}], labels=[{"x"}, "y"])
    with raises(ValueError, "'labels' parameter", "the empty set"):
        concord.cohen_kappa([{"x"}], [{"x"}], labels=[{"x"}, set()])


def test_equal_length_lists_stay_the_two_dimensional_error():
    # a list of equal-length lists is a matrix passed as one rater, never read by position
    with raises(ValueError, "'rater1'", "must be 1-D", "(2, 2)", "pass sets (frozenset)"):
        concord.cohen_kappa([["a", "b"], ["c", "d"]], [["b", "a"], ["c", "d"]])


# --- 14. one value as a number and as its text: refused ----------------------------------------


def test_gold_labels_read_as_text_are_refused():
    # before: every κ 0 with SE 0 (gold '1' never met a rating 1)
    rng = np.random.default_rng(0)
    gold = rng.integers(1, 4, 30)
    ratings = np.column_stack([np.where(rng.random(30) < 0.8, gold, 1) for _ in range(3)])
    with raises(ValueError, "'ratings' parameter of against_gold", "numbers or text", "as text"):
        concord.against_gold(ratings, gold.astype(str))
    frame = pd.DataFrame(ratings.astype(float), columns=["a", "b", "c"])  # floats: 1.0 and '1'
    with raises(ValueError, "numbers or text, not both", "as text"):
        concord.against_gold(frame, gold.astype(str))
    assert concord.against_gold(ratings, gold).mean > 0.5


def test_a_text_column_among_number_columns_is_refused():
    # before: Fleiss −0.33 on a frame whose column 'a' was read from text
    frame = pd.DataFrame({"a": ["1", "2", "1", "2"], "b": [1, 2, 1, 2], "c": [1, 2, 1, 2]})
    for f in (concord.fleiss_kappa, concord.krippendorff_alpha, concord.gwet_ac):
        with raises(ValueError, f"'ratings' parameter of {f.__name__}", "'1' as text"):
            f(frame)
    assert concord.fleiss_kappa(frame.astype(int)).statistic == 1.0


def test_a_list_mixing_one_and_its_text_is_refused():
    with raises(ValueError, "cohen_kappa", "1 as a number and '1' as text"):
        concord.cohen_kappa([1, "1", 2, "2"], [1, 1, 2, 2])
    with raises(ValueError, "cohen_kappa", "numbers or text"):
        concord.cohen_kappa(["1", "2", "1"], [1.0, 2.0, 1.0])
    acc = concord.accumulate(concord.cohen_kappa).update(["1", "2"], ["1", "2"])
    with raises(ValueError, "numbers or text"):
        acc.update([1, 2], [1, 2]).result()
    # text and numbers that are not the same value stay nominal categories
    assert concord.cohen_kappa(["a", 1, "b"], ["a", 1, "b"]).statistic == 1.0


# --- 14. text grades are never ordered alphabetically -------------------------------------------

GRADES = ["low", "mid", "high", "mid", "low"]
OTHER = ["low", "high", "high", "mid", "mid"]


@pytest.mark.parametrize("weights", ["linear", "quadratic", [1, 0.5, 0]])
def test_bangdiwala_weights_ask_for_the_order_of_text_grades(weights):
    # before: 0.5625, from the alphabetical order high < low < mid
    with raises(ValueError, "'labels' parameter of bangdiwala_b", "never sorts them"):
        concord.bangdiwala_b(GRADES, OTHER, weights=weights)
    ordered = concord.bangdiwala_b(GRADES, OTHER, weights=weights, labels=["low", "mid", "high"])
    coded = {"low": 1, "mid": 2, "high": 3}
    numbers = concord.bangdiwala_b([coded[g] for g in GRADES], [coded[g] for g in OTHER])
    assert (
        ordered.statistic
        == concord.bangdiwala_b(
            [coded[g] for g in GRADES], [coded[g] for g in OTHER], weights=weights
        ).statistic
    )
    assert (
        numbers.statistic == concord.bangdiwala_b(GRADES, OTHER).statistic
    )  # unweighted: any order


def test_kappa_scorer_with_tolerance_asks_for_the_order_of_text_grades():
    pytest.importorskip("sklearn")
    from sklearn.base import BaseEstimator, ClassifierMixin

    import concord.ml

    class Fixed(ClassifierMixin, BaseEstimator):
        def fit(self, x, y):
            self.classes_ = np.unique(y)
            return self

        def predict(self, x):
            return np.array(OTHER)

    x, y = np.zeros((5, 1)), np.array(GRADES)
    est = Fixed().fit(x, y)
    scorer = concord.ml.kappa_scorer(weights="quadratic", tolerance=1)
    with raises(ValueError, "'labels' parameter of kappa_scorer", "never sorts them"):
        scorer(est, x, y)
    # declared order: low–mid and mid–high are one apart, so every pair agrees within 1
    declared = concord.ml.kappa_scorer(
        weights="quadratic", tolerance=1, labels=["low", "mid", "high"]
    )
    assert declared(est, x, y) == 1.0


# --- 15. labels far from 1, and integers beyond int64 -------------------------------------------


def test_labels_beyond_int64_are_categories_not_an_overflow():
    # before: OverflowError "Python int too large to convert to C long"
    r1, r2 = [1, 2, 1, 2], [1, 2, 2, 1]
    plain = concord.cohen_kappa(r1, r2, labels=[1, 2, 3]).statistic
    assert plain == 0.0  # p_o = 1/2 = p_e (by hand)
    for huge in (1e200, -1e200, 10**200):
        assert concord.cohen_kappa(r1, r2, labels=[1, 2, huge]).statistic == plain
        assert concord.bangdiwala_b(r1, r2, labels=[huge, 1, 2]).statistic == 0.25  # 2/8


@pytest.mark.parametrize("scale", [1e200, 1e-200, 2.0**1000])
@pytest.mark.parametrize("weights", ["linear", "quadratic", "ratio", "bipolar", "radical"])
def test_weights_of_labels_far_from_one_are_the_weights_of_their_ratios(scale, weights):
    # before: quadratic weights of labels 0, 1e200, 2e200 overflowed to inf: κ = −2.0 or nan
    small = [1.0, 2.0, 3.0]
    far = [v * scale for v in small]  # ×2^k exactly, or a rounding of each: ratios kept
    assert np.allclose(concord.weight_matrix(far, weights), concord.weight_matrix(small, weights))
    r1, r2 = [1, 2, 3, 3, 2, 1, 2], [1, 3, 3, 2, 2, 1, 1]
    near = concord.cohen_kappa(r1, r2, labels=small, weights=weights).statistic
    got = concord.cohen_kappa(
        [far[v - 1] for v in r1], [far[v - 1] for v in r2], labels=far, weights=weights
    ).statistic
    assert abs(got - near) < 1e-12
    if scale == 2.0**1000:  # a power of two scales exactly: the same κ to the last bit
        assert got == near


def test_uint64_ratings_beyond_int64_keep_their_values():
    # before: 2**63 wrapped to −2**63 (two uint64 columns), or became a float beside int64
    both = pd.DataFrame(
        {
            "a": np.array([2**63, 1, 2, 1], np.uint64),
            "b": np.array([2**63 + 1, 1, 2, 1], np.uint64),
        }
    )
    assert concord.fleiss_kappa(both).labels == (1, 2, 2**63, 2**63 + 1)
    mixed = pd.DataFrame(
        {"a": np.array([2**63, 1, 2, 1], np.uint64), "b": [2**63, 1, 2, 2], "c": [1.0, 1, 2, 2]}
    )
    result = concord.fleiss_kappa(mixed)
    assert result.labels == (1, 2, 2**63) and all(type(v) is int for v in result.labels)
    same = mixed.replace({2**63: 3}).astype(int)
    assert result.statistic == concord.fleiss_kappa(same).statistic


# --- 15. bidirectional controls in the report ----------------------------------------------


def test_the_report_shows_bidi_controls_as_escapes():
    pytest.importorskip("jinja2")
    from concord.report import to_html

    label = "good\u202eevil"
    r1, r2 = [label, "x", "x", label], [label, "x", label, label]
    page = to_html(
        [concord.cohen_kappa(r1, r2)], data=pd.DataFrame({"a": r1, "b": r2}), plots=False
    )
    assert "\u202e" not in page  # before: the label, and what follows, displayed reversed
    assert "good\\u202eevil" in page


def test_cut_points_between_scores_beyond_two_to_the_53_separate_them():
    # before: κ 0, the cut 2**53 + 3 rounded to the score 2**53 + 4 and every grade collapsed
    truth = np.array([0, 1, 2, 0, 1, 2, 0, 0] * 4)
    steps = np.array([0, 1, 2, 0, 2, 2, 1, 0] * 4)
    small = concord.optimize_thresholds(truth, steps * 2.0)
    for offset, gap in ((2.0**53, 2.0), (2.0**60, 256.0), (1e300, 2.0**945)):
        scores = offset + steps * gap  # the same order, far from zero: exact in float64
        far = concord.optimize_thresholds(truth, scores)
        assert far.statistic == small.statistic
        assert (far.apply(scores) == small.apply(steps * 2.0)).all()


def test_a_span_beyond_two_to_the_53_names_the_span_not_the_weights():
    # before: "must be 'linear' or 'quadratic' ... Got 'quadratic' instead", which it was
    for weights in ("linear", "quadratic"):
        with raises(ValueError, "None (unweighted) for integer ratings spanning 2**53", "1 to"):
            concord.cohen_kappa([1, 2**63, 1], [1, 2**63, 2], weights=weights)
    # within a narrow span, far from zero, the distances are exact (shifted by the smallest)
    big = [2**63 + v for v in (0, 1, 2)]
    r1, r2 = [big[i] for i in (0, 1, 2, 2)], [big[i] for i in (0, 2, 2, 1)]
    small = concord.cohen_kappa([0, 1, 2, 2], [0, 2, 2, 1], weights="quadratic").statistic
    assert concord.cohen_kappa(r1, r2, weights="quadratic").statistic == small


# --- properties: random data, against the plain encodings --------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

LABEL_SETS = st.frozensets(st.sampled_from("abcd"), min_size=1, max_size=3)


@settings(max_examples=60, deadline=None)
@given(
    pairs=st.lists(st.tuples(LABEL_SETS, LABEL_SETS), min_size=2, max_size=30),
    kind=st.sampled_from([list, tuple, set, frozenset]),
    seed=st.integers(0, 2**32 - 1),
)
def test_label_sets_in_any_order_are_their_sorted_strings(pairs, kind, seed):
    """κ of label sets, each cell built in a random order, is κ of their canonical strings."""
    rng = np.random.default_rng(seed)

    def shuffled(s):
        items = sorted(s)
        rng.shuffle(items)
        return kind(items)

    r1, r2 = [shuffled(a) for a, _ in pairs], [shuffled(b) for _, b in pairs]
    code = [["+".join(sorted(a)) for a, _ in pairs], ["+".join(sorted(b)) for _, b in pairs]]
    if kind in (list, tuple) and any(len({len(s) for s in r}) == 1 for r in (r1, r2)):
        # equal-length lists read as a 2-D array: refused, never read by position; a
        # Series holds each one as one element
        with pytest.raises(ValueError, match="1-D"):
            concord.cohen_kappa(r1, r2)
        r1, r2 = pd.Series(r1, dtype=object), pd.Series(r2, dtype=object)
    with _no_warning_check():
        got = concord.cohen_kappa(r1, r2).statistic
        expected = concord.cohen_kappa(*code).statistic
    assert got == expected or (np.isnan(got) and np.isnan(expected))


class _no_warning_check:
    """Undefined κ (one category) warns on both sides alike: the test compares the values."""

    def __enter__(self):
        import warnings

        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._catch.__exit__(*exc)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.one_of(st.none(), st.integers(0, 4)), st.integers(0, 4)),
        min_size=3,
        max_size=40,
    )
)
def test_qwk_omit_is_the_five_sums_of_the_complete_pairs(rows):
    """The exact Fraction of the complete pairs, for lists with None and for nullable Int64."""
    kept = [(a, b) for a, b in rows if a is not None]
    a, b = [x for x, _ in kept], [y for _, y in kept]
    r1, r2 = [x for x, _ in rows], [y for _, y in rows]
    n = len(kept)
    denominator = n * sum(x * x for x in a) + n * sum(y * y for y in b) - 2 * sum(a) * sum(b)
    forms = (r1, pd.array(r1, dtype="Int64"))
    for form in forms:
        if len(kept) < len(rows):
            with pytest.raises(ValueError, match="pairs with a missing rating"):
                concord.quadratic_weighted_kappa(form, r2)
        if not kept or denominator == 0:
            continue  # nothing left, or κ undefined (tested elsewhere)
        got = concord.quadratic_weighted_kappa(form, r2, nan_policy="omit")
        assert got == float(qwk_by_sums(a, b))
