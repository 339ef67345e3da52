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
    assert offered == {"kappa", "agree", "raters", "items", "drift"}
