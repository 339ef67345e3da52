"""concord.evaluate rounds as RSMTool does: half to even (issue 24, item 13).

RSMTool's ``process_predictions`` rounds the trimmed scores with ``numpy.rint`` and skll's
``kappa`` (RSMTool's unweighted κ) rounds both scores with ``numpy.round``: half to even.
The expected values are ``rsmeval``'s own output (rsmtool 12.0.0, skll 5.0.1) on responses
whose machine scores lie halfway between two score points: tests/reference/rsmtool/halves_*
(see the README there). ``rounding="half-up"`` keeps the former rule as an option.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import concord
from concord._cli.main import main

REF = Path(__file__).parent / "reference" / "rsmtool"


def _data() -> pd.DataFrame:
    return pd.read_csv(REF / "halves_predictions.csv")


def _expected(name: str) -> pd.DataFrame:
    # scale_with "asis": RSMTool's "scale" scores are concord's "raw" ones
    frame = pd.read_csv(REF / f"halves_{name}.csv", index_col=0, keep_default_na=False)
    frame.index = [str(i).replace("scale", "raw") for i in frame.index]
    return frame.astype(float)


def _evaluate(**options: str) -> concord.EvaluationResult:
    data = _data()
    return concord.evaluate(data["sc1"], data["score"], human2=data["sc2"], trim=(1, 4), **options)


def test_the_rounded_scores_are_rsmtools() -> None:
    processed = pd.read_csv(REF / "halves_pred_processed.csv")
    rounded = processed["scale_trim_round"].to_numpy()
    halves = processed["scale_trim"].to_numpy() % 1 == 0.5
    assert halves.sum() >= 10  # most scores are ties
    trimmed = np.clip(_data()["score"].to_numpy(), 1 - 0.4998, 4 + 0.4998)
    np.testing.assert_array_equal(trimmed, processed["scale_trim"].to_numpy())
    assert (rounded == np.rint(trimmed)).all()  # RSMTool's rule, half to even
    assert (rounded[halves] % 2 == 0).all()
    # concord's raw_trim_round are these scores: its eval row matches RSMTool's
    result = _evaluate()
    assert result.rounding == "half-even"


@pytest.mark.parametrize("name", ["eval", "consistency"])
def test_the_tables_match_rsmeval_on_halves(name: str) -> None:
    expected = _expected(name)
    ours = _evaluate().table(name)
    assert list(ours.index) == list(expected.index)
    ours = ours[expected.columns].astype(float)
    # κ, QWK and r: concord's correctly rounded values, within 2 units in the last place
    scale = np.maximum(1.0, np.abs(expected.to_numpy()))
    np.testing.assert_array_less(np.abs(ours.to_numpy() - expected.to_numpy()), 4.5e-16 * scale)


def test_half_up_is_an_option_and_differs_on_halves() -> None:
    expected = _expected("eval")
    up = _evaluate(rounding="half-up").table("eval")
    # sys_mean of the rounded scores: 2.75 half to even (RSMTool), 3.0 half up
    assert expected.loc["raw_trim_round", "sys_mean"] == 2.75
    assert up.loc["raw_trim_round", "sys_mean"] == 3.0
    # κ on raw and raw_trim rounds the scores too (skll's kappa), so it differs there as well
    for row in ("raw", "raw_trim", "raw_trim_round"):
        assert up.loc[row, "kappa"] != pytest.approx(expected.loc[row, "kappa"])
    # scores without a tie round the same either way
    data = _data()
    off = data["score"] % 1 != 0.5
    kept = data[off]
    even = concord.evaluate(kept["sc1"], kept["score"], trim=(1, 4)).table("eval")
    odd = concord.evaluate(kept["sc1"], kept["score"], trim=(1, 4), rounding="half-up")
    pd.testing.assert_frame_equal(even, odd.table("eval"))


def test_rounding_is_checked_and_recorded() -> None:
    with pytest.raises(ValueError, match="'rounding' parameter of evaluate"):
        concord.evaluate([1, 2, 3], [1.5, 2.5, 3.0], rounding="half_up")
    assert _evaluate(rounding="half-up").to_dict()["rounding"] == "half-up"
    assert _evaluate().to_dict()["rounding"] == "half-even"


def test_the_cli_rounds_half_to_even_by_default(tmp_path: Path) -> None:
    path = REF / "halves_predictions.csv"
    base = ["evaluate", str(path), "--human", "sc1", "--machine", "score", "--trim", "1,4"]
    base += ["--format", "json"]
    runs = {}
    for extra in ([], ["--rounding", "half-even"], ["--rounding", "half-up"]):
        out = CliRunner().invoke(main, base + extra)
        assert out.exit_code == 0, out.output
        runs[tuple(extra)] = json.loads(out.output)["evaluation"]
    default = runs[()]
    assert default == runs[("--rounding", "half-even")]
    assert default["rounding"] == "half-even"
    eval_rows = default["tables"]["eval"]
    assert eval_rows["raw_trim_round"]["sys_mean"] == 2.75  # RSMTool's halves_eval.csv
    up = runs[("--rounding", "half-up")]["tables"]["eval"]
    assert up["raw_trim_round"]["sys_mean"] == 3.0
    bad = CliRunner().invoke(main, [*base, "--rounding", "up"])
    assert bad.exit_code == 2 and "half-even" in bad.output
