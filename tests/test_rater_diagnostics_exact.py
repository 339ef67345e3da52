"""rater_diagnostics batched over the raters gives the per-rater loop's values bit for bit.

Expected values: tests/reference/raters/values.json, written by
tests/reference/raters/generate.py with the per-rater loop (one coefficient
call, one Cohen's kappa and one Stuart–Maxwell test per rater left out, commit
8f8f673): a digest of every field of the result and of each per-rater result
(their to_dict(), floats as hex), for Krippendorff's α at four levels, with
clusters, Fleiss', Gwet's (quadratic weights), Brennan–Prediger's, percent
agreement and Conger's kappa on seeded panels with missing ratings, items
only one rater rated and majorities that tie. Each left-out result must also
be the public function's on the other raters, to_dict() for to_dict().
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import concord

HERE = Path(__file__).resolve().parent / "reference" / "raters"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("raters_generate", HERE / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATE = _generator()
EXPECTED = json.loads((HERE / "values.json").read_text())


@pytest.mark.parametrize("seed", GENERATE.SEEDS)
def test_every_field_is_the_per_rater_loops_bit_for_bit(seed: int) -> None:
    x = GENERATE.panel(seed)
    cases = [(name, getattr(concord, f), opts) for name, f, opts in GENERATE.CASES]
    for name, function, options in cases:
        d = concord.rater_diagnostics(x, function=function, **options)
        got = GENERATE.digests({"case": GENERATE.fields(d)})["case"]
        assert got == EXPECTED[f"{name}/{seed}"], name
    groups = np.arange(x.shape[0]) // 3
    d = concord.rater_diagnostics(x, groups=groups)
    got = GENERATE.digests({"case": GENERATE.fields(d)})["case"]
    assert got == EXPECTED[f"alpha-groups/{seed}"]


def test_small_blocks_give_the_same_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counts, the products and the pairwise tables a few raters or items at a time."""
    from concord._studies.raters import diagnostics_panel, leave_out

    monkeypatch.setattr(leave_out, "_TALLY", 64)
    monkeypatch.setattr(leave_out, "_CELLS", 40)
    monkeypatch.setattr(diagnostics_panel, "_CELLS", 200)
    x = GENERATE.panel(2)
    for name, f, options in GENERATE.CASES[:5]:
        d = concord.rater_diagnostics(x, function=getattr(concord, f), **options)
        got = GENERATE.digests({"case": GENERATE.fields(d)})["case"]
        assert got == EXPECTED[f"{name}/2"], name


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_each_left_out_alpha_is_the_public_functions_on_the_others(level: str) -> None:
    x = GENERATE.panel(3)
    labels = sorted(set(x[~np.isnan(x)].tolist()))
    d = concord.rater_diagnostics(x, level=level)
    for r in range(x.shape[1]):
        sub = np.delete(x, r, axis=1)
        sub = sub[~np.isnan(sub).all(axis=1)]
        expected = concord.krippendorff_alpha(sub, level=level, labels=labels)
        got = {k: v for k, v in d.without[r].to_dict().items() if k not in _INFERENCE}
        want = {k: v for k, v in expected.to_dict().items() if k not in _INFERENCE}
        assert GENERATE.digest(got) == GENERATE.digest(want), r


# the left-out results' own SE is Gwet's count form (irrCAC krippen.alpha.dist, their
# patterns carry no rater names), the public function's on raw ratings the raw form
_INFERENCE = ("standard_error", "ci_low", "ci_high", "pvalue")
