"""``concord bland-altman``: the library's numbers in every format, and its errors in CLI words.

Source of the data: Bland & Altman (1986), Lancet 327(8476), 307-310, Table 1 (data/pefr.csv);
the values printed are the library's (tests/test_continuous.py checks those against the paper).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import concord
from concord._cli.main import main
from concord._common.jsonable import jsonable

ROOT = Path(__file__).resolve().parents[1]
PEFR = str(ROOT / "data" / "pefr.csv")
COLUMNS = ["--x", "wright", "--y", "mini_wright"]
WRIGHT = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178, 423, 427]
MINI = [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260, 477, 259, 350, 451]
# the columns' names flow into the results (issue 25): the library given named Series
NAMED = (pd.Series(WRIGHT, name="wright"), pd.Series(MINI, name="mini_wright"))


def run(*args):
    out = CliRunner().invoke(main, ["bland-altman", *args])
    return out.exit_code, out.output


def test_the_file_is_the_paper_s_table():
    rows = list(csv.DictReader(io.StringIO(Path(PEFR).read_text())))
    assert [int(r["wright"]) for r in rows] == WRIGHT
    assert [int(r["mini_wright"]) for r in rows] == MINI


def test_json_is_the_library_s_results():
    code, text = run(PEFR, *COLUMNS, "--proportional", "--limits", "0.9", "--format", "json")
    assert code == 0, text
    record = json.loads(text)
    ba = concord.bland_altman(*NAMED, limits=0.9, proportional=True)
    ccc = concord.concordance_correlation(*NAMED)
    # the command line writes nan as null (jsonable), as it does for every result
    assert record["bland_altman"] == jsonable(ba.to_dict())
    assert record["concordance_correlation"] == json.loads(json.dumps(ccc.to_dict()))
    assert (record["x"], record["y"]) == ("wright", "mini_wright")


def test_text_is_the_two_explanations():
    code, text = run(PEFR, *COLUMNS, "--confidence-level", "0.9")
    assert code == 0, text
    ba = concord.bland_altman(*NAMED, confidence_level=0.9)
    ccc = concord.concordance_correlation(*NAMED, confidence_level=0.9)
    title = f"{PEFR}: wright vs mini_wright (x − y = wright − mini_wright)"
    assert text == "\n".join([title, ba.explain(), "", ccc.explain()]) + "\n"


def test_csv_rows_keep_every_digit():
    code, text = run(PEFR, *COLUMNS, "--format", "csv")
    assert code == 0, text
    rows = list(csv.DictReader(io.StringIO(text)))
    ba = concord.bland_altman(WRIGHT, MINI)
    ccc = concord.concordance_correlation(WRIGHT, MINI)
    assert [r["quantity"] for r in rows] == [
        "bias (mean of x − y)",
        "SD of the differences",
        "95% lower limit",
        "95% lower limit",
        "95% upper limit",
        "95% upper limit",
        "Lin's concordance ρ_c",
        "precision (Pearson's r)",
        "accuracy C_b",
    ]
    assert float(rows[0]["estimate"]) == ba.bias
    assert (float(rows[2]["ci_low"]), float(rows[2]["ci_high"])) == tuple(ba.lower_interval)
    assert float(rows[3]["ci_low"]) == ba.lower_interval_approximate.low
    assert float(rows[5]["ci_high"]) == ba.upper_interval_approximate.high
    assert (float(rows[6]["ci_low"]), float(rows[6]["ci_high"])) == tuple(ccc.interval)
    assert rows[1]["ci_low"] == ""  # the SD has no interval here


def test_markdown_rounds_to_four_decimals():
    code, text = run(PEFR, *COLUMNS, "--format", "markdown", "--proportional")
    assert code == 0, text
    assert "| bias (mean of x − y)" in text and "[-22.0488, 17.8135] t" in text
    assert "[-124.1608, -53.0949] exact (Carkeet 2015)" in text
    assert "regression of x − y on the mean: slope" in text
    assert "| 95% CI" in text.splitlines()[0].replace("  ", " ")


def test_missing_ratings_are_dropped_when_asked(tmp_path):
    path = tmp_path / "na.csv"
    path.write_text("a,b\n1,1\n2,\n3,3\n4,5\n")
    code, text = run(str(path), "--x", "a", "--y", "b", "--nan-policy", "omit", "--format", "json")
    assert code == 0, text
    expected = concord.bland_altman([1, 3, 4], [1, 3, 5])
    assert json.loads(text)["bland_altman"]["bias"] == expected.bias


# the exact error lines, each naming the option or the column in the command line's words
ERRORS = [
    ("a,b\nx,1\ny,2\n", ["--x", "a", "--y", "b"],
     "row 2 of column 'a' holds 'x', not a number: the scores must be numbers. Correct the "
     "cell, or add it to --na-values if it means a missing rating."),
    ("a,b\n1,1\n2,\n3,3\n", ["--x", "a", "--y", "b"],
     "The column 'b' (--y) must be no missing ratings. Got 1 pairs with a missing rating "
     "instead. Pass --nan-policy omit to drop them."),
    ("a,b\n,1\n2,\n", ["--x", "a", "--y", "b", "--nan-policy", "omit"],
     "The column 'a' (--x) must be at least one pair of ratings. Got none instead."),
    ("a,b\n1,1\n", ["--x", "nope", "--y", "b"], "no column 'nope' for --x. Columns: a, b."),
]  # fmt: skip


@pytest.mark.parametrize(("text", "args", "line"), ERRORS)
def test_errors_in_the_command_line_s_words(tmp_path, text, args, line):
    path = tmp_path / "r.csv"
    path.write_text(text)
    code, output = run(str(path), *args)
    assert code == 1
    assert output == f"Error: {path}: {line}\n"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--x", "a", "--y", "b", "--limits", "1.5"], "Invalid value for '--limits'"),
        (["--y", "b"], "Missing option '--x'"),
    ],
)
def test_usage_errors(tmp_path, args, says):
    path = tmp_path / "r.csv"
    path.write_text("a,b\n1,2\n2,2\n")
    code, output = run(str(path), *args)
    assert code == 2 and says in output


@pytest.mark.parametrize("chunk", ["0", "1"])
def test_a_text_cell_is_not_a_number_and_no_labels_are_offered(tmp_path, chunk):
    # The command has no --labels, so the hint must not offer it (the ICC's words instead);
    # whole and chunked reads fail on the same cell.
    path = tmp_path / "scores.csv"
    path.write_text("x,y\n1,2\n3,abc\n4,4\n")
    code, text = run(str(path), "--x", "x", "--y", "y", "--chunk-rows", chunk)
    assert code == 1
    assert "row 3 of column 'y' holds 'abc', not a number" in text
    assert "--labels" not in text
