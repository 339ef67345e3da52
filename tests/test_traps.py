"""The library's quiet traps (issue 11, section 4): each gives the exact answer or a clear error.

One test per class of fault; each asserts the message, or an exact value
computed independently with fractions.Fraction.
"""

from __future__ import annotations

import dataclasses
import re
import tracemalloc
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import concord


def raises(exc, *fragments):
    pattern = ".*".join(re.escape(f) for f in fragments)
    return pytest.raises(exc, match=re.compile(pattern, re.S))


# pandas pairing --------------------------------------------------------------------------------


def test_two_series_pair_by_index_label_as_dask_does():
    # the same six items, listed in opposite orders: by label the raters agree perfectly
    a = pd.Series([1, 2, 3, 1, 2, 3], index=[0, 1, 2, 3, 4, 5])
    b = pd.Series([3, 2, 1, 3, 2, 1], index=[5, 4, 3, 2, 1, 0])
    assert concord.cohen_kappa(a, b).statistic == 1.0
    assert concord.scott_pi(a, b).statistic == 1.0
    assert concord.quadratic_weighted_kappa(a, b) == 1.0
    acc = concord.accumulate(concord.cohen_kappa).update(a, b)
    assert acc.result().statistic == 1.0
    assert concord.optimize_thresholds(a, b.astype(float)).statistic == 1.0
    # one Series and one array pair by position: 1, 2, 3 against 3, 2, 1, so p_o = p_e = 1/3
    assert concord.cohen_kappa(a, b.to_numpy()).statistic == 0.0


def test_series_with_other_index_labels_are_an_error_naming_the_fix():
    a = pd.Series([1, 2, 3], index=["x", "y", "z"])
    b = pd.Series([1, 2, 3], index=["x", "y", "w"])
    with raises(ValueError, "'rater2' parameter of cohen_kappa", "pair by index", "'z'"):
        concord.cohen_kappa(a, b)
    fix = "reset_index(drop=True)"
    with raises(ValueError, "'y_score' parameter of optimize_thresholds", fix):
        concord.optimize_thresholds(a, b.astype(float))
    repeated = pd.Series([1, 2, 3], index=["x", "x", "y"])
    with raises(ValueError, "repeated labels", ".align("):
        concord.cohen_kappa(a.set_axis(["x", "y", "x"]), repeated)


# big integers ----------------------------------------------------------------------------------


def test_integers_beyond_float64_stay_distinct():
    big = 2**53
    # int64 beside float64: 2**53 + 1 (int) is not 2**53 (float)
    ints, floats = np.array([big + 1, big + 1, 3]), np.array([float(big), big + 2.0, 3.0])
    r = concord.cohen_kappa(ints, floats)
    assert r.labels == (3, big, big + 1, big + 2)
    assert r.observed[2].tolist() == [0, 1, 0, 1]
    # nullable Int64 with pd.NA keeps its integers exact
    a = pd.Series([big, big + 1, None, big + 1], dtype="Int64")
    b = pd.Series([big + 1, big + 1, 1, big], dtype="Int64")
    r = concord.cohen_kappa(a, b, nan_policy="omit")
    # the categories are every rating's, 1 too (rated beside the missing one; issue 24)
    assert r.labels == (1, big, big + 1)
    assert r.observed.tolist() == [[0, 0, 0], [0, 0, 1], [0, 1, 1]]
    # Python ints beyond 64 bits are labels of their own
    huge = 2**70
    assert concord.cohen_kappa([huge, huge + 1], [huge, huge + 1]).labels == (huge, huge + 1)
    # declared labels mixing ints and floats are looked up exactly
    r = concord.cohen_kappa([float(big), 0.5], [float(big), 0.5], labels=[big + 1, big, 0.5])
    assert r.observed.tolist() == [[0, 0, 0], [0, 1, 0], [0, 0, 1]]
    with raises(ValueError, "'weights' parameter of cohen_kappa", "beyond 2**53", "'ratio'"):
        concord.cohen_kappa([huge, huge + 1], [huge + 1, huge], weights="ratio")


def test_quadratic_weighted_kappa_on_uint64_beyond_int64_is_cohen_exactly():
    base = 2**63
    a = np.array([base, base + 2, base + 4, base + 2], dtype=np.uint64)
    b = np.array([base, base + 4, base + 4, base + 2], dtype=np.uint64)
    qwk = concord.quadratic_weighted_kappa(a, b)
    assert qwk == concord.cohen_kappa(a, b, weights="quadratic").statistic
    # κ = 2 cov / (var a + var b + (ā − b̄)²) on the shifted ratings 0, 2, 4, 2 and 0, 4, 4, 2
    x, y = [0, 2, 4, 2], [0, 4, 4, 2]
    n, sa, sb = 4, sum(x), sum(y)
    num = 2 * (n * sum(i * j for i, j in zip(x, y, strict=True)) - sa * sb)
    den = n * sum(i * i for i in x) + n * sum(j * j for j in y) - 2 * sa * sb
    assert qwk == float(Fraction(num, den))


# overflow --------------------------------------------------------------------------------------


def fleiss_fraction(counts):
    """Fleiss' kappa of a count table in exact arithmetic (items with ≥ 2 ratings for p_a)."""
    items = [r for r in counts if sum(r) > 0]
    pairable = [r for r in items if sum(r) >= 2]
    pa = sum(Fraction(sum(c * (c - 1) for c in r), sum(r) * (sum(r) - 1)) for r in pairable)
    pa /= len(pairable)
    share = [sum(Fraction(r[j], sum(r)) for r in items) / len(items) for j in range(len(items[0]))]
    pe = sum(p * p for p in share)
    return (pa - pe) / (1 - pe)


def test_counts_past_int64_are_exact_or_an_overflow_error():
    m = 2**31  # raters per item: the Gram sums pass 2**63, where int64 used to wrap
    table = [[m - 1, 1], [m - 5, 5], [7, m - 7], [m // 3, m - m // 3]]
    got = concord.fleiss_kappa(concord.CategoryCounts(table)).statistic
    assert got == float(fleiss_fraction(table))  # correctly rounded
    wide = [[2**62, 0], [0, 2**62], [2**61, 2**61]]
    assert concord.fleiss_kappa(concord.CategoryCounts(wide)).statistic == float(
        fleiss_fraction(wide)
    )
    with raises(OverflowError, "'counts' parameter of CategoryCounts", "below 2**63"):
        concord.CategoryCounts([[2**62, 2**62], [1, 1]])
    with raises(OverflowError, "'counts' parameter of CategoryCounts", "below 2**63"):
        concord.CategoryCounts([[2**64 + 1, 0]])


def test_merged_counts_past_int64_raise_overflow_error():
    a = concord.accumulate(concord.fleiss_kappa).update([[1, 1, 2], [2, 2, 2]])
    b = concord.accumulate(concord.fleiss_kappa).update([[1, 1, 2]])
    # stand in for 2**63 − 1 items counted by many merges: no real test can count them
    patterns = dataclasses.replace(a._state.counts, freq=np.array([2**62, 2**62 - 1]))
    a._state = dataclasses.replace(a._state, counts=patterns)
    with raises(OverflowError, "'other' parameter of Accumulator.merge", "below 2**63"):
        a.merge(b)


# same seed on many workers ---------------------------------------------------------------------


def test_replicates_from_one_random_stream_do_not_merge():
    rng = np.random.default_rng(7)
    x = rng.integers(1, 5, 400)
    y = np.where(rng.random(400) < 0.7, x, rng.integers(1, 5, 400))

    def worker(seed, part):
        acc = concord.accumulate(concord.cohen_kappa, n_replicates=200, rng=seed)
        return acc.update(x[part], y[part])

    halves = slice(0, 200), slice(200, 400)
    with raises(ValueError, "Accumulator.merge", "same stream", "SeedSequence(seed).spawn"):
        worker(0, halves[0]).merge(worker(0, halves[1]))
    seeds = np.random.SeedSequence(0).spawn(2)
    merged = worker(seeds[0], halves[0]).merge(worker(seeds[1], halves[1]))
    assert merged.n == 400
    shared = np.random.default_rng(0)  # one generator: each accumulator draws after the other
    worker(shared, halves[0]).merge(worker(shared, halves[1]))


# undefined by policy only ----------------------------------------------------------------------


def test_undefined_inputs_are_errors():
    with raises(ValueError, "'labels' parameter of cohen_kappa", "finite", "inf"):
        concord.cohen_kappa([1, 2], [1, 2], labels=[1, 2, np.inf])
    with raises(ValueError, "'sample_weight' parameter of cohen_kappa", "positive", "2 zeros"):
        concord.cohen_kappa([1, 2], [1, 2], sample_weight=[0, 0])
    with raises(ValueError, "'kappas' parameter of mean_kappa", "between -1 and 1", "2.0"):
        concord.mean_kappa([0.5, 2.0])
    df = pd.DataFrame({"g": [1, 1, None, 2, 2], "a": [1, 2, 1, 1, 2], "b": [1, 2, 2, 1, 2]})
    with raises(ValueError, "'by' parameter of grouped_kappa", "1 rows", "position 2"):
        concord.grouped_kappa(df, by="g", rater1="a", rater2="b")


def test_error_messages_stay_short():
    n = 100_000
    with raises(ValueError, "and 99,995 more") as caught:
        concord.cohen_kappa(list(range(n)), list(range(n)), labels=[-1])
    assert len(str(caught.value)) < 400
    long = "x" * 100_000
    with pytest.raises(ValueError) as caught:
        concord.cohen_kappa([long, "y"], [long, "y"], weights="linear")
    assert len(str(caught.value)) < 600


# hostile sizes ---------------------------------------------------------------------------------


def test_memory_is_bounded_by_the_input_not_its_longest_string():
    labels = [c * 100_000 for c in "abc"]  # three labels of 100,000 characters
    rng = np.random.default_rng(0)
    r1 = [labels[i] for i in rng.integers(0, 3, 10_000)]
    r2 = [labels[i] for i in rng.integers(0, 3, 10_000)]
    tracemalloc.start()
    try:
        concord.cohen_kappa(r1, r2)
        concord.fleiss_kappa(list(zip(r1, r2, r1, strict=True)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the input holds 1.2 MB of characters and 160 kB of references; <U100000 would be 8 GB
    assert peak < 16 * 2**20
