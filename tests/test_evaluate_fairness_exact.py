"""evaluate's fairness models are the exact least squares, each number rounded once.

Reference: the ordinary least squares of RSMTool's three models (Loukina, Madnani &
Zechner 2019; rsmtool ``fairness_utils``: the squared error and the error on the
treatment-coded groups, and the error on the groups and the human score levels, against
the error on the levels alone) recomputed here from scratch in fractions: the full
design matrix, its normal equations solved by Gauss-Jordan elimination, the residual
sum of squares summed row by row. Each float evaluate reports must be that exact value
correctly rounded (square roots too); p-values and intervals are the same functions
of those correctly rounded numbers (scipy's t and F distributions).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import concord
from concord._inference.intervals import t_quantile, t_sf


def _sqrt(x: Fraction) -> float:
    """√x correctly rounded: an integer square root with a sticky bit past 64 extra bits."""
    k = 64 + max(0, x.denominator.bit_length() - x.numerator.bit_length())
    scaled = x.numerator * 4**k
    root = math.isqrt(scaled // x.denominator)
    exact = root * root * x.denominator == scaled
    return float(Fraction(root, 2**k) if exact else Fraction(2 * root + 1, 2 ** (k + 1)))


def _solve(a: list[list[Fraction]], b: list[Fraction]) -> tuple[list[Fraction], list[Fraction]]:
    """Return the solution of a x = b and the diagonal of a⁻¹ (Gauss-Jordan, fractions)."""
    size = len(a)
    work = [
        row[:] + [Fraction(int(i == j)) for j in range(size)] + [b[i]] for i, row in enumerate(a)
    ]
    for col in range(size):
        pivot = next(r for r in range(col, size) if work[r][col] != 0)
        work[col], work[pivot] = work[pivot], work[col]
        work[col] = [v / work[col][col] for v in work[col]]
        for r in range(size):
            if r != col and work[r][col] != 0:
                f = work[r][col]
                work[r] = [x - f * y for x, y in zip(work[r], work[col], strict=True)]
    return [row[-1] for row in work], [work[i][size + i] for i in range(size)]


def _order(values: list[str]) -> list[str]:
    """RSMTool's categories: largest first, ties by text."""
    counts = {v: values.count(v) for v in set(values)}
    return sorted(counts, key=lambda v: (-counts[v], v))


def _fit(y: list[Fraction], factors: list[list[str]]) -> dict[str, Any]:
    """OLS of y on an intercept and each factor's treatment-coded dummies, in fractions."""
    columns = [[Fraction(1)] * len(y)]
    for labels in factors:
        columns += [[Fraction(int(v == c)) for v in labels] for c in _order(labels)[1:]]
    gram = [
        [sum((p * q for p, q in zip(u, v, strict=True)), Fraction(0)) for v in columns]
        for u in columns
    ]
    xy = [sum((p * q for p, q in zip(u, y, strict=True)), Fraction(0)) for u in columns]
    beta, diagonal = _solve(gram, xy)
    fitted = [
        sum((b * col[i] for b, col in zip(beta, columns, strict=True)), Fraction(0))
        for i in range(len(y))
    ]
    rss = sum(((v - f) ** 2 for v, f in zip(y, fitted, strict=True)), Fraction(0))
    mean = sum(y, Fraction(0)) / len(y)
    tss = sum(((v - mean) ** 2 for v in y), Fraction(0))
    df = len(y) - len(columns)
    return {"beta": beta, "diagonal": diagonal, "rss": rss, "tss": tss, "df": df, "n": len(y)}


def _r2(fit: dict[str, Any]) -> Fraction:
    return 1 - (fit["rss"] / fit["df"]) / (fit["tss"] / (fit["n"] - 1))


def _sig(fit: dict[str, Any], rss0: Fraction, df0: int) -> float:
    from scipy import special

    dfn = df0 - fit["df"]
    f = ((rss0 - fit["rss"]) / dfn) / (fit["rss"] / fit["df"])
    return float(special.fdtrc(float(dfn), float(fit["df"]), float(f)))


def _estimates(fit: dict[str, Any], rows: int) -> list[dict[str, float]]:
    df = fit["df"]
    q = t_quantile(0.975, float(df))
    out = []
    for beta, factor in list(zip(fit["beta"], fit["diagonal"], strict=True))[:rows]:
        variance = fit["rss"] / df * factor
        b, se, t = float(beta), _sqrt(variance), _sqrt(beta * beta / variance)
        row = {"estimate": b, "P>[t]": 2 * t_sf(t, float(df)), "[0.025": b - q * se}
        out.append({**row, "0.975]": b + q * se})
    return out


def _data(seed: int, n: int, levels: list[float], groups: list[str]) -> tuple[Any, Any, Any]:
    rng = np.random.default_rng(seed)
    human = rng.choice(
        levels, n, p=np.linspace(1, 2, len(levels)) / np.linspace(1, 2, len(levels)).sum()
    )
    shift = rng.normal(0, 0.3, len(groups))
    group = rng.choice(groups, n, p=np.arange(1, len(groups) + 1) / sum(range(1, len(groups) + 1)))
    machine = human + rng.normal(0, 0.6, n) + shift[np.searchsorted(sorted(groups), group)]
    return human, np.round(machine, 4), group


CASES = {
    "three groups, five levels": (1, 300, [1.0, 2.0, 3.0, 4.0, 5.0], ["x", "y", "z"]),
    "four groups, half points": (2, 240, [1.0, 1.5, 2.0, 2.5, 3.0, 4.0], ["a", "bb", "c", "d"]),
    "two groups, six levels": (3, 360, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], ["L1", "L2"]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_fairness_models_are_the_exact_least_squares_rounded_once(name: str) -> None:
    seed, n, levels, groups = CASES[name]
    human, machine, group = _data(seed, n, levels, groups)
    result = concord.evaluate(human, machine, groups={"g": group}, trim=(min(levels), max(levels)))
    fair = result.fairness["g"]
    scores = np.asarray(machine, dtype=np.float64)
    # the score the models use: the primary one, raw_trim (trimmed to the range ± 0.4998)
    trimmed = np.clip(scores, min(levels) - 0.4998, max(levels) + 0.4998)
    error = trimmed - human
    e = [Fraction(float(v)) for v in error]
    sq = [Fraction(float(v)) for v in error**2]
    labels = [str(v) for v in group]
    level_labels = [str(v) for v in human.tolist()]
    osa, osd = _fit(sq, [labels]), _fit(e, [labels])
    csd, null = _fit(e, [labels, level_labels]), _fit(e, [level_labels])
    assert fair.base == _order(labels)[0]
    metrics = fair.metrics
    assert metrics["Overall score accuracy"]["R2"] == float(_r2(osa))
    assert metrics["Overall score difference"]["R2"] == float(_r2(osd))
    assert metrics["Conditional score difference"]["R2"] == float(_r2(csd) - _r2(null))
    assert metrics["Overall score accuracy"]["sig"] == _sig(osa, osa["tss"], n - 1)
    assert metrics["Overall score difference"]["sig"] == _sig(osd, osd["tss"], n - 1)
    assert metrics["Conditional score difference"]["sig"] == _sig(csd, null["rss"], null["df"])
    for key, fit in (("osa", osa), ("osd", osd), ("csd", csd)):
        expected = _estimates(fit, len(groups))
        got = [row for _, row in fair.estimates[key]]
        assert got == expected, key


def test_the_primary_score_is_raw_trim() -> None:
    # the models above use raw_trim: the primary score of scale=False (RSMTool's scale="asis")
    human, machine, group = _data(1, 40, [1.0, 2.0, 3.0], ["x", "y"])
    assert concord.evaluate(human, machine, groups={"g": group}, trim=(1, 3)).primary == "raw_trim"


def test_levels_apart_in_each_group_keep_the_least_squares() -> None:
    # each group scored on its own levels: the level effects are not all estimable beside
    # the groups (the two-way design is rank deficient), so the exact path steps aside and
    # numpy's least squares give the minimum-norm fit, as before
    rng = np.random.default_rng(4)
    human = np.concatenate([rng.choice([1.0, 2.0], 50), rng.choice([4.0, 5.0], 50)])
    group = np.repeat(["p", "q"], 50)
    machine = human + rng.normal(0, 0.5, 100)
    from concord._studies.evaluate import evaluate_fairness as module
    from concord._studies.evaluate.evaluate_inputs import label_codes

    factor = module._factor(label_codes(group))
    context = module._context(human, machine, label_codes(human), {"g": factor})
    assert context is not None and module._exact(context, "g", factor) is None
    fair = concord.evaluate(human, machine, groups={"g": group}, trim=(1, 5)).fairness["g"]
    assert all(math.isfinite(v["R2"]) for v in fair.metrics.values())


def test_joint_cells_and_one_column_at_a_time_give_the_same_fits(monkeypatch) -> None:
    # the sums per group come from the joint cells of every column and the human levels
    # when they are few, else one column at a time: both are exact, so equal
    from concord._studies.evaluate import evaluate_fairness as module

    human, machine, first = _data(5, 400, [1.0, 2.0, 3.0, 4.0], ["x", "y", "z"])
    second = np.random.default_rng(6).choice(["p", "q", "r", "s"], 400)
    groups = {"first": first, "second": second}
    joint = concord.evaluate(human, machine, groups=groups, trim=(1, 4)).fairness
    monkeypatch.setattr(module, "_JOINT", 1)
    apart = concord.evaluate(human, machine, groups=groups, trim=(1, 4)).fairness
    assert joint == apart


@pytest.mark.parametrize("scale", [1.0, 1e200])
def test_group_populations_are_the_whole_data_means_and_sds(scale: float) -> None:
    # the subgroups' z-scores use the whole data's mean and SD (ddof=1) of each score,
    # numpy's (RSMTool's); they are read from the whole data's rows unless numpy's SD
    # could overflow there (scores of 1e200: the rows hold the exact SD, numpy's is inf)
    from concord._studies.evaluate.evaluate_groups import _mean_sd, whole_data
    from concord._studies.evaluate.evaluate_metrics import Population, pair_metrics

    human, machine, _ = _data(7, 30, [1.0, 2.0, 3.0], ["x", "y"])
    human, machine = human * scale, machine * scale
    second = np.where(np.arange(30) % 3 == 0, np.nan, human)
    rows = {"raw": pair_metrics(human, machine)}
    rated = ~np.isnan(second)
    consistency = pair_metrics(human[rated], second[rated], pooled=True)
    with np.errstate(over="ignore"):  # numpy's SD of 1e200 scores: inf, as RSMTool's
        got = whole_data(human, {"raw": machine}, second, (rows, consistency))
        h = _mean_sd(human)
        assert got.populations["raw"] == Population(*h, *_mean_sd(machine))
        assert got.second == Population(*h, *_mean_sd(second))
