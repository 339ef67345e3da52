"""rater_diagnostics: leave one rater out, in one process, against the naive loop.

Run ``python benchmarks/bench_raters.py [--items N] [--raters R] [--repeats K]``.
Data: N items × R raters, 5 categories, 70% of the ratings the item's true
category, 5% missing. For each coefficient it times, round-robin in one
loop: the coefficient once on the panel ("one"), ``concord.rater_diagnostics``
(every rater left out with its paired change, each rater against the panel
and the pairwise kappa matrix) and the naive loop a user writes,
``concord.compare(function, panel, panel without r)`` for each r ("naive",
the changes only). The machine is shared and noisy: read medians and ratios.
"""

from __future__ import annotations

import sys
from pathlib import Path

# numba imports the `coverage` package, which benchmarks/coverage.py would shadow
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import concord


def _panel(n: int, raters: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    truth = rng.integers(1, 6, n)
    noise = rng.integers(1, 6, (n, raters))
    x = np.where(rng.random((n, raters)) < 0.7, truth[:, None], noise).astype(float)
    x[rng.random((n, raters)) < 0.05] = np.nan
    x[:, 0] = np.where(np.isnan(x[:, 0]), truth, x[:, 0])  # every item rated: compare needs it
    return x


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--raters", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    x = _panel(args.items, args.raters)
    print(f"{args.items} items x {args.raters} raters, medians of {args.repeats} (min-max)")
    for function in (concord.krippendorff_alpha, concord.fleiss_kappa):
        runs: dict[str, Callable[[], Any]] = {
            "one": lambda f=function: f(x),
            "rater_diagnostics": lambda f=function: concord.rater_diagnostics(x, function=f),
            "naive": lambda f=function: [
                concord.compare(f, x, np.delete(x, r, axis=1), labels=[1, 2, 3, 4, 5])
                for r in range(x.shape[1])
            ],
        }
        times: dict[str, list[float]] = {name: [] for name in runs}
        for run in runs.values():
            run()  # warm: numba compiles, imports load
        for _ in range(args.repeats):
            for name, run in runs.items():
                start = time.perf_counter()
                run()
                times[name].append(time.perf_counter() - start)
        ours = statistics.median(times["rater_diagnostics"])
        for name, got in times.items():
            med = statistics.median(got)
            print(
                f"{function.__name__:>20} {name:>18} {med:8.3f} s "
                f"({min(got):.3f}-{max(got):.3f}) {med / ours:6.2f}x rater_diagnostics"
            )


if __name__ == "__main__":
    main()
