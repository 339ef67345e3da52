"""concord agrees with scikit-learn's cohen_kappa_score wherever the definitions coincide.

scikit-learn weights by the position of each label among ``labels``;
concord by the numeric value. They coincide for consecutive integer scales
and for non-numeric labels given in order.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

import concord

WEIGHTS = st.sampled_from([None, "linear", "quadratic"])


def _sklearn(r1, r2, **kw):
    # scikit-learn warns and returns nan where κ is undefined; those cases are assumed away
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cohen_kappa_score(r1, r2, **kw)


@st.composite
def ratings(draw, alphabet=None, min_n=2, max_n=80):
    n = draw(st.integers(min_n, max_n))
    values = alphabet or list(range(draw(st.integers(2, 8))))
    pick = st.sampled_from(values)
    return (
        values,
        draw(st.lists(pick, min_size=n, max_size=n)),
        draw(st.lists(pick, min_size=n, max_size=n)),
    )


@given(ratings(), WEIGHTS, st.integers(-5, 5))
def test_integers(data, weights, offset):
    values, r1, r2 = data
    labels = [v + offset for v in values]
    a = [v + offset for v in r1]
    b = [v + offset for v in r2]
    expected = _sklearn(a, b, weights=weights, labels=labels)
    assume(np.isfinite(expected))
    got = concord.cohen_kappa(a, b, weights=weights, labels=labels).statistic
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-12)


LEVELS = ["none", "mild", "moderate", "severe", "critical"]


@given(ratings(alphabet=LEVELS), WEIGHTS)
def test_strings_with_declared_order(data, weights):
    _, r1, r2 = data
    expected = _sklearn(r1, r2, weights=weights, labels=LEVELS)
    assume(np.isfinite(expected))
    got = concord.cohen_kappa(r1, r2, weights=weights, labels=LEVELS).statistic
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-12)


def _exact_kappa(values, r1, r2, weights, sw):
    """Cohen's (1968) weighted κ = 1 − Σ w·O / Σ w·E in fractions (None where undefined).

    O sums the sample weights of each pair of labels, E = row · column / total, and w is
    0 off nothing, |i − j| or (i − j)² on the labels' positions (consecutive integers here).
    """
    from fractions import Fraction

    k = len(values)
    pos = {v: i for i, v in enumerate(values)}
    cells = [[Fraction(0)] * k for _ in range(k)]
    for a, b, w in zip(r1, r2, sw, strict=True):
        cells[pos[a]][pos[b]] += Fraction(w)
    rows = [sum(row, Fraction(0)) for row in cells]
    cols = [sum(col, Fraction(0)) for col in zip(*cells, strict=True)]
    total = sum(rows, Fraction(0))
    power = {None: 0, "linear": 1, "quadratic": 2}[weights]

    def w(i, j):
        return (i != j) if power == 0 else abs(i - j) ** power

    observed = sum((w(i, j) * cells[i][j] for i in range(k) for j in range(k)), Fraction(0))
    chance = sum(
        (w(i, j) * rows[i] * cols[j] / total for i in range(k) for j in range(k)), Fraction(0)
    )
    return None if chance == 0 else 1 - observed / chance


@given(ratings(), WEIGHTS, st.data())
def test_sample_weight(data, weights, draw):
    values, r1, r2 = data
    sw = draw.draw(st.lists(st.floats(0, 10), min_size=len(r1), max_size=len(r1)))
    assume(sum(sw) > 0)
    exact = _exact_kappa(values, r1, r2, weights, sw)
    assume(exact is not None)
    got = concord.cohen_kappa(r1, r2, weights=weights, labels=values, sample_weight=sw)
    # concord against the Fraction recomputation of Cohen's (1968) formula
    assert got.statistic == pytest.approx(float(exact), rel=1e-12, abs=1e-12)
    # scikit-learn, which sums in floats: its error grows as the chance term shrinks
    # (a κ of 0 came out as -4.4e-11 on one hypothesis draw), so it is held to the exact
    # value more loosely
    expected = _sklearn(r1, r2, weights=weights, labels=values, sample_weight=sw)
    assert expected == pytest.approx(float(exact), rel=1e-9, abs=1e-9)


@given(ratings(min_n=2))
def test_unweighted_without_labels(data):
    _, r1, r2 = data
    expected = _sklearn(r1, r2)
    assume(np.isfinite(expected))
    assert concord.cohen_kappa(r1, r2).statistic == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_reproducing_sklearn_on_a_gapped_scale():
    # On 1, 2, 5 (3 and 4 unused) concord keeps the numeric distances; scikit-learn
    # uses positions 0, 1, 2. Passing positions reproduces scikit-learn
    # (docs/guide/what-is-qwk.md, "Conventions").
    r1 = np.array([1, 2, 5, 5, 2, 1])
    r2 = np.array([1, 5, 5, 2, 2, 2])
    sk = cohen_kappa_score(r1, r2, weights="quadratic")
    ours = concord.cohen_kappa(r1, r2, weights="quadratic").statistic
    assert ours != pytest.approx(sk)
    labels = np.unique(np.r_[r1, r2])
    pos1, pos2 = np.searchsorted(labels, r1), np.searchsorted(labels, r2)
    assert concord.cohen_kappa(pos1, pos2, weights="quadratic").statistic == pytest.approx(
        sk, rel=1e-12
    )
