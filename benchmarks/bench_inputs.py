"""Inputs as users pass them: Python lists, strings, Categoricals, Arrow strings, in one process.

Run ``python benchmarks/bench_inputs.py``. Data: n pairs, k = 6 categories.
Each case times ``concord.cohen_kappa`` against the reference a user would
write for that input, in the same round-robin loop (every round runs every
contender once, in turn), and prints medians with their min–max and the
ratio to the reference:

* a list of ints: ``np.asarray`` of both lists + ``np.bincount`` (and
  scikit-learn's ``cohen_kappa_score``, when installed);
* strings (numpy object arrays, pandas object columns, ``string[pyarrow]``
  and ``pd.ArrowDtype(pa.string())`` columns): ``pd.Categorical`` of each
  column on shared categories, then ``codes`` + ``np.bincount``;
* a pandas Categorical: its ``codes`` + ``np.bincount``.

The references count a table only; concord also validates, finds the labels
and computes κ with its standard error. The machine is shared and noisy:
read medians and ratios, not single times. The table is written to
``benchmarks/results/inputs.md``.
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
import pandas as pd
import pyarrow as pa

import concord

try:  # optional peer
    from sklearn.metrics import cohen_kappa_score
except ImportError:  # pragma: no cover
    cohen_kappa_score = None

K = 6
WORDS = np.array(["absent", "mild", "moderate", "marked", "severe", "extreme"], dtype=object)
Case = dict[str, Callable[[], Any]]


def bincount_of_lists(a: list[int], b: list[int]) -> np.ndarray:
    x, y = np.asarray(a), np.asarray(b)
    return np.bincount(x * K + y, minlength=K * K)


def bincount_of_codes(a: Any, b: Any) -> np.ndarray:
    ca = pd.Categorical(a)
    cb = pd.Categorical(b, categories=ca.categories)
    return np.bincount(ca.codes.astype(np.int64) * K + cb.codes, minlength=K * K)


def cases(n: int) -> dict[str, tuple[str, Case]]:
    """Each case: the reference's name, and the contenders (the reference first)."""
    rng = np.random.default_rng(0)
    i, j = rng.integers(0, K, n), rng.integers(0, K, n)
    la, lb = i.tolist(), j.tolist()
    sa, sb = WORDS[i], WORDS[j]
    lists: Case = {
        "reference": lambda: bincount_of_lists(la, lb),
        "concord": lambda: concord.cohen_kappa(la, lb),
    }
    if cohen_kappa_score is not None:
        lists["scikit-learn"] = lambda: cohen_kappa_score(la, lb)
    out = {"list of ints": ("`np.asarray` + bincount", lists)}
    strings = {
        "numpy object strings": (sa, sb),
        "pandas object strings": (pd.Series(sa, dtype=object), pd.Series(sb, dtype=object)),
        "pandas `string[pyarrow]`": (
            pd.Series(sa, dtype="string[pyarrow]"),
            pd.Series(sb, dtype="string[pyarrow]"),
        ),
        "pandas `ArrowDtype(pa.string())`": (
            pd.Series(sa, dtype=pd.ArrowDtype(pa.string())),
            pd.Series(sb, dtype=pd.ArrowDtype(pa.string())),
        ),
    }
    for name, (a, b) in strings.items():
        out[name] = (
            "`pd.Categorical` codes + bincount",
            {
                "reference": lambda a=a, b=b: bincount_of_codes(a, b),
                "concord": lambda a=a, b=b: concord.cohen_kappa(a, b),
            },
        )
    ca, cb = pd.Categorical(sa), pd.Categorical(sb)
    for name, (x, y) in {
        "pandas Categorical": (ca, cb),
        "pandas Categorical, ordered": (ca.as_ordered(), cb.as_ordered()),
    }.items():
        out[name] = (
            "codes + bincount",
            {
                "reference": lambda x=x, y=y: np.bincount(
                    x.codes.astype(np.int64) * K + y.codes, minlength=K * K
                ),
                "concord": lambda x=x, y=y: concord.cohen_kappa(x, y),
            },
        )
    return out


def round_robin(contenders: Case, rounds: int) -> dict[str, list[float]]:
    """Time every contender once per round, in turn; return each one's times (ms)."""
    for fn in contenders.values():  # warm up: imports, numba's cache, pandas' hash tables
        fn()
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, fn in contenders.items():
            start = time.perf_counter()
            fn()
            times[name].append((time.perf_counter() - start) * 1e3)
    return times


def fmt(ms: list[float]) -> str:
    return f"{statistics.median(ms):.1f} ({min(ms):.1f}–{max(ms):.1f})"


def table(n: int, rounds: int) -> str:
    rows = [
        f"n = {n:,} pairs, k = {K}; median (min–max) of {rounds} round-robin runs, ms",
        "",
        "| input | reference | reference: ms | `cohen_kappa`: ms | × reference | sklearn: ms |",
        "|---|---|---|---|---|---|",
    ]
    for name, (reference, contenders) in cases(n).items():
        times = round_robin(contenders, rounds)
        ratio = statistics.median(times["concord"]) / statistics.median(times["reference"])
        sk = fmt(times["scikit-learn"]) if "scikit-learn" in times else ""
        rows.append(
            f"| {name} | {reference} | {fmt(times['reference'])} | "
            f"**{fmt(times['concord'])}** | **{ratio:.2f}** | {sk} |"
        )
    versions = (
        f"Python {platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}, "
        f"pyarrow {pa.__version__}, concord {concord.__version__}"
    )
    return "\n".join([*rows, "", versions, ""])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=1_000_000, help="pairs (default 10**6)")
    parser.add_argument("--rounds", type=int, default=15, help="round-robin rounds")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    text = table(args.n, args.rounds)
    print(text)
    if not args.no_write:
        out = Path(__file__).parent / "results" / "inputs.md"
        out.write_text("# Inputs as users pass them (`benchmarks/bench_inputs.py`)\n\n" + text)


if __name__ == "__main__":
    main()
