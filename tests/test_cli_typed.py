"""The CLI reader's typed fast path (concord._cli.reading.typed) against its text path.

A whole CSV of plain numbers is read by pyarrow's typed conversion; every
other file by the text path, cell by cell. On seeded random files (integers,
decimals, blanks, markers, labels, quoted numbers, ``01``, spaces, ``+1``,
``1e3``, booleans, hexadecimal, nan, integers past 2**53) both paths must
give the same frame (values, dtypes, column order), or the same error.
The reference is the text path itself (``whole(..., fast=False)``).
"""

from __future__ import annotations

import csv
import random
from typing import ClassVar

import click
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from concord._cli.main import main
from concord._cli.reading import cells, source, typed
from concord._cli.reading.source import Options, Source
from concord._inference import intervals

# cells pyarrow reads as the same number as the text path does
NUMBERS = [
    *("0", "1", "2", "3", "4", "01", "007", " 1", "2 ", "+1", "-1", "-0", "1e3", "1E+2"),
    *(".5", "5.", "2.50", "-3.25", "0.1", "1e-3", "123456789012345", "-999999999999999"),
]
# cells that send a file to the text path (or that it reads as missing)
OTHERS = [
    *("", " ", "NA", "na", "N/A", "null", "nan", "NaN", "inf", "-inf", "true", "false"),
    *("a", "yes", "0x10", "0X1F", "1_000", "1,5", "-", "?", "\u00a01", "\u0661"),
    *("9007199254740993", "1000000000000000", "90071992547409930.0", "1e400", "+"),
]
NA = [(), ("NA",), ("-99", "?"), ("na", "null"), ("1",)]


def write(path, rows: list[list[str]], quote: bool) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, quoting=csv.QUOTE_ALL if quote else csv.QUOTE_MINIMAL)
        writer.writerows([[f"r{j}" for j in range(len(rows[0]))], *rows])


def read(
    path, na: tuple[str, ...], fast: bool, text: bool = False, encoding: str = "utf-8"
) -> object:
    """The frame a whole read gives (or its error), with each value's type."""
    src = Source(str(path), Options("csv", ",", encoding, na, chosen=bool(na)))
    try:
        names = src.names()
        frame = cells.whole(src, [cells.Group(names, text=text)], fast=fast)
    except click.ClickException as exc:
        return ("error", exc.format_message())
    described = {}
    for c in frame.columns:
        column = frame[c]
        if isinstance(column.dtype, pd.CategoricalDtype):
            described[c] = ("cat", list(column.cat.categories), column.cat.codes.tolist())
        else:
            values = column.to_numpy()
            described[c] = (str(values.dtype), [repr(v) for v in values.tolist()])
    return list(frame.columns), described


@pytest.fixture
def typed_reads(monkeypatch):
    """Count the reads the typed path answered (not None)."""
    answered: list[int] = []
    block = typed.block  # frame() reads through block(); concord agree calls block() itself

    def counted(*args: object) -> object:
        got = block(*args)
        if got is not None:
            answered.append(len(got))
        return got

    monkeypatch.setattr(typed, "block", counted)
    return answered


@pytest.mark.parametrize("seed", range(40))
def test_the_typed_path_reads_as_the_text_path_does(tmp_path, typed_reads, seed):
    rng = random.Random(seed)
    k, n = rng.randint(1, 4), rng.randint(1, 30)
    odd = rng.random() < 0.5  # half the files hold a cell of OTHERS somewhere
    pool = NUMBERS[:5] if rng.random() < 0.5 else NUMBERS
    rows = [[rng.choice(pool) for _ in range(k)] for _ in range(n)]
    if odd:
        rows[rng.randrange(n)][rng.randrange(k)] = rng.choice(OTHERS)
    if rng.random() < 0.3:  # empty cells: missing ratings
        for _ in range(rng.randint(1, n)):
            rows[rng.randrange(n)][rng.randrange(k)] = ""
    path = tmp_path / "f.csv"
    write(path, rows, quote=rng.random() < 0.3)
    na = rng.choice(NA)
    assert read(path, na, True) == read(path, na, False)


def test_the_seeded_files_take_both_paths(tmp_path, typed_reads):
    """The comparison above is not vacuous: plain files go typed, odd ones do not."""
    write(tmp_path / "plain.csv", [["1", "01", " 2"], ["+1", "1e3", ""]], quote=False)
    write(tmp_path / "odd.csv", [["1", "NA"], ["2", "3"]], quote=False)
    read(tmp_path / "plain.csv", (), True)
    assert typed_reads == [2]
    read(tmp_path / "odd.csv", (), True)
    assert typed_reads == [2]


@pytest.mark.parametrize("cell", NUMBERS)
def test_each_number_is_read_typed_and_as_the_text_path_reads_it(tmp_path, typed_reads, cell):
    write(tmp_path / "f.csv", [[cell, "1"], ["2", cell], ["", "3"]], quote=False)
    assert read(tmp_path / "f.csv", (), True) == read(tmp_path / "f.csv", (), False)
    assert typed_reads == [3]


@pytest.mark.parametrize("cell", OTHERS[1:])
def test_each_other_cell_leaves_the_typed_path(tmp_path, typed_reads, cell):
    write(tmp_path / "f.csv", [[cell, "1"], ["2", "3"]], quote=False)
    assert read(tmp_path / "f.csv", (), True) == read(tmp_path / "f.csv", (), False)
    assert typed_reads == []
    for na in (("NA",), ("1",)):  # "NA" a declared marker: read typed, as missing
        assert read(tmp_path / "f.csv", na, True) == read(tmp_path / "f.csv", na, False)


def test_quoted_numbers_read_typed(tmp_path, typed_reads):
    write(tmp_path / "f.csv", [["1", "2"], ["", "3"]], quote=True)
    assert read(tmp_path / "f.csv", (), True) == read(tmp_path / "f.csv", (), False)
    assert typed_reads == [2]


def test_a_numeric_missing_marker_keeps_the_text_path(tmp_path, typed_reads):
    # pyarrow matches --na-values before trimming spaces, the text path after: " 99" is missing
    write(tmp_path / "f.csv", [[" 99", "1"], ["2", "99"]], quote=False)
    got = read(tmp_path / "f.csv", ("99",), True)
    assert got == read(tmp_path / "f.csv", ("99",), False)
    assert got[1]["r0"] == ("float64", ["nan", "2.0"]) and typed_reads == []


def test_text_labels_keep_the_text_path(tmp_path, typed_reads):
    write(tmp_path / "f.csv", [["1", "2"], ["2", "3"]], quote=False)
    assert read(tmp_path / "f.csv", (), True, text=True)[1]["r0"][0] == "cat"
    assert typed_reads == []


@pytest.mark.parametrize(
    ("rows", "words"),
    [
        ([["1", "NA"], ["2", "3"]], "mix numbers and text: row 2 of column 'r0' holds '1', row"),
        ([["a", "b"], ["NA", "c"]], "row 3 of column 'r0' holds 'NA', which looks like a missing"),
        ([["1", "2"], ["a", "3"]], "the ratings mix numbers and text: row 2 of column 'r0'"),
        ([["1", "2"], ["0x10", "3"]], "the ratings mix numbers and text"),
        ([["1", "2"], ["nan", "3"]], "mix numbers and text: row 2 of column 'r0' holds '1', row"),
        ([["1", "2", "3"], ["4", "5"]], "line 3 has 2 fields where the header has 3"),
        ([["1", "2"], ["1.0000000000000001e16", "3"]], "a number float64 cannot hold exactly"),
    ],
)
def test_a_file_the_typed_path_leaves_fails_as_before(tmp_path, typed_reads, rows, words):
    path = tmp_path / "f.csv"
    with open(path, "w", newline="") as f:
        f.write("\n".join(",".join(r) for r in [["r0", "r1", "r2"][: len(rows[0])], *rows]))
    got = read(path, (), True)
    assert got == read(path, (), False)
    assert got[0] == "error" and words in got[1], got
    assert typed_reads == []


def test_invalid_utf8_fails_as_before(tmp_path, typed_reads):
    path = tmp_path / "f.csv"
    path.write_bytes(b"a,b\n1,2\n\xff,3\n")
    got = read(path, (), True)
    assert got == read(path, (), False) and "row 3 of column 'a' is not valid UTF-8" in got[1]
    assert typed_reads == []


class Bar:
    """A stand-in for tqdm that records its updates."""

    made: ClassVar[list[Bar]] = []

    def __init__(self, **options: object) -> None:
        self.updates: list[int] = []
        Bar.made.append(self)

    def update(self, n: int) -> None:
        self.updates.append(n)

    def close(self) -> None:
        pass


def test_the_typed_read_shows_the_reading_bar(tmp_path, monkeypatch, typed_reads):
    import tqdm.auto

    Bar.made = []
    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    monkeypatch.setattr(intervals, "show_progress", lambda: True)
    monkeypatch.setattr(source, "BAR_BLOCK", 1 << 12)
    monkeypatch.setattr(source, "BAR_BYTES", 0)
    n = 5_000
    (tmp_path / "f.csv").write_text("a,b\n" + "".join(f"{i % 5},{i % 3}\n" for i in range(n)))
    src = Source(str(tmp_path / "f.csv"), Options("csv", ",", "utf-8"))
    frame = cells.whole(src, [cells.Group(["a", "b"])])
    assert typed_reads == [n] and frame["a"].tolist() == [float(i % 5) for i in range(n)]
    (bar,) = Bar.made
    assert len(bar.updates) > 1 and sum(bar.updates) == n


@pytest.mark.parametrize("args", [["agree"], ["agree", "--format", "json"], ["raters"]])
def test_agree_prints_the_same_either_way(tmp_path, monkeypatch, typed_reads, args):
    rng = np.random.default_rng(3)
    truth = rng.integers(0, 4, 300)
    ratings = np.clip(truth[:, None] + rng.integers(-1, 2, (300, 3)), 0, 3).astype(object)
    ratings[rng.random((300, 3)) < 0.1] = ""
    write(tmp_path / "f.csv", ratings.astype(str).tolist(), quote=False)
    command = [*args, str(tmp_path / "f.csv"), "--quiet"]
    fast = CliRunner().invoke(main, command)
    assert typed_reads, "the typed path did not read the file"
    monkeypatch.setattr(typed, "applies", lambda *a: False)
    slow = CliRunner().invoke(main, command)
    assert fast.exit_code == slow.exit_code == 0, fast.output
    assert fast.output == slow.output


def test_a_typed_whole_read_agrees_with_a_chunked_read(tmp_path, typed_reads):
    rng = np.random.default_rng(5)
    grid = rng.choice(["0", "1", "2", "03", " 4", "+1", "2.0", ""], size=(500, 4))
    write(tmp_path / "f.csv", grid.tolist(), quote=False)
    whole = CliRunner().invoke(main, ["agree", str(tmp_path / "f.csv"), "--format", "json"])
    assert typed_reads == [500]
    for rows in ("37", "499"):
        chunked = CliRunner().invoke(
            main, ["agree", str(tmp_path / "f.csv"), "--format", "json", "--chunk-rows", rows]
        )
        assert whole.exit_code == chunked.exit_code == 0, chunked.output
        assert whole.stdout == chunked.stdout


def test_a_pipe_is_left_to_the_text_path(tmp_path):
    import os

    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    src = Source.__new__(Source)  # without opening it: reading a FIFO would block
    src.name, src.path, src.rows = str(fifo), str(fifo), 0
    src.opts = Options("csv", ",", "utf-8")
    assert not typed.applies(src, False)


@pytest.mark.parametrize("cell", ["0x10", "16", " 7"])
def test_utf16_files_read_as_the_text_path_reads_them(tmp_path, typed_reads, cell):
    path = tmp_path / "f.csv"
    path.write_bytes(f"a,b\n{cell},1\n2,3\n".encode("utf-16"))
    got = read(path, (), True, encoding="utf-16")
    assert got == read(path, (), False, encoding="utf-16")
    assert typed_reads == []  # its bytes hold no "0x" even where a cell does


@pytest.mark.parametrize(("suffix", "codec"), [("lz4", "lz4"), ("zst", "zstd")])
def test_a_compressed_file_is_left_to_the_text_path(tmp_path, typed_reads, suffix, codec):
    # pyarrow decompresses .lz4 and .zst as it does .gz and .bz2; the search for 0x reads the
    # compressed bytes, where a back-reference can split "0x" (the "0" matched from "\n0,1")
    pa = pytest.importorskip("pyarrow")
    if not pa.Codec.is_available(codec):
        pytest.skip(f"pyarrow without {codec}")
    path = tmp_path / f"f.csv.{suffix}"
    with pa.CompressedOutputStream(str(path), codec) as out:
        out.write(b"a,b\n" + b"0,1\n1,0\n" * 2000 + b"0x10,1\n" + b"1,1\n" * 10)
    got = read(path, (), True)
    assert got == read(path, (), False)
    assert got[0] == "error" and "row 4002 of column 'a' holds '0x10'" in got[1], got
    assert typed_reads == []


def test_utf7_is_left_to_the_text_path(tmp_path, typed_reads):
    # UTF-7 writes "0x0X" as ASCII, yet "+ADA-x10" decodes to "0x10": its bytes hold no "0x"
    path = tmp_path / "f.csv"
    path.write_bytes(b"a,b\n+ADA-x10,1\n1,0\n2,2\n")
    got = read(path, (), True, encoding="utf-7")
    assert got == read(path, (), False, encoding="utf-7")
    assert got[0] == "error" and "row 2 of column 'a' holds '0x10'" in got[1], got
    assert typed_reads == []


@pytest.mark.parametrize("encoding", ["utf-8", "UTF8", "utf-8-sig", "latin-1", "cp1252", "cp850"])
def test_ascii_compatible_encodings_read_typed(tmp_path, typed_reads, encoding):
    path = tmp_path / "f.csv"
    path.write_bytes("a,b\n1,2\n 3,\n".encode(encoding))
    assert read(path, (), True, encoding=encoding) == read(path, (), False, encoding=encoding)
    assert typed_reads == [2]
