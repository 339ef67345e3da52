"""Write pages.json: digests of the report's pages and sections, as the code of 04ec094 wrote them.

The report's speed work (the panel's patterns counted once for the raters'
and the categories' sections, the changes' SEs from the joint patterns, the
pairwise tables from one count) must leave every printed value the same:
tests/test_report_encoded.py compares the page of each case (the HTML
without plots, its time stamp blanked) and the raters' and categories'
results (to_dict(), floats as hex) with the digests written here, first by
this script on commit 04ec094 (before that work). Main's own later changes
to the values (a9d2c93: exact SE sums, the exact Stuart–Maxwell χ²) give
other digests; the branch merged onto a9d2c93 gave a9d2c93's digests for
every case, so on such a merge the file is written again from main's code.
Run from the repository root:
``PYTHONPATH=src python tests/reference/report/generate.py``.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import concord

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

BUNDLED = ("fleiss1971_diagnoses.csv", "krippendorff2011.csv", "seed_shift.csv")
SEEDS = (1, 2, 3, 4, 5, 6, 9, 12)
COEFFICIENTS = ("krippendorff_alpha", "fleiss_kappa", "gwet_ac", "percent_agreement")


def panel(seed: int) -> pd.DataFrame:
    """A seeded panel: 3–6 raters, 2–5 categories, 10% missing ratings (text for seed % 3 == 0)."""
    rng = np.random.default_rng(seed)
    n, r, k = int(rng.integers(20, 400)), int(rng.integers(3, 7)), int(rng.integers(2, 6))
    truth = rng.integers(0, k, n)
    noise = rng.integers(-1, 2, (n, r)) * (rng.random((n, r)) < 0.4)
    values = np.clip(truth[:, None] + noise, 0, k - 1).astype(float)
    values[rng.random((n, r)) < 0.1] = np.nan
    values[np.isnan(values).all(axis=1), 0] = 0.0  # every item rated (else no diagnostics)
    if seed % 3 == 0:  # text categories
        names = np.array(["low", "mid", "high", "top", "max"])
        texts = np.where(np.isnan(values), None, names[np.nan_to_num(values).astype(int)])
        return pd.DataFrame(texts, columns=[f"rater{j}" for j in range(r)])
    return pd.DataFrame(values, columns=[f"rater{j}" for j in range(r)])


def bundled(name: str) -> pd.DataFrame:
    """A bundled data set's rating columns (item columns dropped, rows nobody rated dropped)."""
    frame = pd.read_csv(ROOT / "data" / name)
    keep = [c for c in frame.columns if c.lower() not in ("patient", "unit", "item", "id")]
    return frame[keep].dropna(how="all")


def frames() -> dict[str, pd.DataFrame]:
    out = {name: bundled(name) for name in BUNDLED}
    out.update({f"panel-{seed}": panel(seed) for seed in SEEDS})
    return out


def page(frame: pd.DataFrame) -> str:
    """The report of every coefficient of ``frame``, without plots, its time stamp blanked."""
    from concord.report import to_html

    results = list(concord.agree(frame, form="wide").results)
    html = to_html(results, data=frame, title="t", plots=False)
    return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", "<created>", html)


def _plain(value: Any) -> Any:
    """JSON of a to_dict(): floats as hex (every bit), arrays as lists."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return "nan" if math.isnan(v) else v.hex()
    if isinstance(value, (np.integer,)):
        return int(value)
    return value if isinstance(value, (int, str, bool, type(None))) else repr(value)


def digest(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(_plain(value), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def sections(frame: pd.DataFrame, coefficient: str) -> dict[str, str]:
    """Digests of the raters' and categories' results the report computes for ``coefficient``."""
    from concord._render import questions

    lead = getattr(concord, coefficient)(frame, form="wide")
    matrix = questions.encoded(frame, lead)
    d = questions.raters(frame, lead, 0.9, matrix)
    s = questions.categories(frame, lead, matrix)
    return {
        "raters": digest(None if d is None else d.to_dict()),
        "categories": digest(
            None
            if s is None
            else {"labels": list(s.labels), "p": s.agreement, "se": s.standard_error}
        ),
    }


def values() -> dict[str, Any]:
    out: dict[str, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, frame in frames().items():
            out[name] = {"page": digest(page(frame))}
            for coefficient in COEFFICIENTS:
                out[name][coefficient] = sections(frame, coefficient)
    return out


if __name__ == "__main__":
    (HERE / "pages.json").write_text(json.dumps(values(), indent=1, sort_keys=True) + "\n")
