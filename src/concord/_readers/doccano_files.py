"""doccano's files: the records of a JSONL file, a JSON list, a zip or folder of per-user files.

Each record comes with where it is (``Line 3 of ann.jsonl``, for errors), its
rater where the file names one (doccano's per-user ``USERNAME.jsonl``; None
where a key of the record must name it) and its position in its file.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from concord._common.errors import describe, param_error
from concord._readers.rows import FUNC, record_error

#: one record: where it is (for errors), its fixed rater or None, its position, the record
Record = tuple[str, Any, int, dict[str, Any]]


def records(source: Any) -> Iterator[Record]:
    """Yield every record of ``source`` with where it is and its fixed rater (None: from a key)."""
    if isinstance(source, Mapping):
        for user, part in source.items():
            yield from _one(part, user)
    elif isinstance(source, list | tuple) and source and not isinstance(source[0], dict):
        names = [Path(str(getattr(part, "name", part))).stem for part in source]
        if len(set(names)) < len(names):
            param_error(
                FUNC,
                "source",
                "per-user files of distinct names (each names its user)",
                names,
                fix="Name the users with a mapping {user: file}.",
            )
        for name, part in zip(names, source, strict=True):
            yield from _one(part, name)
    else:
        yield from _one(source, None)


def _one(source: Any, user: Any) -> Iterator[Record]:
    """Yield the records of one file, directory, zip or list, with the rater ``user`` (or None)."""
    if isinstance(source, list | tuple):
        name = getattr(source, "name", None)  # parsed records that keep their file's name
        of = f" of {Path(name).name}" if isinstance(name, str) else ""
        for pos, rec in enumerate(source, 1):
            yield _checked(f"Record {pos}{of}", user, pos, rec)
        return
    if hasattr(source, "read"):
        name = str(getattr(source, "name", "the file"))
        yield from _lines(source.read(), Path(name).name, user)
        return
    if not isinstance(source, str | Path):
        param_error(
            FUNC, "source", "a path, an open file or a list of records", source, exc=TypeError
        )
    path = Path(source)
    if path.is_dir():
        files = sorted(path.glob("*.jsonl"))
        if not files:
            record_error(f"The directory {path}", "holds no .jsonl file", "Give doccano's export.")
        for file in files:
            yield from _one(file, file.stem if user is None else user)
    elif path.suffix == ".zip":
        yield from _zip(path, user)
    else:
        yield from _lines(path.read_text(encoding="utf-8-sig"), path.name, user)


def _zip(path: Path, user: Any) -> Iterator[Record]:
    """Yield the records of doccano's zip: USERNAME.jsonl per user (all.jsonl: collaborative)."""
    with zipfile.ZipFile(path) as archive:
        names = sorted(n for n in archive.namelist() if n.endswith((".jsonl", ".json")))
        if not names:
            record_error(f"The zip {path.name}", "holds no .jsonl file", "Give doccano's export.")
        for name in names:
            stem = Path(name).stem
            rater = user if user is not None else (None if stem == "all" else stem)
            text = archive.read(name).decode("utf-8-sig")
            yield from _lines(text, f"{path.name}:{name}", rater)


def _lines(text: Any, name: str, user: Any) -> Iterator[Record]:
    """Yield the records of a JSONL text (or a JSON list); a bad line is an error naming it."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if text.lstrip().startswith("["):
        try:
            records = json.loads(text)
        except json.JSONDecodeError as exc:
            _bad_json(f"Line {exc.lineno} of {name}", exc)
        for pos, rec in enumerate(records, 1):
            yield _checked(f"Record {pos} of {name}", user, pos, rec)
        return
    pos = 0
    for number, line in enumerate(text.split("\n"), 1):  # not splitlines: JSON holds U+2028
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            _bad_json(f"Line {number} of {name}", exc)
        pos += 1
        yield _checked(f"Line {number} of {name}", user, pos, rec)


def _bad_json(where: str, exc: json.JSONDecodeError) -> None:
    record_error(
        where,
        f"is not valid JSON ({exc.msg}, column {exc.colno})",
        "The file may be truncated or edited: export it again from doccano, or fix the line.",
    )


def _checked(where: str, user: Any, pos: int, rec: Any) -> Record:
    if not isinstance(rec, dict):
        record_error(
            where, f"is {describe(rec)}, not a record (a JSON object)", "Give doccano's export."
        )
    return where, user, pos, rec


def per_user_files(path: Path) -> bool:
    """Whether ``path`` is a zip or a folder of ``.jsonl`` files (doccano's per-user export)."""
    if path.is_dir():
        return any(path.glob("*.jsonl")) and not any(path.glob("*.ann"))
    if path.suffix != ".zip" or not zipfile.is_zipfile(path):
        return False
    with zipfile.ZipFile(path) as archive:
        return any(name.endswith(".jsonl") for name in archive.namelist())
