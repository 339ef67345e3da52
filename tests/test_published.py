"""Published two-rater kappas, to the digits their sources print.

The values, tables and sources are in tests/reference/two_rater.json (see
tests/reference/README.md): Cohen (1968), Fleiss, Cohen & Everitt (1969),
SAS PROC FREQ, R irr::kappa2, vcd/vcdExtra, Artstein & Poesio (2008) and
scikit-learn's own tests.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import concord

ENTRIES = json.loads((Path(__file__).parent / "reference" / "two_rater.json").read_text())


def ratings_from_table(table):
    """Expand a k×k count table into two aligned rating vectors of category positions."""
    t = np.asarray(table, dtype=np.int64)
    rows, cols = np.indices(t.shape)
    return np.repeat(rows.ravel(), t.ravel()), np.repeat(cols.ravel(), t.ravel())


def digits(entry, key):
    return entry.get("digits_by_key", {}).get(key, entry["digits"])


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_published_kappa(entry):
    a, b = ratings_from_table(entry["table"])
    k = len(entry["labels"])
    weights = entry["weights"]
    r = concord.cohen_kappa(a, b, weights=weights, labels=range(k))
    np.testing.assert_array_equal(r.observed, entry["table"])
    tolerance = 0.5 * 10 ** -digits(entry, "kappa") + 1e-12
    assert abs(r.statistic - entry["published"]["kappa"]) <= tolerance
    for key, value in (("p_o", r.observed_agreement), ("p_e", r.chance_agreement)):
        if key in entry["published"]:
            assert abs(value - entry["published"][key]) <= 0.5 * 10 ** -digits(entry, key)


def test_cohen_1968_asymmetric_weights_depend_on_orientation():
    # Cohen (1968) reports κ_w = .353 for his non-symmetric weights; the transposed
    # table (the raters swapped) gives a different value, as it must.
    entry = next(e for e in ENTRIES if e["id"] == "cohen1968_table1_weighted_nonsymmetric")
    a, b = ratings_from_table(entry["table"])
    w = entry["weights"]
    forward = concord.cohen_kappa(a, b, weights=w, labels=range(3)).statistic
    swapped = concord.cohen_kappa(b, a, weights=w, labels=range(3)).statistic
    assert round(forward, 3) == 0.353
    assert round(swapped, 4) == 0.4206
