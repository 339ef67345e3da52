"""Span annotations (one row per span: item, rater, start, end, label) → a checked table.

Every span measure (span F1, token agreement, unitizing α, γ) reads its input
here, with one policy for each kind of bad input:

* ``start`` and ``end`` are character offsets, ``end`` exclusive: a span
  with ``start >= end``, a negative ``start``, a missing or non-integral
  offset is an error naming its row;
* an item's length comes from ``lengths=`` (``{item: length}``) or, when
  that is None, from a ``text`` column (``len(text)``: Unicode code points,
  as annotation tools count offsets); a span ending beyond its item's length
  is an error naming its row; an item of the table absent from
  ``lengths=`` is an error naming it;
* two spans of one rater with one label on one item may not overlap
  (exact duplicates included): an error naming both rows. Unitizing α
  requires a rater's units of one category not to overlap, and merging them
  silently would change what the rater said. Spans that only touch
  (``[0, 5)`` and ``[5, 9)``) do not overlap;
* labels that differ only in case (``"PER"`` and ``"per"``) are an error
  naming both: they are almost always one label spelled two ways, and
  counting them as two would make every such pair a disagreement;
* a rater with no spans on an item said "nothing here": every rater in the
  table is taken to have annotated every item of the table and every item
  of ``lengths=``. A rater who marked nothing on any item has no row in the
  table: ``raters=`` (the declared raters, as DKPro Statistics takes a
  number of raters) adds them, annotating nothing on every item, in the
  declared order; a rater of the table missing from ``raters=`` is an
  error naming it; an item of ``lengths=`` that no one annotated is one on
  which all raters said nothing (it is kept, after the table's items).

Items, raters and labels keep the order in which they first appear (raters
the order of ``raters=`` where it is given).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from concord._common.errors import describe, param_error
from concord._data import span_checks as checks
from concord._data.columns import Column, _python_scalar, column
from concord._data.frames import as_frame, is_foreign
from concord._data.long import factorize, table_columns, where

ROLES = ("item", "rater", "start", "end", "label")


@dataclass(frozen=True)
class SpanTable:
    """Checked spans: codes into ``items``, ``raters`` and ``labels``, and int64 offsets.

    ``lengths`` holds each item's length (int64, in the order of ``items``)
    where it is known, else None; ``texts`` each item's text where the
    table has a ``text`` column (None where an item has none). ``names``
    maps each role (item, rater, start, end, label) to the user's column.
    """

    items: list[Any]
    raters: list[Any]
    labels: list[Any]
    item: np.ndarray
    rater: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label: np.ndarray
    lengths: np.ndarray | None
    names: dict[str, Any]
    texts: list[str | None] | None = None
    index: Any = None  # the table's row labels, to name a row in an error

    @property
    def n_spans(self) -> int:
        """The number of spans."""
        return int(self.item.size)


def read_spans(
    spans: Any,
    *,
    item: Any = "item",
    rater: Any = "rater",
    start: Any = "start",
    end: Any = "end",
    label: Any = "label",
    lengths: Any = None,
    raters: Any = None,
    func: str,
    need_lengths: bool = False,
) -> SpanTable:
    """Read and check a long table of spans (see the module for the policies).

    ``spans`` is a DataFrame (pandas, polars, pyarrow, ...), a mapping of
    columns, or the output of :func:`concord.read_annotations`. With
    ``need_lengths`` each item's length must be known (``lengths=`` or a
    ``text`` column). ``raters`` (a list) declares the raters: one with no
    span at all annotated nothing on every item. A DataFrame from
    :func:`concord.read_annotations` may carry both in its ``attrs``
    (``"lengths"``: every answered document, those with no span included;
    ``"raters"``: every annotator); they are used where the arguments are None
    and the table still holds the items and raters it was read with, else
    ignored (a frame filtered or renamed after reading).
    """
    names = dict(zip(ROLES, (item, rater, start, end, label), strict=True))
    _distinct(names, func)
    attrs = getattr(spans, "attrs", None)  # read_annotations' span exports (Label Studio)
    attrs = attrs if isinstance(attrs, dict) else {}
    text_name = (
        "text" if "text" in _present(spans, func) and "text" not in names.values() else None
    )
    keys = (*ROLES, "text") if text_name else ROLES
    wanted = (*names.values(), text_name) if text_name else tuple(names.values())
    columns, index = table_columns(spans, wanted, func, keys)
    codes = {}
    found: dict[str, list[Any]] = {}
    for role, values in zip(
        ("item", "rater", "label"), (columns[0], columns[1], columns[4]), strict=True
    ):
        codes[role], uniques = factorize(values, func, role)
        _no_missing(codes[role], role, names[role], index, func)
        found[role] = [_python_scalar(v) for v in uniques.tolist()]
    raters, lengths = _from_export(attrs, found, raters, lengths)
    if raters is not None:
        found["rater"], codes["rater"] = checks.declared_raters(
            raters, found["rater"], codes["rater"], func
        )
    first = _offsets(columns[2], "start", names, index, func)
    last = _offsets(columns[3], "end", names, index, func)
    checks.offsets(first, last, names, index, func)
    checks.case(found["label"], names["label"], func)
    items = found["item"]
    texts = _texts(columns[5], codes["item"], items, index, func) if text_name else None
    sizes = checks.item_lengths(lengths, items, texts, func, need_lengths)
    if lengths is not None:
        items = items + [i for i in checks.keys(lengths) if i not in set(items)]
    if sizes is not None:
        checks.within(last, sizes[codes["item"]], codes["item"], items, names, index, func)
    if texts is not None:
        texts = texts + [None] * (len(items) - len(texts))
    item_code, rater_code, label_code = (
        codes[r].astype(np.int64) for r in ("item", "rater", "label")
    )
    checks.no_overlap(item_code, rater_code, label_code, first, last, found, items, index, func)
    return SpanTable(
        items, found["rater"], found["label"], item_code, rater_code, first, last, label_code,
        sizes, names, texts, index,
    )  # fmt: skip


def _present(data: Any, func: str) -> list[Any]:
    """Return the column names of a table; anything else is an error."""
    frame = as_frame(data, func) if is_foreign(data) else None
    if frame is not None:
        return list(frame.columns)
    if hasattr(data, "column_names"):
        return list(data.column_names)
    if hasattr(data, "columns") and not isinstance(data, np.ndarray):
        return list(data.columns)
    if isinstance(data, Mapping):
        return list(data.keys())
    param_error(
        func,
        "spans",
        "a table with one row per span (a DataFrame, a pyarrow Table or a mapping of columns)",
        f"a {type(data).__name__}",
        raw=True,
        exc=TypeError,
        fix="Pass columns item, rater, start, end and label (see concord.read_annotations).",
    )


def _distinct(names: dict[str, Any], func: str) -> None:
    seen: dict[str, str] = {}
    for role, name in names.items():
        if repr(name) in seen:
            param_error(
                func,
                role,
                f"a column of its own, not the {seen[repr(name)]} column",
                name,
                fix=f"Name the {role} column with {role}=.",
            )
        seen[repr(name)] = role


def _no_missing(codes: np.ndarray, role: str, name: Any, index: Any, func: str) -> None:
    if codes.size and codes.min() < 0:
        row = int(np.argmax(codes < 0))
        param_error(
            func,
            role,
            f"a column with a value on every row (column {name!r})",
            f"no {role} at {where(row, index)}",
            raw=True,
            fix="Every span needs its item, rater and label; fill it in or drop the row.",
        )


def _offsets(values: Any, role: str, names: dict[str, Any], index: Any, func: str) -> np.ndarray:
    """Return one offset column as int64, refusing missing and non-integral offsets."""
    c = values if isinstance(values, Column) else column(values, func, role)
    x = c.values
    if x.size == 0:
        return np.zeros(0, dtype=np.int64)
    bad = np.zeros(x.shape, bool) if c.missing is None else c.missing.copy()
    if c.categories is not None or x.dtype.kind not in "iuf":
        first = _python_scalar(list(c.categories)[int(x[0])] if c.categories is not None else x[0])
        param_error(
            func,
            role,
            f"a column of whole-number character offsets (column {names[role]!r})",
            f"values such as {describe(first)} ({type(first).__name__}) at {where(0, index)}",
            raw=True,
            fix=f"Convert the offsets to integers, e.g. spans[{names[role]!r}].astype(int).",
        )
    if x.dtype.kind == "f":
        bad |= ~np.isfinite(x) | (x != np.round(x))
    if bad.any():
        row = int(np.argmax(bad))
        shown = (
            "no offset" if c.missing is not None and c.missing[row] else describe(x[row].item())
        )
        param_error(
            func,
            role,
            f"a whole-number character offset on every row (column {names[role]!r})",
            f"{shown} at {where(row, index)}",
            raw=True,
            fix="Every span needs integer start and end offsets; fix or drop the row.",
        )
    return x.astype(np.int64)


def _texts(
    values: Any, item: np.ndarray, items: list[Any], index: Any, func: str
) -> list[str | None]:
    """Return each item's text: the one text its rows carry (None where none has one)."""
    raw: Any = values.decoded() if isinstance(values, Column) else values
    if hasattr(raw, "iloc"):  # a pandas Series: missing as None
        raw = raw.astype(object).where(raw.notna(), None).to_numpy()
    rows = np.asarray(raw, dtype=object).tolist()
    out: list[str | None] = [None] * len(items)
    for row, (code, text) in enumerate(zip(item.tolist(), rows, strict=True)):
        if text is None or (isinstance(values, Column) and values.missing is not None
                            and values.missing[row]):  # fmt: skip
            continue
        if not isinstance(text, str):
            param_error(
                func,
                "text",
                "the item's text (a string) in the 'text' column",
                f"{describe(text)} at {where(row, index)}",
                raw=True,
            )
        seen = out[code]
        if seen is None:
            out[code] = text
        elif seen != text:
            param_error(
                func,
                "text",
                "one text per item in the 'text' column",
                f"a different text for item {describe(items[code])} at {where(row, index)}",
                raw=True,
                fix="Every row of an item must carry the same text (or none).",
            )
    return out


def _from_export(
    attrs: dict[str, Any], found: dict[str, list[Any]], raters: Any, lengths: Any
) -> tuple[Any, Any]:
    """``raters`` and ``lengths``, else an export's own while the table is as it was read.

    A frame whose rows were filtered, or whose raters or items were renamed, since
    :func:`concord.read_annotations` holds other items or raters: its ``attrs`` then no
    longer describe it and are ignored (they would bring back what was filtered out).
    """
    kept, sizes = attrs.get("raters"), attrs.get("lengths")
    read = attrs.get("read")
    if not isinstance(read, dict) or any(
        not isinstance(read.get(k), list) or set(read[k]) != set(found[role])
        for k, role in (("items", "item"), ("raters", "rater"))
    ):
        return raters, lengths
    if raters is None and isinstance(kept, list):
        raters = kept
    if lengths is None and isinstance(sizes, dict):
        lengths = sizes
    return raters, lengths
