"""The long form: 10⁷ (item, rater, rating) rows pivoted, and Fleiss' kappa of them.

Run ``python benchmarks/bench_long.py``. Data: 10⁶ items × 10 raters, every
item rated by every rater, ratings in 1..5, rows in random order; items as
int64 ids, then as string ids (pandas' default string dtype). Each case
times, in the same round-robin loop (every round runs every contender once,
in turn):

* the reference: pandas' ``df.pivot(index=item, columns=rater, values=rating)``;
* concord's pivot (``concord._data.long.pivot``, what ``item=`` runs), which
  also checks for missing items and raters and for repeated pairs;
* ``concord.fleiss_kappa(df, item=..., rater=..., rating=...)``: the pivot
  and the coefficient with its standard error.

The goal (issue 14): the pivot of 10⁷ rows in under 2 s. The machine is
shared and noisy: read medians and ratios, not single times. The table is
written to ``benchmarks/results/long.md``.
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

import concord
from concord._data.long import pivot

KEYS = ("doc", "annotator", "label")
Case = dict[str, Callable[[], Any]]


def frames(items: int, raters: int) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(0)
    order = rng.permutation(items * raters)
    doc = np.repeat(np.arange(items), raters)[order]
    annotator = np.tile(np.arange(raters), items)[order]
    truth = rng.integers(1, 6, items)
    label = np.where(rng.random(items * raters) < 0.6, truth[doc], rng.integers(1, 6, doc.size))
    ints = pd.DataFrame({"doc": doc, "annotator": annotator, "label": label})
    strings = ints.assign(doc=pd.Series(np.char.add("doc-", doc.astype(str)), dtype="str"))
    return {"int item ids": ints, "string item ids": strings}


def contenders(df: pd.DataFrame) -> Case:
    item, rater, rating = KEYS
    return {
        "reference": lambda: df.pivot(index=item, columns=rater, values=rating),
        "pivot": lambda: pivot(df, KEYS, "bench"),
        "fleiss": lambda: concord.fleiss_kappa(df, item=item, rater=rater, rating=rating),
    }


def round_robin(case: Case, rounds: int) -> dict[str, list[float]]:
    """Time every contender once per round, in turn; return each one's times (s)."""
    for fn in case.values():  # warm up: imports, numba's cache, pandas' hash tables
        fn()
    times: dict[str, list[float]] = {name: [] for name in case}
    for _ in range(rounds):
        for name, fn in case.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return times


def fmt(s: list[float]) -> str:
    return f"{statistics.median(s):.2f} ({min(s):.2f}–{max(s):.2f})"


def table(items: int, raters: int, rounds: int) -> str:
    rows = [
        f"{items * raters:,} long rows ({items:,} items × {raters} raters); median (min–max) "
        f"of {rounds} round-robin runs, s",
        "",
        "| items | `df.pivot`: s | concord pivot: s | × `df.pivot` | pivot + `fleiss_kappa`: s |",
        "|---|---|---|---|---|",
    ]
    for name, df in frames(items, raters).items():
        t = round_robin(contenders(df), rounds)
        ratio = statistics.median(t["pivot"]) / statistics.median(t["reference"])
        rows.append(
            f"| {name} | {fmt(t['reference'])} | **{fmt(t['pivot'])}** | **{ratio:.2f}** | "
            f"{fmt(t['fleiss'])} |"
        )
    versions = (
        f"Python {platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}, "
        f"concord {concord.__version__}"
    )
    return "\n".join([*rows, "", versions, ""])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1_000_000, help="items (default 10**6)")
    parser.add_argument("--raters", type=int, default=10, help="raters (default 10)")
    parser.add_argument("--rounds", type=int, default=5, help="round-robin rounds")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    text = table(args.items, args.raters, args.rounds)
    print(text)
    if not args.no_write:
        out = Path(__file__).parent / "results" / "long.md"
        out.write_text("# The long form (`benchmarks/bench_long.py`)\n\n" + text)


if __name__ == "__main__":
    main()
