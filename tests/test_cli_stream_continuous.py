"""``concord icc`` and ``concord bland-altman --chunk-rows``: streamed output is the whole read's.

Expected values: the same command reading the file whole (``--chunk-rows 0``),
byte for byte in every format. The accumulators add exact sums (integer scores;
Lin's and Bland–Altman's float sums too), so nothing may differ, not even the
last digit of a JSON number. Files: generated scores, CSV, TSV and Parquet.
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.csv as pc
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from concord._cli.main import main

FORMATS = ("json", "text", "csv", "markdown")


def run(*args):
    return CliRunner().invoke(main, [*map(str, args), "--quiet"])


def scores(n, raters, seed, integers, missing=0.05):
    """Scores around a true score, raters shifted apart, with missing scores (empty cells)."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(60, 12, n)
    columns = {}
    for r in range(raters):
        x = truth + rng.normal(r, 6, n)
        x = np.round(x) if integers else x
        x[rng.random(n) < missing] = np.nan
        columns[f"r{r}"] = pa.array(x, from_pandas=True)
    return pa.table(columns)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("scores")
    for kind, integers in (("int", True), ("float", False)):
        table = scores(2_500, 3, seed=5, integers=integers)
        pc.write_csv(table, d / f"{kind}.csv")
        pc.write_csv(table, d / f"{kind}.tsv", pc.WriteOptions(delimiter="\t"))
        pq.write_table(table, d / f"{kind}.parquet", row_group_size=400)
    return d


def same_as_whole(*args):
    whole = run(*args, "--chunk-rows", 0)
    assert whole.exit_code == 0, whole.output
    for rows in (97, 1_000):
        streamed = run(*args, "--chunk-rows", rows)
        assert streamed.exit_code == 0, streamed.output
        assert streamed.stdout == whole.stdout
    return whole.stdout


@pytest.mark.parametrize("name", ["int.csv", "int.tsv", "int.parquet"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_icc_streamed_equals_in_memory(files, name, fmt):
    out = same_as_whole("icc", files / name, "--format", fmt)
    if fmt == "json":
        record = json.loads(out)
        assert record["data"]["items"] == 2_500 and record["data"]["missing_ratings"] > 0
        assert len(record["forms"]) == 6


def test_icc_of_named_raters_and_float_scores(files):
    same_as_whole("icc", files / "int.csv", "--raters", "r2,r0", "--format", "json")
    # float sums of the ICC are float64: the same chunk order gives the same sums, and
    # the one-shot reads in blocks of its own; equal here to the last digit
    whole = json.loads(run("icc", files / "float.csv", "--format", "json").stdout)
    streamed = json.loads(
        run("icc", files / "float.csv", "--format", "json", "--chunk-rows", 300).stdout
    )
    for a, b in zip(whole["forms"], streamed["forms"], strict=True):
        assert b["icc"] == pytest.approx(a["icc"], rel=1e-12)


@pytest.mark.parametrize("name", ["int.csv", "float.tsv", "float.parquet"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_bland_altman_streamed_equals_in_memory(files, name, fmt):
    args = ["bland-altman", files / name, "--x", "r0", "--y", "r2", "--nan-policy", "omit"]
    out = same_as_whole(*args, "--proportional", "--limits", 0.9, "--format", fmt)
    if fmt == "json":
        assert json.loads(out)["bland_altman"]["n"] < 2_500  # pairs with a missing score left out


def test_streaming_errors(files, tmp_path):
    long = run(
        "icc", files / "int.csv", "--item", "r0", "--rater", "r1", "--rating", "r2",
        "--chunk-rows", 10,
    )  # fmt: skip
    assert long.exit_code == 2 and "--chunk-rows streams wide-form files" in long.output
    one = run("icc", files / "int.csv", "--raters", "r1", "--chunk-rows", 10)
    assert one.exit_code == 1 and "The ICC needs two raters or more" in one.output
    assert one.output == run("icc", files / "int.csv", "--raters", "r1").output
    # a word after the first chunk: the whole read's error, naming the cell
    word = tmp_path / "word.csv"
    word.write_text("a,b\n" + "1,2\n" * 5_000 + "1,high\n")
    for command in (["icc"], ["bland-altman", "--x", "a", "--y", "b"]):
        whole = run(*command, word)
        streamed = run(*command, word, "--chunk-rows", 100)
        assert streamed.exit_code == whole.exit_code == 1
        assert streamed.output == whole.output
    missing = run("bland-altman", files / "int.csv", "--x", "r0", "--y", "r1", "--chunk-rows", 50)
    assert missing.exit_code == 1 and "--nan-policy omit" in missing.output
