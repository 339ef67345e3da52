"""``kernels.table_words`` counts byte ratings eight pairs a word: its table is np.bincount's.

The kernel reads int8, uint8 and bool ratings (as uint8 views) on an
8-value window, one 64-bit subtraction per eight lanes; a lane below the
window borrows from its neighbour, so the tests put values just outside the
window, at the ends of the dtype, at every position of a word, and at
lengths that are not multiples of eight.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from concord._tables import engines as _count
from concord._tables import kernels as _kernels

DTYPES = [np.int8, np.uint8, np.bool_]


def _window(dtype: type, lo: int) -> tuple[int, np.uint8, np.uint8]:
    """Return the window's start moved inside the dtype, and the kernel's (start, flip)."""
    info = np.iinfo(np.uint8 if dtype is np.bool_ else dtype)
    lo = min(max(lo, int(info.min)), int(info.max) - 7)
    return lo, np.uint8(lo - int(info.min)), np.uint8(0x80 if info.min < 0 else 0)


def _ratings(dtype: type, lo: int, n: int, spread: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype is np.bool_:
        return rng.integers(0, 2, n).astype(np.bool_)
    info = np.iinfo(dtype)
    return rng.integers(max(lo, int(info.min)), min(lo + spread, int(info.max) + 1), n).astype(
        dtype
    )


def _check(a: np.ndarray, b: np.ndarray, lo: int) -> None:
    lo, start, flip = _window(a.dtype.type, lo)
    table, bad = _kernels.table_words(a.view(np.uint8), b.view(np.uint8), start, flip)
    x, y = a.astype(np.int64) - lo, b.astype(np.int64) - lo
    inside = bool(np.all((x >= 0) & (x < 8) & (y >= 0) & (y < 8)))
    assert bool(bad) == (not inside)
    if inside:
        expected = np.bincount(x * 8 + y, minlength=64).reshape(8, 8)
        np.testing.assert_array_equal(table, expected)
        assert table.dtype == np.int64


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(DTYPES),
    st.integers(-130, 260),
    st.integers(0, 100_000) | st.integers(0, 40),
    st.integers(1, 8),
    st.integers(0, 2**32 - 1),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(-130, 260)), max_size=3),
)
def test_table_words_is_bincount(dtype, lo, n, spread, seed, strays):
    lo, _, _ = _window(dtype, lo)
    a = _ratings(dtype, lo, n, spread, seed)
    b = _ratings(dtype, lo, n, spread, seed + 1)
    if dtype is not np.bool_ and n:
        info = np.iinfo(dtype)
        for pos, value in strays:  # values outside (or inside) the window anywhere in a word
            (a if pos % 2 else b)[pos % n] = np.clip(value, info.min, info.max)
    _check(a, b, lo)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_table_words_edges_of_the_dtype(dtype):
    info = np.iinfo(dtype)
    for lo in (int(info.min), int(info.max) - 7, 0, -3 if info.min < 0 else 3):
        for n in (0, 1, 7, 8, 9, 63, 64, 65, 4097):
            a = _ratings(dtype, lo, n, 8, n)
            b = _ratings(dtype, lo, n, 8, n + 1)
            _check(a, b, lo)
            for pos in range(min(n, 17)):  # one stray at each lane of the first words
                for value in (lo - 1, lo + 8, int(info.min), int(info.max), 0):
                    stray = a.copy()
                    stray[pos] = np.clip(value, info.min, info.max)
                    _check(stray, b, lo)
                    _check(b, stray, lo)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("offset", [0, 1, 3, 7])
def test_pair_table_counts_words_at_any_offset(dtype, offset):
    """Slices that start inside a word, and strays past the prefix, give the exact table."""
    n = _count._WORDS_MIN * 3 + 5
    lo = 0 if dtype is np.bool_ else (-2 if dtype is np.int8 else 1)
    a = _ratings(dtype, lo, n + offset, 6, offset)[offset:]
    b = _ratings(dtype, lo, n + offset, 6, offset + 9)[offset:]
    for a_, b_ in ((a, b), (a[::-1].copy(), np.roll(b, 3))):
        expected = Counter(zip(a_.tolist(), b_.tolist(), strict=True))
        for stray in (None, 9, -9):
            if stray is not None:
                if dtype is np.bool_ or (stray < 0 and dtype is np.uint8):
                    continue
                a_ = a_.copy()
                a_[n - 3] = stray
                expected = Counter(zip(a_.tolist(), b_.tolist(), strict=True))
            counted = _count.pair_table(a_, b_, engine="numba")
            assert counted is not None
            table, lo_ = counted
            found = {
                (int(i) + lo_, int(j) + lo_): int(c) for (i, j), c in np.ndenumerate(table) if c
            }
            if dtype is np.bool_:
                found = {(bool(i), bool(j)): c for (i, j), c in found.items()}
            assert found == dict(expected)


def test_pair_table_reads_strided_bytes_without_words():
    a = np.arange(2 * _count._WORDS_MIN + 6, dtype=np.int8) % 6
    b = a[::-1].copy()
    counted = _count.pair_table(a[::2], b[::2], engine="numba")
    assert counted is not None
    table, lo = counted
    found = {(int(i) + lo, int(j) + lo): int(c) for (i, j), c in np.ndenumerate(table) if c}
    assert found == dict(Counter(zip(a[::2].tolist(), b[::2].tolist(), strict=True)))
