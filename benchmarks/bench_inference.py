"""Bootstrap speed: concord's multinomial bootstrap against naive resampling loops.

Run ``python benchmarks/bench_inference.py``. It times, as medians of
repeated runs:

* 10^4 bootstrap resamples of Cohen's quadratic kappa at n = 10^6 pairs
  (concord draws multinomial tables over the k×k cells), against a loop that
  resamples the pairs and calls scikit-learn's ``cohen_kappa_score``;
* 10^4 resamples of Fleiss' kappa at 10^4 items × 5 raters (concord draws
  multinomial counts over the distinct item patterns), against a loop that
  resamples the rows and calls statsmodels' ``aggregate_raters`` and
  ``fleiss_kappa``;
* the other coefficients' bootstraps at the same size, and the BCa interval
  (bootstrap plus jackknife);
* a paired bootstrap of a difference (``concord.compare``): quadratic kappa
  of two models against one truth, k = 6, 10^6 items, 10^4 resamples, the
  whole call (compare, the joint pattern table, the resamples, the
  percentile interval) against a loop that resamples the rows (truth, a, b)
  and calls scikit-learn's ``cohen_kappa_score`` twice per resample. The two
  are timed round-robin in one loop (``--repeat`` rounds, each one concord
  call and ``--naive-paired`` naive resamples); the table gives medians,
  min–max and the ratio of the medians. ``--paired-only`` runs just this.

The naive loops are timed on a few hundred resamples and reported per
resample and extrapolated to 10^4. The machine is shared and noisy: read
medians and ratios, not single times.
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
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats import inter_rater

import concord

B = 10_000


def median_time(fn: Callable[[], Any], repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def naive_two_rater(a: np.ndarray, b: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.empty(n_resamples)
    for i in range(n_resamples):
        rows = rng.integers(0, a.size, a.size)
        out[i] = cohen_kappa_score(a[rows], b[rows], weights="quadratic")
    return out


def naive_fleiss(x: np.ndarray, n_resamples: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.empty(n_resamples)
    for i in range(n_resamples):
        rows = rng.integers(0, x.shape[0], x.shape[0])
        out[i] = inter_rater.fleiss_kappa(inter_rater.aggregate_raters(x[rows])[0])
    return out


def naive_paired(
    truth: np.ndarray, a: np.ndarray, b: np.ndarray, n_resamples: int, seed: int
) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.empty(n_resamples)
    for i in range(n_resamples):
        rows = rng.integers(0, truth.size, truth.size)  # one draw of items for both models
        t = truth[rows]
        out[i] = cohen_kappa_score(t, b[rows], weights="quadratic") - cohen_kappa_score(
            t, a[rows], weights="quadratic"
        )
    return out


def paired(repeat: int, naive: int) -> list[str]:
    """Round-robin timing of the paired bootstrap of a QWK difference against the naive loop."""
    rng = np.random.default_rng(2027)
    n = 10**6
    truth = rng.integers(0, 6, n)
    a = np.where(rng.random(n) < 0.6, truth, np.clip(truth + rng.integers(-2, 3, n), 0, 5))
    b = np.where(rng.random(n) < 0.7, truth, np.clip(truth + rng.integers(-2, 3, n), 0, 5))

    def ours() -> Any:
        r = concord.compare(concord.cohen_kappa, (truth, a), (truth, b), weights="quadratic")
        return r.confidence_interval(method="bootstrap-percentile", n_resamples=B, rng=1)

    ours()
    times: list[float] = []
    per: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        ours()
        times.append(time.perf_counter() - start)
        start = time.perf_counter()
        naive_paired(truth, a, b, naive, 1)
        per.append((time.perf_counter() - start) / naive)
    mid, per_mid = statistics.median(times), statistics.median(per)
    return [
        "",
        "| paired bootstrap of a QWK difference, 10^6 items, k = 6, 10^4 resamples | median "
        "| min–max |\n|---|---|---|",
        f"| concord.compare + percentile interval | {mid:.3f} s "
        f"| {min(times):.3f}–{max(times):.3f} s |",
        f"| naive loop (rows resampled, scikit-learn twice), per resample | {per_mid:.3f} s "
        f"| {min(per):.3f}–{max(per):.3f} s |",
        f"| naive loop, 10^4 resamples (extrapolated) | {per_mid * B:,.0f} s | |",
        f"| ratio of medians (naive 10^4 / concord) | {per_mid * B / mid:,.0f}× | |",
    ]


def rows(label: str, ours: float, naive_per: float | None) -> str:
    naive = (
        f"{naive_per * 1e3:,.2f} ms | {naive_per * B:,.0f} s | {naive_per * B / ours:,.0f}×"
        if (naive_per is not None)
        else "— | — | —"
    )
    return f"| {label} | {ours:,.3f} s | {naive} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--naive", type=int, default=200, help="resamples timed in naive loops")
    parser.add_argument("--naive-paired", type=int, default=2, help="naive paired resamples/round")
    parser.add_argument("--paired-only", action="store_true", help="only the paired bootstrap")
    args = parser.parse_args()
    if args.paired_only:
        print("\n".join(paired(args.repeat, args.naive_paired)))
        return
    rng = np.random.default_rng(2026)
    print(
        f"Machine: {platform.machine()}; Python {platform.python_version()}, numpy "
        f"{np.__version__}, concord {concord.__version__}; {B:,} resamples\n"
    )
    head = (
        "| bootstrap, 10^4 resamples | concord | naive loop, per resample | naive, 10^4 "
        "(extrapolated) | concord faster |\n|---|---|---|---|---|"
    )
    lines = [head]

    n = 10**6
    truth = rng.integers(0, 6, n)
    a = truth
    b = np.clip(truth + rng.integers(-1, 2, n), 0, 5)
    kappa = concord.cohen_kappa(a, b, weights="quadratic")
    ours = median_time(lambda: kappa.bootstrap(B, rng=1), args.repeat)
    start = time.perf_counter()
    naive_two_rater(a, b, max(2, args.naive // 20), 1)
    naive_per = (time.perf_counter() - start) / max(2, args.naive // 20)
    lines.append(rows("Cohen's quadratic kappa, n = 10^6 pairs", ours, naive_per))
    lines.append(
        rows(
            "  the same, BCa interval (bootstrap + jackknife)",
            median_time(
                lambda: kappa.confidence_interval(method="bootstrap-bca", n_resamples=B, rng=1),
                args.repeat,
            ),
            None,
        )
    )

    items = 10**4
    truth = rng.integers(0, 5, items)
    x = np.where(rng.random((items, 5)) < 0.7, truth[:, None], rng.integers(0, 5, (items, 5)))
    fleiss = concord.fleiss_kappa(x)
    ours = median_time(lambda: fleiss.bootstrap(B, rng=1), args.repeat)
    start = time.perf_counter()
    naive_fleiss(x, args.naive, 1)
    naive_per = (time.perf_counter() - start) / args.naive
    lines.append(rows("Fleiss' kappa, 10^4 items × 5 raters", ours, naive_per))
    for name, func in (
        ("Gwet's AC1", concord.gwet_ac),
        ("Krippendorff's alpha", concord.krippendorff_alpha),
        ("Conger's kappa", concord.conger_kappa),
        ("Light's kappa", concord.light_kappa),
    ):
        result = func(x)
        lines.append(
            rows(
                f"{name}, 10^4 items × 5 raters",
                median_time(lambda r=result: r.bootstrap(B, rng=1), args.repeat),
                None,
            )
        )
    lines += paired(args.repeat, args.naive_paired)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
