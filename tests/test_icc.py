"""concord.icc against published values, R (irr, irrNA, psych) and pingouin; exactness.

Sources: Shrout & Fleiss (1979) Tables 2 and 4; tests/reference/r/icc_values.json (written
by tests/reference/r/icc.R from irr 0.84.1's icc, irrNA 0.2.3's iccNA and psych 2.2.9's
ICC); tests/reference/icc/pingouin_wine.json (pingouin 0.7.0's intraclass_corr docstring
example, its bundled `icc` data set, GPL-3).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import concord
from concord._results.continuous.icc_anova import FORMS

pd = pytest.importorskip("pandas")
pytest.importorskip("scipy")

HERE = Path(__file__).parent / "reference"
R = json.loads((HERE / "r" / "icc_values.json").read_text())


def data(name: str) -> np.ndarray:
    return pd.read_csv(HERE / "icc" / f"{name}.csv").to_numpy(dtype=float)


SHROUT_FLEISS = data("shrout_fleiss")
ANXIETY = data("anxiety")
EBEL = data("ebel51")
# psych::ICC's rows, in its order
PSYCH = {
    "ICC1": ("oneway", "agreement", "single"),
    "ICC2": ("twoway", "agreement", "single"),
    "ICC3": ("twoway", "consistency", "single"),
    "ICC1k": ("oneway", "agreement", "average"),
    "ICC2k": ("twoway", "agreement", "average"),
    "ICC3k": ("twoway", "consistency", "average"),
}


def test_shrout_fleiss_table_4() -> None:
    # published to two decimals; the exact values as the issue lists them, to four
    published = [0.17, 0.44, 0.29, 0.62, 0.71, 0.91]
    exact = [0.1657, 0.4428, 0.2898, 0.6201, 0.7148, 0.9093]
    got = [r.statistic for r in concord.icc(SHROUT_FLEISS).forms().results]
    assert [round(v, 2) for v in got] == published
    assert [round(v, 4) for v in got] == exact


@pytest.mark.parametrize("key", ["irr_anxiety", "irr_anxiety_r0"])
def test_irr_icc_anxiety(key: str) -> None:
    for e in R[key]:
        r = concord.icc(ANXIETY, model=e["model"], type=e["type"], unit=e["unit"], r0=e["r0"])
        low, high = r.confidence_interval()
        assert r.statistic == pytest.approx(e["value"], abs=1e-13)
        assert r.f_statistic == pytest.approx(e["f"], rel=1e-13)
        assert (r.df1, low, high) == pytest.approx((e["df1"], e["low"], e["high"]), abs=1e-13)
        if e["type"] == "agreement" and e["model"] == "twoway":
            # irr takes the test's df2 from the estimate, McGraw & Wong from r0 (see icc)
            assert r.df2 != pytest.approx(e["df2"])
        else:
            assert (r.df2, r.pvalue) == pytest.approx((e["df2"], e["p"]), abs=1e-13)


@pytest.mark.parametrize("key", ["psych_anxiety", "psych_shrout_fleiss"])
def test_psych_icc(key: str) -> None:
    ref = R[key]
    x = ANXIETY if key == "psych_anxiety" else SHROUT_FLEISS
    for i, name in enumerate(ref["type"]):
        r = concord.icc(x, model=PSYCH[name][0], type=PSYCH[name][1], unit=PSYCH[name][2])
        low, high = r.confidence_interval()
        if name == "ICC2k":  # psych: Spearman-Brown of ICC(A,1)'s bounds; irr: McGraw & Wong's
            k = x.shape[1]
            low, high = (
                k * b / (1 + (k - 1) * b) for b in r.form(*PSYCH["ICC2"]).confidence_interval()
            )
        want = [ref[c][i] for c in ("icc", "f", "df1", "df2", "p", "low", "high")]
        got = [r.statistic, r.f_statistic, r.df1, r.df2, r.pvalue, low, high]
        assert got == pytest.approx(want, rel=1e-11, abs=1e-13)


@pytest.mark.parametrize("key", ["iccna_anxiety", "iccna_ebel51", "iccna_ebel51_rho"])
def test_irrna_iccna(key: str) -> None:
    ref = R[key]
    x = ANXIETY if key == "iccna_anxiety" else EBEL
    forms = concord.icc(x, r0=ref["rho0"]).forms().to_dict()
    assert [f["form"] for f in forms] == ref["forms"]
    for column, name in [
        ("statistic", "icc"),
        ("pvalue", "p"),
        ("ci_low", "low"),
        ("ci_high", "high"),
    ]:
        assert [f[column] for f in forms] == pytest.approx(ref[name], rel=1e-12, abs=1e-13)
    a = concord.icc(x)._anova
    assert float(a.k0) == pytest.approx(ref["k_0"], rel=1e-14)
    two = [a.ss_items_adjusted, a.ss_within + a.ss_items - a.ss_items_adjusted]
    two += [a.ss_raters, a.ss_error, a.ss_total]
    assert [float(v) for v in two] == pytest.approx(ref["twoway_ss"], rel=1e-12)


def test_complete_data_is_balanced() -> None:
    # on complete data the unbalanced estimates are the balanced ones exactly (Shrout &
    # Fleiss 1979, Table 3's mean squares: BMS 11.24, WMS 6.26, JMS 32.49, EMS 1.02)
    a = concord.icc(SHROUT_FLEISS)._anova
    assert a.k0 == 4 and a.ss_items_adjusted == a.ss_items and a.df_error == 15
    ms = {k: round(float(v), 2) for k, v in a.mean_squares().items()}
    assert ms == {"items": 11.24, "within": 6.26, "items_adjusted": 11.24,
                  "raters": 32.49, "error": 1.02}  # fmt: skip


def test_pingouin_wine_long_form() -> None:
    ref = json.loads((HERE / "icc" / "pingouin_wine.json").read_text())["rows"]
    wine = pd.read_csv(HERE / "icc" / "pingouin_wine.csv")
    names = {"ICC(1,1)": "ICC(1)", "ICC(1,k)": "ICC(k)"}
    forms = concord.icc(wine, item="Wine", rater="Judge", rating="Scores").forms().to_dict()
    by_name = {f["form"]: f for f in forms}
    for row in ref:
        f = by_name[names.get(row["Type"], row["Type"])]
        assert (f["statistic"], f["f"], f["df1"], f["df2"]) == pytest.approx(
            (row["ICC"], row["F"], row["df1"], row["df2"]), rel=1e-12
        )
        assert f["pvalue"] == pytest.approx(row["pval"], rel=1e-9)
        assert [round(f["ci_low"], 2), round(f["ci_high"], 2)] == row["CI95"]


def test_explain_interpret_and_names() -> None:
    r = concord.icc(SHROUT_FLEISS, type="consistency", unit="average")
    assert (r.name, r.shrout_fleiss, r.interpret()) == ("ICC(C,k)", "ICC(3,k)", "excellent")
    assert r.interpret("cicchetti") == "excellent"
    text = r.explain()
    assert "residual (MSE)" in text and "0.909316" in text and "Koo & Li 2016" in text
    assert concord.icc(EBEL).explain().count("Ebel 1951") == 1


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="model"):
        concord.icc(ANXIETY, model="threeway")
    with pytest.raises(ValueError, match="r0"):
        concord.icc(ANXIETY, r0=1.0)
    with pytest.raises(ValueError, match="ratings"):
        concord.icc([[1, 2]])
    with pytest.raises(ValueError, match="confidence_level"):
        concord.icc(ANXIETY).confidence_interval(1.5)


def test_bootstrap_twin_and_interval() -> None:
    x = EBEL.copy()
    for form in FORMS:
        r = concord.icc(x, model=form[0], type=form[1], unit=form[2])
        assert r._sampler.statistic(np.ones((1, 3)))[0] == pytest.approx(r.statistic, rel=1e-12)
    r = concord.icc(ANXIETY)
    low, high = r.confidence_interval(method="bootstrap-bca", n_resamples=2000, rng=0)
    assert low < r.statistic < high
    jack, _ = r._sampler.jackknife()
    assert jack[0] == pytest.approx(concord.icc(ANXIETY[1:]).statistic, rel=1e-12)


scores = st.integers(-20, 60)
cell = st.one_of(scores, st.none())


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_merge_is_one_shot_bit_for_bit(draw: st.DataObject) -> None:
    n = draw.draw(st.integers(3, 30))
    rows = draw.draw(st.lists(st.lists(cell, min_size=3, max_size=3), min_size=n, max_size=n))
    x = np.array([[np.nan if v is None else v for v in row] for row in rows], dtype=float)
    x[:3] = np.arange(9).reshape(3, 3)  # enough items and raters
    cut = draw.draw(st.integers(0, n))
    form = draw.draw(st.sampled_from(FORMS))
    options = dict(zip(("model", "type", "unit"), form, strict=True))
    one = concord.icc(x, **options)
    acc = concord.accumulate(concord.icc, **options).update(x[:cut]).update(x[cut:])
    merged = acc.result()
    assert merged.statistic == one.statistic or (
        np.isnan(one.statistic) and np.isnan(merged.statistic)
    )
    assert merged._anova == one._anova  # the same fractions


def test_a_batch_of_only_missing_ratings_adds_nothing() -> None:
    """Found by the merge test: a stream's batch may hold only missing ratings (hypothesis)."""
    x = np.array([[1.0, 2.0, 3.0], [2.0, 2.0, 4.0], [3.0, 5.0, 5.0], [np.nan] * 3])
    acc = concord.accumulate(concord.icc).update(x[:3]).update(x[3:])
    assert acc.result().statistic == concord.icc(x).statistic
    with pytest.raises(ValueError, match="at least one rating"):
        concord.accumulate(concord.icc).update(x[3:]).result()
