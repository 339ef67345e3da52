"""Arrays of PyTorch, JAX and CuPy: counted on their device, with the results of numpy.

Every result on a device array must be identical (statistic, standard error,
table, labels and their types, ``explain()``) to the result on the same
values as a numpy array, and every error the same error. CPU PyTorch and
JAX run everywhere they are installed (``make test`` installs both where it
can); the GPU tests skip, saying why, without CUDA or CuPy.
"""

from __future__ import annotations

import dataclasses
import math
import subprocess
import sys
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pytest

import concord
from concord._data import arrays as _device

NO_TORCH = "PyTorch is not installed; `make test` installs its CPU build where one is available"
NO_JAX = "JAX is not installed (pip install 'jax[cpu]')"
NO_COMPAT = "array-api-compat is not installed (pip install 'concord-agreement[array]')"


@dataclasses.dataclass(frozen=True)
class Backend:
    """How a test puts a numpy array on the library's device and reads it back."""

    name: str
    put: Callable[[np.ndarray], Any]
    get: Callable[[Any], np.ndarray]


def _torch_backend(device: str = "cpu") -> Backend:
    torch = pytest.importorskip("torch", reason=NO_TORCH)
    return Backend(
        f"torch-{device}",
        lambda x: torch.from_numpy(np.ascontiguousarray(x)).to(device),
        lambda t: t.detach().cpu().numpy(),
    )


def _jax_backend() -> Backend:
    jax = pytest.importorskip("jax", reason=NO_JAX)

    # on the CPU even where JAX sees a GPU (its default device there): these are CPU tests
    cpu = jax.devices("cpu")[0]
    return Backend("jax", lambda x: jax.device_put(x, cpu), np.asarray)


@pytest.fixture(params=["torch", "jax"])
def lib(request: pytest.FixtureRequest) -> Backend:
    pytest.importorskip("array_api_compat", reason=NO_COMPAT)
    return _torch_backend() if request.param == "torch" else _jax_backend()


@pytest.fixture
def torch_lib() -> Backend:
    pytest.importorskip("array_api_compat", reason=NO_COMPAT)
    return _torch_backend()


@pytest.fixture(autouse=True)
def namespace_path_on_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """Count CPU arrays in their namespace, as GPU arrays are (by default numpy counts them)."""
    monkeypatch.setattr(_device, "HOST_COUNTS_CPU_ARRAYS", False)


# --- comparing results -------------------------------------------------------------------


def _same_value(got: Any, want: Any, where: str) -> None:
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), where
        assert got.dtype == want.dtype, where
        np.testing.assert_array_equal(got, want, err_msg=where)
    elif dataclasses.is_dataclass(want):
        assert_same(got, want)
    elif isinstance(want, Mapping):
        assert list(got) == list(want), where
        for key in want:
            _same_value(got[key], want[key], f"{where}[{key!r}]")
    elif isinstance(want, float) and math.isnan(want):
        assert isinstance(got, float) and math.isnan(got), where
    else:
        assert type(got) is type(want) and got == want, where
        if isinstance(want, tuple):  # labels: the same Python types, not only equal values
            assert [type(v) for v in got] == [type(v) for v in want], where


def assert_same(got: Any, want: Any) -> None:
    """Assert that two results are identical, field by field, with the same inference."""
    if isinstance(want, float):
        _same_value(got, want, "statistic")
        return
    assert type(got) is type(want)
    for f in dataclasses.fields(want):
        if not f.name.startswith("_"):
            _same_value(getattr(got, f.name), getattr(want, f.name), f.name)
    assert repr(got) == repr(want)
    assert got.explain() == want.explain()
    _same_value(got.standard_error, want.standard_error, "standard_error")
    _same_value(got.pvalue, want.pvalue, "pvalue")
    if not math.isnan(want.standard_error):
        assert tuple(got.confidence_interval()) == tuple(want.confidence_interval())


def check(lib: Backend, func: Callable[..., Any], *data: np.ndarray, **options: Any) -> Any:
    """Run ``func`` on device arrays and on the same values as numpy arrays; compare."""
    on_device = [lib.put(x) for x in data]
    host = [lib.get(x) for x in on_device]  # the values the device holds (JAX: 32 bits)
    if "sample_weight" in options and isinstance(options["sample_weight"], np.ndarray):
        weight = lib.put(options["sample_weight"])
        got = func(*on_device, **{**options, "sample_weight": weight})
        want = func(*host, **{**options, "sample_weight": lib.get(weight)})
    else:
        got, want = func(*on_device, **options), func(*host, **options)
    assert_same(got, want)
    return got


def check_error(lib: Backend, func: Callable[..., Any], *data: Any, **options: Any) -> str:
    """Assert that device arrays raise the error numpy arrays raise; return its message."""
    put = [lib.put(x) if isinstance(x, np.ndarray) else x for x in data]
    host = [lib.get(x) if isinstance(x, np.ndarray) else x for x in put]
    with pytest.raises((ValueError, TypeError)) as want:
        func(*host, **options)
    with pytest.raises(want.type) as got:
        func(*put, **options)
    assert str(got.value) == str(want.value)
    return str(got.value)


def _pair(n: int = 500, k: int = 5, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    b = np.clip(a + rng.integers(-1, 2, n), 0, k - 1)
    return a, b


def _matrix(n: int = 300, raters: int = 4, k: int = 4, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    noise = rng.integers(-1, 2, (n, raters)) * (rng.random((n, raters)) < 0.3)
    return np.clip(truth[:, None] + noise, 0, k - 1)


TWO_RATER = [
    lambda a, b, **o: concord.cohen_kappa(a, b, **o),
    lambda a, b, **o: concord.cohen_kappa(a, b, weights="linear", **o),
    lambda a, b, **o: concord.cohen_kappa(a, b, weights="quadratic", **o),
    lambda a, b, **o: concord.scott_pi(a, b, **o),
]


# --- two raters ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8"])
def test_integer_ratings(lib: Backend, dtype: str) -> None:
    a, b = _pair()
    for func in TWO_RATER:
        result = check(lib, func, (a + 1).astype(dtype), (b + 1).astype(dtype))
        assert result.labels == (1, 2, 3, 4, 5)


def test_int8_extremes_do_not_wrap(lib: Backend) -> None:
    a = np.array([-128, 127, 0, -128, 5, 127], dtype=np.int8)
    b = np.array([-128, 127, 1, 127, 5, -128], dtype=np.int8)
    result = check(lib, concord.cohen_kappa, a, b, weights="quadratic")
    assert result.labels == (-128, 0, 1, 5, 127)


@pytest.mark.parametrize("min_max", [(None, None), (0, 4), (0, None), (None, 9)])
def test_quadratic_weighted_kappa(lib: Backend, min_max: tuple[int | None, int | None]) -> None:
    a, b = _pair(2000)
    lo, hi = min_max
    got = check(lib, concord.quadratic_weighted_kappa, a, b, min_rating=lo, max_rating=hi)
    assert got == concord.cohen_kappa(a, b, weights="quadratic").statistic
    check(lib, concord.quadratic_weighted_kappa, a.astype(float), b.astype(float))
    check(lib, concord.quadratic_weighted_kappa, a, b, labels=[0, 1, 2, 3, 4, 5])


def test_quadratic_weighted_kappa_errors(lib: Backend) -> None:
    a, b = _pair()
    message = check_error(lib, concord.quadratic_weighted_kappa, a, b, min_rating=1)
    assert "min_rating" in message
    check_error(lib, concord.quadratic_weighted_kappa, a, b[:-1])
    check_error(lib, concord.quadratic_weighted_kappa, np.where(a > 3, np.nan, a), b)
    with pytest.warns(concord.UndefinedKappaWarning):
        assert math.isnan(concord.quadratic_weighted_kappa(lib.put(a * 0), lib.put(b * 0)))


def test_bool_ratings_keep_bool_labels(lib: Backend) -> None:
    a, b = _pair(k=2)
    result = check(lib, concord.cohen_kappa, a.astype(bool), b.astype(bool))
    assert result.labels == (False, True) and type(result.labels[0]) is bool
    check(lib, concord.cohen_kappa, a.astype(bool), b)  # bool beside int: int labels
    check(lib, concord.quadratic_weighted_kappa, a.astype(bool), b.astype(bool))


def test_whole_floats_with_nan_omitted(lib: Backend) -> None:
    a, b = _pair()
    a = np.where(np.arange(a.size) % 7 == 0, np.nan, a)
    b = np.where(np.arange(b.size) % 11 == 0, np.nan, b)
    for func in TWO_RATER:
        result = check(lib, func, a, b, nan_policy="omit")
        assert result.labels == (0, 1, 2, 3, 4) and type(result.labels[0]) is int
        message = check_error(lib, func, a, b)
        assert "nan_policy" in message
        check_error(lib, func, a * np.nan, b, nan_policy="omit")
    ints = (_pair()[1] + 100).astype(np.int8)  # an int rater beside a float one with NaN
    check(lib, concord.cohen_kappa, a, ints, nan_policy="omit")


def test_declared_labels(lib: Backend) -> None:
    a, b = _pair()
    for labels in ([0, 1, 2, 3, 4, 5, 6], [4, 3, 2, 1, 0], [-1, 0, 1, 2, 3, 4], [0.0, 1, 2, 3, 4]):
        result = check(lib, concord.cohen_kappa, a, b, weights="linear", labels=labels)
        assert result.labels == tuple(labels)
    check(lib, concord.cohen_kappa, a.astype(float), b, labels=[0, 1, 2, 3, 4, 5])
    message = check_error(lib, concord.cohen_kappa, a, b, labels=[0, 1, 2])
    assert "(" in message and "×)" in message  # the strays and how often each occurs
    check_error(lib, concord.cohen_kappa, a, b, labels=["a", "b"])


def test_non_integral_floats(lib: Backend) -> None:
    a, b = _pair()
    labels = [0.0, 0.5, 1.0, 1.5, 2.0]
    check(lib, concord.cohen_kappa, a / 2, b / 2, labels=labels, weights="quadratic")
    check(lib, concord.cohen_kappa, a / 2, b / 2, labels=labels[::-1])
    check_error(lib, concord.cohen_kappa, a / 2, b / 2)
    check_error(lib, concord.cohen_kappa, a / 2, b / 2, labels=labels[:3])
    check_error(lib, concord.cohen_kappa, np.where(a > 3, np.inf, a), b)


def test_values_beyond_the_dense_range(lib: Backend) -> None:
    a, b = _pair()
    check(lib, concord.cohen_kappa, a * 1000, b * 1000)  # spans 4001 values: looked up
    result = check(lib, concord.cohen_kappa, a * 1000.0, b * 1000.0)
    assert type(result.labels[0]) is float  # as numpy's lookup keeps floats
    check(lib, concord.cohen_kappa, a * 1000, b * 1000, labels=[0, 1000, 2000, 3000, 4000, 5])
    check_error(lib, concord.cohen_kappa, a * 1000, b * 1000, labels=[0, 1000])


@pytest.mark.parametrize("kind", ["float", "int", "bool", "host"])
def test_sample_weight(lib: Backend, kind: str) -> None:
    a, b = _pair()
    rng = np.random.default_rng(3)
    weight = {
        "float": rng.random(a.size),
        "int": rng.integers(0, 4, a.size),
        "bool": rng.random(a.size) < 0.8,
        "host": np.round(rng.random(a.size), 2),
    }[kind]
    da, db = lib.put(a), lib.put(b)
    w = weight if kind == "host" else lib.put(weight)
    got = concord.cohen_kappa(da, db, sample_weight=w, weights="quadratic")
    want_w = weight if kind == "host" else lib.get(w)
    want = concord.cohen_kappa(lib.get(da), lib.get(db), sample_weight=want_w, weights="quadratic")
    assert_same(got, want)
    # the bootstrap resamples the distinct (cell, weight) units: the same units, in the same order
    ci = {"method": "bootstrap-percentile", "n_resamples": 200, "rng": 0}
    assert tuple(got.confidence_interval(**ci)) == tuple(want.confidence_interval(**ci))


def test_sample_weight_with_nan_and_declared_labels(lib: Backend) -> None:
    a, b = _pair()
    a = np.where(np.arange(a.size) % 9 == 0, np.nan, a)
    weight = np.random.default_rng(4).random(a.size)
    for labels in (None, [0, 1, 2, 3, 4, 5], [0.0, 1.0, 2.0, 3.0, 4.0, 4.5]):
        options = {"sample_weight": weight, "nan_policy": "omit", "labels": labels}
        check(lib, concord.cohen_kappa, a, b, **options)


def test_sample_weight_errors(lib: Backend) -> None:
    a, b = _pair()
    for weight in (-np.ones(a.size), np.full(a.size, np.inf), np.ones(a.size - 1)):
        message = check_error(lib, concord.cohen_kappa, a, b, sample_weight=lib.put(weight))
        assert "sample_weight" in message
        check_error(lib, concord.cohen_kappa, a, b, sample_weight=weight)


def test_input_errors(lib: Backend) -> None:
    a, b = _pair()
    check_error(lib, concord.cohen_kappa, a, b[:-1])
    check_error(lib, concord.cohen_kappa, np.column_stack([a, b]), b)
    check_error(lib, concord.cohen_kappa, a[:0], b[:0])
    check_error(lib, concord.cohen_kappa, a, b, nan_policy="drop")
    check_error(lib, concord.cohen_kappa, a, b, labels=[1, 1])


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
def test_wide_unsigned_take_the_host_path(torch_lib: Backend, dtype: str) -> None:
    a, b = _pair()
    check(torch_lib, concord.cohen_kappa, a.astype(dtype), b.astype(dtype), weights="linear")
    check(torch_lib, concord.fleiss_kappa, _matrix().astype(dtype))


def test_device_array_beside_a_list(lib: Backend) -> None:
    a, b = _pair()
    got = concord.cohen_kappa(lib.put(a), b.tolist(), weights="quadratic")
    assert_same(got, concord.cohen_kappa(lib.get(lib.put(a)), b, weights="quadratic"))


def test_without_array_api_compat_the_host_path_gives_the_same(
    lib: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = _pair()
    m = _matrix().astype(float)
    m[::5, 0] = np.nan
    monkeypatch.setitem(sys.modules, "array_api_compat", None)  # import fails
    check(lib, concord.cohen_kappa, a, b, weights="quadratic")
    check(lib, concord.quadratic_weighted_kappa, a, b)
    check(lib, concord.fleiss_kappa, m)


def test_counted_in_chunks(torch_lib: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_device, "_CHUNK", 97)
    a, b = _pair(1000)
    check(torch_lib, concord.cohen_kappa, a, b, weights="quadratic")
    check(torch_lib, concord.cohen_kappa, a * 1000, b * 1000)


def test_streams(torch_lib: Backend) -> None:
    a, b = _pair(600)
    acc = concord.accumulate(concord.cohen_kappa, weights="quadratic")
    for s in range(0, 600, 200):
        acc.update(torch_lib.put(a[s : s + 200]), torch_lib.put(b[s : s + 200]))
    assert_same(acc.result(), concord.cohen_kappa(a, b, weights="quadratic"))
    m = _matrix(300).astype(float)
    m[::4, 1] = np.nan
    acc = concord.accumulate(concord.fleiss_kappa)
    for s in range(0, 300, 100):
        acc.update(torch_lib.put(m[s : s + 100]))
    assert_same(acc.result(), concord.fleiss_kappa(torch_lib.get(torch_lib.put(m))))


# --- many raters ---------------------------------------------------------------------------

MANY_RATER = [
    concord.fleiss_kappa,
    concord.percent_agreement,
    concord.brennan_prediger,
    concord.gwet_ac,
    concord.krippendorff_alpha,
    concord.conger_kappa,
    concord.light_kappa,
    lambda m, **o: concord.gwet_ac(m, weights="quadratic", **o),
    lambda m, **o: concord.krippendorff_alpha(m, level="interval", **o),
    lambda m, **o: concord.krippendorff_alpha(m, level="ordinal", **o),
]


@pytest.mark.parametrize("dtype", ["int64", "int8", "float64"])
def test_many_raters(lib: Backend, dtype: str) -> None:
    m = _matrix() + 2
    for func in MANY_RATER:
        result = check(lib, func, m.astype(dtype))
        assert result.labels == (2, 3, 4, 5) and type(result.labels[0]) is int


def test_many_raters_with_missing_ratings(lib: Backend) -> None:
    m = _matrix().astype(float)
    rng = np.random.default_rng(5)
    m[rng.random(m.shape) < 0.2] = np.nan
    m[:7] = np.nan  # items nobody rated are dropped
    for func in MANY_RATER:
        check(lib, func, m)
        check(lib, func, m, labels=[3, 2, 1, 0, 7])


def test_many_raters_bool_and_wide_range(lib: Backend) -> None:
    m = _matrix(k=2)
    result = check(lib, concord.fleiss_kappa, m.astype(bool))
    assert result.labels == (0, 1) and type(result.labels[0]) is int  # as numpy's
    check(lib, concord.fleiss_kappa, m * 5000)
    check(lib, concord.conger_kappa, (m * 5000).astype(float))


def test_many_raters_continuous(torch_lib: Backend) -> None:
    rng = np.random.default_rng(6)
    m = np.round(rng.normal(size=(200, 3)), 3)
    m[rng.random(m.shape) < 0.1] = np.nan
    for level in ("interval", "ratio", "ordinal"):  # > 256 values: the continuous engine
        check(torch_lib, concord.krippendorff_alpha, np.abs(m), level=level)
    small = np.round(m[:40], 1)
    check(torch_lib, concord.krippendorff_alpha, small, level="interval")
    check_error(torch_lib, concord.krippendorff_alpha, small)  # nominal needs whole numbers


def test_many_raters_declared_non_integral_labels(lib: Backend) -> None:
    m = _matrix() / 2
    check(lib, concord.fleiss_kappa, m, labels=[0.0, 0.5, 1.0, 1.5])
    check(lib, concord.gwet_ac, m, labels=[1.5, 1.0, 0.5, 0.0, 2.0], weights="linear")


def test_many_raters_errors(lib: Backend) -> None:
    m = _matrix()
    check_error(lib, concord.fleiss_kappa, m[:, 0])
    check_error(lib, concord.fleiss_kappa, m * np.nan)
    check_error(lib, concord.fleiss_kappa, m / 3)
    check_error(lib, concord.fleiss_kappa, m, labels=[0, 1])
    check_error(lib, concord.fleiss_kappa, np.where(m > 2, np.inf, m))


def test_many_raters_large_matches_the_numba_path(torch_lib: Backend) -> None:
    m = _matrix(60_000, raters=5, k=6)  # 300 000 ratings: numpy's numba route
    check(torch_lib, concord.fleiss_kappa, m)
    check(torch_lib, concord.conger_kappa, m)
    a, b = _pair(300_000)
    check(torch_lib, concord.cohen_kappa, a, b, weights="quadratic")  # and numba's pair table


# --- what crosses to the host --------------------------------------------------------------


@pytest.fixture
def transfers(torch_lib: Backend, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the size of every torch tensor copied to a numpy array."""
    import torch

    sizes: list[int] = []
    numpy, array, tolist = torch.Tensor.numpy, torch.Tensor.__array__, torch.Tensor.tolist

    def spy(original: Callable[..., Any]) -> Callable[..., Any]:
        def recorded(self: Any, *args: Any, **kwargs: Any) -> Any:
            sizes.append(self.numel())
            return original(self, *args, **kwargs)

        return recorded

    monkeypatch.setattr(torch.Tensor, "numpy", spy(numpy))
    monkeypatch.setattr(torch.Tensor, "__array__", spy(array))
    monkeypatch.setattr(torch.Tensor, "tolist", spy(tolist))
    return sizes


def test_only_small_tables_leave_the_device(transfers: list[int]) -> None:
    import torch

    n, k = 100_000, 5
    a, b = (torch.from_numpy(x) for x in _pair(n, k))
    concord.cohen_kappa(a, b, weights="quadratic")
    concord.quadratic_weighted_kappa(a, b)
    concord.cohen_kappa(a.double(), b.double(), labels=[0, 1, 2, 3, 4, 5])
    assert transfers and max(transfers) <= k * k
    transfers.clear()
    concord.cohen_kappa(a * 1000, b * 1000)  # looked up: the distinct values, then k×k
    concord.cohen_kappa(a, b, sample_weight=(a % 3).double())  # the distinct units
    assert max(transfers) <= k * k * 3
    transfers.clear()
    m = torch.from_numpy(_matrix(n // 4, raters=4, k=k)).double()
    m[::3, 1] = float("nan")
    for func in (concord.fleiss_kappa, concord.krippendorff_alpha, concord.conger_kappa):
        func(m)
    assert max(transfers) < 2000  # distinct patterns, not the 25 000 items
    transfers.clear()
    concord.cohen_kappa(a, b.numpy())  # a numpy rater: all to the host, recorded
    assert max(transfers) == n


def test_jax_only_small_tables_leave_the_device(monkeypatch: pytest.MonkeyPatch) -> None:
    """JAX copies to the host through np.asarray (its boolean indexing and unique do too)."""
    pytest.importorskip("array_api_compat", reason=NO_COMPAT)
    lib = _jax_backend()
    import jax

    sizes: list[int] = []
    asarray = np.asarray

    def recorded(x: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(x, jax.Array):
            sizes.append(x.size)
        return asarray(x, *args, **kwargs)

    monkeypatch.setattr(np, "asarray", recorded)
    a, b = _pair()  # the shapes of the other tests: JAX compiles for each new one
    fa = np.where(np.arange(a.size) % 7 == 0, np.nan, a)
    concord.cohen_kappa(lib.put(fa), lib.put(b), weights="quadratic", nan_policy="omit")
    concord.quadratic_weighted_kappa(lib.put(a), lib.put(b))
    concord.cohen_kappa(lib.put(a), lib.put(b), sample_weight=lib.put(a % 2 * 1.0))
    assert sizes and max(sizes) <= 50  # 5 × 5 cells, 2 weights: not the 500 pairs
    sizes.clear()
    m = _matrix().astype(float)
    m[::3, 1] = np.nan
    m[::11] = np.nan
    for func in (concord.fleiss_kappa, concord.krippendorff_alpha, concord.conger_kappa):
        func(lib.put(m))
    assert sizes and max(sizes) < 150  # distinct patterns, not the 300 items
    monkeypatch.setattr(np, "asarray", asarray)
    assert concord.fleiss_kappa(lib.put(m)).statistic == concord.fleiss_kappa(m).statistic


def test_import_loads_no_array_library() -> None:
    code = (
        "import sys, numpy as np, concord; x = np.arange(9);"
        "concord.cohen_kappa(x % 3, x % 2); concord.fleiss_kappa(np.arange(12).reshape(4, 3) % 2);"
        "print([m for m in ('torch', 'jax', 'cupy', 'array_api_compat') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_recognition() -> None:
    assert not _device.is_device_array(np.arange(3))
    assert not _device.is_device_array([1, 2])
    assert _device.to_host([1, 2]) == [1, 2]


def test_jax_with_x64() -> None:
    pytest.importorskip("array_api_compat", reason=NO_COMPAT)
    lib = _jax_backend()
    import jax

    with jax.enable_x64(True):
        a, b = _pair()
        assert lib.put(a).dtype == np.int64
        check(lib, concord.cohen_kappa, a * 1.0, b, weights="quadratic")
        check(lib, concord.fleiss_kappa, _matrix())


# --- GPUs ----------------------------------------------------------------------------------


def _cuda_torch() -> Backend:
    torch = pytest.importorskip("torch", reason=NO_TORCH)
    pytest.importorskip("array_api_compat", reason=NO_COMPAT)
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device: PyTorch's GPU tests need one (torch.cuda.is_available())")
    return _torch_backend("cuda")


def _cupy() -> Backend:
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed: its tests need a CUDA GPU")
    pytest.importorskip("array_api_compat", reason=NO_COMPAT)
    try:
        cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CuPy installed, no usable device
        pytest.skip(f"no CUDA device for CuPy: {exc}")
    return Backend("cupy", cupy.asarray, cupy.asnumpy)


def _jax_gpu() -> Backend:
    jax = pytest.importorskip("jax", reason=NO_JAX)
    pytest.importorskip("array_api_compat", reason=NO_COMPAT)
    gpus = [d for d in jax.devices() if d.platform == "gpu"]
    if not gpus:
        pytest.skip("no GPU for JAX: jax.devices() lists only CPUs")
    return Backend("jax-gpu", lambda x: jax.device_put(x, gpus[0]), np.asarray)


@pytest.mark.parametrize("make", [_cuda_torch, _cupy, _jax_gpu], ids=["torch", "cupy", "jax"])
def test_gpu(make: Callable[[], Backend]) -> None:
    gpu = make()
    a, b = _pair(100_000)
    for func in TWO_RATER:
        check(gpu, func, a, b)
    check(gpu, concord.quadratic_weighted_kappa, a, b)
    check(gpu, concord.cohen_kappa, a * 1.0, b, sample_weight=np.ones(a.size))
    check(gpu, concord.cohen_kappa, a * 1000, b * 1000)
    m = _matrix(10_000).astype(float)
    m[::4, 2] = np.nan
    for func in MANY_RATER:
        check(gpu, func, m)


def test_cpu_arrays_are_counted_by_numpy_by_default(
    lib: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CPU tensors are viewed by numpy (no copy, numba's kernels); the result is the same."""
    from concord._tables import items_device as _device_items
    from concord._tables import pairs_device as _device_pairs

    monkeypatch.setattr(_device, "HOST_COUNTS_CPU_ARRAYS", True)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a CPU array took the namespace path")

    monkeypatch.setattr(_device_pairs, "pair_table", refuse)
    monkeypatch.setattr(_device_items, "items", refuse)
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 5, 1000), rng.integers(0, 5, 1000)
    check(lib, concord.cohen_kappa, a, b, weights="quadratic")
    check(lib, concord.quadratic_weighted_kappa, a, b)
    check(lib, concord.fleiss_kappa, rng.integers(0, 4, (200, 3)).astype(np.float64))
