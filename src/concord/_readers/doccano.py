"""doccano's JSONL exports: text classification and sequence labeling, per user or collaborative.

doccano (github.com/doccano/doccano) exports one JSON record a line:

* text classification: ``{"id": 7, "text": "...", "label": ["positive"]}``, the
  label *list* a user chose;
* sequence labeling: ``{"id": 7, "text": "...", "label": [[0, 5, "PER"], ...]}``
  (character offsets, end exclusive), or with relations
  ``{"id": 7, "text": "...", "entities": [{"start_offset": 0, "end_offset": 5,
  "label": "PER", ...}], "relations": [...]}``.

A project *without* collaborative annotation exports a zip holding one
``USERNAME.jsonl`` per member: the user name is the rater, and every example
appears in every file, with ``"label": []`` where that user labelled nothing. A
collaborative export (``all.jsonl``) merges the users; it can be read only where
a column names each record's user (``user`` or ``annotator``, or ``rater=``).

How the records become rows:

* item: the record's ``id`` (``item=`` names another key); without it, the
  record's position (1, 2, ...) in its file.
* one label: that label; several: a label set (a ``frozenset``); when any
  record holds several, every label is a label set (``frozenset({"a"})``), as
  a rating of label sets holds sets only.
* ``[]``, an item left unlabelled: a *missing* rating by default (the row is
  kept with the label ``None``); ``empty="category"`` keeps it as a category of
  its own, the empty set ``frozenset()``, with every label a label set (pass
  ``empty="category"`` to the coefficient too, for which the empty set is
  otherwise missing). Counting "no label" as a category changes α, and
  doccano's per-user files hold every example, ``[]`` too for those a user
  never opened: with ``"category"`` these count as "no label" as well.
* spans: one row per span (``start``, ``end``, ``label`` and the record's
  ``text``); a record with no span adds no row.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from concord._common.errors import check_option, describe
from concord._readers.doccano_files import per_user_files, records
from concord._readers.rows import FUNC, Rows, check_span, offset, record_error

_USER_KEYS = ("user", "annotator")
_NO_USER = (
    "doccano's collaborative export merges its users: export the project with collaborative "
    "annotation off (a zip of one USERNAME.jsonl per user), or name the record's user key "
    "with rater="
)


def looks_like(sample: Any) -> bool:
    """Whether the first parsed record looks like a doccano export's record.

    A path is asked too: a zip or a folder of ``.jsonl`` files is doccano's
    per-user export.
    """
    if isinstance(sample, str | Path):
        return per_user_files(Path(sample))
    if not isinstance(sample, dict) or "_input_hash" in sample or "annotations" in sample:
        return False
    if not isinstance(sample.get("text", sample.get("data")), str):
        return False
    return isinstance(sample.get("label"), list) or isinstance(sample.get("entities"), list)


def read(
    source: Any,
    /,
    *,
    rater: str | None = None,
    item: str = "id",
    empty: str = "missing",
) -> Any:
    """Read a doccano export into concord's long form.

    Parameters
    ----------
    source : path, open file, list of dicts, list of paths or mapping
        A ``.jsonl`` file (or a ``.json`` list of records), a zip or a
        directory of per-user ``USERNAME.jsonl`` files, the parsed records, a
        list of per-user files, or a mapping ``{user: file or records}``.
    rater : str, optional
        The key naming each record's user in a collaborative export (default:
        ``user``, else ``annotator``). Per-user files name the rater by their name.
    item : str, default "id"
        The key identifying the example; records without it are numbered.
    empty : {"missing", "category"}, default "missing"
        What ``"label": []`` is: a missing rating, or a category (the empty set).

    Returns
    -------
    pandas.DataFrame
        ``item, rater, label`` (classification) or ``item, rater, start, end,
        label, text`` (spans), with ``attrs["format"] == "doccano"``.

    Examples
    --------
    Two users' per-user records (the layout of doccano's per-user export):

    >>> df = read({"ann": [{"id": 1, "text": "good", "label": ["pos"]}],
    ...            "bob": [{"id": 1, "text": "good", "label": []}]})
    >>> df.to_dict("list")
    {'item': [1, 1], 'rater': ['ann', 'bob'], 'label': ['pos', None]}
    """
    empty = check_option(FUNC, "empty", empty, ("missing", "category"))
    parsed = [
        _parse(where, fixed, pos, rec, rater, item) for where, fixed, pos, rec in records(source)
    ]
    _check_unique(parsed)
    kinds = {p["kind"] for p in parsed} - {"empty"}
    if kinds == {"spans"}:
        return _spans(parsed)
    return _classes(parsed, empty)


# -- records ------------------------------------------------------------------------------------


def _parse(
    where: str, user: Any, pos: int, rec: dict[str, Any], rater_key: str | None, item_key: str
) -> dict[str, Any]:
    """Return one record's item, rater, kind ("classes", "spans", "empty") and values."""
    item = rec.get(item_key, pos)
    where = f"{where} (id {item!r})" if item_key in rec else where
    rater = user if user is not None else _user(rec, where, rater_key)
    raw = rec["entities"] if "entities" in rec else rec.get("label", _MISSING)
    if raw is _MISSING:
        record_error(
            where,
            "has neither 'label' nor 'entities'",
            "Give doccano's JSONL export of a text classification or sequence labeling project.",
        )
    values = [raw] if isinstance(raw, str) else raw
    if not isinstance(values, list | tuple):
        record_error(where, f"has the label {describe(raw)}, not a list", "Give doccano's export.")
    text = rec.get("text", rec.get("data"))
    text = text if isinstance(text, str) else None
    parsed = {"where": where, "item": item, "rater": rater, "text": text}
    if not values:
        return {**parsed, "kind": "empty", "values": []}
    if all(isinstance(v, str) for v in values):
        return {**parsed, "kind": "classes", "values": list(values)}
    return {**parsed, "kind": "spans", "values": [_span(v, where) for v in values]}


_MISSING = object()


def _user(rec: dict[str, Any], where: str, rater_key: str | None) -> Any:
    """Return the record's user, from ``rater_key`` or the first of the usual keys present."""
    keys = (rater_key,) if rater_key is not None else _USER_KEYS
    for key in keys:
        if rec.get(key) is not None:
            return rec[key]
    shown = rater_key if rater_key is not None else "'user' or 'annotator'"
    record_error(where, f"has no annotator (no {shown} key)", _NO_USER + ".")


def _span(value: Any, where: str) -> tuple[int, int, Any]:
    """Return one span, ``[start, end, label]`` or doccano's entity dict, with checked offsets."""
    if isinstance(value, dict) and {"start_offset", "end_offset", "label"} <= value.keys():
        start, end, label = value["start_offset"], value["end_offset"], value["label"]
    elif isinstance(value, list | tuple) and len(value) == 3:
        start, end, label = value
    else:
        record_error(
            where,
            f"has the label {describe(value)}: neither a class label nor a span",
            "A span is [start, end, label] or {'start_offset', 'end_offset', 'label'}; "
            "class labels are strings. Give doccano's export.",
        )
    if label is None or label == "":
        record_error(
            where,
            f"has the span {describe(value)} with no label",
            "Label the span in doccano, or delete it.",
        )
    return offset(start, where, "start"), offset(end, where, "end"), label


def _check_unique(parsed: list[dict[str, Any]]) -> None:
    """Refuse a second record of an item and rater, and classes beside spans."""
    seen: dict[tuple[Any, Any], str] = {}
    kind = None
    for p in parsed:
        key = (p["item"], p["rater"])
        if key in seen:
            record_error(
                p["where"],
                f"rates the item {p['item']!r} for the rater {p['rater']!r} again "
                f"({seen[key]} did)",
                "Keep one record per item and rater: remove the duplicate, or name each "
                "record's user with rater=.",
            )
        seen[key] = p["where"]
        if p["kind"] != "empty" and kind is not None and p["kind"] != kind[0]:
            record_error(
                p["where"],
                f"holds {p['kind']} where {kind[1]} holds {kind[0]}",
                "A doccano export is one project: classification or sequence labeling; read "
                "each project's export on its own.",
            )
        if p["kind"] != "empty" and kind is None:
            kind = (p["kind"], p["where"])


def _classes(parsed: list[dict[str, Any]], empty: str) -> Any:
    """Return the classification frame: one label, a label set, or None (no label) per record."""
    chosen = [frozenset(p["values"]) for p in parsed]
    as_sets = any(len(c) > 1 for c in chosen) or (
        empty == "category" and any(not c for c in chosen)
    )
    rows = Rows(spans=False)
    for p, labels in zip(parsed, chosen, strict=True):
        if as_sets:
            label: Any = labels if labels or empty == "category" else None
        else:
            label = next(iter(labels)) if labels else None
        rows.add(item=p["item"], rater=p["rater"], label=label)
    return rows.frame("doccano", {})


def _spans(parsed: list[dict[str, Any]]) -> Any:
    """Return the span frame: one row per span, and the text where every record has one."""
    with_text = all(p["text"] is not None for p in parsed)
    rows = Rows(spans=True, extra=("text",) if with_text else ())
    for p in parsed:
        length = len(p["text"]) if p["text"] is not None else None
        for start, end, label in p["values"]:
            check_span(start, end, length, p["where"])
            row = {"item": p["item"], "rater": p["rater"], "start": start, "end": end}
            rows.add(**row, label=label, text=p["text"])
    return rows.frame("doccano", {})
