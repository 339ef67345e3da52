"""Issue 24 (trust, round 3) on the command line: flag directions, files, options, Ctrl-C.

Expected values: the library's results on the same data (the CLI is glue).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from concord._cli.main import main


def run(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def _panel_file(tmp_path: Path) -> str:
    """Three raters of one truth: a and b right 60% of the time, c 98% (the best rater)."""
    rng = np.random.default_rng(3)
    truth = rng.integers(1, 4, 300)

    def rater(p: float) -> np.ndarray:
        return np.where(rng.random(300) < p, truth, rng.integers(1, 4, 300))

    path = tmp_path / "panel.csv"
    pd.DataFrame({"a": rater(0.6), "b": rater(0.6), "c": rater(0.98)}).to_csv(path, index=False)
    return str(path)


def test_raters_says_the_direction_in_words(tmp_path: Path) -> None:
    path = _panel_file(tmp_path)
    out = run("raters", path)
    assert out.exit_code == 0, out.output
    assert "drifts" not in out.stdout
    table = out.stdout[: out.stdout.index("Cohen's kappa of each pair")]
    rows = {
        line.split()[0]: line for line in table.splitlines() if line.split()[:1] in (["a"], ["c"])
    }
    assert rows["c"].endswith("panel agrees less without")
    assert rows["a"].endswith("panel agrees more without")
    assert "Without c the panel agrees less: c is its most consistent rater" in out.stdout
    assert "Without a the panel agrees more: a disagrees most" in out.stdout
    data = json.loads(run("raters", path, "--format", "json").stdout)
    assert [r["direction"] for r in data["raters"]] == ["disagrees", None, "consistent"]


# --- a file created behind the check is never replaced without --overwrite -------------------

ESSAYS = "data/essays.csv"
RSM = "tests/reference/rsmtool/predictions_scaled_with_subgroups.csv"


def _appearing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every output file appear (someone else's) after the check, before the write."""
    from concord._cli import output

    original = output.replacing

    def racing(path: str, option: str, *, overwrite: bool) -> Any:
        Path(path).write_text("someone else's\n", encoding="utf-8")
        return original(path, option, overwrite=overwrite)

    monkeypatch.setattr(output, "replacing", racing)


def _commands(tmp_path: Path) -> list[tuple[str, list[str]]]:
    cuts = tmp_path / "cuts.json"
    fit = ["thresholds", ESSAYS, "--truth", "truth", "--score", "model_score"]
    assert run(*fit, "--save", str(cuts)).exit_code == 0
    target = str(tmp_path / "target")
    return [
        (
            target,
            [
                "report",
                "data/fleiss1971_diagnoses.csv",
                "--id",
                "patient",
                "--no-plots",
                "-o",
                target,
            ],
        ),
        (
            target,
            ["thresholds", ESSAYS, "--truth", "truth", "--score", "model_score", "--save", target],
        ),
        (target, ["evaluate", RSM, "--human", "h1", "--machine", "score", "-o", target]),
        (
            target,
            ["thresholds", ESSAYS, "--score", "model_score", "--apply", str(cuts), "-o", target],
        ),
    ]


def test_a_file_that_appears_meanwhile_is_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands = _commands(tmp_path)
    _appearing(monkeypatch)
    for target, args in commands:
        out = run(*args)
        assert out.exit_code == 1, (args, out.output)
        assert "appeared while concord was working and was not replaced" in out.output
        assert "--overwrite" in out.stderr and len(out.stderr.strip().splitlines()) == 1
        assert Path(target).read_text(encoding="utf-8") == "someone else's\n"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["cuts.json", "target"]  # no temp
        Path(target).unlink()
        out = run(*args, "--overwrite")
        assert out.exit_code == 0, (args, out.output)
        assert Path(target).read_text(encoding="utf-8") != "someone else's\n"
        Path(target).unlink()


def test_without_hard_links_the_file_is_still_created_exclusively(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import click

    from concord._cli import output

    def no_links(src: str, dst: str) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(output.os, "link", no_links)
    target = tmp_path / "out.txt"
    with output.replacing(str(target), "-o", overwrite=False) as fh:
        fh.write("ours\n")
    assert target.read_text(encoding="utf-8") == "ours\n"
    with (
        pytest.raises(click.ClickException, match="appeared while concord was working"),
        output.replacing(str(target), "-o", overwrite=False) as fh,
    ):
        fh.write("new\n")
    assert target.read_text(encoding="utf-8") == "ours\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


# --- compare: --ci-method and --seed reach the difference's interval --------------------------

COMPARE = ["compare", ESSAYS, "--truth", "truth", "--raters", "rater1,model_grade"]


def test_compare_ci_method_and_seed_reach_the_difference() -> None:
    import concord

    frame = pd.read_csv(ESSAYS)
    args = [*COMPARE, "--weights", "quadratic", "--format", "json"]
    data = json.loads(run(*args, "--ci-method", "bootstrap-bca", "--seed", "3").stdout)
    d = data["difference"]
    assert d["ci_method"] == "bootstrap-bca"
    expected = concord.compare(
        concord.cohen_kappa,
        (frame["truth"], frame["rater1"]),
        (frame["truth"], frame["model_grade"]),
        weights="quadratic",
        method="bootstrap-bca",
        rng=3,
    ).confidence_interval()
    assert (d["ci_low"], d["ci_high"]) == (expected.low, expected.high)
    other = json.loads(run(*args, "--ci-method", "bootstrap-bca", "--seed", "4").stdout)
    assert other["difference"]["ci_low"] != d["ci_low"]  # the seed reaches it
    wald = json.loads(run(*args, "--ci-method", "wald").stdout)["difference"]
    assert wald["ci_method"] == "wald"
    t = json.loads(run(*args).stdout)["difference"]
    assert t["ci_method"] == "t" and wald["ci_low"] != t["ci_low"]


def test_compare_refuses_fisher_z_for_the_difference() -> None:
    out = run(*COMPARE, "--ci-method", "fisher-z")
    assert out.exit_code == 2 and "--ci-method" in out.output
    assert "Fisher's z has no interval of a difference" in out.output


# --- Ctrl-C while the console script imports -------------------------------------------------


def test_ctrl_c_while_the_commands_import_is_one_line_and_130() -> None:
    import subprocess
    import sys

    # a finder that presses Ctrl-C when the first command's module is imported
    script = """
import sys
import concord

class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == "concord._cli.agree":
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, CtrlC())
from concord._cli import main
main(["agree", "--help"])  # the commands load when named
print("not reached")
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 130
    assert done.stdout == ""
    assert done.stderr == "concord: interrupted while starting (Ctrl-C).\n"
