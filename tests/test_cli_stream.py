"""Out-of-core files in the CLI: ``--chunk-rows`` streams a file into accumulators.

The streamed output equals the in-memory output byte for byte (JSON, every
number unrounded), for CSV, TSV and Parquet, and peak memory is bounded by
the chunk, not the file: measured on generated files of 10 and 40 chunks in
a child process (``ru_maxrss``), with the limit stated in the test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pc
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from concord._cli import stream as _cli_stream
from concord._cli.main import main


def run(*args):
    out = CliRunner().invoke(main, [*map(str, args), "--quiet"])
    return out


def ratings(n, raters, seed=0, missing=0.05):
    """Five ordinal grades around a true grade, with missing ratings."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 5, n)
    columns = {}
    for r in range(raters):
        x = np.clip(truth + rng.integers(-1, 2, n), 0, 4).astype(np.float64)
        x[rng.random(n) < missing] = np.nan
        # nulls, written as empty cells: only an empty cell is a missing rating ("nan" is a word)
        columns[f"r{r}"] = pa.array(x, from_pandas=True)
    return pa.table(columns)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("stream")
    table = ratings(3_000, 4)
    words = pa.table(
        {
            "id": pa.array(range(3_000)),
            **{
                c: pa.array(
                    pd.Series(table[c].to_numpy()).map({0: "a", 1: "b", 2: "c", 3: "d", 4: "e"})
                )
                for c in table.column_names
            },
        }
    )
    pc.write_csv(table, d / "grades.csv")
    pc.write_csv(table, d / "grades.tsv", pc.WriteOptions(delimiter="\t"))
    pq.write_table(table, d / "grades.parquet", row_group_size=500)
    pc.write_csv(words, d / "words.csv")
    return d


@pytest.mark.parametrize("name", ["grades.csv", "grades.tsv", "grades.parquet"])
@pytest.mark.parametrize("weights", ["none", "quadratic", "linear"])
def test_agree_streamed_equals_in_memory(files, name, weights):
    whole = run("agree", files / name, "--weights", weights, "--format", "json")
    assert whole.exit_code == 0, whole.output
    for rows in (97, 999, 10_000):
        streamed = run(
            "agree", files / name, "--weights", weights, "--format", "json", "--chunk-rows", rows
        )
        assert streamed.exit_code == 0, streamed.output
        assert streamed.stdout == whole.stdout
    record = json.loads(whole.stdout)
    assert record["data"]["items"] == 3_000 and record["data"]["missing_ratings"] > 0


@pytest.mark.parametrize("name", ["grades.csv", "grades.parquet"])
def test_kappa_streamed_equals_in_memory(files, name):
    args = ["kappa", files / name, "--rater1", "r0", "--rater2", "r3", "--nan-policy", "omit"]
    for fmt in ("json", "text"):
        whole = run(*args, "--weights", "quadratic", "--format", fmt)
        streamed = run(*args, "--weights", "quadratic", "--format", fmt, "--chunk-rows", 700)
        assert whole.exit_code == 0 == streamed.exit_code, streamed.output
        assert streamed.stdout == whole.stdout


def test_text_ratings_declared_labels_and_id_column(files):
    path = files / "words.csv"
    for extra in ([], ["--labels", "a,b,c,d,e", "--weights", "quadratic"]):
        whole = run("agree", path, "--id", "id", "--format", "json", *extra)
        streamed = run(
            "agree", path, "--id", "id", "--format", "json", "--chunk-rows", 300, *extra
        )
        assert whole.exit_code == 0 == streamed.exit_code, streamed.output
        assert streamed.stdout == whole.stdout
    record = json.loads(whole.stdout)
    assert record["data"]["labels"] == ["a", "b", "c", "d", "e"]
    assert record["data"]["raters"] == ["r0", "r1", "r2", "r3"]


def test_streaming_errors(files, tmp_path):
    long = run(
        "agree",
        files / "grades.csv",
        "--item",
        "i",
        "--rater",
        "r",
        "--rating",
        "x",
        "--chunk-rows",
        10,
    )
    assert long.exit_code == 2 and "wide-form" in long.output and "concord.dask" in long.output
    excel = tmp_path / "g.xlsx"
    pd.DataFrame({"a": [1, 2], "b": [1, 2]}).to_excel(excel, index=False)
    out = run("kappa", excel, "--chunk-rows", 10)
    assert out.exit_code == 2 and "CSV, TSV and Parquet" in out.output
    out = run(
        "kappa", files / "grades.csv", "--rater1", "r0", "--rater2", "nope", "--chunk-rows", 9
    )
    assert out.exit_code == 1 and "no column 'nope' for --rater2" in out.output
    out = run("kappa", files / "grades.csv", "--chunk-rows", 9)
    assert out.exit_code == 2 and "--rater1 and --rater2" in out.output
    # a column whose type changes after the first chunk: the whole read's error, naming the cells
    drift = tmp_path / "drift.csv"
    drift.write_text("a,b\n" + "1,2\n" * 50_000 + "x,2\n")
    out = run("kappa", drift, "--chunk-rows", 100)
    assert out.exit_code == 1
    assert "row 2 of column 'a' holds '1', row 50002 of column 'a' holds 'x'" in out.output
    assert out.output == run("kappa", drift, "--chunk-rows", 0).output
    empty = tmp_path / "empty.csv"
    empty.write_text("a,b\n")
    out = run("kappa", empty, "--chunk-rows", 100)
    assert out.exit_code == 1 and "no rows" in out.output


def test_auto_streams_only_large_files(files, monkeypatch):
    options = {"input_format": None}
    assert _cli_stream.chunk_rows(str(files / "grades.csv"), options) == 0
    monkeypatch.setattr(_cli_stream, "AUTO_BYTES", 1_000)
    auto = _cli_stream.chunk_rows(str(files / "grades.csv"), options)
    assert auto == _cli_stream.auto_rows(str(files / "grades.csv"), "csv") > 0
    assert _cli_stream.chunk_rows("-", options) == 0
    assert _cli_stream.chunk_rows(str(files / "grades.csv"), {**options, "chunk_rows": 0}) == 0


def test_the_default_chunk_narrows_with_the_width_of_the_file(tmp_path):
    """The default chunk holds about AUTO_CHUNK_BYTES (1 MiB) of CSV text."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    narrow, wide = tmp_path / "narrow.csv", tmp_path / "wide.csv"
    narrow.write_text("a,b\n" + "1,2\n" * 1000)  # 4 bytes a row: 1 MiB / 4 B = 262,144 rows
    wide.write_text(",".join(f"r{i}" for i in range(200)) + "\n" + ("1," * 199 + "1\n") * 1000)
    assert abs(_cli_stream.auto_rows(str(narrow), "csv") / ((1 << 20) // 4) - 1) < 0.01
    # 400 bytes a row (200 cells "1," by hand): 1 MiB / 400 B = 2,621 rows (the header
    # line counts in the mean length, within 1%)
    assert abs(_cli_stream.auto_rows(str(wide), "csv") / ((1 << 20) // 400) - 1) < 0.01
    table = pa.table({f"r{i}": [1] * 10 for i in range(200)})
    pq.write_table(table, tmp_path / "wide.parquet")
    assert _cli_stream.auto_rows(str(tmp_path / "wide.parquet"), "parquet") == 2_000_000 // 200


def peak_rss_mib(*args):
    """Run ``concord ARGS`` in a child process; return its peak resident memory in MiB."""
    code = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    cli = [str(Path(sys.executable).parent / "concord")]  # the installed entry point
    out = subprocess.run(
        [sys.executable, "-c", code, *cli, *map(str, args), "--quiet"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(out.stdout.split()[-1]) / 1024  # ru_maxrss is in KiB on Linux


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in KiB only on Linux")
def test_peak_memory_is_bounded_by_the_chunk_not_the_file(tmp_path):
    chunk = 100_000
    small, big = tmp_path / "small.csv", tmp_path / "big.csv"
    pc.write_csv(ratings(10 * chunk, 2, seed=1), small)  # 10 chunks
    pc.write_csv(ratings(40 * chunk, 2, seed=2), big)  # 40 chunks, 4e6 rows
    args = ["--rater1", "r0", "--rater2", "r1", "--nan-policy", "omit", "--format", "json"]
    streamed_small = peak_rss_mib("kappa", small, *args, "--chunk-rows", chunk)
    streamed_big = peak_rss_mib("kappa", big, *args, "--chunk-rows", chunk)
    whole_big = peak_rss_mib("kappa", big, *args, "--chunk-rows", 0)
    print(
        f"peak RSS MiB: 10 chunks {streamed_small:.0f}, 40 chunks {streamed_big:.0f}, "
        f"whole file {whole_big:.0f}"
    )
    # the stated limit: four times the data costs at most 32 MiB more than one quarter of it
    assert streamed_big < streamed_small + 32
    # and the file is large enough for this to matter: read whole, it costs far more
    assert whole_big > streamed_big + 150
    # the streamed result is the in-memory one
    assert (
        run("kappa", big, *args, "--chunk-rows", chunk).stdout == run("kappa", big, *args).stdout
    )


def test_stdin_is_streamed_through_a_temporary_file(files):
    text = (files / "grades.csv").read_text()
    args = ["kappa", "-", "--rater1", "r1", "--rater2", "r2", "--nan-policy", "omit", "--quiet"]
    whole = CliRunner().invoke(main, [*args, "--format", "json"], input=text)
    streamed = CliRunner().invoke(
        main, [*args, "--format", "json", "--chunk-rows", 400], input=text
    )
    assert whole.exit_code == 0 == streamed.exit_code, streamed.output
    assert streamed.stdout == whole.stdout


def test_auto_never_streams_the_long_form(files, monkeypatch):
    monkeypatch.setattr(_cli_stream, "AUTO_BYTES", 1_000)
    long = {"input_format": None, "item": "i", "rater": "r", "rating": "x"}
    assert _cli_stream.chunk_rows(str(files / "grades.csv"), long) == 0
