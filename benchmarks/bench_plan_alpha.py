"""Issue 30: ``plan("alpha")`` by simulation against drawing its simulated studies alone.

Records the size of every study ``plan`` draws (pilots and searches), then
times, in interleaved rounds, drawing those studies alone (``alpha_data``),
the whole ``plan`` call, α with its analytic SE on the drawn studies as
``plan`` computes them (``nominal_alphas``, a batch of studies at once), and
the same with ``krippendorff_alpha`` one study at a time (what ``plan`` did
before); the two give the same values, bit for bit.

    python benchmarks/bench_plan_alpha.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings
from typing import Any

import numpy as np

import concord
from concord._coefficients.krippendorff.krippendorff_batch import nominal_alphas
from concord._studies.plan import plan_sim as ps

DESIGN: dict[str, Any] = {
    "expected": 0.8,
    "null": 0.667,
    "raters": 3,
    "prevalence": [0.3, 0.4, 0.3],
    "missing": 0.1,
}  # the Planning guide's example (89 items)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    props = np.array(DESIGN["prevalence"])
    sizes: list[int] = []
    draw = ps.alpha_data

    def recorded(n: int, *rest: Any) -> np.ndarray:
        sizes.append(n)
        return draw(n, *rest)

    ps.alpha_data = recorded  # type: ignore[assignment]
    n = concord.plan("alpha", **DESIGN).n
    ps.alpha_data = draw  # type: ignore[assignment]

    def studies() -> list[np.ndarray]:
        rng = np.random.default_rng(0)
        return [draw(m, 3, 0.8, props, 0.1, rng) for m in sizes]

    def batched() -> float:
        xs = studies()
        start = time.perf_counter()
        for i in range(0, len(xs), 1000):  # about plan's batches (2**20 ratings)
            nominal_alphas(xs[i : i + 1000])
        return time.perf_counter() - start

    def alphas() -> float:
        xs = studies()
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for x in xs:
                concord.krippendorff_alpha(x).standard_error  # noqa: B018
        return time.perf_counter() - start

    got: dict[str, list[float]] = {
        "draw the studies": [],
        "plan": [],
        "α + SE of them, batched": [],
        "α + SE of them, one by one": [],
    }
    for _ in range(args.rounds):
        start = time.perf_counter()
        studies()
        got["draw the studies"].append(time.perf_counter() - start)
        start = time.perf_counter()
        concord.plan("alpha", **DESIGN)
        got["plan"].append(time.perf_counter() - start)
        got["α + SE of them, batched"].append(batched())
        got["α + SE of them, one by one"].append(alphas())
    print(f"plan n = {n}; {len(sizes)} studies of {sorted(set(sizes))} items")
    print("| case | s, median (min–max) | × drawing |")
    print("|---|---|---|")
    base = statistics.median(got["draw the studies"])
    for name, ts in got.items():
        med = statistics.median(ts)
        print(f"| {name} | {med:.3f} ({min(ts):.3f}–{max(ts):.3f}) | {med / base:.1f} |")
    ratios = [p / d for p, d in zip(got["plan"], got["draw the studies"], strict=True)]
    print("plan ÷ drawing, each round:", ", ".join(f"{r:.1f}" for r in ratios))


if __name__ == "__main__":
    main()
