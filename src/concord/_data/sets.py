"""Label sets: a rating that is a set of labels (multi-label annotation) is one category.

A cell holding a ``set``, ``frozenset``, ``list`` or ``tuple`` is a *label
set*: the labels an annotator chose for the item, whatever their order.
concord reads it as a ``frozenset``, so that ``{"a", "b"}``, ``["b", "a"]``
and ``("a", "b")`` are one and the same category, and a list is never
compared element by element in its order. Repeated labels in a list count
once (a set has no multiplicity).

* The empty set is a missing rating: the annotator chose nothing
  (``empty="missing"``, the default); with ``empty="category"`` it is a
  category of its own, "no label applies" (doccano's ``label: []`` read as a
  deliberate answer). The functions that accept label sets take ``empty=``
  and read their ratings inside :func:`empty_sets`, which sets the policy
  for this reading (a context variable, so threads and tasks do not share it).
* A rating of label sets holds sets only: a single label beside sets (``"a"``
  and ``{"a", "b"}``) is an error rather than a guess that ``"a"`` means
  ``{"a"}``.
* Label sets are nominal categories: distances between sets (MASI, Jaccard)
  are not weights here; the order of the categories is for the layout only
  (by size, then by their sorted labels).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal, get_args

import numpy as np

from concord._common.errors import check_option, describe, param_error
from concord._data.convert import is_missing

Empty = Literal["missing", "category"]
#: What an empty label set is: a missing rating, or a category of its own.
EMPTY: tuple[str, ...] = get_args(Empty)
_EMPTY_IS_CATEGORY: ContextVar[bool] = ContextVar("empty_is_category", default=False)

SET_TYPES = (set, frozenset, list, tuple)
_FIX = (
    "A rating is one label, or one set of labels (set, frozenset, list or tuple, read as "
    "a set); wrap single labels as sets, e.g. {'a'}, to rate with label sets."
)


@contextmanager
def empty_sets(empty: Any, func: str) -> Iterator[None]:
    """Read label sets inside this block with ``empty`` ("missing" or "category")."""
    policy = check_option(func, "empty", empty, EMPTY)
    token = _EMPTY_IS_CATEGORY.set(policy == "category")
    try:
        yield
    finally:
        _EMPTY_IS_CATEGORY.reset(token)


def empty_is_category() -> bool:
    """Whether the empty label set is a category in the reading under way."""
    return _EMPTY_IS_CATEGORY.get()


def is_label_set(value: Any) -> bool:
    """Whether ``value`` is read as a label set (a set, frozenset, list or tuple)."""
    return isinstance(value, SET_TYPES)


def has_label_sets(kinds: Iterable[type]) -> bool:
    """Whether any of these element types is read as a label set."""
    return any(issubclass(t, SET_TYPES) for t in kinds)


def read_sets(
    raw: np.ndarray, mask: np.ndarray, func: str, name: str
) -> tuple[np.ndarray, np.ndarray]:
    """Return an object array's label sets as frozensets and the missing mask with empty sets.

    ``mask`` marks the missing values (None, NaN, pd.NA) already found; a
    single label among the sets, or a set holding an unhashable label, is an
    error naming ``name`` and the position.
    """
    out = np.empty(raw.shape[0], dtype=object)
    missing = mask.copy()
    for i, value in enumerate(raw.tolist()):
        if missing[i]:
            continue
        if not is_label_set(value):
            param_error(
                func,
                name,
                "label sets throughout, or single labels throughout",
                f"the single label {describe(value)} at position {i} beside label sets",
                raw=True,
                fix=_FIX,
            )
        out[i] = as_set(value, func, name, i)
    if not empty_is_category():
        missing |= np.array([v is not None and not v for v in out.tolist()], dtype=bool)
    out[missing] = None
    return out, missing


def as_set(value: Any, func: str, name: str, position: int | None = None) -> frozenset[Any]:
    """Return one label set as a frozenset; an unhashable or a missing label is an error."""
    where = "" if position is None else f" at position {position}"
    try:
        labels = frozenset(value)
    except TypeError:
        param_error(
            func,
            name,
            "label sets of single labels (strings, numbers)",
            f"{describe(value)}{where}, whose labels are not hashable",
            raw=True,
            exc=TypeError,
            fix="A label set holds labels, not lists: flatten it, e.g. {'a', 'b'}.",
        )
    if any(is_missing(label) for label in labels):
        param_error(
            func,
            name,
            "label sets whose labels are strings or numbers, none of them missing",
            f"{describe(value)}{where}, which holds a missing label (None or NaN)",
            raw=True,
            fix="Drop the missing label from the set; a rater who chose no label gives the "
            "empty set, and a missing rating is None in place of the set.",
        )
    return labels


def declared_sets(values: tuple[Any, ...], func: str) -> tuple[Any, ...]:
    """Return declared ``labels`` with each label set as a frozenset (mixing them is an error)."""
    sets = [is_label_set(v) for v in values]
    if not any(sets):
        return values
    if not all(sets):
        param_error(
            func,
            "labels",
            "label sets throughout, or single labels throughout",
            f"{describe(list(values))}, mixing them",
            raw=True,
            fix=_FIX,
        )
    out = tuple(as_set(v, func, "labels", i) for i, v in enumerate(values))
    if frozenset() in out and not empty_is_category():
        param_error(
            func,
            "labels",
            "free of missing values",
            "the empty set, which is a missing rating",
            raw=True,
            fix="Remove it from labels (an item rated with no label has no category), or pass "
            "empty='category' to make 'no label' a category of its own.",
        )
    return out


def set_key(value: frozenset[Any]) -> tuple[int, list[tuple[int, Any, str]]]:
    """Return the layout order of label sets: by size, then by their labels sorted."""
    return len(value), sorted(_element_key(v) for v in value)


def _element_key(v: Any) -> tuple[int, Any, str]:
    if isinstance(v, numbers.Real) and v == v:
        return 0, v, ""
    if isinstance(v, str):
        return 1, 0, v
    return 2, 0, f"{type(v).__name__}:{v!r}"


def sorted_sets(values: Iterable[Any], func: str = "") -> tuple[Any, ...]:
    """Return distinct values that hold label sets in layout order; a single label is an error."""
    listed = list(values)
    if not all(isinstance(v, frozenset) for v in listed):
        single = next(v for v in listed if not isinstance(v, frozenset))
        param_error(
            func,
            "ratings",
            "label sets throughout, or single labels throughout",
            f"the single label {describe(single)} beside label sets",
            raw=True,
            fix=_FIX,
        )
    return tuple(sorted(listed, key=set_key))
