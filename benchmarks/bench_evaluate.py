"""concord.evaluate against RSMTool's evaluation (rsmeval), on RSMTool's fixture and on 10⁶ rows.

Run ``python benchmarks/bench_evaluate.py``; it writes
``benchmarks/results/evaluate.md``. RSMTool pins older numpy and
scikit-learn than concord's environment, so it lives in a venv of its own
and runs in a worker process there::

    python3 -m venv /work/rsm-venv && /work/rsm-venv/bin/pip install rsmtool
    python benchmarks/bench_evaluate.py --rsmtool-python /work/rsm-venv/bin/python

(default: ``$RSMTOOL_PYTHON``, else /work/rsm-venv/bin/python; without it
only concord is timed and the file says so).

What is measured, data in memory, one call each:

* concord: ``concord.evaluate(h1, score, human2=h2, groups=[QUESTION, L1], trim=(1, 6))``:
  every table of the ``lr-eval-with-h2`` experiment, the fairness models included.
* RSMTool: the computing part of ``rsmeval`` for the same experiment,
  called as ``rsmeval.run_evaluation`` calls it, minus file reading and
  writing and the report: ``FeaturePreprocessor.process_data`` (trimming,
  rounding), ``Analyzer.run_data_composition_analyses_for_rsmeval``,
  ``Analyzer.run_prediction_analyses`` (eval, consistency, degradation,
  disattenuated correlations, true-score and per-group tables) and, as its
  report's fairness notebook does, ``get_fairness_analyses`` per subgroup column.

And the two commands end to end on the 200-row file (a fresh process each:
start-up, imports, reading; ``rsmeval`` also writes its tables and its
HTML report, as it always does): ``rsmeval config.json out/`` against
``concord evaluate FILE ... --format json``.

The contenders alternate within each round (RSMTool's worker is a second
process, asked in turn), so that the machine's noise falls on both alike:
medians with min–max and the ratio of medians. 10⁶ rows: the fixture's
rows drawn with replacement (seed 0), unique ids.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import json
import os
import platform
import statistics
import subprocess
import tempfile
import time
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "reference" / "rsmtool" / "predictions_scaled_with_subgroups.csv"
RESULTS = Path(__file__).resolve().parent / "results" / "evaluate.md"
CONFIG = {
    "system_score_column": "score",
    "human_score_column": "h1",
    "second_human_score_column": "h2",
    "id_column": "id",
    "experiment_id": "bench",
    "subgroups": ["QUESTION", "L1"],
    "scale_with": "asis",
    "trim_min": 1,
    "trim_max": 6,
}


def worker() -> None:  # runs in RSMTool's venv: no concord here
    """Answer ``load PATH`` and ``run`` lines, one call of RSMTool's evaluation per ``run``."""
    import logging

    import pandas as pd
    from rsmtool.analyzer import Analyzer
    from rsmtool.configuration_parser import Configuration
    from rsmtool.container import DataContainer
    from rsmtool.fairness_utils import get_fairness_analyses
    from rsmtool.preprocessor import FeaturePreprocessor

    logging.disable(logging.WARNING)
    frame = None
    for line in sys.stdin:
        command, _, arg = line.strip().partition(" ")
        if command == "load":
            frame = pd.read_csv(arg)
            print("ok", flush=True)
        elif command == "run" and frame is not None:
            start = time.perf_counter()
            config = Configuration(
                {**CONFIG, "predictions_file": arg}, configdir=os.getcwd(), context="rsmeval"
            )
            container = DataContainer([{"name": "predictions", "frame": frame.copy()}])
            config, container = FeaturePreprocessor().process_data(
                config, container, context="rsmeval"
            )
            analyzer = Analyzer()
            config2, composition = analyzer.run_data_composition_analyses_for_rsmeval(
                container, config
            )
            _, tables = analyzer.run_prediction_analyses(composition + container, config2)
            merged = container["pred_test"].merge(container["test_metadata"], on="spkitemid")
            for group in CONFIG["subgroups"]:
                get_fairness_analyses(merged, group, "scale_trim")
            seconds = time.perf_counter() - start
            wtkappa = float(tables["eval"].loc["scale_trim", "wtkappa"])
            print(json.dumps({"seconds": seconds, "wtkappa": wtkappa}), flush=True)
        else:
            return


class Rsmtool:
    """RSMTool's worker process: ``load`` a file, ``run`` its evaluation, timed inside."""

    def __init__(self, python: str) -> None:
        self.process = subprocess.Popen(
            [python, __file__, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        out = subprocess.run(
            [
                python,
                "-c",
                "import rsmtool, numpy, pandas; print(rsmtool.__version__, "
                "numpy.__version__, pandas.__version__)",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        self.versions = f"rsmtool {out[0]} (numpy {out[1]}, pandas {out[2]})"

    def ask(self, line: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline()

    def run(self, path: str) -> tuple[float, float]:
        answer = json.loads(self.ask(f"run {path}"))
        return answer["seconds"], answer["wtkappa"]


def concord_once(frame: Any) -> tuple[float, float]:
    import concord

    start = time.perf_counter()
    result = concord.evaluate(
        frame["h1"],
        frame["score"],
        human2=frame["h2"],
        groups=frame[["QUESTION", "L1"]],
        trim=(1, 6),
    )
    return time.perf_counter() - start, result.eval["raw_trim"]["wtkappa"]


def stats(times: list[float]) -> str:
    """Median (min–max), in ms below 10 s."""
    med = statistics.median(times)
    unit, scale, digits = ("ms", 1e3, 0) if med < 10 else ("s", 1.0, 1)
    low, high = min(times) * scale, max(times) * scale
    return f"{med * scale:,.{digits}f} {unit} ({low:,.{digits}f}–{high:,.{digits}f})"


def _last(times: list[float]) -> str:
    return f"{times[-1]:.3f} s" if times else "—"


def data(n: int, folder: Path) -> Path:
    import numpy as np
    import pandas as pd

    if n == 200:
        return FIXTURE
    frame = pd.read_csv(FIXTURE)
    rows = np.random.default_rng(0).integers(0, len(frame), n)
    big = frame.iloc[rows].reset_index(drop=True)
    big["id"] = [f"RESPONSE_{i}" for i in range(n)]
    path = folder / f"rows_{n}.csv"
    big.to_csv(path, index=False)
    return path


def in_memory(
    n: int, rounds: int, rsm: Rsmtool | None, folder: Path, their_rounds: int | None = None
) -> dict[str, Any]:
    """Time both on n rows, alternating; RSMTool only in the first ``their_rounds`` rounds."""
    import pandas as pd

    path = data(n, folder)
    frame = pd.read_csv(path)
    if rsm is not None:
        rsm.ask(f"load {path}")
        if their_rounds is None:
            rsm.run(str(path))  # warm: imports, caches (at 10⁶ rows the fixture warmed it)
    concord_once(frame)
    ours: list[float] = []
    theirs: list[float] = []
    agree = []
    for _ in range(rounds):
        seconds, ours_qwk = concord_once(frame)
        ours.append(seconds)
        if rsm is not None and len(theirs) < (rounds if their_rounds is None else their_rounds):
            seconds, their_qwk = rsm.run(str(path))
            theirs.append(seconds)
            agree.append(abs(ours_qwk - their_qwk))
        print(
            f"  n={n}: concord {_last(ours)}, rsmtool {_last(theirs)}",
            flush=True,
        )
    return {"n": n, "concord": ours, "rsmtool": theirs, "qwk_gap": max(agree, default=None)}


def commands(rounds: int, rsm_python: str | None, folder: Path) -> dict[str, Any]:
    """Both commands end to end on the fixture, a fresh process each."""
    config = folder / "bench.json"
    config.write_text(json.dumps({**CONFIG, "predictions_file": str(FIXTURE)}))
    ours_cmd = [
        sys.executable,
        "-c",
        "from concord._cli.main import main; main()",
        "evaluate",
        str(FIXTURE),
        "--human",
        "h1",
        "--machine",
        "score",
        "--human2",
        "h2",
        "--group",
        "QUESTION,L1",
        "--trim",
        "1,6",
        "--format",
        "json",
    ]
    rsmeval = str(Path(rsm_python).parent / "rsmeval") if rsm_python else None
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    ours: list[float] = []
    theirs: list[float] = []
    for i in range(rounds):
        start = time.perf_counter()
        subprocess.run(ours_cmd, check=True, capture_output=True, env=env)
        ours.append(time.perf_counter() - start)
        if rsmeval:
            start = time.perf_counter()
            subprocess.run(
                [rsmeval, str(config), str(folder / f"out{i}")], check=True, capture_output=True
            )
            theirs.append(time.perf_counter() - start)
        print(
            f"  commands: concord {_last(ours)}, rsmeval {_last(theirs)}",
            flush=True,
        )
    return {"concord": ours, "rsmtool": theirs}


def ratio(row: dict[str, Any]) -> str:
    if not row["rsmtool"]:
        return "—"
    return f"{statistics.median(row['rsmtool']) / statistics.median(row['concord']):,.0f}×"


def report(rows: list[dict[str, Any]], cli: dict[str, Any] | None, rsm: Rsmtool | None) -> str:
    import numpy as np

    import concord

    lines = [
        "# concord.evaluate against RSMTool's evaluation",
        "",
        "`python benchmarks/bench_evaluate.py` (see its docstring for exactly what is timed).",
        f"concord {concord.__version__}, Python {platform.python_version()}, "
        f"numpy {np.__version__}; "
        + (rsm.versions + " in its own venv" if rsm else "RSMTool not installed: not timed")
        + f"; {platform.machine()}, {os.cpu_count()} CPUs (shared, noisy).",
        "Medians (min–max) of interleaved rounds.",
        "",
        "| rows | rounds | concord.evaluate | RSMTool's evaluation | ratio | max QWK gap |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        theirs = stats(row["rsmtool"]) if row["rsmtool"] else "—"
        gap = f"{row['qwk_gap']:.1e}" if row["qwk_gap"] is not None else "—"
        lines.append(
            f"| {row['n']:,} | {len(row['concord'])} | {stats(row['concord'])} | {theirs} "
            f"| {ratio(row)} | {gap} |"
        )
    if cli is not None:
        theirs = stats(cli["rsmtool"]) if cli["rsmtool"] else "—"
        lines += [
            "",
            "End to end on the 200-row fixture (fresh process each; rsmeval also writes its "
            "tables and HTML report):",
            "",
            "| command | rounds | time |",
            "|---|---:|---:|",
            f"| `concord evaluate ... --format json` | {len(cli['concord'])} "
            f"| {stats(cli['concord'])} |",
            f"| `rsmeval bench.json out/` | {len(cli['rsmtool'])} | {theirs} |",
            f"| ratio | | {ratio(cli)} |",
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--rsmtool-python", default=os.environ.get("RSMTOOL_PYTHON", "/work/rsm-venv/bin/python")
    )
    parser.add_argument("--rounds", type=int, default=7, help="Rounds on the 200-row fixture.")
    parser.add_argument("--big-rounds", type=int, default=3, help="Rounds on 10⁶ rows.")
    parser.add_argument(
        "--big-rsmtool-rounds", type=int, default=1, help="RSMTool's rounds on 10⁶ rows (slow)."
    )
    parser.add_argument("--cli-rounds", type=int, default=3, help="Rounds of the two commands.")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    python = args.rsmtool_python if Path(args.rsmtool_python).exists() else None
    rsm = Rsmtool(python) if python else None
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = [in_memory(200, args.rounds, rsm, folder)]
        rows.append(in_memory(10**6, args.big_rounds, rsm, folder, args.big_rsmtool_rounds))
        cli = commands(args.cli_rounds, python, folder) if args.cli_rounds else None
    text = report(rows, cli, rsm)
    args.output.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
