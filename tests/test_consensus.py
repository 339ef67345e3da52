"""concord.consensus: majority vote and Dawid & Skene's EM.

Dawid-Skene's reference: crowd-kit 1.4.2's ``DawidSkene`` run to its fixed point
(2000 iterations) on two simulated crowds, by tests/reference/crowds/make_dawid_skene.py;
where crowd-kit is installed (not in the dev extra: it pulls in transformers) the same
comparison also runs on it directly.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import concord

REF = Path(__file__).parent / "reference" / "crowds"
LONG = {"item": "task", "rater": "worker", "rating": "label"}


def _compare(result: concord.ConsensusResult, ref: dict, tol: float = 1e-6) -> None:
    rows = [result.items.index(t) for t in ref["tasks"]]
    cols = [list(result.categories).index(c) for c in ref["categories"]]
    assert [result.labels[i] for i in rows] == ref["labels"]
    np.testing.assert_allclose(result.posteriors[np.ix_(rows, cols)], ref["posteriors"], atol=tol)
    np.testing.assert_allclose(result.priors[cols], ref["priors"], atol=tol)
    for worker, matrix in ref["errors"].items():
        np.testing.assert_allclose(result.confusions[worker][np.ix_(cols, cols)], matrix, atol=tol)


@pytest.mark.parametrize("case", ["three_classes", "binary"])
def test_dawid_skene_matches_crowd_kit_reference(case: str) -> None:
    # crowd-kit 1.4.2 DawidSkene(n_iter=2000, tol=-inf): labels, error matrices, priors
    ref = json.loads((REF / "dawid_skene.json").read_text())[case]
    df = pd.read_csv(REF / f"{case}.csv")
    result = concord.consensus(df, method="dawid-skene", **LONG)
    assert result.converged
    _compare(result, ref)


def test_dawid_skene_matches_crowd_kit_directly() -> None:
    aggregation = pytest.importorskip("crowdkit.aggregation")
    df = pd.read_csv(REF / "binary.csv")
    ds = aggregation.DawidSkene(n_iter=150, tol=-np.inf).fit(df)
    cats = [str(c) for c in ds.probas_.columns]
    ref = {
        "tasks": list(ds.probas_.index),
        "categories": cats,
        "labels": [str(v) for v in ds.labels_.loc[ds.probas_.index]],
        "posteriors": ds.probas_.to_numpy(),
        "priors": ds.priors_.loc[ds.probas_.columns].to_numpy(),
        "errors": {
            w: ds.errors_.loc[w].reindex(ds.probas_.columns, fill_value=0.0).to_numpy().T
            for w in df.worker.unique()
        },
    }
    _compare(concord.consensus(df, method="dawid-skene", **LONG), ref)


def test_majority_labels_shares_and_tie_rule() -> None:
    # worked by hand: item 3 has one 'a' and one 'b', so the first label in order wins
    r = concord.consensus([["a", "a", "b"], ["b", "b", "b"], ["a", "b", None]])
    assert r.labels == ("a", "b", "a")
    assert r.tied.tolist() == [False, False, True]
    assert r.posteriors[0].tolist() == [float(Fraction(2, 3)), float(Fraction(1, 3))]
    assert r.statistic == pytest.approx(float((Fraction(2, 3) + 1 + Fraction(1, 2)) / 3))
    # rater 1 says 'a', 'b', 'b' against consensus 'a', 'b', 'a': accuracy 2/3
    assert r.rater_accuracy[1] == pytest.approx(2 / 3)
    np.testing.assert_allclose(r.confusions[1], [[0.5, 0.5], [0.0, 1.0]])


def test_declared_labels_order_the_tie_and_keep_unused_columns() -> None:
    r = concord.consensus([["a", "b"]], labels=["b", "a", "c"])
    assert r.labels == ("b",)
    assert r.posteriors.tolist() == [[0.5, 0.5, 0.0]]


def test_long_form_and_dataframe_index_name_the_items() -> None:
    df = pd.DataFrame({"x": [1, 2, None], "y": [1, 2, None]}, index=["p", "q", "r"])
    r = concord.consensus(df)
    assert r.items == ("p", "q")  # the unrated item 'r' is left out
    long = pd.DataFrame({"t": ["u", "u", "v"], "w": ["a", "b", "a"], "l": [1, 1, 2]})
    assert concord.consensus(long, item="t", rater="w", rating="l").labels == (1, 2)


def test_ties_everywhere() -> None:
    # two raters who always disagree: every item ties, both methods take the first label
    ratings = [[0, 1], [1, 0], [0, 1], [1, 0]]
    for method in ("majority", "dawid-skene"):
        r = concord.consensus(ratings, method=method)
        assert r.labels == (0, 0, 0, 0)
        assert r.tied.all()
        np.testing.assert_allclose(r.posteriors, 0.5)


def test_rater_with_one_item_carries_no_evidence() -> None:
    # documented: a rater's only label has rate 1 under every class, so the posteriors
    # are those of the crowd without that rating
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 2, 60)
    ratings = np.where(rng.random((60, 4)) < 0.8, truth[:, None], 1 - truth[:, None]).astype(float)
    lone = np.full((60, 1), np.nan)
    lone[5, 0] = 1 - ratings[5, 0]
    with_lone = concord.consensus(np.hstack([ratings, lone]), method="dawid-skene")
    without = concord.consensus(ratings, method="dawid-skene")
    np.testing.assert_allclose(with_lone.posteriors, without.posteriors, atol=1e-8)
    np.testing.assert_allclose(with_lone.confusions[4][:, int(lone[5, 0])], 1.0)


def test_raters_with_no_overlap() -> None:
    # each item rated by one rater: the consensus is that rater's label, with certainty
    ratings = [[0, None], [1, None], [None, 1], [None, 0]]
    for method in ("majority", "dawid-skene"):
        r = concord.consensus(ratings, method=method)
        assert r.labels == (0, 1, 1, 0)
        assert not r.tied.any()


def test_result_protocol() -> None:
    r = concord.consensus([[1, 1, 2], [2, 2, 2], [1, 1, 1]], method="dawid-skene")
    assert repr(r).startswith("ConsensusResult(method='dawid-skene', n_items=3")
    assert "local optimum" in r.explain()
    d = r.to_dict()
    assert d["coefficient"] == "consensus" and d["n"] == 3 and d["statistic"] == r.statistic
    frame = r.to_frame()
    assert list(frame.columns[7:]) == ["item", "label", "posterior", "tied", "p(1)", "p(2)"]
    assert "<table" in r._repr_html_()
    assert r.confusion_frame(0).index.name == "true"


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "dawid_skene"}, "Did you mean 'dawid-skene'"),
        ({"max_iter": 0}, "'max_iter'"),
        ({"tol": -1.0}, "'tol'"),
        ({"item": "t"}, "long form takes item=, rater= and rating= together"),
    ],
)
def test_bad_options_are_named(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        concord.consensus([[1, 2]], **kwargs)


def test_sparse_path_equals_the_matrix_products(monkeypatch: pytest.MonkeyPatch) -> None:
    # large crowds reduce over responses (np.add.reduceat) instead of the dense products
    from concord._studies.crowds import dawid_skene

    df = pd.read_csv(REF / "three_classes.csv")
    dense = concord.consensus(df, method="dawid-skene", **LONG)
    monkeypatch.setattr(dawid_skene, "DENSE", 0)
    sparse = concord.consensus(df, method="dawid-skene", **LONG)
    np.testing.assert_allclose(sparse.posteriors, dense.posteriors, atol=1e-12)
    assert sparse.labels == dense.labels and sparse.n_iter == dense.n_iter


def test_near_ties_follow_the_rule() -> None:
    # posteriors within 1e-12 of each other are a tie: the first label in order wins, even
    # when rounding left the second a hair above (it used to take the exact argmax)
    from concord._studies.crowds.consensus import _chosen

    chosen, tied = _chosen(np.array([[0.5 - 1e-15, 0.5 + 1e-15], [0.2, 0.8]]))
    assert chosen.tolist() == [0, 1] and tied.tolist() == [True, False]
