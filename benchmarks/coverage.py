"""Coverage of concord's confidence intervals: which method should each coefficient use?

Run ``python benchmarks/coverage.py`` (about 30 minutes on two cores at the
defaults). It writes ``benchmarks/results/coverage.md`` (``--output``) and
prints it; ``--save-raw FILE`` also keeps every replication's estimate, SE and
intervals, and ``--load-raw FILE`` rebuilds the report from them without
simulating (``--methods`` then picks which of the saved methods to show).
``--methods`` runs a comma-separated subset of the interval methods, e.g.
``--methods wald,t,fisher-z`` for the analytic ones only, which skips the
bootstrap that dominates the cost.

Population model
----------------
Each item has a true category drawn from the prevalence π over k
categories; each rater independently reports the truth with probability θ,
otherwise a category drawn from π (possibly the truth again). Every rater's
marginal distribution is then π, two raters agree with probability

    p_a = θ² + (1 − θ²) Σ π_k²

and the chance agreement of Cohen, Scott, Fleiss, Conger and Krippendorff
(nominal) is p_e = Σ π_k², so all five equal θ² exactly in the population.
Gwet's AC1 is (p_a − p_e,g)/(1 − p_e,g) with p_e,g = Σ π_k (1 − π_k)/(k − 1),
and Brennan-Prediger is (p_a − 1/k)/(1 − 1/k). ``--self-check`` (run by
default) verifies these population values, and p_a, on 10^6 simulated items
per (k, κ).

Grid
----
* raters: 2 (Cohen's kappa) and 5 (Fleiss' kappa, Gwet's AC1, Krippendorff's
  alpha at the nominal level, Conger's kappa, Brennan-Prediger; the five are
  computed on the same simulated data sets);
* k = 3 with π = (0.5, 0.3, 0.2) and k = 6 with
  π = (0.3, 0.25, 0.15, 0.12, 0.1, 0.08): moderately skewed prevalence;
* n_items ∈ {30, 100, 1000}; true κ ∈ {0.2, 0.6, 0.9}, θ = √κ;
* ``--replications`` (default 2000) data sets per cell, 95% intervals, the
  methods of ``--methods`` (default all five: wald, t, fisher-z,
  bootstrap-percentile, bootstrap-bca) for every coefficient, bootstrap with
  ``--n-resamples`` (default 999). The two bootstrap methods of a data set
  share one seed, hence one set of replicates, and the simulated data sets do
  not depend on which methods are run. Categories are declared
  (``labels=range(k)``), so Gwet's and Brennan-Prediger's q is k even when a
  sample misses a category.

Cost: a pilot of 300 replications per cell took 5.8 minutes on two cores;
nearly all of it is bootstrap on the large cells (n = 1000, k = 6, κ = 0.2:
about 0.7 s per data set for the five multi-rater coefficients, 0.37 s of it
Conger's kappa, whose resampling units are the distinct rows of ratings).
Scaled to 2000 replications that is about 35-40 minutes, within the
45-minute budget, so no method or coefficient is left out; the full run took
29 minutes. Without the bootstrap (``--methods wald,t,fisher-z``) 10 000
replications per cell took 8 minutes (results/coverage_analytic.md).

Paired differences (``--paired``)
---------------------------------
The interval of a paired difference, ``concord.compare`` (second − first on
the same items), in its own run (``--paired``, written to
``results/coverage_paired.md``). The two sides share each item's true
category, so their estimates are correlated, and the true difference is
known from the model's parameters:

* Cohen's kappa, truth against two models, k = 3, π = (0.5, 0.3, 0.2): a
  model reports the truth with probability θ, else a draw from π, so its
  kappa against the truth is θ exactly (p_a = θ + (1 − θ) Σ π², p_e = Σ π²);
  θ = 0.6 and 0.75, difference 0.15;
* quadratic weighted kappa, k = 6 with the prevalence above: a model
  reports the truth plus an ordinal error e clipped to the scale (A: e = ±1
  with probability 0.2 each, ±2 with 0.05 each; B: e = ±1 with 0.1 each);
  its population QWK comes from the exact joint distribution
  π_i P(j | i) (:func:`paired_truth`);
* Fleiss' kappa, two panels of 5 raters (the model above, k = 3): θ² = 0.5
  and 0.7, difference 0.2.

n ∈ {100, 200}, ``--replications`` (default 2000) data sets each, 95%
intervals by t, wald and the two paired bootstraps (``--n-resamples``).
About 5 minutes on one core.

Reading the output
------------------
Coverage is the share of data sets whose interval contains the population
value; its Monte Carlo standard error at 2000 replications is about 0.5
percentage points near 95%. The five multi-rater coefficients are computed
on the same data sets, so their Monte Carlo errors in a cell are correlated:
a cell that is low for one of them by chance tends to be low for all.

A data set whose coefficient is undefined (nan, with an
UndefinedKappaWarning) is counted in the "undef" column and left out of
coverage; an interval that is nan is counted, per method, in the table of
nan intervals and left out too. "κ̂=1" counts the samples with perfect
agreement, for which every method returns the zero-width interval [1, 1]
and misses (or, for the analytic methods, nan when rounding leaves the
variance slightly negative). "SE/SD" is the root mean square of the
reported standard error over the empirical standard deviation of the
estimates: near 1 when the SE is right.

The work is split into blocks of 250 replications of one grid cell; each block
draws from its own seed (``--seed``, the cell's index and the block's), so the
results do not depend on ``--processes`` or the order of the work. Everything a
worker needs travels in its task, so any ``--start-method`` (fork, spawn,
forkserver) gives the same results.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing
import pickle
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import concord
from concord._common.options import INTERVAL_METHODS

# This file is named coverage.py and Python puts its folder first on sys.path, where it would
# shadow the coverage package that numba imports (lazily, inside concord): drop that entry.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

METHODS = INTERVAL_METHODS  # every method the results offer, in their order
SHORT = {
    "wald": "wald",
    "t": "t",
    "fisher-z": "fisher-z",
    "bootstrap-percentile": "boot-perc",
    "bootstrap-bca": "boot-BCa",
}
PREVALENCE = {3: (0.5, 0.3, 0.2), 6: (0.3, 0.25, 0.15, 0.12, 0.1, 0.08)}
N_ITEMS = (30, 100, 1000)
KAPPAS = (0.2, 0.6, 0.9)
LEVEL = 0.95
BLOCK = 250  # replications per task: small enough to keep both processes busy to the end
OUTPUT = _HERE / "results" / "coverage.md"

Fit = Callable[[np.ndarray, list[int]], Any]


def _cohen(x: np.ndarray, labels: list[int]) -> Any:
    return concord.cohen_kappa(x[:, 0], x[:, 1], labels=labels)


def _multi(func: Callable[..., Any]) -> Fit:
    def fit(x: np.ndarray, labels: list[int]) -> Any:
        return func(x, labels=labels)

    return fit


def _pa(theta: float, pi: np.ndarray) -> float:
    """Population probability that two raters agree."""
    return float(theta**2 + (1 - theta**2) * np.sum(pi**2))


def _kappa_value(theta: float, pi: np.ndarray) -> float:
    return theta**2


def _gwet_value(theta: float, pi: np.ndarray) -> float:
    pe = float(np.sum(pi * (1 - pi)) / (pi.size - 1))
    return (_pa(theta, pi) - pe) / (1 - pe)


def _bp_value(theta: float, pi: np.ndarray) -> float:
    pe = 1 / pi.size
    return (_pa(theta, pi) - pe) / (1 - pe)


# name -> (raters, fit, population value as a function of (θ, π))
COEFFICIENTS: dict[str, tuple[int, Fit, Callable[[float, np.ndarray], float]]] = {
    "cohen_kappa": (2, _cohen, _kappa_value),
    "fleiss_kappa": (5, _multi(concord.fleiss_kappa), _kappa_value),
    "gwet_ac": (5, _multi(concord.gwet_ac), _gwet_value),
    "krippendorff_alpha": (5, _multi(concord.krippendorff_alpha), _kappa_value),
    "conger_kappa": (5, _multi(concord.conger_kappa), _kappa_value),
    "brennan_prediger": (5, _multi(concord.brennan_prediger), _bp_value),
}


def population(name: str, kappa: float, pi: np.ndarray) -> float:
    """The population value of a coefficient when the kappa family equals ``kappa``."""
    value = COEFFICIENTS[name][2]
    return kappa if value is _kappa_value else value(math.sqrt(kappa), pi)


def simulate(rng: np.random.Generator, n: int, raters: int, pi: np.ndarray, theta: float):
    """Return an n × raters matrix of category codes 0..k−1 from the population model."""
    k = pi.size
    truth = rng.choice(k, size=n, p=pi)
    guess = rng.choice(k, size=(n, raters), p=pi)
    honest = rng.random((n, raters)) < theta
    return np.where(honest, truth[:, None], guess)


@dataclass(frozen=True)
class Task:
    """A block of replications of one grid cell; each (cell, block) has its own seed."""

    index: int
    block: int
    raters: int
    k: int
    n: int
    kappa: float
    coefficients: tuple[str, ...]
    replications: int
    n_resamples: int
    seed: int
    methods: tuple[str, ...]


@dataclass
class Outcome:
    """One coefficient in one grid cell: estimates, SEs and intervals of every replication."""

    coefficient: str
    k: int
    n: int
    kappa: float
    truth: float
    estimate: np.ndarray  # (reps,), nan where undefined
    se: np.ndarray
    low: np.ndarray  # (reps, methods)
    high: np.ndarray
    undefined: int
    boot_warnings: np.ndarray  # (methods,): "undefined in >10% of resamples" warnings
    methods: tuple[str, ...] = METHODS  # the columns of low, high, boot_warnings


def _fit(fit: Fit, x: np.ndarray, labels: list[int]) -> Any | None:
    """Return the result, or None when the coefficient is undefined for this sample."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", concord.UndefinedKappaWarning)
        try:
            result = fit(x, labels)
        except concord.UndefinedKappaWarning:
            return None
    return result if math.isfinite(result.statistic) else None


def _intervals(
    result: Any, methods: tuple[str, ...], n_resamples: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Return the intervals of each method and whether each one warned."""
    out = np.full((len(methods), 2), np.nan)
    warned = np.zeros(len(methods), dtype=bool)
    for j, method in enumerate(methods):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out[j] = result.confidence_interval(
                LEVEL, method=method, n_resamples=n_resamples, rng=seed
            )
        warned[j] = any(issubclass(w.category, RuntimeWarning) for w in caught)
    return out, warned


def run_task(cell: Task) -> tuple[list[Outcome], float]:
    """Simulate a block of one grid cell for each of its coefficients; return outcomes, seconds."""
    start = time.perf_counter()
    rng = np.random.default_rng(np.random.SeedSequence([cell.seed, cell.index, cell.block]))
    pi = np.array(PREVALENCE[cell.k])
    theta = math.sqrt(cell.kappa)
    labels = list(range(cell.k))
    reps, m = cell.replications, len(cell.methods)
    outcomes = {}
    for name in cell.coefficients:
        outcomes[name] = Outcome(
            name,
            cell.k,
            cell.n,
            cell.kappa,
            population(name, cell.kappa, pi),
            np.full(reps, np.nan),
            np.full(reps, np.nan),
            np.full((reps, m), np.nan),
            np.full((reps, m), np.nan),
            0,
            np.zeros(m, dtype=np.int64),
            cell.methods,
        )
    for rep in range(reps):
        x = simulate(rng, cell.n, cell.raters, pi, theta)
        boot_seed = int(rng.integers(2**63))
        for name, o in outcomes.items():
            result = _fit(COEFFICIENTS[name][1], x, labels)
            if result is None:
                o.undefined += 1
                continue
            o.estimate[rep], o.se[rep] = result.statistic, result.standard_error
            ci, warned = _intervals(result, cell.methods, cell.n_resamples, boot_seed)
            o.low[rep], o.high[rep] = ci[:, 0], ci[:, 1]
            o.boot_warnings += warned
    return list(outcomes.values()), time.perf_counter() - start


def grid(replications: int, n_resamples: int, seed: int, methods: tuple[str, ...]) -> list[Task]:
    """The grid cells in blocks of at most BLOCK replications, the most expensive first."""
    two = tuple(c for c, spec in COEFFICIENTS.items() if spec[0] == 2)
    five = tuple(c for c, spec in COEFFICIENTS.items() if spec[0] == 5)
    cells = [
        (raters, k, n, kappa, coefs)
        for raters, coefs in ((2, two), (5, five))
        for k in PREVALENCE
        for n in N_ITEMS
        for kappa in KAPPAS
    ]
    tasks = [
        Task(
            index,
            start // BLOCK,
            *cell,
            min(BLOCK, replications - start),
            n_resamples,
            seed,
            methods,
        )
        for index, cell in enumerate(cells)
        for start in range(0, replications, BLOCK)
    ]
    # cost grows with n, the number of coefficients, k and the number of distinct patterns
    return sorted(tasks, key=lambda t: (t.n, len(t.coefficients), t.k, -t.kappa), reverse=True)


def merge(blocks: list[Outcome]) -> Outcome:
    """Join the blocks of one coefficient in one cell, in block order."""
    first = blocks[0]
    return Outcome(
        first.coefficient,
        first.k,
        first.n,
        first.kappa,
        first.truth,
        np.concatenate([b.estimate for b in blocks]),
        np.concatenate([b.se for b in blocks]),
        np.concatenate([b.low for b in blocks]),
        np.concatenate([b.high for b in blocks]),
        sum(b.undefined for b in blocks),
        np.sum([b.boot_warnings for b in blocks], axis=0),
        first.methods,
    )


def restrict(o: Outcome, methods: tuple[str, ...]) -> Outcome:
    """The outcome with only the columns of ``methods`` (each one among ``o.methods``)."""
    columns = [o.methods.index(m) for m in methods]
    return dataclasses.replace(
        o,
        low=o.low[:, columns],
        high=o.high[:, columns],
        boot_warnings=o.boot_warnings[columns],
        methods=methods,
    )


def simulate_grid(args: argparse.Namespace, start: float) -> list[Outcome]:
    """Run every task on ``args.processes`` processes; return one outcome per coefficient, cell."""
    tasks = grid(args.replications, args.n_resamples, args.seed, args.methods)
    parts: dict[tuple[str, int, int, float], dict[int, Outcome]] = {}
    with multiprocessing.get_context(args.start_method).Pool(args.processes) as pool:
        done = pool.imap_unordered(_indexed, tasks)
        for count, (block, result, seconds) in enumerate(done, 1):
            for o in result:
                parts.setdefault((o.coefficient, o.k, o.n, o.kappa), {})[block] = o
            o = result[0]
            print(
                f"[{count}/{len(tasks)}] k={o.k} n={o.n} κ={o.kappa} block {block}, "
                f"{len(result)} coefficient(s): {seconds:.0f} s "
                f"(elapsed {time.perf_counter() - start:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    return [merge([p[b] for b in sorted(p)]) for p in parts.values()]


def _indexed(task: Task) -> tuple[int, list[Outcome], float]:
    return (task.block, *run_task(task))


# --- summaries -------------------------------------------------------------------------


def coverage(o: Outcome) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per method: coverage (%), mean length, and the number of nan intervals."""
    defined = np.isfinite(o.estimate)
    low, high = o.low[defined], o.high[defined]
    finite = np.isfinite(low) & np.isfinite(high)
    hit = (low <= o.truth) & (o.truth <= high)
    count = finite.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        cov = 100 * (hit & finite).sum(axis=0) / count
        length = np.where(finite, high - low, 0).sum(axis=0) / count
    return cov, length, (~finite).sum(axis=0)


def se_ratio(o: Outcome) -> float:
    """RMS of the reported SE over the empirical SD of the estimate."""
    ok = np.isfinite(o.estimate) & np.isfinite(o.se)
    if ok.sum() < 2:
        return float("nan")
    sd = float(np.std(o.estimate[ok], ddof=1))
    return float(np.sqrt(np.mean(o.se[ok] ** 2))) / sd if sd > 0 else float("nan")


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _header(names: list[str], align: str = "---:") -> list[str]:
    return [_row(names), _row([align] * len(names))]


def coefficient_section(name: str, outcomes: list[Outcome], methods: tuple[str, ...]) -> list[str]:
    """The coverage and length tables of one coefficient, one row per grid cell."""
    raters = COEFFICIENTS[name][0]
    lines = [f"### {name} ({raters} raters)", ""]
    lines += _header(
        ["k", "n", "κ", "true value", "undef", "κ̂=1", "bias", "SE/SD"]
        + [SHORT[m] for m in methods]
    )
    lengths = _header(["k", "n", "κ"] + [SHORT[m] for m in methods])
    nan_rows = []
    for o in sorted(outcomes, key=lambda o: (o.k, o.n, o.kappa)):
        cov, length, nans = coverage(o)
        defined = np.isfinite(o.estimate)
        perfect = int(np.sum(o.estimate[defined] == 1))
        bias = float(np.mean(o.estimate[defined]) - o.truth) if defined.any() else math.nan
        key = [str(o.k), str(o.n), f"{o.kappa:g}"]
        lines.append(
            _row(
                [*key, f"{o.truth:.4f}", str(o.undefined), str(perfect), f"{bias:+.4f}"]
                + [f"{se_ratio(o):.3f}"]
                + [f"{c:.1f}" for c in cov]
            )
        )
        lengths.append(_row(key + [f"{v:.4f}" for v in length]))
        if nans.any() or o.boot_warnings.any():
            nan_rows.append(
                _row(key + [f"{a} / {b}" for a, b in zip(nans, o.boot_warnings, strict=True)])
            )
    lines += ["", "Mean interval length:", "", *lengths, ""]
    if nan_rows:
        lines += ["nan intervals / bootstrap warnings (>10% undefined resamples):", ""]
        lines += [*_header(["k", "n", "κ"] + [SHORT[m] for m in methods]), *nan_rows, ""]
    return lines


def summary_table(
    by_coef: dict[str, list[Outcome]], keep: Callable[[Outcome], bool], methods: tuple[str, ...]
) -> list[str]:
    """Coverage min–max (mean) [cells outside 94–96] over the kept cells, per coefficient."""
    lines = _header(["coefficient"] + [SHORT[m] for m in methods])
    lines[1] = _row([":---"] + ["---:"] * len(methods))
    for name, outcomes in by_coef.items():
        covs = np.array([coverage(o)[0] for o in outcomes if keep(o)])
        if covs.size == 0:
            continue
        lo, hi, mean = np.nanmin(covs, axis=0), np.nanmax(covs, axis=0), np.nanmean(covs, axis=0)
        outside = np.sum((covs < 94) | (covs > 96), axis=0)
        lines.append(
            _row(
                [name]
                + [
                    f"{a:.1f}–{b:.1f} ({c:.1f}) [{d}]"
                    for a, b, c, d in zip(lo, hi, mean, outside, strict=True)
                ]
            )
        )
    return lines


def report(
    outcomes: list[Outcome], args: argparse.Namespace, seconds: float, run: tuple[str, ...]
) -> str:
    """The whole markdown report; ``run`` are the methods simulated, ``outcomes`` those shown."""
    by_coef: dict[str, list[Outcome]] = {name: [] for name in COEFFICIENTS}
    for o in outcomes:
        by_coef[o.coefficient].append(o)
    methods = outcomes[0].methods
    ran = f"Methods run: {', '.join(run)}"
    if len(run) == len(METHODS):
        ran += " (all five)"
    if methods != run:
        ran += f"; shown here: {', '.join(methods)}"
    resamples = (
        f"{args.n_resamples} bootstrap resamples, "
        if any(m.startswith("bootstrap") for m in run)
        else ""
    )
    mc = 100 * math.sqrt(LEVEL * (1 - LEVEL) / args.replications)
    lines = [
        "# Coverage of concord's confidence intervals",
        "",
        f"Generated by `benchmarks/coverage.py` (concord {concord.__version__}): "
        f"{args.replications} replications per cell, {resamples}"
        f"{LEVEL:.0%} intervals, seed {args.seed}; run time {seconds / 60:.1f} min on "
        f"{args.processes} processes. {ran}, each for every coefficient.",
        "",
        "Model: each item has a true category drawn from π; each rater reports it with "
        "probability θ = √κ, otherwise a category drawn from π. The population value is κ for "
        "Cohen, Fleiss, Krippendorff (nominal) and Conger, (p_a − p_e,g)/(1 − p_e,g) for "
        "Gwet's AC1 and (p_a − 1/k)/(1 − 1/k) for Brennan-Prediger, "
        "p_a = θ² + (1 − θ²)Σπ². "
        f"π = {PREVALENCE[3]} for k = 3 and {PREVALENCE[6]} for k = 6.",
        "",
        f"Coverage in %; its Monte Carlo standard error is about {mc:.1f} points near 95%. "
        "The five multi-rater coefficients share their data sets, so their Monte Carlo errors "
        "in a cell are correlated.",
        "",
        "## Summary: coverage for n ≥ 100, min–max (mean) over the 12 cells",
        "",
        "In brackets: the number of cells with coverage outside 94–96%. With exact 95% coverage "
        "Monte Carlo error alone puts about "
        f"{100 * (1 - math.erf(1 / mc / math.sqrt(2))):.0f}% of cells outside.",
        "",
        *summary_table(by_coef, lambda o: o.n >= 100, methods),
        "",
        "## Coverage at n = 30, min–max (mean) over the 6 cells",
        "",
        *summary_table(by_coef, lambda o: o.n == 30, methods),
        "",
        "## Coverage at n = 1000, min–max (mean) over the 6 cells",
        "",
        *summary_table(by_coef, lambda o: o.n == 1000, methods),
        "",
        "## Per coefficient",
        "",
        "undef: data sets with an undefined coefficient (left out); κ̂=1: data sets with "
        "perfect agreement (every interval is [1, 1]); bias: mean estimate − true value; "
        "SE/SD: RMS of the reported SE over the empirical SD of the estimates.",
        "",
    ]
    for name, group in by_coef.items():
        if group:
            lines += coefficient_section(name, group, methods)
    return "\n".join(lines)


# --- self-check --------------------------------------------------------------------------


def self_check(seed: int, n: int = 10**6, tolerance: float = 0.005) -> list[str]:
    """Check p_a and every population value on n simulated items per (k, κ)."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 10**6]))
    lines = [
        f"Self-check on {n} items per (k, κ): largest |estimate − population value| "
        f"(tolerance {tolerance})."
    ]
    worst: dict[str, float] = {}
    for k, prevalence in PREVALENCE.items():
        pi = np.array(prevalence)
        for kappa in KAPPAS:
            theta = math.sqrt(kappa)
            x = simulate(rng, n, 5, pi, theta)
            pairs = [(g, h) for g in range(5) for h in range(g + 1, 5)]
            pa = float(np.mean([np.mean(x[:, g] == x[:, h]) for g, h in pairs]))
            worst["p_a"] = max(worst.get("p_a", 0.0), abs(pa - _pa(theta, pi)))
            for name, (_, fit, value) in COEFFICIENTS.items():
                gap = abs(fit(x, list(range(k))).statistic - value(theta, pi))
                worst[name] = max(worst.get(name, 0.0), gap)
    for name, gap in worst.items():
        lines.append(f"  {name:20s} {gap:.5f}")
        if gap > tolerance:
            raise AssertionError(f"self-check failed for {name}: {gap} > {tolerance}")
    return lines


# --- main --------------------------------------------------------------------------------


PAIRED_N = (100, 200)
PAIRED_METHODS = ("t", "wald", "bootstrap-percentile", "bootstrap-bca")
PAIRED_OUTPUT = _HERE / "results" / "coverage_paired.md"
K3 = np.array(PREVALENCE[3])
K6 = np.array(PREVALENCE[6])
ERRORS = {"A": {-2: 0.05, -1: 0.2, 0: 0.5, 1: 0.2, 2: 0.05}, "B": {-1: 0.1, 0: 0.8, 1: 0.1}}


def _ordinal(rng: np.random.Generator, truth: np.ndarray, model: str) -> np.ndarray:
    steps, probs = zip(*ERRORS[model].items(), strict=True)
    return np.clip(truth + rng.choice(steps, size=truth.size, p=probs), 0, K6.size - 1)


def paired_truth(model: str) -> float:
    """Population QWK of truth against an ordinal model: from the joint table π_i P(j | i)."""
    k = K6.size
    joint = np.zeros((k, k))
    for i in range(k):
        for e, p in ERRORS[model].items():
            joint[i, min(max(i + e, 0), k - 1)] += K6[i] * p
    agree = 1 - (np.subtract.outer(np.arange(k), np.arange(k)) / (k - 1)) ** 2
    p_e = float(joint.sum(axis=1) @ agree @ joint.sum(axis=0))
    return (float(np.sum(agree * joint)) - p_e) / (1 - p_e)


def _paired_sample(name: str, rng: np.random.Generator, n: int) -> tuple[Any, Any]:
    """One data set of the paired study: the two sides of ``compare``."""
    if name == "qwk":
        truth = rng.choice(K6.size, size=n, p=K6)
        return (truth, _ordinal(rng, truth, "A")), (truth, _ordinal(rng, truth, "B"))
    if name == "cohen":
        truth = rng.choice(K3.size, size=n, p=K3)
        a, b = (
            np.where(rng.random(n) < theta, truth, rng.choice(K3.size, size=n, p=K3))
            for theta in (0.6, 0.75)
        )
        return (truth, a), (truth, b)
    truth = rng.choice(K3.size, size=n, p=K3)
    panels = []
    for theta in (math.sqrt(0.5), math.sqrt(0.7)):
        guess = rng.choice(K3.size, size=(n, 5), p=K3)
        panels.append(np.where(rng.random((n, 5)) < theta, truth[:, None], guess))
    return panels[0], panels[1]


# name -> (function, options, true difference)
PAIRED = {
    "cohen": (concord.cohen_kappa, {"labels": [0, 1, 2]}, 0.75 - 0.6),
    "qwk": (
        concord.cohen_kappa,
        {"weights": "quadratic", "labels": list(range(6))},
        paired_truth("B") - paired_truth("A"),
    ),
    "fleiss": (concord.fleiss_kappa, {"labels": [0, 1, 2]}, 0.7 - 0.5),
}


def paired_study(replications: int, n_resamples: int, seed: int) -> list[str]:
    """Coverage of the paired difference's intervals: one markdown table."""
    lines = [
        "| difference | n | true Δ | SE/SD | " + " | ".join(PAIRED_METHODS) + " |",
        "|---|---:|---:|---:|" + "---:|" * len(PAIRED_METHODS),
    ]
    for index, (name, (function, options, true)) in enumerate(PAIRED.items()):
        for n in PAIRED_N:
            rng = np.random.default_rng(np.random.SeedSequence([seed, index, n]))
            hits = np.zeros(len(PAIRED_METHODS))
            estimates, ses = [], []
            for _ in range(replications):
                first, second = _paired_sample(name, rng, n)
                r = concord.compare(function, first, second, **options)
                estimates.append(r.difference)
                ses.append(r.standard_error)
                boot = int(rng.integers(2**63))
                for j, method in enumerate(PAIRED_METHODS):
                    low, high = r.confidence_interval(
                        LEVEL, method=method, n_resamples=n_resamples, rng=boot
                    )
                    hits[j] += low <= true <= high
            ratio = math.sqrt(np.mean(np.square(ses))) / float(np.std(estimates, ddof=1))
            cells = [f"{100 * h / replications:.1f}%" for h in hits]
            head = f"| {name} | {n} | {true:.4f} | {ratio:.3f} | "
            lines.append(head + " | ".join(cells) + " |")
    return lines


def parse_methods(text: str) -> tuple[str, ...]:
    """A comma-separated list of interval methods, returned in the order of METHODS."""
    names = {name.strip() for name in text.split(",") if name.strip()}
    unknown = sorted(names - set(METHODS))
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown method(s) {', '.join(unknown)}; choose from {', '.join(METHODS)}"
            if unknown
            else "no method given"
        )
    return tuple(m for m in METHODS if m in names)


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--replications", type=int, default=2000, help="data sets per cell")
    p.add_argument("--n-resamples", type=int, default=999, help="bootstrap resamples")
    p.add_argument("--seed", type=int, default=20240611)
    p.add_argument("--processes", type=int, default=2)
    p.add_argument(
        "--methods",
        type=parse_methods,
        help=f"comma-separated interval methods (default all: {','.join(METHODS)})",
    )
    p.add_argument(
        "--start-method",
        choices=multiprocessing.get_all_start_methods(),
        default="fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn",
        help="multiprocessing start method",
    )
    p.add_argument("--output", type=Path, default=OUTPUT)
    p.add_argument("--no-self-check", dest="self_check", action="store_false")
    p.add_argument("--save-raw", type=Path, help="pickle every replication's results here")
    p.add_argument("--load-raw", type=Path, help="rebuild the report from --save-raw's file")
    p.add_argument("--paired", action="store_true", help="only the paired-difference study")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    start = time.perf_counter()
    if args.paired:
        lines = paired_study(args.replications, args.n_resamples, args.seed)
        text = "\n".join(
            [
                f"# Coverage of paired differences (concord.compare), 95% intervals, "
                f"{args.replications} data sets per row, bootstrap {args.n_resamples} "
                f"resamples, {time.perf_counter() - start:.0f} s",
                "",
                *lines,
            ]
        )
        PAIRED_OUTPUT.write_text(text + "\n", encoding="utf-8")
        print(text)
        return
    if args.load_raw is not None:
        with args.load_raw.open("rb") as f:
            saved = pickle.load(f)  # our own file
        shown = args.methods
        args = argparse.Namespace(**{**vars(args), **saved["args"]})
        # raw files from before --methods existed hold every method (Outcome's default)
        outcomes = [
            Outcome(**{**o, "methods": tuple(o.get("methods", METHODS))})
            for o in saved["outcomes"]
        ]
        run = outcomes[0].methods
        if shown is not None:
            missing = [m for m in shown if m not in run]
            if missing:
                sys.exit(f"--methods: {', '.join(missing)} not in {args.load_raw}")
            outcomes = [restrict(o, shown) for o in outcomes]
        seconds = saved["seconds"]
    else:
        if args.methods is None:
            args.methods = METHODS
        run = args.methods
        if args.self_check:
            print("\n".join(self_check(args.seed)), file=sys.stderr)
        outcomes = simulate_grid(args, start)
        seconds = time.perf_counter() - start
    if args.save_raw is not None:
        keys = ("replications", "n_resamples", "seed", "processes")
        saved = {
            "args": {key: getattr(args, key) for key in keys},
            "outcomes": [dataclasses.asdict(o) for o in outcomes],
            "seconds": seconds,
        }
        with args.save_raw.open("wb") as f:
            pickle.dump(saved, f)
    text = report(outcomes, args, seconds, run)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
