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


def interleaved(cases: dict[str, Callable[[], Any]], rounds: int) -> dict[str, list[float]]:
    """Seconds of each case over ``rounds`` round-robin rounds (the machine's noise spreads)."""
    times: dict[str, list[float]] = {label: [] for label in cases}
    for _ in range(rounds):
        for label, fn in cases.items():
            t = time.perf_counter()
            fn()
            times[label].append(time.perf_counter() - t)
    return times


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


def cells(label: str, times: list[float], base: list[float] | None, fn: Any) -> list[str]:
    median = statistics.median(times)
    ratio = f" ({times_text(median / statistics.median(base))})" if base else ""
    spread = f"{1e3 * min(times):,.1f}–{1e3 * max(times):,.1f}"
    return [label, f"{1e3 * median:,.1f}{ratio}", spread, f"{peak_mib(fn):,.1f}"]


def rows_for(n: int, kind: str, rounds: int) -> list[list[str]]:
    x, y = data(n, kind, np.random.default_rng(20261124))
    ccc, ba = concord.concordance_correlation, concord.bland_altman
    cases: dict[str, Callable[[], Any]] = {
        "numpy corrcoef (r only)": lambda: np.corrcoef(x, y),
        "numpy ρ_c": lambda: ccc_numpy(x, y),
        "concord ρ_c": lambda: ccc(x, y),
        "concord ρ_c, 10 batches": lambda: batched(ccc, x, y),
        "numpy bias, SD": lambda: ba_numpy(x, y),
        "concord Bland–Altman": lambda: ba(x, y),
        "concord Bland–Altman, 10 batches": lambda: batched(ba, x, y),
    }
    for fn in cases.values():  # warm: numba's kernels loaded, scipy imported
        fn()
    times = interleaved(cases, rounds)
    one, streamed, ref = ccc(x, y), batched(ccc, x, y), ccc_numpy(x, y)
    assert streamed.statistic == one.statistic, "accumulator differs from the one shot"
    one_ba, streamed_ba, (bias, sd) = ba(x, y), batched(ba, x, y), ba_numpy(x, y)
    assert (streamed_ba.bias, streamed_ba.sd) == (one_ba.bias, one_ba.sd), "accumulator differs"
    gaps = {
        "concord ρ_c": f"{abs(one.statistic - ref):.1e}",
        "concord ρ_c, 10 batches": "== one shot",
        "concord Bland–Altman": f"{max(abs(one_ba.bias - bias), abs(one_ba.sd - sd)):.1e}",
        "concord Bland–Altman, 10 batches": "== one shot",
    }
    out = []
    for label, fn in cases.items():
        reference = "numpy bias, SD" if "Bland" in label else "numpy corrcoef (r only)"
        base = None if label in (reference, "numpy bias, SD") else times[reference]
        row = cells(label, times[label], base, fn)
        out.append([f"{n:.0e}", kind, *row, gaps.get(label, "")])
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
    sizes = [(10**5, 1)] if args.quick else [(10**6, 7), (10**7, 3)]
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
        "Median ms (min–max) of 7 interleaved rounds at 10⁶ pairs, 3 at 10⁷, after one "
        "warm-up call each (numba's kernels loaded); × numpy: against np.corrcoef for ρ_c, "
        "against numpy's mean and SD for Bland–Altman; peak MiB from tracemalloc; from "
        "numpy: the largest difference, the float reference's rounding (concord's values "
        "are exact sums rounded once).",
        "",
        "The exact sums of float ratings are int64/128-bit buckets by exponent "
        "(concord._tables.dyadic), not Python integers; the one-shot functions keep the "
        "distinct pairs for the bootstrap (integer ratings: counted on one int64 key; float "
        "ratings: sorted only when a bootstrap asks). An accumulator keeps no pairs. "
        "Bland–Altman's fixed cost is scipy's non-central t quantiles (the exact limits' "
        "intervals), about 20 ms.",
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
