"""rater_diagnostics batched over the raters gives the per-rater loop's values bit for bit.

Two references: the loop itself, run in the test (:func:`_per_rater_loop`,
the code of commit 8f8f673 on the same helpers, so the same machine's BLAS
on both sides), and digests it wrote (below).

Expected values: tests/reference/raters/values.json, written by
tests/reference/raters/generate.py (first with the per-rater loop of commit
8f8f673: one coefficient call, one Cohen's kappa and one Stuart–Maxwell test
per rater left out; again when α's SE took the raw ratings' form, and when
the SEs' sums became exact): a digest of every field of the result and of
each per-rater result
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
from typing import Any

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


def _joint(inverse: np.ndarray, code: np.ndarray, width: int) -> tuple[np.ndarray, ...]:
    """The joint patterns of (panel pattern, one rater's code + 1), as the loop counted them."""
    key = inverse * width + code + 1
    tally = np.bincount(key)
    present = np.flatnonzero(tally)
    lookup = np.zeros(tally.shape[0], dtype=np.int64)
    lookup[present] = np.arange(present.size)
    pattern, code1 = np.divmod(present, width)
    return lookup[key], pattern, code1, tally[present]


def _per_rater_loop(x: np.ndarray, function: Any, **options: Any) -> dict[str, Any]:
    """Every rater left out one at a time: the coefficient, the change, κ and the MH test."""
    from concord._coefficients.kappa.categories import homogeneity_of_table
    from concord._studies.compare.compare import _options, compared, difference_se, finish
    from concord._studies.raters import diagnostics as diag
    from concord._studies.raters import diagnostics_panel as dp
    from concord._tables.patterns import merge

    c = compared(function, True, "rater_diagnostics", "terms")
    matrix = diag._matrix(x, None)
    labels, codes = matrix.labels, matrix.codes
    opts = _options(c, (x,), {**options, "labels": list(labels.values)}, "rater_diagnostics")
    weights = dp.kappa_weights(opts)
    panel, inverse = merge(matrix.counts(), np.ones(codes.shape[0], dtype=np.int64))
    names = tuple(matrix.raters)
    full, u_full = diag._core_side(c, panel.rows, panel.freq, labels, opts, names)
    out: dict[str, list[Any]] = {"without": [], "changes": [], "versus": [], "mh": []}
    for r in range(codes.shape[1]):
        item, pattern, code1, freq = _joint(inverse, codes[:, r], labels.k + 1)
        rows = panel.rows[pattern].copy()
        rated = np.flatnonzero(code1)
        rows[rated, code1[rated] - 1] -= 1
        result, u = diag._core_side(c, rows, freq, labels, opts, names[:r] + names[r + 1 :])
        se, df = difference_se(c, (u - u_full[pattern])[item], None)
        out["without"].append(result)
        out["changes"].append(finish(full, result, se, df, True, 0.95, "t"))
        table = dp._table(codes[:, r], dp.panel_reference(rows, False)[item], labels)
        out["mh"].append(homogeneity_of_table(table, labels.values))
        if weights is not None:
            table = dp._table(codes[:, r], dp.panel_reference(rows, True)[item], labels)
        out["versus"].append(dp._kappa_of(np.ascontiguousarray(table.T), labels, weights))
    out["pairwise"] = [dp.pairwise_kappas(codes, labels, weights)]
    out["full"] = [full]
    return out


@pytest.mark.parametrize("seed", [1, 3, 30])
@pytest.mark.parametrize(
    "case", range(len(GENERATE.CASES) - 1), ids=lambda i: GENERATE.CASES[i][0]
)
def test_every_field_is_the_per_rater_loops_run_here(seed: int, case: int) -> None:
    _, f, options = GENERATE.CASES[case]  # all but Conger's, which takes the general path
    function = getattr(concord, f)
    x = GENERATE.panel(seed)
    d = concord.rater_diagnostics(x, function=function, **options)
    loop = _per_rater_loop(x, function, **options)
    got = {
        "without": d.without,
        "changes": d.changes,
        "versus": d.versus_panel,
        "mh": d.homogeneity,
        "full": [d.full],
    }
    for part, results in got.items():
        for r, (a, b) in enumerate(zip(results, loop[part], strict=True)):
            assert GENERATE.digest(a.to_dict()) == GENERATE.digest(b.to_dict()), (part, r)
    np.testing.assert_array_equal(d.pairwise, loop["pairwise"][0])


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
    from concord._studies.raters import diagnostics_panel, joints, leave_out

    monkeypatch.setattr(joints, "_TALLY", 64)  # nor the rows of codes counted once
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


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_many_items_few_patterns_as_the_per_rater_loop(level: str) -> None:
    """Few raters and many items share few patterns: each rater's are summed instead."""
    rng = np.random.default_rng(5)
    truth = rng.integers(1, 4, 1500)
    x = np.where(rng.random((1500, 4)) < 0.8, truth[:, None], rng.integers(1, 4, (1500, 4)))
    x = x.astype(float)
    x[rng.random(x.shape) < 0.1] = np.nan
    x[:, 0] = np.where(np.isnan(x[:, 0]), truth, x[:, 0])
    d = concord.rater_diagnostics(x, level=level)
    loop = _per_rater_loop(x, concord.krippendorff_alpha, level=level)
    for part, results in (("without", d.without), ("changes", d.changes), ("mh", d.homogeneity)):
        for r, (a, b) in enumerate(zip(results, loop[part], strict=True)):
            assert GENERATE.digest(a.to_dict()) == GENERATE.digest(b.to_dict()), (part, r)


@pytest.mark.parametrize("level", ["nominal", "interval"])
def test_few_items_as_the_per_rater_loop(level: str) -> None:
    """Krippendorff's (2011) 12 units × 4 observers: fewer joint patterns than pattern × code."""
    nan = float("nan")
    x = np.array(
        [[1, 1, nan, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
         [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [nan, 5, 5, 5], [nan, nan, 1, 1],
         [nan, nan, 3, nan]]
    )  # fmt: skip
    d = concord.rater_diagnostics(x, level=level)
    loop = _per_rater_loop(x, concord.krippendorff_alpha, level=level)
    for part, results in (("without", d.without), ("changes", d.changes), ("mh", d.homogeneity)):
        for r, (a, b) in enumerate(zip(results, loop[part], strict=True)):
            assert GENERATE.digest(a.to_dict()) == GENERATE.digest(b.to_dict()), (part, r)


@pytest.mark.parametrize("level", ["nominal", "interval"])
def test_a_finite_population_as_the_per_rater_loop(level: str) -> None:
    """With population_size each left-out α's inference is formed at once, as the loop did."""
    x = GENERATE.panel(1)
    d = concord.rater_diagnostics(x, level=level, population_size=500)
    loop = _per_rater_loop(x, concord.krippendorff_alpha, level=level, population_size=500)
    for part, results in (("without", d.without), ("changes", d.changes)):
        for r, (a, b) in enumerate(zip(results, loop[part], strict=True)):
            assert GENERATE.digest(a.to_dict()) == GENERATE.digest(b.to_dict()), (part, r)
