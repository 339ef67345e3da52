"""Two-rater kappa: concord against scikit-learn and a numpy bincount snippet, in one process.

Run ``python benchmarks/bench_kappa.py`` (or ``make bench``). It prints
markdown tables of median times over repeated runs, throughput and ratios:

* quadratic kappa on integer ratings, int64 and int8, n = 10^4 ... 10^7:
  ``quadratic_weighted_kappa``, ``cohen_kappa(weights="quadratic")``,
  ``cohen_kappa`` with a custom weight matrix, scikit-learn's
  ``cohen_kappa_score(weights="quadratic")``, the numpy ``bincount`` snippet
  used in Kaggle kernels (written here from the formula), and the floor for
  any exact method: a compiled loop (numba, compiled and warmed before
  timing) that reads both arrays once; numpy's ``a.sum(); b.sum()`` is a
  second, slower row. Every ratio is against the compiled read and the
  snippet timed in the same round-robin loop (scikit-learn in a loop of
  its own: the caches its work evicts would slow whichever call came next).
  Sizes run from 10² to 10⁷,
  with 131,072 ± 1 where the old engine switch was; concord's kernels are
  loaded first and have run once on each dtype, as in a process that has
  counted 2^25 values of it (``benchmarks/bench_cold.py`` times a fresh
  process); ``cohen_kappa`` unweighted is timed to ``.statistic``;
* string labels;
* the extra memory each call allocates (tracemalloc peak) and the cost of the
  first call in a fresh process, with and without numba's on-disk cache.

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
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numba
import numpy as np
import sklearn
from sklearn.metrics import cohen_kappa_score

import concord

K = 6


def median_time(fn: Callable[[], Any], repeat: int, budget: float = 20.0) -> float:
    """Median wall time of ``fn`` over ``repeat`` runs (fewer if it exceeds ``budget`` s)."""
    fn()  # warm-up: compilation, caches, page faults
    times = []
    start = time.perf_counter()
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
        if time.perf_counter() - start > budget and len(times) >= 3:
            break
    return statistics.median(times)


@numba.njit(cache=True, nogil=True)
def _read(a: np.ndarray, b: np.ndarray) -> int:  # pragma: no cover - compiled
    total = 0
    for i in range(a.shape[0]):
        total += a[i] + b[i]
    return total


def compiled_read(a: np.ndarray, b: np.ndarray) -> int:
    """The floor: one compiled pass that reads every value of both arrays."""
    return int(_read(a, b))


def bincount_qwk(a: np.ndarray, b: np.ndarray) -> float:
    """The numpy snippet of Kaggle kernels: confusion by bincount, then the k×k formula."""
    lo = min(a.min(), b.min())
    k = int(max(a.max(), b.max()) - lo + 1)
    o = np.bincount((a - lo) * k + (b - lo), minlength=k * k).reshape(k, k).astype(float)
    i, j = np.indices((k, k))
    w = (i - j) ** 2
    e = np.outer(o.sum(1), o.sum(0)) / o.sum()
    return float(1 - (w * o).sum() / (w * e).sum())


def data(n: int, dtype: Any, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    truth = rng.integers(0, K, n)
    noisy = np.clip(truth + rng.integers(-1, 2, n), 0, K - 1)
    return truth.astype(dtype), noisy.astype(dtype)


CUSTOM = np.abs(np.subtract.outer(np.arange(K), np.arange(K))) ** 1.5


def contenders(a: np.ndarray, b: np.ndarray) -> dict[str, Callable[[], Any]]:
    return {
        "compiled read of a and b": lambda: compiled_read(a, b),
        "numpy a.sum(); b.sum()": lambda: (a.sum(), b.sum()),
        "concord quadratic_weighted_kappa": lambda: concord.quadratic_weighted_kappa(a, b),
        "concord cohen_kappa unweighted": lambda: concord.cohen_kappa(a, b).statistic,
        "concord cohen_kappa quadratic": lambda: concord.cohen_kappa(a, b, weights="quadratic"),
        "concord cohen_kappa custom W": lambda: concord.cohen_kappa(a, b, weights=CUSTOM),
        "numpy bincount snippet": lambda: bincount_qwk(a, b),
        "sklearn cohen_kappa_score": lambda: cohen_kappa_score(a, b, weights="quadratic"),
    }


def round_robin(fns: dict[str, Callable[[], Any]], repeat: int) -> dict[str, list[float]]:
    """Time every function once per round, ``repeat`` rounds (fewer past 20 s); all warmed."""
    for fn in fns.values():
        fn()
    times: dict[str, list[float]] = {name: [] for name in fns}
    start = time.perf_counter()
    for _ in range(repeat):
        for name, fn in fns.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
        if time.perf_counter() - start > 20 and len(times[name]) >= 3:
            break
    return times


def integer_table(sizes: list[int], dtype: Any, repeat: int, rng: np.random.Generator) -> str:
    rows = []
    for n in sizes:
        a, b = data(n, dtype, rng)
        rounds = 200 if n <= 10**4 else 40 if n <= 10**5 else repeat  # small: noisy, cheap
        fns = contenders(a, b)
        # scikit-learn in its own loop: its milliseconds of work evict the caches, and
        # whichever call follows it would pay for that (at 10³ the next concord call
        # took 1.7-2× its time), not only concord's but the snippet's too
        slow = {"sklearn cohen_kappa_score": fns.pop("sklearn cohen_kappa_score")}
        times = round_robin(fns, max(repeat, rounds)) | round_robin(slow, repeat)
        med = {name: statistics.median(t) for name, t in times.items()}
        floor, snip = med["compiled read of a and b"], med["numpy bincount snippet"]
        sk = med["sklearn cohen_kappa_score"]
        for name, t in med.items():
            spread = f"{min(times[name]) * 1e3:.3g}–{max(times[name]) * 1e3:.3g}"
            rows.append(
                f"| {n:,} | {name} | {t * 1e3:.4g} | {spread} | {n / t / 1e6:,.0f} | "
                f"{sk / t:,.1f}× | {t / floor:.2f}× | {t / snip:.2f}× |"
            )
    head = (
        f"| n | {np.dtype(dtype).name} ratings, k = {K} | median ms | min–max ms | M pairs/s | "
        "vs sklearn | ÷ compiled read | ÷ snippet |\n|---|---|---|---|---|---|---|---|"
    )
    return head + "\n" + "\n".join(rows)


def string_table(n: int, repeat: int, rng: np.random.Generator) -> str:
    names = np.array(["none", "mild", "moderate", "severe", "critical", "fatal"])
    a, b = (names[x] for x in data(n, np.int64, rng))
    order = list(names)
    ours = median_time(
        lambda: concord.cohen_kappa(a, b, weights="quadratic", labels=order), repeat
    )
    sk = median_time(lambda: cohen_kappa_score(a, b, weights="quadratic", labels=order), repeat)
    return (
        "| n | string labels, k = 6, quadratic | median ms | vs sklearn |\n|---|---|---|---|\n"
        f"| {n:.0e} | concord cohen_kappa(labels=...) | {ours * 1e3:.1f} | {sk / ours:.1f}× |\n"
        f"| {n:.0e} | sklearn cohen_kappa_score(labels=...) | {sk * 1e3:.1f} | 1.0× |"
    )


def memory_table(n: int, rng: np.random.Generator) -> str:
    a, b = data(n, np.int64, rng)
    rows = []
    for name, fn in contenders(a, b).items():
        if "read" in name or "sum()" in name:
            continue
        fn()
        tracemalloc.start()
        fn()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append(f"| {name} | {peak / 1024:,.1f} KiB | {peak / (16 * n):.3f} |")
    return (
        f"| extra memory at n = {n:.0e} int64 (inputs: {16 * n / 2**20:,.0f} MiB) | "
        "tracemalloc peak | ÷ input size |\n|---|---|---|\n" + "\n".join(rows)
    )


FIRST_CALL = """
import time, numpy as np
t0 = time.perf_counter(); import concord; t1 = time.perf_counter()
rng = np.random.default_rng(0)
small = rng.integers(0, 6, 1000); big = rng.integers(0, 6, {n})
t2 = time.perf_counter(); concord.cohen_kappa(small, small[::-1], weights="quadratic")
t3 = time.perf_counter(); concord.cohen_kappa(big, big[::-1], weights="quadratic")
t4 = time.perf_counter(); concord.cohen_kappa(big, big[::-1], weights="quadratic")
t5 = time.perf_counter()
print(f"{{(t1-t0)*1e3:.0f}} {{(t3-t2)*1e3:.1f}} {{(t4-t3)*1e3:.0f}} {{(t5-t4)*1e3:.1f}}")
"""


def first_call_table(n: int) -> str:
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        env = {"NUMBA_CACHE_DIR": cache, "PATH": "/usr/bin:/bin"}
        env["PYTHONPATH"] = os.environ.get("PYTHONPATH", "")  # the concord being measured
        for label in ("cold (empty numba cache)", "warm (numba cache on disk)"):
            out = subprocess.run(
                [sys.executable, "-c", FIRST_CALL.format(n=n)],
                capture_output=True,
                text=True,
                check=True,
                env=env,
            ).stdout.split()
            rows.append(f"| {label} | {out[0]} | {out[1]} | {out[2]} | {out[3]} |")
    return (
        "| fresh process | import concord, ms | first call n = 1e3, ms | "
        f"first call n = {n:.0e}, ms | second call, ms |\n|---|---|---|---|---|\n"
        + "\n".join(rows)
    )


def large_k_table(k: int = 1000, n: int = 10**7, repeat: int = 7) -> str:
    """k categories, n pairs: exact cohen_kappa against the bincount snippet, interleaved."""
    rng = np.random.default_rng(2026)
    a = rng.integers(0, k, n)
    b = np.clip(a + rng.integers(-3, 4, n), 0, k - 1)
    custom = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) ** 1.5
    runs: dict[str, Callable[[], Any]] = {
        "numpy bincount snippet": lambda: bincount_qwk(a, b),
        "concord cohen_kappa unweighted": lambda: concord.cohen_kappa(a, b).statistic,
        "concord cohen_kappa quadratic": lambda: concord.cohen_kappa(a, b, weights="quadratic"),
        "concord cohen_kappa custom W": lambda: concord.cohen_kappa(a, b, weights=custom),
    }
    times: dict[str, list[float]] = {name: [] for name in runs}
    for fn in runs.values():
        fn()  # warm-up
    for _ in range(repeat):  # interleaved: the machine's noise hits every contender alike
        for name, fn in runs.items():
            t = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t)
    rows = []
    for name, fn in runs.items():
        tracemalloc.start()
        fn()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        ratios = [t / s for t, s in zip(times[name], times["numpy bincount snippet"], strict=True)]
        rows.append(
            f"| {name} | {statistics.median(times[name]) * 1e3:.0f} "
            f"({min(times[name]) * 1e3:.0f}–{max(times[name]) * 1e3:.0f}) | "
            f"{statistics.median(ratios):.2f}× | {peak / 2**20:,.1f} |"
        )
    return (
        f"| k = {k:,}, n = {n:.0e} pairs | median ms (min–max) | vs snippet (paired) | "
        "peak MiB |\n|---|---|---|---|\n" + "\n".join(rows)
    )


# Issue 30's rows above Krippendorff's: each in fresh processes that have not loaded numba
# (the numpy path a script's first calls take), against the snippet in the same process.
SMALL = """
import statistics, sys, time
import numpy as np
import concord

def snippet(a, b, w=None):
    lo = min(a.min(), b.min()); k = int(max(a.max(), b.max()) - lo + 1)
    o = np.bincount((a - lo) * k + (b - lo), minlength=k * k).reshape(k, k).astype(float)
    if w is None:
        i, j = np.indices((k, k)); w = (i - j) ** 2
    e = np.outer(o.sum(1), o.sum(0)) / o.sum()
    return float(1 - (w * o).sum() / (w * e).sum())

def pairs(n, k, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    return a, np.clip(a + rng.integers(-1 if k < 10 else -3, 2 if k < 10 else 4, n), 0, k - 1)

def timed(fn):
    t = time.perf_counter(); fn(); return time.perf_counter() - t

case, seed = sys.argv[1], int(sys.argv[2])
if case == "wide, numba loaded":  # a long-running process: the kernels are loaded
    from concord._tables import engines
    engines._kernels()
out = {}
if case == "first":  # the first three calls of a process, each beside the snippet
    a, b = pairs(10**7, 6, seed)
    for _ in range(3):
        out.setdefault("snippet", []).append(timed(lambda: snippet(a, b)))
        out.setdefault("qwk", []).append(timed(lambda: concord.quadratic_weighted_kappa(a, b)))
elif case == "small":  # n = 10**3, round-robin
    a, b = pairs(10**3, 6, seed)
    fns = {
        "snippet": lambda: snippet(a, b),
        "qwk": lambda: concord.quadratic_weighted_kappa(a, b),
        "cohen_kappa quadratic": lambda: concord.cohen_kappa(a, b, weights="quadratic").statistic,
    }
    for _ in range(2):
        [f() for f in fns.values()]
    for _ in range(400):
        for name, f in fns.items():
            out.setdefault(name, []).append(timed(f))
else:  # k = 1000 categories, 10**6 pairs; the snippet with the same W
    k = 1000
    a, b = pairs(10**6, k, seed)
    custom = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) ** 1.5
    unweighted = (np.arange(k)[:, None] != np.arange(k)[None, :]).astype(float)
    fns = {
        "snippet unweighted": lambda: snippet(a, b, unweighted),
        "cohen_kappa unweighted": lambda: concord.cohen_kappa(a, b).statistic,
        "snippet quadratic": lambda: snippet(a, b),
        "cohen_kappa quadratic": lambda: concord.cohen_kappa(a, b, weights="quadratic").statistic,
        "snippet custom W": lambda: snippet(a, b, custom),
        "cohen_kappa custom W": lambda: concord.cohen_kappa(a, b, weights=custom).statistic,
    }
    [f() for f in fns.values()]
    for _ in range(3):
        for name, f in fns.items():
            out.setdefault(name, []).append(timed(f))
assert "numba" not in sys.modules or "numba" in case, "the numpy path was to be measured"
print(repr(out))
"""


def small_rows(processes: int) -> str:
    """Issue 30's rows 1-4: fresh processes without numba, paired ratios to the snippet."""
    import ast

    pairs_of = {
        "first": [("qwk", "snippet", "QWK, 10⁷ int64 pairs, first three calls")],
        "small": [
            ("qwk", "snippet", "QWK, n = 10³"),
            ("cohen_kappa quadratic", "snippet", '`cohen_kappa(weights="quadratic")`, n = 10³'),
        ],
        "wide": [
            (f"cohen_kappa {w}", f"snippet {w}", f"`cohen_kappa`, k = 1000, 10⁶ pairs, {w}")
            for w in ("unweighted", "quadratic", "custom W")
        ],
        "wide, numba loaded": [
            (f"cohen_kappa {w}", f"snippet {w}", f"the same, {w}, numba loaded")
            for w in ("unweighted", "quadratic", "custom W")
        ],
    }
    rows = []
    for case, contenders in pairs_of.items():
        runs: dict[str, list[float]] = {}
        for seed in range(processes):
            done = subprocess.run(
                [sys.executable, "-c", SMALL, case, str(seed)],
                capture_output=True,
                text=True,
                check=True,
            )
            for name, t in ast.literal_eval(done.stdout).items():
                runs.setdefault(name, []).extend(t)
        for ours, ref, label in contenders:
            ratios = [x / y for x, y in zip(runs[ours], runs[ref], strict=True)]
            t, r = runs[ours], runs[ref]
            rows.append(
                f"| {label} | {_ms(t)} | {_ms(r)} | **{statistics.median(ratios):.2f}×** "
                f"({min(ratios):.2f}–{max(ratios):.2f}) |"
            )
    return (
        f"| fresh processes ({processes} each), numba not loaded unless said | "
        "concord ms, median (min–max) | "
        "snippet ms | ÷ snippet, paired: median (min–max) |\n|---|---|---|---|\n" + "\n".join(rows)
    )


def _ms(t: list[float]) -> str:
    scale = 1e3
    digits = 3 if statistics.median(t) < 1e-3 else 1
    return (
        f"{statistics.median(t) * scale:.{digits}f} "
        f"({min(t) * scale:.{digits}f}–{max(t) * scale:.{digits}f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=[10**2, 10**3, 10**4, 3 * 10**4, 10**5, 131_071, 131_073, 10**6, 10**7],
    )
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument(
        "--small",
        type=int,
        metavar="PROCESSES",
        help="only issue 30's small-input, first-call and k = 1000 rows, in PROCESSES "
        "fresh processes each (without numba unless a row says)",
    )
    args = parser.parse_args()
    if args.small:
        print(small_rows(args.small))
        return
    rng = np.random.default_rng(2026)
    concord._tables.engines._kernels()  # a long-running process: the kernels are loaded
    for dtype in (np.int64, np.int8):  # ... and have counted this dtype before
        warm = data(1 << 14, dtype, rng)
        concord.cohen_kappa(*warm), concord.quadratic_weighted_kappa(*warm)
    print(
        f"Machine: {platform.processor() or platform.machine()}, "
        f"{concord._tables.engines._n_threads()} "
        f"threads; Python {platform.python_version()}, numpy {np.__version__}, "
        f"scikit-learn {sklearn.__version__}, concord {concord.__version__}\n"
    )
    print(integer_table(args.sizes, np.int64, args.repeat, rng) + "\n")
    print(integer_table(args.sizes, np.int8, args.repeat, rng) + "\n")
    print(string_table(10**6, 5, rng) + "\n")
    print(memory_table(max(args.sizes), rng) + "\n")
    print(first_call_table(max(args.sizes)))
    print("\n" + large_k_table())


if __name__ == "__main__":
    main()
