"""A whole CSV of plain numbers read typed: the reader's fast path, or None to read it as text.

The reader (:mod:`concord._cli.reading.cells`) reads every cell as text so
that a bad cell can be named by its row and column, then types each
distinct cell. A large file of plain numbers, the common case, is read here
instead by pyarrow's typed CSV conversion (int64 or float64 per column) and
stacked into one float64 block. Whenever the typed read could differ from
the text path, it returns None and the text path reads the file, so every
value and every error stays the text path's:

* any cell pyarrow does not read as a number (text, ``true``, a marker such
  as ``NA``, a row of the wrong shape, bytes not valid in the encoding):
  the conversion fails, or infers text;
* ``nan``, ``inf`` (pyarrow reads them, the text path does not), numbers
  of 10**15 or more (the text path keeps long integers exact, and refuses
  numbers float64 would round), and hexadecimal (``0x10`` is a word to
  the text path, 16 to pyarrow: a file holding ``0x`` anywhere);
* ``--na-values`` with a digit or a word pyarrow reads as a number
  (pyarrow matches a marker before trimming spaces, the text path after);
* text ``--labels``, a group read as text, compressed files (any pyarrow
  decompresses: ``.gz``, ``.bz2``, ``.lz4``, ``.zst``), pipes,
  encodings other than UTF-8, ASCII and one-byte code pages (UTF-16, UTF-7,
  Shift-JIS: the search for ``0x`` reads bytes), a file without
  rows, and reads in chunks (they keep the text path's rules chunk by
  chunk).

Spaces around a number, quotes, ``+1``, ``01``, ``1e3``, ``.5``: pyarrow
and the text path read them as the same float64 (tests/test_cli_typed.py
compares the two paths on seeded random files).
"""

from __future__ import annotations

import codecs
import mmap
import os
import re
import sys
from typing import Any

from concord._cli.reading import source as sources
from concord._cli.reading.source import Source
from concord._inference import intervals

# numbers from here on: the text path keeps 16-digit integers as Python ints (exact), and
# checks that a number past 2**53 is the float64 it reads as
LARGE = 1e15
# the suffixes pyarrow decompresses (pyarrow.lib._detect_compression): the search for 0x reads
# the file's bytes, in which compression may split a "0x"
COMPRESSED = (".gz", ".bz2", ".lz4", ".zst")
_NUMERIC_MARKER = re.compile(r"[0-9]|^[+-]?(nan|inf|infinity)$", re.IGNORECASE)


def applies(source: Source, text: bool) -> bool:
    """Whether a whole read of ``source`` may try the typed path (``text``: a group of text)."""
    opts = source.opts
    if text or source.rows or opts.fmt not in ("csv", "tsv"):
        return False
    if source.path.endswith(COMPRESSED) or not os.path.isfile(source.path):
        return False  # a pipe (/dev/stdin) is read once: the text path must have it
    if not _ascii_digits(opts.encoding):
        return False  # UTF-16, UTF-7 and the like: the search for hexadecimal reads bytes
    if any(_NUMERIC_MARKER.search(v.strip()) for v in opts.na_values):
        return False
    return not _holds_hex(source.path)


def frame(source: Source, columns: list[str]) -> Any:
    """Return the columns as one float64 DataFrame, or None where the text path must read.

    A frame returned has rows and at least one rating.
    """
    out = block(source, columns)
    if out is None:
        return None
    import pandas as pd

    # one 2-D block: the library's to_numpy() takes it without interleaving the columns
    return pd.DataFrame(out, columns=columns, copy=False)


def block(source: Source, columns: list[str]) -> Any:
    """Return :func:`frame`'s values, a Fortran-ordered float64 array, without pandas; or None."""
    import numpy as np
    import pyarrow as pa

    try:
        table = _read(source, columns)
    except (pa.ArrowException, OSError, UnicodeError, ValueError):
        return None
    if not table.num_rows or all(c.null_count == table.num_rows for c in table.columns):
        return None  # no rows, or no rating: the text path says so
    out = np.empty((table.num_rows, len(columns)), order="F")
    for j, name in enumerate(columns):
        if not _fill(table.column(name), out[:, j]):
            return None
    del table
    pa.default_memory_pool().release_unused()  # the typed columns' pages, back to the system
    return out


def _fill(values: Any, out: Any) -> bool:
    """Write a typed column into ``out`` as float64 (NaN: empty); False where it must not."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    t = values.type
    if pa.types.is_null(t):
        out[:] = np.nan
        return True
    if not (pa.types.is_int64(t) or pa.types.is_float64(t)):
        return False
    low, high = pc.min_max(values).values()
    if high.as_py() is not None and max(abs(low.as_py()), abs(high.as_py())) >= LARGE:
        return False
    if pa.types.is_float64(t) and pc.any(pc.invert(pc.is_finite(values))).as_py():
        return False  # nan or inf, read by pyarrow; text or a marker to the text path
    start = 0
    for chunk in values.chunks:
        n = len(chunk)
        # the data buffer's view (to_numpy() and pyarrow's scalars would import pandas)
        kind = np.float64 if pa.types.is_float64(t) else np.int64
        valid, data = chunk.buffers()[:2]
        out[start : start + n] = np.frombuffer(data, kind, n, chunk.offset * 8)
        if chunk.null_count:  # NaN for an empty cell, as the text path reads it
            bits = np.unpackbits(np.frombuffer(valid, np.uint8), bitorder="little")
            out[start : start + n][bits[chunk.offset : chunk.offset + n] == 0] = np.nan
        start += n
    return True


def _read(source: Source, columns: list[str]) -> Any:
    """Read the columns with pyarrow's type inference, block by block when a bar is shown."""
    import pyarrow as pa
    import pyarrow.csv as pc

    opts = source.opts
    read = pc.ReadOptions(encoding=opts.encoding)
    parse = pc.ParseOptions(delimiter=opts.delimiter, newlines_in_values=True)
    convert = pc.ConvertOptions(
        include_columns=columns,
        null_values=["", *opts.na_values],
        strings_can_be_null=True,
        quoted_strings_can_be_null=True,
    )
    shown = os.path.getsize(source.path) >= sources.BAR_BYTES and intervals.show_progress()
    if not shown:
        return pc.read_csv(source.path, read, parse, convert)
    per_row, longest = sources._row_bytes(source.path)
    read.block_size = max(sources.BAR_BLOCK, 2 * longest)
    with pa.input_stream(source.path) as stream:
        reader = pc.open_csv(stream, read, parse, convert)
        total = int(os.path.getsize(source.path) / per_row)
        batches = []
        with sources._bar(total, source.name, True) as bar:
            for batch in reader:
                batches.append(batch)
                if bar is not None:
                    bar.update(batch.num_rows)
        return pa.Table.from_batches(batches, reader.schema)


def _ascii_digits(encoding: str) -> bool:
    """Whether text holds "0x" or "0X" exactly where the encoded bytes do.

    UTF-8, ASCII and Latin-1, and the one-byte code pages whose table reads
    only the ASCII bytes as "0", "x" and "X". Not UTF-16, nor UTF-7 (where
    ``+ADA-x10`` reads as 0x10), nor the other multi-byte encodings.
    """
    info = codecs.lookup(encoding)
    if info.name in ("utf-8", "utf-8-sig", "ascii", "iso8859-1"):
        return True
    module = sys.modules.get(getattr(info.incrementaldecoder, "__module__", ""))
    table = getattr(module, "decoding_table", None)  # a charmap codec's 256 characters
    if not isinstance(table, str):
        return False
    return all(table.count(c) == 1 and table[ord(c)] == c for c in "0xX")


def _holds_hex(path: str) -> bool:
    """Whether the file holds ``0x`` or ``0X`` anywhere (pyarrow reads 0x10 as 16)."""
    if not os.path.getsize(path):
        return False
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        # one byte is found at memory speed, two are not: look for "0x" only where an x is
        return any(m.find(x) >= 0 and m.find(b"0" + x) >= 0 for x in (b"x", b"X"))
