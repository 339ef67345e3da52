"""Continuous ratings: concord's ICC against pingouin and a numpy two-way ANOVA, in one process.

Run ``python benchmarks/bench_continuous.py`` (``make bench`` installs the
peers); it writes ``benchmarks/results/continuous.md``. Data: n items × k
raters of normal scores (item effect + rater noise), complete.

* 60,000 items × 2 raters: pingouin issue #257's case (``intraclass_corr``
  on 120,000 long rows).
* 10⁶ items × 5 raters: concord and the numpy ANOVA only; pingouin is timed
  at 60,000 items alone (its long-form groupby makes 10⁶ × 5 a minutes-long run).
  concord's numba kernels are loaded first, as in a process that has counted
  2**25 values (``concord._tables.engines``); a row without them shows numpy alone.
  At 60,000 × 2 they are not used: numpy is as fast there.

What each row measures: concord ``icc(x)`` is one form (ICC(A,1)) from the
wide matrix, its F test included (p-value and interval are computed when
asked); ``forms()`` adds all six forms with F tests, p-values and F-based
intervals (``to_dict()``); the long form starts from the 120,000-row table
pingouin needs; pingouin's ``intraclass_corr`` takes that long table and
returns all six forms with F tests and intervals. "4x rounded" is the same
data on a whole-number scale, where concord's sums are exact integers.

The contenders run round-robin (one call each per round), so that the
machine's noise falls on all of them alike: medians with min–max, the ratio
to pingouin, and the peak memory of one call (tracemalloc, a separate run;
numpy reports its buffers to it), beyond the input. statsmodels' ``anova_lm``
needs a design with one dummy column per item (60,000 × 60,001 floats, 29
GB), so the reference ANOVA is the textbook numpy one: row and column means,
n × k residuals.
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pandas as pd

import concord
from concord._coefficients.continuous import icc_sums
from concord._tables import engines

try:  # the peer is optional: a missing one is reported, not fatal
    import pingouin
except ImportError:  # pragma: no cover
    pingouin = None

RESULTS = Path(__file__).resolve().parent / "results" / "continuous.md"


def scores(n: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """Return n items × k raters: an item effect plus each rater's noise."""
    return rng.normal(size=(n, 1)) + rng.normal(size=(n, k))


def numpy_anova(x: np.ndarray) -> float:
    """ICC(A,1) from the textbook two-way ANOVA (Shrout & Fleiss 1979, Table 1)."""
    n, k = x.shape
    grand = x.mean()
    rows, cols = x.mean(axis=1), x.mean(axis=0)
    msr = k * ((rows - grand) ** 2).sum() / (n - 1)
    msc = n * ((cols - grand) ** 2).sum() / (k - 1)
    resid = x - rows[:, None] - cols[None, :] + grand
    mse = (resid**2).sum() / ((n - 1) * (k - 1))
    return float((msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n))


@contextmanager
def numpy_only() -> Iterator[None]:
    """Run concord's ICC without its numba kernels, as without concord[fast]."""
    saved = icc_sums._load
    icc_sums._load = lambda: None  # type: ignore[assignment]
    try:
        yield
    finally:
        icc_sums._load = saved  # type: ignore[assignment]


def _numpy_icc(x: np.ndarray) -> float:
    with numpy_only():
        return concord.icc(x).statistic


def icc_contenders(x: np.ndarray, peers: bool) -> dict[str, Callable[[], float]]:
    """The calls timed on x, each returning ICC(A,1)."""
    n, k = x.shape
    long = pd.DataFrame(
        {"item": np.repeat(np.arange(n), k), "rater": np.tile(np.arange(k), n), "score": x.ravel()}
    )
    whole = np.round(4 * x)  # scores on a whole-number scale: exact integer sums
    out: dict[str, Callable[[], float]] = {
        "concord `icc(x)`": lambda: concord.icc(x).statistic,
    }
    if not peers:  # at 60,000 × 2 the kernels are not used: numpy is as fast
        out["concord `icc(x)`, numpy only (without concord[fast])"] = lambda: _numpy_icc(x)
    out |= {
        "concord `icc(4x rounded)`, whole-number scores, exact sums": lambda: (
            concord.icc(whole).statistic
        ),
        "concord `icc(x).forms()`, six forms with F and CI": lambda: (
            concord.icc(x).forms().to_dict()[2]["statistic"]
        ),
        "concord `icc(long, item=, rater=, rating=)`": lambda: (
            concord.icc(long, item="item", rater="rater", rating="score").statistic
        ),
        "numpy two-way ANOVA, ICC(A,1) only": lambda: numpy_anova(x),
    }
    if peers and pingouin is not None:
        out["pingouin `intraclass_corr`, six forms with F and CI"] = lambda: float(
            pingouin.intraclass_corr(long, "item", "rater", "score")["ICC"].iloc[1]
        )
    return out


def interleaved(runs: dict[str, Callable[[], Any]], repeat: int) -> dict[str, list[float]]:
    """Time each call once per round, round-robin; return seconds per call."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for fn in runs.values():
        fn()  # warm: imports, first-call caches
    for _ in range(repeat):
        for name, fn in runs.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return times


def peak_memory(fn: Callable[[], Any]) -> int:
    """Peak bytes allocated during one call (tracemalloc)."""
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def _ms(seconds: float) -> str:
    ms = 1e3 * seconds
    return f"{ms:.3g}" if ms < 100 else f"{ms:,.0f}"


def icc_tables(repeat: int = 15, big: int = 1_000_000) -> str:
    """Return the ICC tables: 60,000 × 2 with pingouin, then big × 5 without."""
    rng = np.random.default_rng(20261124)
    parts = []
    for n, k, peers, rounds in ((60_000, 2, True, repeat), (big, 5, False, max(5, repeat // 3))):
        x = scores(n, k, rng)
        if not peers:  # as in a process that has counted 2**25 values: the kernels loaded
            engines._kernels()
        runs = icc_contenders(x, peers)
        times = interleaved(runs, rounds)
        reference = next((t for name, t in times.items() if "pingouin" in name), None)
        head = f"| {n:,} items × {k} raters, {rounds} rounds | median ms | min–max ms |"
        head += " pingouin ÷ this |" if reference else ""
        head += " peak MiB beyond the input | ICC(A,1) |"
        lines = [head, "|---" * (head.count("|") - 1) + "|"]
        for name, fn in runs.items():
            t = times[name]
            row = f"| {name} | {_ms(statistics.median(t))} | {_ms(min(t))}–{_ms(max(t))} |"
            if reference:
                row += f" {statistics.median(reference) / statistics.median(t):.1f}× |"
            row += f" {peak_memory(fn) / 2**20:.2f} | {fn():.6f} |"
            lines.append(row)
        parts.append("\n".join(lines))
        parts.append(f"(input: {x.nbytes / 2**20:.1f} MiB of float64)")
    return "\n\n".join(parts)


def header() -> str:
    versions = [f"numpy {np.__version__}", f"pandas {pd.__version__}"]
    if pingouin is not None:
        versions.append(f"pingouin {pingouin.__version__}")
    else:
        versions.append("pingouin not installed: pip install 'concord-agreement[bench]'")
    return (
        f"Python {platform.python_version()}, {', '.join(versions)}, "
        f"{platform.machine()}, concord {concord.__version__}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="rounds at 60,000 items")
    parser.add_argument("--big", type=int, default=1_000_000, help="items of the 5-rater case")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    text = "\n\n".join(
        [
            "# Continuous ratings",
            header(),
            "## Intraclass correlation",
            icc_tables(args.repeat, args.big),
            "The machine is shared and noisy: the rounds are interleaved so that the noise"
            " falls on every row alike; compare ratios within a table, not times across runs.",
        ]
    )
    print(text)
    args.output.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
