"""concord.alt_test: the procedure of Calderon, Reichart & Dror (2025) checked on small
cases by hand, against a direct loop over the paper's definitions, and BY against
statsmodels' multipletests(method="fdr_by")."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import concord
from concord._studies.judges.alt_test_core import by_adjusted, by_rejected

RNG = np.random.default_rng(20250101)


def _panel(n=60, m=4, k=3, missing=0.2, seed=0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    noisy = rng.random((n, m)) < 0.3
    humans = np.where(noisy, rng.integers(0, k, (n, m)), truth[:, None]).astype(float)
    humans[rng.random((n, m)) < missing] = np.nan
    judge = np.where(rng.random(n) < 0.2, rng.integers(0, k, n), truth).astype(float)
    return humans, judge


def _by_definition(humans, judge, score, epsilon, alpha):
    """The paper's §3 written out item by item: W^h, W^f, d, t test, BY."""
    from scipy.stats import ttest_1samp
    from statsmodels.stats.multitest import multipletests

    m = humans.shape[1]
    rated = ~np.isnan(humans)
    keep = (rated.sum(axis=1) >= 2) & ~np.isnan(judge)
    p, rho = [], []
    for j in range(m):
        d, wf = [], []
        for i in np.flatnonzero(keep & rated[:, j]):
            others = [humans[i, h] for h in range(m) if h != j and rated[i, h]]
            s_h, s_f = score(humans[i, j], others), score(judge[i], others)
            d.append(int(s_h >= s_f) - int(s_f >= s_h))
            wf.append(int(s_f >= s_h))
        if len(d) >= 30:
            p.append(ttest_1samp(d, epsilon, alternative="less").pvalue)
            rho.append(np.mean(wf))
    wins = multipletests(p, alpha, method="fdr_by")[0]
    return np.mean(wins), np.mean(rho), np.array(p)


def _acc(x, others):
    return float(np.mean([x == o for o in others]))


def _neg_rmse(x, others):
    return -math.sqrt(np.mean([(x - o) ** 2 for o in others]))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(("metric", "score"), [("accuracy", _acc), ("neg_rmse", _neg_rmse)])
def test_matches_the_definition(seed, metric, score):
    humans, judge = _panel(n=80 + 10 * seed, m=3 + seed % 3, seed=seed)
    eps = (0.0, 0.1, 0.2)[seed % 3]
    r = concord.alt_test(humans, judge, epsilon=eps, metric=metric)
    omega, rho, p = _by_definition(humans, judge, score, eps, 0.05)
    assert r.winning_rate == omega
    assert r.advantage_probability == pytest.approx(rho, rel=1e-15)
    np.testing.assert_allclose(r.pvalues, p, rtol=1e-12)


def test_a_callable_metric_equals_the_built_in():
    humans, judge = _panel(n=70, m=4, seed=7)
    built_in = concord.alt_test(humans, judge, metric="neg_rmse")
    mine = concord.alt_test(humans, judge, metric=_neg_rmse)
    assert mine.metric == "_neg_rmse"
    assert mine.pvalues.tolist() == built_in.pvalues.tolist()
    assert mine.ties.tolist() == built_in.ties.tolist()


def test_the_docstring_example_by_hand():
    # 40 items, 5-item pattern; human 0 is off on 6 items, human 1 on 4, human 2 on 5,
    # the judge on 2. With the others' majority fixed, each item is a tie unless one of
    # the two compared annotators is off: d = +1 where only the judge is off, −1 where
    # only the human is off (their own error makes them match no one).
    truth = np.tile(["yes", "no", "no", "yes", "maybe"], 8)
    humans = np.column_stack([truth, truth, truth]).astype(object)
    humans[[0, 5, 10, 15, 20, 25], 0] = "maybe"
    humans[[1, 6, 11, 16], 1] = "yes"
    humans[[2, 7, 12, 17, 22], 2] = "yes"
    judge = truth.astype(object)
    judge[[3, 8]] = "no"
    r = concord.alt_test(humans, judge, epsilon=0.2)
    # human 0: off on 6 items (judge never off there); judge off on 3 and 8, human 0 not
    assert r.candidate_better.tolist() == [6, 4, 5]
    assert r.human_better.tolist() == [2, 2, 2]
    assert r.ties.tolist() == [32, 34, 33]
    # ρ_j = (candidate better + ties) / 40: 38/40 each
    assert r.advantage_probabilities.tolist() == [38 / 40] * 3
    assert r.winning_rate == 1.0 and r.passed


def test_thirty_items_per_human():
    humans, judge = _panel(n=60, m=3, missing=0.0, seed=3)
    humans[31:, 2] = np.nan  # 31 items left to human 2
    assert concord.alt_test(humans, judge).skipped == ()
    humans[30, 2] = np.nan  # 30
    assert concord.alt_test(humans, judge).skipped == ()
    humans[29, 2] = np.nan  # 29: not tested, not in ω's denominator
    r = concord.alt_test(humans, judge)
    assert r.skipped == (2,) and r.humans == (0, 1)
    assert r.winning_rate == r.wins.sum() / 2


def test_unusable_items_are_dropped():
    humans, judge = _panel(n=50, m=3, missing=0.0, seed=4)
    humans[0, 1:] = np.nan  # one human only
    judge[1] = np.nan  # no candidate
    humans[2, :] = np.nan  # no one
    r = concord.alt_test(humans, judge)
    assert r.n_dropped == 3 and r.n_items.tolist() == [47, 47, 47]


def test_dataframe_series_pair_by_index():
    pd = pytest.importorskip("pandas")
    humans, judge = _panel(n=60, m=3, seed=5)
    frame = pd.DataFrame(humans, columns=["ann", "bob", "cy"], index=[f"i{i}" for i in range(60)])
    series = pd.Series(judge, index=frame.index)
    expected = concord.alt_test(humans, judge)
    r = concord.alt_test(frame, series.sample(frac=1, random_state=0))
    assert r.humans == ("ann", "bob", "cy")
    assert r.pvalues.tolist() == expected.pvalues.tolist()
    table = r.table()
    assert list(table.index) == ["ann", "bob", "cy"] and table.index.name == "human"
    assert table["pvalue"].tolist() == r.pvalues.tolist()
    with pytest.raises(ValueError, match="candidate"):
        concord.alt_test(frame, series.set_axis(range(60)))


def test_string_labels_with_missing():
    humans, judge = _panel(n=50, m=3, seed=6)
    words = np.array(["neg", "neu", "pos"], dtype=object)
    as_text = np.where(np.isnan(humans), None, words[np.nan_to_num(humans).astype(int)])
    r = concord.alt_test(as_text, words[judge.astype(int)])
    assert r.pvalues.tolist() == concord.alt_test(humans, judge).pvalues.tolist()


def test_humans_in_another_order():
    humans, judge = _panel(n=70, m=4, seed=8)
    r = concord.alt_test(humans, judge)
    s = concord.alt_test(humans[:, ::-1], judge)
    assert s.pvalues.tolist() == r.pvalues[::-1].tolist()
    assert s.winning_rate == r.winning_rate


@pytest.mark.parametrize("m", [1, 2, 3, 7, 20])
def test_by_against_statsmodels(m):
    from statsmodels.stats.multitest import multipletests

    for _ in range(50):
        p = RNG.random(m) ** 4
        rejected, adjusted, _, _ = multipletests(p, 0.05, method="fdr_by")
        assert by_rejected(p, 0.05).tolist() == rejected.tolist()
        np.testing.assert_allclose(by_adjusted(p), adjusted, rtol=1e-14)


def test_by_by_hand():
    # m = 3, c(3) = 11/6: thresholds k·0.05/(3·11/6) = 0.00909, 0.01818, 0.02727.
    # p_(1) = 0.012 > 0.00909, but the step-up finds p_(2) = 0.015 <= 0.01818: reject two.
    p = np.array([0.012, 0.5, 0.015])
    assert by_rejected(p, 0.05).tolist() == [True, False, True]
    # m c(m) = 5.5: 0.012·5.5 = 0.066, 0.015·5.5/2 = 0.04125, 0.5·5.5/3; running minimum
    np.testing.assert_allclose(by_adjusted(p), [0.04125, 0.5 * 5.5 / 3, 0.04125])
    assert by_rejected(np.array([np.nan, 0.001]), 0.05).tolist() == [False, True]


def test_result_outputs():
    humans, judge = _panel(n=60, m=3, seed=9)
    r = concord.alt_test(humans, judge, epsilon=0.15)
    d = r.to_dict()
    json.dumps(d)
    assert d["winning_rate"] == r.winning_rate and d["humans"] == ["0", "1", "2"]
    assert "ω =" in r.summary() and "ρ =" in r.summary()
    assert "Benjamini–Yekutieli" in r.explain()
    assert repr(r).startswith("AltTestResult(winning_rate=")
    with pytest.raises(ValueError):
        r.pvalues[0] = 0.0
    with pytest.raises(AttributeError):
        r.winning_rate = 1.0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"epsilon": 1.0}, ValueError, "epsilon"),
        ({"epsilon": "0.1"}, TypeError, "epsilon"),
        ({"alpha": 0.0}, ValueError, "alpha"),
        ({"metric": "f1"}, ValueError, "metric"),
    ],
)
def test_bad_options(kwargs, exc, match):
    humans, judge = _panel(n=40, m=3)
    with pytest.raises(exc, match=match):
        concord.alt_test(humans, judge, **kwargs)


def test_bad_data():
    humans, judge = _panel(n=40, m=3)
    with pytest.raises(ValueError, match="humans"):
        concord.alt_test(humans[:, :1], judge)
    with pytest.raises(ValueError, match="candidate"):
        concord.alt_test(humans, judge[:-1])
    with pytest.raises(ValueError, match="30 items"):
        concord.alt_test(humans[:20], judge[:20])
    words = np.where(np.isnan(humans), None, "a").astype(object)
    with pytest.raises(ValueError, match="metric"):
        concord.alt_test(words, np.array(["a"] * 40, dtype=object), metric="neg_rmse")
    with pytest.raises(TypeError, match="humans"):
        concord.alt_test("ratings.csv", judge)


def test_numpy_scalar_options_are_numbers():
    # ε and α read from a numpy array are np.float32 / np.int64: the same test as the floats
    humans, judge = _panel(n=40, m=3)
    ref = concord.alt_test(humans, judge, epsilon=0.0, alpha=0.25)
    r = concord.alt_test(humans, judge, epsilon=np.int64(0), alpha=np.float32(0.25))
    assert r.pvalues.tolist() == ref.pvalues.tolist() and r.wins.tolist() == ref.wins.tolist()
    with pytest.raises(TypeError, match="epsilon"):
        concord.alt_test(humans, judge, epsilon=np.bool_(False))


@pytest.mark.parametrize("bad", [float("nan"), "x", None])
def test_a_metric_that_returns_no_number_is_an_error_not_a_tie(bad):
    humans = np.random.default_rng(0).integers(0, 3, (40, 3))
    with pytest.raises(ValueError, match="'metric' parameter of alt_test"):
        concord.alt_test(humans, humans[:, 0], metric=lambda a, o: bad)
