"""concord.plot for continuous ratings: the Bland–Altman plot and the concordance scatter."""

from __future__ import annotations

import io

import numpy as np
import pytest

import concord
from concord.plot import BlandAltmanDisplay, ConcordanceDisplay

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")

# Bland & Altman (1986), Lancet 327(8476), 307-310, Table 1: first PEFR readings (l/min)
WRIGHT = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178, 423, 427]
MINI = [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260, 477, 259, 350, 451]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def labels(ax):
    return [h.get_label() for h in ax.get_legend_handles_labels()[0]]


def span(patch):
    """The low and high y of a horizontal band (a Rectangle or a Polygon, by version)."""
    ys = patch.get_patch_transform().transform(patch.get_path().vertices)[:, 1]
    return (round(float(ys.min()), 9), round(float(ys.max()), 9))


def test_bland_altman_points_are_the_differences_against_the_means():
    d = BlandAltmanDisplay.from_data(WRIGHT, MINI).plot()
    np.testing.assert_array_equal(d.differences, np.subtract(WRIGHT, MINI))
    np.testing.assert_array_equal(d.means, (np.add(WRIGHT, MINI)) / 2)
    (points,) = d.ax_.collections
    np.testing.assert_array_equal(points.get_offsets()[:, 1], d.differences)


def test_bland_altman_lines_are_the_result_with_their_intervals():
    r = concord.bland_altman(WRIGHT, MINI)
    d = BlandAltmanDisplay.from_result(r, WRIGHT, MINI).plot()
    heights = [line.get_ydata()[0] for line in d.ax_.lines]
    assert heights == [r.bias, r.lower_limit, r.upper_limit]
    assert [line.get_linestyle() for line in d.ax_.lines] == ["-", "--", "--"]
    # one shaded band per line: the bias's t interval, the limits' exact (Carkeet) ones
    assert len(d.ax_.patches) == 3
    spans = sorted(span(p) for p in d.ax_.patches)
    wanted = [r.lower_interval, r.bias_interval, r.upper_interval]
    assert spans == sorted((round(c.low, 9), round(c.high, 9)) for c in wanted)
    # the result's values to 3 digits (tests/test_continuous.py checks them against the
    # published ones); the limits' bands are the exact intervals, not the approximate ones
    assert labels(d.ax_) == [
        "17 pairs",
        "bias -2.12 [-22, 17.8]",
        "95% lower limit -78.1 [-124, -53.1]",
        "95% upper limit 73.9 [48.9, 120]",
    ]


def test_bland_altman_proportional_draws_the_regression_and_its_limits():
    d = BlandAltmanDisplay.from_data(WRIGHT, MINI, proportional=True).plot()
    r = d.result
    centre, low, high = d.ax_.lines
    m = centre.get_xdata()
    assert (m.min(), m.max()) == (d.means.min(), d.means.max())
    np.testing.assert_allclose(centre.get_ydata(), r.intercept + r.slope * m)
    np.testing.assert_allclose(low.get_ydata(), r.limits_at(m)[0])
    np.testing.assert_allclose(high.get_ydata(), r.limits_at(m)[1])
    assert len(d.ax_.patches) == 1  # the bias's interval only: no constant limits
    assert labels(d.ax_)[2].startswith("d = ")


def test_bland_altman_refuses_data_that_are_not_the_result_s():
    r = concord.bland_altman(WRIGHT, MINI)
    with pytest.raises(ValueError, match="must be the 17 pairs the result was computed from"):
        BlandAltmanDisplay.from_result(r, WRIGHT[:-1], MINI[:-1])
    with pytest.raises(TypeError, match="a BlandAltmanResult"):
        BlandAltmanDisplay.from_result(concord.concordance_correlation(WRIGHT, MINI), WRIGHT, MINI)


def test_missing_pairs_are_dropped_as_the_result_drops_them():
    x, y = [*WRIGHT, np.nan], [*MINI, 300.0]
    d = BlandAltmanDisplay.from_data(x, y, nan_policy="omit")
    assert d.differences.size == d.result.n == 17


def test_concordance_scatter_identity_and_reduced_major_axis():
    r = concord.concordance_correlation(WRIGHT, MINI)
    d = ConcordanceDisplay.from_result(r, WRIGHT, MINI).plot()
    identity, axis = d.ax_.lines
    np.testing.assert_array_equal(identity.get_xdata(), identity.get_ydata())
    slope = np.diff(axis.get_ydata()) / np.diff(axis.get_xdata())
    # reduced major axis: slope s_y / s_x (positive covariance), through the means
    np.testing.assert_allclose(slope, np.std(MINI) / np.std(WRIGHT))
    at_mean = np.interp(np.mean(WRIGHT), axis.get_xdata(), axis.get_ydata())
    assert at_mean == pytest.approx(np.mean(MINI))
    assert labels(d.ax_) == ["17 pairs", "identity y = x", "reduced major axis"]
    assert d.ax_.get_title().startswith("Lin's concordance ρ_c = 0.943 [")
    assert d.ax_.get_xlim() == d.ax_.get_ylim()


def test_constant_ratings_draw_no_axis():
    d = ConcordanceDisplay.from_data([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]).plot(legend=False)
    assert [line.get_label() for line in d.ax_.lines] == ["identity y = x"]


def test_concordance_refuses_other_results():
    with pytest.raises(TypeError, match="a CccResult"):
        ConcordanceDisplay.from_result(concord.bland_altman(WRIGHT, MINI), WRIGHT, MINI)


def test_many_points_are_rasterised_and_save_as_svg():
    rng = np.random.default_rng(0)
    x = rng.normal(size=5000)
    d = BlandAltmanDisplay.from_data(x, x + rng.normal(size=5000)).plot()
    assert d.ax_.collections[0].get_rasterized()
    d.figure_.savefig(io.StringIO(), format="svg")


def test_on_existing_axes():
    figure, ax = plt.subplots()
    d = ConcordanceDisplay.from_data(WRIGHT, MINI).plot(ax=ax, color="red")
    assert d.ax_ is ax and d.figure_ is figure
