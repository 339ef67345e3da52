"""Cut points: concord's exact optimum against the Kaggle "OptimizedRounder", side by side.

Run ``python benchmarks/bench_thresholds.py``. For n in {10^4, 10^5, 10^6}
and 20 synthetic regression outputs per size (k = 6 grades; the class
balance and the noise vary from dataset to dataset), it fits cut points with

* ``concord.optimize_thresholds`` (exact: Dinkelbach + dynamic programming);
* the OptimizedRounder as Kaggle kernels use it: scipy's Nelder-Mead from
  the start [0.5, 1.5, 2.5, 3.5, 4.5], each step grading with ``pd.cut``
  and scoring with scikit-learn's quadratic ``cohen_kappa_score``;

and reports both times and the QWK each reaches on the fitting data. It
then measures the optimism of in-sample QWK: the exact cut points' QWK on
the data they were fitted to, minus ``cross_validated_kappa`` (5 folds).

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
from functools import partial

import numpy as np
import pandas as pd
import scipy
from scipy.optimize import minimize
from sklearn.metrics import cohen_kappa_score

import concord

K = 6
START = [0.5, 1.5, 2.5, 3.5, 4.5]


def dataset(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Grades 0..5 with a random class balance, and a noisy, compressed regression score."""
    balance = rng.dirichlet(np.full(K, 2.0))
    truth = rng.choice(K, size=n, p=balance)
    noise = rng.uniform(0.3, 1.3)
    shrink = rng.uniform(0.6, 1.0)  # regression towards the mean, as fitted models do
    mean = truth.mean()
    score = mean + shrink * (truth - mean) + rng.normal(0, noise, n)
    return truth, score


def rounder_loss(coef: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    grades = pd.cut(x, [-np.inf, *np.sort(coef), np.inf], labels=list(range(K)))
    return -cohen_kappa_score(y, grades, weights="quadratic")


def optimized_rounder(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    fitted = minimize(partial(rounder_loss, x=x, y=y), START, method="nelder-mead")
    return np.asarray(fitted.x)


def qwk(y: np.ndarray, x: np.ndarray, cuts: np.ndarray) -> float:
    grades = np.searchsorted(np.sort(cuts), x, side="left")
    return float(cohen_kappa_score(y, grades, weights="quadratic"))


def run(sizes: list[int], datasets: int, seed: int) -> str:
    rng = np.random.default_rng(seed)
    rows = []
    for n in sizes:
        ours_t, peer_t, ours_q, peer_q, optimism, wins = [], [], [], [], [], 0
        for _ in range(datasets):
            y, x = dataset(n, rng)
            start = time.perf_counter()
            best = concord.optimize_thresholds(y, x)
            ours_t.append(time.perf_counter() - start)
            start = time.perf_counter()
            cuts = optimized_rounder(x, y)
            peer_t.append(time.perf_counter() - start)
            ours_q.append(best.statistic)
            peer_q.append(qwk(y, x, cuts))
            wins += best.statistic >= peer_q[-1] - 1e-12
            cv = concord.cross_validated_kappa(y, x, rng=0)
            optimism.append(best.statistic - cv.statistic)
        gap = np.array(ours_q) - np.array(peer_q)
        rows.append(
            f"| {n:.0e} | {statistics.median(ours_t):.3f} | {statistics.median(peer_t):.2f} | "
            f"{statistics.median(peer_t) / statistics.median(ours_t):,.0f}× | "
            f"{statistics.median(ours_q):.4f} | {statistics.median(peer_q):.4f} | "
            f"{wins}/{datasets} | {gap.mean():+.4f} (max {gap.max():+.4f}) | "
            f"{statistics.median(optimism):+.4f} (max {max(optimism):+.4f}) |"
        )
    head = (
        "| n | concord s | OptimizedRounder s | speed-up | concord QWK | OptimizedRounder QWK | "
        "concord ≥ rounder | QWK gained, mean | in-sample − out-of-fold QWK, median |\n"
        "|---|---|---|---|---|---|---|---|---|"
    )
    return head + "\n" + "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**4, 10**5, 10**6])
    parser.add_argument("--datasets", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(
        f"Machine: {platform.machine()}; Python {platform.python_version()}, numpy "
        f"{np.__version__}, scipy {scipy.__version__}, concord {concord.__version__}; "
        f"k = {K}, {args.datasets} datasets per size (medians)\n"
    )
    print(run(args.sizes, args.datasets, args.seed))


if __name__ == "__main__":
    main()
