"""Generate ``data/essays.csv``: an essay-scoring-like sample (synthetic, fixed seed).

Each of 1,200 essays in three essay sets has a true grade on the 1-6 scale,
grades from three human raters (each with its own leniency and noise; the
third rater read only 70% of the essays), and a model's continuous score with
its rounded grade. Every number follows from the seed below, so the file is
reproducible::

    python demo/make_essays.py            # rewrites data/essays.csv
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

SEED = 20261121
N_ESSAYS = 1200
GRADES = np.arange(1, 7)
# Middle grades dominate, as in essay-scoring data sets.
GRADE_SHARE = np.array([0.06, 0.17, 0.30, 0.27, 0.14, 0.06])
# (leniency, noise sd) of the three human raters, on the grade scale
RATERS = {"rater1": (0.0, 0.55), "rater2": (0.25, 0.65), "rater3": (-0.2, 0.8)}
ESSAY_SETS = {1: 0.5, 2: 0.3, 3: 0.2}  # essay set -> its weight in the mean kappa


def _grade(x: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(x), 1, 6).astype(int)


def make(rng: np.random.Generator) -> list[dict[str, object]]:
    truth = rng.choice(GRADES, size=N_ESSAYS, p=GRADE_SHARE)
    sets = rng.choice(list(ESSAY_SETS), size=N_ESSAYS, p=[0.4, 0.35, 0.25])
    rows: list[dict[str, object]] = [
        {
            "essay_id": i + 1,
            "essay_set": int(s),
            "essay_weight": ESSAY_SETS[int(s)],
            "truth": int(t),
        }
        for i, (s, t) in enumerate(zip(sets, truth, strict=True))
    ]
    for name, (lean, sd) in RATERS.items():
        grades = _grade(truth + lean + rng.normal(0, sd, N_ESSAYS))
        read = rng.random(N_ESSAYS) < (0.7 if name == "rater3" else 1.0)
        for row, g, r in zip(rows, grades, read, strict=True):
            row[name] = int(g) if r else ""
    # The model regresses towards the mean grade: a compressed, noisy score.
    score = 3.6 + 0.8 * (truth - 3.6) + rng.normal(0, 0.6, N_ESSAYS)
    for row, s in zip(rows, score, strict=True):
        row["model_score"] = round(float(s), 4)
        row["model_grade"] = int(_grade(np.array([s]))[0])
    return rows


def main() -> None:
    rows = make(np.random.default_rng(SEED))
    out = Path(__file__).resolve().parent.parent / "data" / "essays.csv"
    header = list(rows[0])
    lines = [",".join(header)] + [",".join(str(r[h]) for h in header) for r in rows]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(rows)} essays)")


if __name__ == "__main__":
    main()
