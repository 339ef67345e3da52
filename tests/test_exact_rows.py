"""Standard errors whose intermediates are exact: the same digits on every CPU.

Gwet's linearised variances (Krippendorff's α, Fleiss, AC1/AC2, Scott's π)
need per-item products of the counts with float agreement weights and
shares: r_iᵀ A r_i, r_i · (Aπ + Aᵀπ)/2, πᵀAπ. BLAS adds those in an order
(with or without fused multiply-add) that depends on the CPU; concord
computes them exactly and rounds once. Each test here recomputes the
quantity from its formula in ``fractions.Fraction`` (the floats taken as
the dyadic rationals they are) and asks for the float nearest to it, ``==``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from concord._coefficients.krippendorff import krippendorff_core as kcore
from concord._coefficients.multirater import agreement_core as core
from concord._common import exact_rows
from concord._tables.patterns import Patterns


def _agreement(q: int, kind: str) -> np.ndarray:
    """1 − W / max W of a q-point scale (W linear or quadratic): 1 − d²/(q − 1)², not dyadic."""
    d = np.abs(np.subtract.outer(np.arange(q), np.arange(q))).astype(np.float64)
    w = d if kind == "linear" else d * d
    out: np.ndarray = 1 - w / w.max()
    return out


def _patterns(seed: int, q: int = 5, raters: int = 7, items: int = 60) -> Patterns:
    rng = np.random.default_rng(seed)
    m = rng.integers(1, raters + 1, size=items)
    rows = np.stack([np.bincount(rng.integers(0, q, size=k), minlength=q) for k in m])
    distinct, freq = np.unique(rows, axis=0, return_counts=True)
    return Patterns(distinct.astype(np.int64), freq.astype(np.int64))


def _f(x: float) -> Fraction:
    return Fraction(float(x))


SEEDS = range(12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["linear", "quadratic"])
def test_item_agreement_is_the_exact_form_rounded_once(seed: int, kind: str) -> None:
    # Gwet (2014) ch. 5: Σ_k r_ik (r*_ik − 1), r* = A r, = r_iᵀ A r_i − r_i
    p = _patterns(seed)
    a = _agreement(p.rows.shape[1], kind)
    t = core.terms(p, a)
    q = a.shape[0]
    for row, got in zip(p.rows.tolist(), t.agree.tolist(), strict=True):
        exact = sum(row[k] * _f(a[k, j]) * row[j] for k in range(q) for j in range(q))
        assert got == float(exact - sum(row))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["linear", "quadratic"])
def test_item_chance_terms_are_exact_rounded_once(seed: int, kind: str) -> None:
    # Gwet (2014) ch. 5 / irrCAC's fleiss.kappa.raw and gwet.ac1.raw: pe_i of each item
    p = _patterns(seed)
    a = _agreement(p.rows.shape[1], kind)
    t = core.terms(p, a)
    pi = np.random.default_rng(seed).dirichlet(np.ones(a.shape[0]))
    q = a.shape[0]
    fleiss = core.FLEISS.item(t, a, pi)
    gwet = core.GWET.item(t, a, pi)
    total = sum(_f(v) for v in a.ravel().tolist())
    for i, row in enumerate(p.rows.tolist()):
        m = sum(row)
        shares = [sum((_f(a[k, j]) + _f(a[j, k])) * _f(pi[j]) for j in range(q)) for k in range(q)]
        want = sum(r * s for r, s in zip(row, shares, strict=True)) / (2 * m)
        assert fleiss[i] == float(want)
        spread = sum(r * Fraction(float(1 - pi[k])) for k, r in enumerate(row))
        assert gwet[i] == float(total * spread / (q * (q - 1) * m))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["nominal", "linear", "quadratic"])
def test_alpha_chance_terms_are_exact_rounded_once(seed: int, kind: str) -> None:
    # Gwet (2014) / irrCAC 1.4 krippen.alpha.raw: π_k = Σ f r_k / Σ f m over the pairable
    # items, p_e = πᵀAπ and each item's r_i · (Aπ + Aᵀπ)/2
    p = _patterns(seed)
    q = p.rows.shape[1]
    a = np.eye(q) if kind == "nominal" else _agreement(q, kind)
    pair = p.rows.sum(axis=1) >= 2
    rows, freq = p.rows[pair], p.freq[pair]
    pe, chance = kcore.chance_terms(rows, freq, a)
    u = [sum(int(f) * int(r[k]) for f, r in zip(freq, rows, strict=True)) for k in range(q)]
    d = sum(u)
    pi = [Fraction(v, d) for v in u]
    exact_pe = sum(pi[k] * _f(a[k, j]) * pi[j] for k in range(q) for j in range(q))
    assert pe == float(exact_pe)
    bar = [sum((_f(a[k, j]) + _f(a[j, k])) * pi[j] for j in range(q)) / 2 for k in range(q)]
    want = [float(sum(int(r[k]) * bar[k] for k in range(q))) for r in rows]
    assert chance.tolist() == want


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", ["nominal", "quadratic"])
def test_alpha_variance_does_not_depend_on_the_order_of_the_patterns(seed: int, kind: str) -> None:
    # every sum behind the SE is exact (or an integer), so no order of addition shows:
    # a BLAS dot (the old p'_a = f · p'_a,i, p_e, r·π̄) could differ in its last bit
    p = _patterns(seed, items=200)
    q = p.rows.shape[1]
    a = np.eye(q) if kind == "nominal" else _agreement(q, kind)
    want = kcore.alpha_variance(p, a, None)
    for s in range(5):
        order = np.random.default_rng(100 + s).permutation(p.rows.shape[0])
        shuffled = Patterns(p.rows[order], p.freq[order])
        assert kcore.alpha_variance(shuffled, a, None) == want


def test_fleiss_null_variance_is_exact_rounded_once() -> None:
    # Fleiss, Nee & Landis (1979): var0 = 2[(Σpq)² − Σpq(q − p)] / (n m (m − 1) (Σpq)²)
    rng = np.random.default_rng(3)
    for _ in range(50):
        totals = rng.integers(0, 1000, size=int(rng.integers(2, 9)))
        n_items, m = int(rng.integers(2, 500)), int(rng.integers(2, 9))
        whole = int(totals.sum())
        p = [Fraction(int(t), whole) for t in totals]
        s = sum(x * (1 - x) for x in p)
        c = sum(x * (1 - x) * ((1 - x) - x) for x in p)
        want = float(2 * (s * s - c) / (n_items * m * (m - 1) * s * s)) if s else None
        got = core.fleiss_null(totals, n_items, m)
        assert got == want if want is not None else np.isnan(got)


def test_helpers_on_large_and_negative_values() -> None:
    # exact on int64 overflow (Python-int fallbacks), negative weights, wide exponents
    rng = np.random.default_rng(5)
    rows = rng.integers(0, 40_000, size=(30, 4)).astype(np.int64)
    x = rng.normal(size=(4, 4)) * np.array([1e-200, 1.0, 3.0, 1e200])
    forms, power = exact_rows.Rows(rows).forms(x)
    for row, got in zip(rows.tolist(), forms.tolist(), strict=True):
        want = sum(row[k] * _f(x[k, j]) * row[j] for k in range(4) for j in range(4))
        assert Fraction(int(got)) * Fraction(2) ** power == want
    v = [3**70, 0, 5, 2**100 + 1]
    dots = exact_rows.Rows(rows).dots(v)
    assert [int(d) for d in dots] == [
        sum(r * c for r, c in zip(row, v, strict=True)) for row in rows.tolist()
    ]
    assert [int(d) for d in exact_rows.Rows(rows).dots([-1, 2, -3, 4])] == [
        -r[0] + 2 * r[1] - 3 * r[2] + 4 * r[3] for r in rows.tolist()
    ]
    assert exact_rows.quotients(np.array([1, 2, 10**30], dtype=object), -3, 3).tolist() == [
        float(Fraction(1, 24)),
        float(Fraction(2, 24)),
        float(Fraction(10**30, 24)),
    ]


def test_rows_with_counts_whose_products_overflow_int64() -> None:
    # counts of 2**34 (a CategoryCounts table): r_k r_l ≈ 2**68 and r_k · 2**30 ≈ 2**64
    # overflowed int64 silently; the exact values, recomputed in Fraction
    big = 2**34
    rows = np.array([[big, big + 1, 3], [big - 5, 7, big], [1, 2 * big, 2]], dtype=np.int64)
    x = _agreement(3, "quadratic")
    forms, power = exact_rows.Rows(rows).forms(x)
    for row, got in zip(rows.tolist(), forms.tolist(), strict=True):
        want = sum(row[k] * _f(x[k, j]) * row[j] for k in range(3) for j in range(3))
        assert Fraction(int(got)) * Fraction(2) ** power == want
    v = [2**31 - 1, 2**30 + 12345, 5]
    assert [int(d) for d in exact_rows.Rows(rows).dots(v)] == [
        sum(r * c for r, c in zip(row, v, strict=True)) for row in rows.tolist()
    ]
    p = Patterns(rows, np.ones(3, dtype=np.int64))
    for a in (np.eye(3), x):  # Gwet's Σ_k r_ik (r*_ik − 1), unweighted and weighted
        got = core.terms(p, a).agree.tolist()
        assert got == [
            float(sum(r[k] * _f(a[k, j]) * r[j] for k in range(3) for j in range(3)) - sum(r))
            for r in rows.tolist()
        ]


def test_matvec_floats_with_a_vector_whose_integers_add_past_int64() -> None:
    # v = 1, 1, 1, 1, 2**-61 is 2**61 · (1, 1, 1, 1) + 1 on 2**-61: the integers' sum passes
    # 2**63, wrapped negative in int64, and x @ v read -4; the exact value, in Fraction
    v = np.array([1.0, 1.0, 1.0, 1.0, 2.0**-61])
    x = np.array([[1.0, 1.0, 1.0, 1.0, 1.0], [0.5, 1.0, 2.0, 1.0, 3.0]])
    got = exact_rows.matvec_floats(x, v).tolist()
    assert got == [float(sum(_f(a) * _f(b) for a, b in zip(row, v, strict=True))) for row in x]


@pytest.mark.parametrize("level", ["interval", "ordinal", "ratio"])
def test_continuous_alpha_se_does_not_depend_on_the_order_of_the_items(level: str) -> None:
    # more than 256 distinct values: the engine without a coincidence matrix, item by item;
    # every sum behind its SE is exact or elementwise, so the order of the items never shows
    import concord

    rng = np.random.default_rng(21)
    x = rng.gamma(2.0, 3.0, size=(400, 5)).round(4)
    x[rng.random(x.shape) < 0.15] = np.nan
    want = concord.krippendorff_alpha(x, level=level).standard_error
    for s in range(4):
        order = np.random.default_rng(200 + s).permutation(x.shape[0])
        assert concord.krippendorff_alpha(x[order], level=level).standard_error == want


def test_matvec_floats_is_exact_rounded_once() -> None:
    # each entry Σ_l x_kl v_l of the floats themselves, rounded once
    rng = np.random.default_rng(8)
    x = rng.random((6, 40)) ** 3
    v = rng.integers(0, 1000, size=40).astype(np.float64)
    got = exact_rows.matvec_floats(x, v)
    for k in range(6):
        assert got[k] == float(sum(_f(x[k, j]) * _f(v[j]) for j in range(40)))
    a = rng.random((5, 7)) - 0.5
    b = rng.random((7, 3))
    want = [
        [float(sum(_f(a[i, j]) * _f(b[j, c]) for j in range(7))) for c in range(3)]
        for i in range(5)
    ]
    assert exact_rows.matmul(a, b).tolist() == want
    assert exact_rows.row_sums(a).tolist() == [float(sum(_f(v) for v in row)) for row in a]


def _solve(a: list[list[Fraction]], b: list[Fraction]) -> list[Fraction]:
    """Gaussian elimination in fractions (a nonsingular)."""
    n = len(b)
    m = [[*row, v] for row, v in zip(a, b, strict=True)]
    for k in range(n):
        pivot = next(i for i in range(k, n) if m[i][k] != 0)
        m[k], m[pivot] = m[pivot], m[k]
        for i in range(n):
            if i != k and m[i][k] != 0:
                factor = m[i][k] / m[k][k]
                m[i] = [x - factor * y for x, y in zip(m[i], m[k], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


@pytest.mark.parametrize("seed", range(10))
def test_stuart_maxwell_is_exact_rounded_once(seed: int) -> None:
    # Maxwell (1970) / R irr's stuart.maxwell.mh: χ² = dᵀ S⁻¹ d on the first k − 1
    # categories, S_kk = r_k + c_k − 2 n_kk, S_kl = −(n_kl + n_lk); a connected table
    from concord._coefficients.kappa import categories_core

    rng = np.random.default_rng(seed)
    k = int(rng.integers(3, 8))
    table = rng.integers(1, 40, size=(k, k))
    t = [[Fraction(int(v)) for v in row] for row in table]
    r = [sum(row) for row in t]
    c = [sum(t[i][j] for i in range(k)) for j in range(k)]
    d = [r[i] - c[i] for i in range(k - 1)]
    s = [
        [r[i] + c[i] - 2 * t[i][i] if i == j else -(t[i][j] + t[j][i]) for j in range(k - 1)]
        for i in range(k - 1)
    ]
    x = _solve(s, d)
    exact = sum(a * b for a, b in zip(d, x, strict=True))
    assert categories_core.stuart_maxwell(table) == (float(exact), k - 1)
    # sample weights: χ² scales as the counts
    assert categories_core.stuart_maxwell(table * 0.375) == (float(exact * Fraction(3, 8)), k - 1)


def test_stuart_maxwell_drops_categories_without_disagreement() -> None:
    # categories 2 and 4 never disagree: rank S = k − 1 − 2, two components' forms
    from concord._coefficients.kappa import categories_core

    table = np.array(
        [[5, 3, 0, 1, 0], [1, 4, 0, 0, 0], [0, 0, 7, 0, 0], [2, 0, 0, 6, 0], [0, 0, 0, 0, 9]]
    )
    chi2, df = categories_core.stuart_maxwell(table)
    assert df == 2
    assert chi2 == pytest.approx(
        float(categories_core._stuart_maxwell_sparse(table)[0]), rel=1e-12
    )


@pytest.mark.parametrize("seed", range(10))
def test_bangdiwala_and_specific_agreement_are_order_free(seed: int) -> None:
    # every sum exact: B^w and its SE are the same for the table and its transpose
    # (the raters swapped), specific agreement's SE for any order of the patterns
    from concord._coefficients.kappa import categories_core

    rng = np.random.default_rng(seed)
    k = int(rng.integers(3, 9))
    table = rng.integers(0, 30, size=(k, k)) + np.diag(rng.integers(5, 60, size=k))
    partial = np.array([1.0, 1 / 3, 1 / 7])
    assert categories_core.bangdiwala(table, partial) == categories_core.bangdiwala(
        table.T, partial
    )
    p = _patterns(seed, q=4, raters=6, items=300)
    ps, se, n = categories_core.specific(p)
    order = rng.permutation(p.rows.shape[0])
    ps2, se2, n2 = categories_core.specific(Patterns(p.rows[order], p.freq[order]))
    assert (ps.tolist(), se.tolist(), n) == (ps2.tolist(), se2.tolist(), n2)


@pytest.mark.parametrize("seed", range(6))
def test_cronbach_alpha_is_exact_rounded_once(seed: int) -> None:
    # Cronbach (1951): α = k/(k − 1) (1 − Σ_a var_a / Σ_ab cov_ab), each covariance over the
    # rows both columns hold (pingouin's pairwise deletion), in fractions, rounded once
    import concord

    rng = np.random.default_rng(seed)
    x = rng.normal(size=(40, 4)).round(3) + rng.normal(size=(40, 1))
    if seed % 2:
        x[rng.random(x.shape) < 0.1] = np.nan
    k = x.shape[1]

    def cov(a: int, b: int) -> Fraction:
        both = ~(np.isnan(x[:, a]) | np.isnan(x[:, b]))
        u, v = [_f(t) for t in x[both, a]], [_f(t) for t in x[both, b]]
        n = len(u)
        mu, mv = sum(u) / n, sum(v) / n
        return sum((p - mu) * (q - mv) for p, q in zip(u, v, strict=True)) / (n - 1)

    total = sum(cov(a, b) for a in range(k) for b in range(k))
    trace = sum(cov(a, a) for a in range(k))
    r = concord.cronbach_alpha(x)
    assert r.statistic == float(Fraction(k, k - 1) * (1 - trace / total))
    assert r.mean_variance == float(trace / k)
    assert r.mean_covariance == float((total - trace) / (k * (k - 1)))


@pytest.mark.parametrize("method", ["pearson", "spearman"])
def test_pairwise_correlations_are_exact_rounded_once(method: str) -> None:
    # Pearson (on mid-ranks for Spearman): r = C_ab / √(C_aa C_bb), C the centred cross
    # products, in fractions; √ of the exact r², correctly rounded, with r's sign
    import concord
    from concord._coefficients.ranks.ranking import midranks

    rng = np.random.default_rng(4)
    x = rng.normal(size=(50, 4)).round(2) + rng.normal(size=(50, 1))
    r = concord.mean_correlation(x, method=method)
    cols = x if method == "pearson" else np.column_stack([midranks(x[:, j])[0] for j in range(4)])
    c = [[Fraction(0)] * 4 for _ in range(4)]
    for a in range(4):
        for b in range(4):
            u, v = [_f(t) for t in cols[:, a]], [_f(t) for t in cols[:, b]]
            c[a][b] = 50 * sum(p * q for p, q in zip(u, v, strict=True)) - sum(u) * sum(v)
    want = []
    for a in range(4):
        for b in range(a + 1, 4):
            square = c[a][b] ** 2 / (c[a][a] * c[b][b])
            root = math.isqrt(square.numerator * 4**80 // square.denominator)  # 80 extra bits
            want.append(math.copysign(math.ldexp(root, -80), c[a][b]))
    assert list(r.correlations) == want


def test_item_agreement_per_item_is_exact_rounded_once() -> None:
    # Fleiss (1971) per item, weighted as Gwet (2014): p_a,i = (rᵀ A r − m) / (m (m − 1)),
    # A = 1 − (d/(q − 1))² on labels 1..5; the mean: an exact sum over the count
    import concord

    rng = np.random.default_rng(13)
    x = rng.integers(1, 6, size=(80, 6)).astype(float)
    x[rng.random(x.shape) < 0.2] = np.nan
    r = concord.item_agreement(x, weights="quadratic")
    a = _agreement(5, "quadratic")
    got = dict(zip(r.items, r.agreement.tolist(), strict=True))
    want = []
    for i, row in enumerate(x):
        counts = [int((row == v).sum()) for v in range(1, 6)]
        m = sum(counts)
        if m < 2:
            assert np.isnan(got[i])
            continue
        form = sum(counts[k] * _f(a[k, j]) * counts[j] for k in range(5) for j in range(5))
        value = (form - m) / (m * (m - 1))
        assert got[i] == float(value)
        want.append(float(value))
    assert r.statistic == float(sum(Fraction(v) for v in want)) / len(want)  # fmean's steps


def test_overall_concordance_does_not_depend_on_the_order_of_the_items() -> None:
    # every sum over the items exact: OCCC, its parts and its jackknife SE are the same
    # for the items in any order (a numpy or BLAS sum could differ in its last bits)
    import concord

    rng = np.random.default_rng(17)
    x = rng.normal(size=(3000, 4)) + rng.normal(size=(3000, 1)) * 2
    x[rng.random(x.shape) < 0.05] = np.nan
    want = concord.overall_concordance(x)
    for s in range(3):
        got = concord.overall_concordance(x[np.random.default_rng(300 + s).permutation(3000)])
        assert (got.statistic, got.precision, got.accuracy, got.standard_error) == (
            want.statistic,
            want.precision,
            want.accuracy,
            want.standard_error,
        )


def test_eliasziw_mean_squares_are_exact_rounded_once() -> None:
    # Eliasziw et al. (1994), the two-way ANOVA with replication, in fractions from the
    # definitions (deviations from the means), each mean square rounded once
    from concord._studies.judges.eliasziw import mean_squares

    rng = np.random.default_rng(23)
    n, t, m = 7, 3, 4
    y = rng.normal(size=(n, t, m)).round(3) * 10
    f = [[[_f(y[i, j, k]) for k in range(m)] for j in range(t)] for i in range(n)]
    grand = sum(v for a in f for b in a for v in b) / (n * t * m)
    cell = [[sum(f[i][j]) / m for j in range(t)] for i in range(n)]
    subj = [sum(cell[i]) / t for i in range(n)]
    rater = [sum(cell[i][j] for i in range(n)) / n for j in range(t)]
    mss = m * t * sum((v - grand) ** 2 for v in subj) / (n - 1)
    msr = m * n * sum((v - grand) ** 2 for v in rater) / (t - 1)
    inter = sum((cell[i][j] - subj[i] - rater[j] + grand) ** 2 for i in range(n) for j in range(t))
    within = [
        sum((f[i][j][k] - cell[i][j]) ** 2 for i in range(n) for k in range(m)) for j in range(t)
    ]
    ms = mean_squares(y)
    assert (ms.mss, ms.msr) == (float(mss), float(msr))
    assert ms.mssr == float(m * inter / ((n - 1) * (t - 1)))
    assert ms.mse == float(sum(within) / (n * t * (m - 1)))
    assert ms.mse_rater.tolist() == [float(w / (n * (m - 1))) for w in within]


def test_ratio_row_sums_are_exact_rounded_once() -> None:
    # Krippendorff's ratio δ² = ((x − y)/(x + y))², Σ_l n_l δ²(x_c, x_l) for every value c,
    # from the floats δ² themselves in fractions, rounded once
    from concord._coefficients.krippendorff import krippendorff_continuous as kc

    rng = np.random.default_rng(29)
    scores = np.sort(rng.gamma(2.0, 3.0, size=60))
    n_c = rng.integers(1, 9, size=60).astype(np.float64)
    got = kc._row_sums("ratio", scores, n_c)
    delta = kc._ratio(scores[:, None], scores[None, :])
    for c in range(60):
        assert got[c] == float(sum(_f(delta[c, j]) * _f(n_c[j]) for j in range(60)))
