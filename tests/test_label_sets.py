"""Label sets: Krippendorff's alpha with the MASI and Jaccard distances, and ``empty=``.

Reference: NLTK's ``AnnotationTask(data, distance=masi_distance).alpha()``
(nltk.metrics.agreement; NLTK 3.10's ``masi_distance`` with M = 2/3 and 1/3)
and its ``jaccard_distance``; the acceptance case of the issue is worked by
hand below in fractions.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest

import concord
from concord._coefficients.krippendorff.krippendorff_sets import jaccard, masi

# three coders on six items (issue 26); NLTK 3.10 gives 0.467785843920145
SETS = [
    [{"pol"}, {"pol"}, {"pol", "econ"}],
    [{"pol", "econ"}, {"econ"}, {"pol", "econ"}],
    [{"sport"}, {"sport"}, {"sport"}],
    [{"econ"}, {"econ", "pol"}, {"econ"}],
    [{"sport", "health"}, {"sport"}, {"health"}],
    [{"health"}, {"health"}, {"health", "econ"}],
]


def cells(rows: list[list[object]]) -> np.ndarray:
    out = np.empty((len(rows), len(rows[0])), dtype=object)
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            out[i, j] = None if value is None else frozenset(value)  # type: ignore[arg-type]
    return out


def by_hand(rows: list[list[object]], distance: object) -> Fraction:
    """Krippendorff's alpha with δ = distance, from its definition, in fractions."""
    units = [[frozenset(v) for v in row if v is not None] for row in rows]  # type: ignore[arg-type]
    units = [u for u in units if len(u) >= 2]
    values = [v for u in units for v in u]
    n = len(values)
    d = distance  # type: ignore[assignment]
    observed = sum(
        (
            Fraction(sum(d(len(a), len(b), len(a & b)) for a, b in permutations(u, 2)), len(u) - 1)  # type: ignore[operator]
            for u in units
        ),
        Fraction(0),
    )
    expected = sum(d(len(a), len(b), len(a & b)) for a in values for b in values)  # type: ignore[operator]
    return 1 - (n - 1) * observed / expected


def test_acceptance_masi_is_nltk() -> None:
    """Issue 26's acceptance case: α = 1031/2204 (NLTK 3.10: 0.467785843920145)."""
    assert by_hand(SETS, masi) == Fraction(1031, 2204)
    r = concord.krippendorff_alpha(cells(SETS), level="masi")
    assert r.statistic == float(Fraction(1031, 2204))
    assert r.statistic == pytest.approx(0.467785843920145, abs=1e-15)  # NLTK's float
    assert r.level == "masi"


def test_jaccard_by_hand() -> None:
    r = concord.krippendorff_alpha(cells(SETS), level="jaccard")
    assert r.statistic == float(by_hand(SETS, jaccard))


def test_distances_are_nltk_definitions() -> None:
    """masi_distance({1, 2}, {1, 2, 3, 4}) = 2/3 in NLTK's doctest; J·M cases by hand."""
    assert masi(2, 4, 2) == Fraction(2, 3)  # 1 − (2/4)·(2/3)
    assert masi(2, 2, 2) == 0 and masi(1, 1, 0) == 1
    assert masi(2, 2, 1) == 1 - Fraction(1, 3) * Fraction(1, 3)
    assert jaccard(2, 4, 2) == Fraction(1, 2) and jaccard(0, 0, 0) == 0


def test_order_of_the_labels_does_not_matter() -> None:
    shuffled = [[list(reversed(sorted(v))) for v in row] for row in SETS]
    out = np.empty((6, 3), dtype=object)
    for i, row in enumerate(shuffled):
        for j, value in enumerate(row):
            out[i, j] = value
    assert concord.krippendorff_alpha(out, level="masi").statistic == float(Fraction(1031, 2204))


def test_same_variance_as_the_distance_matrix() -> None:
    """The set engine's Gwet SE is the coincidence engine's with the q×q MASI matrix."""
    r = concord.krippendorff_alpha(cells(SETS), level="masi")
    dense = concord.krippendorff_alpha(cells(SETS), level=r.distances)
    assert r.statistic == pytest.approx(dense.statistic, abs=1e-14)
    assert r.standard_error == pytest.approx(dense.standard_error, rel=1e-12)
    assert r.distances is not None and r.distances.shape == (7, 7)


def test_missing_ratings_and_unpairable_items() -> None:
    rows = [[*row[:2], None] for row in SETS] + [[{"a"}, None, None]]
    want = by_hand(rows, masi)
    r = concord.krippendorff_alpha(cells(rows), level="masi")
    assert r.statistic == float(want)


def test_bootstrap_runs_and_brackets() -> None:
    r = concord.krippendorff_alpha(cells(SETS * 5), level="masi")
    ci = r.confidence_interval(
        method="bootstrap-percentile", n_resamples=300, rng=np.random.default_rng(3)
    )
    assert ci.low < r.statistic < ci.high
    bca = r.confidence_interval(
        method="bootstrap-bca", n_resamples=300, rng=np.random.default_rng(3)
    )
    assert bca.low < bca.high


def test_single_labels_with_a_set_level_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"level.*masi.*single label"):
        concord.krippendorff_alpha([["a", "b"], ["a", "a"]], level="masi")


def test_all_equal_is_undefined() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = concord.krippendorff_alpha(cells([[{"a"}, {"a"}]] * 3), level="masi")
    assert np.isnan(r.statistic)


# --- empty= --------------------------------------------------------------------------------

EMPTY = [
    [{"a"}, {"a"}, set()],
    [{"a", "b"}, {"b"}, {"b"}],
    [set(), set(), {"c"}],
    [{"c"}, {"c"}, {"a"}],
]


def test_empty_set_is_missing_by_default() -> None:
    as_none = [[v or None for v in row] for row in EMPTY]
    for level in ("nominal", "masi", "jaccard"):
        got = concord.krippendorff_alpha(cells(EMPTY), level=level).statistic
        assert got == concord.krippendorff_alpha(cells(as_none), level=level).statistic
    assert concord.krippendorff_alpha(cells(EMPTY), level="masi").statistic == float(
        by_hand(as_none, masi)
    )


def test_empty_set_as_a_category() -> None:
    """d(∅, ∅) = 0 and d(∅, A) = 1: by hand in fractions."""
    r = concord.krippendorff_alpha(cells(EMPTY), level="masi", empty="category")
    assert r.statistic == float(by_hand(EMPTY, masi))
    assert frozenset() in r.labels
    nominal = concord.krippendorff_alpha(cells(EMPTY), empty="category")
    assert frozenset() in nominal.labels
    assert nominal.statistic != concord.krippendorff_alpha(cells(EMPTY)).statistic


def test_empty_in_fleiss_and_cohen() -> None:
    both = cells(EMPTY)
    missing = concord.fleiss_kappa(both)
    category = concord.fleiss_kappa(both, empty="category")
    assert frozenset() in category.labels and frozenset() not in missing.labels
    # Cohen: the two raters' empty sets (item 3) agree as a category
    a, b = list(both[:, 0]), list(both[:, 1])
    kept = concord.cohen_kappa(a, b, empty="category")
    assert kept.n == 4
    assert concord.cohen_kappa(a, b, nan_policy="omit").n == 3


def test_empty_option_is_checked() -> None:
    with pytest.raises(ValueError, match=r"empty.*'missing', 'category'"):
        concord.krippendorff_alpha(cells(EMPTY), empty="none")


def test_empty_set_as_a_declared_label() -> None:
    labels = [frozenset(), {"a"}, {"b"}, {"c"}, {"a", "b"}]
    r = concord.krippendorff_alpha(cells(EMPTY), labels=labels, empty="category")
    assert frozenset() in r.labels
    with pytest.raises(ValueError, match="empty set"):
        concord.krippendorff_alpha(cells(EMPTY), labels=labels)


# --- streams --------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["masi", "jaccard"])
@pytest.mark.parametrize("empty", ["missing", "category"])
def test_accumulator_is_the_one_shot(level: str, empty: str) -> None:
    data = cells(EMPTY + SETS)
    acc = concord.accumulate(concord.krippendorff_alpha, level=level, empty=empty)
    for start in range(0, 10, 3):
        acc.update(data[start : start + 3])
    got, want = acc.result(), concord.krippendorff_alpha(data, level=level, empty=empty)
    assert got.statistic == want.statistic
    assert got.standard_error == pytest.approx(want.standard_error, rel=1e-12)


# --- NLTK, on seeded random label sets ------------------------------------------------------


def _random_sets(rng: np.random.Generator, n: int, raters: int, labels: int) -> np.ndarray:
    out = np.empty((n, raters), dtype=object)
    truth = rng.integers(0, labels, n)
    for i in range(n):
        for j in range(raters):
            size = int(rng.integers(1, 4))
            chosen = {int(truth[i])} if rng.random() < 0.6 else set()
            chosen |= {int(v) for v in rng.integers(0, labels, size)}
            out[i, j] = None if rng.random() < 0.1 else frozenset(f"L{v}" for v in chosen)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("level", ["masi", "jaccard"])
def test_matches_nltk(seed: int, level: str) -> None:
    agreement = pytest.importorskip("nltk.metrics.agreement")
    distance = pytest.importorskip("nltk.metrics.distance")
    rng = np.random.default_rng(seed)
    data = _random_sets(rng, 40, 4, 6)
    triples = [
        (f"c{j}", f"i{i}", data[i, j])
        for i in range(data.shape[0])
        for j in range(data.shape[1])
        if data[i, j] is not None
    ]
    metric = distance.masi_distance if level == "masi" else distance.jaccard_distance
    if level == "masi" and distance.masi_distance({1, 2}, {1, 2, 3, 4}) != 1 - 0.5 * (2 / 3):
        pytest.skip("NLTK before 3.10 rounds MASI's M to 0.67 and 0.33 (nltk#3361)")
    want = agreement.AnnotationTask(triples, distance=metric).alpha()
    got = concord.krippendorff_alpha(data, level=level).statistic
    assert got == pytest.approx(want, abs=1e-12)


# --- label_agreement ------------------------------------------------------------------------

# NLTK's AnnotationTask(triples).alpha() (binary_distance) of each label's 0/1 ratings
NLTK_PER_LABEL = {
    "pol": 0.5277777777777778,
    "econ": 0.5750000000000001,
    "health": 0.7384615384615385,
    "sport": 0.7384615384615385,
}


def test_label_agreement_per_label_is_nltk() -> None:
    r = concord.label_agreement(SETS)
    assert isinstance(r, concord.LabelAgreementResult)
    assert r.labels == ("pol", "econ", "health", "sport")  # worst first
    for label, want in NLTK_PER_LABEL.items():
        assert r[label].statistic == pytest.approx(want, abs=1e-15)
    assert r.statistic == pytest.approx(np.mean(list(NLTK_PER_LABEL.values())))
    assert r.worst is not None and r.worst.label == "pol"
    table = r.table()
    assert list(table.index) == ["pol", "econ", "health", "sport"]
    assert table.loc["pol", "prevalence"] == pytest.approx(6 / 18)
    assert table["ci_low"].lt(table["statistic"]).all()
    assert table["standard_error"].gt(0).all()


def test_label_agreement_binary_ratings() -> None:
    """Each label's result is the coefficient of the 0/1 matrix, missing cells missing."""
    rows = [[*row[:2], None] for row in SETS]
    r = concord.label_agreement(rows, function=concord.fleiss_kappa)
    binary = np.array([[float("econ" in v) for v in row[:2]] for row in rows])
    assert r["econ"].statistic == concord.fleiss_kappa(binary).statistic
    assert r.coefficient == "fleiss_kappa"


def test_label_agreement_long_form_and_options() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        [
            {"doc": i, "who": f"c{j}", "labels": sorted(v)}
            for i, row in enumerate(SETS)
            for j, v in enumerate(row)
        ]
    )
    r = concord.label_agreement(frame, item="doc", rater="who", rating="labels", labels=["pol"])
    assert r.labels == ("pol",)
    assert r["pol"].statistic == pytest.approx(NLTK_PER_LABEL["pol"], abs=1e-15)
    boot = concord.label_agreement(
        SETS, method="bootstrap-percentile", n_resamples=200, rng=0, population_size=100
    )
    assert boot.method == "bootstrap-percentile"


def test_label_agreement_empty() -> None:
    missing = concord.label_agreement(EMPTY)
    category = concord.label_agreement(EMPTY, empty="category")
    assert missing.table().loc["a", "prevalence"] == pytest.approx(4 / 9)
    assert category.table().loc["a", "prevalence"] == pytest.approx(4 / 12)


def test_label_agreement_errors() -> None:
    with pytest.raises(ValueError, match="labels that occur"):
        concord.label_agreement(SETS, labels=["art"])
    with pytest.raises(ValueError, match="label sets"):
        concord.label_agreement([["a", "b"], ["a", "a"]])


def test_label_agreement_protocol() -> None:
    import json

    r = concord.label_agreement(SETS)
    json.dumps(r.to_dict(), allow_nan=False)
    assert "pol" in r.explain() and "worst" in r.summary()
    assert r._report_section_().title == "Agreement per label"
    assert "<table" in r._repr_html_()


@pytest.mark.parametrize("level", ["masi", "jaccard"])
@pytest.mark.parametrize("empty", ["missing", "category"])
def test_dask_is_the_one_shot(level: str, empty: str) -> None:
    da = pytest.importorskip("dask.array")
    from concord import dask as concord_dask

    data = cells(SETS + EMPTY + SETS)
    got = concord_dask.compute(
        concord.krippendorff_alpha, da.from_array(data, chunks=(4, 3)), level=level, empty=empty
    )
    assert got.statistic == concord.krippendorff_alpha(data, level=level, empty=empty).statistic


def test_bootstrap_twin_is_the_exact_value() -> None:
    """The sampler's float α of the observed data is the exact α (to rounding)."""
    for rows in (SETS, [[*row[:2], None] for row in SETS] + [[{"a"}, None, None]]):
        r = concord.krippendorff_alpha(cells(rows), level="masi")
        sampler = r._inferred().sampler
        assert sampler.observed() == pytest.approx(r.statistic, abs=1e-14)
        values, sizes = sampler.jackknife()
        assert values.shape == sizes.shape and np.isfinite(values).all()


def test_largest_distance_without_disjoint_sets() -> None:
    """Every set holds 'a': max δ < 1, found over every pair of sets (as the q×q engine)."""
    rows = [
        [{"a"}, {"a", "b"}, {"a", "b"}],
        [{"a", "c"}, {"a"}, {"a", "c"}],
        [{"a", "b"}, {"a", "b"}, {"a", "b", "c"}],
        [{"a", "d", "e", "f"}, None, None],  # a set only an unpairable item holds: max δ
    ]
    r = concord.krippendorff_alpha(cells(rows), level="masi")
    dense = concord.krippendorff_alpha(cells(rows), level=r.distances)
    assert r.statistic == float(by_hand(rows, masi))
    assert r.standard_error == pytest.approx(dense.standard_error, rel=1e-12)
    assert r.observed_agreement == pytest.approx(dense.observed_agreement, rel=1e-12)


def test_notebook_html_without_a_distance_table() -> None:
    """α of more than 256 sets (or continuous values) keeps no q×q table: the page still shows.

    It failed (zip of 300 labels with an empty weights matrix) before.
    """
    rng = np.random.default_rng(0)
    many = cells(
        [[{f"L{v}" for v in rng.integers(0, 12, 3)} for _ in range(3)] for _ in range(200)]
    )
    r = concord.krippendorff_alpha(many, level="masi")
    assert len(r.labels) > 256 and r.weights.size == 0
    assert "concord-result" in r._repr_html_()
    scores = concord.krippendorff_alpha(rng.normal(size=(300, 3)), level="interval")
    assert "concord-result" in scores._repr_html_()


@pytest.mark.parametrize("level", ["masi", "jaccard"])
def test_large_sets_take_the_sorted_path(level: str) -> None:
    """Sets of up to 200 of 300 labels: (s + 1)³ classes beyond the dense count (2²²)."""
    rng = np.random.default_rng(7)
    rows = [
        [
            {f"L{v}" for v in rng.choice(300, int(rng.integers(150, 200)), replace=False)}
            for _ in range(3)
        ]
        for _ in range(8)
    ]
    rows[0][1] = rows[0][0]  # an equal pair
    r = concord.krippendorff_alpha(cells(rows), level=level)
    assert r.statistic == float(by_hand(rows, masi if level == "masi" else jaccard))
    assert np.isfinite(r.standard_error)


def test_masi_and_jaccard_alpha_on_two_items_by_hand() -> None:
    """Two coders, items {a} vs {a, b} and {b} vs {b}, from the definitions.

    MASI (Passonneau 2006): d({a}, {a, b}) = 1 - J·M = 1 - (1/2)(2/3) = 2/3, disjoint
    sets 1. D_o sum = 2·2/3 = 4/3; D_e sum over the ordered pairs of the four values
    = 2·2/3 + 4·1 + 4·2/3 = 8; α = 1 - (n - 1)·(4/3)/8 = 1/2. Jaccard: d = 1/2, so
    D_o = 1, D_e = 1 + 4 + 2 = 7, α = 1 - 3/7 = 4/7.
    """
    rows = [[{"a"}, {"a", "b"}], [{"b"}, {"b"}]]
    masi_alpha = concord.krippendorff_alpha(rows, level="masi").statistic
    jaccard_alpha = concord.krippendorff_alpha(rows, level="jaccard").statistic
    assert masi_alpha == pytest.approx(float(Fraction(1, 2)), abs=1e-15)
    assert jaccard_alpha == pytest.approx(float(Fraction(4, 7)), abs=1e-15)


@pytest.mark.parametrize("hole", [None, float("nan")])
def test_a_missing_label_inside_a_set_is_an_error(hole: object) -> None:
    """A None or NaN among a set's labels was counted as a label of its own."""
    rows = [[{"a", hole}, {"a"}], [{"b"}, {"b"}]]
    with pytest.raises(ValueError, match=r"none of them missing.*at position 0"):
        concord.krippendorff_alpha(rows, level="masi")
    with pytest.raises(ValueError, match=r"missing label \(None or NaN\)"):
        concord.label_agreement(rows)


def test_label_agreement_with_no_label_chosen_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"'labels' parameter.*at least one label.*'econ'"):
        concord.label_agreement(SETS, labels=[])


def test_label_agreement_with_a_two_rater_coefficient() -> None:
    """Cohen's κ of 'pol' for the first two coders, by hand: p_o = 4/6, p_e = 5/9, κ = 1/4."""
    two = [row[:2] for row in SETS]
    r = concord.label_agreement(two, function=concord.cohen_kappa)
    assert r["pol"].statistic == pytest.approx(float(Fraction(1, 4)), abs=1e-15)
    assert r.coefficient == "cohen_kappa"
    with pytest.raises(ValueError, match=r"'function' parameter.*cohen_kappa for 3 raters"):
        concord.label_agreement(SETS, function=concord.cohen_kappa)


def test_a_label_as_a_number_and_as_its_text_is_an_error() -> None:
    """{1} and {'1'} were two disjoint sets (MASI distance 1), never agreeing, silently;
    single labels 1 and '1' were already refused."""
    across = [[{1}, {"1"}], [{2}, {"2"}], [{1}, {"1"}]]  # one column numbers, one text
    with pytest.raises(ValueError, match=r"Got 1 as a number and '1' as text"):
        concord.krippendorff_alpha(across, level="masi")
    with pytest.raises(ValueError, match=r"numbers or text, not both"):
        concord.label_agreement(across)
    numbers = concord.krippendorff_alpha([[{1}, {1, 2}], [{2}, {2}], [{1}, {1}]], level="masi")
    texts = concord.krippendorff_alpha(
        [[{"1"}, {"1", "2"}], [{"2"}, {"2"}], [{"1"}, {"1"}]], level="masi"
    )
    assert numbers.statistic == texts.statistic  # one type throughout is fine
