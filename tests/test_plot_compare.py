"""concord.plot.ComparisonDisplay: two estimates and their difference, each with its interval."""

from __future__ import annotations

import matplotlib
import pytest

import concord
from concord.plot import ComparisonDisplay

matplotlib.use("Agg")


def test_draws_three_rows_and_a_zero_line():
    truth, a, b = (
        [1, 2, 3, 3, 2, 1, 2, 3, 1],
        [1, 2, 3, 2, 2, 1, 3, 3, 1],
        [1, 2, 3, 3, 2, 1, 2, 2, 2],
    )
    r = concord.compare(concord.cohen_kappa, (truth, a), (truth, b))
    d = ComparisonDisplay.from_result(r, names=("a", "b")).plot()
    ax = d.ax_
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "b − a"]
    # the interval bars: one LineCollection of three segments (first, second, difference)
    (bars,) = ax.collections
    assert len(bars.get_segments()) == 3
    low, high = r.confidence_interval()
    assert bars.get_segments()[2][:, 0].tolist() == [low, high]
    # the estimates (o), the bar ends (|), the zero line and the separator
    assert len(ax.lines) == 4
    assert ax.lines[1].get_xdata().tolist() == [
        r.first.statistic,
        r.second.statistic,
        r.difference,
    ]
    assert list(ax.lines[2].get_xdata()) == [0, 0]
    matplotlib.pyplot.close(d.figure_)


def test_refuses_other_results():
    with pytest.raises(TypeError, match="a ComparisonResult"):
        ComparisonDisplay.from_result(concord.cohen_kappa([1, 2, 1], [1, 2, 2]))


def test_report_comparison_section_renders_and_escapes():
    from concord.report import to_html

    truth, a, b = (
        [1, 2, 3, 3, 2, 1, 2, 3, 1],
        [1, 2, 3, 2, 2, 1, 3, 3, 1],
        [1, 2, 3, 3, 2, 1, 2, 2, 2],
    )
    r = concord.compare(concord.cohen_kappa, (truth, a), (truth, b))
    page = to_html(r.first, comparisons={"<model b> vs a": r}, plots=True)
    assert '<section id="comparisons">' in page and "<h2>Comparison</h2>" in page
    assert "&lt;model b&gt; vs a" in page and "<model b>" not in page
    assert f"{r.difference:.4f}" in page and "second − first" in page
    assert "Both estimates and their difference" in page
    assert '<section id="comparisons">' not in to_html(r.first, plots=False)
