"""How the CLI reads a file: one reader whole or in chunks, and one error per kind of bad file.

Each class of fault in the issue (missing markers, mixed types, encodings,
row shapes, delimiters, id columns, the long form, hostile sizes, column
types) has a test asserting its message; a hypothesis test checks that any
generated CSV file reads the same whole and in chunks, or fails on one
line; a corpus of malformed files runs through every subcommand without a
traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from concord._cli.main import main
from concord._cli.reading import source as _cli_source

COMMANDS = {
    "kappa": [],
    "agree": [],
    "thresholds": ["--truth", "a", "--score", "b"],
    "report": [],
}


def run(*args, input=None):
    return CliRunner().invoke(main, [*map(str, args), "--quiet"], input=input)


def one_line_error(out, status=1):
    """The run failed with ``status`` and one error line (after click's usage lines)."""
    assert out.exit_code == status, out.output
    assert isinstance(out.exception, SystemExit), out.exception
    errors = [line for line in out.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "Traceback" not in out.output, out.output
    return errors[0]


def write(tmp_path, name, content):
    path = tmp_path / name
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    return path


def agree_json(*args):
    out = run("agree", *args, "--format", "json")
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


# --- one test per class of fault ------------------------------------------------------------


def test_na_like_words_need_a_choice_and_na_values_adds_markers(tmp_path):
    words = ["NA", "N/A", "None", "null", "nan", "#N/A"]
    rows = "".join(f"{w},{w}\n" for w in words)
    path = write(tmp_path, "na.csv", "a,b\n" + rows + ",NA\n")
    # neither a category nor a missing rating silently (issue 24): the first one is named
    out = one_line_error(run("agree", path))
    assert "row 2 of column 'a' holds 'NA', which looks like a missing-value marker" in out
    data = agree_json(path, "--labels", ",".join(words))["data"]
    # declared: six words, each a category rated twice; the one empty cell is the only missing
    assert sorted(data["labels"]) == sorted(words)
    assert data["missing_ratings"] == 1 and data["ratings"] == 13
    data = agree_json(path, "--na-values", "NA,nan")["data"]
    assert sorted(data["labels"]) == sorted(set(words) - {"NA", "nan"})
    assert data["missing_ratings"] == 1 + 2 + 2 + 1


def test_a_column_has_one_type(tmp_path):
    path = write(tmp_path, "mixed.csv", "a,b\n1,1\n2,2\n3,x\n1,1\n")
    for rows in (0, 1):
        out = one_line_error(run("kappa", path, "--chunk-rows", rows))
        assert "row 2 of column 'a' holds '1', row 4 of column 'b' holds 'x'" in out
        assert "--na-values" in out and "--labels" in out
    # text labels read every rating as text: '1' is then the category '1', like 'x'
    out = run("kappa", path, "--labels", "1,2,3,x", "--format", "json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["labels"] == ["1", "2", "3", "x"]
    # two columns, one of numbers and one of text, follow the same rule
    path = write(tmp_path, "two.csv", "a,b\n1,x\n2,y\n")
    out = one_line_error(run("kappa", path))
    assert "row 2 of column 'a' holds '1', row 2 of column 'b' holds 'x'" in out


def test_invalid_utf8_names_row_and_column(tmp_path):
    path = write(tmp_path, "latin.csv", "a,b\nx,y\ncaf\xe9,x\n".encode("latin-1"))
    for rows in (0, 1):
        out = one_line_error(run("kappa", path, "--chunk-rows", rows))
        assert "row 3 of column 'a' is not valid UTF-8" in out and "--encoding latin-1" in out
    out = run("kappa", path, "--encoding", "latin-1", "--format", "json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["labels"] == ["café", "x", "y"]


@pytest.mark.parametrize(
    ("body", "line", "fields"),
    [("1,1\n2\n3,3\n", 3, 1), ("1,1\n2,2\n3,3,3\n", 4, 3), ('"x\ny",1\n2,2,2\n', 4, 3)],
)
def test_a_row_with_the_wrong_number_of_fields(tmp_path, body, line, fields):
    path = write(tmp_path, "short.csv", "a,b\n" + body)
    for rows in (0, 1):
        out = one_line_error(run("kappa", path, "--chunk-rows", rows))
        assert f"line {line} has {fields} fields where the header has 2" in out


def test_one_column_suggests_the_delimiter(tmp_path):
    path = write(tmp_path, "semi.csv", "a;b\n1;1\n2;2\n")
    out = one_line_error(run("agree", path))
    assert "parsed into one column ('a;b')" in out and "--delimiter ';'" in out
    assert agree_json(path, "--delimiter", ";")["data"]["raters"] == ["a", "b"]
    tabs = write(tmp_path, "tabs.txt", "a\tb\n1\t1\n2\t2\n")
    out = one_line_error(run("agree", tabs))
    assert "--delimiter '\\t'" in out and "--input-format tsv" in out
    assert agree_json(tabs, "--delimiter", "\\t")["data"]["raters"] == ["a", "b"]


def test_an_id_column_is_said_on_stderr_or_asked_for(tmp_path):
    # Fleiss (1971), 30 patients × 6 psychiatrists: kappa 0.430 (R irr kappam.fleiss 0.430)
    out = CliRunner().invoke(main, ["agree", "data/fleiss1971_diagnoses.csv", "--format", "json"])
    assert out.exit_code == 0, out.output
    assert round(json.loads(out.stdout)["coefficients"][1]["statistic"], 3) == 0.430
    assert "note: treating column 'patient' as the item id" in out.stderr
    # two columns that look like ids: the command asks instead of guessing
    rows = "".join(f"{i},d{i},{i % 3},{(i + 1) % 3}\n" for i in range(30))
    path = write(tmp_path, "two_ids.csv", "n,doc,r1,r2\n" + rows)
    out = one_line_error(run("agree", path), status=2)
    assert "'n', 'doc' look like item ids" in out and "--raters" in out
    assert agree_json(path, "--raters", "r1,r2")["data"]["raters"] == ["r1", "r2"]


def test_long_form_empty_item_or_rater(tmp_path):
    path = write(tmp_path, "long.csv", "doc,who,label\nd1,ann,x\n,bob,y\nd2,,x\n")
    args = ["--item", "doc", "--rater", "who", "--rating", "label"]
    out = one_line_error(run("agree", path, *args))
    assert "row 3 has no item: column 'doc' is empty there" in out
    path = write(tmp_path, "long2.csv", "doc,who,label\nd1,ann,x\nd2,,x\n")
    out = one_line_error(run("agree", path, *args))
    assert "row 3 has no rater: column 'who' is empty there" in out


def peak_rss_mib(*args):
    """Run ``concord ARGS`` in a child process; return (exit status, peak RSS in MiB)."""
    code = (
        "import resource, subprocess, sys\n"
        "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    cli = [str(Path(sys.executable).parent / "concord")]
    out = subprocess.run(
        [sys.executable, "-c", code, *cli, *map(str, args), "--quiet"],
        check=True,
        capture_output=True,
        text=True,
    )
    status, kib = out.stdout.split()
    return int(status), int(kib) / 1024


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB only on Linux")
def test_a_huge_cell_does_not_blow_memory(tmp_path):
    # one 100,000-character cell among 20,000 rows (a 0.3 MB file): as a fixed-width numpy
    # string column it would take 20,000 × 100,000 × 4 bytes = 8 GB
    rows = [f"t{i},{'abc'[i % 3]},{'abc'[(i + i // 7) % 3]}" for i in range(20_000)]
    rows[3] = "w" * 100_000 + rows[3][rows[3].index(",") :]
    path = write(tmp_path, "huge.csv", "text,r1,r2\n" + "\n".join(rows) + "\n")
    status, peak = peak_rss_mib("agree", path, "--format", "json")  # 'text' is the item id
    assert status == 0, status
    # as a rating: one rater gives a 100,000-character category once among three short ones
    rows = [f"t{i},{'abc'[i % 3]},{'abc'[(i + i // 7) % 3]}" for i in range(20_000)]
    rows[3] = "t3," + "w" * 100_000 + ",a"
    path = write(tmp_path, "huge_rating.csv", "item,r1,r2\n" + "\n".join(rows) + "\n")
    status, rated = peak_rss_mib("kappa", path, "--rater1", "r1", "--rater2", "r2")
    assert status == 0, status
    status, rated_agree = peak_rss_mib("agree", path, "--id", "item", "--format", "json")
    assert status == 0, status
    print(f"peak RSS MiB: agree {peak:.0f}, kappa {rated:.0f}, agree {rated_agree:.0f}")
    # the stated bound: the interpreter with numpy, pandas and pyarrow loaded, plus the file
    assert max(peak, rated, rated_agree) < 400


def test_types_that_cannot_be_ratings(tmp_path):
    import datetime

    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(
        {
            "a": [1, 2, 3],
            "lists": [[1], [2, 3], []],
            "dates": [datetime.date(2024, 1, d) for d in (1, 2, 3)],
        }
    )
    pq.write_table(table, tmp_path / "t.parquet")
    for other, kind in (("lists", "list<element: int64>"), ("dates", "date32[day]")):
        out = one_line_error(
            run("kappa", tmp_path / "t.parquet", "--rater1", "a", "--rater2", other)
        )
        assert f"column {other!r} holds {kind} values, which cannot be ratings" in out


def test_duplicate_column_names(tmp_path):
    path = write(tmp_path, "dup.csv", "a,b,a\n1,1,1\n")
    out = one_line_error(run("agree", path))
    assert "columns 1 and 3 are both named 'a'" in out


# --- any CSV file: the same whole and in chunks, or one line -------------------------------

CELLS = st.sampled_from(
    ["1", "2", "3", " 2 ", "1.0", "a", "b", "NA", "nan", "None", "", "x y", '"q,1"', '"q\n2"', "ü"]
)


@st.composite
def csv_files(draw):
    width = draw(st.integers(2, 4))
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    header = delimiter.join(f"r{j}" for j in range(width))
    lines = [header]
    for _ in range(draw(st.integers(0, 25))):
        n = width + draw(st.sampled_from([0, 0, 0, 0, 0, 0, 0, 0, -1, 1]))
        cells = [draw(CELLS) for _ in range(max(n, 1))]
        lines.append(delimiter.join(c.replace(",", delimiter) for c in cells))
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "", "\r\n"]))
    encoding = draw(st.sampled_from(["utf-8", "latin-1"]))
    declared = draw(st.sampled_from(["utf-8", "utf-8", "latin-1"]))
    options = ["--delimiter", delimiter, "--encoding", declared]
    options += draw(st.sampled_from([[], ["--na-values", "NA,nan"], ["--labels", "1,2,3"]]))
    return text.encode(encoding), options, width


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=csv_files(), chunk=st.integers(1, 6))
def test_any_csv_reads_the_same_whole_and_in_chunks(tmp_path, monkeypatch, data, chunk):
    monkeypatch.setattr(_cli_source, "MIN_BLOCK", 128)  # small blocks: several chunks per file
    content, options, width = data
    path = tmp_path / "f.csv"
    path.write_bytes(content)
    raters = ["--raters", ",".join(f"r{j}" for j in range(width))]
    args = ["agree", path, *raters, *options, "--format", "json"]
    whole = run(*args, "--chunk-rows", 0)
    chunked = run(*args, "--chunk-rows", chunk)
    assert whole.output == chunked.output
    if whole.exit_code == 0:
        data = json.loads(whole.stdout)["data"]
        assert data["ratings"] + data["missing_ratings"] == data["items"] * width
    else:
        one_line_error(whole, whole.exit_code)
        assert whole.exit_code in (1, 2)


def test_a_file_with_several_faults_reports_the_same_one_whole_and_in_chunks(
    tmp_path, monkeypatch
):
    # the precedence documented in _cli_source._Fault: a row of the wrong shape, then a cell
    # that is not UTF-8, then a clash of types; among faults of one kind, the first
    monkeypatch.setattr(_cli_source, "MIN_BLOCK", 64)  # chunks of a few rows
    rows = [b"1,2"] * 80
    rows[2] = b"x,2"  # a word among numbers: line 4
    rows[30] = b"1,\xfc"  # not UTF-8: line 32
    rows[60] = b"1,2,3"  # three fields: line 62
    expected = (
        "line 62 has 3 fields where the header has 2",
        "row 32 of column 'b' is not valid UTF-8",
        "the ratings mix numbers and text: row 2 of column 'a' holds '1', row 4 of column 'a'",
    )
    for fixed, message in enumerate(expected):
        path = tmp_path / f"faults{fixed}.csv"
        path.write_bytes(b"a,b\n" + b"\n".join(rows) + b"\n")
        outputs = []
        for chunk in (0, 1, 7):
            out = run("kappa", path, "--rater1", "a", "--rater2", "b", "--chunk-rows", chunk)
            outputs.append(one_line_error(out))
        assert outputs[0] == outputs[1] == outputs[2]
        assert message in outputs[0]
        rows[(60, 30, 2)[fixed]] = b"1,2"  # fix the fault reported, then read again


# --- malformed files through every subcommand: never a traceback ----------------------------

CORPUS = {
    "empty.csv": b"",
    "header_only.csv": b"a,b\n",
    "binary.csv": bytes(range(256)) * 4,
    "bom.csv": b"\xef\xbb\xbfa,b\n1,1\n2,2\n",
    "crlf.csv": b"a,b\r\n1,1\r\n2,2\r\n",
    "quoted_newline.csv": b'a,b\n"1\n2",1\n2,2\n',
    "duplicate.csv": b"a,a\n1,1\n",
    "short.csv": b"a,b\n1\n",
    "one_column.csv": b"a\n1\n",
    "blank.csv": b"a,b\n,\n,\n",
    "zip.xlsx": b"PK\x03\x04 not a workbook",
    "not.parquet": b"PAR1 not parquet",
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("name", sorted(CORPUS))
def test_malformed_files_never_give_a_traceback(tmp_path, command, name):
    path = write(tmp_path, name, CORPUS[name])
    output = ["-o", tmp_path / "r.html"] if command == "report" else []
    out = run(command, path, *COMMANDS[command], *output)
    assert out.exit_code in (0, 1, 2) and isinstance(out.exception, (SystemExit, type(None)))
    if out.exit_code:
        one_line_error(out, out.exit_code)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_folder_or_a_missing_output_folder_is_one_line(tmp_path, command):
    folder = tmp_path / "ratings.csv"
    folder.mkdir()
    out = run(command, folder, *COMMANDS[command])
    assert "is a folder, not a file" in one_line_error(out)
    good = write(tmp_path, "g.csv", "a,b\n" + "1,1\n2,2\n1,2\n2,1\n" * 3)
    if command == "report":
        out = run(command, good, "-o", tmp_path / "no" / "such" / "r.html")
        assert "does not exist. Create the folder" in one_line_error(out)
    if command == "thresholds":
        out = run(command, good, *COMMANDS[command], "--save", tmp_path / "no" / "c.json")
        assert "does not exist. Create the folder" in one_line_error(out)


# --- the examples print the published values ------------------------------------------------


def test_the_bom_and_crlf_read_as_plain_csv(tmp_path):
    plain = agree_json(write(tmp_path, "p.csv", "a,b\n1,1\n2,2\n1,2\n"))
    for name, content in (
        ("bom.csv", b"\xef\xbb\xbfa,b\n1,1\n2,2\n1,2\n"),
        ("crlf.csv", b"a,b\r\n1,1\r\n2,2\r\n1,2\r\n"),
    ):
        assert agree_json(write(tmp_path, name, content)) == plain


def help_examples():
    """Every ``concord …`` example on the bundled data in the commands' --help epilogs."""
    import shlex

    for command in main.commands.values():
        text = (command.epilog or "").replace("\\\n", " ")
        for line in text.splitlines():
            line = line.strip()
            if line.startswith("concord ") and " data/" in line:
                yield shlex.split(line)[1:]


@pytest.mark.parametrize("args", list(help_examples()), ids=" ".join)
def test_every_help_example_runs(tmp_path, args):
    args = [
        str(tmp_path / Path(a).name) if prev in ("-o", "--save") else a
        for prev, a in zip(["", *args[:-1]], args, strict=True)
    ]
    if args[0] == "report" and "-o" not in args:  # not report.html in the checkout
        args += ["-o", str(tmp_path / "report.html")]
    out = CliRunner().invoke(main, [*args, "--quiet"])
    assert out.exit_code == 0, out.output
    if args[:2] == ["agree", "data/fleiss1971_diagnoses.csv"]:
        # Fleiss (1971): kappa 0.430 for the 6 raters (the patient column is the id)
        fleiss = next(line for line in out.stdout.splitlines() if "Fleiss' kappa" in line)
        assert "0.4302" in fleiss and "6 raters" in out.stdout


def test_integers_past_two_to_the_53_stay_distinct(tmp_path):
    # float64 would read 9007199254740993 as 9007199254740992 and merge the two categories
    big = 2**53
    rows = f"{big + 1},{big + 1}\n{big},{big}\n{big + 1},{big}\n1,1\n"
    csv_path = write(tmp_path, "big.csv", "a,b\n" + rows)
    pq = pytest.importorskip("pyarrow.parquet")
    import pyarrow as pa

    parquet_path = tmp_path / "big.parquet"  # a null makes pandas turn int64 into float64
    table = {"a": [big + 1, big, big + 1, 1, None], "b": [big + 1, big, big, 1, 1]}
    pq.write_table(pa.table({k: pa.array(v, pa.int64()) for k, v in table.items()}), parquet_path)
    for path in (csv_path, parquet_path):
        for rows in (0, 1, 3):
            args = ("--nan-policy", "omit", "--chunk-rows", rows, "--format", "json")
            out = run("kappa", path, *args)
            assert out.exit_code == 0, out.output
            record = json.loads(out.stdout)
            assert record["labels"] == [1, big, big + 1], (path, rows)
            assert record["observed"] == [[1, 0, 0], [0, 1, 0], [0, 1, 1]], (path, rows)


def test_a_column_named_twice_is_a_usage_error(tmp_path):
    # once a KeyError traceback from pyarrow ('Field "a" exists 2 times in schema')
    path = write(tmp_path, "w.csv", "a,b,c\nx,y,x\ny,y,y\nx,x,y\n")
    for rows in (0, 1):
        out = one_line_error(run("agree", path, "--raters", "a, b,a", "--chunk-rows", rows), 2)
        assert "--raters names 'a' twice" in out
        out = run("kappa", path, "--rater1", "a", "--rater2", "a", "--chunk-rows", rows)
        assert "--rater1 and --rater2 both name 'a'" in one_line_error(out, 2)
    long = write(tmp_path, "long.csv", "item,rater,rating\n1,r,x\n1,s,y\n2,r,x\n2,s,x\n")
    out = run(
        "kappa",
        long,
        "--item",
        "item",
        "--rater",
        "rater",
        "--rating",
        "rating",
        "--rater1",
        "r",
        "--rater2",
        "r",
    )
    assert "--rater1 and --rater2 both name 'r'" in one_line_error(out, 2)


def test_every_pair_missing_fails_alike_whole_and_chunked(tmp_path):
    path = write(tmp_path, "gaps.csv", "a,b,c\n1,,2\n,2,1\n")
    errors = set()
    for rows in (0, 1):
        out = run(
            "kappa",
            path,
            "--rater1",
            "a",
            "--rater2",
            "b",
            "--nan-policy",
            "omit",
            "--chunk-rows",
            rows,
        )
        errors.add(one_line_error(out))
    assert len(errors) == 1 and "every item has a missing rating" in errors.pop()


def test_hexadecimal_is_a_word_not_a_number(tmp_path):
    # Arrow's fast integer cast reads "0x10" as 16; concord's numbers are decimals only
    path = write(tmp_path, "hex.csv", "a,b\n0x10,16\n5,5\n16,16\n")
    out = one_line_error(run("kappa", path))
    assert "row 2 of column 'a' holds '0x10'" in out


@pytest.mark.parametrize("command", ["agree", "icc", "raters"])
@pytest.mark.parametrize("chunk", [[], ["--chunk-rows", "1"]])
def test_an_empty_raters_option_names_the_option(tmp_path, command, chunk):
    # --raters "" (or ",") read no column and said "no rows to read" before.
    path = write(tmp_path, "r.csv", "a,b,c\n1,2,1\n2,2,1\n1,1,1\n")
    extra = chunk if command != "raters" else []
    out = run(command, path, "--raters", ",", *extra)
    line = one_line_error(out, 2)
    assert "'--raters'" in line and "Columns: a, b, c." in line, line


@pytest.mark.parametrize(
    ("encoding", "what"), [("rot13", "not a text encoding"), ("nosuch", "an unknown encoding")]
)
def test_an_encoding_that_is_not_a_text_encoding_is_one_line(tmp_path, encoding, what):
    path = write(tmp_path, "a.csv", "a,b,c\n1,1,2\n2,2,2\n")
    for command in ("agree", "report", "raters"):
        out = one_line_error(run(command, path, "--encoding", encoding), status=2)
        assert f"--encoding: got {encoding!r}, {what}" in out
        assert "expected a text encoding such as utf-8, latin-1 or cp1252" in out
