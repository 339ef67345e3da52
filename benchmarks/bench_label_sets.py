"""Krippendorff's alpha with the MASI distance on label sets, against NLTK's AnnotationTask.

Run ``python benchmarks/bench_label_sets.py`` (``--quick``: smaller sizes).
Each of n items is rated by 5 raters who each choose a set of 1-4 of 20
labels (a shared "true" label with probability 0.6, plus random ones;
10% of the ratings missing), so the distinct sets that occur number in the
thousands. concord's α (``level="masi"``) is exact; NLTK's
``AnnotationTask(data, distance=masi_distance).alpha()`` loops in Python
over the items and the pairs of distinct sets, so it is timed up to
``--nltk-max`` items (default 10⁴; 10⁵ takes it minutes) and the two are
checked equal (to 1e-9). Beyond, NLTK's time is estimated from its time per
item at the largest size it ran (a lower bound: its loop over pairs of sets
grows faster); concord's own time is measured at every size. Results:
benchmarks/results/label_sets.md.

The machine is shared and noisy: read medians and ratios, not single times.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import concord

RATERS, LABELS = 5, 20


def label_sets(n: int, seed: int = 0) -> np.ndarray:
    """Return n items × 5 raters of label sets (frozensets of 'L0'..'L19'), 10% missing."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, LABELS, n)
    extra = rng.integers(0, LABELS, (n, RATERS, 3))
    sizes = rng.integers(0, 4, (n, RATERS))
    keep_truth = rng.random((n, RATERS)) < 0.6
    missing = rng.random((n, RATERS)) < 0.1
    names = [f"L{v}" for v in range(LABELS)]
    out = np.empty((n, RATERS), dtype=object)
    for i in range(n):
        for j in range(RATERS):
            if missing[i, j]:
                continue
            chosen = {names[v] for v in extra[i, j, : sizes[i, j]]}
            if keep_truth[i, j] or not chosen:
                chosen.add(names[truth[i]])
            out[i, j] = frozenset(chosen)
    return out


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, value = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def nltk_alpha(data: np.ndarray) -> float:
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import masi_distance

    triples = [
        (f"c{j}", f"i{i}", data[i, j])
        for i in range(data.shape[0])
        for j in range(data.shape[1])
        if data[i, j] is not None
    ]
    return float(AnnotationTask(triples, distance=masi_distance).alpha())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--nltk-max", type=int, default=10_000, metavar="N")
    args = parser.parse_args()
    every = (300, 1000) if args.quick else (1000, 3000, 10_000, 100_000)
    nltk_sizes = tuple(n for n in every if n <= args.nltk_max)
    sizes = (1000, 10_000) if args.quick else (1000, 10_000, 100_000)
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    print("| items | distinct sets | concord (s) | NLTK (s) | speed-up |")
    print("|---:|---:|---:|---:|---:|")
    nltk_rate = None
    for n in sorted(set(sizes) | set(nltk_sizes)):
        data = label_sets(n)
        q = len({v for v in data.ravel() if v is not None})
        ours, r = timed(lambda d=data: concord.krippendorff_alpha(d, level="masi"), 3)
        if n in nltk_sizes:
            theirs, want = timed(lambda d=data: nltk_alpha(d), 1)
            assert abs(r.statistic - want) < 1e-9, (r.statistic, want)
            nltk_rate = theirs / n
            shown, ratio = f"{theirs:.2f}", f"{theirs / ours:.0f}×"
        else:
            assert nltk_rate is not None
            estimate = nltk_rate * n  # at least: NLTK's time per item grows with q
            shown, ratio = f"≥ {estimate:.0f} (est.)", f"≥ {estimate / ours:.0f}×"
        print(f"| {n:,} | {q:,} | {ours:.3f} | {shown} | {ratio} |")


if __name__ == "__main__":
    main()
