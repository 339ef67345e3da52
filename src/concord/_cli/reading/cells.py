"""Raw cells → typed rating columns, the same conversion for every chunk.

A :class:`Converter` turns each table of raw cells a :class:`Source` yields
into the columns the library takes: float64 (or exact integers) for
numbers, pandas Categoricals of Python strings for text. It decodes bytes in
the file's encoding, marks empty and ``--na-values`` cells missing, and
keeps one type per :class:`Group` across chunks, so that a chunked read
fails on the same cells as a whole one; :func:`frames` and :func:`whole`
read a source through it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import click

from concord._cli.reading import coded, typed
from concord._cli.reading.source import NO_RATINGS, Options, Source, _fail, _Fault

# --- the conversion: raw cells → rating columns, the same for every chunk ---------------------

# Text cells (compared trimmed and lower-cased) that some tool writes for a missing value: R
# (NA), pandas (nan, NaN, <NA>, NaT, None), Excel (#N/A, #NULL!), SQL (NULL), SPSS and SAS (.),
# Weka (?), and the hand-written ones. Each stops the read until --na-values or --labels says
# whether it is a missing rating or a category.
MARKERS = frozenset(
    [
        *("na", "n/a", "n.a.", "#n/a", "#na", "<na>", "null", "#null!", "none", "nil"),
        *("nan", "-nan", "nat", "-", "--", ".", "?", "missing", "''", '""'),
    ]
)


@dataclass(frozen=True)
class Cell:
    """One cell, for error messages: its row (header = 1), column and text."""

    row: int
    column: str
    value: str

    def __str__(self) -> str:
        return f"row {self.row} of column {self.column!r} holds {self.value[:60]!r}"


@dataclass
class Group:
    """Rating columns that must share one type (numbers or text), and what was seen so far."""

    columns: list[str]
    text: bool = False  # --labels that are not numbers: every cell is text
    numbers: bool = False  # scores (the ICC): a text cell is an error, whatever comes first
    kind: str | None = None
    first: Cell | None = None
    markers: bool = True  # a text cell like "NA" stops the read unless the user chose


@dataclass
class Converter:
    """Turn each chunk's raw cells into rating columns, remembering each group's type.

    Text columns go through :mod:`concord._cli.reading.coded`: the cell rules run once
    per distinct cell (``distinct=False``: once per row, the reference).
    """

    path: str
    opts: Options
    groups: list[Group]
    offset: int = 0  # data rows converted so far
    distinct: bool = True

    def __call__(self, table: Any) -> Any:
        """Return the chunk's rating columns as a DataFrame (float64 or Categorical)."""
        import pandas as pd

        decoded = self.decode(table)
        out: dict[str, Any] = {}
        clashes: list[_Fault] = []
        for group in self.groups:
            cells = {c: self._typed(decoded[c], c) for c in group.columns}
            try:
                self._check_kind(group, cells)
            except _Fault as clash:
                clashes.append(clash)
                continue
            clashes += self._inexact(cells)
            for c, (kind, values) in cells.items():
                out[c] = _to_pandas(kind, values)
        if clashes:
            raise min(clashes, key=lambda f: f.row)
        marker = self._marker(decoded)
        if marker is not None:
            raise marker
        self.offset += table.num_rows
        return pd.DataFrame(out, copy=False)  # no copy into one 2-D block

    def _inexact(self, cells: dict[str, tuple[str | None, Any]]) -> list[_Fault]:
        """Faults for number cells beyond 2**53 that float64 would round (1.0000000000000001e16).

        Whole numbers written as digits stay exact (Python ints); a cell such
        as 9007199254740993.5 or 1.0000000000000001e16 would silently become
        another number, merging two ratings: an error naming the cell.
        """
        faults = []
        for name, (kind, values) in cells.items():
            if kind != "number" or not isinstance(values, coded.Coded):
                continue
            row = values.first(coded.inexact(values.cells))
            if row >= 0:
                cell = self._cell(name, row, values)
                faults.append(
                    _Fault(
                        self.path,
                        f"{cell}, a number float64 cannot hold exactly (it would read as "
                        f"{float(cell.value)!r}). Write a whole number as plain digits to keep "
                        "it exact, or round the cell.",
                        rank=2,
                        row=cell.row,
                    )
                )
        return faults

    def _marker(self, decoded: dict[str, Any]) -> _Fault | None:
        """Return the fault for the first text rating that looks like a missing-value marker.

        Only when the user declared neither ``--na-values`` nor ``--labels``:
        "NA" (R's ``write.csv``), "N/A", "null" … are a missing rating to one
        file and a category to another, and neither reading is right silently.
        """
        if not self.opts.markers_unsettled:
            return None
        import pyarrow as pa
        import pyarrow.compute as pc

        markers = pa.array(sorted(MARKERS), pa.string())
        found: list[tuple[int, int, str]] = []
        texts = [g for g in self.groups if g.markers and g.kind in ("text", None)]
        names = [c for g in texts for c in g.columns]
        for pos, name in enumerate(names):
            values = decoded[name]
            if not isinstance(values, coded.Coded):
                continue  # numbers, bools, Parquet categoricals: not free text
            looks = pc.is_in(pc.utf8_lower(values.cells), value_set=markers)
            mask = looks.fill_null(False).to_numpy(zero_copy_only=False)
            row = values.first(mask) if mask.any() else -1
            if row >= 0:
                found.append((row, pos, name))
        if not found:
            return None
        row, _, name = min(found)
        cell = self._cell(name, row, decoded[name])
        return _Fault(
            self.path,
            f"{cell}, which looks like a missing-value marker. Declare --na-values "
            f"{cell.value} to read it as a missing rating, or --labels listing every category "
            "to keep it one.",
            rank=3,
            row=cell.row,
        )

    def decode(self, table: Any) -> dict[str, Any]:
        """Return the groups' columns, text as :class:`Coded` cells; fail at the first bad cell."""
        decoded: dict[str, Any] = {}
        faults: list[_Fault] = []
        for group in self.groups:
            for c in group.columns:
                values = table.column(c)
                try:
                    decoded[c] = self._coded(values, c) if _textual(values.type) else values
                except _Fault as fault:
                    faults.append(fault)
        if faults:
            raise min(faults, key=lambda f: f.row)
        return decoded

    def _coded(self, values: Any, name: str) -> coded.Coded:
        """Decode, trim and mark missing the distinct cells of a text column."""
        import numpy as np
        import pyarrow as pa

        column = coded.coded(values, self.distinct)
        cells = column.cells
        if not pa.types.is_string(cells.type):
            try:
                cells = cells.cast(pa.string())
            except pa.ArrowInvalid:
                row = column.first(np.array([not _utf8(v) for v in cells.to_pylist()]))
                raise self._bad_utf8(row, column.at(row), name) from None
        return coded.Coded(self._missing(cells), column.parts)

    def _missing(self, cells: Any) -> Any:
        import pyarrow as pa
        import pyarrow.compute as pc

        cells = pc.utf8_trim_whitespace(cells)
        markers = pa.array(self.opts.na_values, pa.string())
        missing = pc.or_(pc.equal(cells, ""), pc.is_in(cells, value_set=markers))
        return pc.if_else(missing, pa.scalar(None, pa.string()), cells)

    def _cell(self, column: str, index: int, values: Any) -> Cell:
        text = values.at(index) if isinstance(values, coded.Coded) else values[index].as_py()
        return Cell(self.offset + index + 2, column, str(text))

    def _typed(self, values: Any, name: str) -> tuple[str | None, Any]:
        """Classify one column: (kind, values) with kind number, text, bool, category or None."""
        import pyarrow as pa

        t = values.type if not isinstance(values, coded.Coded) else None
        if t is None:
            return "strings", values
        if pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t):
            return "number", values
        if pa.types.is_boolean(t):
            return "bool", values
        if pa.types.is_dictionary(t):
            return "category", values
        if pa.types.is_null(t):
            return None, values
        raise _fail(
            self.path,
            f"column {name!r} holds {t} values, which cannot be ratings. "
            "Convert it to numbers or text, or leave it out with --raters.",
        )

    def _strings(self, values: Any, name: str) -> tuple[str | None, Any]:
        """Decode, trim and mark missing every cell; return ("strings", cells)."""
        import pyarrow as pa

        if not pa.types.is_string(values.type):
            values = self._decoded(values, name)
        return "strings", self._missing(values)

    def _decoded(self, values: Any, name: str) -> Any:
        import pyarrow as pa

        try:
            return values.cast(pa.string())
        except pa.ArrowInvalid:
            row = next(i for i, v in enumerate(values.to_pylist()) if not _utf8(v))
            raise self._bad_utf8(row, values[row].as_py(), name) from None

    def _bad_utf8(self, row: int, value: bytes, name: str) -> _Fault:
        return _Fault(
            self.path,
            f"row {self.offset + row + 2} of column {name!r} is not valid UTF-8 "
            f"({value[:30]!r}). Pass the file's encoding, "
            "e.g. --encoding latin-1 (or cp1252).",
            rank=1,
            row=self.offset + row + 2,
        )

    def _check_kind(self, group: Group, cells: dict[str, tuple[str | None, Any]]) -> None:
        """Settle the text columns' kinds; fail if the group mixes numbers and text.

        The group's kind is the kind of its first cell in file order (row,
        then column), so a chunked read fails on the same two cells as a
        whole one.
        """
        names = list(cells)
        for index, pos, kind in _first_cells(cells, group.text):
            cell = self._cell(names[pos], index, cells[names[pos]][1])
            if group.numbers and _family(kind) == "text":
                raise _Fault(
                    self.path,
                    f"{cell}, not a number: the scores must be numbers. Correct the cell, or "
                    "add it to --na-values if it means a missing rating.",
                    rank=2,
                    row=cell.row,
                )
            if group.kind is None:
                group.kind, group.first = kind, cell
            elif _family(kind) != _family(group.kind):
                raise _Fault(
                    self.path,
                    f"the ratings mix numbers and text: {group.first}, {cell}. A column has "
                    "one type: correct the cell, add it to --na-values if it means a missing "
                    "rating, or declare --labels to read every rating as text.",
                    rank=2,
                    row=cell.row,
                )
        settled = _family(group.kind or "number")
        for c, (found, values) in cells.items():
            if found == "strings":
                cells[c] = (settled, values)


def _utf8(v: bytes | None) -> bool:
    if v is None:
        return True
    try:
        v.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _first_valid(values: Any) -> int:
    import pyarrow.compute as pc

    index: int = pc.index(pc.is_valid(values), True).as_py()
    return index


def _first_cells(
    cells: dict[str, tuple[str | None, Any]], text: bool
) -> list[tuple[int, int, str]]:
    """Return (row index, column position, kind) of each column's first cell of each kind."""
    firsts: list[tuple[int, int, str]] = []
    for pos, (kind, values) in enumerate(cells.values()):
        if kind == "strings":
            kinds = coded.kinds(values, text)
            firsts += [(i, pos, k) for k, i in kinds.items() if i >= 0]
        elif kind is not None:
            index = _first_valid(values)
            if index >= 0:
                firsts.append((index, pos, kind))
    return sorted(firsts)


def _family(kind: str) -> str:
    """Numbers (and bools) against text (and categoricals): the two kinds never mixed."""
    return "text" if kind in ("text", "category") else "number"


def _to_pandas(kind: str | None, values: Any) -> Any:
    """One column as the library takes it: float64 with NaN, or a Categorical."""
    import numpy as np
    import pandas as pd

    if kind is None:
        return np.full(len(values), np.nan)
    if isinstance(values, coded.Coded):
        return coded.numbers(values) if kind == "number" else coded.categorical(values)
    if kind == "number" and values.null_count and str(values.type) in _NULLABLE:
        # a nullable integer column, not float64 with NaN: 2**53 + 1 stays itself
        return pd.array(values.to_pylist(), dtype=_NULLABLE[str(values.type)])
    if kind == "number":
        return values.to_pandas().to_numpy()
    return values.to_pandas().array  # bools and Parquet categoricals keep their own type


_NULLABLE = {f"{u}int{b}": f"{u.upper()}Int{b}" for u in ("", "u") for b in (8, 16, 32, 64)}


def _textual(t: Any) -> bool:
    """Whether a column holds text to type: bytes or strings, or the CSV parser's dictionary."""
    import pyarrow as pa

    def text(u: Any) -> bool:
        return bool(pa.types.is_binary(u) or pa.types.is_string(u) or pa.types.is_large_string(u))

    return text(t) or (pa.types.is_dictionary(t) and pa.types.is_binary(t.value_type))


def frames(source: Source, groups: list[Group], bar: bool = False) -> Iterator[Any]:
    """Yield the groups' columns as converted DataFrames, chunk by chunk (one if whole)."""
    columns = [c for g in groups for c in g.columns]
    convert = Converter(source.name, source.opts, groups)
    tables = source.tables(columns, bar, coded=True)
    for table in tables:
        try:
            frame = convert(table)
        except _Fault as fault:
            convert.offset += table.num_rows
            raise _outranked(fault, tables, convert) from None
        yield frame


def _outranked(fault: _Fault, rest: Iterator[Any], convert: Converter) -> click.ClickException:
    """Return the fault to report: ``fault``, or one the rest of the file holds that outranks it.

    A whole read parses every row before it converts any, so a chunked read
    that fails on its cells reads on (parsing, and decoding while the fault
    is a clash of types) to report what the whole read reports. This costs
    time on the error path only.
    """
    try:
        for table in rest:
            if fault.rank == 3 and _converted(convert, table):
                continue  # converted: the offset moved on
            if fault.rank == 2:
                convert.decode(table)
            convert.offset += table.num_rows
    except _Fault as encoding:
        return _outranked(encoding, rest, convert)
    except click.ClickException as shape:  # a row of the wrong shape, found while parsing
        return shape
    return fault


def _converted(convert: Converter, table: Any) -> bool:
    """Convert a chunk after a marker fault: a fault that outranks it propagates.

    Return True when the chunk converted (the offset moved on), False after a
    later marker, which a marker found earlier in the file outranks.
    """
    try:
        convert(table)
    except _Fault as later:
        if later.rank < 3:
            raise
        return False
    return True


def whole(source: Source, groups: list[Group], fast: bool = True) -> Any:
    """Return the groups' columns of the whole file as one DataFrame.

    A CSV of plain numbers is read typed (:mod:`concord._cli.reading.typed`;
    ``fast=False``: never), anything else, errors included, cell by cell.
    """
    import pandas as pd

    frame = None
    if fast and typed.applies(source, any(g.text for g in groups)):
        frame = typed.frame(source, list(dict.fromkeys(c for g in groups for c in g.columns)))
    if frame is not None:
        return frame  # it has rows and ratings
    parts = list(frames(source, groups, bar=True))
    frame = parts[0] if len(parts) == 1 else pd.concat(parts, ignore_index=True)
    if not frame.shape[0]:  # as a chunked read says it
        raise _fail(source.name, "no rows to read.")
    if not frame.notna().to_numpy().any():
        raise _fail(source.name, NO_RATINGS)
    return frame
