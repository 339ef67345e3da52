"""Write values.json: rater_diagnostics' every field as the per-rater loop computed it.

The values were first written by this script on commit 8f8f673 (the code
before the leave-one-out was batched: one coefficient call, one Cohen's kappa,
one Stuart–Maxwell test per rater), and the batched code gave them bit for
bit. They were written again when the results became the one-shot function's
on the same raters (α's SE in the raw ratings' form; the summaries name the
raters): tests/test_rater_diagnostics_exact.py also runs the per-rater loop
itself beside the batched code. Run from the repository root:
``PYTHONPATH=src python tests/reference/raters/generate.py``.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

import concord

HERE = Path(__file__).resolve().parent

# (name, function, options); the panels come from panel(seed) below
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("alpha-nominal", "krippendorff_alpha", {}),
    ("alpha-ordinal", "krippendorff_alpha", {"level": "ordinal"}),
    ("alpha-interval", "krippendorff_alpha", {"level": "interval"}),
    ("alpha-ratio", "krippendorff_alpha", {"level": "ratio"}),
    ("fleiss", "fleiss_kappa", {}),
    ("gwet-quadratic", "gwet_ac", {"weights": "quadratic"}),
    ("brennan-prediger", "brennan_prediger", {}),
    ("percent", "percent_agreement", {}),
    ("conger", "conger_kappa", {}),
]
SEEDS = (1, 2, 3, 30)


def panel(seed: int) -> np.ndarray:
    """Items × raters, categories 1-5 (unequal spacing at seed 3), about 15% missing.

    Some items are rated once (leaving that rater out empties them), some by
    two raters (their majority can tie), and rater 2 drifts upward.
    """
    rng = np.random.default_rng(seed)
    n, raters = 70 + 10 * seed, 6 + seed
    truth = rng.integers(1, 6, n)
    noise = rng.choice([-1, 0, 0, 0, 1], size=(n, raters))
    x = np.clip(truth[:, None] + noise, 1, 5).astype(float)
    x[:, 2] = np.clip(x[:, 2] + (rng.random(n) < 0.3), 1, 5)
    x[rng.random(x.shape) < 0.15] = np.nan
    x[:4, 1:] = np.nan  # items rated by rater 0 only
    x[4:8, 2:] = np.nan  # items rated by raters 0 and 1 only
    x[:, 0] = np.where(np.isnan(x[:, 0]), truth, x[:, 0])  # every item rated
    if seed == 3:  # unequally spaced values: 1, 2, 4, 5, 9
        scale = np.array([np.nan, 1.0, 2.0, 4.0, 5.0, 9.0])
        x = scale[np.nan_to_num(x, nan=0).astype(int)]
    return x


def fields(d: Any) -> dict[str, Any]:
    """Every number of the diagnostics: its to_dict(), and each per-rater result's."""
    return {
        "diagnostics": d.to_dict(),
        "full": d.full.to_dict(),
        "without": [r.to_dict() for r in d.without],
        "changes": [c.to_dict() for c in d.changes],
        "versus_panel": [k.to_dict() for k in d.versus_panel],
        "homogeneity": [h.to_dict() for h in d.homogeneity],
        "category_counts": d.category_counts.tolist(),
        "panel_counts": d.panel_counts.tolist(),
    }


def compute() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for seed in SEEDS:
        x = panel(seed)
        for name, function, options in CASES:
            d = concord.rater_diagnostics(x, function=getattr(concord, function), **options)
            out[f"{name}/{seed}"] = fields(d)
        groups = np.arange(x.shape[0]) // 3
        d = concord.rater_diagnostics(x, groups=groups)
        out[f"alpha-groups/{seed}"] = fields(d)
    return out


def canonical(value: Any) -> Any:
    """JSON with every float as its hex string: NaN, infinities and the last bit kept."""
    if isinstance(value, float):
        return value.hex() if math.isfinite(value) else repr(value)
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    return value


def digest(value: Any) -> str:
    """The first 16 hex digits of the SHA-256 of a value's canonical JSON."""
    text = json.dumps(canonical(value), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def digests(values: dict[str, Any]) -> dict[str, Any]:
    """Each case's sections as digests: one per result (per rater), one per array."""
    return {
        case: {
            name: [digest(v) for v in part]
            if isinstance(part, list) and name in PER_RATER
            else digest(part)
            for name, part in sections.items()
        }
        for case, sections in values.items()
    }


PER_RATER = ("without", "changes", "versus_panel", "homogeneity")

if __name__ == "__main__":
    text = json.dumps(digests(compute()), indent=1, sort_keys=True)
    (HERE / "values.json").write_text(text + "\n")
