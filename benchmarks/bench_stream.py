"""Streaming: what accumulators and the CLI's out-of-core reading cost against one shot.

Run ``python benchmarks/bench_stream.py`` (``--quick`` for a smoke run). Two parts:

1. Accumulators in one process: the one-shot function on all the data
   against ``concord.accumulate`` fed the same data in 10 and 100 batches
   (``update`` each, then ``result``), and against 100 per-batch
   accumulators merged pairwise (what Dask and multiprocessing do). The
   results are checked equal (statistic and standard error, ==).
2. The command line on a generated CSV and Parquet file: ``concord kappa``
   and ``concord agree`` read whole against ``--chunk-rows``, in child
   processes: wall time (median of 3) and peak resident memory (ru_maxrss).

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
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.csv as pc
import pyarrow.parquet as pq

import concord

RESULTS = Path(__file__).parent / "results" / "stream.md"


def median_seconds(fn: Callable[[], Any], repeat: int) -> float:
    fn()  # warm up (numba compiles on first use)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def pairs(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    truth = rng.integers(0, 6, n, dtype=np.int8)
    pred = np.clip(truth + rng.integers(-1, 2, n, dtype=np.int8), 0, 5).astype(np.int8)
    return truth, pred


def matrix(n: int, rng: np.random.Generator) -> np.ndarray:
    truth = rng.integers(1, 6, n)
    noise = rng.choice([-1, 0, 0, 0, 1], size=(n, 5))
    x = np.clip(truth[:, None] + noise, 1, 5).astype(np.float64)
    x[rng.random(x.shape) < 0.10] = np.nan
    return x


def batched(func: Any, data: tuple[np.ndarray, ...], parts: int, options: dict[str, Any]) -> Any:
    acc = concord.accumulate(func, **options)
    for chunk in zip(*(np.array_split(d, parts) for d in data), strict=True):
        acc.update(*chunk)
    return acc.result()


def merged(func: Any, data: tuple[np.ndarray, ...], parts: int, options: dict[str, Any]) -> Any:
    accs = [
        concord.accumulate(func, **options).update(*chunk)
        for chunk in zip(*(np.array_split(d, parts) for d in data), strict=True)
    ]
    while len(accs) > 1:  # a binary tree of merges
        accs = [a.merge(b) for a, b in zip(accs[::2], accs[1::2], strict=False)] + (
            [accs[-1]] if len(accs) % 2 else []
        )
    return accs[0].result()


def accumulator_rows(quick: bool, repeat: int) -> list[list[str]]:
    rng = np.random.default_rng(0)
    n_pairs, n_items = (10**6, 10**5) if quick else (10**7, 10**6)
    cases = [
        (
            "Cohen's κ, quadratic",
            f"{n_pairs:.0e} pairs",
            concord.cohen_kappa,
            pairs(n_pairs, rng),
            {"weights": "quadratic"},
        ),
        (
            "Fleiss' κ",
            f"{n_items:.0e} items × 5",
            concord.fleiss_kappa,
            (matrix(n_items, rng),),
            {},
        ),
        (
            "Conger's κ",
            f"{n_items:.0e} items × 5",
            concord.conger_kappa,
            (matrix(n_items, rng),),
            {},
        ),
        (
            "Krippendorff's α, interval",
            f"{n_items:.0e} items × 5",
            concord.krippendorff_alpha,
            (matrix(n_items, rng),),
            {"level": "interval"},
        ),
    ]
    rows = []
    for name, size, func, data, options in cases:
        one = func(*data, **options)
        base = median_seconds(lambda: func(*data, **options), repeat)  # noqa: B023
        row = [name, size, f"{base * 1e3:,.1f}"]
        for how, parts in ((batched, 10), (batched, 100), (merged, 100)):
            got = how(func, data, parts, options)
            assert got.statistic == one.statistic and got.standard_error == one.standard_error
            t = median_seconds(lambda: how(func, data, parts, options), repeat)  # noqa: B023
            row.append(f"{t * 1e3:,.1f} ({t / base:.2f}×)")
        rows.append(row)
        print(" | ".join(row), flush=True)
    return rows


def run_cli(args: list[str]) -> tuple[float, float, str]:
    """Run ``concord ARGS`` in a child process; return seconds, peak MiB and stdout."""
    code = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "out = subprocess.run(sys.argv[1:], check=True, capture_output=True, text=True).stdout\n"
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "print(out, end='')\n"
    )
    cli = str(Path(sys.executable).parent / "concord")
    out = subprocess.run(
        [sys.executable, "-c", code, cli, *args, "--quiet", "--format", "json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    first, _, rest = out.partition("\n")
    seconds, rss = first.split()
    return float(seconds), int(rss) / 1024, rest


def cli_rows(quick: bool, repeat: int) -> tuple[list[list[str]], int]:
    """Time and peak memory of the CLI on files of 10 to 400 chunks, whole and streamed."""
    chunk = 10**4 if quick else 10**5
    sizes = [10 * chunk, 40 * chunk] if quick else [10**7, 4 * 10**7]
    rows = []
    with tempfile.TemporaryDirectory() as d:
        jobs = []
        for i, n in enumerate(sizes):
            a, b = pairs(n, np.random.default_rng(i))
            jobs.append(
                (
                    "kappa",
                    n,
                    pa.table({"truth": a, "model": b}),
                    ["--rater1", "truth", "--rater2", "model", "--weights", "quadratic"],
                )
            )
        x = matrix(sizes[0] // 2, np.random.default_rng(9))
        # NaN as null: written as an empty cell, the CLI's missing rating ("nan" is a word)
        five = pa.table({f"r{i}": pa.array(x[:, i], from_pandas=True) for i in range(5)})
        jobs.append(("agree", sizes[0] // 2, five, ["--weights", "quadratic"]))
        for command, n, table, args in jobs:
            stem = f"{d}/{command}{n}"
            pc.write_csv(table, f"{stem}.csv")
            pq.write_table(table, f"{stem}.parquet", row_group_size=chunk)
            del table
            for path in (f"{stem}.csv", f"{stem}.parquet"):
                size = os.path.getsize(path) / 2**20
                found = {}
                for rows_per_chunk in (0, chunk):
                    runs = [
                        run_cli([command, path, *args, "--chunk-rows", str(rows_per_chunk)])
                        for _ in range(repeat)
                    ]
                    seconds = statistics.median(r[0] for r in runs)
                    peak = max(r[1] for r in runs)
                    found[rows_per_chunk] = (seconds, peak, runs[0][2])
                assert found[0][2] == found[chunk][2], "streamed output differs from in-memory"
                (t0, m0, _), (t1, m1, _) = found[0], found[chunk]
                row = [
                    f"concord {command}",
                    Path(path).suffix[1:],
                    f"{n:.0e} ({n // chunk} chunks)",
                    f"{size:,.0f}",
                    f"{t0:.2f} s / {m0:,.0f} MiB",
                    f"{t1:.2f} s / {m1:,.0f} MiB",
                    f"{n / t1 / 1e6:.1f} M rows/s",
                    f"{t1 / t0:.2f}×",
                ]
                rows.append(row)
                print(" | ".join(row), flush=True)
    return rows, chunk


def wide_rows(quick: bool, repeat: int) -> list[list[str]]:
    """Peak memory of the default chunk (no --chunk-rows) on a narrow and a wide CSV file.

    Both files pass ``AUTO_BYTES``, so both stream with the default chunk,
    which the file's bytes per row set (``concord._cli.stream.auto_rows``).
    """
    from concord._cli import stream

    width_rows = [(2, 3 * 10**7), (200, 3 * 10**5)] if not quick else [(2, 10**5), (200, 10**3)]
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for width, n in width_rows:
            rng = np.random.default_rng(width)
            truth = rng.integers(1, 6, n)
            table = pa.table(
                {
                    f"r{i}": np.clip(truth + rng.choice([-1, 0, 0, 1], n), 1, 5).astype(np.int8)
                    for i in range(width)
                }
            )
            path = f"{d}/wide{width}.csv"
            pc.write_csv(table, path)
            del table
            args = ["kappa", path, "--rater1", "r0", "--rater2", "r1"]
            runs = [run_cli(args) for _ in range(repeat)]
            seconds = [r[0] for r in runs]
            peaks = [r[1] for r in runs]
            row = [
                f"{width} columns × {n:.0e} rows",
                f"{os.path.getsize(path) / 2**20:,.0f}",
                f"{stream.auto_rows(path, 'csv'):,}",
                f"{statistics.median(seconds):.2f} s ({min(seconds):.2f}–{max(seconds):.2f})",
                f"{statistics.median(peaks):,.0f} MiB ({min(peaks):,.0f}–{max(peaks):,.0f})",
            ]
            rows.append(row)
            print(" | ".join(row), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, one repeat")
    parser.add_argument("--no-write", action="store_true", help=f"do not write {RESULTS.name}")
    args = parser.parse_args()
    repeat = 1 if args.quick else 5
    machine = (
        f"Machine: {platform.machine()}, {os.cpu_count()} threads; Python "
        f"{platform.python_version()}, numpy {np.__version__}, pyarrow {pa.__version__}"
    )
    print(machine)
    acc = accumulator_rows(args.quick, repeat)
    cli, chunk = cli_rows(args.quick, 1 if args.quick else 3)
    wide = wide_rows(args.quick, 1 if args.quick else 3)
    lines = [
        machine,
        "",
        "Accumulators: one-shot against batched `update` and a merge tree "
        f"(median of {repeat}; results checked equal)",
        "",
        "| coefficient | data | one-shot ms | 10 batches ms | 100 batches ms | "
        "100 accumulators merged ms |",
        "|---|---|---|---|---|---|",
        *("| " + " | ".join(r) + " |" for r in acc),
        "",
        f"The CLI: the file read whole (`--chunk-rows 0`) against chunks of {chunk:,} rows "
        "(median time, peak RSS of the process; outputs checked equal)",
        "",
        "| command | format | rows | file MiB | whole: time / peak RSS | streamed | "
        "streamed rows/s | time ratio |",
        "|---|---|---|---|---|---|---|---|",
        *("| " + " | ".join(r) + " |" for r in cli),
        "",
        "The default chunk (no `--chunk-rows`) on a narrow and a wide CSV file: `concord kappa` "
        "of two columns (median time, min–max; peak RSS, min–max)",
        "",
        "| file | MiB | default chunk rows | time | peak RSS |",
        "|---|---|---|---|---|",
        *("| " + " | ".join(r) + " |" for r in wide),
    ]
    if not args.no_write and not args.quick:
        RESULTS.write_text("\n".join(lines) + "\n")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
