"""κ equals the exact rational value of its definition, rounded once, on random data.

The reference (tests/exact_reference.py) builds the table with plain Python and
evaluates 1 − ΣW·O / ΣW·E in ``fractions.Fraction``; concord must return the
float nearest to it, for every weighting and on both counting engines.
"""

from __future__ import annotations

from contextlib import contextmanager
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import concord
from concord._tables import engines as _count
from tests.exact_reference import fraction_kappa, fraction_table, positions_weights


@st.composite
def rated_pairs(draw, max_k=7, max_n=60):
    k = draw(st.integers(2, max_k))
    n = draw(st.integers(1, max_n))
    r1 = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    r2 = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    return k, r1, r2


def _defined(table, weights):
    try:
        return fraction_kappa(table, weights)
    except ZeroDivisionError:
        return None


@given(rated_pairs(), st.sampled_from([None, "linear", "quadratic"]))
def test_matches_fraction_arithmetic(data, weights):
    k, r1, r2 = data
    labels = list(range(k))
    exact = _defined(fraction_table(r1, r2, labels), positions_weights(k, weights or "none"))
    assume(exact is not None)
    r = concord.cohen_kappa(r1, r2, weights=weights, labels=labels)
    assert r.statistic == float(exact)


@given(rated_pairs(max_k=5), st.data())
def test_custom_float_weights_are_exact(data, draw):
    k, r1, r2 = data
    w = np.array(
        [[draw.draw(st.floats(0.01, 10)) if i != j else 0.0 for j in range(k)] for i in range(k)]
    )
    exact = _defined(fraction_table(r1, r2, range(k)), w)
    assume(exact is not None)
    r = concord.cohen_kappa(r1, r2, weights=w, labels=range(k))
    assert r.statistic == float(exact)


@given(rated_pairs(), st.integers(-(2**40), 2**40), st.integers(1, 1000))
def test_numeric_labels_use_their_values(data, offset, scale):
    # ratings x -> offset + scale·x: quadratic kappa is invariant, and exact
    k, r1, r2 = data
    exact = _defined(fraction_table(r1, r2, range(k)), positions_weights(k, "quadratic"))
    assume(exact is not None)
    a = [offset + scale * v for v in r1]
    b = [offset + scale * v for v in r2]
    assert concord.cohen_kappa(a, b, weights="quadratic").statistic == float(exact)
    assert concord.quadratic_weighted_kappa(np.array(a), np.array(b)) == float(exact)


@given(rated_pairs(max_n=30), st.lists(st.integers(0, 5), min_size=30, max_size=30))
def test_sample_weight_matches_fraction_arithmetic(data, weights):
    # integer sample weights replicate pairs exactly
    k, r1, r2 = data
    sw = weights[: len(r1)]
    rep1 = [v for v, w in zip(r1, sw, strict=True) for _ in range(w)]
    rep2 = [v for v, w in zip(r2, sw, strict=True) for _ in range(w)]
    assume(rep1)
    exact = _defined(fraction_table(rep1, rep2, range(k)), positions_weights(k, "linear"))
    assume(exact is not None)
    r = concord.cohen_kappa(r1, r2, weights="linear", labels=range(k), sample_weight=sw)
    assert r.statistic == float(exact)


def test_agreement_components_are_exact():
    r = concord.cohen_kappa([1, 2, 3, 3], [1, 3, 3, 2], weights="quadratic")
    # W/max W on values 1..3: ΣW·O = (0 + 1/4 + 0 + 1/4) = 1/2 over n = 4
    assert r.observed_agreement == float(1 - Fraction(1, 2) / 4)
    assert r.statistic == float(fraction_kappa(r.observed, r.weights))


@contextmanager
def numba_everywhere():
    """Run the numba kernels (and two threads) even on tiny inputs."""
    pytest.importorskip("numba")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_count, "_NUMBA_MIN", 0)
        mp.setattr(_count, "_LOAD_MIN", 0)
        mp.setattr(_count, "_THREAD_MIN", 4)
        mp.setenv("CONCORD_NUM_THREADS", "2")
        yield


int_dtypes = st.sampled_from([np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64])


@settings(max_examples=60)
@given(rated_pairs(max_k=20, max_n=300), int_dtypes, st.integers(0, 100))
def test_engines_agree(data, dtype, offset):
    _, r1, r2 = data
    a = (np.array(r1) + offset).astype(dtype)
    b = (np.array(r2) + offset).astype(dtype)
    t_np, lo_np = _count.pair_table(a, b, engine="numpy")
    with numba_everywhere():
        t_nb, lo_nb = _count.pair_table(a, b, engine="numba")
        m_nb = _count.pair_moments(a, b, engine="numba")
    # the numba path may use a wider window; compare on the numpy table's range
    start = lo_np - lo_nb
    size = t_np.shape[0]
    np.testing.assert_array_equal(t_nb[start : start + size, start : start + size], t_np)
    assert t_nb.sum() == t_np.sum() == len(r1)
    m_np = _count.pair_moments(a, b, engine="numpy")
    assert m_np is not None and m_nb is not None
    assert m_np[:2] == m_nb[:2]
    # sums around different shifts: compare the shift-invariant quantities
    for sa, sb, saa, _, sab in (m_np[2], m_nb[2]):
        n = len(r1)
        assert n * sab - sa * sb == _cross(a, b)
        assert n * saa - sa * sa == _cross(a, a)


def _cross(a, b):
    xs, ys = [int(v) for v in a], [int(v) for v in b]
    return len(xs) * sum(x * y for x, y in zip(xs, ys, strict=True)) - sum(xs) * sum(ys)


@settings(max_examples=40)
@given(rated_pairs(max_k=6, max_n=200), st.sampled_from([None, "linear", "quadratic"]))
def test_public_results_identical_across_engines(data, weights):
    k, r1, r2 = data
    exact = _defined(fraction_table(r1, r2, range(k)), positions_weights(k, weights or "none"))
    assume(exact is not None)
    with numba_everywhere():
        r = concord.cohen_kappa(np.array(r1, np.int8), np.array(r2, np.int8), weights=weights)
        qwk = concord.quadratic_weighted_kappa(np.array(r1), np.array(r2))
    assert r.statistic == float(exact)
    if weights == "quadratic":
        assert qwk == float(exact)


def test_window_fallback():
    # a rating outside the 16-value window guessed from the first 1024 pairs
    a = np.r_[np.arange(1200) % 5, 99]
    b = np.r_[np.arange(1200) % 5, 0]
    with numba_everywhere():
        t, lo = _count.pair_table(a, b, engine="numba")
    assert t.sum() == a.size and t[99 - lo, 0 - lo] == 1


def test_wide_range_falls_back_to_lookup():
    a = np.array([0, 10**6, 5, 5])
    b = np.array([0, 10**6, 5, 10**6])
    assert _count.pair_table(a, b) is None  # wider than MAX_RANGE
    r = concord.cohen_kappa(a, b)
    assert r.labels == (0, 5, 10**6)
    assert r.statistic == float(fraction_kappa(r.observed, positions_weights(3, "none")))


@pytest.mark.parametrize("dtype", [np.int8, np.int64])
def test_engines_agree_on_both_sides_of_the_crossover(dtype):
    from concord._coefficients.kappa.qwk import _from_sums

    pytest.importorskip("numba")
    rng = np.random.default_rng(5)
    sums_min = _count._NUMBA_MIN // _count._SUMS
    for n in (sums_min - 1, sums_min, _count._NUMBA_MIN - 1, _count._NUMBA_MIN, 131_073):
        a, b = (rng.integers(-3, 4, n).astype(dtype) for _ in range(2))
        tables = [_count.pair_table(a, b, engine=e) for e in ("numpy", "numba", "auto")]
        moments = [_count.pair_moments(a, b, engine=e) for e in ("numpy", "numba", "auto")]
        for table, lo in tables[1:]:
            assert lo <= -3 and table.sum() == n
            np.testing.assert_array_equal(table[-3 - lo : 4 - lo, -3 - lo : 4 - lo], tables[0][0])
        kappas = {_from_sums(n, m[2]) for m in moments}  # the sums depend on a shift; κ does not
        assert len(kappas) == 1 and {m[:2] for m in moments} == {(-3, 3)}


def test_the_kernels_load_once_numpy_has_counted_enough(monkeypatch):
    calls = []

    def kernels():
        calls.append(1)
        return None  # as without numba: numpy counts

    kernels.cache_info = lambda: type("Info", (), {"currsize": 0})()  # type: ignore[attr-defined]
    monkeypatch.setattr(_count, "_kernels", kernels)
    monkeypatch.setattr(_count, "_counted", 0)
    monkeypatch.setattr(_count, "_LOAD_MIN", 100_000)
    a = np.arange(40_000) % 5
    _count.pair_table(a, a)
    _count.pair_table(a, a)
    assert not calls  # 80,000 values counted: not yet worth loading
    _count.pair_table(a, a)
    assert calls


def _fraction_core(table, weights, pooled):
    """(κ, p_o, p_e) of weighted_kappa_core from the definition, in Fractions."""
    o = [[Fraction(v) for v in row] for row in np.asarray(table).tolist()]
    w = [[Fraction(v) for v in row] for row in np.asarray(weights).tolist()]
    k, n = len(o), sum(map(sum, o))
    rows = [sum(o[i]) for i in range(k)]
    cols = [sum(o[i][j] for i in range(k)) for j in range(k)]
    if pooled:
        rows = cols = [(rows[i] + cols[i]) / 2 for i in range(k)]
    top = max(map(max, w))
    a = sum(w[i][j] * o[i][j] for i in range(k) for j in range(k)) / n
    b = sum(w[i][j] * rows[i] * cols[j] for i in range(k) for j in range(k)) / n / n
    kappa = float(1 - a / b) if b else float("nan")
    return kappa, float(1 - a / top), float(1 - b / top)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 9),
    st.sampled_from([1, 10**6, 10**9, 10**12]),
    st.sampled_from(["quadratic", "float", "spread", "huge"]),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_core_int64_and_python_ints_agree_with_fractions(k, scale, kind, pooled, seed):
    # large counts and weights cross the int64 bound; float weights split into parts;
    # exponents spread over ~600 bits take Python ints
    from concord._coefficients.kappa.cohen_core import weighted_kappa_core

    rng = np.random.default_rng(seed)
    table = rng.integers(0, 50, (k, k)) * scale
    i, j = np.indices((k, k))
    weights = {
        "quadratic": ((i - j) ** 2 * 10**5).astype(float),
        "float": np.abs(i - j) ** 1.5,
        "spread": np.abs(i - j) * rng.random((k, k)) * 2.0 ** rng.integers(-60, 60, (k, k)),
        "huge": np.abs(i - j) * 2.0 ** rng.integers(-300, 300, (k, k)),
    }[kind]
    assume(table.sum() > 0)
    got = weighted_kappa_core(table, weights, pooled=pooled)
    want = _fraction_core(table, weights, pooled)
    assert np.array_equal(got, want, equal_nan=True)


def test_large_k_stays_in_machine_integers():
    from concord._common import exact

    k = 1000
    i, j = np.indices((k, k))
    split = exact.parts(np.abs(i - j) ** 1.5)
    assert split is not None and all(p.dtype == np.int64 for _, p in split)
    assert exact.parts(((i - j) ** 2).astype(float))[0][1].dtype == np.int64
    assert exact.parts(np.array([[0.0, 1e-300], [1e300, 0.0]])) is None


@pytest.mark.parametrize(("base", "width"), [(2, 70), (6, 100), (256, 9), (300, 8)])
def test_wide_rows_keep_numpys_distinct_order(base, width):
    # rows too wide for one int64 code sort as byte strings: np.unique's rows, order, counts
    from concord._tables.patterns import distinct

    rng = np.random.default_rng(base)
    rows = rng.integers(0, base, (400, width))
    rows = np.concatenate([rows, rows[:150], rows[:7]])
    unique, freq = np.unique(rows, axis=0, return_counts=True)
    got = distinct(rows)
    assert np.array_equal(got.rows, unique) and np.array_equal(got.freq, freq)


def test_many_raters_conger_takes_the_one_pass_route():
    # 40 raters: the rows take the wide route; every count matches the numpy path
    rng = np.random.default_rng(3)
    x = rng.integers(1, 4, (3000, 40)).astype(float)
    x[rng.random(x.shape) < 0.2] = np.nan
    with numba_everywhere():
        fast = concord.conger_kappa(x)
    slow = concord.conger_kappa(x, labels=[1, 2, 3])  # labels= takes the numpy path
    assert fast.statistic == slow.statistic
    assert fast.standard_error == pytest.approx(slow.standard_error, rel=1e-12)


@pytest.mark.parametrize("kind", ["normal", "wide exponents", "cancelling", "subnormal", "huge"])
def test_fsum_on_integers_equals_math_fsum(kind):
    # exact._integer_sum (large arrays) gives the correctly rounded sum as math.fsum, bit for bit
    import math

    from concord._common.exact import _VECTOR, fsum

    rng = np.random.default_rng(24)
    for _ in range(20):
        n = int(rng.integers(_VECTOR, 3 * _VECTOR))
        x = rng.normal(size=n)
        if kind == "wide exponents":
            x *= 10.0 ** rng.integers(-300, 300, n)
        elif kind == "cancelling":
            x = np.concatenate([x * 1e16, -x * 1e16, [0.5, 2.0**-1074, 1e300, -1e300]])
        elif kind == "subnormal":
            x = rng.integers(-1000, 1000, n) * 5e-324
        elif kind == "huge":
            x *= 1e300
        assert fsum(x) == math.fsum(x.tolist())


def test_item_stats_stay_python_integers_beside_a_huge_group():
    # one item with 2**31 ratings makes the sums Python ints; the small group's Gram matrix
    # (computed in float64, exact there) was stored as Python floats, which then mixed
    # inexact float arithmetic into the exact sums of alpha's coincidences
    from concord._coefficients.krippendorff.krippendorff_core import coincidences
    from concord._tables.item_table import item_stats
    from concord._tables.patterns import Patterns

    rows = np.array([[2**30, 2**30], [1, 1], [2, 0]])
    freq = np.array([1, 3, 2])
    stats = item_stats(Patterns(rows, freq))
    assert {type(v) for v in stats.gram.flat} == {int}
    big = 2**31
    expected = {int(m): np.zeros((2, 2), dtype=object) for m in (2, big)}
    for row, f in zip(rows.tolist(), freq.tolist(), strict=True):  # Σ f r rᵀ, in Python ints
        r = np.array(row, dtype=object)
        expected[sum(row)] += f * np.outer(r, r)
    assert all((stats.gram[g] == expected[int(m)]).all() for g, m in enumerate(stats.sizes))
    total, scale = coincidences(stats)
    assert {type(v) for v in total.flat} == {int} and scale == big - 1


@pytest.mark.parametrize(
    "kind", ["normal", "wide exponents", "cancelling", "subnormal", "huge", "special", "large n"]
)
def test_fsum_counts_is_fsum_of_the_repeated_values(kind):
    # exact.fsum_counts sums distinct values with their counts: the correctly rounded
    # Σ counts·x, which is what fsum (math.fsum) gives on the repeated array, bit for bit;
    # the reference is math.fsum of the repeats (special values: nan, ±inf as math.fsum
    # treats them) or, past 2**25 items, the Fraction sum rounded once
    import math

    from concord._common.exact import _HALF_LIMIT, fsum_counts, to_float

    rng = np.random.default_rng(25)
    for _ in range(20):
        size = int(rng.integers(1, 300))
        x = rng.normal(size=size)
        counts = rng.integers(0, 40, size)
        if kind == "wide exponents":
            x *= 10.0 ** rng.integers(-300, 300, size)
        elif kind == "cancelling":
            x = np.concatenate([x * 1e16, -x * 1e16, [0.5, 2.0**-1074]])
            counts = np.concatenate([counts, counts, [3, 7]])
        elif kind == "subnormal":
            x = rng.integers(-1000, 1000, size) * 5e-324
        elif kind == "huge":
            x *= 1e300
        elif kind == "special":
            x[: min(size, 2)] = [np.inf, np.nan][: min(size, 2)]
        elif kind == "large n":
            counts = rng.integers(_HALF_LIMIT // size + 1, 2 * _HALF_LIMIT // size + 2, size)
            exact = sum(Fraction(float(v)) * int(c) for v, c in zip(x, counts, strict=True))
            assert fsum_counts(x, counts) == to_float(exact)
            continue
        expected = math.fsum(np.repeat(x, counts).tolist())
        got = fsum_counts(x, counts)
        assert got == expected or (math.isnan(got) and math.isnan(expected))


@pytest.mark.parametrize("kind", ["normal", "wide exponents", "cancelling", "subnormal", "zeros"])
def test_fsums_by_are_the_fraction_sums_of_each_code(kind):
    # exact.fsums_by: Σ x over each code's rows, exactly (the reference: Fraction sums)
    from concord._common.exact import fsums_by

    rng = np.random.default_rng(26)
    for _ in range(10):
        n, size = int(rng.integers(1, 400)), int(rng.integers(1, 6))
        x = rng.normal(size=n)
        if kind == "wide exponents":
            x *= 10.0 ** rng.integers(-300, 300, n)
        elif kind == "cancelling":
            x = np.concatenate([x * 1e16, -x * 1e16, [0.5, 2.0**-1074]])
        elif kind == "subnormal":
            x = rng.integers(-1000, 1000, n) * 5e-324
        elif kind == "zeros":
            x[rng.random(n) < 0.5] = 0.0
        codes = rng.integers(0, size, x.size)
        ints, power = fsums_by(x, codes, size)
        for g in range(size):
            expected = sum((Fraction(float(v)) for v in x[codes == g]), Fraction(0))
            assert Fraction(ints[g]) * Fraction(2) ** power == expected
