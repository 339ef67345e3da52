"""``concord agree long.csv`` (issue 24, item 2): a long file read as wide is refused.

Before: a file of (item, annotator, label) rows with text labels exited 0
with α ≈ −0.05 (the item column taken for an id, annotator and label for two
raters). Now the command stops with exit code 2 and names the options that
read the file as long; ``--item/--rater/--rating`` read it, ``--raters`` or
``--id`` say it is wide. The bundled wide files are read as before.

Expected values: the library's long-form call on the same rows.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import concord
from concord._cli.main import main

ROOT = Path(__file__).parents[1]


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)))


@pytest.fixture
def long_csv(tmp_path):
    rng = np.random.default_rng(0)
    rows = []
    for i in range(30):
        truth = rng.integers(0, 3)
        for who in ("ann_a", "ann_b", "ann_c"):
            label = truth if rng.random() < 0.8 else rng.integers(0, 3)
            rows.append((f"doc{i}", who, ["neg", "neu", "pos"][label]))
    path = tmp_path / "long.csv"
    pd.DataFrame(rows, columns=["item", "annotator", "label"]).to_csv(path, index=False)
    return path


def test_agree_refuses_a_long_file(long_csv):
    out = run("agree", long_csv)
    assert out.exit_code == 2, out.output
    assert "looks like a long table" in out.output
    assert "--item item --rater annotator --rating label" in out.output
    assert "Traceback" not in out.output


def test_a_long_file_sorted_by_rater_is_refused(long_csv, tmp_path):
    # its first rows hold one rater, whose items are all distinct: the whole file decides
    frame = pd.read_csv(long_csv)
    frame = pd.concat([frame] + [frame.assign(item=frame["item"] + f"-{k}") for k in range(40)])
    path = tmp_path / "by_rater.csv"
    frame.sort_values(["annotator", "item"]).to_csv(path, index=False)
    out = run("agree", path)
    assert out.exit_code == 2 and "--item item --rater annotator --rating label" in out.output


def test_the_long_options_read_it(long_csv):
    out = run("agree", long_csv, "--item", "item", "--rater", "annotator", "--rating", "label")
    assert out.exit_code == 0, out.output
    out = run(
        *("agree", long_csv, "--item", "item", "--rater", "annotator", "--rating", "label"),
        *("--format", "json"),
    )
    data = json.loads(out.stdout)
    frame = pd.read_csv(long_csv)
    want = concord.krippendorff_alpha(frame, item="item", rater="annotator", rating="label")
    alpha = next(r for r in data["coefficients"] if r["function"] == "krippendorff_alpha")
    assert alpha["statistic"] == want.statistic


def test_raters_or_id_say_it_is_wide(long_csv):
    assert run("agree", long_csv, "--raters", "annotator,label").exit_code == 0
    assert run("agree", long_csv, "--id", "item").exit_code == 0
    # the library is told so too: its own check does not refuse what the user chose
    for command in ("agree", "raters"):
        out = run(command, long_csv, "--raters", "item,annotator,label")
        assert out.exit_code == 0, out.output


def test_icc_refuses_a_long_file_of_numbers(tmp_path):
    rows = [(i, 100 + j, (i * 7 + j * 3) % 5 + 1) for i in range(12) for j in range(3)]
    path = tmp_path / "scores.csv"
    pd.DataFrame(rows, columns=["subject", "judge", "score"]).to_csv(path, index=False)
    out = run("icc", path)
    assert out.exit_code == 2 and "--item subject --rater judge --rating score" in out.output
    out = run("icc", path, "--item", "subject", "--rater", "judge", "--rating", "score")
    assert out.exit_code == 0, out.output
    assert run("icc", path, "--raters", "subject,judge,score").exit_code == 0


WIDE_FILES = ["krippendorff2011.csv", "pefr.csv", "seed_sentiment.csv", "seed_shift.csv"]
WIDE_FILES += ["shrout_fleiss1979.csv", "fleiss1971_diagnoses.csv", "seed_panda.csv"]


@pytest.mark.parametrize("name", WIDE_FILES)
def test_the_bundled_wide_files_are_read_as_before(name):
    out = run("agree", ROOT / "data" / name)
    assert out.exit_code == 0, out.output
    assert "long table" not in out.output
