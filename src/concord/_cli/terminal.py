r"""Text a terminal (or file) can carry: ASCII spellings where its encoding lacks a symbol.

concord's text speaks in κ, α, Σ, ⊗ and −; a terminal in Latin-1 or cp1252,
or output redirected with ``PYTHONIOENCODING=ascii``, cannot encode them.
:func:`echo` encodes the text in the stream's own codec once, before writing,
and each character the codec cannot carry is spelled in ASCII (κ → kappa,
⊗ → x, ≥ → >=) by an error handler of that codec; text the stream can carry
is written unchanged. JSON escapes such characters (``\u03ba``) instead, so
that it still reads back to the same values.
"""

from __future__ import annotations

import codecs
import json
import sys
from typing import NoReturn

import click

from concord._common.text import neutral_bidi

# concord's symbols spelled in ASCII. Another character the stream lacks (a
# category's name, say) is written as its escape (\xe9), which no two share.
ASCII = {
    "κ": "kappa",
    "α": "alpha",
    "π": "pi",
    "δ": "delta",
    "λ": "lambda",
    "ε": "epsilon",
    "ψ": "psi",
    "Ψ": "Psi",
    "Φ": "Phi",
    "Σ": "sum ",
    "√": "sqrt",
    "⊗": "x",
    "×": "x",
    "·": "*",
    "−": "-",
    "–": "-",
    "—": "-",
    "…": "...",
    "≤": "<=",
    "≥": ">=",
    "≠": "!=",
    "≈": "~",
    "∝": "~",
    "±": "+/-",
    "∓": "-/+",
    "ρ": "rho",
    "→": "->",
    "²": "^2",
    "⁸": "^8",
    "ᵀ": "^T",
    "₂": "2",
    "\u0304": "bar",  # the combining macron of x̄
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "\u00a0": " ",
}
# codecs that encode every character: the text is written as it is
_UNICODE = frozenset({"utf-8", "utf-16", "utf-32", "utf-8-sig", "gb18030"})


def _spell(error: UnicodeError) -> tuple[str, int]:
    """Spell the characters the codec lacks in ASCII (or as escapes)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    lacking = error.object[error.start : error.end]
    spelled = (ASCII.get(c) or c.encode("ascii", "backslashreplace").decode() for c in lacking)
    return "".join(spelled), error.end


def _escape(error: UnicodeError) -> tuple[str, int]:
    """Write the characters the codec lacks as JSON escapes (they only occur in strings)."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return json.dumps(error.object[error.start : error.end])[1:-1], error.end


codecs.register_error("concord.ascii", _spell)
codecs.register_error("concord.json-escape", _escape)


def fitted(text: str, encoding: str | None, *, as_json: bool = False) -> str:
    r"""Return ``text`` as a stream in ``encoding`` can carry it.

    Examples
    --------
    >>> fitted("κ = 1 − ΣW·O / ΣW·E", "latin-1")
    'kappa = 1 - sum W·O / sum W·E'
    >>> fitted("κ = 0.5", "ascii")
    'kappa = 0.5'
    >>> fitted('{"label": "κ"}', "ascii", as_json=True)
    '{"label": "\\u03ba"}'
    >>> fitted("κ = 0.5", "utf-8")
    'κ = 0.5'

    A bidirectional control (a label holding U+202E, the right-to-left
    override) is written as its escape, so nothing displays reversed:

    >>> fitted("a\u202eb", "utf-8")
    'a\\u202eb'
    """
    text = neutral_bidi(text)  # in JSON strings the escape is the same character
    try:
        codec = codecs.lookup(encoding or "utf-8").name
    except LookupError:  # a codec Python does not know: the stream itself will fail first
        return text
    if codec in _UNICODE:
        return text
    handler = "concord.json-escape" if as_json else "concord.ascii"
    return text.encode(codec, handler).decode(codec)


def encoding(err: bool = False) -> str | None:
    """Return the encoding of standard output (or of standard error)."""
    return getattr(sys.stderr if err else sys.stdout, "encoding", None)


def echo(text: str, *, err: bool = False, as_json: bool = False, nl: bool = True) -> None:
    """:func:`click.echo` ``text`` in the symbols the stream can carry."""
    click.echo(fitted(text, encoding(err), as_json=as_json), err=err, nl=nl)


def interrupted() -> NoReturn:
    """Ctrl-C while the command line loads: one line and a shell's 130, not a traceback."""
    sys.stderr.write("concord: interrupted while starting (Ctrl-C).\n")
    raise SystemExit(130) from None
