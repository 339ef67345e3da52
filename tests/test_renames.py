"""The renames of issue 25 keep the old names working, with a FutureWarning.

``BlandAltmanResult.limits`` was the coverage (0.95) while its repr showed
the limits themselves; it is ``coverage`` now. The ICC forms' value column
was ``icc`` where every other frame says ``statistic``. ``ComparisonResult``'s
headline ``statistic`` is the difference; t is ``t_statistic``.
"""

from __future__ import annotations

import pytest

import concord

# Bland & Altman (1986), PEFR, the first 6 subjects
WRIGHT = [494, 395, 516, 434, 476, 557]
MINI = [512, 430, 520, 428, 500, 600]
# Shrout & Fleiss (1979), Table 2
SF = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]


def test_bland_altman_coverage_and_its_old_name():
    r = concord.bland_altman(WRIGHT, MINI, limits=0.9)
    assert r.coverage == 0.9
    assert "limits=(" not in repr(r) and "coverage=0.9" in repr(r)
    assert f"lower_limit={r.lower_limit:.6g}" in repr(r)
    with pytest.warns(FutureWarning, match="BlandAltmanResult.coverage"):
        assert r.limits == 0.9
    assert r.to_dict()["coverage"] == 0.9


def test_icc_forms_statistic_and_the_old_icc_key():
    forms = concord.icc(SF).forms()
    record = next(f for f in forms.to_dict() if f["shrout_fleiss"] == "ICC(2,1)")
    assert record["statistic"] == pytest.approx(0.289764, abs=1e-6)  # ICC(2,1) = .29
    with pytest.warns(FutureWarning, match="'statistic'"):
        assert record["icc"] == record["statistic"]
    frame = forms.to_frame()
    with pytest.warns(FutureWarning, match="'statistic'"):
        assert frame["icc"].tolist() == frame["statistic"].tolist()


def test_comparison_statistic_is_the_difference():
    one = [[1, 1, 1], [1, 2, 2], [2, 2, 2], [3, 3, 1], [1, 1, 2], [3, 3, 3], [2, 1, 2]]
    two = [[1, 1, 1], [2, 2, 2], [2, 2, 2], [3, 3, 3], [1, 1, 1], [3, 3, 3], [2, 2, 2]]
    r = concord.compare(concord.fleiss_kappa, one, two)
    assert r.statistic == r.difference == r.second.statistic - r.first.statistic
    assert r.t_statistic == pytest.approx(r.difference / r.standard_error)
