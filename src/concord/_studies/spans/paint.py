"""Paint each rater's spans on a grid of positions: one category per position and rater.

A position no span of the rater covers is :data:`NO_LABEL`, a category of
its own. Where spans of several labels of one rater cover a position (nested
or overlapping entities), the position's category is that combination of
labels, their names sorted and joined by ``+`` (``"LOC+ORG"``): a category
of its own, neither of the two, so that no label is dropped silently.

Painting is a difference array per rater: +code at a span's first position,
−code after its last, a cumulative sum; where spans of one rater overlap
(a coverage count above 1) the labels of each such position are gathered.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from concord._common.errors import param_error

NO_LABEL = "(no label)"
_MASK_LABELS = 62  # labels that fit in an int64 bit mask


def category_names(labels: list[Any], func: str) -> list[str]:
    """Return the labels as category names, refusing names that would merge two labels."""
    names = [str(v) for v in labels]
    if NO_LABEL in names:
        param_error(
            func,
            "label",
            f"labels other than {NO_LABEL!r}, the category of positions no span covers",
            NO_LABEL,
            fix="Rename that label.",
        )
    if len(set(names)) < len(names):
        seen: dict[str, Any] = {}
        for value, name in zip(labels, names, strict=True):
            if name in seen:
                param_error(
                    func,
                    "label",
                    "labels whose names differ",
                    f"{seen[name]!r} and {value!r}",
                    raw=True,
                    fix="Give them different names, or one label.",
                )
            seen[name] = value
    return names


def paint(
    size: int,
    first: np.ndarray,
    last: np.ndarray,
    label: np.ndarray,
    combos: dict[tuple[int, ...], int],
    n_labels: int,
) -> np.ndarray:
    """Return one rater's category code at each of ``size`` positions.

    Spans cover positions ``[first, last)`` with label codes ``label``. Code 0
    is no label, ``1 + l`` label ``l``; a combination of labels (sorted codes)
    gets a code from ``n_labels + 1`` on, kept in ``combos`` (shared by the
    raters, so that one combination is one category).
    """
    keep = last > first
    first, last, label = first[keep], last[keep], label[keep]
    cover = np.zeros(size + 1, dtype=np.int64)
    np.add.at(cover, first, 1)
    np.add.at(cover, last, -1)
    codes = np.zeros(size + 1, dtype=np.int64)
    np.add.at(codes, first, label + 1)
    np.add.at(codes, last, -(label + 1))
    painted: np.ndarray = np.cumsum(codes[:-1])
    multi = np.flatnonzero(np.cumsum(cover[:-1]) > 1)
    if multi.size:
        _combine(painted, multi, (first, last, label), combos, n_labels)
    return painted


def _combine(
    painted: np.ndarray,
    multi: np.ndarray,
    spans: tuple[np.ndarray, np.ndarray, np.ndarray],
    combos: dict[tuple[int, ...], int],
    n_labels: int,
) -> None:
    """Give each position covered more than once the code of its set of labels."""
    first, last, label = spans
    lo, hi = np.searchsorted(multi, first), np.searchsorted(multi, last)
    n = hi - lo
    span = np.repeat(np.arange(first.size), n)
    at = lo[span] + (np.arange(span.size) - np.repeat(np.cumsum(n) - n, n))
    order = np.lexsort((label[span], at))
    at, labels = at[order], label[span][order]
    heads = np.flatnonzero(np.r_[True, at[1:] != at[:-1]])
    if (
        n_labels <= _MASK_LABELS
    ):  # each position's set of labels as a bit mask, then one code per mask
        masks = np.bitwise_or.reduceat(np.left_shift(1, labels), heads)
        distinct, inverse = np.unique(masks, return_inverse=True)
        code = np.array([_code(_bits(int(m)), combos, n_labels) for m in distinct.tolist()])
        painted[multi[at[heads]]] = code[inverse.ravel()]
        return
    for group in np.split(np.arange(at.size), heads[1:]):  # more labels than bits in a mask
        found = tuple(sorted(set(labels[group].tolist())))
        painted[multi[at[group[0]]]] = _code(found, combos, n_labels)


def _bits(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


def _code(found: tuple[int, ...], combos: dict[tuple[int, ...], int], n_labels: int) -> int:
    """Return the code of a set of labels: the label's own for one, else the combination's."""
    if len(found) == 1:
        return found[0] + 1
    return combos.setdefault(found, n_labels + 1 + len(combos))
