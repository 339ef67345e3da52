"""Bland & Altman (1999): systolic blood pressure of 85 subjects, from the raw readings.

Source of the data: the paper's Table 1 as R's MethComp (GPL >= 2) ships it, data set
``sbp`` (tests/reference/continuous/sbp_1999.json names the commit). Expected values: the
paper's section 2.2, observer J against the machine S on the first readings: bias
−16.29, SD 19.61, limits −54.7 to 22.1, and the 95% intervals of the bias (−20.5 to
−12.1), the lower limit (−61.9 to −47.5) and the upper limit (14.9 to 29.3).
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import concord

REFERENCE = json.loads(
    (Path(__file__).parent / "reference" / "continuous" / "sbp_1999.json").read_text()
)
PUBLISHED = REFERENCE["published"]
J, R, S = (np.array(REFERENCE[k]) for k in "JRS")


def test_the_readings_are_the_papers():
    assert J.shape == R.shape == S.shape == (PUBLISHED["n"], 3)
    # first readings: Σ(J − S) = −1385 over 85 subjects, exact on integer readings
    assert Fraction(int((J[:, 0] - S[:, 0]).sum()), 85) == Fraction(-1385, 85)


def test_bias_sd_limits_and_the_bias_interval_as_published():
    r = concord.bland_altman(J[:, 0], S[:, 0])
    assert r.n == PUBLISHED["n"]
    assert r.bias == -1385 / 85
    assert round(r.bias, 2) == PUBLISHED["bias"]
    assert round(r.sd, 2) == PUBLISHED["sd"]
    assert round(r.lower_limit, 1) == PUBLISHED["lower_limit"]
    assert round(r.upper_limit, 1) == PUBLISHED["upper_limit"]
    assert [round(v, 1) for v in r.bias_interval] == PUBLISHED["bias_ci"]


def test_the_approximate_limit_intervals_as_published():
    r = concord.bland_altman(J[:, 0], S[:, 0])
    # the paper's arithmetic: SE of a limit ≈ √(3 s² / n) = 3.68, and the rounded limit
    # ± 1.96 × 3.68 gives its four ends
    se = round(math.sqrt(3 * r.sd**2 / r.n), 2)
    assert se == 3.68
    for limit, key in ((r.lower_limit, "lower_limit_ci"), (r.upper_limit, "upper_limit_ci")):
        shown = round(limit, 1)
        assert [round(shown - 1.96 * se, 1), round(shown + 1.96 * se, 1)] == PUBLISHED[key]
    # concord's approximate interval, from unrounded values with t and
    # s √(1/n + z²/(2(n − 1))), lies within 0.11 of the published ends
    got = [*r.lower_interval_approximate, *r.upper_interval_approximate]
    want = [*PUBLISHED["lower_limit_ci"], *PUBLISHED["upper_limit_ci"]]
    for g, w in zip(got, want, strict=True):
        assert g == pytest.approx(w, abs=0.11)
    # the exact intervals (Carkeet 2015) are wider away from the bias, as they must be
    assert r.lower_interval.low < r.lower_interval_approximate.low
    assert r.upper_interval.high > r.upper_interval_approximate.high


def test_merged_sums_of_the_readings_are_the_one_shot_result():
    # all three readings of each subject, paired J with S reading by reading
    x, y = J.ravel(), S.ravel()
    acc = concord.accumulate(concord.bland_altman)
    for start in range(0, x.size, 50):
        acc.update(x[start : start + 50], y[start : start + 50])
    assert repr(acc.result().to_dict()) == repr(concord.bland_altman(x, y).to_dict())
