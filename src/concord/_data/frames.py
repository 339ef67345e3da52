"""Frames and Series of polars, pyarrow and other libraries, read through narwhals.

pandas objects and numpy arrays keep their own paths (:mod:`concord._data.columns`);
every other dataframe library narwhals knows (polars eager and lazy, pyarrow
Tables and ChunkedArrays, Modin, cuDF, DuckDB relations, ...) is read here,
once, with no code per library: a lazy frame is collected, and a column
becomes its values, its missing values (null, and NaN for floats), its
integers exact (no detour through float64) and, for a ``pl.Enum`` or an
ordered pyarrow dictionary, its categories in their declared order, as an
ordered pandas Categorical gives them. Column names are kept.

narwhals is imported only when such an object arrives (``pip install
'concord-agreement[frames]'``), so ``import concord`` still needs numpy only.
"""

from __future__ import annotations

import functools
import importlib.util
from typing import Any

import numpy as np

# libraries whose frames and series narwhals reads; pandas and dask have paths of their own
_LIBRARIES = frozenset(
    {"polars", "pyarrow", "narwhals", "modin", "cudf", "duckdb", "ibis", "sqlframe", "pyspark"}
)

Parts = tuple[np.ndarray, "np.ndarray | None", "tuple[Any, ...] | None", bool]


def is_foreign(x: Any) -> bool:
    """Whether ``x`` comes from a library read through narwhals (not pandas, not numpy).

    Without narwhals, pyarrow objects keep the path they had before it
    (converted to pandas where a table is read), so the command line's
    install, which has pyarrow, needs no more.
    """
    top = type(x).__module__.partition(".")[0]
    return top in _LIBRARIES and (top != "pyarrow" or _have_narwhals())


@functools.cache
def _have_narwhals() -> bool:
    return importlib.util.find_spec("narwhals") is not None


def _narwhals(func: str) -> Any:
    try:
        import narwhals.stable.v2 as nw
    except ImportError:
        raise ImportError(
            f"{func}: frames of polars, pyarrow and other libraries are read with narwhals: "
            "pip install 'concord-agreement[frames]'"
        ) from None
    return nw


def as_series(x: Any, func: str) -> Any | None:
    """Return ``x`` as a narwhals Series, or None when it is not a series."""
    nw = _narwhals(func)
    if (
        type(x).__module__.startswith("pyarrow")
        and hasattr(x, "type")
        and not hasattr(x, "chunks")
    ):
        import pyarrow as pa

        x = pa.chunked_array([x])  # a plain pyarrow Array: narwhals reads ChunkedArrays
    s = nw.from_native(x, series_only=True, pass_through=True)
    return s if isinstance(s, nw.Series) else None


def as_frame(x: Any, func: str) -> Any | None:
    """Return ``x`` as an eager narwhals DataFrame (a lazy one collected), or None."""
    nw = _narwhals(func)
    if type(x).__module__.startswith("pyarrow") and type(x).__name__ == "RecordBatch":
        import pyarrow as pa

        x = pa.Table.from_batches([x])  # narwhals reads Tables
    frame = nw.from_native(x, pass_through=True)
    if isinstance(frame, nw.LazyFrame):
        frame = frame.collect()
    return frame if isinstance(frame, nw.DataFrame) else None


def to_pandas(x: Any, func: str) -> Any:
    """Return a frame narwhals reads as a pandas DataFrame (for code that groups with pandas)."""
    frame = as_frame(x, func)
    return x if frame is None else frame.to_pandas()


def series_parts(s: Any) -> Parts:
    """Return one narwhals Series as values, missing mask, categories and whether ordered.

    With categories, ``values`` are codes into them (−1 where missing).
    Integers and booleans come as themselves with a mask, never as floats;
    anything else comes as numpy gives it (strings as objects, None where null).
    """
    import narwhals.stable.v2 as nw

    dtype = s.dtype
    null = np.asarray(s.is_null().to_numpy(), dtype=bool)
    missing = null if null.any() else None
    if isinstance(dtype, nw.Enum):
        categories = tuple(dtype.categories)
        codes = s.replace_strict(categories, range(len(categories)), return_dtype=nw.Int64)
        return _intp(codes.fill_null(-1).to_numpy()), missing, categories, True
    if dtype == nw.Categorical:
        arrow = _arrow_dictionary(s.to_native())
        if arrow is not None:
            return arrow
        return np.asarray(s.cast(nw.String).to_numpy(), dtype=object), missing, None, False
    if dtype.is_integer() or dtype == nw.Boolean:
        fill = False if dtype == nw.Boolean else 0
        return np.asarray(s.fill_null(fill).to_numpy()), missing, None, False
    values = np.asarray(s.to_numpy())
    if values.dtype.kind == "f":
        nan = np.isnan(values)  # null and NaN alike
        missing = nan if nan.any() else None
    return values, missing, None, False


def _intp(x: Any) -> np.ndarray:
    return np.asarray(x, dtype=np.intp)


def _arrow_dictionary(native: Any) -> Parts | None:
    """Return a pyarrow dictionary column's indices, dictionary and ``ordered`` flag.

    narwhals calls every dictionary column Categorical and drops the flag
    (and its cast to strings would turn a dictionary of numbers into text).
    """
    if not type(native).__module__.startswith("pyarrow") or not hasattr(native, "chunks"):
        return None
    ordered = bool(native.type.ordered)
    if native.num_chunks == 0:
        return np.empty(0, dtype=np.intp), None, (), ordered
    arr = native.unify_dictionaries().combine_chunks()
    indices = _intp(arr.indices.fill_null(-1).to_numpy(zero_copy_only=False))
    missing = indices < 0
    return indices, missing if missing.any() else None, tuple(arr.dictionary.to_pylist()), ordered


def frame_columns(frame: Any) -> tuple[tuple[Any, ...], list[Any]]:
    """Return the column names of a narwhals DataFrame and its columns (narwhals Series)."""
    names = tuple(frame.columns)
    return names, [frame.get_column(name) for name in names]
