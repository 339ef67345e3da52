"""A text column as its distinct cells and, per row, which one it holds.

The reader's cell rules (trim, missing, number or text, the number's value)
depend on a cell's text alone, so they run once per distinct cell, not once
per row: a column of 10⁷ ratings holds a handful of distinct cells. The CSV
parser dictionary-encodes each column as it reads (pyarrow); other text
columns are encoded here. The rules' results are then spread to the rows
with one numpy ``take``. :class:`Coded` with ``distinct=False`` (every row
its own entry) applies the same rules cell by cell: the reference the
tests compare the distinct path with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from concord._cli import columns as cin

# an integer written with more digits than float64 holds exactly (2**53 has 16)
_LONG_INTEGER = r"^[+-]?0*[1-9][0-9]{15,}(?:\.0*)?$"


@dataclass(frozen=True)
class Coded:
    """Distinct ``cells`` (pyarrow strings or bytes) and each row's entry among them.

    ``parts`` holds, for each block the parser read, its rows' indices into
    the block's own dictionary and that dictionary's entries in ``cells``
    (numpy arrays): the blocks' indices are used as they are, never
    remapped or joined into one array (copies as large as the column). The
    last entry of ``cells`` is null: the entry of a row whose cell is null.
    """

    cells: Any
    parts: list[tuple[Any, Any]]

    def __len__(self) -> int:
        return sum(len(rows) for rows, _ in self.parts)

    def at(self, row: int) -> Any:
        """Return the cell of a row (str or bytes)."""
        for rows, entries in self.parts:
            if row < len(rows):
                return self.cells[int(entries[rows[row]])].as_py()
            row -= len(rows)
        raise IndexError(row)

    def first(self, mask: Any) -> int:
        """Return the first row whose entry ``mask`` (numpy bool per entry) holds; -1 if none."""
        import numpy as np

        offset = 0
        for rows, entries in self.parts:
            local = mask[entries]
            if local.any():
                hits = local[rows]
                row = int(np.argmax(hits))
                if hits[row]:
                    return offset + row
            offset += len(rows)
        return -1

    def spread(self, values: Any) -> Any:
        """Return per-row values from per-entry ``values`` (numpy), in one new array."""
        import numpy as np

        out = np.empty(len(self), dtype=values.dtype)
        start = 0
        for rows, entries in self.parts:
            np.take(values[entries], rows, out=out[start : start + len(rows)])
            start += len(rows)
        return out


def coded(values: Any, distinct: bool = True) -> Coded:
    """Return a column of text or bytes (a pyarrow ChunkedArray, maybe dictionary) as Coded.

    The distinct cells are in order of first appearance in the column, as
    each block's dictionary is in its own rows.
    """
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if not distinct:
        if pa.types.is_dictionary(values.type):
            values = values.cast(values.type.value_type)
        cells = pa.concat_arrays([*values.chunks, pa.nulls(1, values.type)])
        every = np.arange(len(cells), dtype=np.int64)
        return Coded(cells, [(every[:-1], every)])
    if not pa.types.is_dictionary(values.type):
        values = pc.dictionary_encode(values)
    blocks = [c for c in values.chunks if len(c)]
    value_type = values.type.value_type
    # every block's dictionary, then a null: one dictionary encoding of them all
    joined = pc.dictionary_encode(
        pa.concat_arrays([*(c.dictionary for c in blocks), pa.nulls(1, value_type)])
    )
    cells = pa.concat_arrays([joined.dictionary, pa.nulls(1, value_type)])
    ids = joined.indices.fill_null(len(joined.dictionary)).to_numpy(zero_copy_only=False)
    parts, start = [], 0
    for c in blocks:
        n = len(c.dictionary)
        entries, rows = ids[start : start + n], c.indices
        if c.null_count:
            entries, rows = np.append(entries, ids[-1]), rows.fill_null(n)
        parts.append((rows.to_numpy(zero_copy_only=False), entries))
        start += n
    return Coded(cells, parts)


def kinds(column: Coded, text: bool) -> dict[str, int]:
    """Return the row of the first number and of the first text cell (-1: none)."""
    import pyarrow.compute as pc

    valid = pc.is_valid(column.cells).to_numpy(zero_copy_only=False)
    if text:
        return {"text": column.first(valid)}
    if plain_integers(column.cells) is not None:  # the common case, without a regex per cell
        return {"number": column.first(valid), "text": -1}
    numeric = pc.match_substring_regex(column.cells, f"^{cin.NUMBER}$")
    numeric = numeric.fill_null(False).to_numpy(zero_copy_only=False)
    return {"number": column.first(valid & numeric), "text": column.first(valid & ~numeric)}


def numbers(column: Coded) -> Any:
    """Return the numeric cells as float64 with NaN, or exact Python ints (:func:`exact`)."""
    return column.spread(exact(column.cells))


def categorical(column: Coded) -> Any:
    """Return the text cells as a Categorical, categories in order of first appearance."""
    import pandas as pd
    import pyarrow.compute as pc

    # the entries are in order of first appearance, so are their trimmed texts
    encoded = pc.dictionary_encode(column.cells)
    entry = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False)
    categories = pd.Index(encoded.dictionary.to_pylist(), dtype=object)
    return pd.Categorical.from_codes(column.spread(entry), categories=categories)


def plain_integers(values: Any) -> Any:
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
    # two exact searches: a case-insensitive one goes through a regular expression (20× slower)
    if any(pc.any(pc.match_substring(values, x)).as_py() for x in "xX"):
        return None
    return integers


def inexact(cells: Any) -> Any:
    """Per cell (numpy bool): a number of 2**53 or more that float64 would change.

    Cells that :func:`exact` keeps as Python ints (plain digits) are exact.
    Any other number at or beyond 2**53 must be what the float64 it becomes
    prints as, to as many significant digits as the cell has: ``1e16`` and a
    program's ``1.0000000000000002e+17`` are that float; ``1.0000000000000001e16``
    (10000000000000001, read as 10000000000000000) and ``9007199254740993.5``
    are not. Only such large cells are looked at one by one.
    """
    import decimal

    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    out = np.zeros(len(cells), dtype=bool)
    try:
        floats = pc.cast(cells, pa.float64()).to_numpy(zero_copy_only=False)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return out
    with np.errstate(invalid="ignore"):
        large = np.isfinite(floats) & (np.abs(floats) >= 2.0**53)
    if not large.any():
        return out
    digits = pc.match_substring_regex(cells, _LONG_INTEGER).fill_null(False)
    large &= ~digits.to_numpy(zero_copy_only=False)
    texts = cells.to_pylist()
    for i in np.flatnonzero(large):
        try:
            written = decimal.Decimal(texts[i].strip())
        except decimal.InvalidOperation:  # not a decimal after all: the reader's rules decide
            continue
        printed = decimal.Context(prec=len(written.as_tuple().digits)).create_decimal(
            decimal.Decimal(float(floats[i]))
        )
        out[i] = printed != written
    return out


def exact(values: Any) -> Any:
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

    integers = plain_integers(values)
    if integers is not None and (pc.max(pc.abs(integers)).as_py() or 0) <= 2**53:
        return pc.cast(integers, pa.float64()).to_numpy(zero_copy_only=False)
    floats = pc.cast(values, pa.float64()).to_numpy(zero_copy_only=False)
    if not pc.any(pc.match_substring_regex(values, _LONG_INTEGER)).as_py():
        return floats
    result = np.array(floats, dtype=object)
    integer = re.compile(r"[+-]?[0-9]+(?:\.0*)?")
    for i, text in enumerate(values.to_pylist()):
        if text is not None and integer.fullmatch(text):
            result[i] = int(text.split(".")[0])
    return result
