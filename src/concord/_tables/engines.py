"""Count integer ratings: the dense pair table and the five sums of quadratic kappa.

Two engines give identical integers:

* numpy, in chunks of ``_CHUNK`` pairs (one chunk while the k² table is the
  larger), so the extra memory is O(chunk + k²); it is used for small inputs
  and whenever numba is not installed (quadratic kappa's five sums by
  :mod:`concord._tables.numpy_sums`);
* numba kernels (:mod:`concord._tables.kernels`), one per core on disjoint slices.

The crossover lives here, measured by ``benchmarks/bench_kappa.py`` and
``benchmarks/bench_cold.py``. Loading numba and the cached kernels costs a
fresh process about 0.5 s (1.4 s with an empty cache), the time numpy takes
to count some 10⁸ pairs, so the kernels are loaded only once this process
has counted ``_LOAD_MIN`` values with numpy (one call that large loads them
at once): a script that counts a million pairs never waits for a compiler.
Once loaded, they count every input on which they are at least as fast as
numpy, so the per-pair cost has no step at the switch: tables from
``_NUMBA_MIN`` pairs, the five sums (whose kernel has no table to merge)
from an eighth of it, rating matrices from 16 times it. Below those sizes a
kernel still counts the pairs once it has run in this process on arrays of
the same type (dtype, contiguity, writeability: numba's signature), since
calling it then costs well under a microsecond, less than numpy's
reductions; a signature it has never run would first be loaded or compiled.

Set ``CONCORD_NUM_THREADS`` to bound the number of threads (default: all cores).
"""

from __future__ import annotations

import os
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from concord._common.extras import missing
from concord._data.arrays import MAX_RANGE
from concord._tables.numpy_sums import DIRECT, direct_sums, numpy_minmax, table_sums, wrapped

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

Engine = Literal["auto", "numpy", "numba"]

_NUMBA_MIN = 1 << 13  # a loaded kernel's table is as fast as numpy's from here
_LOAD_MIN = 1 << 25  # values numpy counts before the kernels are loaded (see above)
_SUMS = 8  # the five sums' kernel is as fast as numpy from _NUMBA_MIN / 8 pairs
_MATRIX = 1 / 16  # the pattern kernel from 16 * _NUMBA_MIN values
_THREAD_MIN = 1 << 21  # below this a second thread costs more than it saves
_MATRIX_THREAD_MIN = 1 << 17  # the same for matrix_stats, which does more per value
_CHUNK = 1 << 16
_WORDS_MIN = 1 << 14  # byte ratings: the word kernel (fixed cost 7 µs) is faster from here
_INT64_SAFE = 1 << 62


@cache
def _kernels() -> ModuleType | None:
    try:
        from concord._tables import kernels as _kernels
    except ImportError:
        return None
    return _kernels


@cache
def _pool() -> ThreadPoolExecutor:
    from concurrent.futures import ThreadPoolExecutor  # with threading and logging: when used

    return ThreadPoolExecutor(max_workers=_n_threads(), thread_name_prefix="concord")


def _n_threads() -> int:
    env = os.environ.get("CONCORD_NUM_THREADS", "")
    return max(1, int(env)) if env.isdigit() else max(1, min(_cpu_count(), 8))


@cache
def _cpu_count() -> int:
    return os.cpu_count() or 1  # 10 µs a call on some Linux containers: read once


# numba signatures (see _signature) that a kernel has run on in this process
_warm: set[tuple[Any, ...]] = set()


def _signature(kind: str, a: np.ndarray, b: np.ndarray) -> tuple[Any, ...]:
    """Return what numba compiles a kernel for: dtype, layout, writeability of each array."""
    return (
        kind,
        a.dtype.char,
        b.dtype.char,
        a.flags.c_contiguous,
        b.flags.c_contiguous,
        a.flags.writeable,
        b.flags.writeable,
    )


_counted = 0  # values counted by numpy while the kernels were not loaded


def _engine(
    n: int, engine: Engine, weight: float = 1, signature: tuple[Any, ...] | None = None
) -> ModuleType | None:
    """Return the kernel module to use, or None for numpy.

    ``weight`` scales ``n`` to the table kernel's units (``_SUMS``, ``_MATRIX``);
    a ``signature`` the kernels have run on takes them at any size.
    """
    global _counted
    if engine == "numpy":
        return None
    if engine == "auto" and n * weight < _NUMBA_MIN:
        if signature is None or signature not in _warm:
            return None
        return _kernels()
    if engine == "auto" and _kernels.cache_info().currsize == 0:
        _counted += n
        if _counted < _LOAD_MIN:
            return None
    kernels = _kernels()
    if kernels is None and engine == "numba":
        raise missing("numba", "fast", "engine='numba'")
    return kernels


def _map_slices(fn: Any, a: np.ndarray, b: np.ndarray, *args: Any) -> list[Any]:
    """Run ``fn(a[s], b[s], *args)`` on one slice per thread and return the results."""
    n = a.shape[0]
    parts = 1 if n < 2 * _THREAD_MIN else min(_n_threads(), n // _THREAD_MIN)
    if parts == 1:
        return [fn(a, b, *args)]
    step = -(-n // parts)
    futures = [
        _pool().submit(fn, a[s : s + step], b[s : s + step], *args) for s in range(0, n, step)
    ]
    return [f.result() for f in futures]


def _as_kernel_input(x: np.ndarray) -> np.ndarray:
    return x.view(np.uint8) if x.dtype == np.bool_ else x


def _minmax(a: np.ndarray, b: np.ndarray, kernels: ModuleType | None) -> tuple[int, int]:
    if kernels is None:
        return numpy_minmax(a, b)
    parts = _map_slices(kernels.minmax, a, b)
    return min(int(p[0]) for p in parts), max(int(p[1]) for p in parts)


def pair_table(
    a: np.ndarray,
    b: np.ndarray,
    sample_weight: np.ndarray | None = None,
    *,
    engine: Engine = "auto",
) -> tuple[np.ndarray, int] | None:
    """Count the pairs of two non-empty integer arrays on the range of their values.

    Returns ``(table, lo)``: ``table[i, j]`` counts (or sums the weights of)
    the pairs with ``a == lo + i`` and ``b == lo + j``. The table spans at
    least ``[min, max]`` of the values; rows and columns that no value uses are
    zero. Returns None when that range exceeds ``MAX_RANGE`` values.
    """
    a, b = _as_kernel_input(a), _as_kernel_input(b)
    # no kernel has run (a process without numba, say): no signature to look up
    signature = _signature("table", a, b) if _warm else None
    kernels = None if sample_weight is not None else _engine(a.shape[0], engine, 1, signature)
    if kernels is not None:
        _warm.add(signature or _signature("table", a, b))
        window = _speculative_table(a, b, kernels)
        if window is not None:
            return window
        if engine == "auto" and a.shape[0] < _NUMBA_MIN:
            kernels = None  # a warm signature promises the window's kernels only
    lo, hi = _minmax(a, b, kernels)
    size = hi - lo + 1
    if size > MAX_RANGE:
        return None
    if kernels is None:
        return _numpy_table(a, b, sample_weight, lo, size), lo
    kernel = kernels.table_small if size <= 16 else kernels.table_direct
    parts = _map_slices(kernel, a, b, lo, size)
    return _added([p[0] if size <= 16 else p for p in parts]), lo


def _speculative_table(
    a: np.ndarray, b: np.ndarray, kernels: ModuleType
) -> tuple[np.ndarray, int] | None:
    """Count on a 16-value window guessed from a prefix, in one pass without a min/max pass.

    Ordinal scales are short, so the window almost always holds every value;
    if any value falls outside it, return None and let the caller find the range.
    Contiguous byte ratings whose prefix spans at most 8 values are first
    counted on an 8-value window eight pairs a word (``kernels.table_words``,
    half of ``table_bytes``'s time); a miss there costs one more pass.
    """
    lo, hi = kernels.minmax(a[:1024], b[:1024])  # a microsecond; numpy's four reductions: six
    lo, spread = int(lo), int(hi) - int(lo)
    if spread >= 16:
        return None
    if spread < 8 and a.shape[0] >= _WORDS_MIN and _word_lanes(a, b):
        window = _word_table(a, b, lo - (7 - spread) // 2, kernels)
        if window is not None:
            return window
    lo -= (15 - spread) // 2
    if a.dtype == b.dtype and a.dtype.itemsize == 1:
        # byte lanes wrap modulo 256: a window inside the dtype's range cannot alias
        info = np.iinfo(a.dtype)
        lo = min(max(lo, int(info.min)), int(info.max) - 15)
        window = np.uint8(lo & 255)
        parts = _map_slices(kernels.table_bytes, a.view(np.uint8), b.view(np.uint8), window)
    else:
        parts = _map_slices(kernels.table_small, a, b, lo, 16)
    if any(p[1] for p in parts):
        return None
    return _added([p[0] for p in parts]), lo


def _word_lanes(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``kernels.table_words`` can read both arrays as 64-bit words."""
    return (
        a.dtype == b.dtype
        and a.dtype.itemsize == 1
        and a.flags.c_contiguous
        and b.flags.c_contiguous
    )


def _word_table(
    a: np.ndarray, b: np.ndarray, lo: int, kernels: ModuleType
) -> tuple[np.ndarray, int] | None:
    """Count byte ratings on the 8-value window from ``lo`` (moved inside the dtype), or None."""
    info = np.iinfo(a.dtype)
    lo = min(max(lo, int(info.min)), int(info.max) - 7)
    flip = np.uint8(0x80 if info.min < 0 else 0)  # int8 → uint8 order, so no lane wraps
    start = np.uint8(lo - int(info.min))  # the window's start after the flip
    parts = _map_slices(kernels.table_words, a.view(np.uint8), b.view(np.uint8), start, flip)
    if any(p[1] for p in parts):
        return None
    return _added([p[0] for p in parts]), lo


def _added(tables: list[np.ndarray]) -> np.ndarray:
    """Return the sum of the threads' tables (one thread's table as it is)."""
    return tables[0] if len(tables) == 1 else np.sum(tables, axis=0)


def _numpy_table(
    a: np.ndarray, b: np.ndarray, weight: np.ndarray | None, lo: int, size: int
) -> np.ndarray:
    if weight is None:
        return _numpy_counts(a, b, lo, size)
    dtype = np.float64
    table = np.zeros(size * size, dtype=dtype)
    for s in range(0, a.shape[0], _CHUNK):
        x = a[s : s + _CHUNK].astype(np.int64) - lo
        y = b[s : s + _CHUNK].astype(np.int64) - lo
        w = None if weight is None else weight[s : s + _CHUNK]
        table += np.bincount(x * size + y, weights=w, minlength=size * size).astype(dtype)
    return table.reshape(size, size)


def _numpy_counts(a: np.ndarray, b: np.ndarray, lo: int, size: int) -> np.ndarray:
    """Count the pairs with numpy, a chunk at a time into one reused key buffer."""
    n = a.shape[0]
    if n <= max(_CHUNK, size * size):  # one chunk: the fewest calls, and a k² table only once
        key = np.multiply(a, size, dtype=np.int64)
        np.add(key, b, out=key, dtype=np.int64, casting="unsafe")
        key -= wrapped(lo * (size + 1))
        return np.bincount(key, minlength=size * size).reshape(size, size)
    key = np.empty(min(n, _CHUNK), dtype=np.int64)
    table: np.ndarray | None = None
    for s in range(0, n, _CHUNK):
        x, y = a[s : s + _CHUNK], b[s : s + _CHUNK]
        part = key[: x.shape[0]]
        # (x − lo)·size + (y − lo), each step in int64 whatever the dtype (uint64 < 2**63 too)
        np.subtract(x, lo, out=part, dtype=np.int64, casting="unsafe")
        part *= size
        np.add(part, y, out=part, dtype=np.int64, casting="unsafe")
        part -= lo
        counts = np.bincount(part, minlength=size * size)
        if table is None:
            table = counts
        else:
            table += counts
    assert table is not None
    return table.reshape(size, size)


def pair_moments(
    a: np.ndarray, b: np.ndarray, *, need_range: bool = True, engine: Engine = "auto"
) -> tuple[int | None, int | None, tuple[int, int, int, int, int]] | None:
    """Return ``(lo, hi, (Σx, Σy, Σx², Σy², Σxy))`` over x = a − s, y = b − s for some shift s.

    Quadratic kappa is invariant to the shift, so callers need not know it.
    The sums are exact Python integers. ``lo`` and ``hi`` are the smallest and
    largest rating; with ``need_range=False`` they may be None (ratings of at
    most 16 bits cannot overflow the sums, so no min/max pass is made).
    Returns None when the range of values is so wide (> 2**30) that exact
    int64 sums would need tiny chunks.
    """
    a, b = _as_kernel_input(a), _as_kernel_input(b)
    signature = _signature("sums", a, b) if _warm else None
    kernels = _engine(a.shape[0], engine, _SUMS, signature)
    if kernels is not None:
        _warm.add(signature or _signature("sums", a, b))
    n = a.shape[0]
    if kernels is None:
        counted = (direct_sums if n <= DIRECT else table_sums)(a, b)
        if counted is not None:
            return counted
    small = a.dtype.itemsize <= 2 and b.dtype.itemsize <= 2 and n < 1 << 31
    if kernels is not None and small:
        total = _add_sums(_map_slices(kernels.sums, a, b))
        if not need_range:
            return None, None, total
        lo, hi = _minmax(a, b, None)  # numpy's min/max is vectorised on small ints
        return lo, hi, total
    if kernels is not None:
        parts = _map_slices(kernels.moments, a, b, 0)
        lo, hi = min(int(p[0]) for p in parts), max(int(p[1]) for p in parts)
        if n * max(lo * lo, hi * hi) < _INT64_SAFE:
            return lo, hi, _add_sums(p[2:] for p in parts)
    else:
        lo, hi = _minmax(a, b, None)
    spread = hi - lo
    if spread > 1 << 30:
        return None
    chunk = max(1, min(_CHUNK if kernels is None else 1 << 24, _INT64_SAFE // max(1, spread) ** 2))
    sums = [
        _chunk_moments(a[s : s + chunk], b[s : s + chunk], lo, kernels) for s in range(0, n, chunk)
    ]
    return lo, hi, _add_sums(sums)


def _chunk_moments(
    a: np.ndarray, b: np.ndarray, shift: int, kernels: ModuleType | None
) -> tuple[Any, ...]:
    if kernels is not None:
        return tuple(kernels.moments(a, b, shift)[2:])
    x = a.astype(np.int64) - shift
    y = b.astype(np.int64) - shift
    return x.sum(), y.sum(), x @ x, y @ y, x @ y


def _add_sums(parts: Any) -> tuple[int, int, int, int, int]:
    total = [0, 0, 0, 0, 0]
    for part in parts:
        for i, value in enumerate(part):
            total[i] += int(value)
    return total[0], total[1], total[2], total[3], total[4]


def whole_bounds(x: np.ndarray) -> tuple[int, int] | None:
    """(lo, hi): whole numbers around a numeric matrix's finite values; None if it has none.

    NaN is missing; an infinity means no range (the caller's general path says why).
    """
    if x.dtype.kind != "f":
        return int(x.min()), int(x.max())
    if np.isnan(x).all():
        return None
    lo_f, hi_f = np.nanmin(x), np.nanmax(x)
    if not (np.isfinite(lo_f) and np.isfinite(hi_f)):
        return None
    return int(np.floor(lo_f)), int(np.ceil(hi_f))


def matrix_patterns(
    x: np.ndarray,
    *,
    max_range: int = MAX_RANGE,
    rows_too: bool = False,
    engine: Engine = "auto",
    bounds: tuple[int, int] | None = None,
) -> tuple[int, int, np.ndarray, np.ndarray] | None:
    """Per-item pattern codes of a numeric ratings matrix in one pass (numba), or None.

    Returns ``(lo, k, counts, rows)`` for the values in [lo, lo + k) (see
    ``_kernels.matrix_patterns``); None when the numpy path must run instead:
    numba missing or the input small, a range wider than ``max_range``,
    codes that would not fit in int64, or any value that is not a whole
    number (the numpy path then validates and explains). ``bounds``: the
    whole numbers around the values (:func:`whole_bounds`), when the caller
    counts a block of a larger matrix on the whole matrix's range.
    """
    from concord._tables.patterns import radix_fits

    kernels = _engine(x.size, engine, _MATRIX)
    if kernels is None or x.dtype.kind not in "iuf" or x.shape[0] == 0:
        return None
    bounds = whole_bounds(x) if bounds is None else bounds
    if bounds is None:
        return None
    lo, hi = bounds
    k, r = hi - lo + 1, x.shape[1]
    if k > max_range or not radix_fits(r + 1, k) or (rows_too and not radix_fits(k + 1, r)):
        return None
    step = -(-x.shape[0] // min(_n_threads(), max(1, x.size // _MATRIX_THREAD_MIN)))
    futures = [
        _pool().submit(kernels.matrix_patterns, x[s : s + step], lo, k, rows_too)
        for s in range(0, x.shape[0], step)
    ]
    parts = [f.result() for f in futures]
    if any(part[2] for part in parts):
        return None
    return lo, k, np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
