"""concord.intra_rater: per rater across trials, per trial across raters, and R irr's
relInterIntra (Eliasziw et al. 1994) on irr's documented example.

The goniometer data (Eliasziw et al. 1994, table 4; irr 0.84.1's relInterIntra example,
GPL >= 2) are tests/reference/judges/goniometer.csv; relInterIntra.out holds irr's
values, printed by relInterIntra.R.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import concord

pd = pytest.importorskip("pandas")
REF = Path(__file__).parent / "reference" / "judges"


def goniometer():
    wide = pd.read_csv(REF / "goniometer.csv", comment="#")
    long = wide.melt(id_vars="subject", var_name="column", value_name="angle")
    long[["rater", "trial"]] = long.column.str.split("_", expand=True)
    return long.drop(columns="column")


def irr_values() -> dict[str, float]:
    lines = (REF / "relInterIntra.out").read_text().splitlines()
    return {name: float(value) for name, value in (line.split() for line in lines)}


def test_reliabilities_match_irr_relinterintra_on_its_example():
    # irr relInterIntra(x = table4, nrater = 2, raterLabels = c("universal", "Lamoreux"))
    r = concord.intra_rater(
        goniometer(),
        item="subject",
        rater="rater",
        trial="trial",
        rating="angle",
        function=concord.icc,
    )
    rel = r.reliability
    assert rel is not None and rel.raters == ("universal", "Lamoreux")
    irr = irr_values()
    ours = {
        "rohat.rhohat.inter.random": rel.inter_random,
        "rohat.rhohat.intra.random": rel.intra_random,
        "rohat.rhohat.inter.fixed": rel.inter_fixed,
        "rohat.rhohat.intra.fixed": rel.intra_fixed,
        "rohat.rhohat.intra.random.part.universal": rel.intra_random_rater[0],
        "rohat.rhohat.intra.random.part.Lamoreux": rel.intra_random_rater[1],
        "rohat.rhohat.intra.fixed.part.universal": rel.intra_fixed_rater[0],
        "rohat.rhohat.intra.fixed.part.Lamoreux": rel.intra_fixed_rater[1],
        "Fs.Finter": rel.f_inter,
        "Fs.Fintra": rel.f_intra,
        "Fs.Fintra.universal": rel.f_intra_rater[0],
        "Fs.Fintra.Lamoreux": rel.f_intra_rater[1],
        "lowvalue.lowinter.random": rel.low_inter_random,
        "lowvalue.lowinter.fixed": rel.low_inter_fixed,
        "lowvalue.lowintra": rel.low_intra,
        "lowvalue.lowintra.universal": rel.low_intra_rater[0],
        "lowvalue.lowintra.Lamoreux": rel.low_intra_rater[1],
        "sem.SEMintra": rel.sem_intra,
        "sem.SEMintra.part.universal": rel.sem_intra_rater[0],
        "sem.SEMintra.part.Lamoreux": rel.sem_intra_rater[1],
        "sem.SEMinter.random": rel.sem_inter_random,
        "sem.SEMinter.fixed": rel.sem_inter_fixed,
    }
    for name, value in ours.items():
        assert value == pytest.approx(irr[name], abs=1e-9), name
    # irr prints 1 - pf(...) to 10 decimals: 0
    assert rel.p_inter < 1e-10 and rel.p_intra < 1e-10 and (rel.p_intra_rater < 1e-10).all()


def test_per_rater_and_per_trial_are_the_coefficient_on_the_right_columns():
    data = goniometer()
    r = concord.intra_rater(
        data, item="subject", rater="rater", trial="trial", rating="angle", function=concord.icc
    )
    universal = data[data.rater == "universal"].pivot(
        index="subject", columns="trial", values="angle"
    )
    assert r.per_rater["universal"].statistic == concord.icc(universal).statistic
    second = data[data.trial == "2"].pivot(index="subject", columns="rater", values="angle")
    assert r.per_trial["2"].statistic == concord.icc(second).statistic
    assert r.statistic == pytest.approx(
        (r.per_rater["universal"].statistic + r.per_rater["Lamoreux"].statistic) / 2
    )


def judge_runs():
    # a judge and a human, two runs each, on six items (hand-made)
    judge1 = ["ok", "bad", "ok", "ok", "bad", "bad"]
    judge2 = ["ok", "bad", "ok", "bad", "bad", "bad"]
    human1 = ["ok", "bad", "bad", "ok", "bad", "ok"]
    human2 = ["ok", "bad", "bad", "ok", "bad", "ok"]
    rows = []
    for rater, runs in (("judge", (judge1, judge2)), ("human", (human1, human2))):
        for trial, labels in enumerate(runs, start=1):
            rows += [(i, rater, trial, label) for i, label in enumerate(labels)]
    return pd.DataFrame(rows, columns=["item", "rater", "run", "label"])


def test_cohen_kappa_per_rater_is_exact():
    r = concord.intra_rater(judge_runs(), item="item", rater="rater", trial="run", rating="label")
    # judge: p_o 5/6, p_e (3·2 + 3·4)/36 = 1/2 → κ = 2/3; the human repeats itself: κ = 1
    assert Fraction(r.per_rater["judge"].statistic).limit_denominator(100) == Fraction(2, 3)
    assert r.per_rater["human"].statistic == 1.0
    # trial 1: judge vs human: p_o 4/6, p_e (3·3 + 3·3)/36 = 1/2 → κ = 1/3
    assert r.per_trial[1].statistic == pytest.approx(1 / 3)
    assert not r.skipped
    assert r.reliability is None
    tidy = r.to_frame()
    assert list(tidy.scope) == ["mean", "rater", "rater", "trial", "trial"]
    assert {"coefficient", "statistic", "ci_low", "ci_high", "n"} <= set(tidy.columns)
    json.dumps(r.to_dict())
    assert "judge 0.667" in r.summary()
    assert repr(r).startswith("IntraRaterResult(cohen_kappa")
    assert "<table>" in r._repr_html_()


def test_a_single_trial_is_skipped_with_its_reason_and_the_statistic_is_nan():
    data = judge_runs()
    r = concord.intra_rater(
        data[data.run == 1], item="item", rater="rater", trial="run", rating="label"
    )
    assert not r.per_rater and math.isnan(r.statistic)
    assert r.skipped == {"rater judge": "one trial only (1)", "rater human": "one trial only (1)"}
    assert "No rater has two trials" in r.summary()
    assert r.per_trial[1].statistic == pytest.approx(1 / 3)


def test_raters_with_no_overlap_are_skipped_not_a_crash():
    data = judge_runs()
    data.loc[(data.rater == "human") & (data.item < 3), "label"] = np.nan
    data.loc[(data.rater == "judge") & (data.item >= 3), "label"] = np.nan
    r = concord.intra_rater(data, item="item", rater="rater", trial="run", rating="label")
    assert r.skipped["trial 1"] == "no item is rated in both"
    assert set(r.per_rater) == {"judge", "human"}


def test_more_trials_than_a_two_rater_function_takes_says_what_to_pass():
    data = judge_runs()
    third = data[data.run == 2].assign(run=3)
    r = concord.intra_rater(
        pd.concat([data, third]), item="item", rater="rater", trial="run", rating="label"
    )
    assert "pass a many-rater function such as concord.fleiss_kappa" in r.skipped["rater judge"]
    many = concord.intra_rater(
        pd.concat([data, third]),
        item="item",
        rater="rater",
        trial="run",
        rating="label",
        function=concord.fleiss_kappa,
    )
    assert many.per_rater["human"].statistic == 1.0


def test_bad_input_names_the_parameter():
    data = judge_runs()
    with pytest.raises(ValueError, match="'trial' parameter of intra_rater"):
        concord.intra_rater(data, item="item", rater="rater", trial="session", rating="label")
    with pytest.raises(ValueError, match="one rating per item, rater and trial"):
        concord.intra_rater(
            pd.concat([data, data.iloc[:1]]),
            item="item",
            rater="rater",
            trial="run",
            rating="label",
        )
    with pytest.raises(TypeError, match="'function' parameter of intra_rater"):
        concord.intra_rater(
            data, item="item", rater="rater", trial="run", rating="label", function=len
        )


def test_reliability_needs_a_complete_numeric_design():
    data = goniometer().iloc[1:]  # one measurement missing
    r = concord.intra_rater(
        data, item="subject", rater="rater", trial="trial", rating="angle", function=concord.icc
    )
    assert r.reliability is None
    assert r.skipped["reliability"] == "not every rater rated every item in every trial"
