"""Issue 24 (trust, round 3) on the command line: what the reader decides for the user.

A text rating that looks like a missing-value marker ("NA", R's
``write.csv`` default) stops the read until ``--na-values`` or ``--labels``
says what it is, whole or in chunks, with the same message. Expected values
are the library's own on the same ratings (tested against the references in
tests/test_multirater_published.py).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import concord
from concord._cli.main import main
from concord._cli.reading import source as _cli_source

ROWS = [
    ("a", "a", "a"),
    ("b", "b", "b"),
    ("a", "a", "NA"),
    ("b", "NA", "b"),
    ("a", "a", "a"),
    ("b", "b", "b"),
    ("NA", "a", "a"),
    ("b", "b", "NA"),
    ("a", "a", "a"),
    ("b", "b", "b"),
]


def run(*args):
    return CliRunner().invoke(main, [*map(str, args), "--quiet"])


def one_line_error(out, status=1):
    assert out.exit_code == status, out.output
    errors = [line for line in out.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "Traceback" not in out.output, out.output
    return errors[0]


def fleiss_json(*args):
    out = run("agree", *args, "--coefficients", "fleiss", "--format", "json")
    assert out.exit_code == 0, out.output
    (record,) = [
        r for r in json.loads(out.stdout)["coefficients"] if r["function"] == "fleiss_kappa"
    ]
    return record["statistic"]


@pytest.fixture
def na_file(tmp_path):
    path = tmp_path / "ratings.csv"
    path.write_text("r1,r2,r3\n" + "".join(",".join(r) + "\n" for r in ROWS))
    return path


@pytest.mark.parametrize("rows", [0, 1, 3])
def test_na_text_stops_the_read_and_says_how_to_choose(na_file, rows):
    # before: exit 0, NA counted as a third category (Fleiss 0.56 where the ratings give 1)
    out = one_line_error(run("agree", na_file, "--chunk-rows", rows))
    assert "row 4 of column 'r3' holds 'NA', which looks like a missing-value marker" in out
    assert "--na-values NA" in out and "--labels" in out


def test_each_choice_gives_its_own_answer(na_file):
    frame = pd.DataFrame(ROWS, columns=["r1", "r2", "r3"])
    missing = concord.fleiss_kappa(frame.replace("NA", np.nan)).statistic
    category = concord.fleiss_kappa(frame).statistic
    assert missing == 1.0 and abs(category - 0.5604395604395604) < 1e-15
    for rows in (0, 2):
        assert fleiss_json(na_file, "--na-values", "NA", "--chunk-rows", rows) == missing
        labels = ("--labels", "a,b,NA", "--chunk-rows", rows)
        assert fleiss_json(na_file, *labels) == category


@pytest.mark.parametrize("marker", ["N/A", "null", "None", "nan", "NaN", "#N/A", "-", "."])
def test_other_markers_too(tmp_path, marker):
    path = tmp_path / "m.csv"
    path.write_text(f"a,b\nx,x\ny,{marker}\nx,y\n")
    out = one_line_error(run("kappa", path))
    assert f"row 3 of column 'b' holds {marker!r}" in out
    out = run("kappa", path, "--na-values", marker, "--nan-policy", "omit", "--format", "json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["n"] == 2


def test_a_marker_in_a_later_chunk_is_named_as_a_whole_read_names_it(tmp_path, monkeypatch):
    monkeypatch.setattr(_cli_source, "MIN_BLOCK", 64)  # several chunks per file
    rows = ["x,y"] * 60
    rows[41] = "x,NA"  # line 43
    path = tmp_path / "late.csv"
    path.write_text("a,b\n" + "\n".join(rows) + "\n")
    outputs = [one_line_error(run("kappa", path, "--chunk-rows", c)) for c in (0, 1, 7)]
    assert outputs[0] == outputs[1] == outputs[2]
    assert "row 43 of column 'b' holds 'NA'" in outputs[0]


def test_a_clash_of_types_outranks_an_earlier_marker_whole_and_in_chunks(tmp_path, monkeypatch):
    # the whole read types every cell before it looks for markers: a later clash wins there,
    # so the chunked read reads on past its marker to report the same fault
    monkeypatch.setattr(_cli_source, "MIN_BLOCK", 64)
    rows = ["x,y"] * 60
    rows[2] = "NA,y"  # line 4: a marker
    rows[50] = "3,y"  # line 52: a number among text
    path = tmp_path / "both.csv"
    path.write_text("a,b\n" + "\n".join(rows) + "\n")
    outputs = [one_line_error(run("kappa", path, "--chunk-rows", c)) for c in (0, 1, 7)]
    assert outputs[0] == outputs[1] == outputs[2]
    assert (
        "the ratings mix numbers and text" in outputs[0] and "row 52 of column 'a'" in outputs[0]
    )


def test_numbers_and_group_names_are_not_markers(tmp_path):
    # a column of numbers has no text to misread; evaluate's group labels are names
    path = tmp_path / "scores.csv"
    lines = [
        f"{h},{h + 0.25 * (i % 3)},{'NA' if i % 2 else 'EU'}" for i, h in enumerate([1, 2, 3] * 4)
    ]
    path.write_text("human,machine,region\n" + "\n".join(lines) + "\n")
    out = run("evaluate", path, "--human", "human", "--machine", "machine", "--group", "region")
    assert out.exit_code == 0, out.output


# --- 15. numbers the reader cannot hold, and labels that reorder the text ---------------


@pytest.mark.parametrize("rows", [0, 1])
def test_an_integer_cell_of_two_to_the_63_stays_an_integer(tmp_path, rows):
    # before: with a missing cell in another column, agree read 2**63 as 9.223372036854776e+18
    path = tmp_path / "big.csv"
    path.write_text(
        "a,b,c\n9223372036854775808,9223372036854775808,1\n"
        "9223372036854775809,9223372036854775809,1\n1,1,1\n2,,2\n1,2,2\n"
    )
    out = run("agree", path, "--chunk-rows", rows, "--format", "json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["data"]["labels"] == [1, 2, 2**63, 2**63 + 1]


@pytest.mark.parametrize(
    ("cell", "read_as"),
    [("1.0000000000000001e16", "1e+16"), ("9007199254740993.5", "9007199254740994.0")],
)
def test_a_number_float64_would_change_is_named(tmp_path, cell, read_as):
    # before: 1.0000000000000001e16 merged with 1e16 (κ 0 where the cells differ)
    path = tmp_path / "f.csv"
    path.write_text(f"a,b\n1e16,1e16\n{cell},1e16\n1,1\n2,2\n")
    outputs = [one_line_error(run("kappa", path, "--chunk-rows", c)) for c in (0, 1)]
    assert outputs[0] == outputs[1]
    assert (
        f"row 3 of column 'a' holds {cell!r}, a number float64 cannot hold exactly" in outputs[0]
    )
    assert f"it would read as {read_as}" in outputs[0] and "plain digits" in outputs[0]


def test_numbers_that_are_their_float_stay_accepted(tmp_path):
    # 1e16 is 10**16 exactly; a program's 17-digit 1.0000000000000002e+17 is that float64
    path = tmp_path / "ok.csv"
    path.write_text("a,b\n1e16,1e16\n1.0000000000000002e+17,1.0000000000000002e+17\n1,1\n1,2\n")
    out = run("kappa", path, "--format", "json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["labels"] == [1.0, 2.0, 1e16, 1.0000000000000002e17]


def test_bidi_controls_are_escaped_in_the_terminal_and_kept_in_json(tmp_path):
    label = "good\u202eevil"
    path = tmp_path / "bidi.csv"
    path.write_text(f"a,b\n{label},{label}\nx,x\nx,{label}\n", encoding="utf-8")
    out = run("kappa", path)
    assert out.exit_code == 0, out.output
    assert "\u202e" not in out.output and "good\\u202eevil" in out.output
    out = run("kappa", path, "--format", "json")
    assert "\u202e" not in out.stdout
    assert json.loads(out.stdout)["labels"] == [label, "x"]  # the escape is the same character
    page = tmp_path / "r.html"
    out = run("report", path, "-o", page, "--no-plots")
    assert out.exit_code == 0, out.output
    assert "\u202e" not in page.read_text(encoding="utf-8")
