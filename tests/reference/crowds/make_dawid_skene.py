"""Reference values of Dawid & Skene's EM from crowd-kit's ``DawidSkene`` for test_consensus.py.

Run in a side environment with crowd-kit installed (it is in the dev extra):

    python -m venv /tmp/ck && /tmp/ck/bin/pip install crowd-kit==1.4.2
    /tmp/ck/bin/python tests/reference/crowds/make_dawid_skene.py

It writes, per case, the long ratings (``<case>.csv``: task, worker, label) and
crowd-kit's fixed point (``dawid_skene.json``): 2000 EM iterations, with no early
stop (``tol=-inf``: crowd-kit's stopping rule, on its evidence lower bound, can stop
after a few iterations), so that the comparison is of the optimum, not of where a
tolerance stops.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent


def simulated(
    seed: int, n: int, workers: int, k: int, accuracy: float, rated: float
) -> pd.DataFrame:
    """Workers who give the true class with ``accuracy``, else a uniform label; some missing."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, n)
    skill = rng.uniform(accuracy - 0.15, accuracy + 0.15, workers)
    rows = []
    for i in range(n):
        for w in range(workers):
            if rng.random() < rated:
                label = truth[i] if rng.random() < skill[w] else rng.integers(0, k)
                rows.append((f"t{i}", f"w{w}", f"c{label}"))
    return pd.DataFrame(rows, columns=["task", "worker", "label"])


CASES = {
    "three_classes": lambda: simulated(1, 300, 6, 3, 0.7, 0.8),
    "binary": lambda: simulated(2, 200, 4, 2, 0.75, 0.9),
}


def main() -> None:
    from crowdkit.aggregation import DawidSkene

    out = {}
    for name, make in CASES.items():
        df = make()
        df.to_csv(HERE / f"{name}.csv", index=False)
        ds = DawidSkene(n_iter=2000, tol=-np.inf).fit(df)
        errors = {
            w: ds.errors_.loc[w].reindex(ds.probas_.columns, fill_value=0.0).to_numpy().T.tolist()
            for w in sorted(df.worker.unique())
        }  # rows: true class, columns: observed label
        out[name] = {
            "categories": [str(c) for c in ds.probas_.columns],
            "tasks": [str(t) for t in ds.probas_.index],
            "labels": [str(v) for v in ds.labels_.loc[ds.probas_.index]],
            "posteriors": ds.probas_.to_numpy().tolist(),
            "priors": ds.priors_.loc[ds.probas_.columns].to_numpy().tolist(),
            "errors": errors,
            "iterations": len(ds.loss_history_),
        }
    import crowdkit

    out["crowd-kit"] = getattr(crowdkit, "__version__", "1.4.2")
    (HERE / "dawid_skene.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
