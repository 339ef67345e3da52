"""accumulate(compare, ...): streamed comparisons equal the one-shot concord.compare.

Expected values: concord.compare on the concatenated data (itself checked
against R pairedCAC in tests/test_compare.py); the paired SE to 1e-12 (the
stream sums the items' terms by pattern), everything else bit for bit.
"""

from __future__ import annotations

import itertools
import pickle

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import concord

TWO = [concord.cohen_kappa, concord.scott_pi]
MANY = [concord.fleiss_kappa, concord.gwet_ac, concord.conger_kappa, concord.percent_agreement]


def _close(a: concord.ComparisonResult, b: concord.ComparisonResult) -> None:
    assert a.first.statistic == b.first.statistic
    assert a.second.statistic == b.second.statistic
    assert a.first.standard_error == b.first.standard_error
    assert a.difference == b.difference
    assert a.df == b.df
    assert a.standard_error == pytest.approx(b.standard_error, rel=1e-12, abs=1e-15)
    # a difference with SE 0 has no p-value (nan) in both
    assert a.pvalue == pytest.approx(b.pvalue, rel=1e-9, abs=1e-12, nan_ok=True)


def _cuts(draw: st.DrawFn, n: int) -> list[int]:
    return sorted(draw(st.lists(st.integers(0, n), max_size=4)))


@st.composite
def pair_data(draw: st.DrawFn) -> tuple[np.ndarray, list[int]]:
    n = draw(st.integers(4, 30))
    x = np.array(
        draw(st.lists(st.lists(st.integers(1, 4), min_size=3, max_size=3), min_size=n, max_size=n))
    )
    return x, _cuts(draw, n)


@st.composite
def item_data(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, list[int]]:
    n = draw(st.integers(4, 25))
    cell = st.one_of(st.integers(1, 3).map(float), st.just(np.nan))
    rows = st.lists(st.lists(cell, min_size=3, max_size=3), min_size=n, max_size=n)
    return np.array(draw(rows)), np.array(draw(rows)), _cuts(draw, n)


@pytest.mark.parametrize("function", TWO)
@settings(max_examples=25, deadline=None)
@given(data=pair_data(), weights=st.sampled_from([None, "quadratic"]))
@example(data=(np.array([[1, 1, 2], [1, 1, 2], [2, 1, 1], [2, 1, 1]]), []), weights=None)
def test_two_raters_batches_and_merges(function, data, weights):
    x, cuts = data
    truth, a, b = x[:, 0], x[:, 1], x[:, 2]
    try:
        whole = concord.compare(function, (truth, a), (truth, b), weights=weights)
    except (ValueError, ZeroDivisionError, Warning):
        return  # degenerate data: nothing to stream either
    bounds = [0, *cuts, len(truth)]
    parts = []
    for lo, hi in itertools.pairwise(bounds):
        acc = concord.accumulate(concord.compare, function=function, weights=weights)
        parts.append(acc.update((truth[lo:hi], a[lo:hi]), (truth[lo:hi], b[lo:hi])))
    merged = parts[0]
    for p in reversed(parts[1:]):
        merged = p.merge(merged)
    _close(merged.result(), whole)


@pytest.mark.parametrize("function", MANY)
@settings(max_examples=20, deadline=None)
@given(data=item_data())
def test_many_raters_batches(function, data):
    one, two, cuts = data
    try:
        whole = concord.compare(function, one, two)
    except (ValueError, ZeroDivisionError, Warning):
        return
    acc = concord.accumulate(concord.compare, function=function)
    bounds = [0, *cuts, one.shape[0]]
    for lo, hi in itertools.pairwise(bounds):
        acc.update(one[lo:hi], two[lo:hi])
    _close(acc.result(), whole)


def test_pairedcac_example_streams_and_pickles():
    """pairedCAC's README example (tests/test_compare.py): SE 0.1574322 in two batches."""
    r1 = np.array(
        [
            [1, 1, 1, 1],
            [1, 1, 2, 3],
            [1, 1, 2, 3],
            [2, 2, 2, 3],
            [1, 2, 1, 1],
            [2, 1, 1, 1],
            [2, 2, 2, 2],
            [2, 3, 2, 2],
            [3, 3, 3, 3],
            [1, 1, 1, 1],
            [1, 1, 2, 3],
            [3, 3, 3, 3],
            [3, 2, 3, 3],
            [1, 2, 1, 1],
            [2, 1, 1, 1],
        ]
    )
    r2 = np.array(
        [
            [1, 1, 1, 1],
            [3, 3, 3, 2],
            [3, 3, 3, 3],
            [1, 1, 2, 1],
            [1, 1, 1, 1],
            [1, 1, 1, 1],
            [2, 2, 2, 2],
            [2, 2, 1, 1],
            [3, 3, 3, 3],
            [1, 1, 1, 3],
            [2, 2, 2, 2],
            [3, 3, 3, 3],
            [3, 3, 3, 3],
            [1, 2, 1, 1],
            [3, 3, 3, 3],
        ]
    )
    a = concord.accumulate(concord.compare, function=concord.fleiss_kappa).update(r1[:7], r2[:7])
    b = concord.accumulate(concord.compare, function=concord.fleiss_kappa).update(r1[7:], r2[7:])
    r = pickle.loads(pickle.dumps(a)).merge(b).result()
    assert round(r.standard_error, 7) == 0.1574322
    assert round(r.difference, 6) == 0.339184


def test_unpaired_uses_each_sides_se():
    truth, a, b = [1, 2, 2, 1, 3, 3, 2], [1, 2, 1, 1, 3, 2, 2], [1, 2, 2, 1, 3, 1, 2]
    acc = concord.accumulate(concord.compare, function=concord.cohen_kappa, paired=False)
    r = acc.update((truth, a), (truth[:5], b[:5])).result()
    whole = concord.compare(concord.cohen_kappa, (truth, a), (truth[:5], b[:5]), paired=False)
    assert r.standard_error == whole.standard_error and r.df == whole.df


def test_errors():
    with pytest.raises(TypeError, match="function"):
        concord.accumulate(concord.compare)
    with pytest.raises(NotImplementedError, match="light_kappa"):
        concord.accumulate(concord.compare, function=concord.light_kappa)
    acc = concord.accumulate(concord.compare, function=concord.cohen_kappa)
    with pytest.raises(ValueError, match="the same 3 items as first"):
        acc.update(([1, 2, 1], [1, 2, 2]), ([1, 2], [1, 1]))
    assert acc.n == 0  # a refused batch adds nothing
    other = concord.accumulate(concord.compare, function=concord.scott_pi)
    with pytest.raises(ValueError, match="Only comparisons of one function"):
        acc.merge(other)


def test_dask_dataframe_and_array():
    """concord.dask.compute(compare, first, second): the one-shot compare of the whole frame."""
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    import concord.dask

    rng = np.random.default_rng(3)
    df = pd.DataFrame(rng.integers(1, 4, size=(60, 3)), columns=["truth", "a", "b"])
    ddf = dd.from_pandas(df, npartitions=4)
    r = concord.dask.compute(
        concord.compare, ddf[["truth", "a"]], ddf[["truth", "b"]], function=concord.cohen_kappa
    )
    whole = concord.compare(concord.cohen_kappa, (df.truth, df.a), (df.truth, df.b))
    _close(r, whole)
    x = rng.integers(1, 4, size=(40, 6))
    da = pytest.importorskip("dask.array")
    first, second = da.from_array(x[:, :3], chunks=(9, 3)), da.from_array(x[:, 3:], chunks=(7, 3))
    r = concord.dask.compute(concord.compare, first, second, function=concord.fleiss_kappa)
    _close(r, concord.compare(concord.fleiss_kappa, x[:, :3], x[:, 3:]))


BOOTSTRAPS = ["bootstrap-percentile", "bootstrap-bca"]


def _batched(function, first, second, bounds, **options):
    """One accumulator per batch, merged right to left (merge order must not matter)."""
    parts = []
    for lo, hi in itertools.pairwise(bounds):
        acc = concord.accumulate(concord.compare, function=function, **options)
        if isinstance(first, tuple):
            acc.update(tuple(x[lo:hi] for x in first), tuple(x[lo:hi] for x in second))
        else:
            acc.update(first[lo:hi], second[lo:hi])
        parts.append(acc)
    merged = parts[-1]
    for p in reversed(parts[:-1]):
        merged = merged.merge(p)
    return merged


def _same_intervals(streamed, whole, seed):
    """The same seed redraws the same joint table: the same interval, bit for bit."""
    for method in BOOTSTRAPS:
        got = streamed.confidence_interval(method=method, n_resamples=499, rng=seed)
        want = whole.confidence_interval(method=method, n_resamples=499, rng=seed)
        assert (got.low, got.high) == (want.low, want.high), method
        assert got.low < got.high  # a real interval, not a degenerate one equal by accident


@pytest.mark.parametrize("function", TWO)
@pytest.mark.parametrize("weights", [None, "quadratic"])
def test_two_raters_bootstrap_equals_one_shot(function, weights):
    """One batch, or batches split and merged, give compare()'s interval for the seed.

    The stream's joint table maps each key to its unit in the side's sampler
    and sorts the joint patterns as compare() does, so the multinomial
    draws are the same whatever the batches.
    """
    x = np.random.default_rng(5).integers(1, 5, size=(80, 3))
    first, second = (x[:, 0], x[:, 1]), (x[:, 0], x[:, 2])
    whole = concord.compare(function, first, second, weights=weights)
    for bounds in ([0, 80], [0, 7, 8, 50, 80], [0, 0, 40, 80]):
        r = _batched(function, first, second, bounds, weights=weights).result()
        _same_intervals(r, whole, seed=11)


@pytest.mark.parametrize("function", MANY)
def test_many_raters_bootstrap_equals_one_shot(function):
    """Items with missing ratings, and single-rated ones, included."""
    y = np.random.default_rng(9).integers(1, 4, size=(50, 6)).astype(float)
    y[[2, 5], :2] = np.nan
    y[[5, 7, 11], 3:5] = np.nan
    y[np.random.default_rng(1).random((50, 6)) < 0.1] = np.nan
    y[:, [0, 3]] = np.where(np.isnan(y[:, [0, 3]]), 1.0, y[:, [0, 3]])  # every item rated
    one, two = y[:, :3], y[:, 3:]
    whole = concord.compare(function, one, two)
    for bounds in ([0, 50], [0, 1, 20, 21, 50]):
        _same_intervals(_batched(function, one, two, bounds).result(), whole, seed=4)


def test_stream_keeps_the_seed_and_resamples():
    """accumulate(compare, n_resamples=, rng=) are compare()'s: the result's defaults."""
    x = np.random.default_rng(2).integers(1, 4, size=(40, 3))
    first, second = (x[:, 0], x[:, 1]), (x[:, 0], x[:, 2])
    for paired in (True, False):
        whole = concord.compare(
            concord.cohen_kappa, first, second, paired=paired, n_resamples=299, rng=7
        )
        acc = concord.accumulate(
            concord.compare,
            function=concord.cohen_kappa,
            paired=paired,
            n_resamples=299,
            rng=7,
            method="bootstrap-bca",
        )
        r = acc.update(first, second).result()
        assert r.confidence_interval() == whole.confidence_interval(method="bootstrap-bca")
        assert pickle.loads(pickle.dumps(r)).confidence_interval() == r.confidence_interval()


def test_unpaired_stream_bootstrap_equals_one_shot():
    """Unpaired: each side's merged table redrawn on its own, as compare(paired=False)."""
    x = np.random.default_rng(3).integers(1, 4, size=(60, 3))
    first, second = (x[:, 0], x[:, 1]), (x[:40, 0], x[:40, 2])
    whole = concord.compare(concord.scott_pi, first, second, paired=False)
    acc = concord.accumulate(concord.compare, function=concord.scott_pi, paired=False)
    acc.update((first[0][:25], first[1][:25]), (second[0][:10], second[1][:10]))
    acc.update((first[0][25:], first[1][25:]), (second[0][10:], second[1][10:]))
    _same_intervals(acc.result(), whole, seed=8)


def test_stream_bootstrap_options_refused():
    with pytest.raises(ValueError, match="n_replicates"):
        concord.accumulate(concord.compare, function=concord.cohen_kappa, n_replicates=10)
    a = concord.accumulate(concord.compare, function=concord.cohen_kappa, n_resamples=99)
    b = concord.accumulate(concord.compare, function=concord.cohen_kappa)
    with pytest.raises(ValueError, match="Only comparisons of one function"):
        a.merge(b)
