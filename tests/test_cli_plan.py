"""``concord plan``: the CLI is glue over concord.plan; its errors are one line, no traceback.

Expected n: R irr 0.84.1's ``N.cohen.kappa(0.5, 0.5, 0.7, 0.85)`` = 96 and
R kappaSize 1.2's ``CIBinary(0.4, 0.3, 0.5, props=0.3)`` = 397 (see tests/test_plan.py).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import concord
from concord._cli import main


def run(*args: str) -> object:
    return CliRunner().invoke(main, ["plan", *args])


def test_text_states_n_and_the_grid() -> None:
    out = run("cohen", "--expected", "0.7", "--null", "0.85")
    assert out.exit_code == 0, out.output
    assert out.output.startswith("96 items rated by 2 raters give 80% power")
    assert "N.cohen.kappa" in out.output
    assert "n over nearby designs:" in out.output


def test_json_is_the_result_to_dict() -> None:
    out = run(
        "fleiss", "--expected", "0.4", "--width", "0.2", "--prevalence", "0.3", "--format", "json"
    )
    assert out.exit_code == 0, out.output
    expected = concord.plan("fleiss", expected=0.4, width=0.2, prevalence=0.3).to_dict()
    assert json.loads(out.output) == json.loads(json.dumps(expected))
    assert expected["n"] == 397


def test_markdown_and_csv() -> None:
    md = run("icc", "--expected", "0.8", "--null", "0.6", "--raters", "3", "--format", "markdown")
    assert md.exit_code == 0 and "| expected" in md.output and md.output.startswith("26 items")
    csv = run("cohen", "--expected", "0.7", "--null", "0.85", "--format", "csv")
    assert csv.output.splitlines()[0] == "expected,power,n"
    assert "0.7,0.8,96" in csv.output.splitlines()


def test_errors_are_one_line_in_cli_words() -> None:
    out = run("cohen", "--expected", "0.7")
    assert out.exit_code == 1
    assert out.output == (
        "Error: --null must be set (a test) or --width set (an interval), not both or neither. "
        "Got neither instead. Pass --null for power, or --width for precision.\n"
    )
    bad = run("fleiss", "--expected", "0.6", "--null", "0.4", "--prevalence", "0.3,0.3")
    assert bad.exit_code == 1 and bad.output.startswith("Error: --prevalence must be")
    typo = run("cohen", "--expected", "0.7", "--null", "0.5", "--prevalence", "0.2,x")
    assert typo.exit_code == 2 and "Traceback" not in typo.output


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["cohen", "--expected", "0.7", "--null", "0.5", "--width", "0.2"],
         "Error: --null must be set (a test) or --width set (an interval), not both or "
         "neither. Got both instead. Pass --null for power, or --width for precision."),
        (["icc", "--expected", "0.7", "--width", "0.2"],
         "Error: --width must be left out for 'alpha' and 'icc' (plan them by power, with "
         "--null). Got 0.2 instead."),
        (["alpha", "--expected", "0.5", "--null", "0.7"],
         "Error: --null must be below --expected (0.5) for 'alpha'. Got 0.7 instead."),
        (["fleiss", "--expected", "0.5", "--null", "0.5"],
         "Error: --null must be different from --expected. Got 0.5 instead."),
        (["cohen", "--expected", "0.7", "--null", "0.5", "--raters", "3"],
         "Error: --raters must be 2. Got 3 instead."),
    ],
)  # fmt: skip
def test_impossible_designs_say_no_python_words(args: list[str], line: str) -> None:
    # "None", "expected" (a Python parameter) and "between 2 and 2" leaked before.
    out = run(*args)
    assert out.exit_code == 1
    assert out.output == line + "\n"
