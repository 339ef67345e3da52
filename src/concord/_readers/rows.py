"""The long frame every format reader returns, its errors, and the checks of span offsets.

A reader collects its rows in :class:`Rows` (plain lists, one DataFrame built
at the end) and reports a bad record with :func:`record_error`: one line that
names the record (its file and line, or its position and id), what is wrong
and what to do.
"""

from __future__ import annotations

from typing import Any, NoReturn

import numpy as np

from concord._common.errors import describe, fail
from concord._common.extras import require

FUNC = "read_annotations"


def record_error(where: str, problem: str, fix: str) -> NoReturn:
    """Raise the one-line ValueError: ``{where} {problem}. {fix}``."""
    message = f"{where} {problem}. {fix}"
    fail(message, cli=message)


def offset(value: Any, where: str, name: str) -> int:
    """Return a span offset as an int; anything else (a bool, a float, text) is an error."""
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return int(value)
    record_error(
        where,
        f"has the {name} offset {describe(value)}, not a whole number",
        "Offsets are character positions (0, 1, 2, ...); fix the record or re-export it.",
    )


def check_span(start: int, end: int, length: int | None, where: str) -> None:
    """Refuse a span unless 0 <= start < end <= length (``length`` None: the text is unknown)."""
    if start < 0 or start >= end:
        record_error(
            where,
            f"has the span [{start}, {end}): a span needs 0 <= start < end (end exclusive)",
            "Fix the offsets in the export, or drop the empty span.",
        )
    if length is not None and end > length:
        record_error(
            where,
            f"has the span [{start}, {end}) past the end of its text ({length} characters)",
            "The offsets must be character positions in this document's text; re-export "
            "the annotations with their text, or fix the offsets.",
        )


class Rows:
    """The columns of a long frame, built one row at a time.

    ``spans`` chooses the span columns (start, end, label) over the
    classification column (label); ``extra`` names further span columns
    (``text``, ``token_start``, ``token_end``) a reader fills.
    """

    def __init__(self, *, spans: bool, extra: tuple[str, ...] = ()) -> None:
        names = ("item", "rater", "start", "end", "label") if spans else ("item", "rater", "label")
        self.columns: dict[str, list[Any]] = {name: [] for name in names + extra}

    def add(self, **row: Any) -> None:
        """Append one row; every column is given."""
        for name, values in self.columns.items():
            values.append(row[name])

    def __len__(self) -> int:
        return len(self.columns["item"])

    def frame(self, fmt: str, skipped: dict[str, int]) -> Any:
        """Return the pandas DataFrame, with ``attrs`` ``format`` and ``skipped``."""
        pd = require("pandas", "pandas", "reading annotation exports")
        data: dict[str, Any] = {}
        for name, values in self.columns.items():
            if name in ("start", "end", "token_start", "token_end"):
                data[name] = pd.Series(values, dtype="int64")
            elif name in ("item", "rater") and values:
                data[name] = pd.Series(values)  # the tool's ids: int64 where they are numbers
            else:
                data[name] = pd.Series(values, dtype=object)  # labels: str, frozenset or None
        df = pd.DataFrame(data)
        df.attrs["format"] = fmt
        df.attrs["skipped"] = {k: v for k, v in skipped.items() if v}
        return df
