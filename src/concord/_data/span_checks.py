"""The checks of :func:`concord._data.spans.read_spans`: offsets, labels, lengths, overlaps.

Each raises concord's error sentence naming the row (see :mod:`concord._data.spans`
for the policies).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from concord._common.errors import ForCli, describe, param_error
from concord._data.columns import _python_scalar
from concord._data.long import where


def offsets(
    first: np.ndarray, last: np.ndarray, names: dict[str, Any], index: Any, func: str
) -> None:
    bad = first < 0
    if bad.any():
        row = int(np.argmax(bad))
        param_error(
            func,
            "start",
            f"a character offset of 0 or more (column {names['start']!r})",
            f"start {first[row]} at {where(row, index)}",
            raw=True,
            fix="Offsets count characters from the start of the item's text, from 0.",
        )
    bad = first >= last
    if bad.any():
        row = int(np.argmax(bad))
        param_error(
            func,
            "end",
            f"greater than start: spans are [start, end), end exclusive (column {names['end']!r})",
            f"start {first[row]} and end {last[row]} at {where(row, index)}",
            raw=True,
            fix="A span of one character at position p is [p, p + 1); drop empty spans.",
        )


def case(labels: list[Any], name: Any, func: str) -> None:
    folded: dict[str, Any] = {}
    for value in labels:
        if not isinstance(value, str):
            continue
        other = folded.setdefault(value.casefold(), value)
        if other != value:
            param_error(
                func,
                "label",
                f"labels that differ in more than case (column {name!r})",
                f"both {other!r} and {value!r}",
                raw=True,
                fix=f"Spell the label one way, e.g. spans[{name!r}].str.upper(), or rename one "
                "of them if they are different labels.",
                cli=ForCli(
                    fix="Spell the label one way in FILE, or rename one of them if they are "
                    "different labels."
                ),
            )


def keys(lengths: Any) -> list[Any]:
    """Return the items of ``lengths=`` (a mapping or a pandas Series)."""
    return [_python_scalar(k) for k, _ in lengths.items()]


def item_lengths(
    lengths: Any, items: list[Any], texts: list[str | None] | None, func: str, need: bool
) -> np.ndarray | None:
    """Return each item's length (the table's items, then those only in ``lengths=``)."""
    if lengths is None:
        if texts is not None and all(t is not None for t in texts):
            return np.array([len(t) for t in texts if t is not None], dtype=np.int64)
        if need:
            missing = (
                "" if texts is None else f"; item {describe(items[texts.index(None)])} has no text"
            )
            param_error(
                func,
                "lengths",
                "each item's length: {item: length} or a 'text' column in the table",
                f"None{missing}",
                raw=True,
                fix="The stretches no one annotated count, so their length is needed: pass "
                "lengths={item: len(text)} or add a 'text' column.",
                cli=ForCli(
                    expected="a column of each item's text (its length)",
                    got="no text column" if texts is None else missing.lstrip("; "),
                    fix="The stretches no one annotated count, so each item's length is "
                    "needed: add the items' text to FILE, or name its column with --text.",
                ),
            )
        return None
    if not hasattr(lengths, "items") or isinstance(lengths, str | bytes):
        param_error(func, "lengths", "None or a mapping {item: length}", lengths, exc=TypeError)
    by_item = {_python_scalar(k): v for k, v in lengths.items()}
    for i in items:
        if i not in by_item:
            param_error(
                func,
                "lengths",
                "a length for every item of the table",
                f"no length for item {describe(i)}",
                raw=True,
                fix="Add the item to lengths=, or drop its spans.",
            )
    order = items + [k for k in by_item if k not in set(items)]
    out = np.empty(len(order), dtype=np.int64)
    for n, k in enumerate(order):
        v = _python_scalar(by_item[k])
        whole = isinstance(v, int) or (isinstance(v, float) and math.isfinite(v) and v == int(v))
        if isinstance(v, bool) or not whole or v < 0:
            param_error(
                func,
                "lengths",
                "whole numbers of characters, 0 or more",
                f"{describe(v)} for item {describe(k)}",
                raw=True,
            )
        out[n] = int(v)
    return out


def within(
    last: np.ndarray,
    size: np.ndarray,
    item: np.ndarray,
    items: list[Any],
    names: dict[str, Any],
    index: Any,
    func: str,
) -> None:
    bad = last > size
    if bad.any():
        row = int(np.argmax(bad))
        param_error(
            func,
            "end",
            f"at most the item's length (column {names['end']!r})",
            f"end {last[row]} at {where(row, index)}, item {describe(items[item[row]])} "
            f"of length {size[row]}",
            raw=True,
            fix="Check the offsets, or the item's length (lengths= or its text).",
            cli=ForCli(fix="Check the offsets, or the item's text (the --text column) in FILE."),
        )


def no_overlap(
    item: np.ndarray,
    rater: np.ndarray,
    label: np.ndarray,
    first: np.ndarray,
    last: np.ndarray,
    found: dict[str, list[Any]],
    items: list[Any],
    index: Any,
    func: str,
) -> None:
    """Refuse two overlapping spans of one rater with one label on one item."""
    order = sorted_by(item, rater, label, first)
    same = (
        (item[order][1:] == item[order][:-1])
        & (rater[order][1:] == rater[order][:-1])
        & (label[order][1:] == label[order][:-1])
    )
    clash = same & (first[order][1:] < last[order][:-1])
    if not clash.any():
        return
    at = int(np.argmax(clash))
    a, b = sorted((int(order[at]), int(order[at + 1])))
    who = found["rater"][rater[a]]
    param_error(
        func,
        "spans",
        "non-overlapping for one rater and one label on an item",
        f"[{first[a]}, {last[a]}) at {where(a, index)} and [{first[b]}, {last[b]}) at "
        f"{where(b, index)}, both {describe(found['label'][label[a]])} by rater "
        f"{describe(who)} on item {describe(items[item[a]])}",
        raw=True,
        fix="Merge them into one span, or drop the duplicate.",
    )


def sorted_by(*keys: np.ndarray) -> np.ndarray:
    """Return the order of the rows sorted by ``keys`` (non-negative ints, the first foremost).

    One stable argsort of a composite int64 key where it fits, else a lexsort.
    """
    sizes = [int(k.max()) + 1 if k.size else 1 for k in keys]
    if math.prod(sizes) < 2**62:
        composite = np.zeros(keys[0].shape, dtype=np.int64)
        for key, size in zip(keys, sizes, strict=True):
            composite *= size
            composite += key
        order: np.ndarray = np.argsort(composite, kind="stable")
        return order
    return np.lexsort(keys[::-1])


def declared_raters(
    raters: Any, found: list[Any], codes: np.ndarray, func: str
) -> tuple[list[Any], np.ndarray]:
    """Return the declared ``raters=`` and the spans' rater codes into them.

    A declared rater with no span annotated nothing on every item; a rater
    of the table that is not declared is an error naming it.
    """
    if isinstance(raters, str) or not hasattr(raters, "__iter__"):
        param_error(
            func, "raters", "a list of the raters who annotated, e.g. ['ann', 'bob']", raters
        )
    declared = [_python_scalar(r) for r in raters]
    twice = [r for i, r in enumerate(declared) if r in declared[:i]]
    if twice:
        param_error(func, "raters", "a list naming each rater once", raters,
                    fix=f"{twice[0]!r} is listed twice: drop the repeat.")  # fmt: skip
    where = {r: i for i, r in enumerate(declared)}
    missing = [r for r in found if r not in where]
    if missing:
        param_error(
            func,
            "raters",
            "a list of every rater of the table (and any who marked nothing)",
            raters,
            fix=f"Rater {missing[0]!r} has spans in the table: add it to raters=.",
            cli=ForCli(fix=f"Rater {missing[0]!r} has spans in FILE: add it to --raters."),
        )
    remap = np.array([where[r] for r in found], dtype=np.int64)
    return declared, remap[codes] if codes.size else codes.astype(np.int64)
