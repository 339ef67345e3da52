"""Kendall's W, Cronbach's alpha, the mean correlation, Cochran's Q, Bowker's test, the OCCC
and Bland–Altman with subjects, against their peers: on the peers' examples and at 10⁵ items.

Run ``python benchmarks/bench_ranks.py`` (``--quick``: one round each, nothing written).
pingouin (0.7: ``friedman``'s W, ``cronbach_alpha``, ``cochran``), statsmodels
(``cochrans_q``, ``SquareTable.symmetry``) and scipy (``friedmanchisquare``, ``spearmanr``)
are timed where installed; their inputs (pingouin's long frames, statsmodels' tables) are
built before the clock starts, so a peer is timed on its own input. The OCCC (R epiR) and
Bland–Altman with subjects (R MethComp, SimplyAgree) have no Python peer: a numpy transcript
of the formula is the floor there. Each peer's value is checked against concord's.

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
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

import concord

HERE = Path(__file__).resolve().parents[1] / "tests" / "reference"
RESULTS = Path(__file__).parent / "results" / "ranks.md"
RNG = np.random.default_rng(20261127)


def optional(name: str) -> Any:
    try:
        return __import__(name, fromlist=["_"])
    except ImportError:
        return None


pg = optional("pingouin")
stats = optional("scipy.stats")
tables = optional("statsmodels.stats.contingency_tables")


def interleaved(cases: dict[str, Callable[[], Any]], rounds: int) -> dict[str, list[float]]:
    """Seconds of each case over ``rounds`` round-robin rounds, after one warm-up call."""
    for fn in cases.values():
        fn()
    times: dict[str, list[float]] = {label: [] for label in cases}
    for _ in range(rounds):
        for label, fn in cases.items():
            t = time.perf_counter()
            fn()
            times[label].append(time.perf_counter() - t)
    return times


def long_of(x: np.ndarray) -> pd.DataFrame:
    frame = pd.DataFrame(x, columns=[f"r{j}" for j in range(x.shape[1])])
    return frame.reset_index().melt(id_vars="index", var_name="rater", value_name="score")


def fisher_mean(r: np.ndarray) -> float:
    upper = r[np.triu_indices_from(r, 1)]
    return float(np.tanh(np.mean(np.arctanh(upper))))


def occc_numpy(x: np.ndarray) -> float:
    """epiR's epi.occc on complete data: Σ 2 s_jk / Σ (s_j² + s_k² + (m_j − m_k)²)."""
    c, m = np.cov(x, rowvar=False), x.mean(axis=0)
    j, k = np.triu_indices(x.shape[1], 1)
    return float(np.sum(2 * c[j, k]) / np.sum(c[j, j] + c[k, k] + (m[j] - m[k]) ** 2))


def repeated_numpy(d: np.ndarray, s: np.ndarray) -> float:
    """Bland & Altman's (2007) SD of a difference, true value varying (pandas groupby)."""
    g = pd.Series(d).groupby(s)
    m, means, big_n = g.size().to_numpy(), g.mean().to_numpy(), d.size
    n = m.size
    msb = float(m @ (means - d.mean()) ** 2) / (n - 1)
    msw = float(((d - g.transform("mean").to_numpy()) ** 2).sum()) / (big_n - n)
    lam = (big_n**2 - float(m @ m)) / ((n - 1) * big_n)
    return float(np.sqrt(max((msb - msw) / lam, 0) + msw))


def kendall_cases(x: np.ndarray) -> tuple[dict[str, Callable[[], Any]], dict[str, float]]:
    cases: dict[str, Callable[[], Any]] = {"concord kendall_w": lambda: concord.kendall_w(x)}
    values = {"concord kendall_w": concord.kendall_w(x).statistic}
    m, n = x.shape[1], x.shape[0]
    if n > 10**5:  # no peer at this size: numpy's argsort of each column is the floor
        columns = np.ascontiguousarray(x.T)
        cases["numpy argsort of each column (the floor)"] = lambda: [
            np.argsort(c) for c in columns
        ]
        values["numpy argsort of each column (the floor)"] = values["concord kendall_w"]
    if pg is not None and n <= 10**5:
        long = long_of(x)
        cases["pingouin friedman (W)"] = lambda: pg.friedman(
            data=long, dv="score", within="index", subject="rater"
        )
        values["pingouin friedman (W)"] = float(cases["pingouin friedman (W)"]()["W"].iloc[0])
    if stats is not None and n <= 10**5:
        rows = list(x)
        cases["scipy friedmanchisquare (χ²)"] = lambda: stats.friedmanchisquare(*rows)
        values["scipy friedmanchisquare (χ²)"] = stats.friedmanchisquare(*rows).statistic / (
            m * (n - 1)
        )
    return cases, values


def cronbach_cases(x: pd.DataFrame) -> tuple[dict[str, Callable[[], Any]], dict[str, float]]:
    cases: dict[str, Callable[[], Any]] = {
        "concord cronbach_alpha": lambda: concord.cronbach_alpha(x)
    }
    values = {"concord cronbach_alpha": concord.cronbach_alpha(x).statistic}
    if pg is not None:
        cases["pingouin cronbach_alpha"] = lambda: pg.cronbach_alpha(data=x)
        values["pingouin cronbach_alpha"] = float(pg.cronbach_alpha(data=x)[0])
    return cases, values


def correlation_cases(
    x: np.ndarray, method: str
) -> tuple[dict[str, Callable[[], Any]], dict[str, float]]:
    ours = f"concord mean_correlation ({method})"
    cases: dict[str, Callable[[], Any]] = {
        ours: lambda: concord.mean_correlation(x, method=method)
    }
    values = {ours: concord.mean_correlation(x, method=method).statistic}
    if method == "pearson":
        cases["numpy corrcoef + Fisher mean"] = lambda: fisher_mean(np.corrcoef(x, rowvar=False))
    elif stats is not None:
        cases["scipy spearmanr + Fisher mean"] = lambda: fisher_mean(stats.spearmanr(x)[0])
    for label, fn in cases.items():
        if label != ours:
            values[label] = fn()
    return cases, values


def cochran_cases(x: np.ndarray) -> tuple[dict[str, Callable[[], Any]], dict[str, float]]:
    cases: dict[str, Callable[[], Any]] = {"concord cochran_q": lambda: concord.cochran_q(x)}
    values = {"concord cochran_q": concord.cochran_q(x).statistic}
    if tables is not None:
        cases["statsmodels cochrans_q"] = lambda: tables.cochrans_q(x)
        values["statsmodels cochrans_q"] = float(tables.cochrans_q(x).statistic)
    if pg is not None:
        long = long_of(x)
        cases["pingouin cochran"] = lambda: pg.cochran(
            data=long, dv="score", within="rater", subject="index"
        )
        values["pingouin cochran"] = float(cases["pingouin cochran"]()["Q"].iloc[0])
    return cases, values


def symmetry_cases(
    a: np.ndarray, b: np.ndarray
) -> tuple[dict[str, Callable[[], Any]], dict[str, float]]:
    cases: dict[str, Callable[[], Any]] = {
        "concord symmetry_test": lambda: concord.symmetry_test(a, b)
    }
    values = {"concord symmetry_test": concord.symmetry_test(a, b).statistic}
    if tables is not None:

        def statsmodels_from_ratings() -> Any:
            return tables.SquareTable(pd.crosstab(a, b).to_numpy(), shift_zeros=False).symmetry()

        cases["pandas crosstab + statsmodels symmetry"] = statsmodels_from_ratings
        values["pandas crosstab + statsmodels symmetry"] = float(
            statsmodels_from_ratings().statistic
        )
    return cases, values


def occc_cases(x: np.ndarray) -> tuple[dict[str, Callable[[], Any]], dict[str, float]]:
    cases = {
        "concord overall_concordance (with the jackknife interval)": lambda: (
            concord.overall_concordance(x)
        ),
        "numpy epi.occc formula (no interval)": lambda: occc_numpy(x),
    }
    values = {
        k: float(f().statistic if k.startswith("concord") else f()) for k, f in cases.items()
    }
    return cases, values


def subject_cases(
    x: np.ndarray, y: np.ndarray, s: np.ndarray
) -> tuple[dict[str, Callable[[], Any]], dict[str, float]]:
    cases = {
        "concord bland_altman(subject=)": lambda: concord.bland_altman(x, y, subject=s),
        "pandas groupby formula": lambda: repeated_numpy(x - y, s),
    }
    values = {
        "concord bland_altman(subject=)": concord.bland_altman(x, y, subject=s).sd,
        "pandas groupby formula": repeated_numpy(x - y, s),
    }
    return cases, values


def data_sets() -> list[tuple[str, str, Callable[[], Any]]]:
    anxiety = pd.read_csv(HERE / "icc" / "anxiety.csv").to_numpy()
    likert = pd.read_csv(HERE / "ranks" / "pingouin_cronbach_alpha.csv").pivot(
        index="Subj", columns="Items", values="Scores"
    )
    cochran = (
        pd.read_csv(HERE / "ranks" / "pingouin_cochran.csv")
        .pivot(index="Subject", columns="Time", values="Energetic")
        .to_numpy()
    )
    cardiac = pd.read_csv(HERE / "ranks" / "methcomp_cardiac.csv")
    big = 10**5
    scores = np.clip(np.rint(RNG.normal(4, 1.5, (big, 1)) + RNG.normal(0, 1, (big, 5))), 1, 7)
    binary = (RNG.random((big, 5)) < np.linspace(0.3, 0.4, 5)).astype(np.int64)
    a = RNG.integers(0, 5, big)
    b = np.where(RNG.random(big) < 0.7, a, RNG.integers(0, 5, big))
    truth = RNG.normal(100, 15, big // 10).repeat(10)
    subject = np.arange(big // 10).repeat(10)
    return [
        ("Kendall's W", "irr anxiety, 20 × 3", lambda: kendall_cases(anxiety)),
        ("Kendall's W", "10⁵ × 5 scores 1–7", lambda: kendall_cases(scores)),
        ("Kendall's W", "10⁶ × 10 floats", lambda: kendall_cases(RNG.normal(size=(10**6, 10)))),
        (
            "Kendall's W",
            "10⁶ × 10 scores 1–7",
            lambda: kendall_cases(RNG.integers(1, 8, size=(10**6, 10))),
        ),
        ("Cronbach's α", "pingouin Likert, 15 × 10", lambda: cronbach_cases(likert)),
        ("Cronbach's α", "10⁵ × 5 scores 1–7", lambda: cronbach_cases(pd.DataFrame(scores))),
        ("mean Pearson r", "irr anxiety, 20 × 3", lambda: correlation_cases(anxiety, "pearson")),
        ("mean Pearson r", "10⁵ × 5 scores 1–7", lambda: correlation_cases(scores, "pearson")),
        ("mean Spearman ρ", "irr anxiety, 20 × 3", lambda: correlation_cases(anxiety, "spearman")),
        ("mean Spearman ρ", "10⁵ × 5 scores 1–7", lambda: correlation_cases(scores, "spearman")),
        ("Cochran's Q", "pingouin cochran, 20 × 3", lambda: cochran_cases(cochran)),
        ("Cochran's Q", "10⁵ × 5 binary", lambda: cochran_cases(binary)),
        ("Bowker", "10⁵ pairs, 5 categories", lambda: symmetry_cases(a, b)),
        ("OCCC", "irr anxiety, 20 × 3", lambda: occc_cases(anxiety.astype(float))),
        ("OCCC", "10⁵ × 5 scores 1–7", lambda: occc_cases(scores)),
        (
            "Bland–Altman, subjects",
            "MethComp cardiac, 60 pairs / 12",
            lambda: subject_cases(
                cardiac["y.RV"].to_numpy(), cardiac["y.IC"].to_numpy(), cardiac["item"].to_numpy()
            ),
        ),
        (
            "Bland–Altman, subjects",
            "10⁵ pairs / 10⁴ subjects",
            lambda: subject_cases(
                truth + RNG.normal(1, 5, big), truth + RNG.normal(0, 5, big), subject
            ),
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one round each, nothing written")
    args = parser.parse_args()
    rows = []
    for what, data, make in data_sets():
        cases, values = make()
        small = "×" not in data or "20" in data or "15" in data
        rounds = 1 if args.quick else (15 if small else (5 if "10⁶" in data else 3))
        times = interleaved(cases, rounds)
        first = next(iter(cases))
        for label in cases:
            median = statistics.median(times[label])
            ratio = median / statistics.median(times[first])
            gap = abs(values[label] - values[first])
            rows.append(
                f"| {what} | {data} | {label} | {1e3 * median:,.2f} | "
                f"{'' if label == first else f'{ratio:.2g}×'} | {gap:.1e} |"
            )
        print(f"done: {what}, {data}", file=sys.stderr)
    versions = ", ".join(
        f"{name} {getattr(mod, '__version__', '?')}"
        for name, mod in (
            ("pingouin", pg),
            ("scipy", optional("scipy")),
            ("statsmodels", optional("statsmodels")),
        )
        if mod is not None
    )
    lines = [
        f"Machine: {platform.machine()}, {os.cpu_count()} threads (shared, noisy); Python "
        f"{platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}, "
        f"{versions}",
        "",
        "Median ms of 15 interleaved rounds on the peers' examples, 3 on the large data (5 at "
        "10⁶ items), after a "
        "warm-up call; × concord: the peer's time over concord's (above 1: concord is faster); "
        "|Δ|: the peer's value against concord's (scipy's Friedman χ² as W = χ² / (m(n − 1)); "
        "statsmodels' symmetry built from the raw ratings with pandas' crosstab).",
        "",
        "| statistic | data | what | median ms | × concord | abs diff from concord |",
        "|---|---|---|---|---|---|",
        *rows,
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        RESULTS.write_text(text)


if __name__ == "__main__":
    main()
