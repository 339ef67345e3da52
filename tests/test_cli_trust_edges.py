"""Issue 24 (trust, round 3) on the command line: flag directions, files, options, Ctrl-C.

Expected values: the library's results on the same data (the CLI is glue).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
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
