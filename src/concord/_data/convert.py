"""Ratings to numpy arrays with no Python loop over the elements.

Every function here gives what the element-by-element rules of
:mod:`concord._data.columns` give, only faster: C loops (``array.array``,
``map``, numpy's) look at each element once, and anything they cannot
settle exactly returns None, so the caller takes the general path.

* A list of ints is read as int64 by ``array.array``, which stops at the
  first element that is not an integer (a float, a string, None), so a
  list of strings is never given a fixed-width str dtype of its longest
  string.
* Object arrays: the set of the element types decides the dtype; missing
  values are found by type (None, pd.NA, pd.NaT) and by ``np.isnan`` on
  the floats only.
* Strings are factorised once: codes into their sorted distinct values.
* Arrow-backed string columns are encoded by Arrow itself.
"""

from __future__ import annotations

import array
import sys
from typing import Any

import numpy as np

MAX_STR_WIDTH = 32  # longer strings stay Python objects: no fixed width of the longest
_MISSING_TYPES = frozenset({"NoneType", "NAType", "NaTType"})


def int_list(x: list[Any] | tuple[Any, ...]) -> np.ndarray | None:
    """Return a list of integers as int64 (all bools: bool); None for any other list."""
    if not x:
        return None
    try:
        ints = array.array("q", x)  # stops at the first float, string or None
    except (TypeError, OverflowError, ValueError):
        return None
    if type(x[0]) is bool:  # maybe all bools; no string is there, so asarray is safe
        out = np.asarray(x)
        return out if out.ndim == 1 and out.dtype in (np.bool_, np.int64) else None
    return np.frombuffer(ints, dtype=np.int64)


def object_missing(raw: np.ndarray) -> tuple[np.ndarray, set[type]]:
    """Return the missing mask (None, pd.NA, pd.NaT, NaN) and the types of the other values."""
    types = set(map(type, raw))
    maybe = [t for t in types if t.__name__ in _MISSING_TYPES or _is_float_type(t)]
    if not maybe:
        return np.zeros(raw.shape[0], dtype=bool), types
    # each element's type as a number: numpy cannot compare type objects (pd.NA's type
    # defines __array_ufunc__, so numpy would defer to it)
    listed = list(types)
    number = {t: i for i, t in enumerate(listed)}
    kinds = np.fromiter(map(number.__getitem__, map(type, raw)), np.intp, raw.shape[0])
    mask = np.zeros(raw.shape[0], dtype=bool)
    for t in maybe:
        of_type = kinds == number[t]
        if _is_float_type(t):
            mask[of_type] = np.isnan(raw[of_type].astype(np.float64))
        else:
            mask |= of_type
    if not mask.any():
        return mask, types
    return mask, {listed[i] for i in np.unique(kinds[~mask]).tolist()}


def _is_float_type(t: type) -> bool:
    return issubclass(t, float | np.floating)


def factorized(raw: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, tuple[Any, ...]] | None:
    r"""Return codes into the sorted distinct strings of ``raw``, and those strings.

    ``raw`` holds strings where ``mask`` is false; codes are -1 where it is
    true. The strings are the labels the general path finds: plain Python
    strings, as a fixed-width str array gives them when they are short.
    None when that narrowing would merge two of them ("a" and "a\\0").
    """
    present = raw[~mask] if mask.any() else raw
    if "pandas" in sys.modules:  # its hash table is faster than a dict, and already loaded
        import pandas as pd

        inner, found = pd.factorize(present)
        uniques = found.tolist()
    else:
        index = {v: i for i, v in enumerate(dict.fromkeys(present.tolist()))}
        inner = np.fromiter(map(index.__getitem__, present), np.intp, present.shape[0])
        uniques = list(index)
    coded = sorted_codes(inner, uniques)
    if coded is None:
        return None
    inner, labels = coded
    if present is raw:
        return inner, labels
    codes = np.full(raw.shape[0], -1, dtype=np.intp)
    codes[~mask] = inner
    return codes, labels


def pandas_strings(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[Any, ...]] | None:
    """Factorise an object array of strings with pandas: codes, missing mask, labels.

    pandas' C type inference replaces the scan of element types; the values it
    skips as missing are checked one by one (only those). None when ``raw``
    is not strings with missing values of concord's kinds.
    """
    import pandas as pd

    if pd.api.types.infer_dtype(raw, skipna=True) != "string":
        return None
    inner, found = pd.factorize(raw)
    mask = inner < 0
    if mask.any() and not all(map(is_missing, raw[mask])):
        return None
    coded = sorted_codes(inner, found.tolist())
    return None if coded is None else (coded[0], mask, coded[1])


def is_missing(value: Any) -> bool:
    """Whether one value is a missing rating: None, pd.NA, pd.NaT or NaN."""
    if type(value).__name__ in _MISSING_TYPES:
        return True
    return _is_float_type(type(value)) and bool(np.isnan(value))


def sorted_codes(
    codes: np.ndarray, uniques: list[Any]
) -> tuple[np.ndarray, tuple[Any, ...]] | None:
    """Renumber codes into distinct strings so that the strings are sorted.

    Codes below zero (missing) stay as they are. Strings no longer than
    :data:`MAX_STR_WIDTH` become plain ``str`` as a ``<U`` array holds them.
    """
    if not uniques:
        return codes, ()
    if max(map(len, uniques)) <= MAX_STR_WIDTH:
        uniques = np.asarray(uniques, dtype=object).astype(str).tolist()
        if len(set(uniques)) < len(uniques):
            return None
    order = sorted(range(len(uniques)), key=uniques.__getitem__)
    rank = np.empty(len(uniques) + 1, dtype=np.intp)
    rank[order] = np.arange(len(uniques))
    rank[-1] = -1  # codes of -1 index the last entry
    return rank[codes], tuple(uniques[i] for i in order)


def arrow_strings(x: Any) -> tuple[np.ndarray, np.ndarray | None, tuple[Any, ...]] | None:
    """Encode an Arrow-backed pandas string column with Arrow: codes, missing mask, labels.

    None when ``x`` is not Arrow-backed strings (or its labels need the general path).
    """
    dtype = x.dtype
    if getattr(dtype, "storage", None) != "pyarrow" and type(dtype).__name__ != "ArrowDtype":
        return None
    import pyarrow as pa
    import pyarrow.compute as pc

    chunked = pa.chunked_array(x.array.__arrow_array__())
    if not (pa.types.is_string(chunked.type) or pa.types.is_large_string(chunked.type)):
        return None
    encoded = pc.dictionary_encode(chunked.combine_chunks())
    missing = np.asarray(encoded.indices.is_null().to_numpy(zero_copy_only=False))
    inner = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.intp)
    coded = sorted_codes(inner, encoded.dictionary.to_pylist())
    if coded is None:
        return None
    return coded[0], missing if missing.any() else None, coded[1]
