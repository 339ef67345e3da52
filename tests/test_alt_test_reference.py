"""The Alt-Test against its published results: nitaytech/AltTest's notebook
(alt_test_example.ipynb, commit 18428b1f, the "Example (paper's data)" cell, execution
count 3), on nine of the paper's data sets and six LLMs. The data carry no licence, so
tests/reference/alttest/ holds the notebook's output and the per-human win/tie/loss
counts of the data (see its README); CONCORD_ALTTEST_DATA, a checkout of the
repository, runs the whole test on the annotations too."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

import numpy as np
import pytest

import concord
from concord._studies.judges.alt_test import from_outcomes
from concord._studies.judges.alt_test_core import Outcomes

HERE = Path(__file__).parent / "reference" / "alttest"


def _rows(name: str) -> list[dict[str, str]]:
    with open(HERE / name, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


PUBLISHED = _rows("notebook_output.tsv")
OUTCOMES = _rows("outcomes.tsv")
IDS = [f"{r['dataset']}-{r['candidate']}" for r in PUBLISHED]


def _counts(dataset: str, candidate: str) -> list[dict[str, str]]:
    return [r for r in OUTCOMES if (r["dataset"], r["candidate"]) == (dataset, candidate)]


def _from_counts(row: dict[str, str]) -> concord.AltTestResult:
    counts = _counts(row["dataset"], row["candidate"])
    outcomes = Outcomes(
        *(
            np.array([int(c[k]) for c in counts])
            for k in ("candidate_better", "ties", "human_better")
        )
    )
    humans = tuple(c["human"] for c in counts)
    eps = float(row["epsilon"])
    return from_outcomes(outcomes, humans, epsilon=eps, alpha=0.05, metric=row["metric"])


def _check_published(r: concord.AltTestResult, row: dict[str, str]) -> None:
    # the notebook prints f"{wr:.2f}" and f"{ap:.2f}", and PASSED when wr >= 0.5
    assert f"{r.winning_rate:.2f}" == row["winning_rate"]
    assert f"{r.advantage_probability:.2f}" == row["advantage_probability"]
    assert r.passed == (row["verdict"] == "PASSED")


def test_the_fixture_holds_the_notebook():
    assert len(PUBLISHED) == 52 and len(OUTCOMES) == 354
    # the notebook's first and last lines: wax gemini_flash [FAILED] 0.38 / 0.69,
    # lesion gpt-4o-mini [PASSED] 0.67 / 0.73
    first, last = PUBLISHED[0], PUBLISHED[-1]
    assert (first["winning_rate"], first["advantage_probability"]) == ("0.38", "0.69")
    assert (last["winning_rate"], last["advantage_probability"]) == ("0.67", "0.73")


@pytest.mark.parametrize("row", PUBLISHED, ids=IDS)
def test_published_winning_rate_and_advantage_probability(row):
    _check_published(_from_counts(row), row)


@pytest.mark.parametrize("row", PUBLISHED, ids=IDS)
def test_pvalues_match_the_reference_code(row):
    r = _from_counts(row)
    expected = [float(c["reference_pvalue"]) for c in _counts(row["dataset"], row["candidate"])]
    np.testing.assert_allclose(r.pvalues, expected, rtol=1e-12, atol=1e-300)


def test_one_row_by_hand():
    # wax, gpt-4o, eps 0.1: the notebook prints ω 0.50 over its 8 annotators, ρ 0.73
    row = next(r for r in PUBLISHED if (r["dataset"], r["candidate"]) == ("wax", "gpt-4o"))
    r = _from_counts(row)
    assert len(r.humans) == 8 and int(r.wins.sum()) == 4 and r.winning_rate == 0.5
    assert r.advantage_probabilities == pytest.approx((r.candidate_better + r.ties) / r.n_items)


DATA = os.environ.get("CONCORD_ALTTEST_DATA")


@pytest.mark.skipif(
    DATA is None, reason="CONCORD_ALTTEST_DATA (a nitaytech/AltTest checkout) unset"
)
def test_on_the_annotations():
    # one test over every published row: without the checkout it is one skip, not 52
    for row in PUBLISHED:
        _on_the_annotations(row)


def _on_the_annotations(row: dict) -> None:
    pd = pytest.importorskip("pandas")
    folder = Path(str(DATA)) / "data" / row["dataset"]
    humans = pd.DataFrame(json.loads((folder / "human_annotations.json").read_text()))
    llm = json.loads((folder / "llm_annotations.json").read_text())[row["candidate"]]
    eps = float(row["epsilon"])
    r = concord.alt_test(humans, pd.Series(llm), epsilon=eps, metric=row["metric"])
    _check_published(r, row)
    counts = _counts(row["dataset"], row["candidate"])
    assert list(r.humans) == [c["human"] for c in counts]
    assert r.candidate_better.tolist() == [int(c["candidate_better"]) for c in counts]
    assert r.ties.tolist() == [int(c["ties"]) for c in counts]
