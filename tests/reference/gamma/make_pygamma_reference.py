"""Reference values for ``concord.gamma`` from pygamma-agreement 0.5.9.

Run in a throwaway environment (never the project's)::

    python3 -m venv /tmp/gamma-ref-venv
    /tmp/gamma-ref-venv/bin/pip install pygamma-agreement==0.5.9 cvxopt
    /tmp/gamma-ref-venv/bin/python tests/reference/gamma/make_pygamma_reference.py

It writes ``pygamma_0_5_9.json`` beside itself: for each of pygamma's own example files
(tests/data/gamma, copied from pygamma-agreement's tests/data, MIT licence) the best
alignment (its disorder and its unitary alignments) and, for several seeds of numpy's global
generator, gamma, gamma-cat and gamma-k with the default chance model
(``StatisticalContinuumSampler``) at the given precision level.  The tests read the JSON;
they never import pygamma.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from pygamma_agreement import CombinedCategoricalDissimilarity, Continuum

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "data" / "gamma"

CASES = [
    # file, alpha, beta, precision level, seeds
    ("AlexPaulSuzan.csv", 3.0, 1.0, 0.01, [4772, 1, 2, 3, 4]),
    ("AlexPaulSuzan.csv", 1.0, 1.0, 0.01, [4772, 1, 2]),
    ("example_figure10.csv", 1.0, 1.0, 0.01, [4772, 1, 2]),
    # about 14 000 random continua at 0.01 (11 minutes per seed in pygamma): 0.02 here
    ("example_figure19.csv", 1.0, 1.0, 0.02, [4772, 1]),
    ("annotation_paul_suzann_alex.csv", 1.0, 1.0, 0.01, [4772, 1, 2]),
    ("3by100.csv", 3.0, 1.0, 0.02, [4772]),
]


def alignment_rows(alignment: object) -> list[list[object]]:
    """Each unitary alignment as [[annotator, start, end, label] or [annotator, None], ...]."""
    rows = []
    for unitary in alignment.unitary_alignments:  # type: ignore[attr-defined]
        row = []
        for annotator, unit in unitary.n_tuple:
            if unit is None:
                row.append([annotator, None, None, None])
            else:
                row.append([annotator, unit.segment.start, unit.segment.end, unit.annotation])
        rows.append(row)
    return rows


def one_case(name: str, alpha: float, beta: float, precision: float, seeds: list[int]) -> dict:
    continuum = Continuum.from_csv(DATA / name)
    dissim = CombinedCategoricalDissimilarity(alpha=alpha, beta=beta, delta_empty=1.0)
    best = continuum.get_best_alignment(dissim)
    runs = []
    for seed in seeds:
        np.random.seed(seed)  # noqa: NPY002 - pygamma draws from numpy's global generator
        began = time.perf_counter()
        result = continuum.compute_gamma(dissim, precision_level=precision)
        gamma = float(result.gamma)
        seconds = time.perf_counter() - began
        gamma_cat = float(result.gamma_cat)
        gamma_k = {}
        for category in continuum.categories:
            try:
                gamma_k[category] = float(result.gamma_k(category))
            except ZeroDivisionError:
                gamma_k[category] = None
        runs.append(
            {
                "seed": seed,
                "seconds_gamma": seconds,
                "n_samples": result.n_samples,
                "expected_disorder": result.expected_disorder,
                "gamma": gamma,
                "gamma_cat": gamma_cat,
                "gamma_k": gamma_k,
            }
        )
        print(name, alpha, seed, runs[-1], file=sys.stderr)
    return {
        "file": name,
        "alpha": alpha,
        "beta": beta,
        "precision_level": precision,
        "observed_disorder": float(best.disorder),
        "n_unitary_alignments": len(best.unitary_alignments),
        "alignment": alignment_rows(best),
        "runs": runs,
    }


def main() -> None:
    import pygamma_agreement

    out = {
        "source": "pygamma-agreement 0.5.9 (MIT), CombinedCategoricalDissimilarity, "
        "default StatisticalContinuumSampler, numpy global seed per run",
        "pygamma_version": getattr(pygamma_agreement, "__version__", "0.5.9"),
        "cases": [],
    }
    for case in CASES:  # written after each case: a long run keeps what it has
        out["cases"].append(one_case(*case))
        (HERE / "pygamma_0_5_9.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
