"""concord.agree and AgreementTable: one validation, one table, the same numbers as each function.

Every expected value here is the coefficient's own public function on the same
data (whose values the family tests check against their published sources);
``agree`` must reproduce them bit for bit.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import concord
from concord._cli import main
from concord._coefficients import panel
from concord._coefficients.registry import REGISTRY

DATA = Path(__file__).resolve().parents[1] / "data"
PANEL = [c for c in REGISTRY if c.arity == 1 and c.table != "sums"]  # categorical panels


def _ratings(seed: int = 0, n: int = 60, r: int = 4, k: int = 4) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, k + 1, n)
    noise = rng.integers(-1, 2, (n, r)) * (rng.random((n, r)) < 0.4)
    m = np.clip(truth[:, None] + noise, 1, k).astype(float)
    m[rng.random((n, r)) < 0.1] = np.nan
    return m


def _same(got: Any, want: Any) -> None:
    assert type(got) is type(want)
    for name in (
        "statistic",
        "standard_error",
        "pvalue",
        "observed_agreement",
        "chance_agreement",
    ):
        a, b = getattr(got, name), getattr(want, name)
        assert (math.isnan(a) and math.isnan(b)) or a == b, name
    assert got.labels == want.labels
    np.testing.assert_array_equal(got.weights, want.weights)
    assert got.confidence_interval() == want.confidence_interval()


@pytest.mark.parametrize("weights", [None, "linear", "quadratic", "custom"])
def test_every_coefficient_equals_its_own_function(weights: Any) -> None:
    m = _ratings()
    if weights == "custom":
        weights = np.array([[0, 1, 3, 3], [1, 0, 1, 3], [3, 1, 0, 1], [3, 3, 1, 0]], dtype=float)
    table = concord.agree(m, weights=weights)
    assert table.coefficients == tuple(c.name for c in PANEL)
    for c in PANEL:
        if c.table == "coincidences":
            continue
        _same(table[c.name], c.function(m, weights=weights))


def test_alpha_level_follows_the_weights() -> None:
    """None → nominal, quadratic → interval, ratio → ratio; other weights: their matrix."""
    m = _ratings(1)
    alpha = concord.krippendorff_alpha
    _same(concord.agree(m)["krippendorff_alpha"], alpha(m, level="nominal"))
    _same(concord.agree(m, weights="quadratic")["krippendorff_alpha"], alpha(m, level="interval"))
    _same(concord.agree(m, weights="ratio")["krippendorff_alpha"], alpha(m, level="ratio"))
    linear = concord.agree(m, weights="linear")
    want = alpha(m, level=linear["fleiss_kappa"].weights, labels=list(linear.labels))
    _same(linear["krippendorff_alpha"], want)
    _same(concord.agree(m, level="ordinal")["krippendorff_alpha"], alpha(m, level="ordinal"))


def test_alpha_alone_and_continuous_values() -> None:
    """α alone validates as its own function does: non-integral values at the interval level."""
    x = np.array([[1.5, 1.5, 2.25], [3.0, 3.25, np.nan], [0.5, 1.0, 0.75], [2.0, 2.0, 2.5]])
    table = concord.agree(x, coefficients=["krippendorff_alpha"], level="interval")
    _same(table["krippendorff_alpha"], concord.krippendorff_alpha(x, level="interval"))
    many = np.arange(600, dtype=float).reshape(300, 2) // 2  # 300 distinct values: its own engine
    table = concord.agree(many, coefficients=[concord.fleiss_kappa, "krippendorff_alpha"])
    _same(table["krippendorff_alpha"], concord.krippendorff_alpha(many))


def test_long_form_labels_and_dataframe() -> None:
    m = _ratings(2)
    frame = pd.DataFrame(m, columns=["ann", "bo", "cy", "di"])
    long = frame.reset_index().melt(id_vars="index", var_name="who", value_name="grade")
    labels = [1, 2, 3, 4, 5]
    wide = concord.agree(frame, labels=labels, weights="quadratic")
    tall = concord.agree(
        long, item="index", rater="who", rating="grade", labels=labels, weights="quadratic"
    )
    assert wide.raters == tall.raters == ("ann", "bo", "cy", "di")
    for a, b in zip(wide, tall, strict=True):
        _same(a, b)
    assert wide.labels == (1, 2, 3, 4, 5)
    with pytest.raises(TypeError, match="unexpected keyword argument 'raters'"):
        concord.agree(long, item="index", raters="who", rating="grade")


def test_count_form_leaves_out_who_rated_what() -> None:
    counts = concord.CategoryCounts([[3, 0, 1], [0, 4, 0], [1, 1, 2], [2, 2, 0]])
    table = concord.agree(counts)
    assert "conger_kappa" not in table.coefficients and "light_kappa" not in table.coefficients
    assert table.raters is None
    _same(table["fleiss_kappa"], concord.fleiss_kappa(counts))
    with pytest.raises(TypeError, match="needs to know which rater gave which rating"):
        concord.agree(counts, coefficients=["conger_kappa"])


def test_coefficients_by_name_or_function_in_the_order_given() -> None:
    m = _ratings(3)
    table = concord.agree(m, coefficients=["krippendorff_alpha", concord.gwet_ac])
    assert table.coefficients == ("krippendorff_alpha", "gwet_ac")
    assert concord.agree(m, coefficients="fleiss_kappa").coefficients == ("fleiss_kappa",)
    with pytest.raises(ValueError, match=r"'coefficients' parameter of agree.*Got 'cohen_kappa'"):
        concord.agree(m, coefficients=["cohen_kappa"])
    with pytest.raises(ValueError, match=r"each coefficient once\. Got 'gwet_ac'"):
        concord.agree(m, coefficients=["gwet_ac", concord.gwet_ac])
    with pytest.raises(ValueError, match="at least one coefficient"):
        concord.agree(m, coefficients=[])
    with pytest.raises(KeyError, match="'cohen_kappa' is not in this table"):
        table["cohen_kappa"]


def test_one_validation_and_one_table(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = panel.item_data

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(panel, "item_data", counting)
    concord.agree(_ratings(4), weights="quadratic")
    assert calls == ["agree"]


def test_to_frame_to_dict_and_the_cli_json() -> None:
    """The table's records are the CLI's JSON rows, and to_frame has one row per coefficient."""
    path = DATA / "fleiss1971_diagnoses.csv"
    frame = pd.read_csv(path).drop(columns="patient")
    table = concord.agree(frame)
    out = CliRunner().invoke(main, ["agree", str(path), "--id", "patient", "--format", "json"])
    assert out.exit_code == 0, out.output
    cli = json.loads(out.output)
    assert table.to_dict()["coefficients"] == cli["coefficients"]
    assert table.to_dict()["data"]["category_totals"] == cli["data"]["category_totals"]
    assert round(table["fleiss_kappa"].statistic, 4) == 0.4302  # Fleiss (1971): 0.430
    df = table.to_frame()
    assert list(df.index) == [r.name for r in table]
    assert list(df.columns[:10]) == [  # the tidy columns first, as every result's (issue 25)
        "statistic",
        "standard_error",
        "ci_low",
        "ci_high",
        "pvalue",
        "n",
        "confidence_level",
        "ci_method",
        "interpretation",
        "interpretation_scale",
    ]
    assert df.loc["Fleiss' kappa", "statistic"] == table["fleiss_kappa"].statistic
    json.dumps(table.to_dict(), allow_nan=False)
    assert len(table.summary().splitlines()) == len(table)


def test_html_is_the_coefficient_table_and_escapes() -> None:
    m = pd.DataFrame(
        {
            "a": ["<b>", "x & y", "<b>"],
            "b": ["<b>", "<b>", "x & y"],
            "c": ["<b>", "x & y", "x & y"],
        }
    )
    html = concord.agree(m)._repr_html_()
    assert html.count("<tr>") == 1 + len(PANEL)
    assert "<b>" not in html.replace("<table>", "")
    assert "Krippendorff" in html


def test_confidence_level_is_checked_and_kept() -> None:
    table = concord.agree(_ratings(5), confidence_level=0.9)
    assert table.confidence_level == 0.9
    assert table.to_frame()["confidence_level"].eq(0.9).all()
    with pytest.raises(ValueError, match="'confidence_level' parameter of agree"):
        concord.agree(_ratings(5), confidence_level=1.5)


def test_alpha_alone_follows_the_weights_on_continuous_values() -> None:
    """α alone with quadratic weights is α at the interval level, on non-integral values too."""
    x = np.array([[1.5, 1.5, 2.25], [3.0, 3.25, np.nan], [0.5, 1.0, 0.75], [2.0, 2.0, 2.5]])
    table = concord.agree(x, coefficients="krippendorff_alpha", weights="quadratic")
    _same(table["krippendorff_alpha"], concord.krippendorff_alpha(x, level="interval"))
