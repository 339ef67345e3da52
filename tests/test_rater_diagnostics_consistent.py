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
