"""concord.dask: coefficients of dask collections equal the one-shot result, exactly.

The collections are counted on a local cluster of two worker processes; each
result is compared (==) with the one-shot function on the same data in
memory: statistic, standard error, p-value, count table, labels, explain().
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import concord

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("dask.distributed")

import concord.dask as cd  # noqa: E402  (after the guard)

RNG = np.random.default_rng(20240611)


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def assert_same(got, want):
    if isinstance(want, float):  # quadratic_weighted_kappa
        assert got == want
        return
    assert type(got) is type(want)
    assert got.labels == want.labels
    for name in ("statistic", "standard_error", "pvalue"):
        assert getattr(got, name) == getattr(want, name), name
    table = "observed" if hasattr(want, "observed") else "category_totals"
    assert getattr(got, table).dtype == getattr(want, table).dtype
    assert np.array_equal(getattr(got, table), getattr(want, table))
    assert got.explain() == want.explain()


def raises(exc, *fragments):
    return pytest.raises(exc, match=re.compile(".*".join(re.escape(f) for f in fragments), re.S))


def two_raters(n, k=5):
    a = RNG.integers(1, k + 1, n)
    b = np.where(RNG.random(n) < 0.7, a, RNG.integers(1, k + 1, n))
    return pd.DataFrame({"a": a, "b": b, "other": RNG.random(n)})


def many_raters(n, raters=4, k=4, missing=0.15):
    truth = RNG.integers(1, k + 1, n)
    x = np.column_stack(
        [np.where(RNG.random(n) < 0.6, truth, RNG.integers(1, k + 1, n)) for _ in range(raters)]
    ).astype(float)
    x[RNG.random(x.shape) < missing] = np.nan
    return pd.DataFrame(x, columns=[f"r{j}" for j in range(raters)])


def test_cohen_quadratic_from_a_dataframe(client):
    df = two_raters(5000)
    ddf = dd.from_pandas(df, npartitions=7)
    got = cd.compute(concord.cohen_kappa, ddf[["a", "b"]], weights="quadratic")
    assert_same(got, concord.cohen_kappa(df.a, df.b, weights="quadratic"))
    # two Series of one DataFrame, as cohen_kappa(rater1, rater2) takes them
    got = cd.compute(concord.scott_pi, ddf.a, ddf.b, weights="linear")
    assert_same(got, concord.scott_pi(df.a, df.b, weights="linear"))


def test_cohen_from_two_arrays_with_unequal_chunks(client):
    df = two_raters(3000)
    a = da.from_array(df.a.to_numpy(), chunks=700)
    b = da.from_array(df.b.to_numpy(), chunks=1000)  # rechunked to a's blocks
    got = cd.compute(concord.cohen_kappa, a, b)
    # dask arrays name no raters: rater1 and rater2, as plain arrays in memory (issue 25)
    unnamed = concord.cohen_kappa(df.a.to_numpy(), df.b.to_numpy())
    assert_same(got, unnamed)
    both = da.from_array(df[["a", "b"]].to_numpy(), chunks=(500, 1))
    assert_same(cd.compute(concord.cohen_kappa, both), unnamed)


def test_quadratic_weighted_kappa(client):
    df = two_raters(2000, k=6)
    ddf = dd.from_pandas(df, npartitions=5)
    got = cd.compute(concord.quadratic_weighted_kappa, ddf[["a", "b"]], min_rating=0)
    assert got == concord.quadratic_weighted_kappa(df.a, df.b, min_rating=0)
    assert isinstance(got, float)


def test_sample_weights(client):
    df = two_raters(1000)
    df["w"] = RNG.integers(1, 4, len(df)).astype(float)
    ddf = dd.from_pandas(df, npartitions=4)
    got = cd.compute(concord.cohen_kappa, ddf[["a", "b"]], sample_weight=ddf.w)
    assert_same(got, concord.cohen_kappa(df.a, df.b, sample_weight=df.w))
    pairs = da.from_array(df[["a", "b"]].to_numpy(), chunks=(300, 2))
    weights = da.from_array(df.w.to_numpy(), chunks=450)
    got = cd.compute(concord.cohen_kappa, pairs, sample_weight=weights)
    # a dask array names no raters: rater1 and rater2, as plain arrays in memory (issue 25)
    a, b = df.a.to_numpy(), df.b.to_numpy()
    assert_same(got, concord.cohen_kappa(a, b, sample_weight=df.w.to_numpy()))


def test_fleiss_wide_with_missing_values(client):
    df = many_raters(4000)
    ddf = dd.from_pandas(df, npartitions=6)
    assert_same(cd.compute(concord.fleiss_kappa, ddf), concord.fleiss_kappa(df))


def test_conger_and_light(client):
    df = many_raters(3000, raters=3, missing=0.05)
    ddf = dd.from_pandas(df, npartitions=5)
    got = cd.compute(concord.conger_kappa, ddf, weights="linear")
    assert_same(got, concord.conger_kappa(df, weights="linear"))
    assert_same(cd.compute(concord.light_kappa, ddf), concord.light_kappa(df))


def test_gwet_from_a_2d_array_split_across_raters(client):
    x = many_raters(3000, raters=5, missing=0.0).to_numpy().astype(np.int64)
    arr = da.from_array(x, chunks=(400, 2))  # blocks rechunked to whole rows (items)
    got = cd.compute(concord.gwet_ac, arr, weights="ordinal")
    assert_same(got, concord.gwet_ac(x, weights="ordinal"))


def long_form(wide):
    """Melt to (item, rater, rating) rows, drop missing ratings, shuffle the rows."""
    rows = wide.rename_axis("item").reset_index().melt("item", var_name="rater", value_name="y")
    rows = rows.dropna().sample(frac=1, random_state=7).reset_index(drop=True)
    return rows


def pivoted(rows):
    wide = rows.pivot(index="item", columns="rater", values="y")
    return wide[list(dict.fromkeys(rows.rater))]


def test_krippendorff_interval_from_long_form(client):
    rows = long_form(many_raters(1500, raters=4, k=7, missing=0.3))
    ddf = dd.from_pandas(rows, npartitions=6, sort=False)  # items span partitions
    got = cd.compute(
        concord.krippendorff_alpha, ddf, item="item", rater="rater", rating="y", level="interval"
    )
    assert_same(got, concord.krippendorff_alpha(pivoted(rows), level="interval"))


def test_conger_from_long_form_keeps_the_raters_aligned(client):
    wide = many_raters(600, raters=4, missing=0.2)
    wide["r3"] = np.where(np.arange(600) < 500, np.nan, wide["r3"])  # only in the last rows
    rows = long_form(wide).sort_values("item", kind="stable")  # r3 absent from early partitions
    ddf = dd.from_pandas(rows, npartitions=4, sort=False)
    got = cd.compute(concord.conger_kappa, ddf, item="item", rater="rater", rating="y")
    assert_same(got, concord.conger_kappa(pivoted(rows)))
    named = cd.compute(
        concord.conger_kappa,
        ddf,
        item="item",
        rater="rater",
        rating="y",
        raters=["r3", "r2", "r1", "r0"],
    )
    assert_same(named, concord.conger_kappa(pivoted(rows)[["r3", "r2", "r1", "r0"]]))


def test_two_raters_from_long_form(client):
    df = two_raters(800)
    rows = long_form(df[["a", "b"]])
    ddf = dd.from_pandas(rows, npartitions=3, sort=False)
    got = cd.compute(concord.cohen_kappa, ddf, item="item", rater="rater", rating="y")
    wide = pivoted(rows)
    # the long form's rater names are the long-form reader's to give (issue 25, item 4):
    # compared here with the unnamed columns
    first, second = wide.iloc[:, 0].to_numpy(), wide.iloc[:, 1].to_numpy()
    assert_same(got, concord.cohen_kappa(first, second))


def test_string_labels_grow_across_partitions(client):
    words = np.array(["no", "maybe", "yes", "n/a"])
    a = words[np.minimum(np.arange(2000) // 500, RNG.integers(0, 4, 2000))]
    b = np.where(RNG.random(2000) < 0.8, a, words[RNG.integers(0, 4, 2000)])
    df = pd.DataFrame({"a": a, "b": b})
    ddf = dd.from_pandas(df, npartitions=4)  # the first partition holds "no" alone
    got = cd.compute(concord.cohen_kappa, ddf)
    assert_same(got, concord.cohen_kappa(df.a, df.b))
    assert got.labels == ("maybe", "n/a", "no", "yes")


def test_declared_labels(client):
    df = many_raters(1000, raters=3, k=3)
    ddf = dd.from_pandas(df, npartitions=3)
    got = cd.compute(concord.fleiss_kappa, ddf, labels=[4, 3, 2, 1], weights="quadratic")
    assert_same(got, concord.fleiss_kappa(df, labels=[4, 3, 2, 1], weights="quadratic"))
    assert got.labels == (4, 3, 2, 1)


def test_chunks_run_on_the_workers(client):
    df = many_raters(2000)
    ddf = dd.from_pandas(df, npartitions=20)
    lazy = cd.accumulator(concord.fleiss_kappa, ddf, split_every=4)
    keys = [dask.utils.key_split(k) for k in dict(lazy.__dask_graph__())]
    assert keys.count("concord-count") == 20
    assert keys.count("concord-merge") == 5 + 2 + 1  # a tree of fan-in 4
    with distributed.get_task_stream(client) as tasks:
        (acc,) = dask.compute(lazy)
    ran = {t["worker"] for t in tasks.data if dask.utils.key_split(t["key"]) == "concord-count"}
    assert ran and ran <= set(client.scheduler_info()["workers"])
    assert acc.n == 2000 - int(df.isna().all(axis=1).sum())
    assert_same(acc.result(), concord.fleiss_kappa(df))


def test_one_pass_for_several_coefficients(client):
    df = many_raters(1000)
    ddf = dd.from_pandas(df, npartitions=3)
    lazy = [cd.accumulator(f, ddf) for f in (concord.fleiss_kappa, concord.percent_agreement)]
    fleiss, agreement = dask.compute(*lazy)
    assert_same(fleiss.result(), concord.fleiss_kappa(df))
    assert_same(agreement.result(), concord.percent_agreement(df))


def test_poisson_replicates_spawned_per_partition(client):
    df = two_raters(2000)
    ddf = dd.from_pandas(df, npartitions=4)
    one, two = (
        cd.compute(concord.cohen_kappa, ddf[["a", "b"]], n_replicates=500, rng=3) for _ in "12"
    )
    want = concord.cohen_kappa(df.a, df.b)
    assert one.statistic == want.statistic and one.standard_error == want.standard_error
    assert np.array_equal(one.bootstrap(500), two.bootstrap(500))  # one seed, one result
    assert np.std(one.bootstrap(500)) == pytest.approx(want.standard_error, rel=0.2)


def test_errors(client):
    df = two_raters(100)
    ddf = dd.from_pandas(df, npartitions=2)
    with raises(TypeError, "'function' parameter of concord.dask.compute", "concord.cohen_kappa"):
        cd.compute(np.mean, ddf)
    with raises(TypeError, "'data' parameter", "a dask DataFrame", "from_pandas"):
        cd.compute(concord.cohen_kappa, df[["a", "b"]])
    with raises(ValueError, "two rater columns for cohen_kappa", "3 columns", "ddf[["):
        cd.compute(concord.cohen_kappa, ddf)
    with raises(TypeError, "one ratings matrix for fleiss_kappa"):
        cd.compute(concord.fleiss_kappa, ddf.a, ddf.b)
    with raises(ValueError, "'rating' parameter", "a column of the DataFrame", "'score'"):
        cd.compute(concord.fleiss_kappa, ddf, item="a", rater="b", rating="score")
    with raises(ValueError, "'rating' parameter", "a third column", "'a'"):
        cd.compute(concord.fleiss_kappa, ddf, item="a", rater="b", rating="a")
    with raises(ValueError, "'rater' parameter", "together", "Only item= was given"):
        cd.compute(concord.fleiss_kappa, ddf, item="a")
    with raises(TypeError, "'sample_weight' parameter", "fleiss_kappa takes no sample weights"):
        cd.compute(concord.fleiss_kappa, ddf, sample_weight=ddf.other)
    with raises(ValueError, "'split_every' parameter", "at least 2"):
        cd.compute(concord.cohen_kappa, ddf[["a", "b"]], split_every=1)
    with raises(ValueError, "'weights' parameter of cohen_kappa", "Did you mean 'quadratic'"):
        cd.compute(concord.cohen_kappa, ddf[["a", "b"]], weights="quadratc")


def test_errors_found_in_a_partition(client):
    rows = pd.DataFrame({"item": [1, 1, 2, 1], "rater": ["x", "y", "x", "x"], "y": [1, 2, 3, 4]})
    ddf = dd.from_pandas(rows, npartitions=2, sort=False)
    with raises(ValueError, "one rating per (item, rater) pair", "item 1 rated by 'x' twice"):
        cd.compute(concord.fleiss_kappa, ddf, item="item", rater="rater", rating="y")
    first = dd.from_pandas(rows.iloc[:3], npartitions=2, sort=False)
    with raises(ValueError, "'raters' parameter", "a list of every rater", "['y'] too"):
        cd.compute(
            concord.fleiss_kappa, first, item="item", rater="rater", rating="y", raters=["x"]
        )
    empty = dd.from_pandas(pd.DataFrame({"a": [1, 2], "b": [1, 2]}), npartitions=1)
    with raises(ValueError, "'ratings' parameter of fleiss_kappa"):
        cd.compute(concord.fleiss_kappa, empty[empty.a > 5])  # what the one-shot raises
