"""RatingMatrix.counts: the items × categories counts, by their definition.

``counts[i, c]`` is how many raters put item i in category c (Fleiss 1971's
n_ij); checked against a Python loop over the cells, with and without
missing ratings (code -1), since the count takes a shortcut where every
cell is rated.
"""

from __future__ import annotations

import numpy as np
import pytest

from concord._data.labels import Labels
from concord._data.matrix import RatingMatrix, rating_matrix


def _by_loop(codes: np.ndarray, k: int) -> np.ndarray:
    out = np.zeros((codes.shape[0], k), dtype=np.int64)
    for i, row in enumerate(codes.tolist()):
        for c in row:
            if c >= 0:
                out[i, c] += 1
    return out


@pytest.mark.parametrize("missing", [0.0, 0.3, 1.0])
@pytest.mark.parametrize("shape", [(1, 1), (7, 3), (200, 5), (0, 4)])
def test_counts_match_the_loop(missing, shape):
    rng = np.random.default_rng(7)
    k = 4
    codes = rng.integers(0, k, size=shape).astype(np.intp)
    codes[rng.random(shape) < missing] = -1
    m = RatingMatrix(codes, Labels(tuple(range(k)), ordered=True), tuple(range(shape[1])))
    got = m.counts()
    assert got.dtype == np.int64
    assert got.shape == (shape[0], k)
    np.testing.assert_array_equal(got, _by_loop(codes, k))


def _expected_codes(x: np.ndarray, values: list[float]) -> np.ndarray:
    """Each rating's position among the labels (by their definition: sorted values), -1 missing."""
    out = np.full(x.shape, -1, dtype=np.intp)
    for position, v in enumerate(values):
        out[x == v] = position
    return out


@pytest.mark.parametrize("spread", [5, 10**12])  # a lookup table over the range; a sorted lookup
@pytest.mark.parametrize("missing", [0.0, 0.25])
@pytest.mark.parametrize("declared", [False, True])
def test_rating_matrix_codes_with_and_without_missing(spread, missing, declared):
    rng = np.random.default_rng(3)
    x = (rng.integers(0, 5, size=(300, 3)) * (spread // 5) - 7).astype(float)
    x[rng.random(x.shape) < missing] = np.nan
    values = sorted({float(v) for v in x[~np.isnan(x)]})
    labels = [int(v) for v in values] if declared else None
    m = rating_matrix(x, labels, "test")
    assert m is not None
    kept = ~np.isnan(x).all(axis=1)
    assert m.labels.values == tuple(int(v) for v in values)
    np.testing.assert_array_equal(m.codes, _expected_codes(x[kept], values))
    assert m.n_dropped == int((~kept).sum())


@pytest.mark.parametrize(
    "column",
    [
        [0.0, 1.0, 2.0, -3.0],
        [0.0, 1.5, 2.0, 1.0],
        [0.0, float("inf"), 1.0, 2.0],
        [0.0, -float("inf"), 1.0, 2.0],
        [0.0, 2.0**63, 1.0, 2.0],
        [0.0, -(2.0**63), 1.0, 2.0],
        [0.0, 2.0**62, 1.0, float("nan")],
        [-0.0, 1e15, 3.0, float("nan")],
    ],
)
def test_whole_floats_by_one_cast_are_the_rounding_checks(monkeypatch, column):
    """rating_matrix's one-cast check of whole floats against the rounding check it skips.

    Codes and labels, or the error, the same with and without the fast path
    (infinite, fractional, ±2**63 and NaN-missing cells among them).
    """
    from concord._data import matrix as matrices

    x = np.array([column, column[::-1], [1.0, 1.0, 1.0, 1.0]]).T

    def run():
        try:
            m = matrices.rating_matrix(x, None, "fleiss_kappa")
        except (ValueError, TypeError) as e:
            return type(e), str(e)
        return m.codes.tolist(), m.labels.values, m.n_dropped

    fast = run()
    with monkeypatch.context() as m:
        m.setattr(matrices, "_whole_fast", lambda filled: None)
        slow = run()
    assert fast == slow
