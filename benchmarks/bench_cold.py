"""The first call: fresh processes, concord against a fresh numpy process, round-robin.

Run ``python benchmarks/bench_cold.py``. Each round starts, one after the
other, a fresh Python process for every case and its reference, and times
it end to end (interpreter start included); the table gives medians,
min–max and each case's ratio to its reference over the rounds:

* import concord + the first ``quadratic_weighted_kappa`` on 10⁶ int64
  pairs, with numba's cache warm and with an empty one, against a fresh
  process that imports numpy and runs the bincount snippet on the same data;
* the same on 10⁷ pairs;
* ``concord --help`` and ``concord kappa`` on a 10-row CSV file, against
  ``python -c "import numpy"``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIRST = """
import numpy as np
rng = np.random.default_rng(0)
a, b = rng.integers(0, 6, {n}), rng.integers(0, 6, {n})
if {concord}:
    import concord
    concord.quadratic_weighted_kappa(a, b)
else:
    lo = min(a.min(), b.min()); k = int(max(a.max(), b.max()) - lo + 1)
    o = np.bincount((a - lo) * k + (b - lo), minlength=k * k).reshape(k, k).astype(float)
    i, j = np.indices((k, k)); w = (i - j) ** 2
    e = np.outer(o.sum(1), o.sum(0)) / o.sum()
    float(1 - (w * o).sum() / (w * e).sum())
"""


def cases(folder: Path) -> dict[str, tuple[list[str], str | None]]:
    """Each case: its command and the name of its reference (None for a reference)."""
    py = sys.executable
    csv = folder / "ten.csv"
    csv.write_text("a,b\n" + "".join(f"{i % 3},{(i * 7) % 3}\n" for i in range(10)))
    cli = [py, "-c", "import sys; from concord._cli import main; sys.argv[0] = 'concord'; main()"]
    out: dict[str, tuple[list[str], str | None]] = {}
    for n in (10**6, 10**7):
        ref = f"numpy process, bincount snippet, n = {n:.0e}"
        out[ref] = ([py, "-c", FIRST.format(n=n, concord=False)], None)
        for cache in ("warm", "empty"):
            out[f"concord first QWK, n = {n:.0e}, {cache} numba cache"] = (
                [py, "-c", FIRST.format(n=n, concord=True), cache],
                ref,
            )
    out["python -c 'import numpy'"] = ([py, "-c", "import numpy"], None)
    out["concord --help"] = ([*cli, "--help"], "python -c 'import numpy'")
    out["concord kappa, 10-row file"] = (
        [*cli, "kappa", str(csv)],
        "python -c 'import numpy'",
    )
    return out


def run(command: list[str], warm_cache: str, empty_root: Path) -> float:
    env = dict(os.environ)
    if command[-1] == "empty":
        env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(dir=empty_root)
        command = command[:-1]
    elif command[-1] == "warm":
        env["NUMBA_CACHE_DIR"] = warm_cache
        command = command[:-1]
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        warm = str(folder / "warm-cache")
        todo = cases(folder)
        # fill the warm cache: a process that compiles every kernel
        code = "from concord._tables import engines as e; e._kernels()"
        subprocess.run(
            [sys.executable, "-c", code], check=True, env={**os.environ, "NUMBA_CACHE_DIR": warm}
        )
        times: dict[str, list[float]] = {name: [] for name in todo}
        for _ in range(args.rounds):
            for name, (command, _ref) in todo.items():
                times[name].append(run(command, warm, folder))
    rows = []
    for name, (_command, ref) in todo.items():
        t = times[name]
        ratio = (
            statistics.median(x / y for x, y in zip(t, times[ref], strict=True)) if ref else 1.0
        )
        rows.append(
            f"| {name} | {statistics.median(t) * 1e3:.0f} | "
            f"{min(t) * 1e3:.0f}–{max(t) * 1e3:.0f} | {ratio:.2f}× |"
        )
    print(
        f"| fresh process, {args.rounds} rounds | median ms | min–max ms | ÷ reference, paired |"
        "\n"
        "|---|---|---|---|\n" + "\n".join(rows)
    )


if __name__ == "__main__":
    main()
