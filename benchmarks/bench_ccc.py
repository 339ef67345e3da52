"""Lin's concordance and Bland–Altman at 10⁶ and 10⁷ pairs, against a numpy reference.

Run ``python benchmarks/bench_ccc.py`` (``--quick``: 10⁵ pairs, a smoke run).
For each size and kind of rating (integer scores 0-200, and floats), times
``concord.concordance_correlation`` and ``concord.bland_altman`` against
the same statistics in float numpy (``np.cov(..., bias=True)``,
``np.mean``, ``np.std(ddof=1)``), and an accumulator fed 10 batches (checked
equal to the one shot, ==). concord's sums are exact (integers times a
power of two), so its cost is the exact arithmetic and the distinct pairs it
keeps for the bootstrap; numpy's floats are the floor. Peak memory is
tracemalloc's (numpy's buffers and Python objects) in a separate run.

pingouin (0.7) has no concordance correlation, and its Bland–Altman
statistics live only inside ``plot_blandaltman``, which draws every point:
there is no statistics-only function of it to time.

The machine is shared and noisy: read medians and ratios, not single times.
"""

from __future__ import annotations

import sys
from pathlib import Path

# numba imports the `coverage` package, which benchmarks/coverage.py would shadow
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import os
import platform
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np

import concord

RESULTS = Path(__file__).parent / "results" / "ccc.md"


def ccc_numpy(x: np.ndarray, y: np.ndarray) -> float:
    """Lin's ρ_c in float numpy: population moments from np.cov and np.mean."""
    (vx, sxy), (_, vy) = np.cov(x, y, bias=True)
    return float(2 * sxy / (vx + vy + (np.mean(x) - np.mean(y)) ** 2))


def ba_numpy(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The bias and the SD of the differences in float numpy."""
    d = np.subtract(x, y, dtype=np.float64)
    return float(np.mean(d)), float(np.std(d, ddof=1))


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float, float, Any]:
    """Median, min and max seconds of ``repeat`` runs, and the last value."""
    times, value = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times), max(times), value


def peak_mib(fn: Callable[[], Any]) -> float:
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def batched(func: Any, x: np.ndarray, y: np.ndarray) -> Any:
    acc = concord.accumulate(func)
    for a, b in zip(np.array_split(x, 10), np.array_split(y, 10), strict=True):
        acc.update(a, b)
    return acc.result()


def data(n: int, kind: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Two raters' scores: y = x + a bias of 1 + noise (SD 5), around 100 (SD 15)."""
    x = rng.normal(100, 15, n)
    y = x + rng.normal(1, 5, n)
    if kind == "integer":
        return np.clip(np.rint(x), 0, 200).astype(np.int64), np.clip(np.rint(y), 0, 200).astype(
            np.int64
        )
    return x, y


def times_text(ratio: float) -> str:
    """A ratio to two significant digits, without an exponent: 0.41×, 3.4×, 283×."""
    return f"{ratio:,.0f}×" if ratio >= 10 else f"{ratio:.2g}×"


def row(
    label: str, fn: Callable[[], Any], repeat: int, base: float | None
) -> tuple[list[str], Any]:
    median, low, high, value = timed(fn, repeat)
    ratio = f" ({times_text(median / base)})" if base else ""
    cells = [label, f"{1e3 * median:,.1f}{ratio}", f"{1e3 * low:,.1f}–{1e3 * high:,.1f}"]
    return [*cells, f"{peak_mib(fn):,.1f}"], value


def rows_for(n: int, kind: str, repeat: int) -> list[list[str]]:
    x, y = data(n, kind, np.random.default_rng(20261124))
    out: list[list[str]] = []
    head = [f"{n:.0e}", kind]
    np_ccc, ref = row("numpy ρ_c", lambda: ccc_numpy(x, y), repeat, None)
    base = float(np_ccc[1].replace(",", "")) / 1e3
    one, ccc = row("concord ρ_c", lambda: concord.concordance_correlation(x, y), repeat, base)
    acc, streamed = row(
        "concord ρ_c, 10 batches",
        lambda: batched(concord.concordance_correlation, x, y),
        repeat,
        base,
    )
    assert streamed.statistic == ccc.statistic, "accumulator differs from the one shot"
    gap = f"{abs(ccc.statistic - ref):.1e}"
    out += [[*head, *np_ccc, ""], [*head, *one, gap], [*head, *acc, "== one shot"]]
    np_ba, (bias, sd) = row("numpy bias, SD", lambda: ba_numpy(x, y), repeat, None)
    base = float(np_ba[1].replace(",", "")) / 1e3
    one, ba = row("concord Bland–Altman", lambda: concord.bland_altman(x, y), repeat, base)
    acc, streamed = row(
        "concord Bland–Altman, 10 batches",
        lambda: batched(concord.bland_altman, x, y),
        repeat,
        base,
    )
    assert (streamed.bias, streamed.sd) == (ba.bias, ba.sd), "accumulator differs"
    gap = f"{max(abs(ba.bias - bias), abs(ba.sd - sd)):.1e}"
    out += [[*head, *np_ba, ""], [*head, *one, gap], [*head, *acc, "== one shot"]]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10⁵ pairs only, one run each")
    parser.add_argument(
        "--max-pairs",
        type=int,
        default=10**7,
        help="largest size run (10⁷ float pairs under tracemalloc take many minutes)",
    )
    args = parser.parse_args()
    sizes = [(10**5, 1)] if args.quick else [(10**6, 3), (10**7, 1)]
    sizes = [(n, r) for n, r in sizes if n <= args.max_pairs]
    for kind in ("integer", "float"):  # warm up: imports (scipy's non-central t) and numba
        x, y = data(1000, kind, np.random.default_rng(0))
        for func in (concord.concordance_correlation, concord.bland_altman):
            func(x, y)
            batched(func, x, y)
    table = []
    for n, repeat in sizes:
        for kind in ("integer", "float"):
            table += rows_for(n, kind, repeat)
            print(f"done: {n:.0e} {kind}", file=sys.stderr)
    machine = (
        f"Machine: {platform.machine()}, {os.cpu_count()} threads; Python "
        f"{platform.python_version()}, numpy {np.__version__}"
    )
    lines = [
        machine,
        "",
        "Median ms (min–max) of 3 runs at 10⁶ pairs, 1 run at 10⁷; peak MiB from tracemalloc; "
        "from numpy: the largest difference, the float reference's rounding (concord's "
        "values are exact sums rounded once).",
        "",
        "The one-shot functions keep the distinct pairs for the bootstrap (for integer "
        "ratings counted on one int64 key); on floats the exact sums take each value as an "
        "integer times a power of two, in Python integers (the time and the memory). An "
        "accumulator keeps no pairs.",
        "",
        "| pairs | ratings | what | median ms (× numpy) | min–max ms | peak MiB | from numpy |",
        "|---|---|---|---|---|---|---|",
        *("| " + " | ".join(r) + " |" for r in table),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        RESULTS.write_text(text)


if __name__ == "__main__":
    main()
