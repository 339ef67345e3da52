r"""Small plain CSV and TSV files read without pandas or pyarrow: the quick path of a first call.

Starting pandas and pyarrow costs a command several times what reading a
file of a few rows does. A file that is small, plain and regular is read
here with Python's own string methods instead, into the same values the
reader of :mod:`concord._cli.reading.cells` makes: float64 with NaN for
numbers, the cells' trimmed texts (None where missing) for text.

This path is a strict subset of the other: it reads only what it is
certain of and answers None for anything else, which the caller then reads
the usual way. None means: not a file on disk of a plain CSV/TSV suffix, at
most :data:`MAX_BYTES`; not UTF-8 (or a byte order mark); a quote, a
carriage return other than in ``\r\n``, a blank line inside the file; a
header with an empty, repeated or single name; a row of another length;
no data row; a cell with whitespace other than spaces and tabs (or
another character that does not print), a number with more than 15
digits (float64's exact ones); a cell that looks like a missing-value marker (unless
``--na-values`` or ``--labels`` settled them); numbers mixed with text; a
column with no rating. Every error message therefore comes from the usual
reader, word for word. ``CONCORD_SMALL_READER=0`` turns this path off (the
tests compare both paths on the same files).
"""

from __future__ import annotations

import codecs
import os
import re
from typing import Any

import numpy as np

from concord._cli import columns as cin

#: The largest file read here, in bytes.
MAX_BYTES = 1 << 20
_SUFFIXES = (".csv", ".tsv", ".txt")
_NUMBER = re.compile(cin.NUMBER)
# cells.MARKERS, repeated here so that this path imports none of the usual reader
MARKERS = frozenset(
    [
        *("na", "n/a", "n.a.", "#n/a", "#na", "<na>", "null", "#null!", "none", "nil"),
        *("nan", "-nan", "nat", "-", "--", ".", "?", "missing", "''", '""'),
    ]
)
_SPACES = " \t"
_EXPONENT = re.compile(r"[eE][+-]?0*[0-9]{3,}$")  # 1e100 and beyond
_OTHER_SPACE = re.compile(r"[^\S \t]")  # whitespace that is neither a space nor a tab


def enabled() -> bool:
    """Whether the quick path may be tried (``CONCORD_SMALL_READER=0`` turns it off)."""
    return os.environ.get("CONCORD_SMALL_READER", "1") != "0"


def eligible(file: str, o: dict[str, Any]) -> bool:
    """Whether FILE may be read here at all: a small plain CSV/TSV on disk, read whole."""
    if not enabled() or file == "-" or not file.lower().endswith(_SUFFIXES):
        return False
    if o.get("input_format") not in (None, "csv", "tsv") or o.get("chunk_rows"):
        return False
    if any(o.get(k) is not None for k in ("item", "rater", "rating")):
        return False
    encoding = o.get("encoding") or "utf-8"
    try:
        if codecs.lookup(encoding).name != "utf-8":
            return False
    except LookupError:
        return False
    try:
        return os.path.isfile(file) and os.path.getsize(file) <= MAX_BYTES
    except OSError:
        return False


def rows(file: str, delimiter: str) -> tuple[list[str], list[list[str]]] | None:
    """Return the header and the data rows of a regular file, or None."""
    try:
        with open(file, "rb") as f:
            data = f.read(MAX_BYTES + 1)
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if len(data) > MAX_BYTES or text.startswith("\ufeff") or '"' in text or "\x00" in text:
        return None
    text = text.replace("\r\n", "\n")
    if "\r" in text:
        return None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the last line's end
    if len(lines) < 2 or "" in lines:
        return None
    names = lines[0].split(delimiter)
    if len(names) < 2 or "" in names or len(set(names)) != len(names):
        return None
    body = [line.split(delimiter) for line in lines[1:]]
    if any(len(row) != len(names) for row in body):
        return None
    return names, body


def _cell(raw: str, na_values: tuple[str, ...]) -> tuple[str | None, bool] | None:
    """Return (trimmed text or None if missing, whether it is a number), or None if unsure."""
    if _OTHER_SPACE.search(raw):
        return None
    text = raw.strip(_SPACES)
    if text == "" or text in na_values:
        return None, False
    if not text.isprintable():
        return None
    number = _NUMBER.fullmatch(text) is not None
    if number and sum(c.isdigit() for c in text) > 15:
        return None  # beyond float64's exact digits: the usual reader's exactness rules
    if number and _EXPONENT.search(text) is not None:
        return None  # an overflow or an underflow, which parsers need not read alike
    if number and text.startswith("-") and float(text) == 0:
        return None  # -0: an integer column reads it as 0, a decimal one as -0.0
    return text, number


def column(
    cells: list[str], na_values: tuple[str, ...], as_text: bool, markers: bool
) -> tuple[list[str | None], bool] | None:
    """Return a column's trimmed cells (None: missing) and whether they are numbers, or None.

    None when unsure, when the column mixes numbers and text, when it has
    no rating, or (``markers``) when a text cell looks like a missing-value marker.
    """
    out: list[str | None] = []
    kinds = set()
    for raw in cells:
        read = _cell(raw, na_values)
        if read is None:
            return None
        text, number = read
        out.append(text)
        if text is not None:
            kinds.add(number and not as_text)
            if markers and text.lower() in MARKERS:
                return None
    if len(kinds) != 1:
        return None
    return out, kinds.pop()


class _Named(np.ndarray):
    """A column's values that carry its name, as a Series does: the results name the raters."""

    name: str | None = None


def _named(values: Any, name: str) -> Any:
    out = values.view(_Named)
    out.name = name
    return out


def _options(file: str, o: dict[str, Any]) -> tuple[str, tuple[str, ...]] | None:
    """Return the delimiter and the --na-values, as the usual reader's options; None if unsure."""
    fmt = cin.input_format(file, o.get("input_format"))
    delimiter = o.get("delimiter") or ("\t" if fmt == "tsv" else ",")
    if delimiter in ("\\t", "tab"):
        delimiter = "\t"
    if fmt not in ("csv", "tsv") or len(delimiter) != 1 or delimiter in '\r\n"':
        return None
    na = tuple(t.strip() for t in (o.get("na_values") or "").split(","))
    return delimiter, tuple(t for t in na if t)


def _pair(names: list[str], o: dict[str, Any]) -> list[str] | None:
    """Return the --rater1 and --rater2 columns (or the only two there are), or None."""
    first, second = o.get("rater1"), o.get("rater2")
    if first is None and second is None and len(names) == 2:
        return names
    if first is None or second is None or first == second:
        return None
    return [first, second] if first in names and second in names else None


def two_raters(file: str, o: dict[str, Any]) -> tuple[Any, Any] | None:
    """Return the --rater1 and --rater2 columns of a small plain file, or None if unsure.

    Numbers are float64 with NaN where missing, text an object array of the
    trimmed cells with None where missing; each carries its column's name.
    """
    if not eligible(file, o):
        return None
    chosen = _options(file, o)
    read = None if chosen is None else rows(file, chosen[0])
    if chosen is None or read is None:
        return None
    names, body = read
    pair = _pair(names, o)
    if pair is None:
        return None
    as_text = cin.labels_are_text(o.get("labels"))
    unsettled = o.get("na_values") is None and o.get("labels") is None
    found: list[tuple[list[str | None], bool]] = []
    for name in pair:
        at = names.index(name)
        read_column = column([row[at] for row in body], chosen[1], as_text, unsettled)
        if read_column is None:
            return None
        found.append(read_column)
    if found[0][1] != found[1][1]:
        return None  # numbers beside text: the usual reader names the two cells
    out = []
    for name, (cells, number) in zip(pair, found, strict=True):
        if number:
            values = np.array([np.nan if t is None else float(t) for t in cells])
        else:
            values = np.empty(len(cells), dtype=object)
            values[:] = cells
        out.append(_named(values, name))
    return out[0], out[1]
