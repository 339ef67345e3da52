"""``concord icc``: the library's six forms, read from wide or long files, in four formats.

Expected values: the library's own (``concord.icc(...).forms()``), on Shrout & Fleiss (1979)
Table 2 (data/shrout_fleiss1979.csv), whose published ICCs tests/test_icc.py checks; the
error lines are the command line's own sentences.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import concord
from concord._cli.main import main

ROOT = Path(__file__).resolve().parents[1]
SF = str(ROOT / "data" / "shrout_fleiss1979.csv")
KEYS = [
    *("form", "shrout_fleiss", "model", "type", "unit", "icc", "f", "df1", "df2", "pvalue"),
    *("ci_low", "ci_high", "confidence_level", "interpretation", "interpretation_scale"),
]


def run(*args: str) -> str:
    out = CliRunner().invoke(main, ["icc", *args])
    assert out.exit_code == 0, out.output
    return out.output


def fail(*args: str) -> tuple[int, str]:
    out = CliRunner().invoke(main, ["icc", *args])
    return out.exit_code, out.output.strip().splitlines()[-1]


def library(x, **kw) -> list[dict]:
    return concord.icc(x, **kw).forms().to_dict()


def test_json_equals_the_library_on_shrout_fleiss():
    got = json.loads(run(SF, "--format", "json"))
    assert got["data"] == {
        "items": 6,
        "raters": ["j1", "j2", "j3", "j4"],
        "ratings": 24,
        "missing_ratings": 0,
    }
    assert (got["confidence_level"], got["r0"]) == (0.95, 0.0)
    assert [list(f) for f in got["forms"]] == [KEYS] * 6
    expected = library(pd.read_csv(SF))
    for row, want in zip(got["forms"], expected, strict=True):
        # unrounded; the library's record says "statistic" where the CLI keeps "icc"
        assert {k: row["icc" if k == "statistic" else k] for k in want} == want
    # Shrout & Fleiss (1979), Table 4, to four decimals, in their order
    by_sf = {f["shrout_fleiss"]: round(f["icc"], 4) for f in got["forms"]}
    assert [by_sf[f"ICC({m},{u})"] for u in "1k" for m in "123"] == [
        *(0.1657, 0.2898, 0.7148, 0.4428, 0.6201, 0.9093)
    ]
    assert [f["interpretation"] for f in got["forms"]] == [
        *("poor", "poor", "poor", "moderate", "moderate", "excellent")
    ]


def test_options_reach_the_library():
    got = json.loads(run(SF, "--format", "json", "--confidence-level", "0.9", "--r0", "0.2"))
    expected = library(pd.read_csv(SF), confidence_level=0.9, r0=0.2)
    assert [f["ci_low"] for f in got["forms"]] == [f["ci_low"] for f in expected]
    assert [f["f"] for f in got["forms"]] == [f["f"] for f in expected]
    assert got["forms"][0]["f"] != json.loads(run(SF, "--format", "json"))["forms"][0]["f"]


def test_text_markdown_and_csv():
    text = run(SF)
    assert text.startswith(f"{SF}: 6 items, 4 raters, 24 ratings (0 missing)\n")
    assert "ICC(A,1)      ICC(2,1) 0.2898 11.027   5  15" in text
    assert "[0.6757, 0.9859] excellent (Koo & Li 2016)" in text
    assert "Koo & Li (2016): below 0.5 poor" in text
    md = run(SF, "--format", "markdown", "--confidence-level", "0.9").splitlines()
    assert md[0].startswith("| form ") and "90% CI" in md[0] and len(md) == 8
    csv = pd.read_csv(io.StringIO(run(SF, "--format", "csv")))
    assert list(csv.columns) == KEYS
    assert csv["icc"].tolist() == [f["statistic"] for f in library(pd.read_csv(SF))]


def test_wide_raters_and_long_form_give_the_same_forms(tmp_path):
    x = pd.read_csv(SF)
    x.insert(0, "subject", [f"s{i}" for i in range(6)])
    x.loc[2, "j3"] = np.nan  # a missing rating: irrNA's moments
    wide = tmp_path / "wide.csv"
    x.to_csv(wide, index=False)
    long = x.melt(id_vars="subject", var_name="judge", value_name="score").dropna()
    path = tmp_path / "long.csv"
    long.sample(frac=1, random_state=0).to_csv(path, index=False)
    expected = library(x[["j1", "j2", "j3", "j4"]])
    by_raters = json.loads(run(str(wide), "--raters", "j1,j2,j3,j4", "--format", "json"))
    by_id = json.loads(run(str(wide), "--id", "subject", "--format", "json"))
    by_long = json.loads(
        run(str(path), "--item", "subject", "--rater", "judge", "--rating", "score", "--format",
            "json")
    )  # fmt: skip
    for got in (by_raters, by_id, by_long):
        assert [f["icc"] for f in got["forms"]] == [f["statistic"] for f in expected]
        assert got["data"]["missing_ratings"] == 1
    assert json.loads(run(str(wide), "--raters", "j1,j2", "--format", "json"))["forms"][2][
        "icc"
    ] == pytest.approx(library(x[["j1", "j2"]])[2]["statistic"], rel=0, abs=0)


FILES = {
    "mixed.csv": "a,b,c\n1,2,3\n2,x,2\n3,3,1\n",
    "words.csv": "a,b\nx,y\ny,y\n",
    "long.csv": "doc,ann,lab\nd1,a,1\nd1,b,2.5\nd2,a,2\nd2,b,two\n",
    "two.csv": "a,b\n1,2\n2,3\n",
    "one_rater.csv": "doc,ann,lab\nd1,a,1\nd2,a,2\n",
    "constant.csv": "a,b\n1,1\n1,1\n",
}
NOT_A_NUMBER = (
    "not a number: the scores must be numbers. Correct the cell, or add it to --na-values "
    "if it means a missing rating."
)
LONG = ["--item", "doc", "--rater", "ann", "--rating", "lab"]
ERRORS = [
    (["mixed.csv"], 1, f"row 3 of column 'b' holds 'x', {NOT_A_NUMBER}"),
    (["words.csv"], 1, f"row 2 of column 'a' holds 'x', {NOT_A_NUMBER}"),
    (["long.csv", *LONG], 1, f"row 5 of column 'lab' holds 'two', {NOT_A_NUMBER}"),
    (["two.csv", "--raters", "a"], 1,
     "--raters names one column. The ICC needs two raters or more."),
    (["one_rater.csv", *LONG], 1,
     "The column 'ann' (--rater) names one rater. The ICC needs two raters or more."),
    (["two.csv", "--raters", "a,z"], 1, "no column 'z' for --raters. Columns: a, b."),
]  # fmt: skip


@pytest.fixture
def folder(tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    return tmp_path


@pytest.mark.parametrize(("args", "code", "says"), ERRORS)
def test_errors_name_the_cell_option_or_column(folder, args, code, says):
    file, *rest = args
    got, line = fail(str(folder / file), *rest)
    assert (got, line) == (code, f"Error: {folder / file}: {says}")


def test_usage_errors(folder):
    assert fail(str(folder / "two.csv"), "--r0", "1") == (
        2,
        "Error: Invalid value for '--r0': 1.0 is not in the range 0<=x<1.",
    )
    assert fail(str(folder / "long.csv"), "--item", "doc", "--rater", "ann") == (
        2,
        "Error: the long form needs all three of --item, --rater and --rating.",
    )


def test_undefined_forms_are_a_note_and_null(folder):
    out = CliRunner().invoke(main, ["icc", str(folder / "constant.csv"), "--format", "json"])
    assert out.exit_code == 0
    assert "note: the ICC is undefined" in out.stderr
    got = json.loads(out.stdout)
    assert all(f["icc"] is None and f["interpretation"] is None for f in got["forms"])
