"""The inputs of :func:`concord.evaluate`: validated float columns, human2 as a matrix, groups.

Missing scores: RSMTool (``FeaturePreprocessor.filter_on_column``) drops a
response whose first human score or machine score is not numeric, and
reports it among the excluded responses. concord raises instead, so that no
response leaves the evaluation unannounced; the second human scores may be
missing (NaN), which is how partially double-scored data are given.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from concord._common.errors import ForCli, param_error
from concord._data.columns import column, paired
from concord._results.studies.evaluation_parts import ALL_DATA

FUNC = "evaluate"


def scores(
    x: Any, name: str, n: int | None = None, missing: bool = False, like: Any = None
) -> np.ndarray:
    """Return one score column as float64: 1-D, numeric, n long, no NaN unless ``missing``.

    A pandas Series beside a Series ``like`` (the human scores) pairs by index label.
    """
    x = paired(like, x, FUNC, ("human", name))[1]
    col = column(x, FUNC, name)
    if len(col.values) == 0:  # before the dtype: an empty list reads as dtype object
        param_error(FUNC, name, "non-empty", "an empty array", raw=True)
    if not col.numeric or col.values.dtype.kind == "b":
        param_error(FUNC, name, "numeric scores", col.values.dtype, exc=TypeError)
    values = np.asarray(col.values, dtype=np.float64)
    if n is not None and len(values) != n:
        param_error(
            FUNC,
            name,
            f"as long as 'human' ({n} scores)",
            f"{len(values)} scores",
            fix="Every score column must score the same responses, in the same order.",
            raw=True,
        )
    if not missing and col.missing is not None:
        where = np.flatnonzero(col.missing)
        param_error(
            FUNC,
            name,
            "scores without NaN",
            f"{len(where)} NaN (first at position {where[0]})",
            fix=(
                "RSMTool drops such responses; drop them yourself first, e.g. "
                "keep = ~(np.isnan(human) | np.isnan(machine))."
            ),
            raw=True,
            cli=ForCli(
                expected="scores in every row",
                got=f"{len(where)} missing (first in data row {where[0] + 1})",
                fix="RSMTool drops such responses; remove those rows from FILE first.",
            ),
        )
    if np.isinf(values).any():
        param_error(FUNC, name, "finite scores", "an infinite score", raw=True)
    return values


def second_humans(human2: Any, n: int, like: Any = None) -> np.ndarray:
    """Return ``human2`` as an (n, k) float matrix (a column, 2-D array, DataFrame, columns)."""
    if type(human2).__module__.startswith("pandas") and hasattr(human2, "columns"):
        cols = [human2[c] for c in human2.columns]
    elif isinstance(human2, np.ndarray) and human2.ndim == 2:
        cols = list(human2.T)
    elif isinstance(human2, list | tuple) and human2 and not np.isscalar(human2[0]):
        cols = list(human2)
    else:
        cols = [human2]
    matrix = np.column_stack(
        [
            scores(c, "human2", n, missing=True, like=like) for c in cols
        ]  # NaN: not scored by that rater
    )
    return matrix


def trim_range(trim: Any, human: np.ndarray, tolerance: Any) -> tuple[float, float]:
    """Return ``trim`` as (low, high); None takes the human scores' range."""
    number = int | float | np.integer | np.floating  # numpy scalars too, not bools
    real = isinstance(tolerance, number) and not isinstance(tolerance, bool)
    if not (real and math.isfinite(tolerance) and tolerance >= 0):
        param_error(FUNC, "trim_tolerance", "a finite number >= 0", tolerance)
    if trim is None:
        return float(human.min()), float(human.max())
    try:
        low, high = (float(v) for v in trim)
    except (TypeError, ValueError):
        param_error(FUNC, "trim", "a pair (min, max) of numbers, such as (1, 6)", trim)
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        param_error(FUNC, "trim", "a pair (min, max) of finite numbers with min < max", trim)
    return low, high


def _is_missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and v != v) or str(v) in ("<NA>", "NaT")


Coded = tuple[list[str], np.ndarray]  # the labels' texts, sorted, and each response's


def _check_labels(name: str, values: np.ndarray) -> set[str]:
    """Refuse missing group labels and labels that read alike (1 and "1"): groups go by text.

    Returns the labels' texts. Both checks look at the distinct labels only
    (one hash pass over the n labels); float zeros, whose signs read apart but
    hash alike, and unhashable labels look at all.
    """
    distinct, _ = _factorized(values)
    if distinct is None or any(isinstance(v, float) and v == 0 for v in distinct.tolist()):
        distinct = values

    def missing() -> np.ndarray:
        return np.fromiter((_is_missing(v) for v in values), dtype=bool, count=len(values))

    return _check_distinct(name, distinct, missing)


def _check_distinct(name: str, distinct: np.ndarray, missing: Any) -> set[str]:
    """:func:`_check_labels` of a column's ``distinct`` labels; ``missing()``: the mask."""
    if any(_is_missing(v) for v in distinct.tolist()):
        where = missing()
        first = int(np.flatnonzero(where)[0])
        param_error(
            FUNC,
            "groups",
            "a group label for every response",
            f"{int(where.sum())} missing in {name!r} (first at position {first})",
            raw=True,
            fix="Give those responses a label of their own (e.g. 'unknown') or leave them out.",
        )
    alike, texts = set(distinct.tolist()), set(distinct.astype(str).tolist())
    if len(texts) != len(alike):  # 1 and "1", or 1 and 1.0
        param_error(
            FUNC,
            "groups",
            "labels that read differently",
            f"labels in {name!r} such as 1 and '1' (or 1 and 1.0) that are one group or two",
            raw=True,
            fix="Use one type for the labels (all text or all numbers).",
        )
    return texts


def group_columns(groups: Any, n: int, like: Any = None) -> dict[str, Coded]:
    """Return ``groups`` (an array-like, a mapping, a DataFrame) as named, coded label columns.

    Each column is validated, then coded as :func:`label_codes` codes it.
    """
    if groups is None:
        return {}
    if type(groups).__module__.startswith("pandas") and hasattr(groups, "columns"):
        named = {str(c): groups[c] for c in groups.columns}
    elif isinstance(groups, Mapping):
        named = {str(k): v for k, v in groups.items()}
    else:
        named = {str(getattr(groups, "name", None) or "group"): groups}
    out = {}
    for name, labels in named.items():
        out[name] = _coded_column(name, paired(like, labels, FUNC, ("human", "groups"))[1], n)
    return out


def _coded_column(name: str, labels: Any, n: int) -> Coded:
    """Validate one group column and return its :func:`label_codes`.

    A pandas Series of text or integers is factorized as it is (no Python
    object per label); anything else becomes an object array first.
    """
    fast = _pandas_codes(labels)
    if fast is not None:
        first_seen, distinct = fast
        if len(first_seen) != n:
            _wrong_length(name, n, (len(first_seen),))
        with_none = np.append(
            distinct, np.array([None], dtype=object)
        )  # code −1 (the last): missing

        def missing() -> np.ndarray:
            bad = np.array([_is_missing(v) for v in with_none.tolist()])
            return np.asarray(bad[first_seen])

        shown = with_none if (first_seen < 0).any() else distinct
        if ALL_DATA in _check_distinct(name, shown, missing):
            _all_data_label(name)
        names, to_name = np.unique(distinct.astype(str), return_inverse=True)
        return list(names.tolist()), to_name[first_seen]
    values = np.asarray(labels, dtype=object)
    if values.ndim != 1 or len(values) != n:
        _wrong_length(name, n, values.shape)
    if ALL_DATA in _check_labels(name, values):  # its row would replace the whole data's
        _all_data_label(name)
    return label_codes(values)


def _pandas_codes(labels: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """Return pandas' codes (−1: missing) and the distinct labels of text or integer Series."""
    if not (type(labels).__module__.startswith("pandas") and hasattr(labels, "dtype")):
        return None
    import pandas as pd

    dtype = labels.dtype
    if not (isinstance(dtype, pd.StringDtype) or getattr(dtype, "kind", "") in ("i", "u")):
        return None
    codes, distinct = pd.factorize(labels)
    return np.asarray(codes, dtype=np.intp), np.asarray(distinct, dtype=object)


def _wrong_length(name: str, n: int, shape: tuple[int, ...]) -> None:
    got = f"{name!r} of shape {shape}"
    param_error(FUNC, "groups", f"one label per response ({n})", got, raw=True)


def _all_data_label(name: str) -> None:
    fix = f"Rename that group; {ALL_DATA!r} names the row of all responses."
    param_error(FUNC, "groups", f"labels other than {ALL_DATA!r}", name, fix=fix)


def kept(coded: Coded, keep: np.ndarray) -> Coded:
    """Return a column's codes of the kept responses: :func:`label_codes` of their labels."""
    names, codes = coded
    if keep.all():
        return coded
    codes = codes[keep]
    present = np.bincount(codes, minlength=len(names)) > 0
    if present.all():
        return names, codes
    position = np.cumsum(present) - 1
    return [t for t, here in zip(names, present.tolist(), strict=True) if here], position[codes]


def label_codes(labels: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Return ``np.unique(labels.astype(str), return_inverse=True)`` without sorting n strings.

    The distinct values are found first (a numeric sort, or a dict for
    objects and text) and only they become text, so that a million labels
    take milliseconds; the names and codes are the same as the slow way's.
    Signed zeros stay on the slow way: 0.0 and -0.0 are one number but two texts.
    """
    kind = labels.dtype.kind
    distinct: Any = None
    if kind in "biuf" and not (kind == "f" and np.signbit(labels[labels == 0]).any()):
        distinct, codes = _unique_numbers(labels)
    elif kind in "OU":
        distinct, codes = _factorized(labels)
    if distinct is None:
        names, codes = np.unique(labels.astype(str), return_inverse=True)
        return list(names.tolist()), codes
    texts = distinct.astype(str)
    names, to_name = np.unique(texts, return_inverse=True)  # two values may share a text
    return list(names.tolist()), to_name[codes]


def _unique_numbers(labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(labels, return_inverse=True)``; whole numbers of a short range by counting.

    Score points (1-6 as floats, say) need no sort: their distinct values are
    the non-empty counts of ``labels − min``, in order.
    """
    kind = labels.dtype.kind
    if labels.size and kind in "iuf":
        low, high = labels.min(), labels.max()
        whole = kind != "f" or (np.isfinite([low, high]).all() and _whole(labels))
        span = (int(high) - int(low)) if whole else 1 << 16
        if span < min(1 << 16, labels.size):
            wide = labels if kind == "f" or labels.dtype.itemsize == 8 else labels.astype(np.int64)
            steps = (wide - wide.dtype.type(low)).astype(np.intp)  # exact: a short range
            present = np.flatnonzero(np.bincount(steps, minlength=span + 1))
            rank = np.zeros(span + 1, dtype=np.intp)
            rank[present] = np.arange(present.size)
            distinct = (present.astype(wide.dtype) + wide.dtype.type(low)).astype(labels.dtype)
            return distinct, rank[steps]
    distinct, codes = np.unique(labels, return_inverse=True)
    return distinct, codes


def _whole(x: np.ndarray) -> bool:
    """Whether every value of a float array (finite) is a whole number."""
    return bool((np.floor(x) == x).all())


def _one_kind(labels: np.ndarray) -> Any:
    """Return pandas if an object array holds only text or only integers (no bools), else None."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is how such columns come
        return None
    kind = pd.api.types.infer_dtype(labels, skipna=False)
    return pd if kind in ("string", "integer") else None


def _factorized(labels: np.ndarray) -> tuple[Any, np.ndarray]:
    """Return the distinct values (first seen first) and each label's index; None: unhashable."""
    pd = _one_kind(labels) if labels.size else None
    if pd is not None:  # text alone, or integers alone: pandas' hash table is the fast way
        codes, distinct = pd.factorize(labels)
        return np.asarray(distinct, dtype=object), np.asarray(codes, dtype=np.intp)
    values = labels.tolist()
    # keyed by type too: 1, 1.0 and True are one dict key but three texts
    index: dict[Any, int] = {}
    try:
        codes = np.fromiter(
            (index.setdefault((type(v), v), len(index)) for v in values),
            np.intp,
            len(labels),
        )
    except TypeError:  # a list among the labels, say
        return None, np.empty(0, np.intp)
    distinct = np.empty(len(index), dtype=object)
    distinct[:] = [v for _, v in index]
    return distinct, codes
