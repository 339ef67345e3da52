"""Issue 30's many-rater rows: each case beside its floor, interleaved, medians (min–max).

Run ``python benchmarks/bench_speed_multi.py [--rounds R] [--only NAME ...]``;
it prints a Markdown section per case (``benchmarks/results/speed_multi.md``
keeps the last run). Every case alternates with its reference within each
round, so the shared machine's noise falls on both alike; the ratio is the
median of the per-round ratios.

* ``alpha``: Krippendorff's α (nominal) of 10⁶ items × 5 raters (5 categories,
  10% missing) in fresh processes on the numpy path (numba not loaded, as in
  any process that has counted fewer than 2²⁵ values): the first call on them
  (after ``import concord`` and one α of 10 items, which loads α's modules:
  timed apart, the cold start is issue 30's row of its own) and the second, against a
  compiled read of the input (a numba loop over every cell, compiled first);
  the peak of traced memory (tracemalloc) of one call against the input's 40 MB.
* ``cliff``: α, Fleiss' κ and Gwet's AC1 at 10³ items × 20 and × 23 raters,
  and the ``krippendorff`` package's α on the same data.
* ``diagnostics``: ``rater_diagnostics`` (α) on 10³ items × R raters against
  R calls of α, each without one rater (``.statistic``).
* ``compare``: ``concord.compare`` of two models' QWK against one truth
  (10⁶ items, k = 6) with a 10⁴-resample percentile interval, against numpy
  doing the same paired multinomial bootstrap (joint table of the three codes,
  10⁴ multinomial draws, both QWKs per draw).
* ``evaluate``: ``concord.evaluate(groups=[QUESTION, L1])`` of 10⁶ rows
  (``bench_evaluate.py``'s data) against the same call without groups.
* ``counting``: one-shot Fleiss' κ of 3·10⁷ (``--big``: 3·10⁸) items × 3
  int8 ratings in a fresh process (numba's kernels loaded: the route of large
  inputs), its time and the peak of traced memory during the call against
  the input's size.
* ``kendall``: Kendall's W of 10⁶ × 10 normal floats against ``np.sort`` of
  each column (the floor of any ranking), and of 10⁶ × 10 integers 1–7.

Run it with another checkout's ``src`` first on ``PYTHONPATH`` to time that
version on the same machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

# numba imports the `coverage` package, which benchmarks/coverage.py would shadow
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import json
import os
import platform
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import concord

HERE = Path(__file__).resolve().parent


def ratings(n: int, raters: int, seed: int = 2026) -> np.ndarray:
    """n items × raters, 5 ordinal categories, neighbours confused, 10% missing."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 6, n)
    noise = rng.choice([-1, 0, 0, 0, 1], size=(n, raters))
    x = np.clip(truth[:, None] + noise, 1, 5).astype(np.float64)
    x[rng.random(x.shape) < 0.1] = np.nan
    return x


def interleaved(runs: dict[str, Callable[[], Any]], rounds: int) -> dict[str, list[float]]:
    for fn in runs.values():
        fn()  # warm-up: imports, caches
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, fn in runs.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return times


def row(name: str, times: list[float], ref: list[float], scale: float = 1e3) -> str:
    ratio = statistics.median(t / r for t, r in zip(times, ref, strict=True))
    unit = "ms" if scale == 1e3 else "s"
    return (
        f"| {name} | {statistics.median(times) * scale:,.1f} {unit} "
        f"({min(times) * scale:,.1f}–{max(times) * scale:,.1f}) | {ratio:,.2f}× |"
    )


def table(head: str, times: dict[str, list[float]], ref: str, scale: float = 1e3) -> str:
    lines = [f"| {head} | median (min–max) | ÷ {ref} |", "|---|---|---|"]
    lines += [row(name, t, times[ref], scale) for name, t in times.items()]
    return "\n".join(lines)


FRESH = """
import json, sys, time, tracemalloc
import numpy as np
x = np.load(sys.argv[1])
import numba
@numba.njit(cache=False)
def read(x):
    total = 0.0
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            v = x[i, j]
            if v == v:
                total += v
    return total
read(x[:2])
t = time.perf_counter(); read(x); floor = time.perf_counter() - t
t = time.perf_counter()
import concord
from concord._tables import engines
concord.krippendorff_alpha(x[:10]).statistic
imports = time.perf_counter() - t
t = time.perf_counter()
concord.krippendorff_alpha(x).statistic
first = time.perf_counter() - t
t = time.perf_counter()
v = concord.krippendorff_alpha(x).statistic
second = time.perf_counter() - t
tracemalloc.start()
concord.krippendorff_alpha(x).statistic
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
assert engines._kernels.cache_info().currsize == 0  # numba's kernels were never loaded
print(json.dumps([floor, first, second, imports, peak, v]))
"""


def alpha(rounds: int) -> str:
    x = ratings(10**6, 5)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.npy"
        np.save(path, x)
        got = []
        for _ in range(rounds):
            out = subprocess.run(
                [sys.executable, "-c", FRESH, str(path)],
                capture_output=True,
                text=True,
                check=True,
                env={**os.environ},
            ).stdout
            got.append(json.loads(out.strip().splitlines()[-1]))
    floor, first, second, imports = ([g[i] for g in got] for i in range(4))
    peaks, value = {g[4] for g in got}, got[0][5]
    times = {
        "compiled read of the input": floor,
        "α, first call on 10⁶ items": first,
        "α, second call": second,
        "(before: import concord + α of 10 items, its lazy imports)": imports,
    }
    return (
        "### Krippendorff's α, 10⁶ items × 5 raters, fresh processes, numpy path\n\n"
        + table("fresh process (one per round)", times, "compiled read of the input")
        + f"\n\nPeak traced memory of one α call: {max(peaks) / 2**20:,.1f} MiB "
        f"({max(peaks) / x.nbytes:.2f}× the {x.nbytes / 2**20:,.1f} MiB input); α = {value!r}."
    )


def cliff(rounds: int) -> str:
    try:
        import krippendorff
    except ImportError:  # pragma: no cover
        krippendorff = None
    lines = []
    for raters in (20, 23):
        x = ratings(1000, raters)
        runs: dict[str, Callable[[], Any]] = {
            f"α, {raters} raters": lambda x=x: concord.krippendorff_alpha(x).statistic,
            f"Fleiss' κ, {raters} raters": lambda x=x: concord.fleiss_kappa(x).statistic,
            f"Gwet's AC1, {raters} raters": lambda x=x: concord.gwet_ac(x).statistic,
        }
        if krippendorff is not None:
            runs[f"krippendorff package α, {raters} raters"] = lambda x=x: krippendorff.alpha(
                reliability_data=x.T, level_of_measurement="nominal"
            )
        lines.append((raters, interleaved(runs, rounds)))
    out = ["### α, Fleiss and AC1 at 10³ items × 20 and 23 raters, 5 categories\n"]
    twenty, twentythree = lines[0][1], lines[1][1]
    names = [n.rsplit(",", 1)[0] for n in twenty]
    out.append("| coefficient | 20 raters, ms | 23 raters, ms | 20 ÷ 23 | 20 ÷ the package |")
    out.append("|---|---|---|---|---|")
    pkg20 = twenty.get("krippendorff package α, 20 raters")
    for name in names:
        a, b = twenty[f"{name}, 20 raters"], twentythree[f"{name}, 23 raters"]
        ratio = statistics.median(p / q for p, q in zip(a, b, strict=True))
        vs = (
            f"{statistics.median(p / q for p, q in zip(a, pkg20, strict=True)):.2f}×"
            if pkg20
            else "—"
        )
        out.append(
            f"| {name} | {statistics.median(a) * 1e3:.2f} ({min(a) * 1e3:.2f}–"
            f"{max(a) * 1e3:.2f}) | {statistics.median(b) * 1e3:.2f} ({min(b) * 1e3:.2f}–"
            f"{max(b) * 1e3:.2f}) | {ratio:.2f}× | {vs} |"
        )
    return "\n".join(out)


def diagnostics(rounds: int, raters: list[int]) -> str:
    out = [
        "### `rater_diagnostics` (α), 10³ items × R raters, against R calls of α\n",
        "| R | rater_diagnostics | R α calls (one rater left out each) | ratio |",
        "|---|---|---|---|",
    ]
    medians = []
    for r in raters:
        x = ratings(1000, r)
        x[:, 0] = np.where(np.isnan(x[:, 0]), 3.0, x[:, 0])  # every item rated
        runs: dict[str, Callable[[], Any]] = {
            "diagnostics": lambda x=x: concord.rater_diagnostics(x),
            "alpha": lambda x=x, r=r: [
                concord.krippendorff_alpha(np.delete(x, j, axis=1)).statistic for j in range(r)
            ],
        }
        times = interleaved(runs, rounds)
        d, a = times["diagnostics"], times["alpha"]
        ratio = statistics.median(p / q for p, q in zip(d, a, strict=True))
        medians.append(statistics.median(d))
        out.append(
            f"| {r} | {statistics.median(d):.3f} s ({min(d):.3f}–{max(d):.3f}) | "
            f"{statistics.median(a):.3f} s ({min(a):.3f}–{max(a):.3f}) | {ratio:.2f}× |"
        )
    if len(raters) > 1:
        slope = np.polyfit(np.log(raters), np.log(medians), 1)[0]
        out.append(f"\nrater_diagnostics' time grows as R^{slope:.2f} over R = {raters}.")
    return "\n".join(out)


def compare(rounds: int) -> str:
    rng = np.random.default_rng(2027)
    n, k, resamples = 10**6, 6, 10**4
    truth = rng.integers(0, k, n)
    a = np.where(rng.random(n) < 0.6, truth, np.clip(truth + rng.integers(-2, 3, n), 0, 5))
    b = np.where(rng.random(n) < 0.7, truth, np.clip(truth + rng.integers(-2, 3, n), 0, 5))
    w = (np.arange(k)[:, None] - np.arange(k)) ** 2.0

    def qwk(t: np.ndarray) -> np.ndarray:
        rows, cols = t.sum(2), t.sum(1)
        total = rows.sum(1)
        agree = np.einsum("bij,ij->b", t, w)
        chance = np.einsum("bi,ij,bj->b", rows, w, cols)
        out: np.ndarray = 1 - agree * total / chance
        return out

    def numpy_paired() -> Any:
        cells = np.bincount((truth * k + a) * k + b, minlength=k**3)
        draws = np.random.default_rng(1).multinomial(n, cells / n, size=resamples)
        draws = draws.reshape(resamples, k, k, k).astype(np.float64)
        diff = qwk(draws.sum(axis=3)) - qwk(draws.sum(axis=2))
        return np.percentile(diff, [2.5, 97.5])

    def ours() -> Any:
        r = concord.compare(concord.cohen_kappa, (truth, a), (truth, b), weights="quadratic")
        return r.confidence_interval(method="bootstrap-percentile", n_resamples=resamples, rng=1)

    def setup() -> Any:
        return concord.compare(concord.cohen_kappa, (truth, a), (truth, b), weights="quadratic")

    times = interleaved(
        {
            "numpy paired multinomial bootstrap": numpy_paired,
            "concord.compare + percentile interval": ours,
            "concord.compare alone (setup, SE)": setup,
        },
        rounds,
    )
    return "### `compare`: paired bootstrap of a QWK difference, 10⁶ items, 10⁴ resamples\n\n" + (
        table("one call", times, "numpy paired multinomial bootstrap")
    )


def evaluate(rounds: int) -> str:
    import pandas as pd

    sys.path.insert(0, str(HERE))
    import bench_evaluate

    with tempfile.TemporaryDirectory() as folder:
        frame = pd.read_csv(bench_evaluate.data(10**6, Path(folder)))
    h1, score, h2 = frame["h1"], frame["score"], frame["h2"]
    groups = frame[["QUESTION", "L1"]]
    times = interleaved(
        {
            "evaluate without groups": lambda: concord.evaluate(h1, score, human2=h2, trim=(1, 6)),
            "evaluate(groups=[QUESTION, L1])": lambda: concord.evaluate(
                h1, score, human2=h2, groups=groups, trim=(1, 6)
            ),
        },
        rounds,
    )
    return "### `evaluate(groups=)`, 10⁶ rows\n\n" + table(
        "one call", times, "evaluate without groups", scale=1.0
    )


def kendall(rounds: int) -> str:
    rng = np.random.default_rng(1)
    floats = rng.normal(size=(10**6, 10))
    ints = rng.integers(1, 8, size=(10**6, 10))
    times = interleaved(
        {
            "np.sort of each column": lambda: [np.sort(floats[:, j]) for j in range(10)],
            "kendall_w, floats": lambda: concord.kendall_w(floats).statistic,
            "kendall_w, integers 1–7": lambda: concord.kendall_w(ints).statistic,
        },
        rounds,
    )
    w = concord.kendall_w(floats).statistic
    return (
        "### Kendall's W, 10⁶ items × 10 raters\n\n"
        + table("one call", times, "np.sort of each column", scale=1.0)
        + f"\n\nW of the floats: {w.hex()} ({w!r})."
    )


COUNTING = """
import json, sys, time, tracemalloc
import numpy as np
import concord
x = np.random.default_rng(0).integers(0, 6, (int(sys.argv[1]), 3), dtype=np.int8)
concord.fleiss_kappa(x[: 1 << 21]).statistic  # loads numba's kernels
t = time.perf_counter()
concord.fleiss_kappa(x).statistic
seconds = time.perf_counter() - t
tracemalloc.start()
v = concord.fleiss_kappa(x).statistic
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(json.dumps([seconds, peak, x.nbytes, v]))
"""


def counting(big: bool) -> str:
    n = 3 * 10 ** (8 if big else 7)
    out = subprocess.run(
        [sys.executable, "-c", COUNTING, str(n)], capture_output=True, text=True, check=True
    ).stdout
    seconds, peak, size, value = json.loads(out.strip().splitlines()[-1])
    return (
        f"### One-shot Fleiss' κ, {n:.0e} items × 3 raters, int8, numba's kernels\n\n"
        f"{seconds:.2f} s; peak traced memory during the call {peak / 2**20:,.0f} MiB, "
        f"{peak / size:.2f}× the {size / 2**20:,.0f} MiB input (beside it); κ = {value!r}."
    )


CASES = ("alpha", "cliff", "diagnostics", "compare", "evaluate", "counting", "kendall")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", nargs="+", choices=CASES, default=list(CASES))
    parser.add_argument("--raters", type=int, nargs="+", default=[50, 100, 200])
    parser.add_argument("--big", action="store_true", help="counting: 3e8 items, not 3e7")
    args = parser.parse_args()
    print(
        f"concord {concord.__version__} from {Path(concord.__file__).parent}; Python "
        f"{platform.python_version()}, numpy {np.__version__}; {platform.machine()}, "
        f"{os.cpu_count()} CPUs (shared); {args.rounds} rounds.\n",
        flush=True,
    )
    for name in args.only:
        if name == "diagnostics":
            print(diagnostics(args.rounds, args.raters), "\n", flush=True)
        elif name == "cliff":
            print(cliff(max(args.rounds, 15)), "\n", flush=True)
        elif name == "counting":
            print(counting(args.big), "\n", flush=True)
        else:
            print(globals()[name](args.rounds), "\n", flush=True)


if __name__ == "__main__":
    main()
