"""Krippendorff's unitizing α on 10³ documents × 3 raters × 30 spans, against loops and DKPro.

Run ``python benchmarks/bench_unitizing.py`` (``--quick``: 100 documents).
The data: each document is 3,000 characters with 30 entities (PER, ORG, LOC)
of 3–30 characters; each rater marks each entity with its boundaries moved
by up to 2 characters, relabels 10% of them and misses 5%.

Timed, interleaved:

* ``concord.unitizing_alpha`` from a dict of columns (reading and checking
  the spans included) and its core alone (``unitizing_sums`` on the arrays);
* a straightforward Python implementation written here: a double loop over
  the unit pairs of two raters per document and category for D_o, and for
  D_e a loop over the units with ``bisect`` on the sorted gaps (a loop over
  every gap for every unit, the formula as written, would take hours);
* DKPro Statistics' ``KrippendorffAlphaUnitizingAgreement`` (Java), when
  ``--dkpro CLASSPATH`` names the compiled classes (see
  tests/reference/unitizing/make_reference.py): the least of 3 runs of
  ``calculateAgreement`` inside one JVM, after the JVM has started and read
  the study. DKPro has one continuum, so it gets the documents laid end to
  end; a gap at the end of one document then runs into the next one's, so
  its α differs slightly from concord's (shown).

The machine is shared and noisy: read medians and ratios, not single times.
"""

from __future__ import annotations

import sys
from pathlib import Path

# numba imports the `coverage` package, which benchmarks/coverage.py would shadow
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import bisect
import os
import platform
import statistics
import subprocess
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

import concord
from concord._coefficients.spans.unitizing_core import disagreements, unitizing_sums

RESULTS = Path(__file__).parent / "results" / "unitizing.md"
LABELS = ("PER", "ORG", "LOC")
SIZE, ENTITIES, RATERS = 3000, 30, 3


def spans(n_docs: int, seed: int = 20261127) -> dict[str, np.ndarray]:
    """The long table: every rater's spans of every document (see the module)."""
    rng = np.random.default_rng(seed)
    cell = SIZE // ENTITIES
    start = np.arange(ENTITIES) * cell + rng.integers(2, 60, (n_docs, ENTITIES))
    length = rng.integers(3, 31, (n_docs, ENTITIES))
    label = rng.integers(0, 3, (n_docs, ENTITIES))
    columns: dict[str, list[np.ndarray]] = {
        k: [] for k in ("item", "rater", "start", "end", "label")
    }
    for r in range(RATERS):
        keep = rng.random((n_docs, ENTITIES)) > 0.05
        s = start + rng.integers(-2, 3, start.shape)
        e = np.maximum(start + length + rng.integers(-2, 3, start.shape), s + 1)
        relabel = rng.random(start.shape) < 0.1
        lab = np.where(relabel, (label + rng.integers(1, 3, start.shape)) % 3, label)
        doc = np.broadcast_to(np.arange(n_docs)[:, None], start.shape)
        for k, v in zip(columns, (doc, np.full(start.shape, r), s, e, lab), strict=True):
            columns[k].append(v[keep])
    out = {k: np.concatenate(v) for k, v in columns.items()}
    out["label"] = np.array(LABELS)[out["label"]]
    return out


def loops(table: dict[str, np.ndarray], lengths: dict[int, int]) -> float:
    """α by Python loops: unit pairs per document and category, bisect on the sorted gaps."""
    units: dict[tuple[Any, Any, Any], list[tuple[int, int]]] = {}
    rows = zip(
        *(table[k].tolist() for k in ("item", "rater", "start", "end", "label")), strict=True
    )
    for i, r, s, e, c in rows:
        units.setdefault((c, i, r), []).append((s, e))
    raters = sorted(set(table["rater"].tolist()))
    m, big = len(raters), sum(lengths.values())
    o_sum, e_sum = Fraction(0), Fraction(0)
    for c in sorted(set(table["label"].tolist())):
        observed, gaps, sizes = 0, list[int](), list[int]()
        for i, size in lengths.items():
            mine = [sorted(units.get((c, i, r), [])) for r in raters]
            for a in range(m):
                for b in range(a + 1, m):
                    observed += pair(mine[a], mine[b])
            for us in mine:
                walk(us, size, gaps, sizes)
        gaps.sort()
        tail = [0] * (len(gaps) + 1)
        for k in range(len(gaps) - 1, -1, -1):
            tail[k] = tail[k + 1] + gaps[k]
        expected, n = 0, len(sizes)
        for ell in sizes:
            at = bisect.bisect_left(gaps, ell)
            expected += (n - 1) * ell * (ell - 1) * (2 * ell - 1) // 3
            expected += ell * ell * (tail[at] - (len(gaps) - at) * (ell - 1))
        squares = sum(ell * (ell - 1) for ell in sizes)
        o_sum += Fraction(2 * observed, m * (m - 1) * big * big)
        e_sum += Fraction(2 * expected, big * (m * big * (m * big - 1) - squares))
    return float(1 - o_sum / e_sum)


def walk(units: list[tuple[int, int]], size: int, gaps: list[int], sizes: list[int]) -> None:
    """Append one rater's gaps and unit lengths on one document."""
    pos = 0
    for s, e in units:
        if s > pos:
            gaps.append(s - pos)
        pos = e
        sizes.append(e - s)
    if size > pos:
        gaps.append(size - pos)


def pair(x: list[tuple[int, int]], y: list[tuple[int, int]]) -> int:
    """Σ δ² of two raters' units of one category on one document, by a double loop."""
    total, hit_x, hit_y = 0, [False] * len(x), [False] * len(y)
    for p, (s, e) in enumerate(x):
        for q, (s2, e2) in enumerate(y):
            if s2 < e and s < e2:
                total += (s - s2) ** 2 + (e - e2) ** 2
                hit_x[p] = hit_y[q] = True
    total += sum((e - s) ** 2 for (s, e), hit in zip(x, hit_x, strict=True) if not hit)
    total += sum((e - s) ** 2 for (s, e), hit in zip(y, hit_y, strict=True) if not hit)
    return total


def core(table: dict[str, np.ndarray], n_docs: int) -> float:
    """α from the core alone, on codes."""
    lengths = np.full(n_docs, SIZE, np.int64)
    codes = np.searchsorted(np.array(sorted(LABELS)), table["label"])
    sums = unitizing_sums(
        lengths, table["item"], table["rater"], table["start"], table["end"], codes, RATERS, 3
    )
    parts = [disagreements(s, RATERS, n_docs * SIZE) for s in sums]
    return float(1 - sum(o for o, _ in parts) / sum(e for _, e in parts))


def dkpro(table: dict[str, np.ndarray], n_docs: int, classpath: str) -> tuple[float, float]:
    """(least ms of 3 calculateAgreement runs, α) of DKPro on the documents end to end."""
    offset = table["item"] * SIZE
    lines = [f"study {RATERS} 0 {n_docs * SIZE}"]
    lines += [
        f"{r} {s} {e - s} {c}"
        for r, s, e, c in zip(
            table["rater"].tolist(),
            (table["start"] + offset).tolist(),
            (table["end"] + offset).tolist(),
            table["label"].tolist(),
            strict=True,
        )
    ]
    cmd = ["java", "-cp", classpath, "org.dkpro.statistics.agreement.unitizing.DkproUnitizing"]
    text = "\n".join([*lines, "end"]) + "\n"
    out = subprocess.run([*cmd, "time"], input=text, capture_output=True, text=True, check=True)
    _, ms, value = out.stdout.split()
    return float(ms), float(value)


def dkpro_rows(classpath: str, n_docs: int = 100) -> list[str]:
    """DKPro against concord on fewer documents: DKPro's time grows as the spans squared."""
    table = spans(n_docs)
    frame = {k: v.tolist() for k, v in table.items()}
    lengths = dict.fromkeys(range(n_docs), SIZE)
    ms, value = dkpro(table, n_docs, classpath)
    ours = interleaved({"c": lambda: concord.unitizing_alpha(frame, lengths=lengths)}, 5)["c"]
    mine = 1e3 * statistics.median(ours)
    alpha = concord.unitizing_alpha(frame, lengths=lengths).statistic
    return [
        f"| {n_docs} documents: DKPro Statistics (Java, one continuum) | {ms:,.1f} | "
        f"concord {ms / mine:,.0f}× faster | {value:.6f} |",
        f"| {n_docs} documents: concord.unitizing_alpha | {mine:,.1f} | | {alpha:.6f} |",
    ]


def interleaved(cases: dict[str, Callable[[], Any]], rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {label: [] for label in cases}
    for _ in range(rounds):
        for label, fn in cases.items():
            t = time.perf_counter()
            fn()
            times[label].append(time.perf_counter() - t)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 documents, one round")
    parser.add_argument("--dkpro", metavar="CLASSPATH", help="DKPro's compiled classes")
    args = parser.parse_args()
    n_docs, rounds = (100, 1) if args.quick else (1000, 5)
    table = spans(n_docs)
    lengths = dict.fromkeys(range(n_docs), SIZE)
    frame = {k: v.tolist() for k, v in table.items()}
    cases: dict[str, Callable[[], Any]] = {
        "Python loops": lambda: loops(table, lengths),
        "concord.unitizing_alpha (dict of lists)": lambda: concord.unitizing_alpha(
            frame, lengths=lengths
        ),
        "concord core (arrays)": lambda: core(table, n_docs),
    }
    values = {label: float(fn()) for label, fn in cases.items()}
    assert len({round(v, 12) for v in values.values()}) == 1, values
    times = interleaved(cases, rounds)
    base = statistics.median(times["Python loops"])
    rows = [
        f"| {label} | {1e3 * statistics.median(t):,.1f} | {base / statistics.median(t):,.1f}× "
        f"| {values[label]:.6f} |"
        for label, t in times.items()
    ]
    if args.dkpro:
        rows += dkpro_rows(args.dkpro)
    n_spans = len(table["item"])
    lines = [
        f"Machine: {platform.machine()}, {os.cpu_count()} threads; Python "
        f"{platform.python_version()}, numpy {np.__version__}",
        "",
        f"{n_docs} documents of {SIZE} characters, {RATERS} raters, {n_spans} spans "
        f"(about {ENTITIES} per rater and document), 3 labels. Median ms of {rounds} "
        "interleaved rounds; × loops: the Python loops' time over this one; DKPro: the "
        "least of 3 runs inside one warm JVM.",
        "",
        "| what | median ms | × loops | α |",
        "|---|---|---|---|",
        *rows,
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        RESULTS.write_text(text)


if __name__ == "__main__":
    main()
