"""Dawid & Skene's EM: concord.consensus(method="dawid-skene") against crowd-kit's DawidSkene.

Run ``python benchmarks/bench_crowds.py`` in an environment with crowd-kit (``--quick``:
one round at 10⁴ items, nothing written). The data: 10⁵ items × 10 workers, 3 classes,
workers right with probability 0.55 to 0.85 (else a uniform label), 10% of the ratings
missing. Both take the same long table (task, worker, label), built before the clock starts.

Two comparisons: each library at its own defaults (crowd-kit stops when its evidence lower
bound rises by less than 1e-5; concord when no posterior moves by 1e-10, so it may run more
iterations), and both at exactly 20 iterations (the same start and steps, so the posteriors
agree to rounding): the time per EM step. The machine is shared and noisy: read medians.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import concord

RESULTS = Path(__file__).parent / "results" / "crowds.md"


def data(
    n: int, workers: int = 10, k: int = 3, seed: int = 20261127, text: bool = True
) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    skill = rng.uniform(0.55, 0.85, workers)
    right = rng.random((n, workers)) < skill
    labels = np.where(right, truth[:, None], rng.integers(0, k, (n, workers)))
    keep = rng.random((n, workers)) >= 0.1
    task, worker = np.nonzero(keep)
    label = np.char.add("c", labels[keep].astype(str)) if text else labels[keep]
    return pd.DataFrame({"task": task, "worker": worker, "label": label})


def interleaved(cases: dict[str, Callable[[], Any]], rounds: int) -> dict[str, list[float]]:
    """Seconds of each case over ``rounds`` round-robin rounds (no warm-up: each run is long)."""
    times: dict[str, list[float]] = {label: [] for label in cases}
    for _ in range(rounds):
        for label, fn in cases.items():
            t = time.perf_counter()
            fn()
            times[label].append(time.perf_counter() - t)
    return times


def main() -> None:
    from crowdkit.aggregation import DawidSkene

    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    n = 10_000 if args.quick else 100_000
    rounds = 1 if args.quick else args.rounds
    df, ints = data(n), data(n, text=False)
    long = {"item": "task", "rater": "worker", "rating": "label"}

    def ours(frame: pd.DataFrame = df, **kw: Any) -> Any:
        return concord.consensus(frame, method="dawid-skene", **long, **kw)

    def theirs(frame: pd.DataFrame = df, **kw: Any) -> Any:
        return DawidSkene(**kw).fit(frame)

    cases = {
        ("defaults", "concord"): ours,
        ("defaults", "crowd-kit"): theirs,
        ("20 iterations", "concord"): lambda: ours(max_iter=20, tol=1e-300),
        ("20 iterations", "crowd-kit"): lambda: theirs(n_iter=20, tol=-np.inf),
        ("20 iterations, integer labels", "concord"): lambda: ours(ints, max_iter=20, tol=1e-300),
        ("20 iterations, integer labels", "crowd-kit"): lambda: theirs(
            ints, n_iter=20, tol=-np.inf
        ),
    }
    times = interleaved({f"{a}|{b}": fn for (a, b), fn in cases.items()}, rounds)
    ck_default, c_default = theirs(), ours()
    ck20, c20 = theirs(n_iter=20, tol=-np.inf), ours(max_iter=20, tol=1e-300)

    def diff(ck: Any, c: Any) -> float:
        probas = ck.probas_.loc[[int(t) for t in c.items], list(c.categories)].to_numpy()
        return float(np.abs(probas - c.posteriors).max())

    ck_int, c_int = theirs(ints, n_iter=20, tol=-np.inf), ours(ints, max_iter=20, tol=1e-300)
    iters = {key: 20 for key in times}
    iters["defaults|concord"] = c_default.n_iter
    iters["defaults|crowd-kit"] = len(ck_default.loss_history_)
    diffs = {
        "defaults": diff(ck_default, c_default),
        "20 iterations": diff(ck20, c20),
        "20 iterations, integer labels": diff(ck_int, c_int),
    }
    lines = report(times, iters, diffs, n, rounds)
    print("\n".join(lines))
    if not args.quick:
        RESULTS.write_text("\n".join(lines) + "\n")


def report(
    times: dict[str, list[float]],
    iters: dict[str, int],
    diffs: dict[str, float],
    n: int,
    rounds: int,
) -> list[str]:
    import crowdkit

    version = getattr(crowdkit, "__version__", "")
    lines = [
        f"Machine: {platform.machine()}, shared and noisy; Python {platform.python_version()}, "
        f"numpy {np.__version__}, pandas {pd.__version__}, crowd-kit {version}",
        "",
        f"Dawid & Skene's EM on {n:,} items × 10 workers, 3 classes, 10% missing (long table; "
        "labels 'c0', 'c1', 'c2', or 0, 1, 2 where said). "
        f"Seconds over {rounds} interleaved rounds: median (min–max); × concord: crowd-kit's "
        "median over concord's; max |Δ posterior|: crowd-kit's posteriors against concord's.",
        "",
        "| run | library | iterations | median s (min–max) | × concord | max abs Δ posterior |",
        "|---|---|---|---|---|---|",
    ]
    for key, seconds in times.items():
        run, lib = key.split("|")
        med = statistics.median(seconds)
        base = statistics.median(times[f"{run}|concord"])
        ratio = "" if lib == "concord" else f"{med / base:.0f}×"
        lines.append(
            f"| {run} | {lib} | {iters[key]} | {med:.2f} ({min(seconds):.2f}–{max(seconds):.2f}) "
            f"| {ratio} | {diffs[run]:.1e} |"
        )
    return lines


if __name__ == "__main__":
    sys.exit(main())
