"""The CLI reader's fast path against its cell rules, and the reading progress bar.

The reader types each distinct cell once (``Converter(distinct=True)``,
the CSV parser's dictionary) and spreads the result to the rows; the
reference applies the same rules to every cell (``distinct=False``). On
adversarial cells (blanks, NA words, ``+1``/``01``/``1e0``, hexadecimal,
integers past 2**53, invalid UTF-8, Unicode spaces and digits, nulls,
several blocks) both must give the same columns, types and categories, or
the same error.
"""

from __future__ import annotations

from typing import ClassVar

import click
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from concord._cli.reading import cells, source
from concord._cli.reading.source import Options, Source

CELLS = [
    *("1", "01", "+1", "-1", "1.0", "1.", ".5", "1e0", "1E+0", "-0", "2", "10", "3.25"),
    *(" 1 ", "\t2", "\u00a01", "١", "1_0", "0x10", "0X1", "inf", "nan", "NaN", "NA", "None"),
    *("", " ", "\t", "  \u3000", "a", "a ", " a", "b", "é", "-", "-99", "?"),
    *("9007199254740992", "9007199254740993", "-9007199254740993", "90071992547409930.0"),
    *("99999999999999999999999", "1e400", "0001", "+"),
]
CELL = st.one_of(
    st.sampled_from(CELLS).map(str.encode),
    st.just(b"\xff"),
    st.just(b"ok\xe9"),
    st.none(),
)
NA = st.sampled_from([(), ("NA",), ("-99", "?"), ("1",), (" 1",)])


def table(columns: list[list[bytes | None]], block: int) -> pa.Table:
    """A table as the CSV parser gives it: dictionary-encoded bytes, in blocks of rows."""
    out = {}
    for i, values in enumerate(columns):
        blocks = [values[s : s + block] for s in range(0, len(values), block)] or [[]]
        arrays = [pa.array(b, pa.binary()).dictionary_encode() for b in blocks]
        out[f"r{i}"] = pa.chunked_array(arrays, pa.dictionary(pa.int32(), pa.binary()))
    return pa.table(out)


def converted(data: pa.Table, na: tuple[str, ...], text: bool, distinct: bool) -> object:
    group = cells.Group(list(data.column_names), text=text)
    convert = cells.Converter("f.csv", Options("csv", ",", "utf-8", na), [group])
    convert.distinct = distinct
    try:
        frame = convert(data)
    except click.ClickException as exc:
        return ("error", exc.format_message())
    return {c: described(frame[c]) for c in frame.columns}


def described(column: pd.Series) -> object:
    """Every value with its type, so that 1 and 1.0 and NaN and None differ."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return ("categorical", list(column.cat.categories), column.cat.codes.tolist())
    values = column.to_numpy()
    return (str(values.dtype), [(type(v).__name__, repr(v)) for v in values.tolist()])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    columns=st.integers(1, 3).flatmap(
        lambda k: st.lists(st.lists(CELL, min_size=0, max_size=12), min_size=k, max_size=k)
    ),
    block=st.integers(1, 5),
    na=NA,
    text=st.booleans(),
)
def test_distinct_cells_read_as_every_cell_does(columns, block, na, text):
    n = min(map(len, columns))
    data = table([c[:n] for c in columns], block)
    assert converted(data, na, text, True) == converted(data, na, text, False)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(st.tuples(st.sampled_from(CELLS), st.sampled_from(CELLS)), max_size=20),
    na=NA,
)
def test_the_parsers_dictionary_reads_as_its_bytes_do(tmp_path_factory, rows, na):
    """The CSV parser's dictionary-encoded cells against its plain bytes, cell by cell."""
    import csv

    path = tmp_path_factory.mktemp("csv") / "f.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([("a", "b"), *rows])
    src = Source(str(path), Options("csv", ",", "utf-8", na))
    fast = next(src.tables(["a", "b"], coded=True))
    slow = next(src.tables(["a", "b"]))
    assert pa.types.is_dictionary(fast.column("a").type)
    assert converted(fast, na, False, True) == converted(slow, na, False, False)


def test_a_bad_cell_is_named_by_its_row_in_a_later_block():
    data = table([[b"1", b"2", b"3", b"\xff", b"4", b"\xfe"]], block=2)
    got = converted(data, (), False, True)
    assert got == ("error", got[1]) and "row 5 of column 'r0'" in got[1], got


def test_integers_past_two_to_the_53_stay_exact_in_the_distinct_path():
    # 2**53 + 1 = 9007199254740993 (by hand): float64 would merge it with 2**53
    data = table([[b"9007199254740993", b"9007199254740992", b"1"]], block=2)
    got = converted(data, (), False, True)
    assert got["r0"][1] == [("int", "9007199254740993"), ("int", "9007199254740992"), ("int", "1")]


# --- the reading progress bar -------------------------------------------------------------------


class Bar:
    """A stand-in for tqdm that records its options and every update."""

    made: ClassVar[list[Bar]] = []

    def __init__(self, **options: object) -> None:
        self.options, self.updates = options, []
        Bar.made.append(self)

    def update(self, n: int) -> None:
        self.updates.append(n)

    def close(self) -> None:
        pass

    def refresh(self) -> None:
        pass


@pytest.fixture
def bars(monkeypatch):
    import tqdm.auto

    Bar.made = []
    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    monkeypatch.setattr(source, "show_progress", lambda: True)
    return Bar.made


@pytest.mark.parametrize("rows", [0, 300])
def test_the_reading_bar_counts_rows_as_it_reads(tmp_path, bars, monkeypatch, rows):
    monkeypatch.setattr(source, "MIN_BLOCK", 1 << 10)
    monkeypatch.setattr(source, "BAR_BLOCK", 1 << 12)
    monkeypatch.setattr(source, "BAR_BYTES", 0)
    path = tmp_path / "f.csv"
    n = 5_000
    path.write_text("a,b\n" + "".join(f"{i % 5},{i % 3}\n" for i in range(n)))
    src = Source(str(path), Options("csv", ",", "utf-8"), rows)
    group = cells.Group(["a", "b"])
    frames = list(cells.frames(src, [group], bar=True))
    assert sum(len(f) for f in frames) == n
    (bar,) = bars
    assert bar.options["unit"] == "rows" and bar.options["delay"] > 0
    assert len(bar.updates) > 1 and sum(bar.updates) == n, bar.updates
    assert np.all(np.array(bar.updates) > 0)
