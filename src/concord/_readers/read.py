"""``concord.read_annotations``: an annotation tool's export as a long DataFrame.

Six formats, one module each (``concord._readers.<module>``), imported when used;
each exposes ``read(source, /, **options)`` and ``looks_like(sample)``. With
``format=None`` the format is detected from the content: a folder or ``.ann`` file is
brat, ``.conll``/``.iob`` or lines of tab-separated tokens CoNLL, and a JSON or
JSON Lines export is asked of each JSON format in turn; the choice is said by a
:class:`UserWarning` (pass ``format=`` to say it yourself and silence it).
"""

from __future__ import annotations

import importlib
import io
import warnings
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from concord._common.errors import check_option
from concord._readers import argilla
from concord._readers.source import Text, fail, is_path, name_of, parse, read_text, records

if TYPE_CHECKING:
    import pandas as pd

#: format name → module of concord._readers
MODULES = {
    "label-studio": "label_studio",
    "prodigy": "prodigy",
    "doccano": "doccano",
    "argilla": "argilla",
    "brat": "brat",
    "conll": "conll",
}
#: the JSON formats, in the order detection asks them
JSON_FORMATS = ("label-studio", "prodigy", "argilla", "doccano")
# the readers that take a file's text already read (source.Text): this module's own
_TAKE_TEXT = ("label-studio", "prodigy", "argilla")
_CONLL_SUFFIXES = (".conll", ".conllu", ".iob", ".iob2", ".bio")


class _Named(list[Any]):
    """Parsed records that keep the name of the file they came from, for messages."""

    name: str


def module(fmt: str) -> ModuleType:
    """Return the reader module of a format; one that this install lacks is one line."""
    try:
        return importlib.import_module(f"concord._readers.{MODULES[fmt]}")
    except ModuleNotFoundError:
        fail(f"read_annotations cannot read {fmt!r} exports in this version of concord.")


def read_annotations(source: Any, /, *, format: str | None = None, **options: Any) -> pd.DataFrame:
    """Read an annotation tool's export into a long pandas DataFrame.

    Parameters
    ----------
    source : path, open file, or records
        The export: a path (a file, or brat's folder), an open file, or the
        parsed records (a list of dicts, a DataFrame, a Hugging Face or Argilla
        dataset: anything with ``to_list()`` or iterable of mappings).
    format : {None, 'label-studio', 'prodigy', 'doccano', 'argilla', 'brat', 'conll'}
        The tool that wrote it. None (default) detects it from the content and
        says which with a :class:`UserWarning`.
    **options
        The format's own options: Label Studio ``from_name=`` (which control),
        ``choices=`` (the labels declared), ``text_key=``; Prodigy ``answers=``,
        ``choices=``; Argilla ``question=``, ``statuses=``, ``choices=``.

    Returns
    -------
    pandas.DataFrame
        One row per rating: ``item``, ``rater``, ``label`` (a label set is a
        ``frozenset``); for spans ``item``, ``rater``, ``start``, ``end``
        (character offsets, end exclusive), ``label`` and ``text`` where the
        export holds the document. ``attrs["format"]`` names the format,
        ``attrs["skipped"]`` counts what the format marks as not an answer
        (``{"cancelled": 2}``), never silently dropped.

    Raises
    ------
    ValueError
        A file that does not parse, or a record without its item or annotator,
        with a label outside ``choices=``, with offsets past its text, or given
        twice: one line naming the record (position and id) and the fix.

    Examples
    --------
    Three annotators' sentiment labels in a Label Studio export
    (tests/data/annotations/label_studio.json, written for the tests):

    >>> import concord
    >>> df = concord.read_annotations(
    ...     "tests/data/annotations/label_studio.json", format="label-studio"
    ... )
    >>> df.head(3)
       item                rater     label
    0     1  alice@example.com  positive
    1     1    bob@example.com  positive
    2     1  carol@example.com  positive
    >>> df.attrs["skipped"]
    {'cancelled': 1}
    """
    if format is None:
        fmt, source = detect(source)
        warnings.warn(
            f"read_annotations: reading {name_of(source)} as format={fmt!r} (detected from its "
            "content); pass format= to say so.",
            UserWarning,
            stacklevel=2,
        )
    else:
        fmt = check_option("read_annotations", "format", format, MODULES)
    return module(fmt).read(source, **options)


def detect(source: Any) -> tuple[str, Any]:
    """Return the format of ``source`` and the source to read (parsed once, where parsed).

    An unknown layout is an error naming what was found (the first record's keys).
    """
    if is_path(source):
        found = _path_format(Path(source))
        if found is not None:
            return found, source
    if is_path(source) or hasattr(source, "read"):
        name = name_of(source)
        text = read_text(source)
        if text.lstrip()[:1] not in ("[", "{"):
            return _text_format(text, name)
        fmt = _json_format(next(parse(text, name), None), name)
        if fmt in _TAKE_TEXT:  # the text read here, not read again
            return fmt, Text(text, name)
        return fmt, source if is_path(source) else _as_file(text, name)
    if not isinstance(source, list | tuple):  # read once: an iterator would be spent
        named = _Named(records(source))
        named.name = name_of(source)
        source = named
    return _json_format(next(iter(source), None), name_of(source)), source


def _path_format(path: Path) -> str | None:
    """Return the format a path names by itself (a folder, zip, .ann, .conll), else None."""
    if path.is_dir() or path.suffix.lower() == ".zip":
        claimed = [fmt for fmt in ("doccano", "brat") if _claims(fmt, path)]
        if len(claimed) != 1:
            what = "a folder" if path.is_dir() else "a zip"
            holds = "both .jsonl and .ann files" if claimed else "no .jsonl or .ann file"
            fail(
                f"{path} is {what} holding {holds}: doccano's per-user export is .jsonl "
                "files, brat's collection .ann files. Pass format= to say which."
            )
        return claimed[0]
    if path.suffix.lower() == ".ann":
        return "brat"
    if path.suffix.lower() in _CONLL_SUFFIXES:
        return "conll"
    return None


def _text_format(text: str, name: str) -> tuple[str, Any]:
    """Return ("conll", the text as a named file) for token lines; else fail."""
    lines = [line for line in text.splitlines()[:50] if line.strip()]
    if _claims("conll", lines):
        return "conll", _as_file(text, name)
    first = lines[0][:60] if lines else ""
    fail(
        f"{name}: cannot tell the annotation format: it is not JSON and its first line "
        f"{first!r} is not a CoNLL token line. Pass format= (one of {', '.join(MODULES)})."
    )


def _as_file(text: str, name: str) -> io.StringIO:
    """Return text already read from a file as an open file again, with its name."""
    stream = io.StringIO(text)
    stream.name = name
    return stream


def _claims(fmt: str, sample: Any) -> bool:
    """Whether the format's reader recognises the sample; a reader not installed does not."""
    try:
        reader = importlib.import_module(f"concord._readers.{MODULES[fmt]}")
    except ModuleNotFoundError:
        return False
    return bool(reader.looks_like(sample))


def _json_format(first: Any, name: str) -> str:
    """Ask each JSON format about the first record; exactly one must claim it."""
    if first is None:
        fail(f"{name} holds no record: nothing to read.")
    if not isinstance(first, Mapping):
        fail(f"{name}: record 1 is a {type(first).__name__}, not an object (a JSON {{...}}).")
    claimed = [fmt for fmt in JSON_FORMATS if _claims(fmt, first)]
    if claimed == ["argilla", "doccano"] and argilla.responses_column(first.get("label")):
        claimed = ["argilla"]  # Argilla's question named "label": its responses, not doccano's
    keys = ", ".join(map(repr, list(first)[:12]))
    if not claimed:
        fail(
            f"{name}: cannot tell the annotation format from the first record's keys ({keys}). "
            f"Pass format= (one of {', '.join(MODULES)})."
        )
    if len(claimed) > 1:
        fail(
            f"{name}: the first record (keys {keys}) could be {' or '.join(claimed)}. "
            "Pass format= to say which."
        )
    return claimed[0]
