"""Files → rating columns for the command line: one reader, whole or in chunks.

Every CSV or TSV file (and stdin, copied to a temporary file first) goes
through pyarrow's CSV parser with every cell read as the bytes it is; Excel
cells become the same strings, Parquet keeps its own column types. Each
chunk then goes through one conversion, the same for every chunk, so the
columns a file gives do not depend on its size or on ``--chunk-rows``. A
whole read is the same reader with one chunk.

The rules (the README's "Reading files"):

* a missing rating is an empty cell (blank after trimming spaces), or a
  cell equal to one of the ``--na-values``; ``NA``, ``None`` or ``nan`` are
  categories like any other word;
* the rating columns have one type for the whole file: numbers, or text. A
  number among text, or text among numbers, is an error that names both
  cells. With ``--labels`` that are not all numbers, every rating is text;
* bytes that are not valid in ``--encoding`` (UTF-8 by default), rows with
  too few or too many fields, a file that parses into one column and
  duplicate column names are errors naming the row, line or column;
* text categories go to the library as pandas Categoricals of Python
  strings, never as fixed-width numpy strings.

Rows are counted as in the file, the header being row 1 (the line number
when no quoted cell spans lines; Excel's own row number).
"""

from __future__ import annotations

import atexit
import codecs
import contextlib
import csv
import io
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import click

from concord._cli import columns as cin
from concord._inference.intervals import progress

# column names that are item ids, not raters (case-insensitive; also *_id, *-id, "* id")
ID_NAMES = frozenset(
    [
        *("id", "uid", "key", "index", "idx", "item", "items", "item_id", "unit", "units"),
        *("subject", "subjects", "participant", "patient", "patients", "case", "cases"),
        *("doc", "docs", "document", "documents", "text", "sentence", "essay", "record"),
        *("row", "name", "sample"),
    ]
)
_ID_SUFFIX = re.compile(r"(?:^|[_\-\s.])(?:id|uid|key)$", re.IGNORECASE)
# an all-distinct column is an id when the first rows hold at least this many values
DISTINCT_MIN = 20
SAMPLE_ROWS = 1_000
_HEADER_BLOCK = 1 << 20
# the smallest CSV block streamed: a row must fit in one block
MIN_BLOCK = 1 << 16
NO_RATINGS = "has no ratings: every cell of the rater columns is empty (or an --na-values marker)."


@dataclass(frozen=True)
class Options:
    """How to read a file: its format, field separator, encoding and missing-value markers."""

    fmt: str
    delimiter: str
    encoding: str
    na_values: tuple[str, ...] = ()


def options(file: str, o: dict[str, Any]) -> Options:
    """Return the reading options of FILE from the parsed command-line options."""
    fmt = cin.input_format(file, o.get("input_format"))
    delimiter = o.get("delimiter") or ("\t" if fmt == "tsv" else ",")
    if delimiter in ("\\t", "tab"):
        delimiter = "\t"
    if len(delimiter) != 1 or delimiter in '\r\n"':
        raise click.BadParameter(
            f"{delimiter!r} is not one character (a comma, ';', '|' or \\t).",
            param_hint="--delimiter",
        )
    encoding = o.get("encoding") or "utf-8"
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise click.BadParameter(
            f"unknown encoding {encoding!r}; try utf-8, latin-1 or cp1252.",
            param_hint="--encoding",
        ) from None
    na = tuple(t.strip() for t in (o.get("na_values") or "").split(","))
    return Options(fmt, delimiter, encoding, tuple(t for t in na if t))


def _fail(path: str, message: str) -> click.ClickException:
    return click.ClickException(f"{path}: {message}")


class _Fault(click.ClickException):
    """A fault in a chunk's cells: ``rank`` 1 for the encoding, 2 for mixed types.

    A file with several faults reports the same one whole or in chunks: a
    row of the wrong shape (rank 0, found while parsing) before a cell that
    is not valid in the encoding, before a clash of types; among faults of
    one rank, the first in the file.
    """

    def __init__(self, path: str, message: str, rank: int, row: int) -> None:
        super().__init__(f"{path}: {message}")
        self.rank, self.row = rank, row


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# --- the sources: bytes on disk → pyarrow tables of raw cells --------------------------------


@dataclass
class Source:
    """A file (or stdin) to read whole (``rows`` 0) or in chunks of about ``rows`` rows."""

    name: str
    opts: Options
    rows: int = 0
    path: str = ""
    _excel: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.name == "-":
            self.path = _spool_stdin()
            return
        self.path = self.name
        if os.path.isdir(self.name):
            raise _fail(self.name, "is a folder, not a file. Name the file to read.")
        if not os.path.exists(self.name):
            raise _fail(self.name, "no such file.")

    def names(self) -> list[str]:
        """Return the column names, checked: no duplicates, more than one for CSV."""
        names = self._names()
        seen: dict[str, int] = {}
        for i, n in enumerate(names):
            if n in seen:
                raise _fail(
                    self.name,
                    f"columns {seen[n] + 1} and {i + 1} are both named {n!r}. "
                    "Give every column its own name.",
                )
            seen[n] = i
        foreign = [d for d in (";", "\t", "|", ",") if d != self.opts.delimiter]
        if (
            len(names) == 1
            and self.opts.fmt in ("csv", "tsv")
            and any(d in names[0] for d in foreign)
        ):
            raise _fail(self.name, _one_column(names[0], self.opts.delimiter))
        return names

    def tables(self, columns: list[str], bar: bool = False) -> Iterator[pa_Table]:
        """Yield the columns' raw cells, the whole file at once or chunk by chunk."""
        if self.opts.fmt == "excel":
            yield self._excel_table().select(columns)
        elif self.opts.fmt == "parquet":
            yield from self._parquet(columns, bar)
        else:
            yield from self._csv(columns, bar)

    def sample(self, columns: list[str]) -> pa_Table:
        """Return the first ``SAMPLE_ROWS`` rows of the columns, whatever the chunk size."""
        import pyarrow as pa

        if self.opts.fmt == "excel":
            return self._excel_table().select(columns).slice(0, SAMPLE_ROWS)
        small = Source(self.name, self.opts, SAMPLE_ROWS, self.path, self._excel)
        batches, count = [], 0
        for table in small.tables(columns):
            batches.append(table)
            count += table.num_rows
            if count >= SAMPLE_ROWS:
                break
        if not batches:
            return pa.table({c: pa.array([], pa.string()) for c in columns})
        return pa.concat_tables(batches).slice(0, SAMPLE_ROWS)

    # CSV and TSV ------------------------------------------------------------------------

    def _names(self) -> list[str]:
        if self.opts.fmt == "excel":
            return [str(n) for n in self._excel_table().column_names]
        if self.opts.fmt == "parquet":
            with self._arrow_errors():
                import pyarrow.parquet as pq

                return [str(n) for n in pq.ParquetFile(self.path).schema_arrow.names]
        import pyarrow.csv as pc

        shape = _Shape()
        with self._arrow_errors(shape):
            reader = pc.open_csv(
                self.path,
                read_options=pc.ReadOptions(encoding=self.opts.encoding, block_size=_HEADER_BLOCK),
                parse_options=self._parse(shape),
                convert_options=pc.ConvertOptions(check_utf8=False),
            )
            names = [str(n) for n in reader.schema.names]
            reader.close()
        return names

    def _parse(self, shape: _Shape) -> Any:
        import pyarrow.csv as pc

        return pc.ParseOptions(
            delimiter=self.opts.delimiter, newlines_in_values=True, invalid_row_handler=shape
        )

    def _convert(self, columns: list[str]) -> Any:
        import pyarrow as pa
        import pyarrow.csv as pc

        # bytes, checked for the encoding afterwards, so that a bad cell can be named
        return pc.ConvertOptions(
            column_types={c: pa.binary() for c in columns},
            include_columns=columns,
            null_values=[],
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
        )

    def _csv(self, columns: list[str], bar: bool) -> Iterator[Any]:
        import pyarrow as pa
        import pyarrow.csv as pc

        shape = _Shape()
        if not self.rows:
            with self._arrow_errors(shape):
                table = pc.read_csv(
                    self.path,
                    read_options=pc.ReadOptions(encoding=self.opts.encoding),
                    parse_options=self._parse(shape),
                    convert_options=self._convert(columns),
                )
            yield table
            return
        source = pa.input_stream(self.path)
        try:
            with self._arrow_errors(shape):
                reader = pc.open_csv(
                    source,
                    read_options=pc.ReadOptions(
                        encoding=self.opts.encoding, block_size=_block_size(self.path, self.rows)
                    ),
                    parse_options=self._parse(shape),
                    convert_options=self._convert(columns),
                )
            size = None if self.path.endswith((".gz", ".bz2")) else os.path.getsize(self.path)
            yield from self._batches(reader, shape, source.tell if size else None, size, bar)
        finally:
            source.close()

    def _batches(
        self,
        reader: Any,
        shape: _Shape,
        position: Callable[[], int] | None,
        total: int | None,
        bar: bool,
    ) -> Iterator[Any]:
        """Yield the reader's batches as tables, with a progress bar of bytes (or rows)."""
        import pyarrow as pa

        name = os.path.basename(self.name)
        unit = "B" if position is not None else "row"
        with progress(total or 0, f"reading {name}", unit=unit, worth=bar) as shown:
            done = 0
            it = iter(reader)
            while True:
                with self._arrow_errors(shape):
                    batch = next(it, None)
                if batch is None:
                    return
                if shown is not None:
                    now = position() if position is not None else done + batch.num_rows
                    shown.update(now - done)
                    done = now
                yield pa.Table.from_batches([batch])

    @contextlib.contextmanager
    def _arrow_errors(self, shape: _Shape | None = None) -> Iterator[None]:
        """Turn pyarrow's errors into one line naming the file (and the row, if known)."""
        import pyarrow as pa

        hook = sys.unraisablehook
        if shape is not None:  # pyarrow fails to decode a bad row that is not UTF-8, on stderr
            sys.unraisablehook = shape.unraisable
        try:
            yield
        except pa.ArrowException as exc:
            raise self._explain(exc, shape) from None
        except (OSError, UnicodeError) as exc:
            text = f"cannot read it as {self.opts.fmt} ({_first_line(exc)})."
            raise _fail(self.name, text) from None
        finally:
            sys.unraisablehook = hook

    def _explain(self, exc: BaseException, shape: _Shape | None) -> click.ClickException:
        text = _first_line(exc)
        if "Empty CSV file" in text:
            return _fail(self.name, "is empty. It needs a header row, then one row per item.")
        if shape is not None and shape.expected is not None:
            line, fields, expected = _bad_row(self.path, self.opts)
            return _fail(
                self.name,
                f"line {line} has {fields} fields where the header has {expected}. "
                "Fix that row (a missing rating is an empty field), or pass --delimiter if "
                f"the fields are not separated by {self.opts.delimiter!r}.",
            )
        if "straddl" in text:
            return _fail(
                self.name,
                "has a row longer than the chunks it is read in. Pass a larger --chunk-rows, "
                "or --chunk-rows 0 to read it whole.",
            )
        if "UTF8" in text or "utf-8" in text.lower():
            return _fail(
                self.name,
                f"is not valid {self.opts.encoding} ({text}). Pass its encoding, "
                "e.g. --encoding latin-1.",
            )
        return _fail(self.name, f"cannot read it as {self.opts.fmt} ({text}).")

    # Parquet and Excel -------------------------------------------------------------------

    def _parquet(self, columns: list[str], bar: bool) -> Iterator[Any]:
        import pyarrow as pa
        import pyarrow.parquet as pq

        with self._arrow_errors():
            file = pq.ParquetFile(self.path)
            if not self.rows:
                yield file.read(columns=columns)
                return
            total = int(file.metadata.num_rows)
            batches = file.iter_batches(batch_size=self.rows, columns=columns)
            name = os.path.basename(self.name)
            with progress(total, f"reading {name}", unit="row", worth=bar) as shown:
                for batch in batches:
                    if shown is not None:
                        shown.update(batch.num_rows)
                    yield pa.Table.from_batches([batch])

    def _excel_table(self) -> Any:
        """Return the sheet's cells as strings (read once: Excel is never streamed)."""
        if self._excel is None:
            self._excel = _excel_strings(self.name, self.path)
        return self._excel


pa_Table = Any  # pyarrow is imported lazily: its Table type is Any here


@dataclass
class _Shape:
    """pyarrow's invalid-row handler: remember that a row had the wrong number of fields."""

    expected: int | None = None

    def __call__(self, row: Any) -> str:
        self.expected = int(row.expected_columns)
        return "error"

    def unraisable(self, info: Any) -> None:
        """Note a bad row pyarrow could not hand over (its text is not UTF-8)."""
        self.expected = 0


def _bad_row(path: str, opts: Options) -> tuple[int, int, int]:
    """Return (line, fields, header's fields) of the first row not as long as the header.

    pyarrow does not know the line of a bad row when quoted cells may span
    lines, so the file is scanned again, on this error path only.
    """
    import pyarrow as pa

    encoding = "utf-8-sig" if codecs.lookup(opts.encoding).name == "utf-8" else opts.encoding
    with pa.input_stream(path) as raw:
        text = io.TextIOWrapper(raw, encoding=encoding, errors="replace", newline="")
        reader = csv.reader(text, delimiter=opts.delimiter)
        expected = len(next(reader, []))
        for row in reader:
            if row and len(row) != expected:
                return reader.line_num, len(row), expected
    return 0, 0, expected


def _one_column(name: str, delimiter: str) -> str:
    found = [d for d in (";", "\t", "|", ",") if d in name and d != delimiter]
    hint = f"--delimiter {found[0]!r}" if found else "--delimiter"
    if found[:1] == ["\t"]:
        hint = "--delimiter '\\t' (or --input-format tsv)"
    return (
        f"parsed into one column ({name[:60]!r}) with the delimiter {delimiter!r}; "
        f"the ratings need a column per rater. Pass {hint} if the fields are separated "
        "otherwise, or --input-format if the file is not CSV."
    )


def _excel_strings(name: str, path: str) -> Any:
    """Read an Excel sheet; return its cells as a pyarrow table of strings (null: empty)."""
    import pandas as pd
    import pyarrow as pa

    try:
        frame = pd.read_excel(path, dtype=object, keep_default_na=False, na_values=[""])
    except ImportError as exc:
        raise _fail(
            name,
            f"reading Excel needs {exc.name or 'openpyxl'}; "
            'install it with pip install "concord[cli]".',
        ) from None
    except Exception as exc:  # openpyxl and xlrd have their own errors: report them on one line
        raise _fail(name, f"cannot read it as excel ({_first_line(exc)}).") from None
    if len(set(map(str, frame.columns))) != frame.shape[1]:
        raise _fail(name, "two columns have the same name. Give every column its own name.")
    return pa.table(
        {
            str(c): pa.array([None if pd.isna(v) else str(v) for v in frame[c]], pa.string())
            for c in frame.columns
        }
    )


def _block_size(path: str, rows: int) -> int:
    """Bytes per CSV block for about ``rows`` rows, from the length of the first lines.

    A row must fit in a block: blocks are at least twice the longest line seen.
    """
    sample = b""
    if not path.endswith((".gz", ".bz2")):
        with open(path, "rb") as f:
            sample = f.read(1 << 20)
    lines = sample.split(b"\n")
    per_row = len(sample) / (len(lines) - 1) if len(lines) > 2 else 64
    longest = max(map(len, lines)) if len(lines) > 1 else 2 * len(sample)
    return int(min(max(per_row * rows, MIN_BLOCK, 2 * longest), 1 << 30))


def _spool_stdin() -> str:
    """Copy stdin to a temporary file, removed at exit; return its path."""
    with tempfile.NamedTemporaryFile(prefix="concord-stdin-", delete=False) as f:
        shutil.copyfileobj(sys.stdin.buffer, f, 1 << 20)
    atexit.register(os.unlink, f.name)
    return f.name


# --- the conversion: raw cells → rating columns, the same for every chunk ---------------------


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
    kind: str | None = None
    first: Cell | None = None


@dataclass
class Converter:
    """Turn each chunk's raw cells into rating columns, remembering each group's type."""

    path: str
    opts: Options
    groups: list[Group]
    offset: int = 0  # data rows converted so far

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
            for c, (kind, values) in cells.items():
                out[c] = _to_pandas(kind, values, self._cell, c)
        if clashes:
            raise min(clashes, key=lambda f: f.row)
        self.offset += table.num_rows
        return pd.DataFrame(out)

    def decode(self, table: Any) -> dict[str, Any]:
        """Return the groups' columns with raw bytes decoded; fail at the first bad cell."""
        import pyarrow as pa

        decoded: dict[str, Any] = {}
        faults: list[_Fault] = []
        for group in self.groups:
            for c in group.columns:
                values = table.column(c)
                try:
                    decoded[c] = (
                        self._decoded(values, c) if pa.types.is_binary(values.type) else values
                    )
                except _Fault as fault:
                    faults.append(fault)
        if faults:
            raise min(faults, key=lambda f: f.row)
        return decoded

    def _cell(self, column: str, index: int, values: Any) -> Cell:
        return Cell(self.offset + index + 2, column, str(values[index].as_py()))

    def _typed(self, values: Any, name: str) -> tuple[str | None, Any]:
        """Classify one column: (kind, values) with kind number, text, bool, category or None."""
        import pyarrow as pa

        t = values.type
        if pa.types.is_binary(t) or pa.types.is_string(t) or pa.types.is_large_string(t):
            return self._strings(values, name)
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
        """Decode, trim and mark missing; return the cells' kind (None: all missing)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        if not pa.types.is_string(values.type):
            values = self._decoded(values, name)
        cells = pc.utf8_trim_whitespace(values)
        markers = pa.array(self.opts.na_values, pa.string())
        missing = pc.or_(pc.equal(cells, ""), pc.is_in(cells, value_set=markers))
        cells = pc.if_else(missing, pa.scalar(None, pa.string()), cells)
        return "strings", cells

    def _decoded(self, values: Any, name: str) -> Any:
        import pyarrow as pa

        try:
            return values.cast(pa.string())
        except pa.ArrowInvalid:
            row = next(i for i, v in enumerate(values.to_pylist()) if not _utf8(v))
            raise _Fault(
                self.path,
                f"row {self.offset + row + 2} of column {name!r} is not valid UTF-8 "
                f"({values[row].as_py()[:30]!r}). Pass the file's encoding, "
                "e.g. --encoding latin-1 (or cp1252).",
                rank=1,
                row=self.offset + row + 2,
            ) from None

    def _check_kind(self, group: Group, cells: dict[str, tuple[str | None, Any]]) -> None:
        """Settle the text columns' kinds; fail if the group mixes numbers and text.

        The group's kind is the kind of its first cell in file order (row,
        then column), so a chunked read fails on the same two cells as a
        whole one.
        """
        names = list(cells)
        for index, pos, kind in _first_cells(cells, group.text):
            cell = self._cell(names[pos], index, cells[names[pos]][1])
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


def _string_kinds(values: Any, text: bool) -> dict[str, int]:
    """Return the index of the first number and of the first text cell (-1: none)."""
    import pyarrow.compute as pc

    if text:
        return {"text": _first_valid(values)}
    if _plain_integers(values) is not None:  # the common case, without a regex per cell
        return {"number": _first_valid(values), "text": -1}
    numeric = pc.match_substring_regex(values, f"^{cin.NUMBER}$")
    return {
        "number": pc.index(numeric, True).as_py(),
        "text": pc.index(numeric, False).as_py(),
    }


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
            kinds = _string_kinds(values, text)
            firsts += [(i, pos, k) for k, i in kinds.items() if i >= 0]
        elif kind is not None:
            index = _first_valid(values)
            if index >= 0:
                firsts.append((index, pos, kind))
    return sorted(firsts)


def _family(kind: str) -> str:
    """Numbers (and bools) against text (and categoricals): the two kinds never mixed."""
    return "text" if kind in ("text", "category") else "number"


def _to_pandas(
    kind: str | None, values: Any, cell: Callable[[str, int, Any], Cell], name: str
) -> Any:
    """One column as the library takes it: float64 with NaN, or a Categorical."""
    import numpy as np
    import pandas as pd
    import pyarrow as pa

    if kind is None:
        return np.full(len(values), np.nan)
    if kind in ("number",) and pa.types.is_string(values.type):
        return _numbers(values)
    if kind == "number" and pa.types.is_integer(values.type) and values.null_count:
        # a nullable integer column, not float64 with NaN: 2**53 + 1 stays itself
        return pd.array(values.to_pylist(), dtype=_NULLABLE[str(values.type)])
    if kind == "number":
        return values.to_pandas().to_numpy()
    if kind == "text":
        encoded = values.combine_chunks().dictionary_encode()
        codes = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False)
        categories = pd.Index(encoded.dictionary.to_pylist(), dtype=object)
        return pd.Categorical.from_codes(codes, categories=categories)
    return values.to_pandas().array  # bools and Parquet categoricals keep their own type


_NULLABLE = {f"{u}int{b}": f"{u.upper()}Int{b}" for u in ("", "u") for b in (8, 16, 32, 64)}
# an integer written with more digits than float64 holds exactly (2**53 has 16)
_LONG_INTEGER = r"^[+-]?0*[1-9][0-9]{15,}(?:\.0*)?$"


def _plain_integers(values: Any) -> Any:
    """Return the cells as int64 when every one is a decimal integer that fits, else None.

    Arrow's cast parses a column of integers in one pass in C++, where the
    regular expressions of :data:`concord._cli.columns.NUMBER` cost several.
    It also reads hexadecimal ("0x10"), which concord reads as a word: a
    column with an "x" goes the regular way.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        integers = pc.cast(values, pa.int64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if pc.any(pc.match_substring(values, "x", ignore_case=True)).as_py():
        return None
    return integers


def _numbers(values: Any) -> Any:
    """Numeric cells as float64, or as exact Python numbers when an integer is too long.

    float64 holds every integer up to 2**53 = 9007199254740992; past that,
    9007199254740993 would become 9007199254740992 and merge with it. A
    chunk with such an integer keeps its integers as Python ints (the
    library compares them exactly), cell by cell, so a chunked read agrees
    with a whole one.
    """
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    integers = _plain_integers(values)
    if integers is not None and (pc.max(pc.abs(integers)).as_py() or 0) <= 2**53:
        return pc.cast(integers, pa.float64()).to_numpy(zero_copy_only=False)
    floats = pc.cast(values, pa.float64()).to_numpy(zero_copy_only=False)
    if not pc.any(pc.match_substring_regex(values, _LONG_INTEGER)).as_py():
        return floats
    exact = np.array(floats, dtype=object)
    integer = re.compile(r"[+-]?[0-9]+(?:\.0*)?")
    for i, text in enumerate(values.to_pylist()):
        if text is not None and integer.fullmatch(text):
            exact[i] = int(text.split(".")[0])
    return exact


# --- columns: ids, raters, the long form --------------------------------------------------------


def looks_like_id(name: str) -> bool:
    """Return True for a column name that names items, not a rater (id, patient, essay_id …)."""
    return name.strip().casefold() in ID_NAMES or bool(_ID_SUFFIX.search(name.strip()))


def id_candidates(source: Source, names: list[str]) -> list[str]:
    """Columns that look like item ids: by name, or all distinct over the first rows."""
    import pyarrow as pa
    import pyarrow.compute as pc

    by_name = [n for n in names if looks_like_id(n)]
    sample = source.sample(names)
    distinct = []
    for n in names:
        values = sample.column(n)
        if len(values) < DISTINCT_MIN or values.null_count:
            continue
        textual = pa.types.is_binary(values.type) or pa.types.is_string(values.type)
        if textual and pc.min(pc.binary_length(values)).as_py() == 0:
            continue  # an empty cell: a missing rating, not an id
        if pc.count_distinct(values).as_py() == len(values):
            distinct.append(n)
    return [n for n in names if n in by_name or n in distinct]


def frames(source: Source, groups: list[Group], bar: bool = False) -> Iterator[Any]:
    """Yield the groups' columns as converted DataFrames, chunk by chunk (one if whole)."""
    columns = [c for g in groups for c in g.columns]
    convert = Converter(source.name, source.opts, groups)
    tables = source.tables(columns, bar)
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
            if fault.rank == 2:
                convert.decode(table)
            convert.offset += table.num_rows
    except _Fault as encoding:
        return _outranked(encoding, rest, convert)
    except click.ClickException as shape:  # a row of the wrong shape, found while parsing
        return shape
    return fault


def whole(source: Source, groups: list[Group]) -> Any:
    """Return the groups' columns of the whole file as one DataFrame."""
    import pandas as pd

    parts = list(frames(source, groups))
    frame = parts[0] if len(parts) == 1 else pd.concat(parts, ignore_index=True)
    if not frame.shape[0]:  # as a chunked read says it
        raise _fail(source.name, "no rows to read.")
    if not frame.notna().to_numpy().any():
        raise _fail(source.name, NO_RATINGS)
    return frame


def text_frame(file: str, o: dict[str, Any]) -> Any:
    """Return every column of FILE as text (empty cells as ""), to write rows back unchanged."""
    import pyarrow as pa

    source = Source(file, options(file, o))
    names = source.names()
    table = next(source.tables(names))
    convert = Converter(file, source.opts, [])
    columns = {}
    for n in names:
        values = table.column(n)
        if pa.types.is_binary(values.type):
            values = convert._decoded(values, n)
        columns[n] = values.to_pandas()
    import pandas as pd

    return pd.DataFrame(columns)


def select(names: Sequence[str], wanted: Sequence[str], path: str, option: str) -> list[str]:
    """Check that the columns exist; fail naming the option and listing the columns."""
    for i, name in enumerate(wanted):
        if name not in names:
            raise _fail(path, f"no column {name!r} for {option}. Columns: {', '.join(names)}.")
        if name in wanted[:i]:  # a rater counted twice would inflate the agreement
            raise click.UsageError(f"{option} names {name!r} twice; name each column once.")
    return list(wanted)


def wide_columns(source: Source, o: dict[str, Any]) -> list[str]:
    """Return the wide-form rater columns: --raters, all but --id, or all but an id column.

    Without either option, a column named like an id (or whose first rows
    are all distinct) is the item id, said on stderr; two such columns, or
    one that would leave fewer than two raters, need --raters or --id.
    """
    names = source.names()
    raters = cin.split_names(o.get("raters"))
    if raters is not None:
        return select(names, raters, source.name, "--raters")
    if o.get("id_column") is not None:
        select(names, [o["id_column"]], source.name, "--id")
        return [n for n in names if n != o["id_column"]]
    if len(names) < 2:
        raise _fail(source.name, _one_column(names[0] if names else "", source.opts.delimiter))
    ids = id_candidates(source, names)
    if not ids:
        return names
    if len(ids) > 1 or len(names) < 3:
        raise click.UsageError(
            f"{source.name}: column{'s' if len(ids) > 1 else ''} {', '.join(map(repr, ids))} "
            "look like item ids (an id's name, or every value distinct), not raters. Name "
            "the raters with --raters a,b,c, or the id column with --id."
        )
    click.echo(
        f"note: treating column {ids[0]!r} as the item id (pass --raters to choose the "
        "rater columns, or --id to name it).",
        err=True,
    )
    return [n for n in names if n != ids[0]]


def pair_columns(path: str, names: list[str], o: dict[str, Any]) -> list[str]:
    """Return the --rater1 and --rater2 columns, or the only two columns there are."""
    if o["rater1"] is None and o["rater2"] is None and len(names) == 2:
        return names
    if o["rater1"] is None or o["rater2"] is None:
        raise click.UsageError(
            f"name the raters with --rater1 and --rater2 ({path}: {', '.join(names)})."
        )
    first = select(names, [o["rater1"]], path, "--rater1")
    if o["rater2"] == o["rater1"]:
        raise click.UsageError(
            f"--rater1 and --rater2 both name {o['rater1']!r}; name two different raters."
        )
    return first + select(names, [o["rater2"]], path, "--rater2")


def long_form(source: Source, long: cin.Long, text: bool) -> Any:
    """Read (item, rater, rating) rows whole; return one column per rater, raters in order.

    An empty item or rater cell, or a second rating of an item by a rater, is
    an error naming its row. Items keep their sorted order, raters the order
    in which they first appear.
    """
    import pandas as pd

    names = source.names()
    for name, option in (
        (long.item, "--item"),
        (long.rater, "--rater"),
        (long.rating, "--rating"),
    ):
        select(names, [name], source.name, option)
    table = next(source.tables(list(dict.fromkeys([long.item, long.rater, long.rating]))))
    convert = Converter(source.name, source.opts, [Group([long.rating], text)])
    keys = [
        _key(convert, table.column(c), c, what)
        for c, what in ((long.item, "item"), (long.rater, "rater"))
    ]
    ratings = convert(table.select([long.rating]))[long.rating]
    item, items = pd.factorize(keys[0], sort=True)
    rater, raters = pd.factorize(keys[1])
    again = pd.Series(item * len(raters) + rater).duplicated().to_numpy()
    if again.any():
        row = int(again.nonzero()[0][0])
        raise _fail(
            source.name,
            f"row {row + 2} rates item {keys[0][row]!r} by rater {keys[1][row]!r} a second "
            "time. Keep one rating per (item, rater) pair.",
        )
    return _pivot(ratings, item, rater, len(items), [str(r) for r in raters])


def _key(convert: Converter, values: Any, name: str, what: str) -> Any:
    """Return an item or rater column as strings; an empty cell is an error naming its row."""
    import pyarrow.compute as pc

    _, cells = convert._strings(values, name)
    if cells.null_count:
        row = pc.index(pc.is_null(cells), True).as_py()
        raise _fail(
            convert.path,
            f"row {row + 2} has no {what}: column {name!r} is empty there. Every rating "
            f"needs its item and its rater; fill in the {what} or drop the row.",
        )
    return cells.to_pandas().to_numpy(dtype=object)


def _pivot(ratings: Any, item: Any, rater: Any, n_items: int, raters: list[str]) -> Any:
    """Place each rating at (item, rater); unrated cells are missing."""
    import numpy as np
    import pandas as pd

    if isinstance(ratings.dtype, pd.CategoricalDtype):
        cat = ratings.array
        codes = np.full((n_items, len(raters)), -1, dtype=np.int64)
        codes[item, rater] = cat.codes
        dtype = pd.CategoricalDtype(cat.categories, ordered=cat.ordered)
        return pd.DataFrame(
            {r: pd.Categorical.from_codes(codes[:, j], dtype=dtype) for j, r in enumerate(raters)}
        )
    if ratings.dtype.kind == "f":
        wide = np.full((n_items, len(raters)), np.nan)
    else:
        wide = np.full((n_items, len(raters)), None, dtype=object)
    wide[item, rater] = ratings.to_numpy()
    return pd.DataFrame(wide, columns=raters)


def columns(file: str, o: dict[str, Any], wanted: dict[str, str | None]) -> Any:
    """Read the columns the options name ({option: column}), each column its own type.

    The first is a rating column (read as text with text ``--labels``); the
    others are read by their cells alone.
    """
    source = Source(file, options(file, o))
    names = source.names()
    chosen = [select(names, [c], file, option)[0] for option, c in wanted.items() if c]
    groups = [
        Group([c], text=i == 0 and cin.labels_are_text(o.get("labels")))
        for i, c in enumerate(dict.fromkeys(chosen))
    ]
    return whole(source, groups)
