"""One concord against a compiled read, at 10⁷ and 10⁸ pairs: run it once per version.

Old against new, as issue 13 asks ("nothing got slower at 10⁷–10⁸"): each
process times the concord it imports against a compiled single-thread loop
that reads both arrays once, so the ratios of two versions compare although
each ran in its own process. Run the versions alternately, for example::

    git archive 55856b5 src | tar -x -C /tmp/old
    for i in 1 2; do
        PYTHONPATH=/tmp/old/src python benchmarks/old_vs_new.py old
        PYTHONPATH=src python benchmarks/old_vs_new.py new
    done

``benchmarks/results/old_vs_new.md`` holds a run.
"""

from __future__ import annotations

import sys
from pathlib import Path

# numba imports the `coverage` package, which benchmarks/coverage.py would shadow
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import statistics
import time
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

import concord


@numba.njit(nogil=True, cache=False)  # type: ignore[misc]
def _read(a: np.ndarray, b: np.ndarray) -> int:  # pragma: no cover - compiled
    s = 0
    for i in range(a.size):
        s += a[i] + b[i]
    return s


def _time(f: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def _cases(a: np.ndarray, b: np.ndarray) -> dict[str, Callable[[], Any]]:
    return {
        "floor": lambda: _read(a, b),
        "qwk": lambda: concord.quadratic_weighted_kappa(a, b),
        "cohen": lambda: concord.cohen_kappa(a, b).statistic,
        "cohen_q": lambda: concord.cohen_kappa(a, b, weights="quadratic").statistic,
    }


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "this"
    rng = np.random.default_rng(0)
    for n in (10**7, 10**8):
        for dtype in (np.int64, np.int8):
            a = rng.integers(0, 6, n).astype(dtype)
            b = np.clip(a + rng.integers(-1, 2, n), 0, 5).astype(dtype)
            cases = _cases(a, b)
            for f in cases.values():  # compile and load the kernels
                f()
                f()
            times: dict[str, list[float]] = {k: [] for k in cases}
            for _ in range(9 if n == 10**7 else 5):
                for k, f in cases.items():
                    times[k].append(_time(f))
            floor = statistics.median(times["floor"])
            for k in ("qwk", "cohen", "cohen_q"):
                m = statistics.median(times[k])
                print(
                    f"{label} n={n:.0e} {np.dtype(dtype).name} {k}: {m * 1e3:.1f} ms, "
                    f"{m / floor:.2f}x floor ({floor * 1e3:.1f} ms)",
                    flush=True,
                )


if __name__ == "__main__":
    main()
