"""Properties of the multi-rater coefficients: the count form, independent implementations
and peers. The invariances and the two-rater cases of every coefficient are in
tests/test_invariance.py, run over the shared registry (tests/registry.py)."""

from __future__ import annotations

import tracemalloc
import warnings
from fractions import Fraction

import krippendorff
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from statsmodels.stats import inter_rater

import concord
from concord._coefficients.krippendorff import krippendorff as _krippendorff

Q = [1, 2, 3, 4]


@st.composite
def matrices(draw, min_raters=2, max_raters=5, missing=True):
    n = draw(st.integers(2, 25))
    r = draw(st.integers(min_raters, max_raters))
    cell = st.sampled_from(Q + ([None] if missing else []))
    rows = draw(st.lists(st.lists(cell, min_size=r, max_size=r), min_size=n, max_size=n))
    return np.array(rows, dtype=object)


@given(matrices(), st.sampled_from([None, "quadratic"]))
def test_count_form_gives_the_same_values(x, weights):
    assume(any(v is not None for v in x.ravel()))
    counts = concord.CategoryCounts(_counts(x), labels=Q)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", concord.UndefinedKappaWarning)
        for func in (
            concord.fleiss_kappa,
            concord.gwet_ac,
            concord.brennan_prediger,
            concord.percent_agreement,
        ):
            a = func(x, weights=weights, labels=Q).statistic
            b = func(counts, weights=weights).statistic
            assert a == b or (np.isnan(a) and np.isnan(b))
        a = concord.krippendorff_alpha(x, labels=Q).statistic
        b = concord.krippendorff_alpha(counts).statistic
        assert a == b or (np.isnan(a) and np.isnan(b))


def _counts(x):
    return np.array([[sum(v == q for v in row) for q in Q] for row in x])


# --- independent implementations in exact fractions, straight from the definitions ------------
def fraction_fleiss(x, kind="fleiss"):
    """Gwet (2014) generalised Fleiss / AC1 / Brennan-Prediger, item by item."""
    rows = [[v for v in row if v is not None] for row in x]
    rows = [r for r in rows if r]
    q = len(Q)
    pairable = [r for r in rows if len(r) >= 2]
    pa = sum(
        Fraction(sum(r.count(c) * (r.count(c) - 1) for c in Q), len(r) * (len(r) - 1))
        for r in pairable
    ) / len(pairable)
    pi = [sum(Fraction(r.count(c), len(r)) for r in rows) / len(rows) for c in Q]
    pe = {
        "fleiss": sum(p * p for p in pi),
        "gwet": sum(p * (1 - p) for p in pi) / (q - 1),
        "bp": Fraction(1, q),
    }[kind]
    return (pa - pe) / (1 - pe)


def fraction_alpha(x):
    """Krippendorff (2011), nominal, from the coincidence matrix built pair by pair."""
    o = {(c, k): Fraction(0) for c in Q for k in Q}
    for row in x:
        values = [v for v in row if v is not None]
        m = len(values)
        if m < 2:
            continue
        for i, c in enumerate(values):
            for j, k in enumerate(values):
                if i != j:
                    o[c, k] += Fraction(1, m - 1)
    n_c = {c: sum(o[c, k] for k in Q) for c in Q}
    n = sum(n_c.values())
    d_o = sum(v for (c, k), v in o.items() if c != k) / n
    d_e = sum(n_c[c] * n_c[k] for c in Q for k in Q if c != k) / (n * (n - 1))
    return 1 - d_o / d_e


@given(matrices())
def test_exact_against_fractions(x):
    for func, kind in (
        (concord.fleiss_kappa, "fleiss"),
        (concord.gwet_ac, "gwet"),
        (concord.brennan_prediger, "bp"),
    ):
        try:
            expected = fraction_fleiss(x, kind)
        except ZeroDivisionError:
            continue
        assert func(x, labels=Q).statistic == float(expected)
    try:
        expected = fraction_alpha(x)
    except ZeroDivisionError:
        return
    assert concord.krippendorff_alpha(x, labels=Q).statistic == float(expected)


# --- peers -------------------------------------------------------------------------------------
@given(matrices(min_raters=2, max_raters=6, missing=False))
def test_fleiss_and_randolph_match_statsmodels(x):
    table = _counts(x)
    assume(len({tuple(row) for row in table}) >= 1 and (table.sum(axis=0) > 0).sum() >= 2)
    with np.errstate(all="ignore"):
        expected = inter_rater.fleiss_kappa(table, method="fleiss")
        uniform = inter_rater.fleiss_kappa(table, method="randolph")
    assume(np.isfinite(expected))
    assert concord.fleiss_kappa(x, labels=Q).statistic == pytest.approx(expected, rel=1e-10)
    assert concord.brennan_prediger(x, labels=Q).statistic == pytest.approx(uniform, rel=1e-10)


@settings(max_examples=60)
@given(matrices(max_raters=6), st.sampled_from(["nominal", "ordinal", "interval", "ratio"]))
def test_alpha_matches_the_krippendorff_package(x, level):
    data = np.where(x == None, np.nan, x).astype(float).T  # noqa: E711 - elementwise
    try:
        with np.errstate(all="ignore"):
            expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    except (ValueError, ZeroDivisionError):
        assume(False)
    assume(np.isfinite(expected))
    got = concord.krippendorff_alpha(x, level=level).statistic
    assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)


@settings(max_examples=40)
@given(matrices(max_raters=6), st.sampled_from(["nominal", "ordinal", "interval", "ratio"]))
def test_decomposition_engine_equals_coincidence_engine(x, level):
    assume(any(v is not None for v in x.ravel()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", concord.UndefinedKappaWarning)
        exact = concord.krippendorff_alpha(x, level=level, labels=Q)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(_krippendorff, "_DENSE_MAX", 1)
            decomposed = concord.krippendorff_alpha(x, level=level, labels=Q)
    assert decomposed.coincidences is None
    for attr in (
        "statistic",
        "observed_disagreement",
        "expected_disagreement",
        "observed_agreement",
        "chance_agreement",
    ):
        assert getattr(decomposed, attr) == pytest.approx(
            getattr(exact, attr), rel=1e-9, abs=1e-12, nan_ok=True
        ), attr


@pytest.mark.parametrize("level", ["interval", "ratio", "ordinal", "nominal"])
def test_alpha_on_continuous_data_stays_small(level):
    # 12,610 distinct values over 3,000 items × 5 raters: a V×V matrix of float64 would
    # take 1.2 GiB, and the `krippendorff` package asks for 3.47 TiB (items × V × V) here
    rng = np.random.default_rng(7)
    truth = rng.uniform(50, 1000, 3000)
    x = np.round(truth[:, None] + rng.normal(0, 5, (3000, 5)), 2)
    x[rng.random(x.shape) < 0.1] = np.nan
    labels = np.unique(x[~np.isnan(x)]) if level == "nominal" else None
    tracemalloc.start()
    r = concord.krippendorff_alpha(x, level=level, labels=labels)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(r.labels) > 10_000 and r.coincidences is None
    assert peak < 60 * 2**20, f"peak {peak / 2**20:.0f} MiB"
    # the same computation on a subset, through the exact coincidence engine
    sub = x[:300]
    labels = np.unique(sub[~np.isnan(sub)]) if level == "nominal" else None
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_krippendorff, "_DENSE_MAX", 10**6)
        exact = concord.krippendorff_alpha(sub, level=level, labels=labels)
    assert exact.coincidences is not None
    assert concord.krippendorff_alpha(sub, level=level, labels=labels).statistic == pytest.approx(
        exact.statistic, rel=1e-9
    )


@st.composite
def numeric_matrices(draw):
    n = draw(st.integers(1, 30))
    r = draw(st.integers(1, 6))
    lo = draw(st.integers(-3, 3))
    k = draw(st.integers(1, 20))
    cell = st.one_of(st.integers(lo, lo + k - 1).map(float), st.just(np.nan))
    rows = draw(st.lists(st.lists(cell, min_size=r, max_size=r), min_size=n, max_size=n))
    return np.array(rows, dtype=np.float64)


@settings(max_examples=80)
@given(numeric_matrices(), st.booleans())
def test_one_pass_engine_equals_numpy_path(x, as_int):
    # the numba route (small inputs forced through it) forms the numpy path's patterns
    from concord._tables import engines as _count
    from concord._tables import items as _items

    assume(not np.isnan(x).all())
    if as_int:
        assume(not np.isnan(x).any())
        x = x.astype(np.int64)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_count, "_NUMBA_MIN", 1 << 62)
        slow = _items.item_data(x, None, "test", need_raters=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_count, "_NUMBA_MIN", 0)
        mp.setattr(_count, "_LOAD_MIN", 0)
        mp.setattr(_count, "_MATRIX_THREAD_MIN", 4)
        fast = _items.item_data(x, None, "test", need_raters=True)
    assert fast.labels == slow.labels and fast.names == slow.names
    for kind in ("counts", "raters"):
        a, b = getattr(fast, kind), getattr(slow, kind)
        order_a, order_b = np.lexsort(a.rows.T), np.lexsort(b.rows.T)
        np.testing.assert_array_equal(a.rows[order_a], b.rows[order_b])
        np.testing.assert_array_equal(a.freq[order_a], b.freq[order_b])
    for attr in ("sizes", "items", "totals", "gram"):
        np.testing.assert_array_equal(getattr(fast.stats, attr), getattr(slow.stats, attr))


def test_one_pass_engine_defers_bad_values_to_the_numpy_path():
    from concord._tables import engines as _count

    x = np.array([[1.0, 2.5], [2.0, 2.0]])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_count, "_NUMBA_MIN", 0)
        mp.setattr(_count, "_LOAD_MIN", 0)
        assert _count.matrix_patterns(x) is None
        with pytest.raises(ValueError, match="integral"):
            concord.fleiss_kappa(x)


@settings(max_examples=80)
@given(numeric_matrices(), st.booleans())
def test_numpy_one_pass_equals_the_validating_path(x, as_int):
    # without numba a numeric matrix is counted in blocks (matrix_numpy): the validating
    # path's patterns, in its order, integer for integer, whichever route it takes
    from concord._tables import engines as _count
    from concord._tables import items as _items

    assume(not np.isnan(x).all())
    if as_int:
        assume(not np.isnan(x).any())
        x = x.astype(np.int64)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_count, "_NUMBA_MIN", 1 << 62)
        fast = _items.item_data(x, None, "test", need_raters=True)
        mp.setattr(_items, "_one_pass", lambda *args, **kwargs: None)
        slow = _items.item_data(x, None, "test", need_raters=True)
    assert fast.labels == slow.labels and fast.names == slow.names
    for kind in ("counts", "raters"):
        a, b = getattr(fast, kind), getattr(slow, kind)
        assert a.rows.dtype == b.rows.dtype and a.freq.dtype == b.freq.dtype
        np.testing.assert_array_equal(a.rows, b.rows)
        np.testing.assert_array_equal(a.freq, b.freq)


@pytest.mark.parametrize("dense", [True, False])
def test_numpy_one_pass_needs_no_copy_of_the_matrix(dense):
    # the numpy route counts a block of rows at a time: its peak is a small fraction of
    # the input (the validating path made int64 codes, masks and stacks: 5x the input)
    import tracemalloc

    from concord._tables import matrix_numpy

    rng = np.random.default_rng(5)
    n = 200_000 if dense else 100_000
    x = rng.integers(1, 6, (n, 5 if dense else 12)).astype(np.float64)
    x[rng.random(x.shape) < 0.1] = np.nan
    tracemalloc.start()
    found = matrix_numpy.matrix_patterns(x, 1 << 16, rows_too=dense)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert found is not None and found[2].n == int((~np.isnan(x).all(axis=1)).sum())
    # dense: one block and the (k + 1)^r table; gathered: an int64 code per item and
    # the count codes' table (the rater patterns themselves are as large as the input)
    assert peak < (0.2 if dense else 0.8) * x.nbytes


def test_numpy_one_pass_defers_what_it_cannot_shift_exactly():
    from concord._tables import matrix_numpy

    assert matrix_numpy.matrix_patterns(np.array([[1.0, 2.5]]), 100, False) is None
    assert matrix_numpy.matrix_patterns(np.array([[np.inf, 2.0]]), 100, False) is None
    assert matrix_numpy.matrix_patterns(np.array([[np.nan, np.nan]]), 100, False) is None
    # 1e300 - (lo - 1) is not exact in float64: the validating path takes it
    assert matrix_numpy.matrix_patterns(np.array([[1e300, 1e300]]), 100, False) is None
    # 1e-300 − (−1) rounds to the whole 1.0: a value that is not whole must not pass as one
    tiny = 1e-300 * np.array([[1.0, 1.015625], [1.0, 1.03125]])
    assert matrix_numpy.matrix_patterns(tiny, 100, False) is None
    with pytest.raises(ValueError, match="integral"):
        concord.fleiss_kappa(np.array([[1.0, 2.5], [2.0, 2.0]]))


def test_few_codes_of_a_wide_range_are_sorted_not_tabled():
    # 1,000 items of 20 raters and 5 categories: 21**5 = 4.08e6 possible count codes;
    # a dense bincount allocated 32 MiB for them (the 20-rater cliff); np.unique does not
    import tracemalloc

    from concord._tables import patterns

    rng = np.random.default_rng(6)
    counts = rng.multinomial(20, [0.2] * 5, size=1000)
    codes = patterns.encode(counts, 21)
    tracemalloc.start()
    found = patterns.from_codes(codes, 21, 5)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    unique, freq = np.unique(counts[:, ::-1], axis=0, return_counts=True)
    np.testing.assert_array_equal(found.rows, unique[:, ::-1])
    np.testing.assert_array_equal(found.freq, freq)
    assert peak < 1 << 20


@settings(max_examples=60)
@given(numeric_matrices(), st.integers(1, 12))
def test_kernel_blocks_join_to_the_whole_matrix_patterns(x, block):
    # the kernels write per-item codes a block of rows at a time (so a 3e8-item matrix
    # needs no 2.4 GB of codes): the joined blocks are the numpy route's patterns, in order
    pytest.importorskip("numba")
    from concord._tables import engines as _count
    from concord._tables import items as _items

    assume(not np.isnan(x).all())
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_count, "_NUMBA_MIN", 1 << 62)
        slow = _items.item_data(x, None, "test", need_raters=True)
        mp.setattr(_count, "_NUMBA_MIN", 0)
        mp.setattr(_count, "_LOAD_MIN", 0)
        mp.setattr(_items, "_KERNEL_BLOCK", block)
        fast = _items.item_data(x, None, "test", need_raters=True)
    assert fast.labels == slow.labels
    for kind in ("counts", "raters"):
        a, b = getattr(fast, kind), getattr(slow, kind)
        np.testing.assert_array_equal(a.rows, b.rows)
        np.testing.assert_array_equal(a.freq, b.freq)
