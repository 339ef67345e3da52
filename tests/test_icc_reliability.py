"""IccResult.sem(), .mdc() and .spearman_brown(): the SEM, the MDC and the prophecy.

Sources: Weir (2005), J Strength Cond Res 19(1), 231-240: SEM = SD √(1 − ICC) (eq. 9) and
MDC = SEM × 1.96 × √2 (eq. 11); the Spearman–Brown prophecy, which McGraw & Wong's (1996)
average forms obey: ICC(·,k) = k ICC(·,1) / (1 + (k − 1) ICC(·,1)). Data: Shrout & Fleiss
(1979) Table 2.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import concord
from concord._results.continuous.icc_anova import FORMS

X = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]])


def test_sem_and_mdc_follow_weir():
    r = concord.icc(X)
    sd = X.std(ddof=1)
    assert r.sem() == pytest.approx(sd * math.sqrt(1 - r.statistic), rel=1e-12)
    assert r.mdc() == pytest.approx(1.959963984540054 * math.sqrt(2) * r.sem(), rel=1e-12)
    assert r.mdc(0.9) < r.mdc()
    average = r.form("twoway", "agreement", "average")
    sd_means = X.mean(axis=1).std(ddof=1)
    assert average.sem() == pytest.approx(sd_means * math.sqrt(1 - average.statistic))


@pytest.mark.parametrize("form", [f for f in FORMS if f[2] == "single"])
def test_spearman_brown_gives_the_average_forms(form):
    r = concord.icc(X).form(*form)
    average = r.form(form[0], form[1], "average")
    assert r.spearman_brown(4) == pytest.approx(average.statistic, rel=1e-12)
    assert average.spearman_brown(1) == pytest.approx(r.statistic, rel=1e-12)
    assert average.spearman_brown(4) == pytest.approx(average.statistic, rel=1e-12)


def test_spearman_brown_bad_raters():
    r = concord.icc(X)
    with pytest.raises(ValueError, match=r"'raters' parameter of IccResult\.spearman_brown"):
        r.spearman_brown(0)
    with pytest.raises(ValueError, match="confidence_level"):
        r.mdc(95)
