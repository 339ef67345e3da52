"""The command line, through click's test runner: output, JSON, and one-line errors."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import concord
from concord._cli.main import main
from concord._coefficients.registry import REGISTRY

SENTIMENT = """gold,model
positive,positive
neutral,neutral
negative,negative
positive,neutral
neutral,neutral
positive,positive
negative,positive
neutral,neutral
positive,positive
negative,neutral
"""


@pytest.fixture
def csv_file(tmp_path):
    path = tmp_path / "ratings.csv"
    path.write_text(SENTIMENT)
    return str(path)


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_text_output(csv_file):
    out = run("kappa", csv_file, "--rater1", "gold", "--rater2", "model")
    assert out.exit_code == 0, out.output
    for fragment in (
        "n = 10 pairs",
        "Observed matrix O",
        "Weight matrix W",
        "Expected matrix E",
        "= 0.545455",
        "moderate",
    ):
        assert fragment in out.output


def test_json_output_is_unrounded(csv_file):
    out = run(
        "kappa",
        csv_file,
        "--rater1",
        "gold",
        "--rater2",
        "model",
        "--weights",
        "quadratic",
        "--labels",
        "negative,neutral,positive",
        "--format",
        "json",
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    expected = concord.cohen_kappa(
        [
            "positive",
            "neutral",
            "negative",
            "positive",
            "neutral",
            "positive",
            "negative",
            "neutral",
            "positive",
            "negative",
        ],
        [
            "positive",
            "neutral",
            "negative",
            "neutral",
            "neutral",
            "positive",
            "positive",
            "neutral",
            "positive",
            "neutral",
        ],
        weights="quadratic",
        labels=["negative", "neutral", "positive"],
    )
    assert data["statistic"] == expected.statistic
    assert data["labels"] == ["negative", "neutral", "positive"]
    assert data["observed"] == expected.observed.tolist()
    assert data["weighting"] == "quadratic" and data["n"] == 10


def test_stdin(csv_file):
    out = run("kappa", "-", "--rater1", "gold", "--rater2", "model", input=SENTIMENT)
    assert out.exit_code == 0 and "0.545455" in out.output


def test_numeric_labels_option(tmp_path):
    path = tmp_path / "g.csv"
    path.write_text("a,b\n1,1\n2,3\n3,3\n")
    out = run(
        "kappa",
        str(path),
        "--rater1",
        "a",
        "--rater2",
        "b",
        "--labels",
        "1,2,3,4",
        "--format",
        "json",
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["labels"] == [1, 2, 3, 4]


def test_missing_column_lists_columns(csv_file):
    out = run("kappa", csv_file, "--rater1", "gold", "--rater2", "nope")
    assert out.exit_code == 1
    assert out.output.strip().splitlines() == [
        f"Error: {csv_file}: no column 'nope' for --rater2. Columns: gold, model."
    ]


def test_missing_file():
    out = run("kappa", "no/such.csv", "--rater1", "a", "--rater2", "b")
    assert out.exit_code == 1 and "no/such.csv: no such file" in out.output


def test_data_error_is_one_line(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("a,b\n1,1.5\n2,2\n")
    out = run("kappa", str(path), "--rater1", "a", "--rater2", "b")
    assert out.exit_code == 1
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and "integral" in lines[0] and str(path) in lines[0]


def test_missing_values_need_a_policy(tmp_path):
    path = tmp_path / "na.csv"
    path.write_text("a,b\n1,1\n2,\n3,3\n")
    out = run("kappa", str(path), "--rater1", "a", "--rater2", "b")
    assert out.exit_code == 1 and "Pass --nan-policy omit to drop those pairs" in out.output
    out = run("kappa", str(path), "--rater1", "a", "--rater2", "b", "--nan-policy", "omit")
    assert out.exit_code == 0 and "n = 2 pairs" in out.output


def test_usage_error_exit_code(csv_file):
    out = run("kappa", csv_file, "--rater1", "gold", "--rater2", "model", "--weights", "cubic")
    assert out.exit_code == 2


def test_main_help_shows_every_command():
    out = run("--help")
    assert out.exit_code == 0
    for command in ("kappa", "agree", "thresholds"):
        assert f"concord {command} " in out.output


# --- kappa: uncertainty and the costliest confusions -----------------------------------------


def test_kappa_json_carries_inference_and_contributions(csv_file):
    out = run("kappa", csv_file, "--rater1", "gold", "--rater2", "model", "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    gold, model = zip(*(line.split(",") for line in SENTIMENT.splitlines()[1:]), strict=True)
    r = concord.cohen_kappa(list(gold), list(model))
    low, high = r.confidence_interval()
    assert data["standard_error"] == r.standard_error and data["pvalue"] == r.pvalue
    assert (data["ci_low"], data["ci_high"]) == (low, high)
    assert data["ci_method"] == "fisher-z" and data["confidence_level"] == 0.95
    top = data["costliest_confusions"][0]
    assert top["kappa_lost"] == r.contributions().ranked(1)[0][2]


def test_kappa_text_names_the_raters_and_the_costliest_confusions(csv_file):
    out = run("kappa", csv_file, "--rater1", "gold", "--rater2", "model")
    assert out.output.startswith(f"{csv_file}: gold vs model\n")
    assert "Where the kappa is lost" in out.output and "SE = " in out.output
    # the sentence for the paper, before the confusions, as summary() writes it
    r = concord.cohen_kappa(*(pd_columns(csv_file)))
    assert f"\n\n{r.summary()}\n\nWhere the kappa is lost" in out.output


def test_kappa_other_interval(csv_file):
    args = ["kappa", csv_file, "--rater1", "gold", "--rater2", "model"]
    out = run(*args, "--confidence-level", "0.9", "--ci-method", "wald", "--format", "json")
    data = json.loads(out.stdout)
    r = concord.cohen_kappa(*(pd_columns(csv_file)))
    assert (data["ci_low"], data["ci_high"]) == r.confidence_interval(0.9, method="wald")
    text = run(*args, "--confidence-level", "0.9", "--ci-method", "wald").output
    assert "90% CI (wald)" in text


def test_kappa_two_columns_need_no_names(csv_file):
    out = run("kappa", csv_file, "--format", "csv")
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0].startswith("coefficient,function,weighting,statistic")


def test_kappa_needs_names_with_more_columns(tmp_path):
    path = tmp_path / "three.csv"
    path.write_text("a,b,c\n1,1,1\n2,2,1\n")
    out = run("kappa", str(path))
    assert out.exit_code == 2 and "--rater1 and --rater2" in out.output


def pd_columns(path):
    import pandas as pd

    frame = pd.read_csv(path)
    return frame.iloc[:, 0], frame.iloc[:, 1]


# --- agree --------------------------------------------------------------------------------------

DIAGNOSES = "tests/reference/multi/fleiss1971_diagnoses.csv"
# concord agree's rows: the registry's coefficients of many raters, in its order
FAMILY = tuple(c.name for c in REGISTRY if c.arity == 1 and c.table != "sums")


def test_agree_json_matches_the_library():
    import pandas as pd

    out = run("agree", DIAGNOSES, "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    frame = pd.read_csv(DIAGNOSES)
    assert data["data"]["items"] == 30 and len(data["data"]["raters"]) == 6
    assert [c["function"] for c in data["coefficients"]] == list(FAMILY)
    for entry in data["coefficients"]:
        r = getattr(concord, entry["function"])(frame)
        assert entry["statistic"] == r.statistic
        assert entry["standard_error"] == r.standard_error
        assert (entry["ci_low"], entry["ci_high"]) == tuple(r.confidence_interval())
    # R irr::kappam.fleiss(diagnoses) gives 0.430
    assert round(data["coefficients"][1]["statistic"], 3) == 0.430
    # each coefficient is read on its own scale, which the JSON names
    scales = {
        c["function"]: (c["interpretation"], c["interpretation_scale"])
        for c in data["coefficients"]
    }
    assert scales["fleiss_kappa"] == ("moderate", "landis-koch")
    assert scales["krippendorff_alpha"] == ("unacceptable", "krippendorff")  # 0.433 < 0.667
    assert scales["percent_agreement"] == (None, None)


def test_agree_text_and_markdown():
    text = run("agree", DIAGNOSES).output
    assert "30 items, 6 raters, 180 ratings (0 missing)" in text
    assert "Fleiss' kappa" in text and "Krippendorff's alpha" in text
    assert "moderate (Landis & Koch 1977)" in text
    assert "unacceptable (Krippendorff 2004)" in text
    assert "none (not chance-corrected)" in text
    # one sentence per coefficient under the table (Fleiss 1971's 30 patients, 6 raters)
    assert "\nUnweighted Fleiss' κ was 0.43 (95% CI 0.32 to 0.53, Fisher's z; " in text
    assert "n = 30 items, 6 raters), moderate agreement on the Landis–Koch scale.\n" in text
    markdown = run("agree", DIAGNOSES, "--format", "markdown").output
    assert markdown.splitlines()[1].startswith("|:--")
    assert "| moderate (Landis & Koch 1977)" in markdown
    csv = run("agree", DIAGNOSES, "--format", "csv").output
    assert "interpretation,interpretation_scale" in csv.splitlines()[0]
    assert len(markdown.splitlines()) == 2 + len(FAMILY)


def test_agree_weights_and_level(tmp_path):
    import pandas as pd

    path = tmp_path / "grades.csv"
    path.write_text("id,a,b,c\n1,1,2,2\n2,3,3,\n3,2,2,3\n4,4,3,4\n5,1,1,1\n")
    out = run("agree", str(path), "--id", "id", "--weights", "quadratic", "--format", "json")
    assert out.exit_code == 0, out.output
    entries = {c["function"]: c for c in json.loads(out.stdout)["coefficients"]}
    frame = pd.read_csv(path).drop(columns="id")
    assert entries["gwet_ac"]["statistic"] == concord.gwet_ac(frame, weights="quadratic").statistic
    alpha = concord.krippendorff_alpha(frame, level="interval")
    assert entries["krippendorff_alpha"]["statistic"] == alpha.statistic
    assert entries["krippendorff_alpha"]["weighting"] == "interval"
    out = run("agree", str(path), "--raters", "a,b", "--level", "ordinal", "--format", "json")
    entries = {c["function"]: c for c in json.loads(out.stdout)["coefficients"]}
    alpha = concord.krippendorff_alpha(frame[["a", "b"]], level="ordinal")
    assert entries["krippendorff_alpha"]["statistic"] == alpha.statistic


def test_agree_notes_undefined_coefficients(tmp_path):
    path = tmp_path / "same.csv"
    path.write_text("a,b\nx,x\nx,x\n")
    out = CliRunner().invoke(main, ["agree", str(path)])
    assert out.exit_code == 0, out.output
    assert "note:" in out.stderr and "undefined" in out.output


# --- long form, formats, labels -----------------------------------------------------------------

LONG = """doc,annotator,label
d1,ann,low
d1,bob,low
d2,ann,high
d2,bob,mid
d3,ann,mid
d3,bob,mid
d3,cy,mid
d4,cy,high
d4,ann,high
"""


def test_long_form_is_pivoted(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text(LONG)
    args = ["--item", "doc", "--rater", "annotator", "--rating", "label"]
    out = run("agree", str(path), *args, "--labels", "low,mid,high", "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["data"]["raters"] == ["ann", "bob", "cy"]
    assert data["data"]["missing_ratings"] == 3
    nan = None
    wide = [
        ["low", "low", nan],
        ["high", "mid", nan],
        ["mid", "mid", "mid"],
        ["high", nan, "high"],
    ]
    expected = concord.fleiss_kappa(wide, labels=["low", "mid", "high"])
    assert data["coefficients"][1]["statistic"] == expected.statistic
    out = run(
        "kappa", str(path), *args, "--rater1", "ann", "--rater2", "bob", "--nan-policy", "omit"
    )
    assert out.exit_code == 0 and "n = 3 pairs" in out.output


def test_long_form_needs_all_three_columns(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text(LONG)
    out = run("agree", str(path), "--item", "doc", "--rater", "annotator")
    assert out.exit_code == 2 and "--rating" in out.output


def test_long_form_rejects_a_second_rating(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text(LONG + "d1,bob,high\n")
    out = run("agree", str(path), "--item", "doc", "--rater", "annotator", "--rating", "label")
    assert out.exit_code == 1
    assert "row 11 rates item 'd1' by rater 'bob' a second time" in out.output


@pytest.mark.parametrize("suffix", [".tsv", ".parquet", ".xlsx"])
def test_file_formats(tmp_path, suffix):
    import pandas as pd

    frame = pd.read_csv(DIAGNOSES)
    path = tmp_path / f"diagnoses{suffix}"
    {
        ".tsv": lambda: frame.to_csv(path, sep="\t", index=False),
        ".parquet": lambda: frame.to_parquet(path),
        ".xlsx": lambda: frame.to_excel(path, index=False),
    }[suffix]()
    out = run("agree", str(path), "--format", "json")
    assert out.exit_code == 0, out.output
    assert (
        json.loads(out.stdout)["coefficients"][1]["statistic"]
        == concord.fleiss_kappa(frame).statistic
    )


def test_parquet_ordered_categorical_carries_its_order(tmp_path):
    import pandas as pd

    order = ["low", "mid", "high"]
    kind = pd.CategoricalDtype(order, ordered=True)
    frame = pd.DataFrame(
        {"a": ["low", "mid", "high", "mid"], "b": ["mid", "mid", "high", "low"]}
    ).astype(kind)
    path = tmp_path / "ordered.parquet"
    frame.to_parquet(path)
    out = run("kappa", str(path), "--weights", "quadratic", "--format", "json")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["labels"] == order


def test_unknown_suffix_says_how_to_fix(tmp_path):
    path = tmp_path / "ratings.data"
    path.write_text("a,b\n1,1\n2,2\n")
    out = run("kappa", str(path))
    assert out.exit_code == 1 and "--input-format" in out.output
    out = run("kappa", str(path), "--input-format", "csv")
    assert out.exit_code == 0, out.output


def test_unreadable_file_is_one_line(tmp_path):
    path = tmp_path / "bad.parquet"
    path.write_text("not parquet")
    out = run("agree", str(path))
    assert out.exit_code == 1 and len(out.output.strip().splitlines()) == 1
    assert "cannot read it as parquet" in out.output


# --- thresholds ---------------------------------------------------------------------------------

ESSAYS = "data/essays.csv"


def test_thresholds_fit_save_apply(tmp_path):
    import numpy as np
    import pandas as pd

    cuts = tmp_path / "cuts.json"
    out = run("thresholds", ESSAYS, "--truth", "truth", "--score", "model_score",
              "--seed", "0", "--save", str(cuts), "--format", "json")  # fmt: skip
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    frame = pd.read_csv(ESSAYS)
    best = concord.optimize_thresholds(frame["truth"], frame["model_score"])
    assert data["thresholds"] == best.thresholds.tolist()
    assert data["statistic"] == best.statistic
    cv = concord.cross_validated_kappa(frame["truth"], frame["model_score"], rng=0)
    assert data["cross_validated"] == cv.statistic
    saved = json.loads(cuts.read_text())
    assert saved["thresholds"] == data["thresholds"] and saved["labels"] == [1, 2, 3, 4, 5, 6]
    graded = tmp_path / "graded.csv"
    out = run("thresholds", ESSAYS, "--score", "model_score", "--apply", str(cuts),
              "-o", str(graded))  # fmt: skip
    assert out.exit_code == 0, out.output
    result = pd.read_csv(graded)
    assert np.array_equal(result["grade"], best.apply(frame["model_score"]))
    assert result.drop(columns="grade").equals(frame)  # the rows come back unchanged


def test_thresholds_text():
    out = run("thresholds", ESSAYS, "--truth", "truth", "--score", "model_score", "--seed", "1")
    assert out.exit_code == 0, out.output
    assert "cut points" in out.output and "5-fold cross-validated" in out.output


def test_thresholds_errors(tmp_path):
    out = run("thresholds", ESSAYS, "--score", "model_score")
    assert out.exit_code == 2 and "--truth" in out.output
    out = run("thresholds", ESSAYS, "--truth", "truth", "--score", "nope")
    assert out.exit_code == 1 and "no column 'nope' for --score" in out.output
    bad = tmp_path / "cuts.json"
    bad.write_text('{"format": "something else"}')
    out = run("thresholds", ESSAYS, "--score", "model_score", "--apply", str(bad))
    assert out.exit_code == 1 and "'format' must be \"concord-thresholds/1\"" in out.output
    scores = tmp_path / "scores.csv"
    scores.write_text("s\n1.5\nn/a\n2.5\n")
    good = tmp_path / "good.json"
    run("thresholds", ESSAYS, "--truth", "truth", "--score", "model_score", "--save", str(good))
    out = run("thresholds", str(scores), "--score", "s", "--apply", str(good))
    assert out.exit_code == 1 and "row 3 has no numeric --score" in out.output


# --- every command ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["kappa", "agree", "thresholds"])
def test_every_command_has_a_real_example(command):
    out = run(command, "--help")
    assert out.exit_code == 0 and f"concord {command} " in out.output


def test_quiet_is_accepted(csv_file):
    out = run("kappa", csv_file, "--quiet", "--ci-method", "bootstrap-percentile", "--seed", "3")
    assert out.exit_code == 0, out.output


def test_an_unforeseen_error_is_one_line_not_a_traceback(tmp_path, monkeypatch):
    # a defect inside the library (simulated) reaches the user as one line, exit 1
    path = tmp_path / "r.csv"
    path.write_text("a,b\n1,1\n2,2\n1,2\n")

    def broken(*args, **kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(concord, "cohen_kappa", broken)
    out = CliRunner().invoke(main, ["kappa", str(path)])
    assert out.exit_code == 1
    assert out.output.strip().splitlines() == [
        "Error: internal error (ZeroDivisionError: boom). This is a defect in concord: please "
        "report it with the command you ran (CONCORD_DEBUG=1 shows the traceback)."
    ]
    monkeypatch.setenv("CONCORD_DEBUG", "1")
    out = CliRunner().invoke(main, ["kappa", str(path)])
    assert isinstance(out.exception, ZeroDivisionError)
