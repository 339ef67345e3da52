"""concord.dask on continuous ratings: the ICC, Lin's concordance and Bland–Altman.

Each partition's exact sums are counted where it lies and merged; the result
equals the one-shot function's on the same data in memory, compared with ==
(its ``to_dict()``, so every field), on integer scores and, for Lin's and
Bland–Altman's exact float sums, on float scores too.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import concord

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")

import concord.dask as cd  # noqa: E402  (after the guard)

RNG = np.random.default_rng(20261124)
FORMS = [
    {"model": "oneway", "unit": "single"},
    {"model": "twoway", "type": "agreement", "unit": "single"},
    {"model": "twoway", "type": "consistency", "unit": "average"},
]


@pytest.fixture(scope="module", autouse=True)
def synchronous():
    # the sums are the same on any scheduler (tests/test_dask.py runs a cluster)
    with dask.config.set(scheduler="synchronous"):
        yield


def same(got, want):
    assert type(got) is type(want)
    if isinstance(want, concord.IccResult):  # every field, the ANOVA's fractions among them
        fields = ({k: v for k, v in vars(r).items() if k != "_sampler"} for r in (got, want))
        assert repr(next(fields)) == repr(next(fields))  # no items kept to resample: no sampler
        assert got.confidence_interval() == want.confidence_interval()
    else:
        assert repr(got.to_dict()) == repr(want.to_dict())
    assert got.explain() == want.explain()


def scores(n, raters, missing=0.0, integers=True):
    truth = RNG.normal(50, 15, n)
    x = truth[:, None] + RNG.normal(0, 8, (n, raters)) + np.arange(raters)
    x = np.round(x) if integers else x
    x[RNG.random(x.shape) < missing] = np.nan
    return pd.DataFrame(x, columns=[f"r{j}" for j in range(raters)])


@pytest.mark.parametrize("form", FORMS)
def test_icc_with_missing_ratings_is_the_one_shot_result(form):
    df = scores(700, 4, missing=0.2)
    ddf = dd.from_pandas(df, npartitions=6)
    want = concord.icc(df, **form)
    same(cd.compute(concord.icc, ddf, **form), want)
    blocks = da.from_array(df.to_numpy(), chunks=(97, 2))  # blocks split the raters too
    got = cd.compute(concord.icc, blocks, **form)
    assert got.statistic == concord.icc(df.to_numpy(), **form).statistic
    assert got._anova == want._anova  # the same fractions


def test_icc_from_long_form():
    wide = scores(300, 3, missing=0.25)
    rows = wide.rename_axis("item").reset_index().melt("item", var_name="rater", value_name="y")
    rows = rows.dropna().sample(frac=1, random_state=3).reset_index(drop=True)
    ddf = dd.from_pandas(rows, npartitions=5, sort=False)  # items span partitions
    raters = ["r0", "r1", "r2"]
    got = cd.compute(concord.icc, ddf, item="item", rater="rater", rating="y", raters=raters)
    same(got, concord.icc(rows, item="item", rater="rater", rating="y"))


def test_icc_of_float_scores_agrees_to_rounding():
    # float sums of the ICC are float64, added in another order: equal to rounding only
    df = scores(500, 3, missing=0.1, integers=False)
    got = cd.compute(concord.icc, dd.from_pandas(df, npartitions=4))
    assert got.statistic == pytest.approx(concord.icc(df).statistic, rel=1e-12)


@pytest.mark.parametrize("function", [concord.concordance_correlation, concord.bland_altman])
@pytest.mark.parametrize("integers", [True, False])
def test_two_rater_sums_are_the_one_shot_result(function, integers):
    df = scores(900, 2, integers=integers)
    want = function(df.r0, df.r1)
    ddf = dd.from_pandas(df, npartitions=7)
    same(cd.compute(function, ddf), want)
    same(cd.compute(function, ddf.r0, ddf.r1), want)
    x, y = (da.from_array(df[c].to_numpy(), chunks=c_) for c, c_ in (("r0", 100), ("r1", 333)))
    # dask arrays name no raters: x and y, as plain arrays in memory (issue 25)
    same(cd.compute(function, x, y), function(df.r0.to_numpy(), df.r1.to_numpy()))


def test_bland_altman_options_and_missing_pairs():
    df = scores(400, 2, missing=0.05)
    ddf = dd.from_pandas(df, npartitions=3)
    options = {"nan_policy": "omit", "limits": 0.9, "confidence_level": 0.99}
    want = concord.bland_altman(df.r0, df.r1, **options)
    same(cd.compute(concord.bland_altman, ddf, **options), want)
    with pytest.raises(ValueError, match="nan_policy='omit'"):
        cd.compute(concord.concordance_correlation, ddf)


def test_one_pass_for_the_three():
    df = scores(600, 2)
    ddf = dd.from_pandas(df, npartitions=4)
    functions = (concord.icc, concord.concordance_correlation, concord.bland_altman)
    accs = dask.compute(*(cd.accumulator(f, ddf) for f in functions))
    same(accs[0].result(), concord.icc(df))
    for f, acc in zip(functions[1:], accs[1:], strict=True):
        # an accumulator counts numbers, not names: as plain arrays in memory (issue 25)
        same(acc.result(), f(df.r0.to_numpy(), df.r1.to_numpy()))
