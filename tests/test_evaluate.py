"""concord.evaluate against RSMTool's own experiment ``lr-eval-with-h2`` and its PRMSE tests.

Expected values: the CSV tables RSMTool keeps for the experiment
(tests/reference/rsmtool/, copied from EducationalTestingService/rsmtool at
commit a844f716, Apache-2.0; see the README there), and the PRMSE values of
RSMTool's tests/test_utils_prmse.py on its 10,000-response data sets.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import concord

REF = Path(__file__).parent / "reference" / "rsmtool"
PREFIX = "lr_eval_with_h2_"
# RSMTool's experiment (scale_with "asis") calls the given scores "scale"; concord's
# scale=False names the same scores "raw".
TABLES = [
    "eval",
    "consistency",
    "degradation",
    "disattenuated_correlations",
    "true_score_eval",
    "eval_by_L1",
    "consistency_by_L1",
    "disattenuated_correlations_by_L1",
    "eval_by_QUESTION",
    "consistency_by_QUESTION",
    "disattenuated_correlations_by_QUESTION",
]
# Means, SDs, SMD, RMSE, R², agreements and N: RSMTool's arithmetic, repeated operation
# by operation, so these are RSMTool's numbers bit for bit on the whole data.
SAME_ARITHMETIC = ["N", "h_mean", "h_sd", "h_min", "h_max", "sys_mean", "sys_sd", "sys_min"]
SAME_ARITHMETIC += ["R2", "exact_agr", "adj_agr", "SMD", "RMSE"]


@pytest.fixture(scope="module")
def result() -> concord.EvaluationResult:
    data = pd.read_csv(REF / "predictions_scaled_with_subgroups.csv")
    return concord.evaluate(
        data["h1"], data["score"], human2=data["h2"], groups=data[["QUESTION", "L1"]], trim=(1, 6)
    )


def _expected(name: str) -> pd.DataFrame:
    frame = pd.read_csv(REF / f"{PREFIX}{name}.csv", index_col=0, keep_default_na=False)
    frame.index = [str(i).replace("scale", "raw") for i in frame.index]
    frame.columns = [c.replace("scale", "raw") for c in frame.columns]
    return frame.astype(float)


@pytest.mark.parametrize("name", TABLES)
def test_rsmtool_tables(result: concord.EvaluationResult, name: str) -> None:
    """Every number of every table within 4.5e-16 × max(1, |value|) of RSMTool's.

    κ, QWK and r are concord's correctly rounded values from exact sums; RSMTool's
    floating-point ones differ from them by 1-2 units in the last place (and between
    RSMTool's own runs: its CSV has wtkappa ...0529, its formula on numpy 2.4 ...0527).
    Differences (degradation, DSM near 0) inherit that absolute error.
    """
    expected = _expected(name)
    ours = result.table(name)
    assert list(ours.index) == list(expected.index)
    assert set(expected.columns) <= set(ours.columns)
    ours = ours[expected.columns].astype(float)
    scale = np.maximum(1.0, np.abs(expected.to_numpy()))
    np.testing.assert_array_less(np.abs(ours.to_numpy() - expected.to_numpy()), 4.5e-16 * scale)


@pytest.mark.parametrize("group", ["L1", "QUESTION"])
@pytest.mark.parametrize(
    "name", ["fairness_metrics", "estimates_osa", "estimates_osd", "estimates_csd"]
)
def test_rsmtool_fairness(result: concord.EvaluationResult, name: str, group: str) -> None:
    """OSA, OSD and CSD (Loukina et al. 2019): RSMTool fits them with statsmodels, concord
    with numpy's least squares; estimates, p-values and intervals agree within 1e-12."""
    expected = pd.read_csv(REF / f"{PREFIX}{name}_by_{group}.csv", index_col=0)
    ours = result.table(f"{name}_by_{group}")
    assert sorted(ours.index) == sorted(expected.index)  # RSMTool's row order is concat's
    numbers = expected.select_dtypes("number").columns
    got = ours.loc[expected.index, numbers].astype(float).to_numpy()
    np.testing.assert_allclose(got, expected[numbers].to_numpy(), rtol=0, atol=1e-12)
    if name == "fairness_metrics":
        assert (ours["base_category"] == expected["base_category"]).all()


def test_rsmtool_same_arithmetic_is_bit_for_bit(result: concord.EvaluationResult) -> None:
    expected = _expected("eval")
    ours = result.table("eval")
    for column in SAME_ARITHMETIC:
        assert ours[column].tolist() == expected[column].tolist(), column
    consistency = result.table("consistency")
    assert consistency["exact_agr"].iloc[0] == 72.5  # the human-human example
    assert consistency["SMD"].iloc[0] == _expected("consistency")["SMD"].iloc[0]


def test_rsmtool_headline_values(result: concord.EvaluationResult) -> None:
    """The issue's examples: wtkappa (scale_trim) and PRMSE, within an ulp or two."""
    wtkappa = result.eval["raw_trim"]["wtkappa"]
    for rsmtool in (0.7797696841910527, 0.7797696841910529):
        assert abs(wtkappa - rsmtool) <= 2 * np.spacing(rsmtool)
    prmse = result.true_score["raw_trim"].prmse_true
    assert abs(prmse - 0.6696885002619487) <= np.spacing(0.6696885002619487)


def test_inference_rides_along(result: concord.EvaluationResult) -> None:
    """κ and QWK carry concord's SEs: the same as cohen_kappa's and concordance_correlation's."""
    data = pd.read_csv(REF / "predictions_scaled_with_subgroups.csv")
    row = result.table("eval", inference=True).loc["raw_trim_round"]
    kappa = concord.cohen_kappa(data["h1"], result_scores(data["score"]))
    assert row["kappa_se"] == kappa.standard_error
    ccc = concord.concordance_correlation(data["h1"], result_scores(data["score"]))
    assert (row["wtkappa_se"], row["wtkappa_ci_low"]) == (ccc.standard_error, ccc.interval.low)


def result_scores(machine: pd.Series) -> np.ndarray:
    return np.floor(np.clip(machine.to_numpy(), 1 - 0.4998, 6 + 0.4998) + 0.5)


@pytest.mark.parametrize(
    ("file", "single", "values"),
    [
        ("prmse_data.csv", 0, (0.509375, 0.7765515, 0.3564625, 0.5409673)),
        ("prmse_data_sparse_matrix.csv", 3421, (0.5150882, 0.769816, 0.3550792, 0.538748)),
    ],
)
def test_prmse_four_raters(file: str, single: int, values: tuple[float, ...]) -> None:
    """RSMTool's test_utils_prmse.py: four raters, complete and partially double-scored."""
    data = pd.read_csv(REF / file)
    result = concord.evaluate(data["h1"], data["system"], human2=data[["h2", "h3", "h4"]])
    row = result.true_score["raw"]
    assert (row.n, row.n_raters, row.n_single) == (10000, 4, single)
    got = (row.variance_of_errors, row.true_score_variance, row.mse_true, row.prmse_true)
    np.testing.assert_allclose(got, values, atol=5e-7)


@pytest.mark.filterwarnings("ignore::concord.UndefinedKappaWarning")
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=2, max_size=40))
def test_continuous_qwk_is_qwk_on_integers(pairs: list[tuple[int, int]]) -> None:
    """Haberman's QWK on integer scores equals quadratic_weighted_kappa (value-spaced weights)."""
    human = np.array([p[0] for p in pairs])
    machine = np.array([p[1] for p in pairs])
    wtkappa = concord.evaluate(human, machine, trim=(0, 6)).eval["raw"]["wtkappa"]
    qwk = concord.quadratic_weighted_kappa(human, machine)
    assert wtkappa == qwk or (math.isnan(wtkappa) and math.isnan(qwk))


def test_rounding_half_up_is_an_option() -> None:
    # the default, half to even as RSMTool, is tested in tests/test_evaluate_rounding.py
    machine = [1.5, 2.5, 2.4999, 4.0]
    result = concord.evaluate([1, 2, 3, 4], machine, trim=(1, 4), rounding="half-up")
    assert result.table("eval").loc["raw_trim_round", "sys_mean"] == (2 + 3 + 2 + 4) / 4


def test_scale_adds_scaled_types_and_flags_use_them() -> None:
    rng = np.random.default_rng(7)
    human = rng.integers(1, 6, 300).astype(float)
    machine = 0.1 * human + rng.normal(0, 1, 300)
    result = concord.evaluate(human, machine, trim=(1, 5), scale=True)
    assert result.score_types[3:] == ("scale", "scale_trim", "scale_trim_round")
    scaled = result.table("eval").loc["scale"]
    assert math.isclose(scaled["sys_mean"], scaled["h_mean"]) and result.primary == "scale_trim"
    assert {f.metric for f in result.flags} >= {"wtkappa", "corr"}
    assert all(f.threshold == 0.70 and f.value < 0.70 for f in result.flags if f.metric == "corr")


def test_flags_carry_their_threshold() -> None:
    human = np.array([1, 2, 3, 4, 5] * 20, dtype=float)
    result = concord.evaluate(human, human + 0.6, trim=(1, 5))
    smd = [f for f in result.flags if f.metric == "SMD"]
    assert smd and smd[0].threshold == 0.15 and smd[0].rule == "|x| > 0.15"
    assert "SMD" in result.explain() and "flag" in result.summary()


def test_exclude_zero_and_to_dict() -> None:
    result = concord.evaluate([0, 1, 2, 3, 2], [0.2, 1.1, 2.3, 2.8, 1.7], exclude_zero=True)
    assert (result.n, result.n_excluded, result.trim) == (4, 1, (1.0, 3.0))
    record = result.to_dict()
    row = record["tables"]["eval"]["raw"]
    assert row["N"] == 4 and "kappa_se" in row
    assert "<table>" in result._repr_html_()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"machine": [1.0, 2.0]}, "as long as 'human'"),
        ({"machine": ["a", "b", "c"]}, "numeric scores"),
        ({"machine": [1.0, float("nan"), 2.0]}, "RSMTool drops"),
        ({"trim": (5, 1)}, "min < max"),
        ({"trim": "1-6"}, "pair"),
        ({"trim_tolerance": -1}, ">= 0"),
        ({"human2": [1, 2]}, "as long as 'human'"),
        ({"groups": ["a", "b"]}, "one label per response"),
    ],
)
def test_errors(kwargs: dict[str, object], message: str) -> None:
    args = {"machine": [1.0, 2.0, 3.0]} | kwargs
    machine = args.pop("machine")
    with pytest.raises((ValueError, TypeError), match=message):
        concord.evaluate([1, 2, 3], machine, **args)  # type: ignore[arg-type]


@pytest.mark.filterwarnings("error")
def test_singleton_groups_give_nan_quietly() -> None:
    """A group of one response has no SD, r or fairness fit: nan, as in RSMTool's tables."""
    result = concord.evaluate([1, 2, 3], [1.2, 2.5, 2.9], groups=["a", "b", "c"])
    by_group = result.table("eval_by_group")
    assert math.isnan(by_group.loc["a", "h_sd"]) and math.isnan(by_group.loc["a", "corr.raw_trim"])
    assert result.table("fairness_metrics_by_group").loc["R2"].isna().iloc[:3].all()


def test_a_shifted_group_is_flagged_by_dsm() -> None:
    rng = np.random.default_rng(3)
    human = rng.integers(1, 6, 400).astype(float)
    group = np.repeat(["x", "y"], 200)
    machine = human + rng.normal(0, 0.3, 400) + np.where(group == "y", 0.4, 0.0)
    result = concord.evaluate(human, machine, groups={"site": group}, trim=(1, 5))
    dsm = {f.group: f for f in result.flags if f.metric == "DSM"}
    assert set(dsm) == {"site=x", "site=y"} and dsm["site=y"].value > 0.10
    assert dsm["site=y"].rule == "|x| > 0.10"


def test_series_pair_by_index_label(result: concord.EvaluationResult) -> None:
    """RSMTool reads one row per response; Series given in other row orders must pair by label.

    Expected: the RSMTool fixture's evaluation (the ``result`` fixture), whose rows are
    already paired, against the same columns with every column but ``h1`` shuffled.
    """
    data = pd.read_csv(REF / "predictions_scaled_with_subgroups.csv")
    order = np.random.default_rng(1).permutation(len(data))
    shuffled = data.iloc[order]
    again = concord.evaluate(
        data["h1"],
        shuffled["score"],
        human2=shuffled["h2"],
        groups=shuffled[["QUESTION", "L1"]],
        trim=(1, 6),
    )
    for name in ("eval", "consistency", "eval_by_L1", "true_score_eval", "fairness_metrics_by_L1"):
        pd.testing.assert_frame_equal(again.table(name), result.table(name))
    with pytest.raises(ValueError, match="'machine' parameter of evaluate"):
        concord.evaluate(data["h1"], data["score"].set_axis(data.index + 1000))


@pytest.mark.parametrize(
    ("human", "machine", "kwargs", "message"),
    [
        ([], [], {}, "'human' parameter of evaluate must be non-empty"),
        ([1, 2], [], {}, "'machine' parameter of evaluate must be non-empty"),
        ([0, 0], [0.1, 0.2], {"exclude_zero": True}, "exclude_zero=False"),
    ],
)
def test_nothing_to_evaluate(
    human: list[int], machine: list[float], kwargs: dict[str, bool], message: str
) -> None:
    # an empty list read as "numeric scores, got dtype object"; exclude_zero leaving
    # nothing raised numpy's "zero-size array to reduction operation minimum"
    with pytest.raises(ValueError, match=message):
        concord.evaluate(human, machine, **kwargs)


@pytest.mark.parametrize(("human", "machine"), [([1, 2, 3], [2.0, 2.0, 2.0]), ([2], [2.5])])
def test_scale_refuses_machine_scores_without_sd(human: list[int], machine: list[float]) -> None:
    # z = (m − mean) / SD is 0/0 here: it raised cohen_kappa's "nan_policy" error from inside
    with pytest.raises(ValueError, match="'scale' parameter of evaluate"):
        concord.evaluate(human, machine, scale=True)
    assert concord.evaluate(human, machine).n == len(human)


def test_trim_tolerance_takes_numpy_scalars() -> None:
    # a tolerance read from an array (np.float32) was refused as "not a finite number >= 0"
    ref = concord.evaluate([1, 2, 3], [0.2, 2.5, 3.9], trim_tolerance=0.25)
    r = concord.evaluate([1, 2, 3], [0.2, 2.5, 3.9], trim_tolerance=np.float32(0.25))
    assert r.eval["raw_trim"]["sys_min"] == ref.eval["raw_trim"]["sys_min"] == 0.75
    with pytest.raises(ValueError, match="trim_tolerance"):
        concord.evaluate([1, 2, 3], [0.2, 2.5, 3.9], trim_tolerance=True)


def test_a_group_named_all_data_is_refused() -> None:
    # RSMTool's tables name the whole data "All data": a group of that name replaced its row
    with pytest.raises(ValueError, match="'groups' parameter of evaluate"):
        concord.evaluate([1, 2, 3, 2], [1.1, 2.2, 2.9, 2.4], groups=["All data", "b", "b", "b"])


@pytest.mark.parametrize(
    "groups",
    [
        [1, 1, 2, 2, None, 1, 2, 1],  # a missing label would have made a group "None"
        [1.0, 2.0, float("nan"), 1, 2, 1, 2, 1],
        [1, "1", 2, 2, 1, 1, 2, 2],  # one group or two? they print alike
        [1, 1.0, 2, 2, 1, 1, 2, 2],  # equal, but print differently
    ],
)
def test_group_labels_that_are_missing_or_ambiguous_are_errors(groups):
    human = np.array([1, 2, 3, 4, 2, 3, 4, 1.0])
    with pytest.raises(ValueError, match="'groups' parameter of evaluate"):
        concord.evaluate(human, human + 0.3, groups=groups)


def test_whole_score_levels_are_counted_as_numpy_unique_finds_them() -> None:
    """label_codes counts whole numbers of a short range instead of sorting them.

    Reference: ``np.unique(x, return_inverse=True)``, the same values, dtype and codes.
    """
    from concord._studies.evaluate.evaluate_inputs import _unique_numbers

    rng = np.random.default_rng(0)
    cases = [
        rng.integers(1, 7, 1000).astype(float),
        rng.integers(-5, 7, 1000),
        rng.integers(-128, 128, 1000).astype(np.int8),
        rng.integers(0, 60000, 10**5).astype(np.uint16),
        rng.integers(1, 7, 100).astype(np.float32),
        np.array([2**63 + 5, 2**63, 2**63 + 7] * 10, dtype=np.uint64),
        np.array([2.0**60, 2.0**60 + 256] * 300),
        np.array([1.5, 2.0, 1.5]),
        np.array([1.0, np.nan, 2.0]),
        np.array([1.0, np.inf, 2.0]),
        rng.integers(0, 10**6, 100),
    ]
    for x in cases:
        distinct, codes = _unique_numbers(x)
        expected, inverse = np.unique(x, return_inverse=True)
        assert distinct.dtype == expected.dtype
        np.testing.assert_array_equal(distinct, expected)
        np.testing.assert_array_equal(codes, inverse)
