"""Quadratic kappa's five sums by numpy alone (concord._tables.numpy_sums): exact integers.

The reference is the definition itself, summed in Python integers; quadratic
kappa is invariant to the shift, so each sum is compared after shifting the
reference by the ``lo`` the function reports.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import concord
from concord._tables import engines, numpy_sums


def reference(a: np.ndarray, b: np.ndarray, shift: int) -> tuple[int, ...]:
    x = [int(v) - shift for v in a]
    y = [int(v) - shift for v in b]
    return (
        sum(x),
        sum(y),
        sum(v * v for v in x),
        sum(v * v for v in y),
        sum(u * v for u, v in zip(x, y, strict=True)),
    )


CASES = [
    ("int64", 0, 6, 1000),
    ("int64", -3, 4, 70_000),  # three chunks
    ("int8", -128, 128, 50_000),  # the whole byte range: wider than MAX_K, None
    ("int8", 120, 128, 40_000),
    ("uint8", 250, 256, 40_000),
    ("uint16", 0, 40, 3000),
    ("bool", 0, 2, 40_000),
    ("uint64", 2**63 - 40, 2**63 - 1, 40_000),
    ("int64", 2**62, 2**62 + 30, 40_000),  # the direct sums would overflow
    ("int64", -(2**63), -(2**63) + 20, 5000),
]


@pytest.mark.parametrize(("dtype", "low", "high", "n"), CASES)
def test_table_and_direct_sums_are_the_exact_sums(dtype: str, low: int, high: int, n: int) -> None:
    rng = np.random.default_rng(n)
    a = rng.integers(low, high, n, dtype=dtype if dtype != "bool" else "uint8")
    b = rng.integers(low, high, n, dtype=dtype if dtype != "bool" else "uint8")
    if dtype == "bool":
        a, b = a.astype(bool).view(np.uint8), b.astype(bool).view(np.uint8)
    for fn in (numpy_sums.direct_sums, numpy_sums.table_sums):
        got = fn(a, b)
        if got is None:
            wide = high - low > numpy_sums.MAX_K
            assert wide or fn is numpy_sums.direct_sums
            continue
        lo, hi, sums = got
        assert lo == min(int(a.min()), int(b.min())) and hi == max(int(a.max()), int(b.max()))
        shift = 0 if fn is numpy_sums.direct_sums else lo
        assert sums == reference(a, b, shift)


def test_the_range_widens_from_chunk_to_chunk() -> None:
    # each chunk sees its own range; the merged table spans them all
    step = numpy_sums.STEP
    a = np.concatenate([np.full(step, 5), np.full(step, 2), np.arange(step) % 9 + 1])
    b = np.concatenate([np.full(step, 7), np.full(step, 0), np.arange(step) % 4 + 3])
    lo, hi, sums = numpy_sums.table_sums(a, b)  # type: ignore[misc]
    assert (lo, hi) == (0, 9)
    assert sums == reference(a, b, lo)


def test_a_range_beyond_max_k_across_chunks_gives_none() -> None:
    step = numpy_sums.STEP
    a = np.concatenate([np.zeros(step, dtype=np.int64), np.full(step, 100)])
    assert numpy_sums.table_sums(a, a.copy()) is None


@pytest.mark.parametrize("n", [10, 5000, 100_000])
@pytest.mark.parametrize("spread", [1, 40, 2**20, 2**40])
def test_qwk_on_the_numpy_path_equals_cohen_kappa(
    n: int, spread: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every numpy route (direct sums, chunk tables, chunked products) against the table's κ
    def no_kernels() -> None:
        return None  # as without numba

    no_kernels.cache_info = lambda: type("Info", (), {"currsize": 0})()  # type: ignore[attr-defined]
    monkeypatch.setattr(engines, "_kernels", no_kernels)
    rng = np.random.default_rng(spread + n)
    # six categories spaced ``spread`` apart: ranges from 6 to 5·2**40 wide
    a = rng.integers(-3, 3, n)
    b = np.clip(a + rng.integers(-1, 2, n), -3, 2) * spread
    a *= spread
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = concord.quadratic_weighted_kappa(a, b)
    assert got == concord.cohen_kappa(a, b, weights="quadratic").statistic
    assert got == concord.quadratic_weighted_kappa(a.tolist(), b.tolist())
