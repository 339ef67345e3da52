"""Tidy results: to_dict(), to_frame() and the labelled matrices of every registered coefficient.

The keys are the command line's: the expected records are the JSON that ``concord kappa``
and ``concord agree`` print for the same data.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import concord
from concord._cli import main
from tests.registry import DEFINED_ON_ONE_CATEGORY, RESULTS, ids, sample

DIAGNOSES = "tests/reference/multi/fleiss1971_diagnoses.csv"
SUMMARY = [
    "coefficient",
    "function",
    "weighting",
    "statistic",
    "standard_error",
    "confidence_level",
    "ci_method",
    "ci_low",
    "ci_high",
    "pvalue",
    "interpretation",
    "interpretation_scale",
    "observed_agreement",
    "chance_agreement",
]
KAPPA = ["n", "labels", "observed", "weights", "expected", "kappa_max", "costliest_confusions"]


def run(*args: str) -> dict:
    out = CliRunner().invoke(main, list(args))
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def same(frame_value, dict_value) -> bool:
    """A frame cell equals the dict's value; NaN in the frame is None in the dict."""
    if dict_value is None:
        return frame_value is None or bool(pd.isna(frame_value))
    return bool(frame_value == dict_value)


@pytest.mark.parametrize("variant", RESULTS, ids=ids(RESULTS))
def test_to_dict_and_to_frame_of_every_coefficient(variant):
    result = variant(sample(variant, 40, seed=3))
    d = result.to_dict()
    json.dumps(d, allow_nan=False)
    two_raters = isinstance(result, concord.KappaResult)
    assert list(d) == SUMMARY + (KAPPA if two_raters else [])
    assert d["function"] == variant.coefficient.name
    assert d["statistic"] == result.statistic  # unrounded
    assert (d["ci_low"], d["ci_high"]) == tuple(result.confidence_interval())
    frame = result.to_frame()
    scalars = [k for k in d if not isinstance(d[k], list)]
    tidy = ["coefficient", "statistic", "standard_error", "ci_low", "ci_high", "pvalue", "n"]
    assert list(frame.columns[:7]) == tidy  # every result's frame starts so (issue 25)
    named = {"rater1", "rater2"} if two_raters else set()  # the raters' names (issue 25)
    assert frame.shape[0] == 1 and set(frame.columns) == {*scalars, "n", *named}
    n = result.n if two_raters else result.n_items
    assert frame.at[0, "n"] == n
    assert all(same(frame.at[0, k], d[k]) for k in scalars)
    weights = result.weights_frame()
    assert list(weights.index) == list(result.labels) == list(weights.columns)
    np.testing.assert_array_equal(weights.to_numpy(), result.weights)


@pytest.mark.parametrize("variant", RESULTS, ids=ids(RESULTS))
def test_matrices_are_labelled_or_refused(variant):
    result = variant(sample(variant, 40, seed=4))
    labels = list(result.labels)
    if isinstance(result, concord.KappaResult):
        for name in ("observed", "expected", "weights"):
            frame = getattr(result, f"{name}_frame")()
            assert (frame.index.name, frame.columns.name) == ("rater 1", "rater 2")
            assert list(frame.index) == labels == list(frame.columns)
            np.testing.assert_array_equal(frame.to_numpy(), getattr(result, name))
    elif getattr(result, "coincidences", None) is not None:
        observed, expected = result.observed_frame(), result.expected_frame()
        np.testing.assert_array_equal(observed.to_numpy(), result.coincidences)
        # Krippendorff (2011): the expected coincidences keep each value's total n_c
        np.testing.assert_allclose(expected.sum(axis=1), observed.sum(axis=1), rtol=1e-12)
        assert list(expected.index) == labels
    else:
        for method in (result.observed_frame, result.expected_frame):
            with pytest.raises(ValueError, match=r"has no .* matrix"):
                method()


@pytest.mark.parametrize(
    "variant",
    [v for v in RESULTS if v.coefficient.name not in DEFINED_ON_ONE_CATEGORY],
    ids=ids([v for v in RESULTS if v.coefficient.name not in DEFINED_ON_ONE_CATEGORY]),
)
def test_undefined_results_give_none(variant):
    # every rating in one category: no chance disagreement, the coefficient is nan
    v = variant.pool[0]
    data = ([v] * 5, [v] * 5) if variant.pairs else (np.array([[v] * 3] * 5, dtype=object),)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", concord.UndefinedKappaWarning)
        # declared labels nobody used would give gwet_ac and brennan_prediger a chance term
        options = {k: o for k, o in variant.options.items() if k != "labels"}
        result = variant.coefficient.function(*data, **options)
        d = result.to_dict()
        frame = result.to_frame()
    json.dumps(d, allow_nan=False)
    assert d["statistic"] is None and d["ci_low"] is None
    assert d["interpretation"] == "undefined"
    assert math.isnan(frame.at[0, "statistic"])


def test_kappa_to_dict_is_the_cli_json(tmp_path):
    path = tmp_path / "pairs.csv"
    path.write_text("a,b\n1,1\n2,2\n3,2\n1,1\n2,3\n3,3\n1,2\n")
    shown = run("kappa", str(path), "--format", "json", "--weights", "linear")
    frame = pd.read_csv(path)
    r = concord.cohen_kappa(frame["a"], frame["b"], weights="linear")
    assert r.to_dict() == shown


def test_agree_rows_are_to_dict():
    shown = run("agree", DIAGNOSES, "--format", "json", "--ci-method", "wald")
    frame = pd.read_csv(DIAGNOSES)
    for row in shown["coefficients"]:
        r = getattr(concord, row["function"])(frame)
        assert r.to_dict(method="wald") == row


def test_thresholds_to_dict_is_the_cli_json(tmp_path):
    # the cut points' and the cross-validation's fields of concord thresholds --format json
    rng = np.random.default_rng(0)
    truth = rng.integers(1, 4, 60)
    score = truth + rng.normal(0, 0.6, 60)
    path = tmp_path / "scores.csv"
    pd.DataFrame({"truth": truth, "score": score}).to_csv(path, index=False)
    shown = run(
        "thresholds",
        str(path),
        "--truth",
        "truth",
        "--score",
        "score",
        "--seed",
        "1",
        "--format",
        "json",
    )
    frame = pd.read_csv(path)
    best = concord.optimize_thresholds(frame["truth"], frame["score"])
    cv = concord.cross_validated_kappa(frame["truth"], frame["score"], rng=1)
    fitted, folds = best.to_dict(), cv.to_dict()
    json.dumps([fitted, folds], allow_nan=False)
    for key in ("labels", "thresholds", "weights", "statistic", "gap"):
        assert fitted[key] == shown[key]
    assert folds["statistic"] == shown["cross_validated"]
    assert (folds["fold_kappas"], folds["optimism"]) == (shown["fold_kappas"], shown["optimism"])
    row = best.to_frame()
    assert row.shape[0] == 1 and row.at[0, "threshold_1"] == best.thresholds[0]
    assert cv.to_frame().at[0, "n_folds"] == 5


def test_threshold_to_dict_writes_infinite_cuts_as_strings():
    # grade 0 is empty, so its cut point is -inf, which JSON spells as the cut file does
    best = concord.optimize_thresholds([1, 1, 3, 3], [0.1, 0.2, 0.8, 0.9], labels=[0, 1, 3])
    assert best.thresholds[0] == -np.inf
    json.dumps(best.to_dict(), allow_nan=False)
    assert best.to_dict()["thresholds"][0] == "-inf"
