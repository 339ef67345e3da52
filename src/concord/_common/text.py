"""Plain-text rendering of labelled matrices and numbers for ``explain()``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def number(x: float, digits: int = 6) -> str:
    """Format a number compactly: integers as integers, others to ``digits`` significant digits."""
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.{digits}g}"


def matrix(values: np.ndarray, labels: Sequence[Any], *, digits: int = 4) -> str:
    """Return a labelled text table of a k×k matrix (rows: first rater, columns: second)."""
    names = [str(v) for v in labels]
    cells = [[number(v, digits) for v in row] for row in values.tolist()]
    head = max((len(s) for s in names), default=0)
    width = max([len(s) for s in names] + [len(c) for row in cells for c in row])
    lines = [" " * head + "  " + " ".join(s.rjust(width) for s in names)]
    for name, row in zip(names, cells, strict=True):
        lines.append(name.ljust(head) + "  " + " ".join(c.rjust(width) for c in row))
    return "\n".join("    " + line for line in lines)
