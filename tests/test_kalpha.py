"""Hayes & Krippendorff's (2007) KALPHA bootstrap: confidence_interval(method="kalpha") and q()."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import concord
from concord._inference import kalpha

HERE = Path(__file__).parent / "reference" / "multi"
B = 20000  # Stata kalpha's default number of replicates


def hayes() -> concord.KrippendorffResult:
    # Hayes & Krippendorff (2007) Table 1: 40 units x 5 observers, ordinal alpha = .7598
    data = pd.read_csv(HERE / "hayes_krippendorff_2007.csv").to_numpy()
    return concord.krippendorff_alpha(data, level="ordinal")


def test_published_alpha_and_the_number_of_draws():
    r = hayes()
    assert round(r.statistic, 4) == 0.7598
    # M = min(25 · #{o_ck > 0}, (m − 1) n.. / 2) = min(25 · 14, 4 · 159 / 2) (KALPHA 3.0)
    assert np.count_nonzero(r.coincidences) == 14 and r.n_pairable == 159
    assert kalpha.draws(r.coincidences, 5) == 318


def test_replicates_have_the_multinomial_mean_and_spread():
    # drawing M pairs with the coincidence probabilities makes Σδ² a sum of M iid draws:
    # E α* = 1 − D_o/D_e = α and SD α* = SD(δ²)/(√M D_e), exactly (before KALPHA's clipping,
    # which never acts here: α* stays far from −1 and 1)
    r = hayes()
    o, d = r.coincidences, r.distances
    upper = np.triu_indices(o.shape[0])
    p = np.where(upper[0] == upper[1], 1.0, 2.0) * o[upper] / o.sum()
    delta = d[upper]
    mean_delta = p @ delta
    sd = math.sqrt(p @ (delta - mean_delta) ** 2 / 318) / r.expected_disagreement
    values = kalpha.replicates(o, d, r.expected_disagreement, 5, B, np.random.default_rng(7))
    assert math.isclose(mean_delta / r.expected_disagreement, 1 - r.statistic, rel_tol=1e-9)
    # Monte Carlo tolerances: 4 standard errors of the mean (sd/√B) and of the SD (sd/√(2B))
    assert abs(values.mean() - r.statistic) < 4 * sd / math.sqrt(B)
    assert abs(values.std() - sd) < 4 * sd / math.sqrt(2 * B)


def test_interval_contains_alpha_and_is_reproducible():
    r = hayes()
    low, high = r.confidence_interval(method="kalpha", n_resamples=B, rng=1)
    assert low < r.statistic < high
    assert (low, high) == r.confidence_interval(method="kalpha", n_resamples=B, rng=1)
    # the normal approximation with the exact SD: ±1.96 SD, within Monte Carlo error
    # (about 0.004 at B = 20000; the distribution is close to normal with M = 318)
    assert abs(low - (r.statistic - 1.96 * 0.0222)) < 0.006
    assert abs(high - (r.statistic + 1.96 * 0.0222)) < 0.006


def test_interval_order_statistics_as_kalpha():
    # KALPHA: the trunc(.025 B)-th and (trunc(.975 B) + 1)-th of the sorted replicates
    values = np.arange(1, 10001, dtype=float)
    assert kalpha.interval(values, 0.95) == (250.0, 9751.0)
    assert kalpha.interval(np.arange(1.0, 11.0), 0.5) == (2.0, 8.0)


def test_q_is_monotone_and_matches_the_replicates():
    r = hayes()
    q = r.q(n_resamples=B, rng=3)
    assert list(q) == [0.9, 0.8, 0.7, 0.667, 0.6, 0.5]
    values = list(q.values())
    assert values == sorted(values, reverse=True)
    assert q[0.9] == 1.0 and q[0.5] == 0.0
    assert 0 < q[0.8] < 1  # .7598 sits ~2 SD below .8
    assert r.q(0.8, n_resamples=B, rng=3) == q[0.8]
    low, _ = r.confidence_interval(method="kalpha", n_resamples=B, rng=3)
    assert r.q(low, n_resamples=B, rng=3) == pytest.approx(0.0249, abs=0.0002)


def test_undefined_replicates_become_zero():
    # one value only on the diagonal: every all-agreeing replicate is alpha = 0 (KALPHA)
    values = np.array([1.0, 0.5, 1.0])
    assert list(kalpha._undefined_to_zero(values.copy(), np.array([0.5, 0.0]), 3)) == [
        0.0,
        0.5,
        0.0,
    ]
    # two values on the diagonal: round(B · Σ p_cc^M) of them, here round(3 · 2 · 0.5) = 3
    got = kalpha._undefined_to_zero(values.copy(), np.array([0.5, 0.5]), 1)
    assert list(got) == [0.0, 0.5, 0.0]


def test_perfect_agreement_and_undefined_alpha():
    perfect = concord.krippendorff_alpha([[1, 1], [2, 2], [3, 3], [1, 1]])
    assert perfect.statistic == 1
    assert perfect.confidence_interval(method="kalpha", rng=0) == (1.0, 1.0)
    assert perfect.q(rng=0)[0.9] == 0.0
    with pytest.warns(concord.UndefinedKappaWarning):
        undefined = concord.krippendorff_alpha([[1, 1], [1, 1]])
    assert math.isnan(undefined.statistic)
    assert all(math.isnan(v) for v in undefined.confidence_interval(method="kalpha", rng=0))
    assert math.isnan(undefined.q(0.8, rng=0))


def test_other_methods_unchanged_and_wrong_method_refused():
    r = hayes()
    assert r.confidence_interval() == concord.AgreementResult.confidence_interval(r)
    with pytest.raises(ValueError, match="kalpha"):
        r.confidence_interval(method="kalpa")
    kappa = concord.fleiss_kappa(pd.read_csv(HERE / "hayes_krippendorff_2007.csv"))
    with pytest.raises(ValueError, match="method"):
        kappa.confidence_interval(method="kalpha")


def test_count_form_has_no_observers():
    counts = concord.CategoryCounts([[2, 0], [1, 1], [0, 2]])
    r = concord.krippendorff_alpha(counts)
    with pytest.raises(ValueError, match="coincidence matrix or number of raters"):
        r.q(0.8)


def test_the_ordinal_level_of_text_needs_its_order_declared():
    # Krippendorff's ordinal metric ranks the values: on text it sorted them alphabetically
    # and gave -0.0785 here (high < low < medium) with no warning; every weighted kappa
    # already refuses to guess an order, and so does alpha now. With the order given, the
    # value is that of the same ratings coded 1 < 2 < 3 (0.6199 here).
    import pandas as pd

    x = [
        ["low", "medium", "medium"],
        ["medium", "medium", "high"],
        ["low", "low", "low"],
        ["high", "medium", "high"],
    ]
    with pytest.raises(ValueError, match="never sorts them alphabetically"):
        concord.krippendorff_alpha(x, level="ordinal")
    coded = [[{"low": 1, "medium": 2, "high": 3}[v] for v in row] for row in x]
    want = concord.krippendorff_alpha(coded, level="ordinal").statistic
    order = ["low", "medium", "high"]
    assert concord.krippendorff_alpha(x, level="ordinal", labels=order).statistic == want
    ordered = pd.DataFrame(x).astype(pd.CategoricalDtype(order, ordered=True))
    assert concord.krippendorff_alpha(ordered, level="ordinal").statistic == want
    stream = concord.accumulate(concord.krippendorff_alpha, level="ordinal")
    stream.update(np.array(x, dtype=object))
    with pytest.raises(ValueError, match="never sorts them alphabetically"):
        stream.result()
