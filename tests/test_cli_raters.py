"""``concord raters`` and ``concord agree --coefficients``, through click's test runner.

Expected values: the library's own results on the same file (the CLI is glue),
and R irr::kappam.fleiss on Fleiss's (1971) diagnoses, 0.430.
"""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest
from click.testing import CliRunner

import concord
from concord._cli.main import main

DIAGNOSES = "data/fleiss1971_diagnoses.csv"
RATERS = [f"rater{i}" for i in range(1, 7)]
ESSAYS = ("data/essays.csv", "--raters", "rater1,rater2,rater3", "--weights", "linear")


def run(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def _frame() -> pd.DataFrame:
    return pd.read_csv(DIAGNOSES)[RATERS]


def test_agree_coefficients_picks_in_table_order() -> None:
    out = run("agree", DIAGNOSES, "--coefficients", "alpha, fleiss", "--format", "json")
    assert out.exit_code == 0, out.output
    rows = json.loads(out.stdout)["coefficients"]
    assert [r["function"] for r in rows] == ["fleiss_kappa", "krippendorff_alpha"]
    assert round(rows[0]["statistic"], 3) == 0.430  # R irr::kappam.fleiss
    assert rows[1]["statistic"] == concord.krippendorff_alpha(_frame()).statistic


@pytest.mark.parametrize("chunk", ["0", "7"])
def test_agree_coefficients_streamed_and_whole_agree(chunk: str) -> None:
    out = run("agree", *ESSAYS, "--coefficients", "gwet_ac,alpha", "--chunk-rows", chunk,
              "--level", "ordinal", "--format", "csv")  # fmt: skip
    assert out.exit_code == 0, out.output
    rows = pd.read_csv(io.StringIO(out.stdout))
    assert rows["function"].tolist() == ["gwet_ac", "krippendorff_alpha"]


def test_agree_alpha_alone_streamed_takes_the_weights_matrix() -> None:
    whole = run("agree", *ESSAYS, "--format", "json")
    alone = run("agree", *ESSAYS, "--coefficients", "alpha", "--chunk-rows", "500",
                "--format", "json")  # fmt: skip
    assert alone.exit_code == 0, alone.output
    expected = json.loads(whole.stdout)["coefficients"][-1]
    assert json.loads(alone.stdout)["coefficients"] == [expected]


def test_agree_unknown_coefficient_lists_the_valid_ones() -> None:
    out = run("agree", DIAGNOSES, "--coefficients", "fleiss,alfa")
    assert out.exit_code == 2
    assert "'alfa'" in out.output and "alpha (krippendorff_alpha)" in out.output


def test_raters_json_is_the_library() -> None:
    out = run("raters", DIAGNOSES, "--raters", ",".join(RATERS), "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    d = concord.rater_diagnostics(_frame())
    assert data == json.loads(json.dumps(d.to_dict()))
    assert data["raters"][0]["homogeneity_pvalue"] == d.homogeneity[0].pvalue


def test_raters_text_markdown_and_csv() -> None:
    base = ("raters", DIAGNOSES, "--raters", ",".join(RATERS), "--coefficient", "fleiss")
    d = concord.rater_diagnostics(_frame(), function=concord.fleiss_kappa)
    text = run(*base)
    assert text.exit_code == 0, text.output
    assert "Fleiss' kappa of 6 raters = 0.4302" in text.stdout and "MH p" in text.stdout
    markdown = run(*base, "--format", "markdown").stdout
    assert "| rater1 " in markdown and "Cohen's kappa of each pair" in markdown
    rows = pd.read_csv(io.StringIO(run(*base, "--format", "csv").stdout), index_col="rater")
    assert rows.loc["rater1", "without"] == d.without[0].statistic
    assert rows.loc["rater2", "kappa_with_rater1"] == d.pairwise[1, 0]


def test_raters_refusals() -> None:
    assert run("raters", DIAGNOSES, "--coefficient", "fleiss,alpha").exit_code == 2
    out = run("raters", *ESSAYS)
    assert out.exit_code == 2 and "--level" in out.output


def test_report_coefficients(tmp_path: object) -> None:
    page = tmp_path / "r.html"  # type: ignore[operator]
    out = run("report", DIAGNOSES, "--coefficients", "fleiss", "--no-plots", "-o", str(page))
    assert out.exit_code == 0, out.output
    html = page.read_text()
    assert (
        html.count('<section class="coefficient">') == 1 and "<h3>Fleiss&#39; kappa</h3>" in html
    )


@pytest.mark.parametrize("name", ["nope", ""])
def test_an_unknown_coefficient_names_the_option_the_user_typed(tmp_path, name):
    # raters' option is --coefficient (one name); the error said '--coefficients' before.
    path = tmp_path / "r.csv"
    path.write_text("a,b,c\nx,x,y\ny,y,y\nx,y,x\n")
    out = CliRunner().invoke(main, ["raters", str(path), "--coefficient", name])
    assert out.exit_code == 2
    assert "Invalid value for '--coefficient': " in out.output
    assert "'--coefficients'" not in out.output and "comma-separated" not in out.output
