"""groups=: clustered items (concord._inference.clusters, concord._coefficients.clustered)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import concord
from concord._inference.clusters import cluster_variance
from tests.registry import RESULTS, ids, sample

N = 30


def _same_inference(a: object, b: object) -> None:
    """Bit-for-bit equal SE, p-value and intervals (analytic and seeded bootstrap)."""
    assert np.array_equal(a.standard_error, b.standard_error, equal_nan=True)  # type: ignore[attr-defined]
    assert np.array_equal(a.pvalue, b.pvalue, equal_nan=True)  # type: ignore[attr-defined]
    for method in (None, "t", "wald", "bootstrap-percentile", "bootstrap-bca"):
        ci_a = a.confidence_interval(method=method, n_resamples=200, rng=3)  # type: ignore[attr-defined]
        ci_b = b.confidence_interval(method=method, n_resamples=200, rng=3)  # type: ignore[attr-defined]
        assert np.array_equal(ci_a, ci_b, equal_nan=True), method


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("variant", RESULTS, ids=ids(RESULTS))
def test_one_item_per_cluster_is_today(variant):
    """One item per cluster: C = n, and the clustered formulas are the item ones, bit for bit."""
    data = sample(variant, N)
    labels = [f"patient{i}" for i in range(N)]
    _same_inference(variant(data), variant(data, groups=labels))


def _with_terms():
    return [v for v in RESULTS if v.coefficient.terms is not None and not v.missing]


@pytest.mark.parametrize("variant", _with_terms(), ids=ids(_with_terms()))
def test_duplicated_items_keep_the_item_se(variant):
    """Each item twice in its own cluster: κ is unchanged and the cluster SE is the item SE.

    Derivation: with 2n items, u'_i = d_i / √(2n (2n − 1)) and S_c = 2 d_i / √(2n (2n − 1));
    g(C)/g(2n) · Σ S_c² = [n/(n − 1)] / [2n/(2n − 1)] · 4 Σ d² / (2n (2n − 1)) =
    Σ d² / (n (n − 1)), the item variance of the single copy (Gwet's g(x) = x/(x − 1));
    with Cohen's g = 1: 4 Σ ψ² / (2n)² = Σ ψ² / n².
    """
    data = sample(variant, N)
    twice = tuple(np.concatenate([np.asarray(x, dtype=object)] * 2) for x in data)
    if variant.pairs:
        twice = tuple(list(x) for x in twice)
    groups = np.concatenate([np.arange(N)] * 2)
    once, doubled = variant(data), variant(twice, groups=groups)
    assert doubled.statistic == pytest.approx(once.statistic, rel=1e-12)
    assert doubled.standard_error == pytest.approx(once.standard_error, rel=1e-12)
    assert doubled._inferred().df == N - 1


def test_hand_calculation_percent_agreement():
    """Percent agreement of 2 raters on 4 items in clusters {0, 1, 2} and {3}, by Fraction.

    κ*_i − κ = p_i − 3/4 = 1/4, −3/4, 1/4, 1/4; cluster sums −1/4 and 1/4;
    var = C/(C − 1) Σ_c S_c² / n² = 2 · (1/16 + 1/16) / 16 = 1/64 (Gwet 2014, §5.4;
    the clustered ratio-estimator variance of Obuchowski 1998), SE = 1/8 on C − 1 = 1 df.
    """
    d = [Fraction(1, 4), Fraction(-3, 4), Fraction(1, 4), Fraction(1, 4)]
    sums = [d[0] + d[1] + d[2], d[3]]
    var = Fraction(2, 1) * sum(s * s for s in sums) / 16
    assert var == Fraction(1, 64)
    ratings = [[1, 1], [1, 2], [2, 2], [1, 1]]
    r = concord.percent_agreement(ratings, groups=["a", "a", "a", "b"])
    assert r.statistic == 0.75
    assert r.standard_error == pytest.approx(math.sqrt(var), rel=1e-15)
    assert r._inferred().df == 1


def test_cluster_variance_of_singletons_is_the_item_variance():
    """The formula itself, C = n: g(n)/g(n) Σ u_i² (to rounding; the results route to today's)."""
    u = np.random.default_rng(1).normal(size=50)
    u -= u.mean()
    got = cluster_variance(u, np.arange(50), corrected=True)
    assert got == pytest.approx(float(u @ u), rel=1e-15)
    assert cluster_variance(u, np.arange(50), corrected=False) == pytest.approx(float(u @ u))


def test_clusters_bootstrap_and_jackknife_resample_clusters():
    """A linear coefficient (percent agreement): the cluster jackknife variance is the
    linearisation's (both are C/(C − 1) Σ S_c² / n² for a mean), and replicates vary."""
    rng = np.random.default_rng(0)
    ratings = rng.integers(0, 3, (40, 3))
    groups = np.repeat(np.arange(10), 4)
    r = concord.percent_agreement(ratings, groups=groups)
    sampler = r._inferred().sampler
    assert sampler.frequencies().sum() == 10
    assert math.sqrt(sampler.variance()) == pytest.approx(r.standard_error, rel=1e-12)
    assert np.unique(r.bootstrap(50, rng=1)).size > 1


def test_pandas_groups_pair_by_index():
    pd = pytest.importorskip("pandas")
    a = pd.Series([1, 2, 2, 1, 1, 2], index=list("abcdef"))
    b = pd.Series([1, 2, 1, 1, 2, 2], index=list("abcdef"))
    g = pd.Series([0, 0, 1, 1, 2, 2], index=list("abcdef"))
    shuffled = g.iloc[::-1]
    se = concord.cohen_kappa(a, b, groups=g).standard_error
    assert concord.cohen_kappa(a, b, groups=shuffled).standard_error == se


def test_errors_name_the_problem():
    ratings = [[1, 1], [1, 2], [2, 2], [1, 1]]
    with pytest.raises(ValueError, match=r"groups.*one label per item \(4\).*3 labels"):
        concord.fleiss_kappa(ratings, groups=[1, 1, 2])
    with pytest.raises(ValueError, match="missing label in row 2"):
        concord.fleiss_kappa(ratings, groups=[1, 1, float("nan"), 2])
    with pytest.raises(ValueError, match="missing label in row 0"):
        concord.cohen_kappa([1, 2], [1, 1], groups=[None, 1])


def test_compare_with_groups():
    rng = np.random.default_rng(0)
    first = rng.integers(0, 3, (40, 4))
    second = first.copy()
    second[::3, 1] = second[::3, 0]
    plain = concord.compare(concord.fleiss_kappa, first, second)
    single = concord.compare(concord.fleiss_kappa, first, second, groups=list(range(40)))
    assert (single.standard_error, single.df, single.pvalue) == (
        plain.standard_error,
        plain.df,
        plain.pvalue,
    )
    groups = np.repeat(np.arange(20), 2)
    clustered = concord.compare(concord.fleiss_kappa, first, second, groups=groups)
    assert clustered.df == 19
    assert (
        clustered.first.standard_error == concord.fleiss_kappa(first, groups=groups).standard_error
    )
    unpaired = concord.compare(
        concord.fleiss_kappa, first, second, paired=False, groups=(groups, groups)
    )
    se1, se2 = unpaired.first.standard_error, unpaired.second.standard_error
    assert unpaired.standard_error == pytest.approx(math.hypot(se1, se2))
    with pytest.raises(TypeError, match="groups"):
        concord.compare(concord.fleiss_kappa, first, second, paired=False, groups=groups)


def test_long_form_names_the_cluster_column() -> None:
    """Long rows carry each item's cluster in a column: the result of the wide form's labels."""
    import pandas as pd

    rng = np.random.default_rng(11)
    m = rng.integers(1, 4, (40, 3)).astype(float)
    m[rng.random(m.shape) < 0.1] = np.nan
    g = np.repeat(np.arange(20), 2)
    df = pd.DataFrame(m, columns=["a", "b", "c"]).assign(doc=np.arange(40), patient=g)
    long = df.melt(id_vars=["doc", "patient"], var_name="who", value_name="y")
    long = long.sample(frac=1, random_state=1)  # rows in any order
    for f in (concord.fleiss_kappa, concord.conger_kappa, concord.krippendorff_alpha):
        wide = f(m, groups=g)
        tall = f(long, item="doc", rater="who", rating="y", groups="patient")
        assert tall.statistic == wide.statistic
        # each item's terms add over its raters in the order the table lists them (long:
        # as they first appear), so they may differ in the last bit; the SE then sums them
        # correctly rounded (math.fsum, the same on every CPU), to within a few ulps here
        assert tall.standard_error == pytest.approx(wide.standard_error, rel=4e-16, abs=0)
    with pytest.raises(ValueError, match="name of a column of the long table"):
        concord.fleiss_kappa(long, item="doc", rater="who", rating="y", groups=list(g))
    long.loc[long.index[0], "patient"] = 99
    with pytest.raises(ValueError, match=r"one cluster per item\. Got item .* in two clusters"):
        concord.fleiss_kappa(long, item="doc", rater="who", rating="y", groups="patient")
