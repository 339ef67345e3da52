"""rater_diagnostics' results are the one-shot functions' results on the same raters.

``full`` is the function on the whole panel and ``without[r]`` the function on
the panel without rater r, every field of ``to_dict()`` and the summary equal
(Krippendorff's α included: its SE takes the raw ratings' form, irrCAC's
``krippen.alpha.raw``, as :func:`concord.krippendorff_alpha` does on a
ratings matrix; it took the count form's ``krippen.alpha.dist`` before).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import concord

FUNCTIONS = [
    ("krippendorff_alpha", {}),
    ("krippendorff_alpha", {"level": "ordinal"}),
    ("krippendorff_alpha", {"level": "interval"}),
    ("fleiss_kappa", {}),
    ("gwet_ac", {}),
    ("brennan_prediger", {}),
    ("conger_kappa", {}),
    ("light_kappa", {}),
    ("percent_agreement", {}),
]


def _panel(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    raters, k = int(rng.integers(3, 7)), int(rng.integers(2, 5))
    x = rng.integers(0, k, (int(rng.integers(10, 60)), raters)).astype(float)
    x[rng.random(x.shape) < 0.25 * (seed % 3)] = np.nan
    x[:, 0] = np.where(np.isnan(x).all(axis=1), 0.0, x[:, 0])  # every item rated once
    return x


def _same(a: object, b: object) -> bool:
    return a == b or (
        isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)
    )


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(("name", "options"), FUNCTIONS, ids=lambda v: str(v))
def test_full_and_each_left_out_panel_are_the_functions_results(seed, name, options):
    x = _panel(seed)
    function = getattr(concord, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = concord.rater_diagnostics(x, function=function, **options)
        pairs = [(d.full, function(x, **options))] + [
            (d.without[r], function(np.delete(x, r, axis=1), **options)) for r in range(x.shape[1])
        ]
        for got, want in pairs:
            g, w = got.to_dict(), want.to_dict()
            assert g.keys() == w.keys()
            assert all(_same(g[key], w[key]) for key in g), {
                key: (g[key], w[key]) for key in g if not _same(g[key], w[key])
            }
            assert got.summary() == want.summary()


def _wide_panel(seed: int) -> tuple[np.ndarray, dict[str, object], object]:
    """Many raters and categories, a rater with a category of its own, a silent rater,
    declared unused labels, text labels, clusters and a finite population (by seed)."""
    rng = np.random.default_rng(1000 + seed)
    raters, k, n = int(rng.integers(8, 25)), int(rng.integers(4, 12)), int(rng.integers(15, 60))
    x = rng.integers(0, k, (n, raters)).astype(float)
    x[:, 1] = np.where(rng.random(n) < 0.3, k + 1, x[:, 1])  # rater 1 alone uses k + 1
    x[rng.random(x.shape) < 0.3] = np.nan
    x[:, -1] = np.nan  # a rater who rated nothing
    x[:, 0] = np.where(np.isnan(x).all(axis=1), 0.0, x[:, 0])
    labels = sorted({*x[~np.isnan(x)].tolist(), float(k + 3)})  # one label nobody used
    options: dict[str, object] = {"labels": labels}
    if seed % 2:
        options["population_size"] = 3 * n
    data: np.ndarray = x
    if seed % 3 == 0:  # text labels
        name = {v: f"c{int(v):02d}" for v in labels}
        data = np.array([[None if np.isnan(v) else name[v] for v in row] for row in x], object)
        options["labels"] = [name[v] for v in labels]
    groups = rng.integers(0, n // 4, n) if seed % 4 < 2 else None
    return data, options, groups


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    ("name", "options"),
    [*FUNCTIONS, ("gwet_ac", {"weights": "quadratic"}), ("fleiss_kappa", {"weights": "linear"})],
    ids=lambda v: str(v),
)
def test_wide_panels_with_declared_labels_and_clusters(seed, name, options):
    data, extra, groups = _wide_panel(seed)
    if seed % 3 == 0 and (options.get("level") in ("ordinal", "interval") or "weights" in options):
        pytest.skip("text labels: the nominal coefficients only")
    options = {**options, **extra}
    function = getattr(concord, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = concord.rater_diagnostics(data, function=function, groups=groups, **options)
        pairs = [(d.full, function(data, **options))] + [
            (d.without[r], function(np.delete(data, r, axis=1), **options))
            for r in range(data.shape[1])
        ]
        for got, want in pairs:
            g, w = got.to_dict(), want.to_dict()
            assert g.keys() == w.keys()
            assert all(_same(g[key], w[key]) for key in g), {
                key: (g[key], w[key]) for key in g if not _same(g[key], w[key])
            }
            assert got.summary() == want.summary()
