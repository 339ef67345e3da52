"""Many categories (k beyond the kept weights): the quick split and the one-chunk count.

The reference for the split is :func:`concord._common.exact.split` itself, which
scans the k×k matrix; the reference for κ is the exact core's fractions
(:func:`kappa_fractions`, the definition in Python integers), rounded once.
"""

from __future__ import annotations

import numpy as np
import pytest

import concord
from concord._coefficients.kappa.cohen_core import kappa_fractions
from concord._common import exact as _exact
from concord._data.labels import Labels
from concord._tables import engines, weights


@pytest.mark.parametrize("kind", ["unweighted", "linear", "quadratic", "ordinal", "radical"])
@pytest.mark.parametrize(
    "values",
    [tuple(range(-50, 50)), tuple(range(0, 300, 3)), tuple(f"c{i:03d}" for i in range(100))],
)
def test_the_split_of_many_categories_is_the_scanned_split(
    kind: str, values: tuple[object, ...]
) -> None:
    labels = Labels(values, ordered=True)
    got = weights.resolve(kind, labels, "cohen_kappa")
    assert labels.k > weights._KEEP_K  # not the kept weights' path
    want = _exact.split(got.exact)
    if got.split is None:  # the core splits these itself
        assert kind in ("ordinal", "radical") or isinstance(values[0], str)
        return
    assert want is not None
    assert got.split[1:] == want[1:]
    assert [s for s, _ in got.split[0]] == [s for s, _ in want[0]]
    for (_, p), (_, q) in zip(got.split[0], want[0], strict=True):
        assert p.dtype == q.dtype == np.int64 and np.array_equal(p, q)


@pytest.mark.parametrize("kind", ["unweighted", "linear", "quadratic"])
def test_kappa_of_a_thousand_categories_is_exact(kind: str) -> None:
    rng = np.random.default_rng(7)
    k, n = 1000, 200_000  # the table (10⁶ cells) outgrows a chunk: one chunk of all pairs
    a = rng.integers(0, k, n)
    b = np.clip(a + rng.integers(-3, 4, n), 0, k - 1)
    counted, lo = engines._numpy_table(a, b, None, 0, k), 0
    reference = np.zeros((k, k), dtype=np.int64)
    np.add.at(reference, (a - lo, b - lo), 1)
    assert np.array_equal(counted, reference)
    result = concord.cohen_kappa(a, b, weights=kind)
    w = weights.resolve(kind, Labels(tuple(range(k)), ordered=True), "t").exact
    fractions = kappa_fractions(reference, w)
    assert fractions is not None
    assert result.statistic == float(fractions[0])
    assert (result.observed_agreement, result.chance_agreement) == tuple(map(float, fractions[1:]))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_parts_of_fractional_weights_add_up_to_their_integers(seed: int) -> None:
    # _exact.integers is the definition: x · 2**−e in Python integers, one value at a time
    rng = np.random.default_rng(seed)
    k = 60
    x = np.abs(np.subtract.outer(np.arange(k), np.arange(k))) ** rng.uniform(0.3, 2.5)
    x[rng.random((k, k)) < 0.1] *= 2.0**-40  # exponents spread over more parts
    pieces = _exact.parts(x)
    assert pieces is not None and len(pieces) > 1
    total = sum((p.astype(object) << s for s, p in pieces), np.zeros(x.shape, dtype=object))
    assert total.tolist() == _exact.integers(x).tolist()


@pytest.mark.parametrize(
    ("cell", "value", "expected"),
    [
        ((0, 1), np.nan, "finite"),
        ((0, 1), np.inf, "finite"),
        ((1, 0), -np.inf, "finite"),
        ((0, 1), -1.0, "non-negative"),
        ((1, 1), 1.0, "zero on the diagonal"),
        (None, 0.0, "not all zero"),
    ],
)
def test_custom_weights_are_checked_as_before(
    cell: tuple[int, int] | None, value: float, expected: str
) -> None:
    # min and max find what the k×k masks found: the same message for each defect
    w = np.abs(np.subtract.outer(np.arange(3), np.arange(3))).astype(float)
    if cell is None:
        w[:] = value
    else:
        w[cell] = value
    with pytest.raises(ValueError, match=expected):
        concord.cohen_kappa([0, 1, 2, 1], [0, 2, 2, 1], weights=w)
