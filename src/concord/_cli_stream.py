"""Files larger than memory: read them in chunks and count each chunk into accumulators.

CSV and TSV go through pyarrow's streaming CSV reader, Parquet through its
record batches (row groups); each chunk becomes a small DataFrame of the
rater columns and is added to a :func:`concord.accumulate` accumulator,
whose result is the in-memory result (the accumulators' contract). Memory
is bounded by the chunk, not the file. The CLI computes nothing itself here
either: it only feeds the library's accumulators.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import click

from concord import _cli_input as cin
from concord._cli_options import alpha_level, family
from concord._inference import progress

# --chunk-rows auto: stream files larger than this, in chunks of this many rows
AUTO_BYTES = 100 << 20
AUTO_ROWS = 1_000_000
STREAMABLE = ("csv", "tsv", "parquet")


def chunk_rows(file: str, o: dict[str, Any]) -> int:
    """Return the chunk size to stream FILE with, or 0 to read it whole."""
    rows: int | None = o.get("chunk_rows")
    fmt = cin.input_format(file, o.get("input_format"))
    long = any(o.get(k) is not None for k in ("item", "rater", "rating"))
    if rows is None:  # auto: stream large wide-form files
        big = file != "-" and os.path.isfile(file) and os.path.getsize(file) > AUTO_BYTES
        rows = AUTO_ROWS if big and fmt in STREAMABLE and not long else 0
    if rows and fmt not in STREAMABLE:
        raise click.UsageError(
            f"--chunk-rows streams CSV, TSV and Parquet files; {file} is {fmt}. "
            "Convert it to CSV or Parquet, or leave out --chunk-rows to read it whole."
        )
    if rows and long:
        raise click.UsageError(
            "--chunk-rows streams wide-form files (one column per rater): a long-form item "
            "may span chunks. Pivot the file to one column per rater, or compute with "
            "concord.dask, which gathers each item's ratings first."
        )
    return rows


@dataclass
class Tally:
    """What the chunks held: rows (items), ratings and missing ratings."""

    raters: list[str]
    items: int = 0
    ratings: int = 0
    missing: int = 0
    chunks: int = 0

    def add(self, frame: Any) -> None:
        missing = int(frame.isna().to_numpy().sum())
        self.items += int(frame.shape[0])
        self.ratings += int(frame.size) - missing
        self.missing += missing
        self.chunks += 1

    def shape(self) -> dict[str, Any]:
        """Return the shape as :func:`concord._records.frame_shape` gives it."""
        return {
            "items": self.items,
            "raters": list(self.raters),
            "ratings": self.ratings,
            "missing_ratings": self.missing,
        }


@dataclass
class Stream:
    """A file read in chunks of its rater columns.

    ``name`` is the file as the user gave it; stdin (``-``) is first copied
    to a temporary file, so that its header can be read before its chunks
    and memory stays bounded.
    """

    name: str
    fmt: str
    rows: int
    path: str = ""

    def __post_init__(self) -> None:
        self.path = self.name if self.name != "-" else _spool_stdin()

    def names(self) -> list[str]:
        """Return the file's column names, reading only its header (or schema)."""
        with self._open(None) as (reader, _):
            return [str(n) for n in reader.schema.names]

    def chunks(self, columns: list[str]) -> Iterator[Any]:
        """Yield DataFrames of ``columns``, about ``rows`` rows each, with a progress bar.

        The bar counts bytes of a CSV file on disk, rows of Parquet, and
        rows without a total for stdin and compressed files.
        """
        with self._open(columns) as (reader, position):
            size = self._size()
            total = size if size is not None else getattr(reader, "num_rows", None)
            unit = "B" if size is not None else "row"
            name = os.path.basename(self.name)
            with progress(total or 0, f"reading {name}", unit=unit, worth=True) as bar:
                done = 0
                for batch in _batches(reader, self.name):
                    frame = batch.to_pandas()
                    if bar is not None:
                        now = position() if size is not None else done + batch.num_rows
                        bar.update(now - done)
                        done = now
                    yield frame

    def _size(self) -> int | None:
        """Bytes of a CSV/TSV file on disk (what the bar counts), else None."""
        if self.fmt == "parquet" or self.path.endswith((".gz", ".bz2")):
            return None
        return os.path.getsize(self.path)

    @contextlib.contextmanager
    def _open(self, columns: list[str] | None) -> Iterator[tuple[Any, Callable[[], int]]]:
        """Open the file's reader: yield (reader, bytes consumed so far); close it after."""
        import pyarrow as pa

        source: Any = None
        try:
            if self.fmt == "parquet":
                import pyarrow.parquet as pq

                source = pq.ParquetFile(self.path)
                reader: Any = _ParquetReader(source, columns, self.rows)
                position: Callable[[], int] = lambda: 0  # noqa: E731
            else:
                import pyarrow.csv as pc

                source = pa.input_stream(self.path)
                reader = pc.open_csv(
                    source,
                    read_options=pc.ReadOptions(block_size=_block_size(self.path, self.rows)),
                    parse_options=pc.ParseOptions(delimiter="\t" if self.fmt == "tsv" else ","),
                    convert_options=pc.ConvertOptions(
                        include_columns=columns,
                        # missing as pandas.read_csv reads a whole file: its default NA strings
                        null_values=[*pc.ConvertOptions().null_values, "<NA>", "None"],
                        strings_can_be_null=True,
                        quoted_strings_can_be_null=True,
                    ),
                )
                position = source.tell
        except FileNotFoundError:
            raise click.ClickException(f"{self.name}: no such file.") from None
        except (pa.ArrowException, OSError) as exc:
            raise click.ClickException(
                f"{self.name}: cannot read it as {self.fmt} ({_first(exc)})."
            ) from None
        try:
            yield reader, position
        finally:
            source.close()


@dataclass
class _ParquetReader:
    """Parquet's record batches of the chosen columns, with the schema of the file."""

    file: Any
    columns: list[str] | None
    rows: int

    @property
    def schema(self) -> Any:
        return self.file.schema_arrow

    @property
    def num_rows(self) -> int:
        return int(self.file.metadata.num_rows)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.file.iter_batches(batch_size=self.rows, columns=self.columns))


def _batches(reader: Any, path: str) -> Iterator[Any]:
    """Yield the reader's record batches; a chunk that does not parse fails on one line."""
    import pyarrow as pa

    it = iter(reader)
    while True:
        try:
            batch = next(it)
        except StopIteration:
            return
        except pa.ArrowInvalid as exc:
            raise click.ClickException(
                f"{path}: a later chunk does not parse like the first ({_first(exc)}). The "
                "column types are found in the first chunk: clean the column, or read the "
                "file whole with --chunk-rows 0."
            ) from None
        yield batch


def _block_size(path: str, rows: int) -> int:
    """Bytes per CSV block for about ``rows`` rows, from the length of the first lines."""
    sample = b""
    if not path.endswith((".gz", ".bz2")):
        with open(path, "rb") as f:
            sample = f.read(1 << 16)
    lines = sample.count(b"\n")
    per_row = len(sample) / lines if lines > 1 else 64
    return int(min(max(per_row * rows, 1 << 16), 1 << 30))


def _spool_stdin() -> str:
    """Copy stdin to a temporary file, removed at exit; return its path."""
    with tempfile.NamedTemporaryFile(prefix="concord-stdin-", delete=False) as f:
        shutil.copyfileobj(sys.stdin.buffer, f, 1 << 20)
    atexit.register(os.unlink, f.name)
    return f.name


def _first(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def select(names: list[str], wanted: list[str], path: str, option: str) -> list[str]:
    """Check that the columns exist; fail naming the option and listing the columns."""
    for name in wanted:
        if name not in names:
            raise click.ClickException(
                f"{path}: no column {name!r} for {option}. Columns: {', '.join(names)}."
            )
    return wanted


def _feed(stream: Stream, columns: list[str], start: Callable[[Any], list[Any]]) -> Tally:
    """Count every chunk into the accumulators ``start`` makes from the first chunk."""
    tally = Tally(columns)
    accumulators: list[Any] | None = None
    for frame in stream.chunks(columns):
        if accumulators is None:
            accumulators = start(frame)
        tally.add(frame)
        for acc in accumulators:
            if acc.function.__name__ == "cohen_kappa":
                acc.update(frame.iloc[:, 0], frame.iloc[:, 1])
            else:
                acc.update(frame)
    if accumulators is None:
        raise click.ClickException(f"{stream.name}: no rows to read.")
    return tally


def kappa(file: str, o: dict[str, Any], rows: int) -> tuple[Any, tuple[str, str]]:
    """Cohen's kappa of the --rater1 and --rater2 columns, counted chunk by chunk."""
    import concord

    stream = Stream(file, cin.input_format(file, o.get("input_format")), rows)
    names = stream.names()
    if o["rater1"] is None and o["rater2"] is None and len(names) == 2:
        pair = names
    elif o["rater1"] is None or o["rater2"] is None:
        raise click.UsageError(
            f"name the raters with --rater1 and --rater2 ({file}: {', '.join(names)})."
        )
    else:
        pair = select(names, [o["rater1"]], file, "--rater1")
        pair += select(names, [o["rater2"]], file, "--rater2")
    made: list[Any] = []

    def start(frame: Any) -> list[Any]:
        made.append(
            concord.accumulate(
                concord.cohen_kappa,
                weights=None if o["weights"] == "none" else o["weights"],
                labels=cin.parse_labels(o["labels"], [frame.iloc[:, 0], frame.iloc[:, 1]]),
                nan_policy=o["nan_policy"],
            )
        )
        return made

    _feed(stream, pair, start)
    return made[0].result(), (pair[0], pair[1])


def agree(file: str, o: dict[str, Any], rows: int) -> tuple[list[Any], Tally]:
    """Every coefficient of ``concord agree``, counted chunk by chunk.

    Returns the results in the in-memory order (alpha last) and what the chunks held.
    """
    import concord

    stream = Stream(file, cin.input_format(file, o.get("input_format")), rows)
    names = stream.names()
    raters = cin.split_names(o.get("raters"))
    if raters is not None:
        columns = select(names, raters, file, "--raters")
    elif o.get("id_column") is not None:
        select(names, [o["id_column"]], file, "--id")
        columns = [n for n in names if n != o["id_column"]]
    else:
        columns = names
    made: list[Any] = []
    weights = None if o["weights"] == "none" else o["weights"]
    level = alpha_level(o)  # None: the weights' matrix, known once the labels are

    def start(frame: Any) -> list[Any]:
        labels = cin.parse_labels(o["labels"], [frame[c] for c in frame.columns])
        made.extend(concord.accumulate(f, weights=weights, labels=labels) for f in family())
        # the weights' matrix as alpha's level: count at the nominal level (the same item
        # counts) and set the level once the labels are known
        alpha = concord.accumulate(
            concord.krippendorff_alpha, level=level or "nominal", labels=labels
        )
        made.append(alpha)
        return made

    tally = _feed(stream, columns, start)
    results = [acc.result() for acc in made[:-1]]
    alpha = made[-1] if level is not None else made[-1]._with_options(level=results[1].weights)
    results.append(alpha.result())
    return results, tally
