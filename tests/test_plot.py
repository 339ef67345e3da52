"""concord.plot: each display holds the result's own arrays, in label order, and draws them."""

from __future__ import annotations

import io
import subprocess
import sys
import warnings

import numpy as np
import pytest

import concord
from concord.plot import (
    BootstrapDisplay,
    ContributionsDisplay,
    ExpectedMatrixDisplay,
    ForestDisplay,
    ObservedMatrixDisplay,
    ThresholdDisplay,
    WeightMatrixDisplay,
)

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")

LABELS = ["low", "mid", "high"]  # declared order, not alphabetical
RATER1 = ["low", "mid", "high", "mid", "low", "high", "mid", "mid", "low", "high"]
RATER2 = ["low", "mid", "mid", "mid", "mid", "high", "high", "mid", "low", "low"]
TRUTH = [0, 0, 1, 1, 1, 2, 2, 2, 3, 3]
SCORE = [0.2, 0.6, 0.9, 1.3, 1.1, 2.2, 1.8, 2.4, 3.1, 2.9]
RATINGS = [[1, 2, 2], [1, 1, 1], [3, 3, 2], [2, 2, 2], [1, 1, 2], [3, 3, 3]]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def kappa():
    return concord.cohen_kappa(RATER1, RATER2, weights="quadratic", labels=LABELS)


@pytest.fixture
def undefined():
    with pytest.warns(concord.UndefinedKappaWarning):
        return concord.cohen_kappa([1, 1, 1], [1, 1, 1])


def tick_texts(axis):
    return [t.get_text() for t in axis.get_ticklabels()]


def test_observed_counts_in_declared_order(kappa):
    display = ObservedMatrixDisplay.from_result(kappa).plot()
    np.testing.assert_array_equal(display.matrix, kappa.observed)
    assert display.labels == ("low", "mid", "high")
    assert tick_texts(display.ax_.xaxis) == LABELS
    assert tick_texts(display.ax_.yaxis) == LABELS
    assert display.ax_.get_xlabel() == "rater2"
    assert display.ax_.get_ylabel() == "rater1"
    texts = [t.get_text() for t in display.ax_.texts]
    assert texts == [str(int(v)) for v in kappa.observed.ravel()]  # counts as integers
    assert display.im_.get_cmap().name == "cividis"


def test_observed_row_shares(kappa):
    display = ObservedMatrixDisplay.from_result(kappa, normalize="row").plot()
    np.testing.assert_allclose(display.matrix.sum(axis=1), 1.0)
    totals = kappa.observed.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(display.matrix * totals, kappa.observed)
    assert all(t.get_text().endswith("%") for t in display.ax_.texts)


def test_observed_shares_of_all(kappa):
    display = ObservedMatrixDisplay.from_result(kappa, normalize="all")
    assert display.matrix.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(display.matrix * kappa.n, kappa.observed)


@pytest.mark.parametrize("bad", ["rows", "column", 1])
def test_observed_bad_normalize(kappa, bad):
    exc = ValueError if isinstance(bad, str) else TypeError
    with pytest.raises(
        exc, match=r"The 'normalize' parameter of ObservedMatrixDisplay\.from_result"
    ):
        ObservedMatrixDisplay.from_result(kappa, normalize=bad)


def test_bad_normalize_hint(kappa):
    with pytest.raises(ValueError, match="Did you mean 'row'"):
        ObservedMatrixDisplay.from_result(kappa, normalize="rows")


def test_expected_matrix(kappa):
    display = ExpectedMatrixDisplay.from_result(kappa).plot()
    np.testing.assert_array_equal(display.matrix, kappa.expected)
    assert tick_texts(display.ax_.xaxis) == LABELS


def test_weight_matrix_of_every_result_kind(kappa):
    fleiss = concord.fleiss_kappa(RATINGS, weights="quadratic")
    alpha = concord.krippendorff_alpha(np.array(RATINGS).T, level="interval")
    for result in (kappa, fleiss, alpha):
        display = WeightMatrixDisplay.from_result(result).plot()
        np.testing.assert_array_equal(display.matrix, result.weights)
        assert display.labels == tuple(result.labels)
        assert tick_texts(display.ax_.yaxis) == [str(v) for v in result.labels]


def test_contributions_loss_sums_to_one_minus_kappa(kappa):
    display = ContributionsDisplay.from_result(kappa, against="loss").plot()
    np.testing.assert_array_equal(display.matrix, kappa.contributions().loss)
    assert display.matrix.sum() == pytest.approx(1 - kappa.statistic)
    assert display.against == "loss"
    assert "1 − κ" in display.ax_.get_title()


@pytest.mark.parametrize("against", ["observed", "expected"])
def test_contributions_shares(kappa, against):
    display = ContributionsDisplay.from_result(kappa, against=against).plot()
    np.testing.assert_array_equal(display.matrix, getattr(kappa.contributions(), against))
    assert display.matrix.sum() == pytest.approx(1.0)
    assert display.ax_.get_title().startswith("Share of the weighted disagreement")
    assert all(t.get_text().endswith("%") for t in display.ax_.texts)
    assert display.labels == tuple(LABELS)


def test_contributions_bad_against(kappa):
    with pytest.raises(ValueError, match=r"'against' parameter .* Did you mean 'loss'"):
        ContributionsDisplay.from_result(kappa, against="los")


def test_annotations_contrast_with_cells(kappa):
    display = ObservedMatrixDisplay.from_result(kappa).plot()
    flat = kappa.observed.ravel()
    colours = [t.get_color() for t in display.ax_.texts]
    assert colours[int(flat.argmax())] != colours[int(flat.argmin())]


def test_matrix_display_rejects_other_results():
    fleiss = concord.fleiss_kappa(RATINGS)
    with pytest.raises(TypeError, match=r"'result' parameter .* must be a KappaResult"):
        ObservedMatrixDisplay.from_result(fleiss)


def test_plot_on_existing_axes(kappa):
    figure, (left, right) = plt.subplots(1, 2)
    display = ExpectedMatrixDisplay.from_result(kappa).plot(ax=right, colorbar=False)
    assert display.ax_ is right
    assert display.figure_ is figure
    assert len(right.images) == 1
    assert not left.images
    forest = ForestDisplay.from_results([kappa]).plot(ax=left)
    assert forest.ax_ is left


def test_threshold_display_groups_scores_by_grade():
    best = concord.optimize_thresholds(TRUTH, SCORE)
    display = ThresholdDisplay.from_result(best, TRUTH, SCORE).plot()
    np.testing.assert_array_equal(display.thresholds, best.thresholds)
    assert display.labels == best.labels
    assert [len(s) for s in display.scores] == [2, 3, 3, 2]
    np.testing.assert_array_equal(display.scores[1], [0.9, 1.3, 1.1])
    cut_lines = [line for line in display.ax_.lines if line.get_linestyle() == "--"]
    assert len(cut_lines) == len(best.thresholds)
    assert [t.split(" ")[0] for t in tick_texts(display.ax_.yaxis)] == ["0", "1", "2", "3"]


def test_threshold_display_keeps_declared_grades_and_skips_infinite_cuts():
    truth = ["mid", "mid", "high", "high", "low", "low"]
    score = [0.3, 0.4, 0.5, 0.6, 0.1, 0.2]
    best = concord.optimize_thresholds(truth, score, labels=["none", *LABELS, "top"])
    assert np.isinf(best.thresholds).sum() == 2
    display = ThresholdDisplay.from_result(best, truth, score).plot()
    assert display.labels == ("none", "low", "mid", "high", "top")
    assert [len(s) for s in display.scores] == [0, 2, 2, 2, 0]
    cut_lines = [line for line in display.ax_.lines if line.get_linestyle() == "--"]
    assert len(cut_lines) == 2


def test_threshold_display_length_mismatch():
    best = concord.optimize_thresholds(TRUTH, SCORE)
    with pytest.raises(ValueError, match=r"'y_score' parameter of ThresholdDisplay\.from_result"):
        ThresholdDisplay.from_result(best, TRUTH, SCORE[:-1])


def test_threshold_display_unknown_grade():
    best = concord.optimize_thresholds(TRUTH, SCORE)
    message = r"'y_true' parameter .* must be grades among the result's labels .* Got 7 instead"
    with pytest.raises(ValueError, match=message):
        ThresholdDisplay.from_result(best, [*TRUTH[:-1], 7], SCORE)


def test_bootstrap_display_holds_the_result_replicates(kappa):
    display = BootstrapDisplay.from_result(kappa, n_resamples=500, rng=3).plot()
    np.testing.assert_array_equal(display.replicates, kappa.bootstrap(500, rng=3))
    assert display.interval == kappa.confidence_interval()
    assert display.method == "fisher-z"  # the result's own default
    assert display.statistic == kappa.statistic
    legend = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    assert any("95% CI (fisher-z)" in t for t in legend)


def test_bootstrap_interval_from_the_same_resamples(kappa):
    display = BootstrapDisplay.from_result(
        kappa, n_resamples=999, method="bootstrap-percentile", confidence_level=0.9
    )
    low, high = np.quantile(display.replicates, [0.05, 0.95])
    assert display.interval == pytest.approx((low, high))
    assert display.method == "bootstrap-percentile"


def test_bootstrap_of_multirater_results():
    for result in (concord.fleiss_kappa(RATINGS), concord.gwet_ac(RATINGS)):
        display = BootstrapDisplay.from_result(result, n_resamples=200, rng=0).plot()
        np.testing.assert_array_equal(display.replicates, result.bootstrap(200, rng=0))
        assert display.name == result.name


def test_bootstrap_drops_undefined_replicates():
    result = concord.cohen_kappa([1, 1, 1, 1, 2], [1, 1, 1, 1, 2])
    display = BootstrapDisplay.from_result(result, n_resamples=300, rng=0).plot()
    undefined = int(np.isnan(display.replicates).sum())
    assert undefined > 0
    drawn = sum(patch.get_height() for patch in display.ax_.patches)
    assert drawn == 300 - undefined
    assert f"{undefined} undefined" in display.ax_.get_title()


def test_bootstrap_bad_method(kappa):
    with pytest.raises(ValueError, match=r"'method' parameter of BootstrapDisplay\.from_result"):
        BootstrapDisplay.from_result(kappa, method="percentile")


def test_forest_from_mapping(kappa):
    fleiss = concord.fleiss_kappa(RATINGS)
    display = ForestDisplay.from_results({"QWK": kappa, "Fleiss": fleiss}).plot()
    assert display.names == ("QWK", "Fleiss")
    np.testing.assert_array_equal(display.statistics, [kappa.statistic, fleiss.statistic])
    assert display.intervals == (kappa.confidence_interval(), fleiss.confidence_interval())
    assert tick_texts(display.ax_.yaxis) == ["QWK", "Fleiss"]
    assert "95% confidence interval (fisher-z)" in display.ax_.get_xlabel()


def test_forest_names_from_results(kappa):
    pi = concord.scott_pi(RATER1, RATER2, labels=LABELS)
    display = ForestDisplay.from_results([kappa, pi, kappa]).plot()
    assert display.names == ("Cohen's kappa (1)", "Scott's pi", "Cohen's kappa (2)")


def test_forest_shows_undefined_row(kappa, undefined):
    display = ForestDisplay.from_results({"ok": kappa, "constant": undefined}).plot()
    assert np.isnan(display.statistics[1])
    assert display.texts[1] == "undefined"
    assert display.texts[0].startswith(f"{kappa.statistic:.3f} [")
    assert "undefined" in [t.get_text() for t in display.ax_.texts]
    (values,) = display.ax_.child_axes
    assert tick_texts(values.yaxis) == list(display.texts)


def test_forest_bad_inputs(kappa):
    with pytest.raises(ValueError, match=r"'results' parameter .* non-empty"):
        ForestDisplay.from_results([])
    with pytest.raises(TypeError, match=r"'results' parameter .* confidence intervals"):
        ForestDisplay.from_results([kappa, 0.5])
    with pytest.raises(TypeError, match=r"'results' parameter"):
        ForestDisplay.from_results(kappa)
    with pytest.raises(ValueError, match=r"'method' parameter .* Did you mean 'wald'"):
        ForestDisplay.from_results([kappa], method="wlad")


@pytest.mark.parametrize(
    "make",
    [
        lambda r: ObservedMatrixDisplay.from_result(r, normalize="row"),
        lambda r: ExpectedMatrixDisplay.from_result(r),
        lambda r: WeightMatrixDisplay.from_result(r),
        lambda r: ContributionsDisplay.from_result(r),
        lambda r: ThresholdDisplay.from_result(
            concord.optimize_thresholds(TRUTH, SCORE), TRUTH, SCORE
        ),
        lambda r: BootstrapDisplay.from_result(r, n_resamples=200, rng=1),
        lambda r: ForestDisplay.from_results({"a": r}),
    ],
)
def test_saves_as_svg(kappa, make):
    display = make(kappa).plot()
    buffer = io.StringIO()
    display.figure_.savefig(buffer, format="svg")
    assert buffer.getvalue().lstrip().startswith("<?xml")


def test_import_does_not_import_matplotlib():
    code = "import concord, concord.plot, sys; assert 'matplotlib' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_plot_without_matplotlib_says_how_to_install(kappa, monkeypatch):
    display = ObservedMatrixDisplay.from_result(kappa)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r'pip install "concord-agreement\[plot\]"'):
        display.plot()


def test_from_concord_import_plot():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        from concord import plot

    assert plot.ForestDisplay is ForestDisplay
