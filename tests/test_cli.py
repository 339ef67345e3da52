"""The command line, through click's test runner: output, JSON, and one-line errors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import concord
from concord._cli import main

SENTIMENT = """gold,model
positive,positive
neutral,neutral
negative,negative
positive,neutral
neutral,neutral
positive,positive
negative,positive
neutral,neutral
positive,positive
negative,neutral
"""


@pytest.fixture
def csv_file(tmp_path):
    path = tmp_path / "ratings.csv"
    path.write_text(SENTIMENT)
    return str(path)


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_text_output(csv_file):
    out = run("kappa", csv_file, "--rater1", "gold", "--rater2", "model")
    assert out.exit_code == 0, out.output
    for fragment in (
        "n = 10 pairs",
        "Observed matrix O",
        "Weight matrix W",
        "Expected matrix E",
        "= 0.545455",
        "moderate",
    ):
        assert fragment in out.output


def test_json_output_is_unrounded(csv_file):
    out = run(
        "kappa",
        csv_file,
        "--rater1",
        "gold",
        "--rater2",
        "model",
        "--weights",
        "quadratic",
        "--labels",
        "negative,neutral,positive",
        "--format",
        "json",
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    expected = concord.cohen_kappa(
        [
            "positive",
            "neutral",
            "negative",
            "positive",
            "neutral",
            "positive",
            "negative",
            "neutral",
            "positive",
            "negative",
        ],
        [
            "positive",
            "neutral",
            "negative",
            "neutral",
            "neutral",
            "positive",
            "positive",
            "neutral",
            "positive",
            "neutral",
        ],
        weights="quadratic",
        labels=["negative", "neutral", "positive"],
    )
    assert data["statistic"] == expected.statistic
    assert data["labels"] == ["negative", "neutral", "positive"]
    assert data["observed"] == expected.observed.tolist()
    assert data["weighting"] == "quadratic" and data["n"] == 10


def test_stdin(csv_file):
    out = run("kappa", "-", "--rater1", "gold", "--rater2", "model", input=SENTIMENT)
    assert out.exit_code == 0 and "0.545455" in out.output


def test_numeric_labels_option(tmp_path):
    path = tmp_path / "g.csv"
    path.write_text("a,b\n1,1\n2,3\n3,3\n")
    out = run(
        "kappa",
        str(path),
        "--rater1",
        "a",
        "--rater2",
        "b",
        "--labels",
        "1,2,3,4",
        "--format",
        "json",
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["labels"] == [1, 2, 3, 4]


def test_missing_column_lists_columns(csv_file):
    out = run("kappa", csv_file, "--rater1", "gold", "--rater2", "nope")
    assert out.exit_code == 1
    assert out.output.strip().splitlines() == [
        f"Error: {csv_file}: no column 'nope' for --rater2. Columns: gold, model."
    ]


def test_missing_file():
    out = run("kappa", "no/such.csv", "--rater1", "a", "--rater2", "b")
    assert out.exit_code == 1 and "no/such.csv: no such file" in out.output


def test_data_error_is_one_line(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("a,b\n1,1.5\n2,2\n")
    out = run("kappa", str(path), "--rater1", "a", "--rater2", "b")
    assert out.exit_code == 1
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and "integral" in lines[0] and str(path) in lines[0]


def test_missing_values_need_a_policy(tmp_path):
    path = tmp_path / "na.csv"
    path.write_text("a,b\n1,1\n2,\n3,3\n")
    out = run("kappa", str(path), "--rater1", "a", "--rater2", "b")
    assert out.exit_code == 1 and "nan_policy='omit'" in out.output
    out = run("kappa", str(path), "--rater1", "a", "--rater2", "b", "--nan-policy", "omit")
    assert out.exit_code == 0 and "n = 2 pairs" in out.output


def test_usage_error_exit_code(csv_file):
    out = run("kappa", csv_file, "--rater1", "gold", "--rater2", "model", "--weights", "cubic")
    assert out.exit_code == 2


def test_help_has_an_example():
    for args in (["--help"], ["kappa", "--help"]):
        out = run(*args)
        assert out.exit_code == 0 and "concord kappa essays.csv" in out.output
