"""``concord compare``: both estimates, the paired difference, and CLI errors with exit code 2.

Expected values: concord.compare on the same columns (itself checked against
R pairedCAC in tests/test_compare.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import concord
from concord._cli import main

DATA = Path(__file__).resolve().parents[1] / "data"
SENTIMENT = str(DATA / "seed_sentiment.csv")
ESSAYS = str(DATA / "essays.csv")


def run(*args: str) -> tuple[int, str]:
    out = CliRunner().invoke(main, ["compare", *args])
    return out.exit_code, out.output


def test_truth_form_json_is_the_library_comparison():
    code, text = run(
        SENTIMENT,
        "--truth",
        "gold_standard",
        "--raters",
        "model_1,model_2",
        "--weights",
        "quadratic",
        "--labels",
        "negative,neutral,positive",
        "--format",
        "json",
    )
    assert code == 0, text
    got = json.loads(text)
    df = pd.read_csv(SENTIMENT)
    labels = ["negative", "neutral", "positive"]
    want = concord.compare(
        concord.cohen_kappa,
        (df.gold_standard, df.model_1),
        (df.gold_standard, df.model_2),
        weights="quadratic",
        labels=labels,
    )
    assert got["difference"]["estimate"] == want.difference
    assert got["difference"]["standard_error"] == want.standard_error
    assert got["difference"]["df"] == want.df == 9
    assert got["first"]["raters"] == "model_1" and got["second"]["raters"] == "model_2"
    assert got["first"]["statistic"] == want.first.statistic
    assert got["interpretation"].startswith("model_2 agrees with the truth more than model_1")


def test_panels_text_markdown_csv():
    df = pd.read_csv(ESSAYS)
    want = concord.compare(
        concord.fleiss_kappa, df[["rater1", "rater2"]], df[["rater3", "model_grade"]]
    )
    code, text = run(ESSAYS, "--first", "rater1,rater2", "--second", "rater3,model_grade")
    assert code == 0, text
    assert f"{want.difference:.4f}" in text and "df = 1199" in text
    assert "rater1+rater2 agrees more than rater3+model_grade by 0.11" in text
    code, md = run(
        ESSAYS,
        "--first",
        "rater1,rater2",
        "--second",
        "rater3,model_grade",
        "--format",
        "markdown",
    )
    assert code == 0 and md.count("\n| ") == 3 and "| difference |" in md
    code, csv = run(
        ESSAYS,
        "--first",
        "rater1,rater2",
        "--second",
        "rater3,model_grade",
        "--coefficient",
        "gwet_ac",
        "--format",
        "csv",
    )
    rows = csv.strip().splitlines()
    want = concord.compare(
        concord.gwet_ac, df[["rater1", "rater2"]], df[["rater3", "model_grade"]]
    )
    assert code == 0 and rows[3].split(",")[2] == repr(want.difference)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--truth", "gold_standard", "--raters", "model_1"],
            "Error: --raters needs exactly two columns, e.g. --raters model_a,model_b; got 1.",
        ),
        (
            ["--truth", "gold_standard", "--raters", "model_1,nope"],
            "Error: Invalid value for '--truth'/'--raters': no column 'nope' in "
            f"{SENTIMENT}; it has gold_standard, model_1, model_2.",
        ),
        (
            ["--first", "model_1,model_2"],
            "Error: --second is missing: give --first and --second (two panels), "
            "or --truth and --raters.",
        ),
        (
            ["--raters", "model_1,model_2"],
            "Error: --raters needs --truth: the column both raters are compared with.",
        ),
        (
            [
                "--truth",
                "gold_standard",
                "--raters",
                "model_1,model_2",
                "--coefficient",
                "fleiss_kappa",
            ],
            "Error: --coefficient with --truth must be one of cohen_kappa, scott_pi.",
        ),
    ],
)
def test_errors(args, message):
    code, text = run(SENTIMENT, *args)
    assert code == 2
    assert text.strip().splitlines()[-1] == message
