"""interpret(probabilistic=True): Gwet's (2014, ch. 6) benchmark membership probabilities."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import concord
from concord._results import benchmark

HERE = Path(__file__).parent / "reference" / "multi"

# irrCAC 1.0 vignette "benchmarking" (inst/doc/benchmarking.html, Gwet 2019):
# gwet.ac1.raw(cac.raw4raters) gives coeff.val 0.77544, coeff.se 0.14295, then
# landis.koch.bf / altman.bf / fleiss.bf print these CumProb columns (best level first).
IRRCAC_AC1, IRRCAC_SE = 0.77544, 0.14295
IRRCAC = {
    "landis-koch": [0.39674, 0.88336, 0.99542, 0.99997, 1, 1],
    "altman": [0.39674, 0.88336, 0.99542, 0.99997, 1],
    "fleiss": [0.54414, 0.99542, 1],
}
# the same vignette's level names, best first (concord writes Fleiss' middle level
# "fair to good", as Fleiss 1981 p. 218; irrCAC writes "Intermediate to Good")
LABELS = {
    "landis-koch": ["almost perfect", "substantial", "moderate", "fair", "slight", "poor"],
    "altman": ["very good", "good", "moderate", "fair", "poor"],
    "fleiss": ["excellent", "fair to good", "poor"],
}


def raw4raters() -> np.ndarray:
    # irrCAC cac.raw4raters = Krippendorff's (2011) 4 observers x 12 units, as units x raters
    return pd.read_csv(HERE / "krippendorff_4obs_12units.csv").to_numpy()


@pytest.mark.parametrize("scale", sorted(IRRCAC))
def test_irrcac_vignette_cumulative_probabilities(scale):
    got = benchmark.normal(scale, IRRCAC_AC1, IRRCAC_SE)
    assert [level.label for level in got.levels] == LABELS[scale]
    assert [round(level.cumulative, 5) for level in got.levels] == IRRCAC[scale]


@pytest.mark.parametrize("scale", sorted(IRRCAC))
def test_from_the_result_of_gwet_ac(scale):
    r = concord.gwet_ac(raw4raters())
    assert round(r.statistic, 5) == IRRCAC_AC1 and round(r.standard_error, 5) == IRRCAC_SE
    got = r.interpret(scale, probabilistic=True)
    # concord's SE is 0.1429500 (irrCAC prints 0.14295): the fifth decimal may move by 1
    assert np.allclose([x.cumulative for x in got.levels], IRRCAC[scale], atol=2e-5)


def test_sentence_most_likely_and_retained():
    got = concord.gwet_ac(raw4raters()).interpret(probabilistic=True)
    # Gwet (2014) retains the best level whose cumulative probability reaches 0.95:
    # the vignette calls this AC1 "Moderate"; 0.9954 is not rounded up to 1.00
    assert str(got) == "substantial with probability 0.49; moderate or better 0.995"
    assert got.most_likely.label == "substantial" and got.retained().label == "moderate"
    assert got.retained(0.8).label == "substantial"


def test_probabilities_sum_to_one_and_intervals_tile():
    got = benchmark.normal("cicchetti", 0.3, 0.2)
    assert math.isclose(sum(x.probability for x in got.levels), 1.0)
    intervals = [x.interval for x in reversed(got.levels)]
    assert intervals[0][0] == -1 and intervals[-1][1] == 1
    assert all(a[1] == b[0] for a, b in itertools.pairwise(intervals))


def test_zero_and_undefined_standard_error():
    sure = benchmark.normal("landis-koch", 0.6, 0.0)
    # Landis & Koch's moderate is (0.4, 0.6]: the point mass sits in it, as interpret() says
    assert (
        sure.most_likely.label
        == "moderate"
        == concord._results.interpret.interpret(0.6, "landis-koch", "")
    )
    assert sure.most_likely.probability == 1
    assert str(benchmark.normal("landis-koch", math.nan, 0.1)) == "undefined"


def test_default_scale_of_alpha_and_of_kappa():
    data = raw4raters()
    alpha = concord.krippendorff_alpha(data).interpret(probabilistic=True)
    assert alpha.scale == "krippendorff"
    assert [x.label for x in alpha.levels] == ["acceptable", "tentative", "unacceptable"]
    kappa = concord.cohen_kappa([0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1])
    assert kappa.interpret(probabilistic=True).scale == "landis-koch"
    assert kappa.interpret() == "substantial"  # the word stays the default


def test_unknown_scale_is_refused():
    with pytest.raises(ValueError, match="scale"):
        concord.gwet_ac(raw4raters()).interpret("landis", probabilistic=True)


def test_icc_probabilities_invert_the_f_test():
    # Shrout & Fleiss (1979) Table 2: 6 targets x 4 judges
    x = np.array(
        [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    )
    for model, type_, unit in [
        ("oneway", "agreement", "single"),
        ("twoway", "agreement", "single"),
        ("twoway", "consistency", "average"),
    ]:
        got = concord.icc(x, model=model, type=type_, unit=unit).interpret(probabilistic=True)
        assert got.method == "f" and got.scale == "koo-li"
        good = next(level for level in got.levels if level.label == "good")
        # P(ICC ≥ 0.75) = 1 − the one-sided p-value of McGraw & Wong's test of H0: ICC = 0.75
        tested = concord.icc(x, model=model, type=type_, unit=unit, r0=0.75)
        assert math.isclose(good.cumulative, 1 - tested.pvalue, rel_tol=1e-12)
        assert math.isclose(sum(level.probability for level in got.levels), 1.0)
