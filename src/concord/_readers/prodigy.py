"""Prodigy's JSON Lines (``prodigy db-out``): one line per answer of one annotator.

Each line is a task as Prodigy showed it, with the annotator's ``answer``
(``accept``, ``reject`` or ``ignore``), ``_input_hash`` (the input: the item),
``_task_hash`` (the input with its question) and ``_annotator_id`` (else
``_session_id``: the rater). Three interfaces are read:

* choice (``options``, ``accept``): the chosen options' ids are the label, several a
  label set; only ``answer == "accept"`` is read by default (``answers=``);
* spans (``spans``, as ``ner_manual`` writes them): character ``start`` and ``end``
  (end exclusive) and ``token_start`` / ``token_end`` (Prodigy's, end *inclusive*);
* binary (a ``label`` to accept or reject): the item is ``_task_hash``, the label the
  answer, so accepted and rejected answers are both read by default.

``ignore`` (and, outside the binary interface, ``reject``) answers are skipped and counted.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping
from typing import Any

from concord._readers.source import check_mapping, fail, frame, name_of, records, where

FORMAT = "prodigy"
_IDS = ("_task_hash", "_input_hash")


def looks_like(sample: Any) -> bool:
    """Return True for a Prodigy answer: ``_input_hash`` or ``_task_hash``, and ``answer``."""
    return isinstance(sample, Mapping) and "answer" in sample and "_input_hash" in sample


def _kind(record: Mapping[str, Any]) -> str:
    if "accept" in record or "options" in record:
        return "choice"
    if "spans" in record:
        return "spans"
    return "binary"


def read(
    source: Any,
    /,
    *,
    answers: Collection[str] | None = None,
    choices: Collection[Any] | None = None,
) -> Any:
    """Read a Prodigy JSONL export into a long DataFrame (see :mod:`concord._readers.read`).

    ``answers``: the answers read (default ``("accept",)``; the binary interface
    ``("accept", "reject")``); ``choices``: the labels allowed (the choice
    interface checks each record's own ``options`` too).
    """
    name = name_of(source)
    allowed = None if choices is None else frozenset(choices)
    found = records(source)
    first = next(found, None)
    kind = _kind(first) if isinstance(first, Mapping) else "choice"
    read_answers = frozenset(
        answers or (("accept", "reject") if kind == "binary" else ("accept",))
    )
    rows: dict[str, list[Any]] = {"item": [], "rater": [], "label": []}
    if kind == "spans":
        rows.update(start=[], end=[], token_start=[], token_end=[], text=[])
    skipped: dict[str, int] = {}
    seen: dict[tuple[Any, Any], int] = {}
    chained = found if first is None else itertools.chain([first], found)
    for position, record in enumerate(chained):
        record = check_mapping(position, record, name)
        answer = record.get("answer")
        if answer not in read_answers:
            if answer is None:
                fail(
                    f"{name}: {where(position, record, *_IDS)} has no 'answer': it is a task, "
                    "not an annotation. Export the dataset with prodigy db-out."
                )
            skipped[answer] = skipped.get(answer, 0) + 1
            continue
        at = f"{name}: {where(position, record, *_IDS)}"
        _add(rows, record, kind, at, allowed, seen, position)
    if any(isinstance(v, frozenset) for v in rows["label"]):
        rows["label"] = [_as_set(v) for v in rows["label"]]
    return frame(rows, FORMAT, skipped)


def _add(
    rows: dict[str, list[Any]],
    record: Mapping[str, Any],
    kind: str,
    at: str,
    allowed: frozenset[Any] | None,
    seen: dict[tuple[Any, Any], int],
    position: int,
) -> None:
    """Add one answer's rows; another interface than the first record's, or a repeat, fails."""
    if _kind(record) != kind:
        fail(
            f"{at} is a {_kind(record)} answer where the first record is a {kind} answer. "
            "Export one recipe's dataset at a time."
        )
    key = (_item(record, kind, at), _rater(record, at))
    if key in seen:
        fail(
            f"{at}: annotator {key[1]!r} answers this input a second time (first in record "
            f"{seen[key] + 1}). Keep one answer per annotator and input."
        )
    seen[key] = position
    if kind == "spans":
        _spans(rows, record, key, at, allowed)
        return
    label = record["answer"] if kind == "binary" else _chosen(record, at, allowed)
    for column, cell in zip(rows, (*key, label), strict=True):
        rows[column].append(cell)


def _as_set(label: Any) -> frozenset[Any]:
    """Return a label as a label set: nothing chosen is the empty set."""
    if isinstance(label, frozenset):
        return label
    return frozenset() if label is None else frozenset([label])


def _item(record: Mapping[str, Any], kind: str, at: str) -> Any:
    key = "_task_hash" if kind == "binary" else "_input_hash"
    if record.get(key) is None:
        fail(f"{at} has no {key!r}. Export the dataset with prodigy db-out, which writes it.")
    return record[key]


def _rater(record: Mapping[str, Any], at: str) -> Any:
    rater = record.get("_annotator_id") or record.get("_session_id")
    if rater is None:
        fail(
            f"{at} has no annotator (_annotator_id or _session_id). Annotate with named "
            "sessions (?session=NAME), or add _annotator_id to each line."
        )
    return rater


def _chosen(record: Mapping[str, Any], at: str, allowed: frozenset[Any] | None) -> Any:
    """Return the accepted options: one label, or a frozenset of several (none: missing)."""
    accept = list(record.get("accept") or ())
    options = record.get("options")
    declared = allowed
    if isinstance(options, list) and options:
        declared = frozenset(o.get("id") for o in options if isinstance(o, Mapping))
    for label in accept:
        if declared is not None and label not in declared:
            shown = ", ".join(map(repr, sorted(declared, key=str)))
            fail(
                f"{at}: the accepted option {label!r} is not one of the options ({shown}). "
                "Fix the line, or export it again from Prodigy."
            )
    if not accept:
        return None
    return accept[0] if len(accept) == 1 else frozenset(accept)


def _spans(
    rows: dict[str, list[Any]],
    record: Mapping[str, Any],
    key: tuple[Any, Any],
    at: str,
    allowed: frozenset[Any] | None,
) -> None:
    """Add the record's spans, one row each, checked against its text."""
    text = record.get("text")
    size = len(text) if isinstance(text, str) else None
    for span in record.get("spans") or ():
        start, end, label = span.get("start"), span.get("end"), span.get("label")
        if not isinstance(start, int) or not isinstance(end, int):
            fail(f"{at}: a span has no character offsets (start, end): {dict(span)}.")
        if not 0 <= start <= end or (size is not None and end > size):
            within = f" of {size} characters" if size is not None else ""
            fail(
                f"{at}: the span [{start}, {end}) is not inside the text{within}. The line "
                "does not match its text: export it again from Prodigy."
            )
        if label is None or label == "":
            fail(f"{at}: the span [{start}, {end}) has no label. Label it in Prodigy, or drop it.")
        if allowed is not None and label not in allowed:
            shown = ", ".join(map(repr, sorted(allowed, key=str)))
            fail(f"{at}: the span label {label!r} is not one of choices= ({shown}).")
        cells = (*key, label, start, end, span.get("token_start"), span.get("token_end"), text)
        for column, cell in zip(rows, cells, strict=True):
            rows[column].append(cell)
