"""Files → pyarrow tables of raw cells, the first step of the command line's reader.

A :class:`Source` is a CSV or TSV file (or stdin, copied to a temporary
file first), a Parquet file or an Excel sheet; it yields the columns asked
for as pyarrow tables, the whole file at once or chunk by chunk. CSV cells
stay the bytes they are, Excel cells become strings, Parquet keeps its own
column types; a file that cannot be parsed (a row of the wrong shape, one
column, duplicate names) fails here, naming its line or column.
"""

from __future__ import annotations

import atexit
import codecs
import contextlib
import csv
import io
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import click

from concord._cli import columns as cin
from concord._common.extras import install_line
from concord._inference.intervals import show_progress

SAMPLE_ROWS = 1_000
_HEADER_BLOCK = 1 << 20
# the smallest CSV block streamed: a row must fit in one block
MIN_BLOCK = 1 << 16
# a whole CSV read shows its bar from this size, reading blocks of BAR_BLOCK bytes
BAR_BYTES = 16 << 20
BAR_BLOCK = 4 << 20
BAR_DELAY = 1.0  # seconds before a bar is drawn
NO_RATINGS = "has no ratings: every cell of the rater columns is empty (or an --na-values marker)."


@dataclass(frozen=True)
class Options:
    """How to read a file: its format, field separator, encoding and missing-value markers."""

    fmt: str
    delimiter: str
    encoding: str
    na_values: tuple[str, ...] = ()
    # --na-values or --labels given: the user chose what a cell such as "NA" means
    chosen: bool = False

    @property
    def markers_unsettled(self) -> bool:
        """Whether a text cell that looks like a missing-value marker must stop the read."""
        return not (self.chosen or self.na_values)


def options(file: str, o: dict[str, Any]) -> Options:
    """Return the reading options of FILE from the parsed command-line options."""
    fmt = cin.input_format(file, o.get("input_format"))
    if fmt == "export" or fmt in cin.EXPORTS:
        raise click.ClickException(
            f"{file} is an annotation tool's export: this command reads a table of ratings "
            "(CSV, TSV, Parquet, Excel). concord agree, kappa, raters, items, icc, report "
            "and spans read exports; or convert it with concord.read_annotations in Python."
        )
    delimiter = o.get("delimiter") or ("\t" if fmt == "tsv" else ",")
    if delimiter in ("\\t", "tab"):
        delimiter = "\t"
    if len(delimiter) != 1 or delimiter in '\r\n"':
        raise click.BadParameter(
            f"{delimiter!r} is not one character (a comma, ';', '|' or \\t).",
            param_hint="--delimiter",
        )
    encoding = _text_encoding(o.get("encoding") or "utf-8")
    na = tuple(t.strip() for t in (o.get("na_values") or "").split(","))
    chosen = o.get("na_values") is not None or o.get("labels") is not None
    return Options(fmt, delimiter, encoding, tuple(t for t in na if t), chosen)


def _text_encoding(encoding: str) -> str:
    """Return ``encoding`` if it names a text encoding (bytes to str), else a one-line error."""
    try:
        codecs.lookup(encoding)
        "".encode(encoding)  # a codec that is not a text encoding (rot13, hex, zlib) fails here
    except LookupError as exc:
        known = "unknown encoding" not in str(exc)
        raise click.BadParameter(
            f"got {encoding!r}, {'not a text encoding' if known else 'an unknown encoding'}; "
            "expected a text encoding such as utf-8, latin-1 or cp1252.",
            param_hint="--encoding",
        ) from None
    return encoding


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
            if self.opts.fmt in ("csv", "tsv") and _json_start(self.path):
                raise _fail(
                    "-",
                    f"stdin holds JSON, not {self.opts.fmt.upper()}: an annotation tool's "
                    f"export? Name its tool with --input-format {'|'.join(cin.EXPORTS[:4])}.",
                )
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

    def tables(
        self, columns: list[str], bar: bool = False, coded: bool = False
    ) -> Iterator[pa_Table]:
        """Yield the columns' raw cells, the whole file at once or chunk by chunk.

        With ``coded``, CSV cells come dictionary-encoded (each distinct
        cell's bytes once, and an index per row): smaller, and typed once
        per distinct cell by :mod:`concord._cli.reading.coded`.
        """
        if self.opts.fmt == "excel":
            yield self._excel_table().select(columns)
        elif self.opts.fmt == "parquet":
            yield from self._parquet(columns, bar)
        else:
            yield from self._csv(columns, bar, coded)

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

    def _convert(self, columns: list[str], coded: bool) -> Any:
        import pyarrow as pa
        import pyarrow.csv as pc

        # bytes, checked for the encoding afterwards, so that a bad cell can be named
        kind = pa.dictionary(pa.int32(), pa.binary()) if coded else pa.binary()
        return pc.ConvertOptions(
            column_types=dict.fromkeys(columns, kind),
            include_columns=columns,
            null_values=[],
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
        )

    def _csv(self, columns: list[str], bar: bool, coded: bool) -> Iterator[Any]:
        import pyarrow as pa
        import pyarrow.csv as pc

        shape = _Shape()
        size = None if self.path.endswith((".gz", ".bz2")) else os.path.getsize(self.path)
        # a whole read with a bar reads block by block, so that the bar moves
        shown = bar and (self.rows > 0 or (size or 0) >= BAR_BYTES) and show_progress()
        if not self.rows and not shown:
            with self._arrow_errors(shape):
                table = pc.read_csv(
                    self.path,
                    read_options=pc.ReadOptions(encoding=self.opts.encoding),
                    parse_options=self._parse(shape),
                    convert_options=self._convert(columns, coded),
                )
            yield table
            return
        per_row, longest = _row_bytes(self.path)
        block = (
            _block_size(per_row, longest, self.rows) if self.rows else max(BAR_BLOCK, 2 * longest)
        )
        source = pa.input_stream(self.path)
        try:
            with self._arrow_errors(shape):
                reader = pc.open_csv(
                    source,
                    read_options=pc.ReadOptions(encoding=self.opts.encoding, block_size=block),
                    parse_options=self._parse(shape),
                    convert_options=self._convert(columns, coded),
                )
            total = int(size / per_row) if size else None
            with _bar(total, self.name, shown) as progress_bar:
                batches = self._batches(reader, shape, progress_bar)
                if self.rows:
                    yield from batches
                else:
                    yield pa.concat_tables([reader.schema.empty_table(), *batches])
        finally:
            source.close()

    def _batches(self, reader: Any, shape: _Shape, bar: Any) -> Iterator[Any]:
        """Yield the reader's batches as tables, counting their rows on the bar."""
        import pyarrow as pa

        it, done = iter(reader), 0
        while True:
            with self._arrow_errors(shape):
                batch = next(it, None)
            if batch is None:
                if bar is not None:  # the total was an estimate from the first lines
                    bar.total = done
                    bar.refresh()
                return
            done += batch.num_rows
            if bar is not None:
                bar.update(batch.num_rows)
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
            with _bar(total, self.name, bar and show_progress()) as shown:
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
            f"reading Excel needs {exc.name or 'openpyxl'}: {install_line('cli')}.",
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


def _row_bytes(path: str) -> tuple[float, int]:
    """Return the mean and the longest length of the first lines of a CSV file, in bytes."""
    sample = b""
    if not path.endswith((".gz", ".bz2")):
        with open(path, "rb") as f:
            sample = f.read(1 << 20)
    lines = sample.split(b"\n")
    per_row = len(sample) / (len(lines) - 1) if len(lines) > 2 else 64
    longest = max(map(len, lines)) if len(lines) > 1 else 2 * len(sample)
    return per_row, longest


def _block_size(per_row: float, longest: int, rows: int) -> int:
    """Bytes per CSV block for about ``rows`` rows: a row must fit, so twice the longest line."""
    return int(min(max(per_row * rows, MIN_BLOCK, 2 * longest), 1 << 30))


@contextlib.contextmanager
def _bar(total: int | None, name: str, shown: bool) -> Iterator[Any]:
    """Yield a tqdm bar of rows read, drawn after a second (a fast read shows none), or None."""
    bar = None
    if shown:
        try:
            from tqdm.auto import tqdm

            bar = tqdm(
                total=total,
                desc=f"reading {os.path.basename(name)}",
                unit="rows",
                unit_scale=True,
                leave=False,
                delay=BAR_DELAY,
            )
        except ImportError:  # pragma: no cover - tqdm is optional
            bar = None
    try:
        yield bar
    finally:
        if bar is not None:
            bar.close()


def _json_start(path: str) -> bool:
    """Whether the file starts (after blanks and a byte-order mark) with a JSON [ or {."""
    with open(path, "rb") as f:
        head = f.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] in (b"[", b"{")


def _spool_stdin() -> str:
    """Copy stdin to a temporary file, removed at exit; return its path."""
    with tempfile.NamedTemporaryFile(prefix="concord-stdin-", delete=False) as f:
        shutil.copyfileobj(sys.stdin.buffer, f, 1 << 20)
    atexit.register(os.unlink, f.name)
    return f.name
