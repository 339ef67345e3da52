"""Argilla's records: each record holds every annotator's responses to its questions.

Three layouts of one record are read, as Argilla's SDKs write them:

* Argilla 2 (``dataset.records.to_list(flatten=False)``, ``Record.to_dict()``):
  ``responses`` maps each question's name to a list of ``{"value", "user_id"}``
  (with ``status`` where the export has it);
* Argilla 2 flattened (``to_list(flatten=True)``): ``"<question>.responses"`` lists the
  values, ``"<question>.responses.users"`` their users (``.status`` their status);
* Argilla 1 (``FeedbackDataset`` records): ``responses`` is a list of
  ``{"user_id", "values": {question: {"value": ...}}, "status"}``;
* Argilla 1 on the Hugging Face Hub (``FeedbackDataset.push_to_huggingface``): each
  question is a column holding a list of ``{"user_id", "value", "status"}``.

The item is the record's ``id`` (else ``external_id``, ``_server_id``, else its
position); the rater its ``user_id``. Only ``submitted`` responses are read by default
(``statuses=``; a response without a status counts as submitted); drafts and discarded
ones are skipped and counted. A multi-label answer is a label set; a span answer
(``[{"start", "end", "label"}, ...]``) gives one row per span.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from typing import Any

from concord._readers.source import check_mapping, fail, frame, name_of, records

FORMAT = "argilla"
_IDS = ("id", "external_id", "_server_id")


def looks_like(sample: Any) -> bool:
    """Return True for an Argilla record: ``responses`` (nested or flattened) and fields."""
    if not isinstance(sample, Mapping):
        return False
    if isinstance(sample.get("responses"), Mapping | list):
        return True
    return any(
        (isinstance(k, str) and k.endswith(".responses")) or responses_column(v)
        for k, v in sample.items()
    )


def responses_column(value: Any) -> bool:
    """Whether a column holds one question's responses, as Argilla 1 pushes them to the Hub."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(a, Mapping) and "user_id" in a and "value" in a for a in value)
    )


def _responses(record: Mapping[str, Any]) -> Iterator[tuple[str, Any, Any, Any]]:
    """Yield (question, user, value, status) for every response of a record."""
    nested = record.get("responses")
    if isinstance(nested, Mapping):  # Argilla 2
        for question, answers in nested.items():
            for a in answers or ():
                yield question, a.get("user_id"), a.get("value"), a.get("status")
    elif isinstance(nested, list):  # Argilla 1
        for a in nested:
            for question, v in (a.get("values") or {}).items():
                value = v.get("value") if isinstance(v, Mapping) else v
                yield question, a.get("user_id"), value, a.get("status")
    yield from _columns(record)


def _columns(record: Mapping[str, Any]) -> Iterator[tuple[str, Any, Any, Any]]:
    """Yield the responses held in columns: Argilla 1 on the Hub, Argilla 2 flattened."""
    for key, column in record.items():
        if key != "responses" and responses_column(column):  # Argilla 1 on the Hub
            for a in column:
                yield key, a.get("user_id"), a.get("value"), a.get("status")
        if isinstance(key, str) and key.endswith(".responses"):  # Argilla 2, flattened
            question = key.removesuffix(".responses")
            values = column or []
            users = record.get(f"{key}.users") or [None] * len(values)
            status = record.get(f"{key}.status") or [None] * len(values)
            yield from (
                (question, u, v, s) for v, u, s in zip(values, users, status, strict=False)
            )


def read(
    source: Any,
    /,
    *,
    question: str | None = None,
    statuses: Collection[str] = ("submitted",),
    choices: Collection[Any] | None = None,
) -> Any:
    """Read Argilla records into a long DataFrame (see :mod:`concord._readers.read`).

    ``question`` picks one question where the records answer several;
    ``statuses`` the response statuses read; ``choices`` the labels allowed.
    """
    name = name_of(source)
    allowed = None if choices is None else frozenset(choices)
    by_question: dict[str, list[tuple[int, Any, Any, Any]]] = {}
    skipped: dict[str, int] = {}
    for position, record in enumerate(records(source)):
        record = check_mapping(position, record, name)
        item = next((record[k] for k in _IDS if record.get(k) is not None), position + 1)
        for q, user, value, status in _responses(record):
            if status is not None and status not in statuses:
                skipped[status] = skipped.get(status, 0) + 1
                continue
            by_question.setdefault(q, []).append((position, item, user, value))
    answers = _pick(by_question, question, name)
    spans = any(_is_spans(v) for _, _, _, v in answers)
    rows: dict[str, list[Any]] = {"item": [], "rater": [], "label": []}
    if spans:
        rows.update(start=[], end=[])
    seen: set[tuple[Any, Any]] = set()
    for position, item, user, value in answers:
        at = f"{name}: record {position + 1} (id {item!r})"
        if user is None or user == "":
            fail(f"{at}: a response has no user_id. Export the records with their responses.")
        if (item, user) in seen:
            fail(f"{at}: user {user!r} answers it twice. Keep one response per user and record.")
        seen.add((item, user))
        if spans:
            _add_spans(rows, item, user, value, at, allowed)
        else:
            label = _label(value, at, allowed)
            for column, cell in zip(rows, (item, user, label), strict=True):
                rows[column].append(cell)
    return frame(rows, FORMAT, skipped)


def _is_spans(value: Any) -> bool:
    return isinstance(value, list) and any(isinstance(v, Mapping) and "start" in v for v in value)


def _label(value: Any, at: str, allowed: frozenset[Any] | None) -> Any:
    """Return a response's value as a label: a list (multi-label) is a label set."""
    if isinstance(value, list | tuple):
        if any(isinstance(v, Mapping) for v in value):
            fail(f"{at}: a ranking answer is not a label. Pick a label question with question=.")
        label: Any = frozenset(value)
    elif isinstance(value, Mapping):
        fail(f"{at}: the answer {value!r} is not a label. Pick a label question with question=.")
    else:
        label = value
    if allowed is not None:
        for v in label if isinstance(label, frozenset) else [label]:
            if v not in allowed:
                shown = ", ".join(map(repr, sorted(allowed, key=str)))
                fail(f"{at}: the label {v!r} is not one of choices= ({shown}).")
    return label


def _add_spans(
    rows: dict[str, list[Any]],
    item: Any,
    user: Any,
    value: Any,
    at: str,
    allowed: frozenset[Any] | None,
) -> None:
    for span in value or ():
        start, end, label = span.get("start"), span.get("end"), span.get("label")
        if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start <= end:
            fail(f"{at}: the span {dict(span)} has no valid character offsets (start, end).")
        if allowed is not None and label not in allowed:
            fail(f"{at}: the span label {label!r} is not one of choices=.")
        for column, cell in zip(rows, (item, user, label, start, end), strict=True):
            rows[column].append(cell)


def _pick(
    by_question: dict[str, list[Any]], question: str | None, name: str
) -> list[tuple[int, Any, Any, Any]]:
    listed = ", ".join(map(repr, by_question)) or "none"
    if question is not None:
        if question not in by_question:
            fail(f"{name}: no responses to question {question!r}. Questions: {listed}.")
        return by_question[question]
    if not by_question:
        fail(f"{name}: no record holds a response. Export the records with their responses.")
    if len(by_question) > 1:
        fail(f"{name}: the records answer several questions: {listed}. Pick one with question=.")
    return next(iter(by_question.values()))
