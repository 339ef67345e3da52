"""IOB tags as ``conlleval`` reads them: the chunks of a sentence, and the strict schemes.

``conlleval`` (the CoNLL-2000 evaluation script, Tjong Kim Sang) finds a chunk
start at ``B-`` and at an ``I-`` after ``O`` or after another type, and a chunk
end before ``O``, ``B-`` or another type; the type is what follows the first
hyphen. That reads IOB1 and IOB2 alike. The strict schemes refuse what their
definition rules out: IOB2 begins every chunk with ``B-``; IOB1 puts ``B-``
only between adjacent chunks of one type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from concord._readers.rows import record_error

TAG = re.compile(r"([BI])-(.+)")
DOCSTART = "-DOCSTART-"
_TAGS_FIX = "IOB tags are O, B-TYPE and I-TYPE; name the annotators' tag columns with raters=."


@dataclass(frozen=True)
class Token:
    """One token line: its file, line number and columns."""

    name: str
    line: int
    fields: list[str]


def is_tag(tag: str) -> bool:
    """Whether ``tag`` is ``O``, ``B-TYPE`` or ``I-TYPE``."""
    return tag == "O" or TAG.fullmatch(tag) is not None


def chunks(sentence: list[Token], column: int, scheme: str) -> list[tuple[int, int, str]]:
    """Return the chunks ``(first, end, type)`` of one sentence, as ``conlleval`` finds them."""
    found: list[tuple[int, int, str]] = []
    open_at: int | None = None
    prev, prev_type = "O", ""
    for i, token in enumerate(sentence):
        tag, kind = _tag(token, column)
        if open_at is not None and _ends(prev, tag, prev_type, kind):
            found.append((open_at, i, prev_type))
            open_at = None
        if _starts(prev, tag, prev_type, kind):
            _check_scheme(token, column, scheme, prev, tag, prev_type, kind)
            open_at = i
        prev, prev_type = tag, kind
    if open_at is not None:
        found.append((open_at, len(sentence), prev_type))
    return found


def _tag(token: Token, column: int) -> tuple[str, str]:
    raw = token.fields[column]
    if raw == "O":
        return "O", ""
    match = TAG.fullmatch(raw)
    if match is None:
        number = column % len(token.fields) + 1
        record_error(
            f"{token.name}:{token.line}",
            f"has {raw!r} in column {number}, not an IOB tag",
            _TAGS_FIX,
        )
    return match.group(1), match.group(2)


def _ends(prev: str, tag: str, prev_type: str, kind: str) -> bool:
    """Conlleval's endOfChunk for O, B and I: a chunk ended before this token."""
    return (prev in "BI" and tag in "BO") or (prev != "O" and prev_type != kind)


def _starts(prev: str, tag: str, prev_type: str, kind: str) -> bool:
    """Conlleval's startOfChunk for O, B and I: a chunk starts at this token."""
    return tag == "B" or (prev == "O" and tag == "I") or (tag != "O" and prev_type != kind)


def _check_scheme(
    token: Token, column: int, scheme: str, prev: str, tag: str, prev_type: str, kind: str
) -> None:
    """Refuse a chunk start that breaks the strict IOB1 or IOB2 scheme."""
    where = f"{token.name}:{token.line}"
    shown = token.fields[column]
    if scheme == "iob2" and tag == "I":
        record_error(
            where,
            f"begins a chunk with {shown!r}: IOB2 begins every chunk with B-",
            "Pass scheme='iob1' or 'auto' to read it as conlleval does.",
        )
    if scheme == "iob1" and tag == "B" and not (prev != "O" and prev_type == kind):
        record_error(
            where,
            f"has {shown!r} after {'O' if prev == 'O' else prev + '-' + prev_type}: IOB1 "
            "puts B- only between adjacent chunks of one type",
            "Pass scheme='iob2' or 'auto' to read it as conlleval does.",
        )
