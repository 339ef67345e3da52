"""concord.gamma against pygamma-agreement 0.5.9, at the same precision level.

Run ``python benchmarks/bench_gamma.py`` (``--quick``: fewer documents, a smoke run).
pygamma-agreement needs cvxpy, a MIP solver and numba, which concord does not
depend on: it is timed in its own environment, as a subprocess
(``--pygamma-python``, default /work/wt/gamma-ref-venv/bin/python; make one
with ``python3 -m venv V && V/bin/pip install pygamma-agreement==0.5.9 cvxopt``).
Its first call (numba's compilation) is made before the clock starts.

Cases, each at the same ``precision_level`` and the same dissimilarity:

* pygamma's own examples (tests/data/gamma, from its repository, MIT);
* 100 documents × 3 annotators × 30 spans (seeded, built below): a reference of
  30 spans per document that each annotator copies with shifted boundaries,
  some spans dropped or added and some labels changed. pygamma takes seconds
  per document, so it is timed on the first ``--pygamma-docs`` documents and its
  time per document is reported beside concord's time for all 100 (concord
  solves all documents as one batch).

γ is a Monte-Carlo estimate: both programs' values are shown, and agree within
the precision level. The machine is shared and noisy: read the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

import concord

RESULTS = Path(__file__).parent / "results" / "gamma.md"
DATA = ROOT / "tests" / "data" / "gamma"
EXAMPLES = [
    ("AlexPaulSuzan.csv", 3.0),
    ("AlexPaulSuzan.csv", 1.0),
    ("example_figure10.csv", 1.0),
    ("example_figure19.csv", 1.0),
    ("annotation_paul_suzann_alex.csv", 1.0),
    ("3by100.csv", 3.0),
]

PYGAMMA = r"""
import json, sys, time, logging
logging.disable(logging.WARNING)
import numpy as np
from pyannote.core import Segment
from pygamma_agreement import Continuum, CombinedCategoricalDissimilarity
jobs = json.load(open(sys.argv[1]))
warm = Continuum()
for a in ("x", "y"):
    warm.add(a, Segment(0, 5), "l"); warm.add(a, Segment(7, 9), "m")
warm.compute_gamma(CombinedCategoricalDissimilarity(), precision_level=0.5)
out = []
for job in jobs:
    times = []
    for doc in job["docs"]:
        c = Continuum()
        for rater, label, start, end in doc:
            c.add(rater, Segment(start, end), label)
        np.random.seed(job["seed"])
        began = time.perf_counter()
        g = c.compute_gamma(CombinedCategoricalDissimilarity(alpha=job["alpha"], beta=1.0),
                            precision_level=job["precision"])
        value = float(g.gamma)
        times.append({"seconds": time.perf_counter() - began, "gamma": value,
                      "n_samples": g.n_samples})
    out.append(times)
json.dump(out, open(sys.argv[2], "w"))
"""


def read_example(name: str) -> list[list[Any]]:
    """Rows (rater, label, start, end) of one of pygamma's CSVs."""
    rows = []
    for line in (DATA / name).read_text().splitlines():
        rater, label, start, end = line.split(",")
        rows.append([rater, label, int(float(start)), int(float(end))])
    return rows


def synthetic(n_docs: int, seed: int = 2026) -> list[list[list[Any]]]:
    """Documents of 3 annotators × about 30 spans (see the module docstring)."""
    rng = np.random.default_rng(seed)
    labels = ["PER", "LOC", "ORG", "MISC"]
    docs = []
    for _ in range(n_docs):
        lengths = rng.integers(3, 15, size=30)
        gaps = rng.integers(2, 20, size=30)
        starts = np.cumsum(gaps + np.concatenate(([0], lengths[:-1])))
        ref = [
            (int(s), int(s + n), labels[rng.integers(4)])
            for s, n in zip(starts, lengths, strict=True)
        ]
        rows = []
        for rater in ("ann", "bob", "cy"):
            spans = set()
            for s, e, lab in ref:
                if rng.random() < 0.1:
                    continue  # dropped
                s2 = max(0, s + int(rng.integers(-2, 3)))
                e2 = max(s2 + 1, e + int(rng.integers(-2, 3)))
                lab2 = labels[rng.integers(4)] if rng.random() < 0.15 else lab
                spans.add((s2, e2, lab2))
            for _ in range(int(rng.integers(0, 3))):  # added
                s2 = int(rng.integers(0, int(starts[-1])))
                spans.add((s2, s2 + int(rng.integers(2, 10)), labels[rng.integers(4)]))
            rows += [[rater, lab, s, e] for s, e, lab in sorted(spans)]
        docs.append(_no_overlap(rows))
    return docs


def _no_overlap(rows: list[list[Any]]) -> list[list[Any]]:
    """Drop a rater's span that overlaps its earlier span of the same label (concord refuses)."""
    kept: list[list[Any]] = []
    for r in sorted(rows, key=lambda x: (x[0], x[1], x[2])):
        if kept and kept[-1][0] == r[0] and kept[-1][1] == r[1] and r[2] < kept[-1][3]:
            continue
        kept.append(r)
    return kept


def table(docs: list[list[list[Any]]]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {k: [] for k in ("item", "rater", "label", "start", "end")}
    for i, doc in enumerate(docs):
        for rater, label, start, end in doc:
            for k, v in zip(out, (f"doc{i}", rater, label, start, end), strict=True):
                out[k].append(v)
    return out


def run_pygamma(python: str, jobs: list[tuple[list[Any], float]], precision: float) -> list[Any]:
    """Time pygamma on each job (documents, alpha) in one subprocess (numba compiles once)."""
    with tempfile.TemporaryDirectory() as tmp:
        script, job, result = (Path(tmp) / n for n in ("job.py", "job.json", "out.json"))
        script.write_text(PYGAMMA)
        job.write_text(json.dumps([
            {"docs": docs, "alpha": alpha, "precision": precision, "seed": 4772}
            for docs, alpha in jobs
        ]))  # fmt: skip
        subprocess.run([python, str(script), str(job), str(result)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        return list(json.loads(result.read_text()))


def time_concord(docs: list[Any], alpha: float, precision: float) -> tuple[float, Any]:
    t = table(docs)
    began = time.perf_counter()
    result = concord.gamma(t, alpha=alpha, precision_level=precision, rng=4772)
    return time.perf_counter() - began, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--precision", type=float, default=0.02)
    parser.add_argument("--pygamma-python", default="/work/wt/gamma-ref-venv/bin/python")
    parser.add_argument("--pygamma-docs", type=int, default=5)
    args = parser.parse_args()
    p = args.precision
    n_docs = 10 if args.quick else 100
    time_concord([read_example("example_figure19.csv")], 1.0, 0.5)  # imports scipy once
    lines = [
        "# concord.gamma against pygamma-agreement 0.5.9",
        "",
        f"`python benchmarks/bench_gamma.py{' --quick' if args.quick else ''}` on "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs (shared), "
        f"Python {platform.python_version()}; precision_level = {p} for both; "
        "pygamma-agreement 0.5.9 with cvxpy and GLPK (cvxopt) in its own venv, as a "
        "subprocess, timed after its numba warm-up.",
        "",
        "| case | pygamma s | concord s | speed-up | pygamma γ (samples) | concord γ (samples) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    docs = synthetic(n_docs)
    jobs = [([read_example(name)], alpha) for name, alpha in EXAMPLES]
    print("pygamma-agreement runs (minutes)...", flush=True)
    timed = run_pygamma(args.pygamma_python, [*jobs, (docs[: args.pygamma_docs], 1.0)], p)
    for (name, alpha), (theirs,) in zip(EXAMPLES, timed, strict=False):
        seconds, ours = time_concord([read_example(name)], alpha, p)
        lines.append(
            f"| {name}, alpha={alpha:g} | {theirs['seconds']:.2f} | {seconds:.3f} | "
            f"{theirs['seconds'] / seconds:.0f}× | {theirs['gamma']:.3f} "
            f"({theirs['n_samples']}) | {ours.statistic:.3f} ({ours.n_samples}) |"
        )
        print(lines[-1], flush=True)
    theirs_docs = timed[-1]
    per_doc_theirs = float(np.mean([x["seconds"] for x in theirs_docs]))
    first, _ = time_concord(docs[: args.pygamma_docs], 1.0, p)
    seconds, ours = time_concord(docs, 1.0, p)
    per_doc_ours = seconds / n_docs
    diffs = [abs(x["gamma"] - g) for x, g in zip(theirs_docs, ours.item_gamma, strict=False)]
    lines += [
        "",
        f"{n_docs} documents × 3 annotators × ~30 spans (alpha = 1): concord {seconds:.2f} s "
        f"for all {n_docs} ({per_doc_ours * 1000:.0f} ms per document, "
        f"{ours.n_samples} random continua); pygamma {per_doc_theirs:.2f} s per document "
        f"(mean of the first {args.pygamma_docs}, i.e. about {per_doc_theirs * n_docs:.0f} s "
        f"for {n_docs}): **{per_doc_theirs / per_doc_ours:.0f}× faster**. On the same first "
        f"{args.pygamma_docs} documents alone concord takes {first:.2f} s "
        f"({per_doc_theirs * args.pygamma_docs / first:.0f}× faster). Per-document γ of "
        f"the two on those documents differ by at most {max(diffs):.3f}; concord's pooled γ "
        f"over all documents = {ours.statistic:.3f}.",
    ]
    print(lines[-1], flush=True)
    RESULTS.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
