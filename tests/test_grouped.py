"""GroupedKappaResult's standard errors and intervals, and mean_kappa's inverse-variance weights.

Sources: Fisher (1921) for z = artanh(κ); the delta method SE(z) = SE(κ) / (1 − κ²), as
every result's "fisher-z" interval; Hedges & Olkin (1985, ch. 6) and Borenstein et al.
(2009, ch. 11) for the inverse-variance (fixed-effect) mean of z, with SE(z̄) = 1 / sqrt(Σ w).
Expected values are worked by hand below with math and fractions.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction

import pandas as pd
import pytest

import concord

Q95 = 1.959963984540054  # the normal 0.975 quantile


@dataclass(frozen=True)
class Reported:
    """A kappa as a paper reports it: the value and its standard error."""

    statistic: float
    standard_error: float

    def __float__(self) -> float:
        return self.statistic


def test_inverse_variance_mean_by_hand():
    # κ = 0.6 (SE 0.1) and 0.8 (SE 0.05): SE(z) = 0.1 / 0.64 and 0.05 / 0.36, so the
    # weights 1/SE(z)² are 40.96 and 51.84 exactly, and artanh 0.6 = ln 2, artanh 0.8 = ln 3
    w1, w2 = (
        (Fraction(64, 100) / Fraction(1, 10)) ** 2,
        (Fraction(36, 100) / Fraction(5, 100)) ** 2,
    )
    assert (w1, w2) == (Fraction(4096, 100), Fraction(5184, 100))
    z = (float(w1) * math.log(2) + float(w2) * math.log(3)) / float(w1 + w2)
    got = concord.mean_kappa([Reported(0.6, 0.1), Reported(0.8, 0.05)], weights="inverse-variance")
    assert got == pytest.approx(math.tanh(z), rel=1e-14)
    # the same as those weights given
    assert got == pytest.approx(concord.mean_kappa([0.6, 0.8], weights=[4096, 5184]), rel=1e-14)


def test_inverse_variance_of_results():
    a = concord.cohen_kappa([1, 2, 3, 1, 2, 3, 1, 2], [1, 2, 3, 2, 2, 3, 1, 1])
    b = concord.cohen_kappa([1, 2, 3] * 20, [1, 2, 3] * 19 + [1, 3, 2])
    w = [((1 - r.statistic**2) / r.standard_error) ** 2 for r in (a, b)]
    z = sum(wi * math.atanh(r.statistic) for wi, r in zip(w, (a, b), strict=True)) / sum(w)
    got = concord.mean_kappa([a, b], weights="inverse-variance")
    assert got == pytest.approx(math.tanh(z), rel=1e-14)


def test_plain_values_keep_their_mean():
    # tanh((artanh 0.6 + artanh 0.8) / 2) = tanh(ln 6 / 2) = 5/7, as before results came in
    assert concord.mean_kappa([0.6, 0.8]) == pytest.approx(5 / 7, abs=1e-15)


@pytest.mark.parametrize(
    ("kappas", "match"),
    [
        ([0.6, 0.8], "no standard_error"),
        ([Reported(0.6, 0.0), Reported(0.8, 0.05)], "finite, positive standard error"),
    ],
)
def test_inverse_variance_needs_standard_errors(kappas, match):
    with pytest.raises(ValueError, match=match):
        concord.mean_kappa(kappas, weights="inverse-variance")


def test_unknown_weights_name():
    with pytest.raises(ValueError, match="inverse-variance"):
        concord.mean_kappa([0.6, 0.8], weights="inverse")


@pytest.fixture
def grouped():
    df = pd.DataFrame(
        {
            "set": [1] * 8 + [2] * 10,
            "w": [2.0] * 8 + [1.0] * 10,
            "a": [1, 2, 3, 1, 2, 3, 1, 2, 1, 2, 3, 4, 1, 2, 3, 4, 2, 3],
            "b": [1, 2, 3, 2, 2, 3, 1, 1, 1, 2, 4, 4, 1, 3, 3, 4, 2, 2],
        }
    )
    return concord.grouped_kappa(df, by="set", rater1="a", rater2="b", group_weights="w")


def test_group_standard_errors_and_intervals(grouped):
    for key, r in grouped.results.items():
        assert grouped.group_standard_errors[key] == r.standard_error
        assert grouped.group_intervals(0.9)[key] == r.confidence_interval(0.9)


def test_mean_interval_by_the_delta_method(grouped):
    # Var(z̄) = Σ w² SE(z)² / (Σ w)² for independent groups, SE(z) = SE(κ) / (1 − κ²)
    rs, ws = list(grouped.results.values()), list(grouped.group_weights.values())
    se_z = [r.standard_error / (1 - r.statistic**2) for r in rs]
    se_mean = math.sqrt(sum((w * s) ** 2 for w, s in zip(ws, se_z, strict=True))) / sum(ws)
    z = sum(w * math.atanh(r.statistic) for w, r in zip(ws, rs, strict=True)) / sum(ws)
    low, high = grouped.confidence_interval()
    assert low == pytest.approx(math.tanh(z - Q95 * se_mean), rel=1e-12)
    assert high == pytest.approx(math.tanh(z + Q95 * se_mean), rel=1e-12)
    assert grouped.standard_error == pytest.approx(se_mean * (1 - grouped.statistic**2))


def test_grouped_to_dict_and_frame(grouped):
    d = grouped.to_dict()
    json.dumps(d, allow_nan=False)
    assert (d["by"], d["n_groups"], d["ci_method"]) == ("set", 2, "fisher-z")
    assert [g["group"] for g in d["groups"]] == [1, 2]
    assert [g["weight"] for g in d["groups"]] == [2.0, 1.0]
    assert d["groups"][0]["statistic"] == grouped.results[1].statistic
    assert (d["ci_low"], d["ci_high"]) == tuple(grouped.confidence_interval())
    frame = grouped.to_frame()
    # the record's scalars, and the tidy columns "coefficient", "pvalue" (nan), "n" (issue 25)
    assert frame.shape == (1, len(d) + 2) and frame.at[0, "statistic"] == grouped.statistic
    assert frame.at[0, "n"] == sum(r.n for r in grouped.results.values())
    assert len(pd.DataFrame(d["groups"])) == 2
