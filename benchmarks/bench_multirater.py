"""Multi-rater agreement: concord against statsmodels, irrCAC and krippendorff, in one process.

Run ``python benchmarks/bench_multirater.py`` (``make bench`` installs the
peers). Data: n items × 5 raters, 5 ordinal categories, 10% of the ratings
missing at random. For each coefficient it prints the median time, the peak
memory (tracemalloc, a separate run) and the value each library returns:
with missing ratings statsmodels counts NaN as a category, so its Fleiss'
kappa differs. "concord (numpy only)" is concord without numba.

The machine is shared and noisy: read medians and ratios, not single times.
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
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

import concord
from concord._tables import engines as _count

try:  # the peers are optional: a missing one is reported, not fatal
    import krippendorff
except ImportError:  # pragma: no cover
    krippendorff = None
try:
    from irrCAC.raw import CAC
except ImportError:  # pragma: no cover
    CAC = None
try:
    from statsmodels.stats import inter_rater
except ImportError:  # pragma: no cover
    inter_rater = None

RATERS, CATEGORIES, MISSING = 5, 5, 0.10


def ratings(n: int, rng: np.random.Generator) -> np.ndarray:
    truth = rng.integers(1, CATEGORIES + 1, n)
    noise = rng.choice([-1, 0, 0, 0, 1], size=(n, RATERS))
    x = np.clip(truth[:, None] + noise, 1, CATEGORIES).astype(np.float64)
    x[rng.random(x.shape) < MISSING] = np.nan
    return x


def numpy_only(fn: Callable[[], Any]) -> Callable[[], Any]:
    def run() -> Any:
        saved = _count._NUMBA_MIN
        _count._NUMBA_MIN = 1 << 62
        try:
            return fn()
        finally:
            _count._NUMBA_MIN = saved

    return run


def contenders(x: np.ndarray) -> dict[str, dict[str, Callable[[], float]]]:
    frame = pd.DataFrame(x)
    out: dict[str, dict[str, Callable[[], float]]] = {
        "Fleiss' kappa": {
            "concord": lambda: concord.fleiss_kappa(x).statistic,
            "concord (numpy only)": numpy_only(lambda: concord.fleiss_kappa(x).statistic),
        },
        "Gwet's AC1": {
            "concord": lambda: concord.gwet_ac(x).statistic,
            "concord (numpy only)": numpy_only(lambda: concord.gwet_ac(x).statistic),
        },
        "Conger's kappa": {
            "concord": lambda: concord.conger_kappa(x).statistic,
            "concord (numpy only)": numpy_only(lambda: concord.conger_kappa(x).statistic),
        },
        "Krippendorff's alpha (nominal)": {
            "concord": lambda: concord.krippendorff_alpha(x).statistic,
            "concord (numpy only)": numpy_only(lambda: concord.krippendorff_alpha(x).statistic),
        },
    }
    if inter_rater is not None:
        out["Fleiss' kappa"]["statsmodels"] = lambda: float(
            inter_rater.fleiss_kappa(inter_rater.aggregate_raters(x)[0])
        )
    if CAC is not None:
        out["Fleiss' kappa"]["irrCAC"] = lambda: float(
            CAC(frame).fleiss()["est"]["coefficient_value"]
        )
        out["Gwet's AC1"]["irrCAC"] = lambda: float(CAC(frame).gwet()["est"]["coefficient_value"])
        out["Conger's kappa"]["irrCAC"] = lambda: float(
            CAC(frame).conger()["est"]["coefficient_value"]
        )
        out["Krippendorff's alpha (nominal)"]["irrCAC"] = lambda: float(
            CAC(frame).krippendorff()["est"]["coefficient_value"]
        )
    if krippendorff is not None:
        out["Krippendorff's alpha (nominal)"]["krippendorff"] = lambda: float(
            krippendorff.alpha(reliability_data=x.T, level_of_measurement="nominal")
        )
    return out


def median_time(fn: Callable[[], Any], repeat: int, budget: float) -> float:
    fn()
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < repeat and (len(times) < 3 or time.perf_counter() - start < budget):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def peak_memory(fn: Callable[[], Any]) -> int:
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def table(sizes: list[int], repeat: int, budget: float) -> str:
    rng = np.random.default_rng(2026)
    rows = []
    data = {n: ratings(n, rng) for n in sizes}
    for coefficient in contenders(data[sizes[0]]):
        for n in sizes:
            runs = contenders(data[n])[coefficient]
            times = {name: median_time(fn, repeat, budget) for name, fn in runs.items()}
            peers = [t for name, t in times.items() if not name.startswith("concord")]
            fastest = min(peers) if peers else float("nan")
            for name, fn in runs.items():
                t = times[name]
                rows.append(
                    f"| {coefficient} | {n:.0e} | {name} | {t * 1e3:,.1f} | "
                    f"{fastest / t:,.1f}× | {peak_memory(fn) / 2**20:,.1f} | {fn():.6f} |"
                )
    head = (
        "| coefficient | items | library | median ms | vs fastest peer | peak MiB | value |\n"
        "|---|---|---|---|---|---|---|"
    )
    return head + "\n" + "\n".join(rows)


def interleaved(runs: dict[str, Callable[[], Any]], repeat: int) -> dict[str, list[float]]:
    """Times of each run, taken in turn so the machine's noise hits every run alike."""
    for fn in runs.values():
        fn()  # warm-up: numba compilation, caches
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, fn in runs.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    return times


def spread(times: list[float], reference: list[float]) -> str:
    """Median ms (min–max) and the median of the paired ratios to ``reference``."""
    ratio = statistics.median(t / r for t, r in zip(times, reference, strict=True))
    return (
        f"{statistics.median(times) * 1e3:,.1f} ({min(times) * 1e3:,.1f}–"
        f"{max(times) * 1e3:,.1f}) | {ratio:,.1f}×"
    )


def read_floor() -> Callable[[np.ndarray], float]:
    """A compiled loop that reads every cell of the matrix once: the floor of any method."""
    import numba

    @numba.njit(cache=False, nogil=True)
    def read(x: np.ndarray) -> float:  # pragma: no cover - compiled
        total = 0.0
        for i in range(x.shape[0]):
            for j in range(x.shape[1]):
                v = x[i, j]
                if v == v:
                    total += v
        return total

    read(np.zeros((2, 2)))
    return read  # type: ignore[no-any-return]


def floor_table(n: int, repeat: int) -> str:
    """Fleiss, Gwet and α on n × 5 ratings against one read of the matrix."""
    x = ratings(n, np.random.default_rng(2026))
    read = read_floor()
    runs: dict[str, Callable[[], Any]] = {
        "one read of the ratings matrix": lambda: read(x),
        "Fleiss' kappa": lambda: concord.fleiss_kappa(x).statistic,
        "Gwet's AC1": lambda: concord.gwet_ac(x).statistic,
        "Krippendorff's alpha (nominal)": lambda: concord.krippendorff_alpha(x).statistic,
    }
    times = interleaved(runs, repeat)
    floor = times["one read of the ratings matrix"]
    rows = [f"| {name} | {spread(t, floor)} |" for name, t in times.items()]
    return (
        f"| {n:.0e} items × {RATERS} raters | median ms (min–max) | vs one read |\n"
        "|---|---|---|\n" + "\n".join(rows)
    )


def conger_table(n: int, raters: list[int], repeat: int) -> str:
    """Conger's kappa against Fleiss' kappa on the same data, as the raters grow."""
    rows = []
    for r in raters:
        rng = np.random.default_rng(2026)
        truth = rng.integers(1, CATEGORIES + 1, n)
        noise = rng.choice([-1, 0, 0, 0, 1], size=(n, r))
        x = np.clip(truth[:, None] + noise, 1, CATEGORIES).astype(np.float64)
        x[rng.random(x.shape) < MISSING] = np.nan
        times = interleaved(
            {
                "fleiss": lambda x=x: concord.fleiss_kappa(x).statistic,
                "conger": lambda x=x: concord.conger_kappa(x).statistic,
                "fleiss_se": lambda x=x: concord.fleiss_kappa(x).standard_error,
                "conger_se": lambda x=x: concord.conger_kappa(x).standard_error,
            },
            repeat,
        )
        rows.append(
            f"| {r} | {spread(times['fleiss'], times['fleiss']).split(' |')[0]} | "
            f"{spread(times['conger'], times['fleiss'])} | "
            f"{spread(times['conger_se'], times['fleiss_se'])} |"
        )
    return (
        f"| raters ({n:.0e} items) | Fleiss median ms (min–max) | "
        "Conger median ms (min–max) | Conger ÷ Fleiss | "
        "Conger with SE, median ms (min–max) | ÷ Fleiss with SE |\n"
        "|---|---|---|---|---|---|\n" + "\n".join(rows)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**3, 10**5, 10**6])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per contender")
    parser.add_argument("--no-peers", action="store_true", help="only the floor and Conger tables")
    args = parser.parse_args()
    print(
        f"Machine: {platform.machine()}, {_count._n_threads()} threads; Python "
        f"{platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}; "
        f"{RATERS} raters, {CATEGORIES} categories, {MISSING:.0%} missing\n"
    )
    if not args.no_peers:
        print(table(args.sizes, args.repeat, args.budget) + "\n")
    print(floor_table(max(args.sizes), args.repeat))
    print("\n" + conger_table(10**5, [5, 20, 100], args.repeat))


if __name__ == "__main__":
    main()
