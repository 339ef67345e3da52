"""concord.read_annotations on a 10⁵-task Label Studio export with 3 annotators.

Run ``python benchmarks/bench_readers.py`` (``--quick``: 10⁴ tasks, a smoke run).
The export is generated here, as Label Studio's JSON export writes it: each task
with its ``id``, ``data.text``, a ``predictions`` entry (never read) and three
annotations (``completed_by`` a user object, one ``Choices`` result each; one in
fifty cancelled). The issue's goal: under 5 s, and a peak memory under 5× the
file's size.

Times are wall-clock seconds of ``read_annotations(path, format="label-studio")``
(parsing included), median and range over the runs, and the CPU seconds of the
process over the same runs (on a shared machine the wall clock also counts the
time other processes held the CPU); ``json.load`` of the same file gives the scale.
Peak memory is tracemalloc's peak during one more read (Python objects and
numpy/pandas buffers it sees), and the process's peak RSS growth from ``resource``
where the platform has it. The baseline for the memory is what ``json.load``
alone of the same file peaks at.
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
import random
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Iterator

import concord

RESULTS = Path(__file__).parent / "results" / "readers.md"
LABELS = ("positive", "neutral", "negative")
USERS = [{"id": i, "email": f"annotator{i}@example.com"} for i in (1, 2, 3)]


def export(tasks: int, seed: int = 0) -> Iterator[dict]:
    """Yield the tasks of a Label Studio JSON export: 3 annotations each."""
    rng = random.Random(seed)
    for t in range(1, tasks + 1):
        truth = rng.randrange(3)
        annotations = []
        for u, user in enumerate(USERS):
            label = truth if rng.random() < 0.7 else rng.randrange(3)
            annotations.append(
                {
                    "id": 3 * t + u,
                    "completed_by": user,
                    "was_cancelled": rng.random() < 0.02,
                    "ground_truth": False,
                    "created_at": "2026-05-04T10:00:00.000000Z",
                    "lead_time": round(rng.random() * 20, 3),
                    "task": t,
                    "result": [
                        {
                            "id": f"r{t}-{u}",
                            "type": "choices",
                            "from_name": "sentiment",
                            "to_name": "text",
                            "origin": "manual",
                            "value": {"choices": [LABELS[label]]},
                        }
                    ],
                }
            )
        yield {
            "id": t,
            "data": {"text": f"Review number {t}: the service was fine, the food so-so."},
            "annotations": annotations,
            "predictions": [
                {"model_version": "v1", "result": [{"value": {"choices": ["positive"]}}]}
            ],
        }


def write(path: str, tasks: int) -> None:
    """Write the export a task at a time, as one JSON array (the generator holds none whole)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write("[")
        for i, task in enumerate(export(tasks)):
            f.write(("," if i else "") + json.dumps(task))
        f.write("]")


def read(path: str) -> object:
    return concord.read_annotations(path, format="label-studio")


def peak(fn, *args) -> int:
    """Bytes at tracemalloc's peak while ``fn(*args)`` runs."""
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def rss_growth(path: str) -> int | None:
    """Growth of the process's peak RSS over a read, in bytes (None: no resource module)."""
    try:
        import resource
    except ImportError:
        return None
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    read(path)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return (after - before) * scale


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10⁴ tasks, 2 runs; no results")
    args = parser.parse_args()
    tasks, runs = (10_000, 2) if args.quick else (100_000, 5)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "export.json")
        write(path, tasks)
        size = os.path.getsize(path)
        small = os.path.join(folder, "small.json")
        write(small, 10)
        read(small)  # pandas and the readers imported before the RSS is measured
        growth = rss_growth(path)  # first, while the process's peak is still low
        times, cpu = [], []
        for _ in range(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            frame = read(path)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        traced = peak(read, path)

        def load() -> object:
            with open(path, encoding="utf-8") as f:
                return json.load(f)

        json_peak = peak(load)
        start, start_cpu = time.perf_counter(), time.process_time()
        load()
        json_time = time.perf_counter() - start
        json_cpu = time.process_time() - start_cpu
    rows = len(frame)  # type: ignore[arg-type]
    lines = [
        "# read_annotations: a Label Studio export",
        "",
        f"`python benchmarks/bench_readers.py`; Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} CPUs (shared, noisy).",
        "",
        f"{tasks:,} tasks × 3 annotators ({rows:,} rows read, "
        f"{frame.attrs['skipped']} skipped), file {size / 2**20:.1f} MiB.",  # type: ignore[attr-defined]
        "",
        "| measure | value | goal |",
        "| --- | --- | --- |",
        f"| time, median of {runs} (min–max) | {statistics.median(times):.2f} s "
        f"({min(times):.2f}–{max(times):.2f}) | < 5 s |",
        f"| CPU time of the process, median (min–max) | {statistics.median(cpu):.2f} s "
        f"({min(cpu):.2f}–{max(cpu):.2f}) | |",
        f"| json.load alone of the file, one run: wall, CPU | {json_time:.2f} s, "
        f"{json_cpu:.2f} s | (for scale) |",
        f"| peak memory, tracemalloc | {traced / 2**20:.0f} MiB = {traced / size:.1f}× the file "
        "| < 5× |",
        f"| json.load alone, tracemalloc | {json_peak / 2**20:.0f} MiB = "
        f"{json_peak / size:.1f}× the file | (floor) |",
    ]
    if growth is not None:
        lines.append(
            f"| peak RSS growth of the first read | {growth / 2**20:.0f} MiB = "
            f"{growth / size:.1f}× the file | |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        RESULTS.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
