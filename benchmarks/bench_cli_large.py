"""Issue 30: ``concord agree`` / ``report`` on a 10⁷-row CSV beside a pyarrow read + bincount.

Writes (once) a CSV of 10⁷ items × 3 raters, ratings 0–4, then runs, in fresh
processes and interleaved rounds, the reference (``pyarrow.csv.read_csv`` and
one ``np.bincount`` of each rater pair's codes), ``concord agree FILE`` and
``concord report FILE``, each under ``/usr/bin/time -v``: wall, CPU (user +
sys) and peak RSS. Prints median (min–max) of each and the ratios.

    python benchmarks/bench_cli_large.py [--rounds 3] [--csv /tmp/concord_1e7.csv]
        [--src before=/path/to/old/src --src now=src] [--commands agree,report]

Each ``--src NAME=PATH`` runs concord from that source tree (PYTHONPATH), in
the same rounds, so a change is timed beside the code before it.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REFERENCE = """
import sys
import numpy as np
import pyarrow.csv as pc
t = pc.read_csv(sys.argv[1])
cols = [np.asarray(c.to_numpy(), dtype=np.int64) for c in t.columns]
out = [np.bincount(cols[i] * 5 + cols[j], minlength=25)
       for i in range(len(cols)) for j in range(i + 1, len(cols))]
print(sum(int(o.sum()) for o in out))
"""


def write_csv(path: Path, n: int) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.csv as pc

    rng = np.random.default_rng(0)
    truth = rng.integers(0, 5, n)
    cols = {f"r{j + 1}": np.clip(truth + rng.integers(-1, 2, n), 0, 4) for j in range(3)}
    pc.write_csv(pa.table(cols), str(path))


def timed(cmd: list[str], src: str | None) -> tuple[float, float, float]:
    """Return wall s, CPU s (user + sys) and peak RSS MiB of ``cmd`` in a fresh process."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    run = subprocess.run(
        ["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, check=True, env=env
    )
    err = run.stderr

    def field(name: str) -> str:
        m = re.search(rf"{re.escape(name)}: (.+)", err)
        assert m, name
        return m.group(1).strip()

    clock = [float(p) for p in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")]
    wall = sum(v * 60**i for i, v in enumerate(reversed(clock)))
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    return wall, cpu, float(field("Maximum resident set size (kbytes)")) / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rows", type=int, default=10**7)
    parser.add_argument("--csv", default=str(Path(tempfile.gettempdir()) / "concord_1e7.csv"))
    parser.add_argument("--src", action="append", default=[], help="NAME=PATH of a src tree")
    parser.add_argument("--commands", default="agree,report", help="which commands to time")
    args = parser.parse_args()
    trees = dict(s.split("=", 1) for s in args.src) or {"concord": None}
    csv = Path(args.csv)
    if not csv.exists():
        write_csv(csv, args.rows)
    py = sys.executable
    concord = [py, "-c", "import sys; from concord._cli import main; sys.exit(main())"]
    html = Path(tempfile.gettempdir()) / "concord_bench_report.html"
    cases: dict[str, tuple[list[str], str | None]] = {
        "reference": ([py, "-c", REFERENCE, str(csv)], None)
    }
    commands = args.commands.split(",")
    for tree, src in trees.items() if "agree" in commands else ():
        cases[f"agree ({tree})"] = ([*concord, "agree", str(csv)], src)
    for tree, src in trees.items() if "report" in commands else ():
        cases[f"report ({tree})"] = (
            [*concord, "report", str(csv), "-o", str(html), "--overwrite"],
            src,
        )
    got: dict[str, list[tuple[float, float, float]]] = {name: [] for name in cases}
    for r in range(args.rounds):
        for name, (cmd, src) in cases.items():
            got[name].append(timed(cmd, src))
            print(f"round {r + 1} {name}: wall %.2f s, CPU %.2f s, %.0f MiB" % got[name][-1])
    print(f"\n{csv}: {args.rounds} interleaved rounds, median (min–max)")
    print("| case | wall, s | CPU, s | peak RSS, MiB | × reference (wall) | × reference (CPU) |")
    print("|---|---|---|---|---|---|")
    ref = [statistics.median(v) for v in zip(*got["reference"], strict=True)]
    for name, rows in got.items():
        cols = list(zip(*rows, strict=True))
        med = [statistics.median(c) for c in cols]
        cells = [
            f"{m:.2f} ({min(c):.2f}–{max(c):.2f})" for m, c in zip(med[:2], cols[:2], strict=True)
        ]
        rss = f"{med[2]:.0f} ({min(cols[2]):.0f}–{max(cols[2]):.0f})"
        ratios = f"{med[0] / ref[0]:.2f} | {med[1] / ref[1]:.2f}"
        print(f"| {name} | {cells[0]} | {cells[1]} | {rss} | {ratios} |")


if __name__ == "__main__":
    main()
