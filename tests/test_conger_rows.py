"""Conger's kappa from kept codes: the same statistic, SE bits and bootstraps on every route.

The one-pass route keeps who rated what as codes (``RaterCodes``) and forms
the rater patterns only for a bootstrap. Expected values: the numpy route
(rating_matrix, then patterns) of the same data, and the variance as
computed before the per-row terms (``_old_variance`` below, a verbatim copy
of irrCAC conger.kappa.raw's linearisation as concord computed it over the
patterns with pairwise float sums), which it must match to 1e-12.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import concord
from concord._coefficients.multirater import agreement_core as core
from concord._coefficients.multirater.raters_core import CongerSampler, OnDemand, conger_variance
from concord._tables import engines as _count
from concord._tables import items as _items
from concord._tables import rater_terms
from concord._tables.patterns import Patterns
from concord._tables.weights import resolve


def _old_variance(raters, by_rater, agreement, pe, coefficient, population):
    """conger_variance as it was before the per-row terms (commit 6348d9f)."""
    k = by_rater.shape[1]
    keep = by_rater.sum(axis=1) > 0
    codes = raters.rows if keep.all() else raters.rows[:, keep]
    cells = (np.arange(codes.shape[0])[:, None] * (k + 1) + codes).ravel()
    tally = np.bincount(cells, minlength=codes.shape[0] * (k + 1)).reshape(-1, k + 1)
    t = core.terms(Patterns(tally[:, 1:], raters.freq), agreement)
    if t.n2 == 0 or not math.isfinite(coefficient):
        return float("nan")
    r = codes.shape[1]
    n_g = by_rater[keep].sum(axis=1).astype(np.float64)
    p_gk = by_rater[keep] / n_g[:, None]
    big_a = (t.n / n_g)[:, None] * (r * p_gk.mean(axis=0)[None, :] - p_gk)
    big_b = p_gk @ agreement.T
    aw = big_a @ agreement
    constant = (big_a * big_b).sum(axis=1)
    rated = np.arange(k + 1) > 0
    looked = np.concatenate([aw[:, :1], aw], axis=1)
    by_code = rated * looked - (rated[None, :] - (n_g / t.n)[:, None]) * constant[:, None]
    lam = np.take(by_code, codes + np.arange(r) * (k + 1))
    pe_i = lam.sum(axis=1) / (r * (r - 1))
    linear = (t.n / t.n2) * (t.pa - pe * t.pairable) / (1 - pe)
    linear = linear - 2 * (1 - coefficient) * (pe_i - pe) / (1 - pe)
    return t.variance(linear, coefficient, population)


def _ratings(rng, n, r, k=5, missing=0.2):
    truth = rng.integers(1, k + 1, n)
    x = np.clip(truth[:, None] + rng.choice([-2, -1, 0, 0, 1], size=(n, r)), 1, k)
    x = x.astype(np.float64)
    x[rng.random(x.shape) < missing] = np.nan
    x[: n // 50] = np.nan  # items nobody rated
    if r > 3:  # a rater who rated one item only (one who rated none makes Conger's kappa nan)
        x[:-1, -1] = np.nan
        x[-1, -1] = 1.0
    return x


def _fast(monkeypatch):
    _count._kernels()  # the one-pass route needs the loaded kernels
    monkeypatch.setattr(_count, "_NUMBA_MIN", 0)
    monkeypatch.setattr(_count, "_LOAD_MIN", 0)
    monkeypatch.setattr(_count, "_MATRIX_THREAD_MIN", 1 << 10)


CUSTOM = [
    [0, 1, 2.5, 3, 4],
    [1, 0, 1, 2, 3],
    [2.5, 1, 0, 1, 2],
    [3, 2, 1, 0, 0.5],
    [4, 3, 2, 0.5, 0],
]


@pytest.mark.parametrize("r", [3, 12, 30])
@pytest.mark.parametrize("weights", [None, "linear", "quadratic", CUSTOM])
def test_variance_matches_the_pairwise_formula(r, weights):
    rng = np.random.default_rng(r)
    x = _ratings(rng, 400, r)
    res = concord.conger_kappa(x, weights=weights)
    items = _items.item_data(x, None, "t", need_raters=True)
    weighting = resolve(weights, items.labels, "t")
    args = (weighting.agreement(), float(res.chance_agreement), res.statistic)
    for population in (None, 5000):
        old = _old_variance(items.raters, items.by_rater(), *args, population)
        new = conger_variance(items, *args, population)
        assert new == pytest.approx(old, rel=1e-12, abs=0)


@pytest.mark.parametrize("r", [4, 12, 30])
def test_kept_codes_give_the_numpy_routes_bits(monkeypatch, r):
    pytest.importorskip("numba")
    x = _ratings(np.random.default_rng(7 + r), 3000, r)
    slow = concord.conger_kappa(x, weights="quadratic")
    _fast(monkeypatch)
    fast = concord.conger_kappa(x, weights="quadratic")
    kept = _items.item_data(x, None, "t", need_raters=True, codes_only=True)
    assert (kept.codes is None) == (r == 4)  # 5**4 patterns are counted densely
    assert fast.statistic == slow.statistic
    assert fast.standard_error == slow.standard_error
    sampler = fast._inferred().sampler
    assert isinstance(sampler, OnDemand if r > 4 else CongerSampler)
    np.testing.assert_array_equal(fast.bootstrap(30, rng=1), slow.bootstrap(30, rng=1))
    eager = _items.item_data(x, None, "t", need_raters=True)
    np.testing.assert_array_equal(kept.rater_patterns().rows, eager.raters.rows)
    np.testing.assert_array_equal(kept.rater_patterns().freq, eager.raters.freq)
    np.testing.assert_array_equal(kept.by_rater(), eager.by_rater())


def test_numba_row_terms_equal_numpy_bits():
    pytest.importorskip("numba")
    _count._kernels()
    rng = np.random.default_rng(3)
    codes = rng.integers(0, 7, (5000, 40))
    lookup = rng.normal(size=(40, 7))
    agreement = 1 - np.abs(np.subtract.outer(np.arange(6), np.arange(6))) ** 1.5 / 5**1.5
    fast = rater_terms.row_terms(codes, lookup, agreement)
    slow = rater_terms.row_terms(codes, lookup, agreement, engine="numpy")
    for a, b in zip(fast, slow, strict=True):
        np.testing.assert_array_equal(a, b)


def test_grouped_sum_ignores_grouping():
    # every item one row, or equal rows merged with frequencies: the same float
    rng = np.random.default_rng(0)
    distinct = rng.random(50) * 1e-3
    freq = rng.integers(1, 400, 50)
    every = rng.permutation(np.repeat(distinct, freq))
    grouped = rater_terms.grouped_sum(distinct, freq.astype(np.float64))
    assert grouped == rater_terms.grouped_sum(every, None)
    assert grouped == pytest.approx(float(np.sum(distinct * freq)), rel=1e-13)


def test_one_call_counts_its_values_once_towards_loading_the_kernels(monkeypatch):
    """agree() with Conger's kappa asks the engine once: a call below _LOAD_MIN stays on numpy.

    Before, the kept-codes route and the pattern route each counted the call's values, so
    one call of half _LOAD_MIN loaded numba (0.5–1 s in a fresh process) for 3·10⁷ values
    that numpy counts in 0.4 s. Expected values: the same call with the kernels loaded.
    """
    rng = np.random.default_rng(7)
    x = rng.integers(0, 5, (60_000, 3)).astype(float)
    x[::97, 1] = np.nan
    _count._kernels()
    loaded = concord.agree(x)
    monkeypatch.setattr(_count, "_LOAD_MIN", int(x.size * 1.5))  # one count stays below
    monkeypatch.setattr(_count, "_counted", 0)
    _count._kernels.cache_clear()  # as in a process that has not loaded them
    try:
        fresh = concord.agree(x)
        assert _count._kernels.cache_info().currsize == 0
        assert _count._counted == x.size
    finally:
        _count._kernels()
    for a, b in zip(fresh.results, loaded.results, strict=True):
        assert (a.statistic, a.standard_error) == (b.statistic, b.standard_error)
