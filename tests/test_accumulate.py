"""Accumulators: batches, merged in any order, give exactly the one-shot result.

Every coefficient of the shared registry (tests/registry.py), in every variant of
its options, is run here; none is listed by hand.

For random data split at random into batches, sequential updates and merges
of per-batch accumulators (in any grouping and order) equal the one-shot
function on the whole data: the statistic, standard error and p-value
exactly (==), the count table, the labels, the warnings and ``explain()``.
Merging is associative and commutative, an empty accumulator is the
identity, and accumulators pickle, also across a process boundary.
"""

from __future__ import annotations

import multiprocessing
import pickle
import re
import warnings
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import concord
from concord._coefficients.registry import REGISTRY
from tests.registry import INTS, RESULTS, VARIANTS, cut, data, empty, ids, sample, se_params


def raises(exc, *fragments):
    return pytest.raises(exc, match=re.compile(".*".join(re.escape(f) for f in fragments), re.S))


def outcome(compute):
    """Return what ``compute()`` gives, with its warnings, or the error it raises."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = compute()
        except (ValueError, TypeError) as error:
            return ("error", type(error), str(error))
    return ("ok", value, [str(w.message) for w in caught])


def same_number(a, b):
    return a == b or (np.isnan(a) and np.isnan(b))


def assert_same(got, want):
    """The accumulated outcome equals the one-shot outcome, exactly."""
    assert got[0] == want[0], (got, want)
    if got[0] == "error":
        assert got[1:] == want[1:]
        return
    (_, a, a_warned), (_, b, b_warned) = got, want
    assert a_warned == b_warned
    if isinstance(b, float):  # quadratic_weighted_kappa
        assert same_number(a, b)
        return
    assert type(a) is type(b)
    if isinstance(b, concord.CccResult | concord.BlandAltmanResult):  # sums: no table
        assert repr(a.to_dict()) == repr(b.to_dict()) and a.explain() == b.explain()
        return
    assert a.labels == b.labels
    for name in ("statistic", "standard_error", "pvalue"):
        assert same_number(getattr(a, name), getattr(b, name)), name
    table = "observed" if hasattr(b, "observed") else "category_totals"
    assert getattr(a, table).dtype == getattr(b, table).dtype
    assert np.array_equal(getattr(a, table), getattr(b, table))
    assert a.explain() == b.explain()


def merged(accumulators, rnd):
    """Merge accumulators in a random grouping and order."""
    parts = list(accumulators)
    while len(parts) > 1:
        i = rnd.randrange(len(parts) - 1)
        a, b = parts[i], parts.pop(i + 1)
        parts[i] = a.merge(b) if rnd.random() < 0.5 else b.merge(a)
    return parts[0]


@pytest.mark.parametrize("v", VARIANTS, ids=ids(VARIANTS))
@settings(max_examples=25)
@given(draw=st.data(), points=st.lists(st.integers(0, 30), max_size=4), rnd=st.randoms())
def test_batches_equal_one_shot(v, draw, points, rnd):
    x = draw.draw(data(v))
    want = outcome(lambda: v(x))
    parts = v.batches(x, cut(len(x[0]), points))

    def sequential():
        acc = v.accumulate()
        for batch in parts:
            acc.update(*batch)
        return acc.result()

    def tree():
        return merged([v.accumulate().update(*batch) for batch in parts], rnd).result()

    assert_same(outcome(sequential), want)
    assert_same(outcome(tree), want)


WEIGHTED = [v for v in VARIANTS if v.coefficient.takes_sample_weight and v.pool == INTS]


@pytest.mark.parametrize("v", WEIGHTED, ids=ids(WEIGHTED))
@settings(max_examples=30)
@given(
    draw=st.data(),
    points=st.lists(st.integers(0, 30), max_size=4),
    rnd=st.randoms(),
)
def test_sample_weights_batched_equal_one_shot(v, draw, points, rnd):
    x = draw.draw(data(v))
    n = len(x[0])
    w = np.array(
        draw.draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.25, 3.1]), min_size=n, max_size=n))
    )
    assume(w.sum() > 0)
    want = outcome(lambda: v(x, sample_weight=w))
    parts = cut(n, points)
    accs = [
        v.accumulate().update(*batch, sample_weight=w[s])
        for batch, s in zip(v.batches(x, parts), parts, strict=True)
    ]
    got = outcome(lambda: merged(accs, rnd).result())
    assert_same(got, want)
    if want[0] == "ok" and np.isfinite(want[1].statistic):
        assert np.array_equal(
            got[1].bootstrap(50, rng=1), want[1].bootstrap(50, rng=1), equal_nan=True
        )


@pytest.mark.parametrize("v", VARIANTS, ids=ids(VARIANTS))
@settings(max_examples=8)
@given(draw=st.data(), points=st.lists(st.integers(0, 30), min_size=2, max_size=2))
def test_merge_is_associative_and_commutative_with_an_identity(v, draw, points):
    x = draw.draw(data(v))
    p, q, r = (v.accumulate().update(*batch) for batch in v.batches(x, cut(len(x[0]), points)))
    empty = v.accumulate()
    assert p.merge(q).merge(r) == p.merge(q.merge(r))
    assert p.merge(q) == q.merge(p)
    assert p.merge(empty) == p == empty.merge(p)
    assert empty.merge(empty) == empty
    whole = p.merge(q).merge(r)
    assert pickle.loads(pickle.dumps(whole)) == whole
    assert whole.n == sum(acc.n for acc in (p, q, r))


def test_qwk_warning_names_qwk():
    # with declared labels quadratic_weighted_kappa counts a k×k table, as cohen_kappa does;
    # its warning still names the function the user called, as its accumulator's does
    with pytest.warns(concord.UndefinedKappaWarning) as one_shot:
        concord.quadratic_weighted_kappa([1, 1], [1, 1], labels=[1, 2, 3])
    assert str(one_shot[0].message).startswith("quadratic_weighted_kappa is undefined")


def test_growing_labels_keep_the_one_shot_layout():
    a = concord.accumulate(concord.cohen_kappa).update(["b", "d"], ["b", "b"])
    b = concord.accumulate(concord.cohen_kappa).update(["a"], ["c"])
    both = a.merge(b)
    assert both.labels == ("a", "b", "c", "d")
    want = concord.cohen_kappa(["b", "d", "a"], ["b", "b", "c"])
    assert np.array_equal(both.result().observed, want.observed)
    numbers = concord.accumulate(concord.fleiss_kappa).update([[3, 3], [1, 3]]).update([[2, 10]])
    assert numbers.labels == (1, 2, 3, 10)


def test_declared_labels_fix_the_table():
    acc = concord.accumulate(concord.cohen_kappa, labels=["lo", "mid", "hi"], weights="linear")
    acc.update(["lo", "mid"], ["lo", "hi"]).update([], [])
    r = acc.result()
    assert r.labels == ("lo", "mid", "hi")
    assert (
        r.statistic
        == concord.cohen_kappa(
            ["lo", "mid"], ["lo", "hi"], labels=["lo", "mid", "hi"], weights="linear"
        ).statistic
    )
    with raises(ValueError, "'labels' parameter of cohen_kappa", "'top'"):
        acc.update(["top"], ["lo"])


def test_ordered_categoricals_fix_their_order():
    order = ["low", "mid", "high"]
    cat = pd.CategoricalDtype(order, ordered=True)
    a = pd.Series(["high", "low", "mid", "mid"], dtype=cat)
    b = pd.Series(["high", "mid", "mid", "low"], dtype=cat)
    acc = concord.accumulate(concord.cohen_kappa, weights="quadratic")
    acc.update(a[:2], b[:2]).update(a[2:], b[2:])
    want = concord.cohen_kappa(a, b, weights="quadratic")
    assert acc.labels == tuple(order)
    assert_same(outcome(acc.result), outcome(lambda: want))
    plain = concord.accumulate(concord.cohen_kappa, weights="quadratic").update(["mid"], ["low"])
    assert plain.merge(acc).labels == tuple(order)  # found labels within the declared ones
    other = pd.CategoricalDtype(order[::-1], ordered=True)
    with raises(
        ValueError,
        "'other' parameter of Accumulator.merge",
        "in this order",
        "('high', 'mid', 'low')",
        "labels=[...]",
    ):
        acc.merge(
            concord.accumulate(concord.cohen_kappa, weights="quadratic").update(
                pd.Series(["low"], dtype=other), pd.Series(["low"], dtype=other)
            )
        )
    with raises(
        ValueError, "'rater1' parameter of Accumulator.update", "declared categories", "'huge'"
    ):
        acc.update(["huge"], ["low"])


def test_dataframes_and_count_form():
    frame = pd.DataFrame({"ann": [1, 2, 2, 3], "bob": [1, 2, 3, 3], "cy": [1, None, 3, 3]})
    acc = concord.accumulate(concord.conger_kappa).update(frame[:1]).update(frame[1:])
    assert_same(outcome(acc.result), outcome(lambda: concord.conger_kappa(frame)))
    with raises(
        ValueError,
        "'ratings' parameter of Accumulator.update",
        "raters ('ann', 'bob', 'cy')",
        "('ann', 'bob')",
    ):
        acc.update(frame[["ann", "bob"]])
    counts = [[3, 0], [1, 2], [0, 3], [2, 1]]
    table = concord.CategoryCounts(counts, labels=["no", "yes"])
    acc = concord.accumulate(concord.fleiss_kappa)
    acc.update(concord.CategoryCounts(counts[:1], labels=["no", "yes"]))
    acc.update(concord.CategoryCounts(counts[1:], labels=["no", "yes"]))
    assert_same(outcome(acc.result), outcome(lambda: concord.fleiss_kappa(table)))
    with raises(ValueError, "categories ('no', 'yes')", "('yes', 'no')"):
        acc.update(concord.CategoryCounts([[1, 1]], labels=["yes", "no"]))
    with raises(ValueError, "in count form", "raters (0, 1)"):
        acc.update([["no", "yes"]])


def test_empty_and_unrated_batches_add_nothing():
    acc = concord.accumulate(concord.fleiss_kappa)
    acc.update(np.empty((0, 3))).update([[None, None, None]]).update(np.full((2, 3), np.nan))
    assert acc.n == 0 and acc == concord.accumulate(concord.fleiss_kappa)
    pairs_ = concord.accumulate(concord.cohen_kappa, nan_policy="omit").update([None], [1])
    assert pairs_.n == 0


@pytest.mark.parametrize("c", REGISTRY, ids=[c.name for c in REGISTRY])
def test_an_empty_accumulator_raises_the_one_shot_error(c):
    with pytest.raises(ValueError) as one_shot:
        c.function(*empty(c))
    with pytest.raises(ValueError) as accumulated:
        concord.accumulate(c.function).result()
    assert str(accumulated.value) == str(one_shot.value)


def test_poisson_replicates_merge_by_addition():
    rng = np.random.default_rng(0)
    a = rng.integers(1, 5, 400)
    b = np.where(rng.random(400) < 0.7, a, rng.integers(1, 5, 400))
    p = concord.accumulate(concord.cohen_kappa, weights="quadratic", n_replicates=4000, rng=1)
    q = concord.accumulate(concord.cohen_kappa, weights="quadratic", n_replicates=4000, rng=2)
    p.update(a[:150], b[:150])
    q.update(a[150:], b[150:])
    both = p.merge(q)
    total = both._state.replicates.tables.sum(axis=0)
    parts = p._state.replicates.tables.sum() + q._state.replicates.tables.sum()
    assert total.sum() == parts  # exact integer addition
    r = both.result()
    one = concord.cohen_kappa(a, b, weights="quadratic")
    assert r.statistic == one.statistic and r.standard_error == one.standard_error
    values = r.bootstrap(4000)
    assert np.std(values) == pytest.approx(one.standard_error, rel=0.1)
    assert np.array_equal(values, r.bootstrap(4000, rng=99))  # read back, not redrawn
    low, high = r.confidence_interval(method="bootstrap-bca", n_resamples=4000)
    assert low < r.statistic < high
    with raises(ValueError, "'n_resamples' parameter of bootstrap", "at most 4000", "9999"):
        r.bootstrap()
    assert pickle.loads(pickle.dumps(both)) == both


# A stream of continuous ratings keeps exact sums, not the pairs a Poisson weight would
# multiply: accumulate() refuses n_replicates for them (test_continuous.py).
@pytest.mark.parametrize("v", se_params([v for v in RESULTS if v.coefficient.table != "sums"]))
def test_poisson_replicates_are_a_bootstrap(v):
    # Poisson(1) weights per item, drawn as the batches arrive (Hanley & MacGibbon 2006):
    # their spread is the analytic standard error, as the one-shot bootstrap's is
    x = sample(v, 300, seed=3, raters=3)
    acc = concord.accumulate(v.coefficient.function, **v.options, n_replicates=2000, rng=5)
    for batch in v.batches(x, [slice(s, s + 70) for s in range(0, 300, 70)]):
        acc.update(*batch)
    r = acc.result()
    assert r.statistic == v(x).statistic
    assert np.std(r.bootstrap(2000)) == pytest.approx(r.standard_error, rel=0.05)


def _batch_accumulator(batch):
    return concord.accumulate(concord.conger_kappa, weights="linear").update(batch)


def test_accumulators_cross_a_process_boundary():
    rng = np.random.default_rng(4)
    x = rng.integers(1, 6, size=(500, 3)).astype(float)
    x[rng.random(x.shape) < 0.1] = np.nan
    batches = [x[s : s + 100] for s in range(0, 500, 100)]
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        parts = list(pool.map(_batch_accumulator, batches))
    total = parts[0]
    for part in parts[1:]:
        total = total.merge(part)
    want = concord.conger_kappa(x, weights="linear")
    assert_same(outcome(total.result), outcome(lambda: want))


def test_krippendorff_continuous_data_is_not_accumulated():
    values = np.arange(600, dtype=float).reshape(300, 2) / 7
    acc = concord.accumulate(concord.krippendorff_alpha, level="interval")
    with raises(
        NotImplementedError, "at most 256 distinct values", "krippendorff_alpha on the whole data"
    ):
        acc.update(values)
    acc.update(values[:100])  # 200 values
    with raises(NotImplementedError, "these data have 400"):
        acc.merge(
            concord.accumulate(concord.krippendorff_alpha, level="interval").update(
                values[100:200]
            )
        )


def test_option_errors():
    with raises(TypeError, "'function' parameter of accumulate", "concord.cohen_kappa"):
        concord.accumulate(concord.mean_kappa)
    with raises(
        TypeError,
        "'options' parameter of accumulate",
        "options of cohen_kappa",
        "'wieghts'",
        "Did you mean 'weights'?",
    ):
        concord.accumulate(concord.cohen_kappa, wieghts="linear")
    with raises(TypeError, "'sample_weight'", "Pass sample_weight to update()"):
        concord.accumulate(concord.cohen_kappa, sample_weight=[1, 2])
    with raises(ValueError, "'weights' parameter of fleiss_kappa", "Did you mean 'quadratic'?"):
        concord.accumulate(concord.fleiss_kappa, weights="quadratc")
    with raises(ValueError, "'level' parameter of krippendorff_alpha"):
        concord.accumulate(concord.krippendorff_alpha, level="intervall")
    with raises(ValueError, "'weights' parameter of cohen_kappa", "3×3"):
        concord.accumulate(concord.cohen_kappa, labels=[1, 2, 3], weights=np.ones((2, 2)))
    with raises(ValueError, "'nan_policy' parameter of scott_pi"):
        concord.accumulate(concord.scott_pi, nan_policy="drop")
    with raises(ValueError, "'max_rating' parameter of quadratic_weighted_kappa"):
        concord.accumulate(concord.quadratic_weighted_kappa, min_rating=3, max_rating=1)
    with raises(ValueError, "'n_replicates' parameter of accumulate"):
        concord.accumulate(concord.cohen_kappa, n_replicates=1)
    with raises(ValueError, "'rng' parameter of accumulate", "None without n_replicates"):
        concord.accumulate(concord.cohen_kappa, rng=0)


def test_update_and_merge_errors():
    acc = concord.accumulate(concord.cohen_kappa).update([1], [2])
    with raises(TypeError, "'data' parameter of Accumulator.update", "two arrays", "1 arguments"):
        acc.update([1, 2])
    with raises(
        TypeError,
        "'sample_weight' parameter of Accumulator.update",
        "scott_pi takes no sample weights",
    ):
        concord.accumulate(concord.scott_pi).update([1], [1], sample_weight=[1.0])
    with raises(ValueError, "unweighted as the accumulator's batches", "with sample weights"):
        acc.update([1], [1], sample_weight=[2.0])
    with raises(TypeError, "'other' parameter of Accumulator.merge", "an Accumulator"):
        acc.merge([1, 2])
    with raises(ValueError, "an accumulator of cohen_kappa", "scott_pi", "same options"):
        acc.merge(concord.accumulate(concord.scott_pi))
    with raises(ValueError, "an accumulator of cohen_kappa", "cohen_kappa, weights='linear'"):
        acc.merge(concord.accumulate(concord.cohen_kappa, weights="linear"))
    with raises(ValueError, "labels=(1, 2)"):
        concord.accumulate(concord.cohen_kappa, labels=[1, 2]).merge(
            concord.accumulate(concord.cohen_kappa, labels=[2, 1])
        )
    with raises(ValueError, "n_replicates=10"):
        concord.accumulate(concord.cohen_kappa, n_replicates=10).merge(acc)
    with raises(ValueError, "'rater2' parameter of cohen_kappa", "as long as 'rater1'"):
        acc.update([1, 2], [1])
    words = concord.accumulate(concord.cohen_kappa, weights="quadratic").update(["a"], ["b"])
    with raises(ValueError, "'labels' parameter of cohen_kappa", "order non-numeric ratings"):
        words.result()  # as the one-shot function, once the labels are known


def test_repr_and_attributes():
    acc = concord.accumulate(concord.gwet_ac, weights="ordinal", labels=[1, 2, 3])
    assert repr(acc) == "Accumulator(gwet_ac, weights='ordinal', labels=(1, 2, 3), n=0, k=3)"
    assert acc.labels == (1, 2, 3)  # declared: known before any batch
    acc.update([[1, 2], [3, 3]])
    assert (acc.n, acc.labels, acc.function) == (2, (1, 2, 3), concord.gwet_ac)
    assert acc.options["weights"] == "ordinal" and acc.options["population_size"] is None


def test_only_missing_ratings_fail_as_the_one_shot_function_does():
    # the accumulator once called such input "an empty array", which it was not
    nan = float("nan")
    acc = concord.accumulate(concord.cohen_kappa, nan_policy="omit")
    acc.update([1, nan], [nan, 2]).update([], [])
    with pytest.raises(ValueError, match="nothing to rate: every item has a missing rating"):
        acc.result()
    with pytest.raises(ValueError, match="nothing to rate"):
        concord.accumulate(concord.cohen_kappa, nan_policy="omit").merge(acc).result()
    multi = concord.accumulate(concord.fleiss_kappa).update([[nan, nan]])
    with pytest.raises(ValueError, match="only missing ratings"):
        multi.result()
    with pytest.raises(ValueError, match="an empty"):  # no rows at all is still empty input
        concord.accumulate(concord.cohen_kappa, nan_policy="omit").update([], []).result()
