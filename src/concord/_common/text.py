"""Plain-text rendering of labelled matrices and numbers for ``explain()``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # an annotation only: the CLI's --help imports this module, not numpy
    import numpy as np

# Unicode's bidirectional controls (ALM, LRM, RLM, the embeddings and overrides U+202A–U+202E,
# the isolates U+2066–U+2069): invisible, they reorder the text around them, so a label
# holding U+202E (right-to-left override) would display reversed, and so would what follows.
_BIDI = {c: f"\\u{c:04x}" for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F))}
_BIDI.update({c: f"\\u{c:04x}" for c in range(0x2066, 0x206A)})


def neutral_bidi(text: str) -> str:
    r"""Return ``text`` with each bidirectional control written as its escape (``\u202e``).

    The label stays recognisable and nothing around it is reordered. In a
    JSON string the escape is the same character, so JSON keeps its values.

    Examples
    --------
    >>> neutral_bidi("good\u202eevil")
    'good\\u202eevil'
    >>> neutral_bidi("κ = 0.5")
    'κ = 0.5'
    """
    return text.translate(_BIDI)


def number(x: float, digits: int = 6) -> str:
    """Format a number compactly: integers as integers, others to ``digits`` significant digits."""
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.{digits}g}"


def label_text(label: Any) -> str:
    """Return a label as text; a label set as its labels in braces, sorted as text.

    Examples
    --------
    >>> label_text(frozenset({"pol", "econ"})), label_text("pol"), label_text(3)
    ('{econ, pol}', 'pol', '3')
    """
    if isinstance(label, set | frozenset):
        return "{" + ", ".join(sorted(map(str, label))) + "}"
    return str(label)


def matrix(values: np.ndarray, labels: Sequence[Any], *, digits: int = 4) -> str:
    """Return a labelled text table of a k×k matrix (rows: first rater, columns: second)."""
    names = [label_text(v) for v in labels]
    cells = [[number(v, digits) for v in row] for row in values.tolist()]
    head = max((len(s) for s in names), default=0)
    width = max([len(s) for s in names] + [len(c) for row in cells for c in row])
    lines = [" " * head + "  " + " ".join(s.rjust(width) for s in names)]
    for name, row in zip(names, cells, strict=True):
        lines.append(name.ljust(head) + "  " + " ".join(c.rjust(width) for c in row))
    return "\n".join("    " + line for line in lines)
