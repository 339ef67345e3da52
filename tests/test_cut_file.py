"""The cut-point file (concord-thresholds/1): what --save writes reads back, a hand-edited fault is
one error naming the file and the key, and `thresholds --apply` shows it on one line."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

import concord
from concord._cli.main import main
from concord._cli.thresholds import cut_file
from concord._thresholds import cut_file as _cut_file

GOOD = {"format": "concord-thresholds/1", "labels": [1, 2, 3, 4], "thresholds": [1.5, 2.5, 3.5]}


def fault(**changes):
    """Return GOOD's JSON with some keys changed (``...`` removes a key)."""
    data = {**GOOD, **changes}
    return json.dumps({k: v for k, v in data.items() if v is not ...})


def test_what_save_writes_reads_back_with_infinite_ends():
    truth = [1, 1, 2, 2, 3, 3]
    best = concord.optimize_thresholds(
        truth, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], labels=[0, 1, 2, 3, 4]
    )
    assert best.thresholds[0] == -math.inf and best.thresholds[-1] == math.inf  # empty 0 and 4
    cv = concord.cross_validated_kappa(truth, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], cv=2, rng=0)
    text = json.dumps(cut_file(best, cv, "quadratic"), allow_nan=False)
    cuts, labels = _cut_file.parse(text, "cuts.json")
    np.testing.assert_array_equal(cuts, best.thresholds)
    assert labels == [0, 1, 2, 3, 4]


def test_equal_cut_points_are_allowed():  # an empty middle grade
    cuts, _ = _cut_file.parse(fault(thresholds=[1.5, 1.5, 3.5]), "cuts.json")
    assert cuts.tolist() == [1.5, 1.5, 3.5]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "concord-thresholds/1",\n "labels": [1, 2,]}',
         "not valid JSON (Expecting value at line 2, column 18)."),
        ('{"format": "concord-thresholds/1", "labels": [1, 2], "labels": [2, 3], '
         '"thresholds": [1.5]}', "the key 'labels' appears twice."),
        ("[1.5, 2.5]", "the top level must be a JSON object {...}; got an array."),
        (fault(format=...), "'format' must be \"concord-thresholds/1\"; got no 'format' key."),
        (fault(format="concord-thresholds/2"),
         "'format' must be \"concord-thresholds/1\"; got \"concord-thresholds/2\"."),
        (fault(labels=...), "the key 'labels' is missing; it lists the grades in order."),
        (fault(labels="1,2,3,4"),
         "'labels' must be an array of the grades in order; got a string."),
        (fault(labels=[1], thresholds=[]), "'labels' must name at least two grades; got 1."),
        (fault(labels=[1, None, 3, 4]),
         "'labels' must hold strings or numbers; got null (position 2)."),
        (fault(labels=["a", "b", "c", "b"]),
         "'labels' must be unique; \"b\" is at positions 2 and 4."),
        (fault(thresholds=...),
         "the key 'thresholds' is missing; it lists the cut points in increasing order."),
        (fault(thresholds={"1": 1.5}),
         "'thresholds' must be an array of the cut points in increasing order; got an object."),
        (fault(thresholds=[1.5, 2.5]),
         "'thresholds' must hold one cut point fewer than 'labels' (4 labels, so 3); got 2."),
        (fault(thresholds=[1.5, "2.5", 3.5]),
         "'thresholds' must hold numbers (or \"inf\", \"-inf\" for an empty end grade); "
         "got a string (position 2)."),
        (fault(thresholds=[1.5, math.nan, 3.5]), "'thresholds' must not be NaN (position 2)."),
        (fault(thresholds=[1.0, 3.0, 2.5]),
         "'thresholds' must be non-decreasing; got 2.5 after 3.0 (position 3)."),
        (fault(thresholds=[1.5, "inf", 3.5]),
         "'thresholds' must be non-decreasing; got 3.5 after \"inf\" (position 3)."),
        (fault(thresholds=[1.5, 2.5, "-inf"]),
         "'thresholds' must be non-decreasing; got \"-inf\" after 2.5 (position 3)."),
    ],
)  # fmt: skip
def test_each_fault_names_the_file_and_the_key(text, message):
    with pytest.raises(ValueError) as info:
        _cut_file.parse(text, "cuts.json")
    assert str(info.value) == f"cuts.json: {message}"


def test_apply_shows_a_fault_on_one_line(tmp_path):
    cuts = tmp_path / "cuts.json"
    cuts.write_text(fault(thresholds=[1.5, math.nan, 3.5]))
    scores = tmp_path / "scores.csv"
    scores.write_text("s\n1\n2\n")
    out = CliRunner().invoke(
        main, ["thresholds", str(scores), "--score", "s", "--apply", str(cuts)]
    )
    assert out.exit_code == 1
    assert out.output == (
        f"Error: {cuts}: 'thresholds' must not be NaN (position 2). Fix the file, or fit the "
        "cut points again and write them with --save.\n"
    )


def test_a_file_that_is_not_utf8_is_one_error(tmp_path):
    cuts = tmp_path / "cuts.json"
    cuts.write_bytes(b'{"format": "\xff"}')
    with pytest.raises(ValueError, match=r"cuts.json: not UTF-8 text \(byte 12\)"):
        _cut_file.load(str(cuts))
