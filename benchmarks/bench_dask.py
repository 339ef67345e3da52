"""concord.dask: quadratic kappa of 10^9 rating pairs on a local cluster, against one process.

Run ``python benchmarks/bench_dask.py`` (``--quick`` for a smoke run of
10^7 and 10^8 pairs). It writes ``benchmarks/results/dask.md`` (``--output``)
and prints the same markdown.

The pairs are generated lazily, block by block, never held whole: a dask
array of shape (n, 2), int8 ratings 0..5 of two correlated raters, each
block drawn from its own seed (``[SEED, block index]``), so every run and
every path sees the same data. Measured:

* one process, 10^8 pairs in memory: generating them, ``concord.cohen_kappa``
  (one shot), and ``concord.accumulate`` over 10 batches of 10^7 (the
  streaming overhead); the process's peak RSS and each call's allocations;
* a ``distributed.LocalCluster`` of 2 worker processes × 1 thread:
  ``concord.dask.compute(concord.cohen_kappa, pairs, weights="quadratic")``
  on the same 10^8 pairs and on 10^9, and the same graph generating the
  blocks only, so that the counting cost is visible; each worker's peak RSS;
* one process streaming the 10^9 pairs (generate a block, ``update``, drop
  it): the serial baseline. Its runs alternate with the cluster's, so both
  see the same noise; every result must equal the others exactly.

Peak RSS is Linux's VmHWM, reset before each measurement (not ``ru_maxrss``,
which a worker inherits from its parent through fork and exec). The machine
is shared and noisy: read medians and ratios, not single times.
"""

from __future__ import annotations

import sys
from pathlib import Path

# numba imports the `coverage` package, which benchmarks/coverage.py would shadow
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import os
import platform
import resource
import statistics
import time
import tracemalloc
import uuid
from collections.abc import Callable
from typing import Any

import dask
import dask.array as da
import distributed
import numpy as np

import concord
import concord.dask
from concord._tables import engines as _count

SEED = 2026
K = 6
OUTPUT = Path(__file__).resolve().parent / "results" / "dask.md"


def block(n: int, index: int) -> np.ndarray:
    """Return n pairs (Fortran order: each rater's column contiguous) from seed [SEED, index]."""
    rng = np.random.default_rng([SEED, index])
    out = np.empty((n, 2), dtype=np.int8, order="F")
    out[:, 0] = rng.integers(0, K, n, dtype=np.int8)
    noise = rng.integers(-1, 2, n, dtype=np.int8)
    np.clip(out[:, 0] + noise, 0, K - 1, out=out[:, 1])
    return out


def _block(index: np.ndarray, size: int) -> np.ndarray:
    return block(size, int(index[0]))


def lazy_pairs(n: int, chunk: int) -> da.Array:
    """Return n pairs as a lazy (n, 2) int8 dask array: one generating task per block.

    Each call makes new task keys, so that no run reuses what the scheduler
    still holds from the last; the data are the same.
    """
    assert n % chunk == 0, "n must be a multiple of the chunk size"
    blocks = n // chunk
    index = da.arange(blocks, chunks=1)
    return da.map_blocks(
        _block,
        index,
        size=chunk,
        chunks=((chunk,) * blocks, (2,)),
        new_axis=1,
        dtype=np.int8,
        meta=np.empty((0, 0), dtype=np.int8),
        token=uuid.uuid4().hex,
    )


def _rows(x: np.ndarray) -> int:
    return len(x)


def generate_only(pairs: da.Array) -> int:
    """Generate every block on the cluster and drop it: the cost of the data alone."""
    counted = [dask.delayed(_rows)(b) for b in pairs.to_delayed().ravel()]
    return int(sum(dask.compute(*counted)))


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t = time.perf_counter()
    value = fn()
    return time.perf_counter() - t, value


def median_time(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Median wall time of ``fn`` over ``repeat`` runs after a warm-up, and its value."""
    fn()
    runs = [timed(fn) for _ in range(repeat)]
    return statistics.median(t for t, _ in runs), runs[-1][1]


def extra_memory(fn: Callable[[], Any]) -> float:
    """MiB that ``fn`` allocates beyond its inputs (tracemalloc peak)."""
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def _status(field: str) -> float | None:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return None


def peak_rss() -> float:
    """This process's peak RSS in MiB since ``reset_peak`` (Linux VmHWM).

    Not ``ru_maxrss``: a worker process inherits its parent's through fork and exec.
    """
    peak = _status("VmHWM")
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 if peak is None else peak


def current_rss() -> float:
    return _status("VmRSS") or float("nan")


def reset_peak() -> None:
    """Start this process's peak RSS afresh (Linux: write 5 to /proc/self/clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
    except OSError:
        pass


def row(path: str, pairs: int, how: str, seconds: float, mib: str, note: str) -> str:
    return (
        f"| {path} | {pairs:.0e} | {how} | {seconds:,.3f} | {pairs / seconds / 1e6:,.0f} | "
        f"{mib} | {note} |"
    )


def single_process(n: int, batch: int, repeat: int) -> tuple[list[str], Any]:
    """One process, n pairs in memory: generation, one-shot, accumulate in batches."""

    def generate() -> np.ndarray:
        x = np.empty((n, 2), dtype=np.int8, order="F")
        for i in range(n // batch):
            x[i * batch : (i + 1) * batch] = block(batch, i)
        return x

    reset_peak()
    gen_time, x = median_time(generate, 3)
    a, b = x[:, 0], x[:, 1]

    def one_shot() -> Any:
        return concord.cohen_kappa(a, b, weights="quadratic")

    def streamed() -> Any:
        acc = concord.accumulate(concord.cohen_kappa, weights="quadratic")
        for s in range(0, n, batch):
            acc.update(a[s : s + batch], b[s : s + batch])
        return acc.result()

    t_one, want = median_time(one_shot, repeat)
    t_acc, got = median_time(streamed, repeat)
    assert got.statistic == want.statistic and got.standard_error == want.standard_error
    rss = f"{peak_rss():,.0f} (process, data in memory)"
    return [
        row("one process: generate only", n, f"{n // batch} blocks into memory", gen_time, "", ""),
        row(
            "one process: `cohen_kappa`, one shot",
            n,
            "count only, data in memory",
            t_one,
            f"{rss}; call +{extra_memory(one_shot):.2f}",
            f"κ = {want.statistic:.6f}",
        ),
        row(
            f"one process: `accumulate`, {n // batch} batches",
            n,
            f"count only, batches of {batch:.0e}",
            t_acc,
            f"call +{extra_memory(streamed):.2f}",
            f"{t_acc / t_one:.2f}× the one shot; equal result",
        ),
    ], want


def serial_stream(n: int, chunk: int) -> tuple[Any, float, float]:
    """One process streaming n pairs: generate a block, count it, drop it.

    Return the result, the seconds spent in ``update`` (counting) and 0 (no merges).
    """
    acc = concord.accumulate(concord.cohen_kappa, weights="quadratic")
    counting = 0.0
    for i in range(n // chunk):
        x = block(chunk, i)
        t = time.perf_counter()
        acc.update(x[:, 0], x[:, 1])
        counting += time.perf_counter() - t
    return acc.result(), counting, 0.0


def serial_generate(n: int, chunk: int) -> int:
    return sum(len(block(chunk, i)) for i in range(n // chunk))


def cluster_kappa(n: int, chunk: int) -> tuple[Any, float, float]:
    """The cluster's result, and the seconds its count and merge tasks ran, all summed."""
    with distributed.get_task_stream() as stream:
        result = concord.dask.compute(
            concord.cohen_kappa, lazy_pairs(n, chunk), weights="quadratic"
        )
    spent = {"concord-count": 0.0, "concord-merge": 0.0}
    for task in stream.data:
        prefix = dask.utils.key_split(task["key"])
        if prefix in spent:
            spent[prefix] += sum(s["stop"] - s["start"] for s in task["startstops"])
    return result, spent["concord-count"], spent["concord-merge"]


def cluster_generate(n: int, chunk: int) -> int:
    return generate_only(lazy_pairs(n, chunk))


def compare(
    client: distributed.Client, n: int, chunk: int, repeat: int, check: Any, serial: bool
) -> tuple[list[str], dict[str, float]]:
    """Time the paths in turn, ``repeat`` rounds after a warm-up round; check every result."""
    paths = {"cluster generate": cluster_generate, "cluster": cluster_kappa}
    if serial:
        paths = {"serial generate": serial_generate, "serial": serial_stream, **paths}
    times: dict[str, list[float]] = {name: [] for name in paths}
    counting: dict[str, list[tuple[float, float]]] = {"serial": [], "cluster": []}
    peaks: dict[str, Any] = {}
    for round_ in range(repeat + 1):
        for name, path in paths.items():
            if round_ == 0:
                (client.run if name.startswith("cluster") else lambda f: f())(reset_peak)
            seconds, value = timed(lambda: path(n, chunk))  # noqa: B023
            if isinstance(value, int):
                assert value == n
                value = None
            else:
                value, count, merge = value
                check = value if check is None else check
                assert value.statistic == check.statistic, (name, value, check)
                assert value.standard_error == check.standard_error
                if round_:
                    counting[name].append((count, merge))
            if round_:
                times[name].append(seconds)
            if round_ == repeat:
                peaks[name] = client.run(peak_rss) if name.startswith("cluster") else peak_rss()
    t = {name: statistics.median(ts) for name, ts in times.items()}
    count = {k: statistics.median(c for c, _ in v) for k, v in counting.items() if v}
    merge = statistics.median(m for _, m in counting["cluster"])
    how = f"{n // chunk} blocks of {chunk:.0e}"
    workers = ", ".join(f"{peaks['cluster'][w]:,.0f}" for w in sorted(peaks["cluster"]))
    rows = []
    if serial:
        rows += [
            row("one process: generate only", n, how, t["serial generate"], "", ""),
            row(
                "one process: generate + `accumulate`",
                n,
                f"{how}, streamed",
                t["serial"],
                f"{peaks['serial']:,.0f} (the process)",
                f"`update` calls {count['serial']:.2f} s; the serial baseline",
            ),
        ]
    rows += [
        row("2 workers: generate only", n, how, t["cluster generate"], "", ""),
        row(
            "2 workers: `concord.dask.compute`",
            n,
            f"{how}, generate + count",
            t["cluster"],
            f"{workers} (each worker)",
            f"count tasks {count['cluster']:.2f} s, merge tasks {merge * 1e3:.0f} ms (summed); "
            + (f"{t['serial'] / t['cluster']:.2f}× one process" if serial else "equal result"),
        ),
    ]
    t.update({f"{k} count": v for k, v in count.items()})
    return rows, t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^7 and 10^8 pairs, 1 repeat")
    parser.add_argument("--chunk", type=int, default=25_000_000, help="pairs per block (big run)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds after a warm-up")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    small, big = (10**7, 10**8) if args.quick else (10**8, 10**9)
    batch = small // 10
    chunk = min(args.chunk, big // 4)
    repeat = 1 if args.quick else args.repeat
    load = os.getloadavg()[0]

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        cluster_kappa(4 * batch, batch)  # imports and numba's kernels on both workers
        idle = client.run(current_rss)
        rows, in_memory = single_process(small, batch, 1 if args.quick else 7)
        rows += compare(client, small, batch, repeat, in_memory, serial=False)[0]
        big_rows, t = compare(client, big, chunk, repeat, None, serial=True)
        rows += big_rows

    head = (
        "| path | pairs | data | median s | Mpairs/s | peak RSS MiB | note |\n"
        "|---|---|---|---|---|---|---|"
    )
    text = "\n".join(
        [
            "# concord.dask: Cohen's quadratic kappa of lazily generated pairs",
            "",
            "Generated by `benchmarks/bench_dask.py`.",
            "",
            f"Machine: {platform.machine()}, {os.cpu_count()} cores, "
            f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB, "
            f"shared (load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the "
            f"end); Python {platform.python_version()}, numpy {np.__version__}, dask "
            f"{dask.__version__}, distributed {distributed.__version__}, concord "
            f"{concord.__version__}, {_count._n_threads()} counting threads per process. "
            "Cluster: `LocalCluster(n_workers=2, threads_per_worker=1, processes=True)`. "
            f"Ratings int8 0..{K - 1} of two correlated raters, generated block by block. "
            f"Medians of {repeat} rounds after a warm-up (in memory: of 7); the one-process "
            "and cluster paths run in turn in each round. Peak RSS: VmHWM of each process; "
            "call +: MiB the call allocates (tracemalloc).",
            "",
            head,
            *rows,
            "",
            "Workers after warm-up (imports, numba kernels): "
            f"{', '.join(f'{idle[w]:,.0f}' for w in sorted(idle))} MiB RSS; a worker's peak "
            "depends on the block size, not on the number of pairs. For "
            f"{big:.0e} pairs the cluster took {t['cluster']:.2f} s against "
            f"{t['serial']:.2f} s in one process ({t['serial'] / t['cluster']:.2f}×); "
            f"counting alone, {t['cluster count']:.2f} s in the count tasks, summed over both "
            f"workers, against {t['serial count']:.2f} s of `update` calls in one process.",
        ]
    )
    print(text)
    if not args.quick:
        args.output.write_text(text + "\n")
        print(f"\nwritten to {args.output}")


if __name__ == "__main__":
    main()
