"""Files larger than memory: read them in chunks and count each chunk into accumulators.

The file is read by :mod:`concord._cli.read`, the reader of whole files,
in chunks: CSV and TSV through pyarrow's streaming CSV reader, Parquet
through its record batches. Each chunk becomes a small DataFrame of the
rater columns, converted as a whole file's are, and is added to the
command's :func:`concord.accumulate` accumulators (made by ``kappa``,
``agree``, ``icc`` and ``bland-altman``), whose result is the in-memory result (the accumulators'
contract). Memory is bounded by the chunk, not the file. The CLI computes
nothing itself here either: it only feeds the library's accumulators.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from concord._cli import columns as cin

if TYPE_CHECKING:  # the reader is imported when a file is streamed (a small file needs none)
    from concord._cli.reading import cells as cells
    from concord._cli.reading import source as sources

# --chunk-rows auto: stream files larger than this, in chunks of at most this many rows
AUTO_BYTES = 100 << 20
AUTO_ROWS = 1_000_000
# ... and at most this much CSV text (the parser needs some 60× a 1 MiB block for a wide
# file) or this many Parquet cells per chunk: the peak stays near 200 MiB whatever the width
AUTO_CHUNK_BYTES = 1 << 20
AUTO_CHUNK_CELLS = 2_000_000
STREAMABLE = ("csv", "tsv", "parquet")


def chunk_rows(file: str, o: dict[str, Any]) -> int:
    """Return the chunk size to stream FILE with, or 0 to read it whole."""
    rows: int | None = o.get("chunk_rows")
    fmt = cin.input_format(file, o.get("input_format"))
    long = any(o.get(k) is not None for k in ("item", "rater", "rating"))
    if rows is None:  # auto: stream large wide-form files
        big = file != "-" and os.path.isfile(file) and os.path.getsize(file) > AUTO_BYTES
        rows = auto_rows(file, fmt) if big and fmt in STREAMABLE and not long else 0
    if rows and fmt not in STREAMABLE:
        fmt = "an annotation export" if fmt in ("export", *cin.EXPORTS) else fmt
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


def auto_rows(file: str, fmt: str) -> int:
    """Rows per chunk for a file of this width: ``AUTO_ROWS``, fewer for wide rows."""
    if fmt == "parquet":
        import pyarrow.parquet as pq

        try:
            columns = int(pq.ParquetFile(file).metadata.num_columns)
        except Exception:  # not Parquet after all: reading it says so, naming the file
            return AUTO_ROWS
        return max(1_000, min(AUTO_ROWS, AUTO_CHUNK_CELLS // max(1, columns)))
    from concord._cli.reading.source import _row_bytes

    per_row, _ = _row_bytes(file)
    return max(1_000, min(AUTO_ROWS, int(AUTO_CHUNK_BYTES / per_row)))


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
        """Return the shape as :func:`concord._render.records.frame_shape` gives it."""
        return {
            "items": self.items,
            "raters": list(self.raters),
            "ratings": self.ratings,
            "missing_ratings": self.missing,
        }


def feed(
    src: sources.Source,
    columns: list[str],
    o: dict[str, Any],
    start: Callable[[Any], list[tuple[Any, list[str] | None]]],
    read_as: list[cells.Group] | None = None,
) -> Tally:
    """Count every chunk into the accumulators ``start`` makes from the first chunk.

    ``start`` returns (accumulator, columns) pairs: an accumulator of two
    raters gets those two columns, one of many raters (columns None) the
    whole chunk. ``read_as``: the column groups, as the command's whole read
    reads them (default: one group, :func:`concord._cli.inputs.groups`).
    """
    from concord._cli import inputs
    from concord._cli.reading.source import NO_RATINGS

    tally = Tally(columns)
    accumulators: list[tuple[Any, list[str] | None]] | None = None
    for frame in inputs.chunks(src, columns, o, read_as):
        if accumulators is None:
            accumulators = start(frame)
        tally.add(frame)
        for acc, pair in accumulators:
            if pair is None:
                acc.update(frame)
            else:
                acc.update(*(frame[c] for c in pair))
    if accumulators is None:
        raise click.ClickException(f"{src.name}: no rows to read.")
    if not tally.ratings:  # as a whole read says it
        raise click.ClickException(f"{src.name}: {NO_RATINGS}")
    return tally
