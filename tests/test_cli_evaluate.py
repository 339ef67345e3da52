"""``concord evaluate``: the library's numbers in every format, files written whole, CLI errors.

Data: RSMTool's own fixture ``predictions_scaled_with_subgroups.csv`` (tests/reference/rsmtool/,
Apache-2.0, see the README there); the expected values are ``concord.evaluate``'s on the same
columns (tests/test_evaluate.py checks those against RSMTool's tables).
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import concord
from concord._cli.main import main

FIXTURE = Path(__file__).parent / "reference" / "rsmtool" / "predictions_scaled_with_subgroups.csv"
FILE = str(FIXTURE)
ARGS = ["--human", "h1", "--machine", "score", "--human2", "h2", "--trim", "1,6"]


def run(*args: str) -> tuple[int, str]:
    out = CliRunner().invoke(main, ["evaluate", *args])
    return out.exit_code, out.output


@pytest.fixture(scope="module")
def expected() -> concord.EvaluationResult:
    data = pd.read_csv(FIXTURE)
    return concord.evaluate(
        data["h1"], data["score"], human2=data["h2"], groups=data[["QUESTION", "L1"]], trim=(1, 6)
    )


def test_json_is_the_library_s_result(expected):
    code, text = run(FILE, *ARGS, "--group", "QUESTION,L1", "--format", "json")
    assert code == 0, text
    record = json.loads(text)
    assert record["evaluation"] == json.loads(json.dumps(expected.to_dict()))
    assert (record["human"], record["machine"], record["human2"]) == ("h1", "score", ["h2"])
    # RSMTool's published values, through the CLI (lr_eval_with_h2_*.csv; see test_evaluate.py)
    tables = record["evaluation"]["tables"]
    assert tables["consistency"][""]["exact_agr"] == 72.5
    assert tables["true_score_eval"]["raw_trim"]["PRMSE true"] == pytest.approx(
        0.6696885002619487, abs=1e-15
    )


def test_text_is_the_explanation(expected):
    code, text = run(FILE, *ARGS, "--group", "QUESTION,L1")
    assert code == 0, text
    assert text == f"{FILE}: score against h1\n{expected.explain()}\n"


def test_csv_keeps_every_digit_of_every_table(expected):
    code, text = run(FILE, *ARGS, "--group", "QUESTION,L1", "--format", "csv")
    assert code == 0, text
    frame = pd.read_csv(io.StringIO(text), keep_default_na=False, dtype=str)
    assert list(frame.columns) == ["table", "row", "column", "value"]
    got = {(t, r, c): v for t, r, c, v in frame.itertuples(index=False)}
    for name, rows in expected.tables(inference=True).items():
        for label, row in rows:
            for column, value in row.items():
                cell = got[(name, label, column)]
                assert cell == value if isinstance(value, str) else float(cell) == value


def test_csv_of_one_table_is_rsmtool_s_layout(expected):
    code, text = run(FILE, *ARGS, "--table", "eval", "--format", "csv")
    assert code == 0, text
    frame = pd.read_csv(io.StringIO(text), index_col=0)
    rsmtool = pd.read_csv(FIXTURE.parent / "lr_eval_with_h2_eval.csv", index_col=0)
    assert list(frame.columns) == list(rsmtool.columns)
    pd.testing.assert_frame_equal(frame, expected.table("eval"), check_dtype=False)


def test_markdown_has_every_table_and_the_flags(expected):
    code, text = run(FILE, *ARGS, "--group", "L1", "--format", "markdown")
    assert code == 0, text
    for name in expected.tables():
        if name.endswith("QUESTION"):
            continue
        assert f"`{name}`" in text
    assert "| 0.7798 " in text  # wtkappa of raw_trim, four decimals
    assert "### Flags" in text


def test_flags_are_listed(tmp_path):
    # the machine scores reversed: QWK and r far below the .70 of Williamson et al. (2012)
    data = pd.read_csv(FIXTURE)
    data["score"] = 7 - data["score"]
    path = tmp_path / "reversed.csv"
    data.to_csv(path, index=False)
    result = concord.evaluate(data["h1"], data["score"], trim=(1, 6))
    args = [str(path), "--human", "h1", "--machine", "score", "--trim", "1,6"]
    code, text = run(*args, "--format", "markdown")
    assert code == 0, text
    flags = text[text.index("### Flags") :]
    for f in result.flags:
        assert f"| {f.metric} " in flags and f"| {f.rule} " in flags
    code, text = run(*args, "--format", "csv")
    rows = pd.read_csv(io.StringIO(text)).query("table == 'flags'")
    assert list(rows["value"]) == [f.value for f in result.flags]
    assert {f.metric for f in result.flags} >= {"wtkappa", "corr"}


def test_options_reach_the_library():
    data = pd.read_csv(FIXTURE)
    args = ["--human", "h1", "--machine", "score", "--scale", "--exclude-zero"]
    code, text = run(FILE, *args, "--trim-tolerance", "0.2", "--format", "json")
    assert code == 0, text
    lib = concord.evaluate(
        data["h1"], data["score"], trim_tolerance=0.2, scale=True, exclude_zero=True
    )
    assert json.loads(text)["evaluation"] == json.loads(json.dumps(lib.to_dict()))
    assert json.loads(text)["evaluation"]["primary"] == "scale_trim"


def test_output_file_is_written_whole_and_never_silently_replaced(tmp_path, expected):
    target = tmp_path / "eval.md"
    code, text = run(FILE, *ARGS, "--format", "markdown", "-o", str(target))
    assert code == 0, text
    assert target.read_text(encoding="utf-8").startswith("### Human–machine agreement")
    before = target.read_bytes()
    code, text = run(FILE, *ARGS, "-o", str(target))
    assert code == 1 and "exists. Pass --overwrite" in text
    assert target.read_bytes() == before
    # a failing run (a missing column) leaves the old file and no temporary file
    code, text = run(FILE, "--human", "h9", "--machine", "score", "-o", str(target), "--overwrite")
    assert code == 1 and "no column 'h9' for --human" in text
    assert target.read_bytes() == before and os.listdir(tmp_path) == ["eval.md"]
    code, text = run(FILE, *ARGS, "-o", str(target), "--overwrite")
    assert code == 0 and target.read_text(encoding="utf-8").startswith(f"{FILE}: score")


def test_missing_scores_are_a_cli_error(tmp_path):
    data = pd.read_csv(FIXTURE)
    data.loc[4, "score"] = None
    path = tmp_path / "holes.csv"
    data.to_csv(path, index=False)
    code, text = run(str(path), "--human", "h1", "--machine", "score")
    assert code == 1 and "Traceback" not in text
    assert "The column 'score' (--machine) must be scores in every row" in text
    assert "first in data row 5" in text and "remove those rows" in text


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--trim", "1-6"], "expected two numbers MIN,MAX"),
        (["--trim", "6,1"], "--trim must be a pair (min, max) of finite numbers with min < max"),
        (["--table", "evals"], "--table must be one of eval, consistency"),
        (["--group", "nation"], "no column 'nation' for --group"),
        (["--human2", "QUESTION"], "must be numbers"),
    ],
)
def test_usage_errors_are_one_line(args, said):
    code, text = run(FILE, "--human", "h1", "--machine", "score", "--human2", "h2", *args)
    assert code in (1, 2) and said in text and "Traceback" not in text, text
