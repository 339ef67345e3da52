"""concord.item_agreement: Fleiss's (1971) per-item agreement P_i, majority, entropy."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import concord

DATA = Path(__file__).resolve().parents[1] / "data" / "fleiss1971_diagnoses.csv"


def _fleiss() -> pd.DataFrame:
    return pd.read_csv(DATA, index_col="patient")


def test_fleiss_1971_items_and_mean() -> None:
    # Fleiss (1971) Table 1: 30 patients, 6 raters; P̄ = 0.556 (p. 381) and each P_i worked
    # here by its definition with Fractions: patient 2 is 3 + 3 ('personality disorder',
    # 'other'): (3·2 + 3·2) / 30 = 2/5
    r = concord.item_agreement(_fleiss())
    frame = r.to_frame().set_index("item")
    assert frame.loc[2, "agreement"] == float(Fraction(12, 30))
    assert frame.loc[1, "agreement"] == 1.0
    assert frame.loc[8, "agreement"] == float(Fraction(2 * 1 + 3 * 2, 30))  # 2 + 3 + 1
    assert round(r.statistic, 3) == 0.556
    # Fleiss's κ = (P̄ − P̄e) / (1 − P̄e): the mean of the items' P_i is his P̄
    shares = pd.Series(_fleiss().to_numpy().ravel()).value_counts(normalize=True)
    pe = float((shares**2).sum())
    assert (r.statistic - pe) / (1 - pe) == pytest.approx(
        concord.fleiss_kappa(_fleiss()).statistic
    )


def test_hardest_first_and_majority_entropy() -> None:
    r = concord.item_agreement([["a", "a", "a"], ["a", "b", "c"], ["a", "a", "b"]])
    assert r.items == (1, 2, 0)  # agreement 0, then 1/3, then 1
    np.testing.assert_allclose(r.agreement, [0.0, 1 / 3, 1.0])
    assert r.majority == ("a", "a", "a")  # item 1 ties three ways: the first label
    np.testing.assert_allclose(
        r.entropy, [math.log(3), -(2 / 3) * math.log(2 / 3) - (1 / 3) * math.log(1 / 3), 0.0]
    )
    np.testing.assert_allclose(r.majority_share, [1 / 3, 2 / 3, 1.0])
    assert "natural log" in r.explain()


def test_weighted_agreement_as_irrcac() -> None:
    # quadratic weights on 1..3: agreement weights 1, 3/4, 0; ratings 1, 2, 3:
    # n*_1 = 1 + 3/4, n*_2 = 3/4 + 1 + 3/4, n*_3 = 3/4 + 1 → Σ n_k (n*_k − 1) = 3/4 + 3/2 + 3/4 = 3
    r = concord.item_agreement([[1, 2, 3]], weights="quadratic")
    assert r.agreement[0] == pytest.approx(float(Fraction(3, 6)))
    assert concord.item_agreement([[1, 2, 3]]).agreement[0] == 0.0


def test_disagreements_lists_every_raters_label() -> None:
    df = pd.DataFrame(
        {"ann": ["x", "x", "y", None], "bob": ["x", "y", "y", "x"]}, index=["p", "q", "r", "s"]
    )
    r = concord.item_agreement(df)
    d = r.disagreements()
    assert list(d.columns) == ["item", "agreement", "majority", "ann", "bob"]
    assert d["item"].tolist() == ["q"]
    assert d.iloc[0][["ann", "bob"]].tolist() == ["x", "y"]
    # 's' was rated once: no pair, nan agreement, listed last, not in the mean
    assert r.items[-1] == "s" and math.isnan(r.agreement[-1])
    assert r.statistic == pytest.approx(2 / 3)
    assert "rated once" in r.summary()


def test_long_form() -> None:
    long = pd.DataFrame({"t": [1, 1, 2, 2], "w": ["a", "b", "a", "b"], "l": [0, 0, 0, 1]})
    r = concord.item_agreement(long, item="t", rater="w", rating="l")
    assert r.items == (2, 1)
    assert r.disagreements()["a"].tolist() == [0]


def test_ties_everywhere_and_protocol() -> None:
    r = concord.item_agreement([[0, 1], [1, 0]])
    assert r.statistic == 0.0 and r.majority == (0, 0)
    assert repr(r) == "ItemAgreementResult(n_items=2, mean_agreement=0, n_disagreements=2)"
    assert r.to_dict()["coefficient"] == "item_agreement"
    assert "<table" in r._repr_html_()


def test_bad_weights_are_named() -> None:
    with pytest.raises(ValueError, match="'weights'"):
        concord.item_agreement([[1, 2]], weights="quadratc")


def _cli(*args: str) -> Any:
    from click.testing import CliRunner

    from concord._cli.main import main

    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_cli_items_writes_disagreements_once(tmp_path: Path) -> None:
    target = tmp_path / "disagreements.csv"
    args = ["items", str(DATA), "--id", "patient", "-o", str(target)]
    first = _cli(*args, "--top", "3")
    assert first.exit_code == 0, first.output
    assert "the 3 hardest of 30 items" in first.output
    written = pd.read_csv(target)
    assert len(written) == 25  # Fleiss (1971) Table 1: 5 of 30 patients are unanimous
    assert written.iloc[0]["item"] == 8 and written.iloc[0]["rater6"] == "neurosis"
    again = _cli(*args)
    assert again.exit_code == 1 and "Pass --overwrite" in again.output
    assert _cli(*args, "--overwrite").exit_code == 0


def test_cli_items_json() -> None:
    result = _cli("items", str(DATA), "--id", "patient", "--format", "json")
    payload = json.loads(result.output)
    assert payload["coefficient"] == "item_agreement" and len(payload["items"]) == 30
