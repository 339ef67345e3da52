"""Quadratic kappa of GPU tensors: concord counting on the device against torchmetrics.

Run ``python benchmarks/bench_gpu.py`` (``--output FILE`` also writes the
markdown). It prints markdown tables of median times over repeated runs:

* GPU, when PyTorch sees a CUDA device: ``cohen_kappa(weights="quadratic")``
  and ``quadratic_weighted_kappa`` on n = 10^8 and 10^9 pairs of int64 CUDA
  tensors (K = 6 grades), against torchmetrics' ``multiclass_cohen_kappa(
  weights="quadratic")`` with and without its argument checks, and a floor:
  one read of both tensors (``a.sum(); b.sum()``). Every call is timed between
  two ``torch.cuda.synchronize()``; the peak column is the GPU memory the call
  allocates beyond its inputs (``torch.cuda.max_memory_allocated``).
  torchmetrics is not a concord dependency: ``pip install torchmetrics`` next
  to a CUDA build of PyTorch.
* CPU, always: n = 10^7 pairs as CPU torch tensors (and JAX arrays, when
  installed) against the same values as numpy arrays (concord's numba path),
  a sanity figure for the device path on a machine without a GPU.

Without CUDA the GPU part is skipped and the script says why. The machine may
be shared and noisy: read medians and ratios, not single times.
"""

from __future__ import annotations

import sys
from pathlib import Path

# numba imports the `coverage` package, which benchmarks/coverage.py would shadow
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import concord
from concord._data import arrays as _device

K = 6


def median_time(
    fn: Callable[[], Any], repeat: int, sync: Callable[[], None], budget: float = 60.0
) -> float:
    """Median wall time of ``fn`` over ``repeat`` runs (fewer past ``budget`` s), synchronised."""
    fn()  # warm-up: compilation, caches, allocator
    sync()
    times = []
    start = time.perf_counter()
    for _ in range(repeat):
        sync()
        t = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t)
        if time.perf_counter() - start > budget and len(times) >= 3:
            break
    return statistics.median(times)


def ratings(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two raters' grades 0..K−1 on the host: the second off by one a third of the time."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, K, n)
    return a, np.clip(a + rng.integers(-1, 2, n), 0, K - 1)


def contenders(torch: Any, a: Any, b: Any) -> dict[str, Callable[[], float]]:
    """The calls timed on tensors ``a`` and ``b`` (CPU or GPU)."""
    calls: dict[str, Callable[[], float]] = {
        "concord cohen_kappa(weights='quadratic')": lambda: (
            concord.cohen_kappa(a, b, weights="quadratic").statistic
        ),
        "concord quadratic_weighted_kappa": lambda: concord.quadratic_weighted_kappa(a, b),
    }
    try:
        from torchmetrics.functional.classification import multiclass_cohen_kappa
    except ImportError:
        return calls

    def metric(validate: bool) -> Callable[[], float]:
        return lambda: float(
            multiclass_cohen_kappa(b, a, K, weights="quadratic", validate_args=validate)
        )

    calls["torchmetrics multiclass_cohen_kappa"] = metric(True)
    calls["torchmetrics, validate_args=False"] = metric(False)
    return calls


def gpu_rows(torch: Any, sizes: list[int], repeat: int) -> list[str]:
    """Time every contender on CUDA tensors of each size; return markdown rows."""
    rows = []
    for n in sizes:
        rows += _gpu_size(torch, n, repeat)
        torch.cuda.empty_cache()  # the tensors of this size are gone
    return rows


def _gpu_size(torch: Any, n: int, repeat: int) -> list[str]:
    sync = torch.cuda.synchronize
    gen = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randint(0, K, (n,), device="cuda", generator=gen)
    b = (a + torch.randint(-1, 2, (n,), device="cuda", generator=gen)).clamp_(0, K - 1)
    calls = {"floor: a.sum(); b.sum()": lambda: float(a.sum() + b.sum())}
    calls.update(contenders(torch, a, b))
    rows = []
    for name, fn in calls.items():
        try:
            seconds = median_time(fn, repeat, sync)
            torch.cuda.reset_peak_memory_stats()
            base = torch.cuda.memory_allocated()
            value = fn()
            sync()
            peak = (torch.cuda.max_memory_allocated() - base) / 2**30
        except torch.cuda.OutOfMemoryError:
            rows.append(f"| {n:.0e} | {name} | out of memory | | | |")
            torch.cuda.empty_cache()
            continue
        rate = n / seconds / 1e9
        rows.append(
            f"| {n:.0e} | {name} | {seconds * 1e3:.1f} | {rate:.2f} | {peak:.2f} | {value:.6f} |"
        )
    return rows


def in_namespace(fn: Callable[[], float]) -> Callable[[], float]:
    """Run ``fn`` with CPU arrays counted by their library, not viewed by numpy."""

    def run() -> float:
        _device.HOST_COUNTS_CPU_ARRAYS = False
        try:
            return fn()
        finally:
            _device.HOST_COUNTS_CPU_ARRAYS = True

    return run


def cpu_rows(n: int, repeat: int) -> list[str]:
    """Time concord on CPU torch tensors, JAX arrays and numpy arrays of the same values."""
    a, b = ratings(n)
    calls: dict[str, Callable[[], float]] = {
        "numpy int64: cohen_kappa(weights='quadratic')": lambda: (
            concord.cohen_kappa(a, b, weights="quadratic").statistic
        ),
        "numpy int64: quadratic_weighted_kappa": lambda: concord.quadratic_weighted_kappa(a, b),
    }
    try:
        import torch
    except ImportError:
        print("CPU torch: skipped (PyTorch is not installed)")
    else:
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        for name, fn in contenders(torch, ta, tb).items():
            calls[f"torch CPU int64: {name.removeprefix('concord ')}"] = fn
        calls["torch CPU int64, counted in torch's namespace (as on a GPU)"] = in_namespace(
            lambda: concord.cohen_kappa(ta, tb, weights="quadratic").statistic
        )
    try:
        import jax.numpy as jnp
    except ImportError:
        print("JAX: skipped (JAX is not installed)")
    else:
        ja, jb = jnp.asarray(a), jnp.asarray(b)  # int32 unless x64 is enabled
        calls["JAX CPU int32: cohen_kappa(weights='quadratic')"] = lambda: (
            concord.cohen_kappa(ja, jb, weights="quadratic").statistic
        )
        calls["JAX CPU int32, counted in JAX's namespace (as on a GPU)"] = in_namespace(
            lambda: concord.cohen_kappa(ja, jb, weights="quadratic").statistic
        )
    rows = []
    for name, fn in calls.items():
        seconds = median_time(fn, repeat, lambda: None)
        rows.append(
            f"| {n:.0e} | {name} | {seconds * 1e3:.1f} | {n / seconds / 1e9:.2f} | {fn():.6f} |"
        )
    return rows


def header() -> str:
    versions = [f"Python {platform.python_version()}", f"numpy {np.__version__}"]
    for name in ("torch", "torchmetrics", "jax", "array_api_compat"):
        try:
            module = __import__(name)
            versions.append(f"{name} {module.__version__}")
        except ImportError:
            versions.append(f"{name} not installed")
    import os

    threads = os.environ.get("CONCORD_NUM_THREADS", str(os.cpu_count()))
    return f"Machine: {platform.machine()}, {threads} threads; {', '.join(versions)}; K = {K}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpu-sizes", type=int, nargs="+", default=[10**8, 10**9])
    parser.add_argument("--cpu-size", type=int, default=10**7)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--output", type=Path, help="also write the markdown here")
    args = parser.parse_args()
    lines = [
        "# Quadratic kappa of PyTorch and JAX arrays, counted on their device",
        "",
        "Generated by `benchmarks/bench_gpu.py`: median of up to "
        f"{args.repeat} runs after a warm-up (JAX compiles in the warm-up).",
        "",
        header(),
        "",
    ]
    try:
        import torch
    except ImportError:
        torch, skipped = None, "PyTorch is not installed"
    else:
        skipped = "" if torch.cuda.is_available() else "torch.cuda.is_available() is False"
    if torch is not None and not skipped:
        lines += [
            f"## GPU: {torch.cuda.get_device_name()}",
            "",
            "| pairs | call | median ms | 10^9 pairs/s | peak GiB | κ |",
            "|---|---|---|---|---|---|",
            *gpu_rows(torch, args.gpu_sizes, args.repeat),
        ]
    else:
        lines += [f"## GPU: skipped ({skipped})"]
    lines += [
        "",
        "## CPU",
        "",
        "| pairs | call | median ms | 10^9 pairs/s | κ |",
        "|---|---|---|---|---|",
        *cpu_rows(args.cpu_size, args.repeat),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        args.output.write_text(text)


if __name__ == "__main__":
    main()
