"""Arrays of PyTorch, CuPy and JAX: recognised without importing them, counted in their namespace.

Ratings held by one of these libraries stay where they are (a GPU, say):
:mod:`concord._tables.pairs_device` and :mod:`concord._tables.items_device` encode and
count them with the array's own namespace (array-api-compat's wrapper, plus
the library's ``bincount``), and only small arrays come to the host: the
distinct values, the k×k table, the distinct item patterns. CPU arrays
are viewed by numpy without a copy and counted by its kernels instead,
which is faster and moves nothing (``HOST_COUNTS_CPU_ARRAYS``).

Recognition looks at the names of the modules that define the array's
class, so ``import concord`` imports none of these libraries, and neither
does passing a numpy array. array-api-compat (``pip install
'concord-agreement[array]'``) is imported only when such an array arrives; without it,
or for inputs the device path does not handle, the arrays are copied to the
host and take the numpy path, which gives the same result and the same errors.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from concord._common.extras import require

# integer ratings within a range this wide are coded by offset from the smallest: dense
# tables up to MAX_RANGE × MAX_RANGE cells (wider ranges are looked up among distinct values)
MAX_RANGE = 1024


_LIBRARIES = frozenset({"torch", "cupy", "jax", "jaxlib"})
_CHUNK = 1 << 26  # values counted per bincount call: bounds the temporaries on the device
_KINDS = (
    ("b", "bool"),
    ("i", "signed integer"),
    ("u", "unsigned integer"),
    ("f", "real floating"),
    ("c", "complex floating"),
)


class Fallback(Exception):
    """The device path does not handle these inputs: copy them to the host and take numpy's."""


def is_device_array(x: Any) -> bool:
    """Return True for an array of PyTorch, CuPy or JAX (or of a subclass of one)."""
    return any(c.__module__.partition(".")[0] in _LIBRARIES for c in type(x).__mro__[:-1])


def any_device_array(*arrays: Any) -> bool:
    """Return True when any of ``arrays`` is a PyTorch, CuPy or JAX array.

    A coefficient's entry asks this once and then keeps to one path: the host
    path, with no further device check, or the device path.
    """
    return any(map(is_device_array, arrays))


# CPU arrays of these libraries are memory numpy can view without a copy: numpy's (numba's)
# counting is faster there than the namespace's and the data still do not move. The tests
# set this to False to run the namespace path on the CPU, as it runs on a GPU.
HOST_COUNTS_CPU_ARRAYS = True


def counted_on_device(x: Any) -> bool:
    """Return True for a PyTorch, CuPy or JAX array to count in its own namespace.

    False for anything else, and for CPU arrays (see ``HOST_COUNTS_CPU_ARRAYS``),
    which :func:`to_host` views as numpy arrays.
    """
    if not is_device_array(x):
        return False
    return not (HOST_COUNTS_CPU_ARRAYS and _on_cpu(x))


def _on_cpu(x: Any) -> bool:
    lib = library(x)
    try:
        if lib == "torch":
            return bool(x.device.type == "cpu")
        if lib == "jax":
            return all(d.platform == "cpu" for d in x.devices())
    except (AttributeError, TypeError):  # a tracer, or an unusual subclass: the namespace path
        return False
    return False  # CuPy arrays live on a GPU


def library(x: Any) -> str:
    """Return "torch", "cupy", "jax" or "" for the library that defines ``x``'s class."""
    for c in type(x).__mro__[:-1]:
        top = c.__module__.partition(".")[0]
        if top in _LIBRARIES:
            return "jax" if top == "jaxlib" else top
    return ""


def to_host(x: Any) -> Any:
    """Copy a PyTorch, CuPy or JAX array to a numpy array; return anything else unchanged."""
    lib = library(x)
    if lib == "torch":
        t = x.detach()
        if t.dtype.is_floating_point and t.dtype.itemsize < 4:  # bfloat16 has no numpy dtype
            t = t.float()
        return t.cpu().numpy()
    if lib == "cupy":
        return x.get()
    if lib == "jax":
        return np.asarray(x)
    return x


def namespace(*arrays: Any) -> Any:
    """Return the arrays' namespace; raise :class:`Fallback` without array-api-compat.

    Arrays of different libraries, or on different devices, fall back too.
    """
    try:
        import array_api_compat
    except ImportError:
        raise Fallback from None
    try:
        xp = array_api_compat.array_namespace(*arrays)
    except TypeError:
        raise Fallback from None
    if len({str(array_api_compat.device(a)) for a in arrays}) > 1:
        raise Fallback
    return xp


def device_of(x: Any) -> Any:
    """Return the device that holds ``x``."""
    return require("array_api_compat", "array", "counting on the device").device(x)


def kind(xp: Any, x: Any) -> str:
    """Return numpy's ``dtype.kind`` of ``x``'s dtype: b, i, u, f, c, or O for anything else."""
    for code, name in _KINDS:
        if xp.isdtype(x.dtype, name):
            return code
    return "O"


def check_numeric(xp: Any, x: Any, ndim: int) -> str:
    """Return the kind of a non-empty real array of ``ndim`` dimensions, else raise Fallback.

    Complex and other dtypes, the wrong shape, empty arrays and uint64 (whose
    values above 2**63 numpy looks up rather than counts) take the host path,
    as do PyTorch's uint16 and uint32, which few of its operations support.
    """
    found = kind(xp, x)
    if x.ndim != ndim or found not in "biuf" or 0 in x.shape or x.dtype == xp.uint64:
        raise Fallback
    if found == "u" and library(x) == "torch" and x.dtype != xp.uint8:
        raise Fallback
    return found


def index_dtype(xp: Any, x: Any) -> Any:
    """Return the namespace's default index dtype (int64; int32 for JAX without x64)."""
    try:
        return xp.__array_namespace_info__().default_dtypes(device=device_of(x))["indexing"]
    except (AttributeError, TypeError):
        return xp.int64


def index_max(xp: Any, dtype: Any) -> int:
    """Return the largest value of an integer dtype."""
    return int(xp.iinfo(dtype).max)


def scalar(x: Any) -> Any:
    """Return a 0-d device array as a Python scalar."""
    return x.item() if hasattr(x, "item") else to_host(x).item()


def offsets(xp: Any, x: Any, code: str, lo: int, dtype: Any) -> Any:
    """Return ``x - lo`` as ``dtype`` for whole-number ratings within a small range above ``lo``.

    Values that fit ``dtype`` widen first, so int8's 127 − (−128) does not
    wrap; larger unsigned and float values subtract in their own dtype
    (exact: the difference is small and representable). Missing values must
    have been filled.
    """
    if abs(lo) + MAX_RANGE < index_max(xp, dtype):  # every value fits ``dtype``: widen first
        wide = xp.astype(x, dtype, copy=False)
        return wide - lo if lo else wide
    if code == "f":
        return xp.astype(x - float(lo), dtype)
    if code == "u":
        return xp.astype(x - lo, dtype)
    return xp.astype(x, dtype) - lo


def unique_counts(xp: Any, x: Any) -> tuple[Any, Any]:
    """Return the sorted distinct values of ``x`` (any shape) and their counts, on the device.

    JAX's own ``unique`` copies a mask of ``x``'s size to the host; there the
    distinct values come from a sort, a bincount of the group numbers and a
    take, with one scalar (how many) sent to the host.
    """
    flat = xp.reshape(x, (-1,))
    if library(x) != "jax":
        values, counts = xp.unique_counts(flat)
        order = xp.argsort(values)
        return xp.take(values, order), xp.take(counts, order)
    idx = index_dtype(xp, x)
    ordered = xp.sort(flat)
    starts = xp.astype(ordered[1:] != ordered[:-1], idx)
    m = 1 + int(scalar(xp.sum(starts)))
    group = xp.concat([xp.zeros(1, dtype=idx, device=device_of(x)), xp.cumulative_sum(starts)])
    counts = device_bincount(group, m)
    first = xp.cumulative_sum(counts) - counts
    return xp.take(ordered, xp.astype(first, idx)), counts


def sorted_unique(xp: Any, x: Any) -> Any:
    """Return the distinct values of ``x`` (any shape), sorted, on the device."""
    return unique_counts(xp, x)[0]


def bounds(xp: Any, x: Any, code: str, keep: Any) -> tuple[Any, Any]:
    """Return the smallest and largest of the values of ``x`` where ``keep`` (None: all)."""
    if keep is None and library(x) == "torch" and x.dtype != sys.modules["torch"].bool:
        low, high = sys.modules["torch"].aminmax(x)  # one pass instead of two
        return scalar(low), scalar(high)
    if keep is None:
        return scalar(xp.min(x)), scalar(xp.max(x))
    if code == "f":
        top, bottom = float("inf"), float("-inf")
    elif code == "b":
        top, bottom = True, False
    else:
        info = xp.iinfo(x.dtype)
        top, bottom = info.max, info.min
    low = xp.min(xp.where(keep, x, xp.full_like(x, top)))
    high = xp.max(xp.where(keep, x, xp.full_like(x, bottom)))
    return scalar(low), scalar(high)


def pair_codes(xp: Any, x: Any, k: int, y: Any) -> Any:
    """Return x · k + y (PyTorch: in one pass)."""
    if library(x) == "torch":
        return sys.modules["torch"].add(y, x, alpha=k)
    return x * k + y


def filled(xp: Any, x: Any, keep: Any, value: Any) -> Any:
    """Return ``x`` with ``value`` where ``keep`` is false (None: ``x`` itself)."""
    return x if keep is None else xp.where(keep, x, xp.full_like(x, value))


def device_bincount(x: Any, length: int) -> Any:
    """Count the non-negative integers ``x`` (< ``length``) with the library's own bincount.

    The counts stay on the device; raise Fallback for a library without one.
    """
    lib = library(x)
    native = sys.modules.get(lib if lib != "jax" else "jax.numpy")
    if lib in ("torch", "cupy") and native is not None:
        return native.bincount(x, minlength=length)
    if lib == "jax" and native is not None:
        return native.bincount(x, length=length)
    raise Fallback


def bincount(x: Any, length: int) -> np.ndarray:
    """Count the non-negative integers ``x`` (< ``length``) on their device; return int64 counts.

    A library without a bincount counts its distinct values (``unique_counts``).
    """
    try:
        return np.asarray(to_host(device_bincount(x, length)), dtype=np.int64)
    except Fallback:
        compat = require("array_api_compat", "array", "counting on the device")
        xp = compat.array_namespace(x)
        values, freq = xp.unique_counts(x)
        out = np.zeros(length, dtype=np.int64)
        np.add.at(out, to_host(values).astype(np.int64), to_host(freq).astype(np.int64))
        return out


def count_cells(cells: Callable[[slice], Any], n: int, length: int) -> np.ndarray:
    """Sum ``bincount(cells(s), length)`` over slices s of ``range(n)``, on the host in int64.

    Chunks bound the device's temporaries, and 32-bit counts (JAX without
    x64) never overflow.
    """
    total = np.zeros(length, dtype=np.int64)
    for start in range(0, n, _CHUNK):
        total += bincount(cells(slice(start, min(n, start + _CHUNK))), length)
    return total
