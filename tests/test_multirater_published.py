"""Published multi-rater values, to the digits their sources print.

Data and values are in tests/reference/multi/ (see tests/reference/README.md):
Fleiss (1971) via R irr; Wikipedia's Fleiss example; Krippendorff (1980,
2004, 2011, 2018); Hayes & Krippendorff (2007); Artstein & Poesio (2008);
Brennan & Prediger (1981); Randolph (2005); R irrCAC (Gwet 2014) outputs and
its Python port's test suite; R pyirr/irr; DKPro Statistics.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import concord

HERE = Path(__file__).parent / "reference" / "multi"
VALUES = {e["id"]: e for e in json.loads((HERE / "values.json").read_text())}


def load(name: str):
    frame = pd.read_csv(HERE / name, skipinitialspace=True)
    if name.endswith("_counts.csv"):
        return concord.CategoryCounts(frame.to_numpy(), labels=[str(c) for c in frame.columns])
    return frame


def close(got: float, published: float, decimals: int | None = None) -> bool:
    """|got − published| ≤ half a unit in the last printed decimal."""
    if decimals is None:
        text = repr(float(published))
        decimals = len(text.split(".")[1]) if "." in text and "e" not in text else 0
    return abs(got - published) <= 0.5 * 10.0**-decimals + 1e-12


def published(entry_id: str) -> dict:
    return VALUES[entry_id]["published"]


# --- Fleiss (1971) diagnoses -------------------------------------------------------------------
def test_fleiss_1971_diagnoses_irr():
    r = concord.fleiss_kappa(load("fleiss1971_diagnoses.csv"))
    p = published("fleiss1971_diagnoses__irr_via_statsmodels")
    assert close(r.statistic, p["fleiss_kappa"])  # irr::kappam.fleiss: 0.4302445
    assert r.category_totals.tolist() == p["category_totals"]
    assert (r.n_items, r.n_raters) == (30, 6)


def test_fleiss_1971_per_category_kappas_irr_detail():
    r = concord.fleiss_kappa(load("fleiss1971_diagnoses.csv"))
    per = published("fleiss1971_diagnoses__pyirr")["fleiss_per_category"]
    for label, value in per.items():
        assert close(r.category_kappas[int(label)], value["kappa"])


def test_fleiss_1971_conger_and_light():
    data = load("fleiss1971_diagnoses.csv")
    p = published("fleiss1971_diagnoses__pyirr")
    assert close(concord.conger_kappa(data).statistic, p["fleiss_kappa_exact_conger"])  # 0.442
    assert close(concord.light_kappa(data).statistic, p["light_kappa"])  # 0.459


def test_fleiss_1971_dkpro_agreements():
    r = concord.fleiss_kappa(load("fleiss1971_diagnoses.csv"))
    p = published("fleiss1971_diagnoses__dkpro")
    # DKPro asserts these with tolerance 0.001; exactly, P_e = 7126/32400 = 0.21994
    assert abs(r.observed_agreement - p["observed_agreement_P_bar"]) <= 0.001  # 0.5556
    assert abs(r.chance_agreement - p["expected_agreement_P_e"]) <= 0.001  # 0.2201
    assert r.chance_agreement == 7126 / 32400


def test_fleiss_wikipedia_example():
    r = concord.fleiss_kappa(load("wikipedia_fleiss_counts.csv"))
    p = published("wikipedia_fleiss_kappa_example")
    assert close(r.statistic, p["fleiss_kappa"])  # 0.210
    assert close(r.observed_agreement, p["P_bar"])  # 0.378
    assert close(r.chance_agreement, p["P_e"])  # 0.213


def test_irr_tutorial_per_category():
    r = concord.fleiss_kappa(load("irr_tutorial_pt_12x6.csv"))
    p = published("irr_tutorial_pt_12x6")
    assert close(r.statistic, p["fleiss_kappa"])
    for label, value in p["fleiss_per_category"].items():
        assert close(r.category_kappas[int(label)], value["kappa"])


def test_seed_sentiment_fleiss_is_0_3857_not_0_3939():
    # The seed's hand computation prints 0.3939: it divides by the number of
    # categories where it means raters (both 3 here, harmless) and then reuses
    # Cohen's p_e = 0.34 from the previous cell instead of Σ p_k² = 0.3489.
    r = concord.fleiss_kappa(load("sentiment_3raters.csv"))
    assert r.statistic == pytest.approx(0.3856655290102387, abs=1e-15)  # statsmodels
    assert r.observed_agreement == pytest.approx(0.6, abs=1e-15)
    wrong = (0.6 - 0.34) / (1 - 0.34)
    assert round(wrong, 4) == 0.3939 and round(r.statistic, 4) == 0.3857


# --- Krippendorff's alpha ----------------------------------------------------------------------
@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_krippendorff_2011(level):
    r = concord.krippendorff_alpha(load("krippendorff_4obs_12units.csv"), level=level)
    p = published("krippendorff2011_4obs_12units_alpha")
    assert close(r.statistic, p[f"krippendorff_alpha_{level}"])
    if f"{level}_D_o" in p:
        assert close(r.observed_disagreement, p[f"{level}_D_o"])
        assert close(r.expected_disagreement, p[f"{level}_D_e"])


@pytest.mark.parametrize(
    ("entry", "data", "checks"),
    [
        ("hayes_krippendorff_2007", "hayes_krippendorff_2007.csv", ["ordinal", "nominal"]),
        (
            "krippendorff_wikipedia_3coders",
            "krippendorff_wikipedia_3coders.csv",
            ["nominal", "interval"],
        ),
        ("krippendorff_1980_p139", "krippendorff_1980_p139.csv", ["nominal", "interval", "ratio"]),
        ("krippendorff_2004_p227", "krippendorff_2004_p227.csv", ["nominal"]),
        ("krippendorff_binary_2obs", "krippendorff_binary_2obs.csv", ["nominal"]),
    ],
)
def test_krippendorff_books(entry, data, checks):
    p = published(entry)
    for level in checks:
        r = concord.krippendorff_alpha(load(data), level=level)
        assert close(r.statistic, p[f"krippendorff_alpha_{level}"]), level


def test_krippendorff_2018_truncates():
    # the book prints .2343; the data give 15/64 = 0.234375 exactly (it truncates)
    r = concord.krippendorff_alpha(load("krippendorff_2018_p306.csv"))
    assert r.statistic == 15 / 64
    assert (
        abs(r.statistic - published("krippendorff_2018_p306")["krippendorff_alpha_nominal"]) < 1e-4
    )


def test_krippendorff_disagreements_in_the_books():
    r = concord.krippendorff_alpha(load("krippendorff_1980_p139.csv"))
    p = published("krippendorff_1980_p139")
    assert close(r.observed_disagreement, p["nominal_D_o"])
    assert close(r.expected_disagreement, p["nominal_D_e"])
    r = concord.krippendorff_alpha(load("krippendorff_2004_p227.csv"))
    p = published("krippendorff_2004_p227")
    assert close(r.observed_disagreement, p["D_o"]) and close(r.expected_disagreement, p["D_e"])


# --- irrCAC (Gwet 2014), R vignette outputs: cac.raw4raters ------------------------------------
FUNCTIONS = {
    "percent_agreement": concord.percent_agreement,
    "gwet_ac1": concord.gwet_ac,
    "gwet_ac2": concord.gwet_ac,
    "gwet_ac": concord.gwet_ac,
    "fleiss_kappa": concord.fleiss_kappa,
    "krippendorff_alpha": concord.krippendorff_alpha,
    "conger_kappa": concord.conger_kappa,
    "brennan_prediger": concord.brennan_prediger,
}


def compute(name: str, data, weights):
    func = FUNCTIONS[name]
    if func is concord.krippendorff_alpha:
        level = {None: "nominal", "quadratic": "interval"}[weights]
        return func(data, level=level)
    return func(data, weights=weights)


@pytest.mark.parametrize("key", sorted(published("gwet_cac_raw4raters__irrCAC")))
def test_irrcac_raw4raters(key):
    value = published("gwet_cac_raw4raters__irrCAC")[key]
    name, weights = (
        (key[: -len("_quadratic")], "quadratic") if key.endswith("_quadratic") else (key, None)
    )
    name = name.removesuffix("_nominal")
    r = compute(name, load("krippendorff_4obs_12units.csv"), weights)
    assert close(r.statistic, value["coeff"])
    assert close(r.observed_agreement, value["pa"])
    assert close(r.chance_agreement, value["pe"])


def _port_cases():
    port = published("gwet_cac_raw4raters__irrCAC_python_port")
    for name in ("fleiss_kappa", "gwet_ac", "conger_kappa", "brennan_prediger"):
        for weights, value in port[name].items():
            yield name, weights, value


@pytest.mark.parametrize(("name", "weights", "value"), list(_port_cases()))
def test_irrcac_port_weight_families(name, weights, value):
    # the Python port of irrCAC asserts every weight family to 3 decimals
    matrix = published("gwet_cac_raw4raters__irrCAC_python_port")["custom_weight_matrix"]
    w = {"unweighted": None, "custom_matrix": 1 - np.array(matrix)}.get(weights, weights)
    r = FUNCTIONS[name](load("krippendorff_4obs_12units.csv"), weights=w)
    assert close(r.statistic, value["coeff"])
    assert close(r.observed_agreement, value["pa"])
    assert close(r.chance_agreement, value["pe"])


@pytest.mark.parametrize(
    "entry",
    [
        "gwet_cac_raw5obser__irrCAC_python_port",
        "gwet_cac_raw_g1g2__irrCAC_python_port",
        "gwet_cac_raw_gender__irrCAC_python_port",
        "gwet_cac_ben_gerry__irrCAC_python_port",
    ],
)
def test_irrcac_example_datasets(entry):
    data = load(VALUES[entry]["data"])
    for key, value in published(entry).items():
        r = compute(key.removesuffix("_nominal"), data, None)
        assert close(r.statistic, value["coeff"]), key
        assert close(r.observed_agreement, value["pa"]), key
        assert close(r.chance_agreement, value["pe"]), key


@pytest.mark.parametrize("key", sorted(published("gwet_distrib_6raters__irrCAC")))
def test_irrcac_counts_form(key):
    value = published("gwet_distrib_6raters__irrCAC")[key]
    name, weights = (
        (key[: -len("_quadratic")], "quadratic") if key.endswith("_quadratic") else (key, None)
    )
    r = compute(name.removesuffix("_nominal"), load("distrib_6raters_counts.csv"), weights)
    assert close(r.statistic, value["coeff"])
    assert close(r.observed_agreement, value["pa"])
    assert close(r.chance_agreement, value["pe"])


def test_irrcac_dist4cat_ac1():
    r = concord.gwet_ac(load("cac_dist4cat_counts.csv"))
    assert close(r.statistic, published("gwet_cac_dist4cat__irrCAC")["gwet_ac1"])


# --- two-rater papers --------------------------------------------------------------------------
def _two(name):
    frame = load(name)
    return frame.iloc[:, 0], frame.iloc[:, 1]


@pytest.mark.parametrize("example", ["ex1", "ex2"])
def test_artstein_poesio(example):
    a, b = _two(f"artstein_poesio_2008_{example}.csv")
    p = published(f"artstein_poesio_2008_{example}")
    assert close(concord.scott_pi(a, b).statistic, p["scott_pi"])
    assert close(concord.cohen_kappa(a, b).statistic, p["cohen_kappa"])
    assert close(concord.brennan_prediger(np.column_stack([a, b])).statistic, p["bennett_S"])
    assert close(
        concord.percent_agreement(np.column_stack([a, b])).statistic, p["observed_agreement_A_o"]
    )
    if "krippendorff_alpha_nominal" in p:
        assert close(
            concord.krippendorff_alpha(np.column_stack([a, b])).statistic,
            p["krippendorff_alpha_nominal"],
        )


def test_artstein_poesio_weighted():
    # distance 0.5 when either label is 'chck', 1 for any other disagreement
    a, b = _two("artstein_poesio_2008_ex2.csv")
    p = published("artstein_poesio_2008_ex2")
    labels = ["stat", "ireq", "chck"]
    d = np.array([[0, 1, 0.5], [1, 0, 0.5], [0.5, 0.5, 0]])
    assert close(
        concord.cohen_kappa(a, b, weights=d, labels=labels).statistic, p["weighted_kappa"]
    )
    alpha = concord.krippendorff_alpha(np.column_stack([a, b]), level=d, labels=labels)
    assert close(alpha.statistic, p["krippendorff_alpha_weighted"])


@pytest.mark.parametrize("example", ["ex1", "ex2"])
def test_brennan_prediger_1981(example):
    a, b = _two(f"brennan_prediger_1981_{example}.csv")
    p = published("brennan_prediger_1981")[example]
    assert close(
        concord.brennan_prediger(np.column_stack([a, b])).statistic, p["brennan_prediger_S"]
    )
    assert close(concord.cohen_kappa(a, b).statistic, p["cohen_kappa"])


@pytest.mark.parametrize("example", ["a", "b"])
def test_krippendorff_2004_p246(example):
    a, b = _two(f"krippendorff_2004_p246{example}.csv")
    p = published("krippendorff_2004_p246_variants")[f"p246{example}"]
    assert close(concord.scott_pi(a, b).statistic, p["scott_pi"])
    assert close(concord.cohen_kappa(a, b).statistic, p["cohen_kappa"])
    assert close(concord.brennan_prediger(np.column_stack([a, b])).statistic, p["bennett_S"])


@pytest.mark.parametrize("example", ["ex1", "ex2"])
def test_randolph_2005(example):
    data = load(f"randolph_2005_{example}.csv")
    p = published("randolph_2005_examples")[example]
    assert close(concord.fleiss_kappa(data).statistic, p["fleiss_kappa"])
    assert close(concord.brennan_prediger(data).statistic, p["randolph_free_marginal_kappa"])


@pytest.mark.parametrize("table", ["t1", "t2", "t3"])
def test_randolph_online_calculator(table):
    data = load(f"randolph_calc_{table}_counts.csv")
    p = published("randolph_online_calculator_tables")[table]
    assert close(concord.percent_agreement(data).statistic, p["percent_overall_agreement"])
    assert close(concord.fleiss_kappa(data).statistic, p["fleiss_fixed_marginal_kappa"])
    assert close(concord.brennan_prediger(data).statistic, p["randolph_free_marginal_kappa"])


def _printed_matrix(lines: list[str], start: int, k: int) -> np.ndarray:
    """Parse the k rows after the header line ``start`` of an explain() matrix."""
    return np.array(
        [[float(x) for x in line.split()[1:]] for line in lines[start + 1 : start + 1 + k]]
    )


def _printed_value(line: str) -> float:
    return float(line.rsplit("=", 1)[1])


@pytest.mark.parametrize("level", ["ordinal", "interval", "nominal", "ratio"])
def test_alpha_explain_can_be_redone_by_hand(level):
    # Krippendorff (2011)'s data (data/krippendorff2011.csv): D_o and D_e follow from the
    # printed coincidence matrix, its totals n_c and the δ² table, to the printed digits
    data = pd.read_csv(Path(__file__).parents[1] / "data" / "krippendorff2011.csv")
    r = concord.krippendorff_alpha(data.drop(columns="unit"), level=level)
    lines = r.explain().splitlines()
    k = len(r.labels)
    coincidence = lines.index("2. Coincidence matrix o_ck and its totals n_c = Σ_k o_ck") + 1
    o = _printed_matrix(lines, coincidence, k)
    n_c = np.array(
        [float(part.split(": ")[1]) for part in lines[coincidence + 1 + k][9:].split(", ")]
    )
    delta = _printed_matrix(lines, lines.index(f"3. Distances δ²_ck ({level} metric)") + 1, k)
    n = float(lines[2].rsplit("=", 1)[1])  # "1. Pairable values n.. = 40"
    d_o = _printed_value(next(x for x in lines if x.startswith("D_o =")))
    d_e = _printed_value(next(x for x in lines if x.startswith("D_e =")))
    assert n == 40 and np.allclose(o.sum(axis=1), n_c, rtol=1e-9)
    assert (o * delta).sum() / n == pytest.approx(d_o, rel=1e-9)
    assert n_c @ delta @ n_c / (n * (n - 1)) == pytest.approx(d_e, rel=1e-9)
    # Krippendorff (2011) reports α = 0.743 nominal, 0.815 ordinal, 0.849 interval, 0.797 ratio
    published = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}
    assert round(1 - d_o / d_e, 3) == published[level]
