"""Where an export comes from: a path, an open file or the parsed records, and its JSON.

Every reader gets its records through :func:`records`: a list of dicts, whatever
the source. JSON and JSON Lines are parsed with the standard library in one pass;
a file that does not parse (a truncated export, a stray line) is one line naming
where it broke, and a record that is not an object names its position.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, NoReturn


def fail(message: str) -> NoReturn:
    """Raise a ValueError with ``message``: one line naming the export, the record and the fix."""
    raise ValueError(message) from None


def name_of(source: Any) -> str:
    """Return how a message calls ``source``: its path, a file's name, or its type."""
    if isinstance(source, str | os.PathLike):
        return os.fspath(source)
    name = getattr(source, "name", None)
    if isinstance(name, str):
        return name
    return f"the {type(source).__name__}"


def is_path(source: Any) -> bool:
    """Return True for a path (a str or an os.PathLike)."""
    return isinstance(source, str | os.PathLike)


def read_text(source: Any) -> str:
    """Return the text of a path or of an open file (text or bytes, UTF-8)."""
    if is_path(source):
        path = Path(source)
        if not path.exists():
            fail(f"{path}: no such file.")
        if path.is_dir():
            fail(f"{path} is a folder; name the export file (.json or .jsonl).")
    try:
        if is_path(source):
            with open(source, encoding="utf-8-sig") as f:  # the text, never bytes and text
                return f.read()
        data = source.read()
        return data.decode("utf-8-sig") if isinstance(data, bytes) else str(data)
    except UnicodeDecodeError as exc:
        fail(
            f"{name_of(source)}: byte {exc.start} is not UTF-8. Annotation tools export "
            "UTF-8; export the file again or convert it to UTF-8."
        )


_SPACE = re.compile(r"[ \t\n\r]*")


def parse(text: str, name: str) -> Iterator[Any]:
    """Yield the records of JSON (an array of records, or one record) or JSON Lines.

    An array is decoded one record at a time, so the parsed export is never held
    whole; a fault is one line naming the record and where it breaks.
    """
    start = _SPACE.match(text).end()  # type: ignore[union-attr]
    if start == len(text):
        fail(f"{name} is empty: an export holds at least one record.")
    if text[start] == "[":
        return _json_array(text, name, start)
    end = text.find("\n", start)
    try:
        json.loads(text[start : end if end >= 0 else len(text)])
    except json.JSONDecodeError:  # one object over several lines: JSON, not JSON Lines
        return iter([_json_whole(text, name)])
    return _json_lines(text, name)


def _broken(text: str, name: str, exc: json.JSONDecodeError, count: int) -> NoReturn:
    fail(
        f"{name} is not valid JSON: record {count + 1} breaks at line {exc.lineno}, column "
        f"{exc.colno} ({exc.msg}). A truncated or hand-edited export: export it again."
    )


def _json_whole(text: str, name: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        _broken(text, name, exc, 0)


def _json_array(text: str, name: str, at: int) -> Iterator[Any]:
    decode = json.JSONDecoder().raw_decode
    space = _SPACE.match
    at = space(text, at + 1).end()  # type: ignore[union-attr]
    count = 0
    while not text.startswith("]", at) or count:
        try:
            record, at = decode(text, at)
        except json.JSONDecodeError as exc:
            _broken(text, name, exc, count)
        yield record
        count += 1
        at = space(text, at).end()  # type: ignore[union-attr]
        if text.startswith(",", at):
            at = space(text, at + 1).end()  # type: ignore[union-attr]
        elif text.startswith("]", at):
            break
        else:
            line = text.count("\n", 0, at) + 1
            found = repr(text[at]) if at < len(text) else "the end of the file"
            fail(
                f"{name} is not valid JSON: after record {count}, line {line} has {found} "
                "where ',' or ']' should be. A truncated or hand-edited export: export it again."
            )
    if text[at + 1 :].strip():
        fail(f"{name} is not valid JSON: text follows the closing ']' of the records.")


def _json_lines(text: str, name: str) -> Iterator[Any]:
    start, number = 0, 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line, start, number = text[start:end], end + 1, number + 1
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            fail(
                f"{name}: line {number} is not valid JSON ({exc.msg}, column {exc.colno}); "
                "in JSON Lines each line holds one whole record. A truncated export: export "
                "it again from the tool."
            )


def records(source: Any) -> Iterator[Any]:
    """Yield the records of ``source``: parsed from a file, or taken from the object.

    A path or an open file is parsed as JSON or JSON Lines (a record at a time);
    a list or tuple is the records; a pandas DataFrame gives its rows; an object
    with ``to_list()`` (a Hugging Face or Argilla dataset) or any other iterable of
    mappings gives those.
    """
    if isinstance(source, Text):
        return parse(source.text, source.name)
    if is_path(source) or hasattr(source, "read"):
        return parse(read_text(source), name_of(source))
    if isinstance(source, list | tuple):
        return iter(source)
    if isinstance(source, Mapping):
        return iter([source])
    if hasattr(source, "to_dict") and hasattr(source, "columns"):  # a pandas DataFrame
        return iter(source.to_dict("records"))
    if hasattr(source, "to_list"):
        return iter(source.to_list())
    if isinstance(source, Iterable) and not isinstance(source, str | bytes):
        return iter(source)
    fail(
        f"cannot read annotations from {name_of(source)}: pass a path, an open file, or the "
        "records (a list of dicts, or a dataset with to_list())."
    )


class Text:
    """An export's text, read once (to detect its format), with the name of its file."""

    def __init__(self, text: str, name: str) -> None:
        self.text, self.name = text, name


def where(position: int, record: Any, *keys: str) -> str:
    """Name a record for a message: ``record 3 (id 17)``, counting from 1."""
    if isinstance(record, Mapping):
        for key in keys:
            if record.get(key) is not None:
                return f"record {position + 1} ({key} {record[key]!r})"
    return f"record {position + 1}"


def check_mapping(position: int, record: Any, name: str) -> Mapping[str, Any]:
    """Return ``record`` if it is a mapping, else fail naming its position."""
    if not isinstance(record, Mapping):
        fail(
            f"{name}: record {position + 1} is a {type(record).__name__}, not an object "
            "(a JSON {...}). Pass the export as the tool wrote it."
        )
    return record


def frame(rows: dict[str, list[Any]], fmt: str, skipped: dict[str, int]) -> Any:
    """Build the long DataFrame once, with ``attrs`` naming the format and the skipped counts."""
    from concord._common.extras import require

    pd = require("pandas", "pandas", "concord.read_annotations")
    df = pd.DataFrame(rows)
    df.attrs["format"] = fmt
    df.attrs["skipped"] = {k: v for k, v in skipped.items() if v}
    return df
