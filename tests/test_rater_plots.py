"""PairwiseMatrixDisplay and RaterDisplay read what rater_diagnostics computed."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

import concord
from concord.plot import PairwiseMatrixDisplay, RaterDisplay

matplotlib.use("Agg")
RATINGS = [[1, 1, 2, 1], [2, 2, 2, 3], [3, 3, 1, 3], [1, 1, 1, 2], [2, 3, 2, 2], [3, 3, 3, 1]]


def test_pairwise_heatmap_has_rater_names_and_values() -> None:
    import pandas as pd

    d = concord.rater_diagnostics(pd.DataFrame(RATINGS, columns=["ann", "bo", "cy", "di"]))
    display = PairwiseMatrixDisplay.from_result(d).plot()
    assert [t.get_text() for t in display.ax_.get_xticklabels()] == ["ann", "bo", "cy", "di"]
    assert [t.get_text() for t in display.ax_.get_yticklabels()] == ["ann", "bo", "cy", "di"]
    cells = [t.get_text() for t in display.ax_.texts]
    assert len(cells) == 16 and cells[1] == f"{d.pairwise[0, 1]:.3f}".rstrip("0")
    matplotlib.pyplot.close(display.figure_)


def test_rater_forest_bars_are_the_paired_change_intervals() -> None:
    d = concord.rater_diagnostics(RATINGS, function=concord.fleiss_kappa)
    display = RaterDisplay.from_result(d, confidence_level=0.9).plot()
    for r, change in enumerate(d.changes):
        low, high = change.confidence_interval(0.9)
        assert display.intervals[r].low == pytest.approx(d.full.statistic + low)
        assert display.intervals[r].high == pytest.approx(d.full.statistic + high)
    assert np.array_equal(display.statistics, [w.statistic for w in d.without])
    assert display.full in display.ax_.lines[-1].get_xdata()
    matplotlib.pyplot.close(display.figure_)


def test_refuses_other_results() -> None:
    with pytest.raises(TypeError, match="RaterDiagnostics"):
        RaterDisplay.from_result(concord.fleiss_kappa(RATINGS))
    with pytest.raises(TypeError, match="RaterDiagnostics"):
        PairwiseMatrixDisplay.from_result(concord.fleiss_kappa(RATINGS))
