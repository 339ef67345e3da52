"""The ICC's fast reductions give numpy's own floats, bit for bit (numpy is the reference)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import concord
from concord._coefficients.continuous.icc import _scan
from concord._coefficients.continuous.icc_core import sums_of
from concord._coefficients.continuous.icc_sums import block_sums, column_sums, row_sums, scan


def _bits(a: np.ndarray) -> np.ndarray:
    return np.asarray(a).view(np.int64)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 300),
    st.sampled_from([2, 3, 5, 7, 8, 9, 16, 17, 40, 128, 129]),
    st.integers(0, 2**32 - 1),
)
def test_twins_are_numpys_sums(n: int, k: int, seed: int) -> None:
    """Same floats as x.sum(axis=1) and x.sum(axis=0), negative zeros included."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, k)) * 10.0 ** rng.integers(-8, 8, size=(n, k))
    x[rng.random(x.shape) < rng.random()] = -0.0
    for block in (x, x[: n // 2 + 1], np.asfortranarray(x)):
        assert np.array_equal(_bits(row_sums(block)), _bits(block.sum(axis=1)))
        assert np.array_equal(_bits(column_sums(block)), _bits(block.sum(axis=0)))


def test_zero_totals_keep_numpys_sign() -> None:
    """numpy adds to 0.0: a row or column of negative zeros sums to +0.0 (numpy by hand)."""
    x = np.full((3, 4), -0.0)
    assert np.signbit(x.sum(axis=0)).sum() == 0 and np.signbit(column_sums(x)).sum() == 0
    assert np.signbit(row_sums(x)).sum() == 0


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8])
def test_integer_sums_are_exact(dtype: type) -> None:
    x = np.arange(60, dtype=dtype).reshape(12, 5)
    assert row_sums(x).tolist() == x.sum(axis=1).tolist()
    assert column_sums(x).tolist() == x.sum(axis=0).tolist()


def test_scan_finds_an_infinity_and_decimals_past_the_first_rows() -> None:
    """The scan's shortcuts (a finite total, a look at the first rows) miss nothing."""
    x = np.ones((300, 2))
    assert _scan(x) == (False, True, True)
    x[200, 1] = 0.5
    assert _scan(x) == (False, True, False)
    x[100, 0] = np.nan
    assert _scan(x) == (False, True, False)
    x[200, 1] = 1.0
    assert _scan(x) == (False, True, True)
    x[250, 0] = np.inf
    assert _scan(x)[0]
    with pytest.raises(ValueError, match="infinite"):
        concord.icc(x)


@pytest.mark.parametrize(
    ("x", "df1", "df2"),
    [(2.5, 59999.0, 59999.0), (0.0, 3.0, 4.5), (math.inf, 2.0, 7.0), (7.1, 0.3, 1e7), (1.0, 5, 0)],
)
def test_f_helpers_are_scipy_stats_f(x: float, df1: float, df2: float) -> None:
    """The shortcuts past scipy.stats' checks give its very floats (scipy is the reference)."""
    from scipy.stats import f

    from concord._results.continuous.icc_anova import f_ppf, f_sf

    assert np.array_equal(f_sf(x, df1, df2), float(f.sf(x, df1, df2)), equal_nan=True)
    for q in (0.975, 0.5, 1.0):
        assert np.array_equal(f_ppf(q, df1, df2), float(f.ppf(q, df1, df2)), equal_nan=True)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([1, 2, 15, 64, 300, 5000, 65536]),
    st.sampled_from([2, 3, 7, 8, 9, 17, 128]),
    st.integers(0, 2**32 - 1),
)
def test_numba_block_sums_are_numpys(n: int, k: int, seed: int) -> None:
    """The one-pass kernel gives numpy's floats of both sums (numpy is the reference)."""
    kernels = pytest.importorskip("concord._tables.block_kernels")
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, k)) * 10.0 ** rng.integers(-8, 8, size=(n, k))
    x[rng.random(x.shape) < rng.random()] = -0.0
    rows, columns, square = block_sums(x, kernels)
    assert np.array_equal(_bits(rows), _bits(x.sum(axis=1)))
    assert np.array_equal(_bits(columns), _bits(x.sum(axis=0)))
    assert np.array_equal(_bits(square), _bits((x * x).sum()))


@pytest.mark.parametrize("top", [5, 2**20, 2**26, 2**40, 2**52])
def test_whole_number_sums_are_exact_in_every_dtype(top: int) -> None:
    """Float64, int64 or Python ints: the exact sums (Python ints by hand)."""
    rng = np.random.default_rng(top)
    x = rng.integers(-top, top, size=(3000, 3), endpoint=True).astype(np.float64)
    x[rng.random(x.shape) < 0.1] = np.nan
    x[:2] = top
    sums = sums_of(x, (0, 1, 2), True)
    rows = [[int(v) for v in row if v == v] for row in x.tolist()]
    assert sums.square == sum(v * v for row in rows for v in row)
    assert sums.rater_sums.tolist() == [sum(int(v) for v in x[:, j] if v == v) for j in range(3)]
    for m, (c, a, _, _) in sums.by_size.items():
        group = [row for row in rows if len(row) == m]
        assert (c, a) == (len(group), sum(sum(row) ** 2 for row in group))


@pytest.mark.parametrize(
    "values",
    [
        [1.0, 2.0, -3.0, 0.0],
        [1.0, 2.5, np.nan, 4.0],
        [np.nan, np.nan, np.nan, np.nan],
        [1.0, np.inf, 2.0, 3.0],
        [2.0**53, 1.0, 2.0, 3.0],
        [-(2.0**52), 1.0, np.nan, -0.0],
        [1e300, -np.inf, np.nan, 0.5],
    ],
)
def test_numba_scan_is_the_numpy_scan(
    values: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One pass of the kernel finds what numpy's chunked scan finds (the numpy scan by hand)."""
    kernels = pytest.importorskip("concord._tables.block_kernels")
    from concord._coefficients.continuous import icc

    x = np.array(values * 50).reshape(-1, 2)
    monkeypatch.setattr(icc, "loaded", lambda: None)
    assert scan(x, kernels) == _scan(x)
