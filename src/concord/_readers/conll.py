"""CoNLL columns: a token a line, IOB tags per annotator, chunks read as ``conlleval`` does.

The CoNLL-2003 layout: one token a line with whitespace-separated columns (the
token first, the tags last), a blank line between sentences, and a
``-DOCSTART-`` line before each document::

    -DOCSTART- O O

    Ada B-PER B-PER
    Lovelace I-PER I-PER
    met O O

Annotators: one tag column each in one file (``raters=`` names the last
columns, or maps names to column numbers, the token's being 1; by default
every column after the token is an annotator's, named "column 2", "column 3",
...), or one file each (a list of files, each named by
its file name, or a mapping ``{rater: file}``), whose last column is the tag
and whose tokens must be the same.

Items: the documents, numbered 1, 2, ... in the file, where ``-DOCSTART-``
lines split it; without them, each sentence is an item (numbered likewise).

Chunks: exactly as ``conlleval`` (the CoNLL-2000 evaluation script) finds
them: a chunk starts at ``B-`` and at an ``I-`` that follows ``O`` or another
type; it ends before ``O``, ``B-``, another type, or the sentence's end. This
reads IOB1 (``B-`` only between adjacent chunks of one type) and IOB2 (every
chunk begins with ``B-``) alike. ``scheme="auto"`` (default) reads any such
sequence; ``scheme="iob1"`` or ``"iob2"`` also refuses a tag that breaks that
scheme, naming its file and line.

Spans: character offsets in the document's text rebuilt by joining its tokens
with one space and its sentences with a newline (the ``text`` column), end
exclusive, and the chunk's tokens (``token_start``, ``token_end``: token
positions in the document, end exclusive).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from concord._common.errors import check_option, param_error
from concord._readers.iob import DOCSTART, Token, chunks, is_tag
from concord._readers.rows import FUNC, Rows, record_error

#: an item: its number and its sentences, each a list of tokens
Unit = tuple[int, list[list[Token]]]


def looks_like(sample: Any) -> bool:
    """Whether ``sample``, a file's first text lines, looks like CoNLL columns of IOB tags."""
    if not isinstance(sample, list | tuple):
        return False
    lines = [line.split() for line in sample if isinstance(line, str) and line.strip()]
    if not lines:
        return False
    if lines[0][0] == DOCSTART:
        return True
    return all(len(f) >= 2 and is_tag(f[-1]) for f in lines)


def read(source: Any, /, *, raters: Any = None, scheme: str = "auto") -> Any:
    r"""Read CoNLL IOB columns into concord's long span form.

    Parameters
    ----------
    source : path, open file, list of them, or mapping
        One file with one tag column per annotator, or one file per annotator
        (a list, each named by its file name, or a mapping ``{rater: file}``).
    raters : list of str or mapping, optional
        For one file: the annotators of its last ``len(raters)`` columns, or a
        mapping ``{rater: column number}`` (the token is column 1; default:
        every column after the token, named "column 2", ...).
    scheme : {"auto", "iob1", "iob2"}, default "auto"
        Read as ``conlleval`` reads; "iob1"/"iob2" also refuse tags breaking them.

    Returns
    -------
    pandas.DataFrame
        ``item, rater, start, end, label, text, token_start, token_end``, with
        ``attrs["format"] == "conll"``.

    Examples
    --------
    Two annotators' IOB2 columns of one sentence (CoNLL-2003's layout):

    >>> import io
    >>> lines = ["Ada B-PER B-PER", "Lovelace I-PER O", "wrote O O"]
    >>> df = read(io.StringIO("\n".join(lines)), raters=["ann", "bob"])
    >>> df[["rater", "start", "end", "label"]].to_dict("list")
    {'rater': ['ann', 'bob'], 'start': [0, 0], 'end': [12, 3], 'label': ['PER', 'PER']}
    """
    scheme = check_option(FUNC, "scheme", scheme, ("auto", "iob1", "iob2"))
    rows = Rows(spans=True, extra=("text", "token_start", "token_end"))
    if isinstance(source, Mapping) or (isinstance(source, list | tuple) and source):
        named = _named(source, raters)
        units = {rater: _units(_parse(part)) for rater, part in named}
        first = named[0][0]
        for rater, own in units.items():
            _same_tokens(units[first], own)
            _add(rows, own, rater, -1, scheme)
        return rows.frame("conll", {})
    units_one = _units(_parse(source))
    for rater, column in _columns(units_one, raters):
        _add(rows, units_one, rater, column, scheme)
    return rows.frame("conll", {})


# -- files -------------------------------------------------------------------------------------


def _named(source: Any, raters: Any) -> list[tuple[Any, Any]]:
    """Return ``(rater, file)`` for one file per annotator."""
    if raters is not None:
        param_error(
            FUNC,
            "raters",
            "None with one file per annotator (the files name the raters)",
            raters,
            fix="Name them with a mapping {rater: file} instead.",
        )
    if isinstance(source, Mapping):
        return list(source.items())
    named = [(Path(str(getattr(part, "name", part))).stem, part) for part in source]
    stems = [name for name, _ in named]
    if len(set(stems)) < len(stems):
        param_error(
            FUNC,
            "source",
            "files of distinct names (each names its annotator)",
            stems,
            fix="Name the annotators with a mapping {rater: file}.",
        )
    return named


def _parse(source: Any) -> tuple[list[list[list[Token]]], bool]:
    """Return one file's documents (lists of sentences of tokens), and if -DOCSTART- split it."""
    if hasattr(source, "read"):
        name = Path(str(getattr(source, "name", "the file"))).name
        return _documents(source.read().split("\n"), name)
    if not isinstance(source, str | Path):
        param_error(
            FUNC, "source", "a path, an open file, or a list of them", source, exc=TypeError
        )
    path = Path(source)
    with path.open(encoding="utf-8") as handle:
        return _documents(handle.read().split("\n"), path.name)


def _documents(lines: Iterable[str], name: str) -> tuple[list[list[list[Token]]], bool]:
    """Split lines into documents (at -DOCSTART-) and sentences (at blank lines)."""
    docs: list[list[list[Token]]] = []
    sentence: list[Token] = []
    first: Token | None = None
    started = False
    for number, line in enumerate(lines, 1):
        # spaces and tabs separate the columns, not any Unicode space (a token may hold one)
        fields = [f for f in line.replace("\t", " ").rstrip("\r").split(" ") if f]
        if not fields or fields[0] == DOCSTART:
            if sentence:
                docs[-1].append(sentence)
                sentence = []
            if fields:
                docs.append([])
                started = True
            continue
        token = Token(name, number, fields)
        first = first or token
        if len(fields) != len(first.fields):
            record_error(
                f"{name}:{number}",
                f"has {len(fields)} columns where line {first.line} has {len(first.fields)}",
                "Every token line holds the same columns (the token, ..., the tags): fix it.",
            )
        if not docs:
            docs.append([])
        sentence.append(token)
    if sentence:
        docs[-1].append(sentence)
    return docs, started


def _units(parsed: tuple[list[list[list[Token]]], bool]) -> list[Unit]:
    """Return the items: the documents where -DOCSTART- lines split them, else the sentences."""
    docs, started = parsed
    if started:
        return list(enumerate(docs, 1))
    return [(k, [s]) for k, s in enumerate(docs[0] if docs else [], 1)]


def _columns(units: list[Unit], raters: Any) -> list[tuple[Any, int]]:
    """Return ``(rater, column)`` for the tag columns of one file."""
    token = next((s[0] for _, sentences in units for s in sentences), None)
    if token is None or len(token.fields) < 2:
        where = f"{token.name}:{token.line}" if token else "The file"
        shown = "holds no token line" if token is None else "has one column, no tag column"
        record_error(where, shown, "Give CoNLL columns: the token, ..., the tags.")
    width = len(token.fields)
    if raters is None:
        return [(f"column {c + 1}", c) for c in range(1, width)]
    if isinstance(raters, Mapping):
        return [(name, _column(number, width)) for name, number in raters.items()]
    names = [raters] if isinstance(raters, str) else list(raters)
    if not 0 < len(names) < width:
        param_error(
            FUNC,
            "raters",
            f"1 to {width - 1} names for the last tag columns of the file's {width} columns",
            raters,
        )
    return [(name, width - len(names) + k) for k, name in enumerate(names)]


def _column(number: Any, width: int) -> int:
    """Return the index of the tag column numbered ``number`` (1 is the token's)."""
    if isinstance(number, int) and not isinstance(number, bool) and 2 <= number <= width:
        return number - 1
    param_error(
        FUNC,
        "raters",
        f"a mapping of names to column numbers from 2 to {width} (1 is the token)",
        number,
        raw=False,
    )


def _same_tokens(base: list[Unit], other: list[Unit]) -> None:
    """Refuse an annotator's file whose items, sentences or tokens differ from the first's."""
    fix = "The annotators' files must hold the same tokens, sentences and documents: align them."
    if len(base) != len(other):
        record_error(
            _file(other), f"has {len(other)} items where {_file(base)} has {len(base)}", fix
        )
    for (item, mine), (_, theirs) in zip(base, other, strict=True):
        if len(mine) != len(theirs):
            record_error(
                _file(other),
                f"has {len(theirs)} sentences in item {item} where {_file(base)} has {len(mine)}",
                fix,
            )
        for k, (a, b) in enumerate(zip(mine, theirs, strict=True), 1):
            if len(a) != len(b):
                record_error(
                    f"{b[0].name}:{b[0].line}",
                    f"starts sentence {k} of item {item}, of {len(b)} tokens where "
                    f"{a[0].name}:{a[0].line} starts it with {len(a)}",
                    fix,
                )
            for x, y in zip(a, b, strict=True):
                if x.fields[0] != y.fields[0]:
                    record_error(
                        f"{y.name}:{y.line}",
                        f"has the token {y.fields[0]!r} where {x.name}:{x.line} has "
                        f"{x.fields[0]!r}",
                        fix,
                    )


def _file(units: list[Unit]) -> str:
    """Return the name of the file the items were read from."""
    token = next((s[0] for _, sentences in units for s in sentences), None)
    return token.name if token is not None else "an empty file"


# -- chunks ------------------------------------------------------------------------------------


def _add(rows: Rows, units: list[Unit], rater: Any, column: int, scheme: str) -> None:
    """Add one annotator's chunks of every item, as character and token offsets."""
    for item, sentences in units:
        text, starts = _text(sentences)
        position = 0
        for sentence in sentences:
            for first, last, label in chunks(sentence, column, scheme):
                a, b = position + first, position + last
                start, end = starts[a], starts[b - 1] + len(sentence[last - 1].fields[0])
                span = {"start": start, "end": end, "token_start": a, "token_end": b}
                rows.add(item=item, rater=rater, label=label, text=text, **span)
            position += len(sentence)


def _text(sentences: list[list[Token]]) -> tuple[str, list[int]]:
    """Return an item's text (tokens joined by spaces, sentences by newlines) and token starts."""
    starts: list[int] = []
    at = 0
    for sentence in sentences:
        for token in sentence:
            starts.append(at)
            at += len(token.fields[0]) + 1  # the space, or the newline after the sentence
    text = "\n".join(" ".join(t.fields[0] for t in s) for s in sentences)
    return text, starts
