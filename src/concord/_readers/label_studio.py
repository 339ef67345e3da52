"""Label Studio's JSON export: one task per record, one annotation per annotator.

A task holds its ``id``, its ``data`` (the text) and ``annotations``; each
annotation names its annotator in ``completed_by`` (a user id, or a user object
with ``id`` and ``email``), may be ``was_cancelled`` (skipped, and counted), and
holds ``result``: one entry per answer, naming its control (``from_name``) and
its ``type``. Read here: ``choices`` (several chosen: a label set), ``rating``,
``taxonomy`` (a path reads ``"A / B"``) and ``labels`` (spans with ``start`` and
``end``, character offsets, end exclusive). ``predictions`` are a model's, never
read. Label Studio's labelling config is not in the export: pass ``choices=`` to
check that every label is one the project declares.

The export is read a task at a time, into plain lists, and made a DataFrame once;
equal labels and annotators share one string.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, NoReturn

from concord._readers.source import fail, frame, name_of, records

FORMAT = "label-studio"
TYPES = ("choices", "rating", "taxonomy", "labels")


def looks_like(sample: Any) -> bool:
    """Return True for a Label Studio task: ``data`` and ``annotations``."""
    return isinstance(sample, Mapping) and "annotations" in sample and "data" in sample


class _Control:
    """The rows one control (``from_name``) gives, and the (item, rater) pairs it has."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.rows: dict[str, list[Any]] = {"item": [], "rater": [], "label": []}
        self.items, self.raters, self.labels = (self.rows[c] for c in ("item", "rater", "label"))
        if kind == "labels":
            self.rows.update(start=[], end=[], text=[])
        self.seen: set[tuple[Any, Any]] = set()
        self.several = False


class _Where:
    """Where the reader is (file, task, annotation), spelt only when an error needs it."""

    def __init__(self, name: str, allowed: frozenset[Any] | None) -> None:
        self.name, self.allowed = name, allowed
        self.position, self.task, self.index = 0, None, 0
        self.shared: dict[Any, Any] = {}  # one object per distinct label or annotator

    def fail(self, message: str) -> NoReturn:
        task = f" (id {self.task!r})" if self.task is not None else ""
        fail(
            f"{self.name}: record {self.position + 1}{task}, annotation {self.index + 1}{message}"
        )


def read(
    source: Any,
    /,
    *,
    from_name: str | None = None,
    choices: Collection[Any] | None = None,
    text_key: str | None = None,
) -> Any:
    """Read a Label Studio JSON export into a long DataFrame (see :mod:`concord._readers.read`).

    ``from_name`` picks one control where the tasks hold several; ``choices``
    lists the labels the project declares (a label outside them is an error);
    ``text_key`` names the ``data`` field that holds the text (default
    ``"text"``, or the only text field), used to check span offsets.
    """
    at = _Where(name_of(source), None if choices is None else frozenset(choices))
    controls: dict[str, _Control] = {}
    skipped = {"cancelled": 0, "without a result": 0}
    answered = 0
    documents: dict[Any, int | None] = {}  # every answered task's length, marked or not
    annotators: dict[Any, None] = {}
    for at.position, task in enumerate(records(source)):
        item, text = _task(task, at, text_key)
        for at.index, annotation in enumerate(task.get("annotations") or ()):
            if annotation.get("was_cancelled"):
                skipped["cancelled"] += 1
                continue
            answered += 1
            rater = _rater(annotation, at)
            documents[item] = len(text) if isinstance(text, str) else None
            annotators.setdefault(rater)
            results = annotation.get("result") or ()
            touched: set[str] = set()  # the controls this annotation has answered
            for result in results:
                _result(result, controls, (item, rater, text), at, touched)
    control = _pick(controls, from_name, at.name)
    skipped["without a result"] = answered - len(control.seen)
    if control.several:  # one control's labels are all sets, or none is
        labels = control.rows["label"]
        control.rows["label"] = [_as_set(v) for v in labels]
    df = frame(control.rows, FORMAT, skipped)
    if control.kind == "labels" and None not in documents.values():
        # a task answered with no span, and an annotator who marked nothing anywhere, have
        # no row: the span measures take them from here ("nothing here" is agreement)
        df.attrs["lengths"] = documents
        df.attrs["raters"] = list(annotators)
        # what the table held when read: the span measures use the two above only while
        # the frame still holds exactly these (not after rows were filtered out)
        df.attrs["read"] = {  # lists, not sets: attrs go to JSON (to_parquet writes them)
            "items": list(dict.fromkeys(control.items)),
            "raters": list(dict.fromkeys(control.raters)),
        }
    return df


def _as_set(label: Any) -> frozenset[Any]:
    """Return a label as a label set: nothing chosen is the empty set."""
    if isinstance(label, frozenset):
        return label
    return frozenset() if label is None else frozenset([label])


def _task(task: Any, at: _Where, key: str | None) -> tuple[Any, Any]:
    """Return a task's id and its text (None where it has none)."""
    at.task, at.index = None, -1
    if not isinstance(task, Mapping):
        fail(
            f"{at.name}: record {at.position + 1} is a {type(task).__name__}, not an object "
            "(a JSON {...}). Pass the export as the tool wrote it."
        )
    if task.get("id") is None:
        fail(f"{at.name}: record {at.position + 1} has no 'id'. Export the tasks again.")
    at.task = task["id"]
    data = task.get("data")
    if not isinstance(data, Mapping):
        fail(f"{at.name}: record {at.position + 1} (id {at.task!r}) has no 'data' object.")
    if key is not None:
        return task["id"], data.get(key)
    if isinstance(data.get("text"), str):
        return task["id"], data["text"]
    texts = [v for v in data.values() if isinstance(v, str)]
    return task["id"], texts[0] if len(texts) == 1 else None


def _rater(annotation: Mapping[str, Any], at: _Where) -> Any:
    """Return the annotator: the user's email, else its id."""
    user = annotation.get("completed_by")
    if isinstance(user, dict):
        user = user.get("email") or user.get("id")
    if user is None or user == "":
        at.fail(
            " has no annotator ('completed_by'). Export the project as Label Studio's "
            "JSON (with its annotations), or fill completed_by in."
        )
    return at.shared.setdefault(user, user)


def _result(
    result: Mapping[str, Any],
    controls: dict[str, _Control],
    task: tuple[Any, Any, Any],
    at: _Where,
    touched: set[str],
) -> None:
    """Add one result's rows to its control; a second answer to it by the rater fails."""
    kind, control_name = result.get("type"), result.get("from_name")
    if kind not in TYPES or control_name is None:
        return  # a text area, a relation...: no label to compare
    control = controls.get(control_name)
    if control is None:
        control = controls[control_name] = _Control(kind)
    item, rater = task[0], task[1]
    value = result.get("value") or {}
    if control_name not in touched or kind != "labels":  # spans: many in one annotation
        pair = (item, rater)
        seen = control.seen
        if pair in seen:
            at.fail(
                f": annotator {rater!r} answers {control_name!r} a second time on this task. "
                "Keep one annotation per annotator and task (delete the other in Label Studio)."
            )
        seen.add(pair)
        touched.add(control_name)
    if kind == "labels":
        _span(control, value, task, at)
        return
    chosen = value.get("choices") if kind == "choices" else None
    if chosen is not None and len(chosen) == 1:  # the common case, without a call
        label = chosen[0]
    else:
        label = _label(kind, value, at, control_name)
        if isinstance(label, frozenset):
            control.several = True
    if at.allowed is not None and label is not None:
        _check(label, at)
    control.items.append(item)
    control.raters.append(rater)
    control.labels.append(at.shared.setdefault(label, label))


def _label(kind: str, value: Mapping[str, Any], at: _Where, control: str) -> Any:
    """Return a choices, rating or taxonomy answer as a label (several: a frozenset)."""
    if kind == "rating":
        if "rating" not in value:
            at.fail(f": the rating of {control!r} has no value.rating.")
        return value["rating"]
    if kind == "taxonomy":
        found = [" / ".join(map(str, path)) for path in value.get("taxonomy") or ()]
    else:
        found = value.get("choices") or []
    if len(found) < 2:  # nothing chosen: a missing label, kept as a row
        return found[0] if found else None
    return frozenset(found)


def _span(
    control: _Control, value: Mapping[str, Any], task: tuple[Any, Any, Any], at: _Where
) -> None:
    """Add a span's rows: one per label, with its offsets checked against the text."""
    start, end = value.get("start"), value.get("end")
    text = task[2]
    if not isinstance(start, int) or not isinstance(end, int):
        at.fail(f": a span has no character offsets (value.start, value.end): {dict(value)}.")
    if not 0 <= start <= end or (isinstance(text, str) and end > len(text)):
        size = f" of {len(text)} characters" if isinstance(text, str) else ""
        at.fail(
            f": the span [{start}, {end}) is not inside the text{size}. The export does "
            "not match its text: export it again, or pass text_key= naming the text field."
        )
    labels = value.get("labels") or ()
    if not labels or any(label is None or label == "" for label in labels):
        at.fail(
            f": the span [{start}, {end}) has no label (value.labels is {list(labels)!r}). "
            "Label the region in Label Studio, or delete it."
        )
    for label in labels:
        _check(label, at)
        for column, cell in zip(control.rows, (*task[:2], label, start, end, text), strict=True):
            control.rows[column].append(cell)


def _check(label: Any, at: _Where) -> None:
    if at.allowed is None:
        return
    values = label if isinstance(label, frozenset) else [label]
    outside = [v for v in values if v not in at.allowed]
    if outside:
        at.fail(
            f": the label {outside[0]!r} is not one of choices= "
            f"({', '.join(map(repr, sorted(at.allowed, key=str)))}). Fix the label in the tool, "
            "or add it to choices=."
        )


def _pick(controls: dict[str, _Control], from_name: str | None, name: str) -> _Control:
    """Return the control ``from_name`` names, or the only one; several unpicked: an error."""
    listed = ", ".join(f"{n!r} ({c.kind})" for n, c in controls.items())
    if from_name is not None:
        if from_name not in controls:
            fail(
                f"{name}: no control {from_name!r} (from_name=) in the annotations. "
                f"Controls: {listed or 'none'}."
            )
        return controls[from_name]
    if not controls:
        fail(
            f"{name}: no annotation holds a choices, rating, taxonomy or labels result. "
            "Export the annotated tasks (not only the predictions)."
        )
    if len(controls) > 1:
        fail(
            f"{name}: the annotations answer several controls: {listed}. Pick one with from_name=."
        )
    return next(iter(controls.values()))
