"""Exact sums of float ratings (concord._tables.dyadic): both engines against Fraction sums.

Source of every expected value: ``fractions.Fraction`` arithmetic by hand (each
float is converted exactly, then summed), and the one-shot result for merges.
The power of two of the sums is the one concord has always used: 2**0 when
every rating is a whole number below 2**53, else the smallest frexp exponent
minus 53 (the former ``_tables.moments._as_integers``).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import concord
from concord._tables import dyadic, engines
from concord._tables.moments import exact_sums

try:
    import numba  # noqa: F401

    ENGINES: tuple[engines.Engine, ...] = ("numpy", "numba")
except ImportError:  # the numpy engine alone, without the fast extra
    ENGINES = ("numpy",)

TINY = 5e-324  # the smallest subnormal
SPECIAL = [0.0, -0.0, TINY, -TINY, 2.2250738585072014e-308, 1e-300, 1e300, -1e300, 2.0**53]
FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False),
    st.integers(-(2**60), 2**60).map(float),  # integers stored as floats, some above 2**53
    st.sampled_from(SPECIAL),
)
PAIRS = st.lists(st.tuples(FLOATS, FLOATS), min_size=1, max_size=40)


def by_hand(x: list[float], y: list[float]) -> tuple[list[Fraction], int]:
    """The five sums as Fractions, and the power of two concord puts them on."""
    fx, fy = [Fraction(v) for v in x], [Fraction(v) for v in y]
    sums = [
        sum(fx, Fraction(0)),
        sum(fy, Fraction(0)),
        sum((v * v for v in fx), Fraction(0)),
        sum((v * v for v in fy), Fraction(0)),
        sum((u * v for u, v in zip(fx, fy, strict=True)), Fraction(0)),
    ]
    values = [*x, *y]
    if all(v == math.floor(v) and abs(v) < 2**53 for v in values):
        return sums, 0
    nonzero = [math.frexp(v)[1] - 53 for v in values if v != 0]
    return sums, min(nonzero)


def check(x: list[float], y: list[float], engine: engines.Engine) -> None:
    sums, exp = dyadic.float_sums(np.array(x), np.array(y), engine)
    expected, expected_exp = by_hand(x, y)
    assert exp == expected_exp
    scales = [Fraction(2) ** exp] * 2 + [Fraction(4) ** exp] * 3
    assert [Fraction(s) * c for s, c in zip(sums, scales, strict=True)] == expected


@settings(max_examples=300)
@given(PAIRS)
def test_float_sums_equal_fraction_sums_on_both_engines(pairs):
    x, y = ([float(v) for v in side] for side in zip(*pairs, strict=True))
    for engine in ENGINES:
        check(x, y, engine)


def test_subnormals_signed_zeros_and_extreme_exponents_side_by_side():
    x = [TINY, -0.0, 1e300, 1e-300, -1e300, 0.1, 3.0, 2.0**1023]
    y = [1e300, TINY, -TINY, 0.0, 1e-300, -2.5, 1e-310, -(2.0**-1074)]
    for engine in ENGINES:
        check(x, y, engine)
        check([0.0, -0.0], [-0.0, 0.0], engine)  # all zeros: whole numbers, 2**0
        check([3.0, -(2.0**52)], [7.0, 1.0], engine)


def test_blocks_chunks_and_threads_add_up(monkeypatch):
    # many chunks, kernel blocks and thread slices: the sums still equal Fraction's
    rng = np.random.default_rng(16)
    x = rng.normal(100, 15, 5000) * 2.0 ** rng.integers(-40, 40, 5000)
    y = rng.normal(size=5000)
    y[::7] = TINY
    monkeypatch.setattr(dyadic, "_CHUNK", 512)
    monkeypatch.setattr(dyadic, "_FLUSH", 3)
    monkeypatch.setattr(dyadic, "_KERNEL_BLOCK", 1024)
    monkeypatch.setattr(engines, "_THREAD_MIN", 100)
    for engine in ENGINES:
        check(x.tolist(), y.tolist(), engine)


def test_float_ratings_keep_the_moments_of_integer_ones():
    # whole floats and integers give the same Moments (2**0), as before
    assert exact_sums(np.array([1.0, 2.0, 5.0]), np.array([3.0, -4.0, 0.0])) == exact_sums(
        np.array([1, 2, 5]), np.array([3, -4, 0])
    )


@pytest.mark.filterwarnings("ignore::concord.UndefinedKappaWarning")  # constant data: nan, said
@settings(max_examples=60)
@given(
    st.lists(st.tuples(FLOATS, FLOATS), min_size=3, max_size=30),
    st.lists(st.integers(0, 30), max_size=3),
)
def test_merged_float_sums_equal_the_one_shot_sums_bit_for_bit(pairs, cuts):
    x, y = (np.array(v, dtype=np.float64) for v in zip(*pairs, strict=True))
    edges = [0, *sorted(min(c, x.size) for c in cuts), x.size]
    for f in (concord.concordance_correlation, concord.bland_altman):
        parts = [
            concord.accumulate(f).update(x[a:b], y[a:b]) for a, b in itertools.pairwise(edges)
        ]
        acc = parts[0]
        for p in parts[1:]:
            acc = p.merge(acc)
        try:
            expected = repr(f(x, y).to_dict())
        except OverflowError:  # a scale shift or variance beyond floats: both refuse
            with pytest.raises(OverflowError):
                acc.result().to_dict()
            continue
        assert repr(acc.result().to_dict()) == expected


def test_deferred_bootstrap_pairs_give_the_eager_intervals():
    # float ratings' distinct pairs are found when a bootstrap asks; the intervals
    # equal those of the pairs passed at once (the former behaviour)
    from concord._coefficients.continuous.bland_altman import ba_result
    from concord._coefficients.continuous.concordance import ccc_result
    from concord._tables.moments import bootstrap_pairs, distinct_pairs

    rng = np.random.default_rng(5)
    x = np.round(rng.normal(10, 2, 60), 1)
    y = x + np.round(rng.normal(0, 1, 60), 1)
    sums = exact_sums(x, y)
    lazy, eager = bootstrap_pairs(x, y), distinct_pairs(x, y)
    assert callable(lazy)
    options = {"confidence_level": 0.95, "limits": 0.95, "proportional": False}
    for build in (lambda p: ccc_result(sums, 0.95, p), lambda p: ba_result(sums, options, p)):
        late, now = build(lazy), build(eager)
        for method in ("bootstrap-bca", "bootstrap-percentile"):
            ci = late.confidence_interval(method=method, n_resamples=200, rng=3)
            assert ci == now.confidence_interval(method=method, n_resamples=200, rng=3)
        assert late.standard_error == now.standard_error


def test_ccc_interval_is_nan_when_r_squared_underflows():
    # found by the merge test above: r = −1.6e−162, so r² rounds to 0 and Lin's σ²_z
    # divided by it (ZeroDivisionError); like an overflowing u, the interval is nan
    x, y = np.array([0.0, 1.0, 3.1812124520951964e161, 3.1812124520951964e161]), [1, 0, 0, 1]
    result = concord.concordance_correlation(x, y)
    assert result.precision == pytest.approx(-1.5717277847026285e-162, rel=1e-12)
    assert all(math.isnan(v) for v in result.confidence_interval())
    merged = concord.accumulate(concord.concordance_correlation).update(x[:2], y[:2])
    merged = merged.merge(concord.accumulate(concord.concordance_correlation).update(x[2:], y[2:]))
    assert repr(merged.result().to_dict()) == repr(result.to_dict())


def row_block_by_hand(x: np.ndarray) -> tuple[list[Fraction], Fraction, Fraction]:
    """Column totals, Σx² and Σ_i T_i² of a complete block, summed as Fractions."""
    f = [[Fraction(v) for v in row] for row in x.tolist()]
    columns = [sum((row[j] for row in f), Fraction(0)) for j in range(x.shape[1])]
    square = sum((v * v for row in f for v in row), Fraction(0))
    rows = sum((sum(row, Fraction(0)) ** 2 for row in f), Fraction(0))
    return columns, square, rows


def test_digits_of_negative_values_spanning_more_than_63_bits_are_exact():
    # -0.21879166393254573 beside 2.7 (span 65 bits): y + 2**63 of the old split
    # rounded, so the digits held the wrong integer (ICC sums off in the 17th digit)
    from concord._tables.dyadic_rows import _as_ints, digits

    x = np.array([-0.21879166393254573, 2.7, -0.45772582566733916, 1e-3, -3.9])
    d = digits(x)
    got = [Fraction(int(v)) * Fraction(2) ** d.low for v in _as_ints(d)]
    assert got == [Fraction(v) for v in x.tolist()]  # Fraction: exact by definition


BLOCKS = [
    np.random.default_rng(7).normal(size=(300, 1)),
    np.random.default_rng(8).normal(3, 10, size=(300, 5)),
    np.random.default_rng(9).normal(size=(200, 33)),  # beyond the row kernel: digits
    np.array([[TINY, -0.0, 1e300], [-1e300, 1e-300, 0.1], [2.0**1023, -TINY, 3.0]]),
    np.array([[1e-310, -(2.0**-1074)], [0.0, 5e-324]]),
    np.zeros((4, 3)),
]


@pytest.mark.parametrize("x", BLOCKS, ids=lambda x: "x".join(map(str, x.shape)))
def test_icc_exact_chunk_equals_fraction_sums_on_both_engines(x):
    from concord._coefficients.continuous import icc_core

    columns, square, rows = row_block_by_hand(x)
    names = tuple(range(x.shape[1]))
    for fast in (False, True) if "numba" in ENGINES else (False,):
        if fast:
            engines._kernels()  # the row kernel runs once the kernels are loaded
        s = icc_core._exact_chunk(x, names, fast)
        r = x.shape[1]
        assert list(s.rater_sums) == columns
        assert s.square == square
        count, a, b, cc = s.by_size[r]
        assert (count, a) == (x.shape[0], rows)
        assert np.all(cc == x.shape[0])
        assert list(b) == [sum(columns, Fraction(0))] * r


def test_icc_row_kernel_gives_the_digits_integers_bit_for_bit():
    pytest.importorskip("numba")
    from concord._coefficients.continuous import icc_core

    engines._kernels()
    rng = np.random.default_rng(24)
    x = rng.normal(10, 3, size=(2000, 4)) * 2.0 ** rng.integers(-30, 30, size=(2000, 4))
    names = tuple(range(4))
    slow, fast = icc_core._exact_chunk(x, names, False), icc_core._exact_chunk(x, names, True)
    assert slow.same(fast)
    assert type(slow.square) is type(fast.square)


def test_icc_row_kernel_calls_add_up(monkeypatch):
    # many kernel calls a block (few rows each): their buckets still add to Fraction's sums
    pytest.importorskip("numba")
    from concord._coefficients.continuous import icc_core

    engines._kernels()
    monkeypatch.setattr(dyadic, "_KERNEL_BLOCK", 64)
    x = np.random.default_rng(25).normal(0, 5, size=(301, 5))
    x[7, 2] = TINY
    columns, square, rows = row_block_by_hand(x)
    s = icc_core._exact_chunk(x, tuple(range(5)), True)
    assert (list(s.rater_sums), s.square, s.by_size[5][1]) == (columns, square, rows)
