"""The user's names come back (issue 25): Series and column names flow to every output.

Before, ``cohen_kappa(truth, model)`` with named Series said "rater1 / rater2"
in explain(), the notebook table and the frames; ``marginal_homogeneity``
said "rater1 used it … more times"; the Bland–Altman plot's axis read
"x − y". Plain arrays keep the old names.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import concord
from concord._cli.main import main

matplotlib.use("Agg")

FRAME = pd.DataFrame(
    {
        "truth": [1, 2, 3, 3, 2, 1, 2, 2, 3, 1],
        "model": [1, 2, 3, 2, 2, 1, 3, 2, 3, 2],
        "ann_a": [1, 1, 1, 2, 2, 2, 3, 3, 3, 3],
        "gpt_judge": [1, 1, 2, 2, 3, 3, 3, 3, 3, 3],
    }
)


def test_cohen_kappa_of_named_series_names_its_raters_everywhere():
    r = concord.cohen_kappa(FRAME.truth, FRAME.model)
    assert r.raters == ("truth", "model")
    assert "Observed matrix O (rows: truth, columns: model)" in r.explain()
    assert "pairs of truth and model" in r.summary()
    observed = r.observed_frame()
    assert (observed.index.name, observed.columns.name) == ("truth", "model")
    assert (r.weights_frame().index.name, r.expected_frame().columns.name) == ("truth", "model")
    assert "Observed O (rows: truth, columns: model)" in r._repr_html_()
    assert r.to_frame().loc[0, ["rater1", "rater2"]].tolist() == ["truth", "model"]
    assert str(r.contributions()).split()[:3] == ["truth", "→", "model"]


def test_plain_arrays_keep_rater1_and_rater2():
    r = concord.cohen_kappa(FRAME.truth.to_numpy(), list(FRAME.model))
    assert r.raters == ("rater1", "rater2")
    assert "rows: rater1, columns: rater2" in r.explain()
    assert r.summary().endswith("n = 10 pairs), moderate agreement on the Landis–Koch scale.")
    assert r.observed_frame().index.name == "rater 1"  # as before


def test_series_named_alike_keep_the_defaults():
    same = concord.cohen_kappa(FRAME.truth.rename("x"), FRAME.model.rename("x"))
    assert same.raters == ("rater1", "rater2")
    one = concord.scott_pi(FRAME.truth, FRAME.model.to_numpy())
    assert one.raters == ("truth", "rater2")


def test_marginal_homogeneity_says_who_used_a_category_more():
    r = concord.marginal_homogeneity(FRAME.ann_a, FRAME.gpt_judge)
    # gpt_judge rated 3 six times, ann_a four times: the largest difference
    assert r.summary().endswith("The largest difference is in 3: gpt_judge used it 2 more times.")
    assert r.raters == ("ann_a", "gpt_judge")
    assert "ann_a" in r.explain() and r.to_dict()["raters"] == ["ann_a", "gpt_judge"]
    unnamed = concord.marginal_homogeneity(FRAME.ann_a.to_numpy(), FRAME.gpt_judge.to_numpy())
    assert "rater2 used it 2 more times" in unnamed.summary()


def test_polars_series_names_flow_too():
    pl = pytest.importorskip("polars")
    r = concord.cohen_kappa(pl.Series("truth", FRAME.truth), pl.Series("model", FRAME.model))
    assert r.raters == ("truth", "model")


def test_bland_altman_and_ccc_name_the_difference_and_the_plot():
    from concord.plot import BlandAltmanDisplay

    a = FRAME.truth.astype(float).rename("A")
    b = FRAME.model.astype(float).rename("B")
    ba = concord.bland_altman(a, b)
    assert ba.names == ("A", "B") and ba.difference == "A − B"
    assert "d = A − B" in ba.explain() and "mean difference A − B" in ba.summary()
    d = BlandAltmanDisplay.from_result(ba, a, b).plot()
    assert (d.ax_.get_ylabel(), d.ax_.get_xlabel()) == ("difference A − B", "mean of A and B")
    matplotlib.pyplot.close(d.figure_)
    plain = BlandAltmanDisplay.from_data(a.to_numpy(), b.to_numpy()).plot()
    assert plain.ax_.get_ylabel() == "difference x − y"  # as before
    matplotlib.pyplot.close(plain.figure_)
    ccc = concord.concordance_correlation(a, b)
    assert ccc.names == ("A", "B") and "of A and B" in ccc.summary()
    from concord.plot import ConcordanceDisplay

    c = ConcordanceDisplay.from_result(ccc, a, b).plot()
    assert (c.ax_.get_xlabel(), c.ax_.get_ylabel()) == ("A", "B")
    matplotlib.pyplot.close(c.figure_)


def test_matrix_plots_carry_the_raters_names():
    from concord.plot import AgreementChartDisplay, ContributionsDisplay, ObservedMatrixDisplay

    r = concord.cohen_kappa(FRAME.truth, FRAME.model)
    d = ObservedMatrixDisplay.from_result(r).plot()
    assert (d.ax_.get_xlabel(), d.ax_.get_ylabel()) == ("model", "truth")
    matplotlib.pyplot.close(d.figure_)
    c = ContributionsDisplay.from_result(r)
    assert c.axis_names == ("model", "truth")
    b = concord.bangdiwala_b(FRAME.truth, FRAME.model)
    assert b.raters == ("truth", "model")
    assert AgreementChartDisplay.from_result(b).axis_names == ("model", "truth")
    assert AgreementChartDisplay.from_result(r).axis_names == ("model", "truth")


def test_cli_text_names_the_columns(tmp_path):
    path = tmp_path / "pairs.csv"
    FRAME.to_csv(path, index=False)
    out = CliRunner().invoke(main, ["kappa", str(path), "--rater1", "truth", "--rater2", "model"])
    assert out.exit_code == 0, out.output
    assert "Observed matrix O (rows: truth, columns: model)" in out.output


def test_the_report_names_the_raters():
    from concord.report import to_html

    page = to_html(concord.cohen_kappa(FRAME.truth, FRAME.model), plots=False)
    assert "rows: truth, columns: model" in page
    page = to_html([concord.marginal_homogeneity(FRAME.ann_a, FRAME.gpt_judge)], plots=False)
    assert "gpt_judge used it 2 more times" in page


def test_dask_series_names_flow():
    dd = pytest.importorskip("dask.dataframe")
    import concord.dask

    ddf = dd.from_pandas(FRAME, npartitions=2)
    r = concord.dask.compute(concord.cohen_kappa, ddf.truth, ddf.model)
    assert r.raters == ("truth", "model")
    assert np.isclose(r.statistic, concord.cohen_kappa(FRAME.truth, FRAME.model).statistic)
