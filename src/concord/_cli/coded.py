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
    """Distinct ``cells`` (pyarrow strings or bytes) and ``codes``, one per row (numpy).

    The last entry of ``cells`` is null: the code of a row whose cell is null.
    """

    cells: Any
    codes: Any

    def __len__(self) -> int:
        return len(self.codes)

    def text_at(self, row: int) -> str:
        """Return the cell of a row, as text."""
        return str(self.cells[int(self.codes[row])].as_py())

    def first(self, mask: Any) -> int:
        """Return the first row whose entry ``mask`` (numpy bool per entry) holds; -1 if none."""
        import numpy as np

        if not len(self.codes) or not mask.any():
            return -1
        if mask[self.codes[0]]:  # the common case: the first row
            return 0
        hits = mask[self.codes]
        row = int(np.argmax(hits))
        return row if hits[row] else -1

    def spread(self, values: Any) -> Any:
        """Return per-row values from per-entry ``values`` (numpy)."""
        return values[self.codes]


def coded(values: Any, distinct: bool = True) -> Coded:
    """Return a column of text or bytes (a pyarrow ChunkedArray, maybe dictionary) as Coded."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if not distinct:
        if pa.types.is_dictionary(values.type):
            values = values.cast(values.type.value_type)
        cells = pa.concat_arrays([*values.chunks, pa.nulls(1, values.type)])
        return Coded(cells, np.arange(len(values), dtype=np.int64))
    if not pa.types.is_dictionary(values.type):
        values = pc.dictionary_encode(values)
    values = values.unify_dictionaries()
    if not values.num_chunks:
        return Coded(pa.nulls(1, values.type.value_type), np.zeros(0, np.int32))
    dictionary = values.chunk(0).dictionary
    n = len(dictionary)
    parts = [c.indices.fill_null(n).to_numpy(zero_copy_only=False) for c in values.chunks]
    codes = parts[0] if len(parts) == 1 else np.concatenate(parts)
    return Coded(pa.concat_arrays([dictionary, pa.nulls(1, dictionary.type)]), codes)


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
