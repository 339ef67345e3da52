"""--fail-under X: exit code 3 when a printed coefficient (or its lower bound) is below X.

Values: Fleiss (1971) Table 1 (data/fleiss1971_diagnoses.csv): Fleiss' κ = 0.430 (his
paper), Krippendorff's α = 0.433; the 95% Fisher-z interval's lower bound of κ is 0.318.
"""

from __future__ import annotations

from click.testing import CliRunner

from concord._cli.main import main

DIAGNOSES = "data/fleiss1971_diagnoses.csv"
AGREE = ("agree", DIAGNOSES, "--id", "patient", "--coefficients", "fleiss,alpha")
ESSAYS = ("kappa", "data/essays.csv", "--rater1", "truth", "--rater2", "model_grade")


def run(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def test_below_the_value_exits_3_after_the_output() -> None:
    out = run(*AGREE, "--fail-under", "0.5", "--format", "csv")
    assert out.exit_code == 3
    assert "Fleiss' kappa,fleiss_kappa" in out.stdout  # the table is still printed
    assert "Fleiss' kappa value 0.4302" in out.stderr and "--fail-under 0.5" in out.stderr


def test_at_or_above_passes() -> None:
    assert run(*AGREE, "--fail-under", "0.43").exit_code == 0
    assert run(*AGREE).exit_code == 0


def test_the_lower_bound() -> None:
    # κ = 0.430 and α = 0.433 pass 0.42, but κ's lower bound 0.318 does not
    assert run(*AGREE, "--fail-under", "0.42").exit_code == 0
    bound = run(*AGREE, "--fail-under", "0.42", "--fail-under-bound")
    assert bound.exit_code == 3 and "Fleiss' kappa lower bound 0.3184" in bound.stderr


def test_kappa_and_the_rank_statistics() -> None:
    assert run(*ESSAYS, "--fail-under", "0.99").exit_code == 3
    assert run(*ESSAYS, "--fail-under", "-1").exit_code == 0
    ranks = ("agree", "data/essays.csv", "--raters", "rater1,rater2,rater3")
    # the text output of rank statistics alone (no kappa-family row) used to fail on an
    # empty list of results
    assert run(*ranks, "--coefficients", "kendall-w").exit_code == 0
    assert run(*ranks, "--coefficients", "kendall-w", "--fail-under", "1.01").exit_code == 3


def test_bound_without_a_threshold_is_a_usage_error() -> None:
    out = run(*ESSAYS, "--fail-under-bound")
    assert out.exit_code == 2 and "--fail-under-bound needs --fail-under X" in out.output


def test_raters_and_items() -> None:
    # concord raters prints Krippendorff's α of the panel (0.433); items the mean P_i (0.556)
    raters = ("raters", DIAGNOSES, "--id", "patient", "--format", "csv")
    assert run(*raters, "--fail-under", "0.5").exit_code == 3
    assert run(*raters, "--fail-under", "0.4").exit_code == 0
    items = ("items", DIAGNOSES, "--id", "patient", "--format", "csv")
    assert run(*items, "--fail-under", "0.6").exit_code == 3
    assert run(*items, "--fail-under", "0.5").exit_code == 0
    no_interval = run(*items, "--fail-under", "0.5", "--fail-under-bound")
    assert no_interval.exit_code == 2 and "has no interval" in no_interval.output


def test_the_commands_that_offer_the_gate() -> None:
    offered = {name for name, c in main.commands.items() if any(
        p.name == "fail_under" for p in c.params)}  # fmt: skip
    assert offered == {
        *("kappa", "agree", "raters", "items", "drift"),
        *("icc", "compare", "thresholds", "evaluate", "judge", "spans"),
    }


# the remaining commands that print a coefficient; expected values from the library itself
SHROUT = "data/shrout_fleiss1979.csv"


def test_icc_gates_the_headline_form_or_the_one_named() -> None:
    # Shrout & Fleiss (1979) Table 2: ICC(2,1) = ICC(A,1) = 0.29, ICC(3,1) = ICC(C,1) = 0.71
    out = run("icc", SHROUT, "--fail-under", "0.3")
    assert out.exit_code == 3 and "ICC(A,1) value 0.2898" in out.stderr
    assert "ICC(C,1)" not in out.stderr  # one form is gated, not all six
    assert run("icc", SHROUT, "--fail-under", "0.28").exit_code == 0
    assert (
        run("icc", SHROUT, "--fail-under", "0.7", "--fail-under-form", "ICC(3,1)").exit_code == 0
    )
    strict = run("icc", SHROUT, "--fail-under", "0.72", "--fail-under-form", "ICC(C,1)")
    assert strict.exit_code == 3 and "ICC(C,1) value 0.7148" in strict.stderr
    # McGraw & Wong's interval of ICC(C,1): 0.342 to 0.946
    bound = ("--fail-under", "0.4", "--fail-under-form", "ICC(C,1)", "--fail-under-bound")
    out = run("icc", SHROUT, *bound)
    assert out.exit_code == 3 and "ICC(C,1) lower bound 0.3425" in out.stderr


def test_compare_gates_the_lower_sides_coefficient() -> None:
    import pandas as pd

    import concord

    essays = pd.read_csv("data/essays.csv")
    first = concord.cohen_kappa(essays.truth, essays.rater1, weights="quadratic")
    second = concord.cohen_kappa(essays.truth, essays.model_grade, weights="quadratic")
    assert second.statistic < first.statistic  # 0.841 < 0.895
    args = ("compare", "data/essays.csv", "--truth", "truth", "--raters", "rater1,model_grade")
    args += ("--weights", "quadratic", "--format", "csv")
    between = f"{(first.statistic + second.statistic) / 2:.4f}"
    out = run(*args, "--fail-under", between)
    assert out.exit_code == 3 and "model_grade value 0.8412" in out.stderr
    assert "rater1" not in out.stderr.split("Failed:")[1]
    assert run(*args, "--fail-under", f"{second.statistic - 1e-6:.7f}").exit_code == 0
    low = second.confidence_interval()[0]
    bound = run(*args, "--fail-under", f"{low + 1e-4:.7f}", "--fail-under-bound")
    assert bound.exit_code == 3 and "lower bound" in bound.stderr


def test_thresholds_gates_the_cross_validated_kappa() -> None:
    import pandas as pd

    import concord

    essays = pd.read_csv("data/essays.csv")
    cv = concord.cross_validated_kappa(
        essays.truth, essays.model_score, weights="quadratic", rng=1
    )
    args = ("thresholds", "data/essays.csv", "--truth", "truth", "--score", "model_score")
    args += ("--seed", "1")
    out = run(*args, "--fail-under", f"{cv.statistic + 1e-6:.7f}")
    assert out.exit_code == 3 and "cross-validated kappa value" in out.stderr
    assert run(*args, "--fail-under", f"{cv.statistic - 1e-6:.7f}").exit_code == 0
    nobound = run(*args, "--fail-under", "0.5", "--fail-under-bound")
    assert nobound.exit_code == 2 and "has no interval" in nobound.output


def test_evaluate_gates_the_primary_qwk() -> None:
    import pandas as pd

    import concord

    essays = pd.read_csv("data/essays.csv")
    r = concord.evaluate(essays.truth, essays.model_score)
    args = ("evaluate", "data/essays.csv", "--human", "truth", "--machine", "model_score")
    args += ("--format", "json")
    out = run(*args, "--fail-under", f"{r.statistic + 1e-6:.7f}")
    assert out.exit_code == 3 and f"QWK ({r.primary}) value" in out.stderr
    assert run(*args, "--fail-under", f"{r.statistic - 1e-6:.7f}").exit_code == 0


def test_judge_gates_the_judges_kappa(tmp_path) -> None:
    import concord
    from tests.test_cli_judge import labels_frame

    frame = labels_frame()
    path = tmp_path / "labels.csv"
    frame.to_csv(path, index=False)
    k = concord.cohen_kappa(frame.gold, frame.judge)  # 0.700
    args = ("judge", str(path), "--humans", "a,b,c", "--candidate", "judge", "--gold", "gold")
    out = run(*args, "--fail-under", f"{k.statistic + 1e-6:.7f}")
    assert out.exit_code == 3 and "Cohen's kappa: judge against gold value 0.7002" in out.stderr
    assert run(*args, "--fail-under", f"{k.statistic - 1e-6:.7f}").exit_code == 0
    low = k.confidence_interval()[0]
    assert run(*args, "--fail-under", f"{low + 1e-6:.7f}", "--fail-under-bound").exit_code == 3
