"""The two-rater fast paths give what the general path gives, bit for bit.

Plain numpy integer arrays skip the general checks (``pairs._plain_table``),
named weights of integer labels are kept per scale (``weights._KEPT``), and
byte ratings are counted in byte lanes (``kernels.table_bytes``). Each
expected value here is the general path's own result, computed with the
fast path switched off, and the pair tables are checked against a count by
hand (``collections.Counter`` over the pairs).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import concord
from concord._tables import engines as _count
from concord._tables import pairs as _pairs
from concord._tables import weights as _weights

DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.bool_]
WEIGHTS = [None, "linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar"]


def _general(monkeypatch: pytest.MonkeyPatch, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call ``fn`` with the fast path and the kept weights switched off."""
    with monkeypatch.context() as mp:
        mp.setattr(_pairs, "_plain_table", lambda *_: None)
        mp.setattr(_weights, "_KEEP_K", -1)
        return fn(*args, **kwargs)


def _same(fast: Any, general: Any) -> None:
    for name in (
        "statistic",
        "labels",
        "n",
        "observed_agreement",
        "chance_agreement",
        "weighting",
        "standard_error",
        "pvalue",
    ):
        a, b = getattr(fast, name), getattr(general, name)
        assert a == b or (a != a and b != b), name  # nan == nan here
    for name in ("observed", "expected", "weights"):
        a, b = getattr(fast, name), getattr(general, name)
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


ratings = st.integers(1, 300).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 9), min_size=n, max_size=n),
        st.lists(st.integers(0, 9), min_size=n, max_size=n),
    )
)


@settings(max_examples=80)
@given(
    ratings,
    st.sampled_from(DTYPES),
    st.integers(-5, 100),
    st.sampled_from(WEIGHTS),
    st.booleans(),
)
def test_fast_path_is_the_general_path(pair, dtype, offset, weights, pooled):
    r1, r2 = (np.array(r) for r in pair)
    if dtype is np.bool_:
        a, b = r1 % 2 == 1, r2 % 2 == 1
    else:
        shift = max(offset, 0) if np.dtype(dtype).kind == "u" else offset
        a, b = (r1 + shift).astype(dtype), (r2 + shift).astype(dtype)
    fn = concord.scott_pi if pooled else concord.cohen_kappa
    with pytest.MonkeyPatch.context() as mp, np.errstate(all="ignore"):
        mp.setattr("warnings.warn", lambda *_, **__: None)  # undefined κ warns on both paths
        try:
            general = _general(mp, fn, a, b, weights=weights)
        except ValueError as error:  # e.g. ratio weights of negative labels: the same error
            with pytest.raises(ValueError, match=str(error)[:40].replace("(", r"\(")):
                fn(a, b, weights=weights)
            return
        fast = fn(a, b, weights=weights)
    _same(fast, general)
    expected = Counter(zip(a.tolist(), b.tolist(), strict=True))
    labels = list(fast.labels)
    assert {
        (labels[i], labels[j]): int(c) for (i, j), c in np.ndenumerate(fast.observed) if c
    } == dict(expected)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_byte_window_at_the_ends_of_the_dtype(dtype):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(7)
    for lo, hi in ((info.min, info.min + 5), (info.max - 5, info.max), (-3, 3)):
        if lo < info.min:
            continue
        a = rng.integers(lo, hi + 1, 20_000).astype(dtype)
        b = rng.integers(lo, hi + 1, 20_000).astype(dtype)
        if lo == info.min:  # a stray value far from the window, past 1024 pairs
            a[5000] = info.max
        numba_table = _count.pair_table(a, b, engine="numba")
        numpy_table = _count.pair_table(a, b, engine="numpy")
        assert numba_table is not None and numpy_table is not None
        found = {
            (int(i) + numba_table[1], int(j) + numba_table[1]): int(c)
            for (i, j), c in np.ndenumerate(numba_table[0])
            if c
        }
        assert found == dict(Counter(zip(a.tolist(), b.tolist(), strict=True)))
        assert numpy_table[0].sum() == numba_table[0].sum() == a.size


def test_kept_weights_cannot_be_written():
    r = concord.cohen_kappa(np.array([1, 2, 3, 3]), np.array([1, 2, 2, 3]), weights="quadratic")
    again = concord.cohen_kappa(np.array([1, 2, 3]), np.array([3, 2, 1]), weights="quadratic")
    assert not np.shares_memory(r.weights, np.zeros(1)) and r.weights is not again.weights
    with pytest.raises(ValueError):
        r.weights.setflags(write=True)
    with pytest.raises(ValueError):
        r.weights[0, 1] = 5.0
    np.testing.assert_array_equal(r.weights, concord.weight_matrix([1, 2, 3], "quadratic"))


def test_kept_weights_tell_labels_apart():
    # 1 == 1.0 == True: equal keys would share weights; only Python ints are kept
    ints = concord.cohen_kappa([0, 1, 2, 2], [0, 1, 1, 2], weights="linear", labels=[0, 1, 2])
    floats = concord.cohen_kappa(
        [0.5, 1.5, 2.5, 2.5], [0.5, 1.5, 1.5, 2.5], weights="linear", labels=[0.5, 1.5, 2.5]
    )
    assert ints.statistic == floats.statistic  # the same distances, scaled
    bools = concord.cohen_kappa([True, False], [True, True], weights="quadratic")
    assert bools.labels == (False, True) and type(bools.labels[0]) is bool


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (np.array([[1, 2]]), np.array([[1, 2]])),  # 2-D
        (np.array([1, 2, 3]), np.array([1, 2])),  # lengths differ
        (np.array([], dtype=np.int64), np.array([], dtype=np.int64)),  # empty
    ],
)
def test_fast_path_leaves_errors_to_the_general_path(a, b):
    assert _pairs._plain_table(a, b, "auto") is None
    with pytest.raises(ValueError):
        concord.cohen_kappa(a, b)


def test_small_inputs_use_a_kernel_once_its_signature_has_run(monkeypatch):
    pytest.importorskip("numba")
    calls = []
    kernels = _count._kernels()
    monkeypatch.setattr(_count, "_warm", set())
    original = kernels.table_small

    def spy(*args: Any) -> Any:
        calls.append(args[0].shape[0])
        return original(*args)

    monkeypatch.setattr(kernels, "table_small", spy)
    a = np.arange(100, dtype=np.int32) % 6
    _count.pair_table(a, a[::-1].copy())  # never run on int32 here: numpy counts
    assert calls == []
    _count.pair_table(np.resize(a, _count._NUMBA_MIN), np.resize(a, _count._NUMBA_MIN))
    _count.pair_table(a, a[::-1].copy())  # now the kernel is known: it counts 100 pairs
    assert calls == [_count._NUMBA_MIN, 100]
