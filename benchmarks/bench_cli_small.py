"""``concord kappa`` on a 10-row file against ``python -c "import numpy"``: CPU, fresh processes.

Run ``python benchmarks/bench_cli_small.py [--rounds 21] [--before SRC]``. Each
round starts, one after the other, a fresh process for every case and the
reference, and reads its CPU time (user + system, the operating system's
account of the finished child); the table gives medians, min–max and each
case's ratio to the reference taken round by round. The cases:

* ``concord kappa`` on a 10-row CSV of numbers, and on one of text labels
  (read by the small-file reader, :mod:`concord._cli.reading.small`);
* the same with ``CONCORD_SMALL_READER=0`` (the pandas and pyarrow reader);
* with ``--before SRC``, the same command run from another source tree
  (e.g. ``git archive <commit> src | tar -x -C /tmp/before``).

Bytecode is compiled first (``compileall``), as an installed package has it.
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import concord

REFERENCE = "python -c 'import numpy'"
CLI = "import sys; from concord._cli import main; sys.argv[0] = 'concord'; main()"


def cases(folder: Path, before: str | None) -> dict[str, tuple[list[str], dict[str, str]]]:
    """Each case: its command and its environment."""
    numbers = folder / "ten.csv"
    numbers.write_text("a,b\n" + "".join(f"{i % 3},{(i * 7) % 3}\n" for i in range(10)))
    words = ["neg", "neu", "pos"]
    text = folder / "ten_text.csv"
    text.write_text("a,b\n" + "".join(f"{words[i % 3]},{words[(i * 7) % 3]}\n" for i in range(10)))
    env = dict(os.environ)
    env.pop("CONCORD_SMALL_READER", None)
    py = sys.executable
    out = {REFERENCE: ([py, "-c", "import numpy"], env)}
    for name, path in (("numbers", numbers), ("text", text)):
        command = [py, "-c", CLI, "kappa", str(path), "--rater1", "a", "--rater2", "b"]
        out[f"concord kappa, 10 rows of {name}"] = (command, env)
        usual = {**env, "CONCORD_SMALL_READER": "0"}
        out[f"the same, pandas and pyarrow reader (CONCORD_SMALL_READER=0), {name}"] = (
            command,
            usual,
        )
        if before is not None:
            earlier = {**env, "PYTHONPATH": before}
            out[f"the same, source tree {before}, {name}"] = (command, earlier)
    return out


def cpu(command: list[str], env: dict[str, str]) -> float:
    """Return the CPU seconds (user + system) of one run of ``command``."""
    start = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, env=env, capture_output=True)
    end = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (end.ru_utime - start.ru_utime) + (end.ru_stime - start.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--before", help="another source tree (its src folder) to time too")
    args = parser.parse_args()
    for tree in [str(Path(concord.__file__).parent), args.before]:
        if tree is not None:
            compileall.compile_dir(tree, quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        todo = cases(Path(tmp), args.before)
        for command, env in todo.values():  # a warm-up run each: the file cache, not timed
            subprocess.run(command, check=True, env=env, capture_output=True)
        times: dict[str, list[float]] = {name: [] for name in todo}
        for _ in range(args.rounds):
            for name, (command, env) in todo.items():
                times[name].append(cpu(command, env))
    ref = times[REFERENCE]
    rows = []
    for name, t in times.items():
        ratios = [x / y for x, y in zip(t, ref, strict=True)]
        rows.append(
            f"| {name} | {statistics.median(t) * 1e3:.0f} | {min(t) * 1e3:.0f}–"
            f"{max(t) * 1e3:.0f} | {statistics.median(ratios):.2f}× "
            f"({min(ratios):.2f}–{max(ratios):.2f}) |"
        )
    print(
        f"| fresh process, {args.rounds} rounds | CPU ms, median | min–max | "
        "÷ reference, paired (min–max) |\n|---|---|---|---|\n" + "\n".join(rows)
    )


if __name__ == "__main__":
    main()
