"""``concord agree --label-sets``: MASI alpha and the agreement per label from a CSV.

Expected values: NLTK 3.10's ``AnnotationTask(data, distance=masi_distance).alpha()``
on the same label sets gives 0.467785843920145 (1031/2204), and its binary alpha of
each label's 0/1 ratings 0.5277777777777778 for pol (see tests/test_label_sets.py).
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from concord._cli.label_sets import as_sets, holds_sets
from concord._cli.main import main

pd = pytest.importorskip("pandas")

CSV = """doc,ann,bob,cy
1,pol,pol,pol|econ
2,pol|econ,econ,econ|pol
3,sport,sport,sport
4,econ,econ|pol,econ
5,sport|health,sport,health
6,health,health,health|econ
"""


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def topics(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "topics.csv"
    path.write_text(CSV)
    return str(path)


def test_text(topics: str) -> None:
    out = run("agree", topics, "--label-sets", "--raters", "ann,bob,cy")
    assert out.exit_code == 0, out.output
    assert "0.4678" in out.output and "MASI" in out.output
    lines = out.output.splitlines()
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("pol "))
    assert "0.5278" in lines[first]  # worst label first


def test_json_is_nltk(topics: str) -> None:
    out = run("agree", topics, "--label-sets", "--raters", "ann,bob,cy", "--format", "json")
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)
    assert record["coefficients"][0]["statistic"] == float(Fraction(1031, 2204))
    assert record["coefficients"][0]["weighting"] == "masi"
    labels = record["per_label"]["rows"][1:]
    assert labels[0]["label"] == "pol"
    assert labels[0]["statistic"] == pytest.approx(0.5277777777777778, abs=1e-15)


def test_separator_and_jaccard(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "semi.csv"
    path.write_text(CSV.replace("|", "+"))
    plain = run("agree", str(path), "--label-sets", "--raters", "ann,bob,cy")
    assert plain.exit_code == 0  # "pol+econ" is then one label of its own
    assert "0.4678" not in plain.output
    out = run(
        "agree",
        str(path),
        "--label-sets",
        "--set-separator",
        "+",
        "--raters",
        "ann,bob,cy",
        "--format",
        "csv",
    )
    assert out.exit_code == 0 and "0.4677858439201452" in out.output
    jac = run(
        "agree",
        str(path),
        "--label-sets",
        "--set-separator",
        "+",
        "--level",
        "jaccard",
        "--raters",
        "ann,bob,cy",
        "--format",
        "markdown",
    )
    assert jac.exit_code == 0 and "| pol " in jac.output


def test_usage_errors(topics: str) -> None:
    for extra in (["--weights", "quadratic"], ["--coefficients", "fleiss"], ["--chunk-rows", "2"]):
        out = run("agree", topics, "--label-sets", "--raters", "ann,bob,cy", *extra)
        assert out.exit_code == 2 and "Traceback" not in out.output, out.output
    out = run("agree", topics, "--set-separator", ";")
    assert out.exit_code == 2 and "--label-sets" in out.output


def test_cells_already_sets_are_detected() -> None:
    """A JSON export's list-valued labels (read_annotations) are label sets as they are."""
    frame = pd.DataFrame({"a": [["x", "y"], ["x"], None], "b": [("y", "x"), {"x"}, ["z"]]})
    assert holds_sets(frame)
    assert not holds_sets(pd.DataFrame({"a": ["x", "y"], "b": ["x", np.nan]}))
    sets = as_sets(frame, "|")
    assert sets.loc[0, "a"] == sets.loc[0, "b"] == frozenset({"x", "y"})
    assert sets.loc[2, "a"] is None
    parsed = as_sets(pd.DataFrame({"a": ["x | y", np.nan, 3.0]}), "|")
    assert parsed["a"].tolist() == [frozenset({"x", "y"}), None, frozenset({"3"})]


@pytest.mark.parametrize(
    "args",
    [("items",), ("kappa", "--rater1", "ann", "--rater2", "bob")],
    ids=["items", "kappa"],
)
def test_json_of_an_export_of_label_sets_is_written(args: tuple[str, ...]) -> None:
    # the sets of a doccano multi-label export reached json.dumps as frozensets: "Object of
    # type frozenset is not JSON serializable" (exit 1); a set is now its sorted labels
    path = "tests/data/annotations/doccano_collaborative.jsonl"
    out = run(args[0], path, *args[1:], "--format", "json")
    assert out.exit_code == 0, out.output
    record = json.loads(out.output[out.output.index("{") :])
    assert "['econ', 'pol']" not in out.output and "frozenset" not in out.output
    text = json.dumps(record)
    assert '["econ", "pol"]' in text or '["econ"]' in text


def test_to_dict_of_label_sets_is_json_safe() -> None:
    # README: to_dict() is JSON-safe; with label sets its categories were frozensets
    import concord

    a = [frozenset({"pol", "econ"}), frozenset({"sport"}), frozenset({"econ"})]
    b = [frozenset({"econ"}), frozenset({"sport"}), frozenset({"econ", "pol"})]
    text = json.dumps(concord.cohen_kappa(a, b).to_dict())
    assert '["econ", "pol"]' in text


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (("kappa", "--rater1", "ann", "--rater2", "bob"), "{econ, pol}"),
        (("items",), "{econ}"),
        (("items", "--format", "csv"), ",{econ},"),
    ],
    ids=["kappa", "items", "items-csv"],
)
def test_label_sets_are_shown_as_sets_of_labels(args: tuple[str, ...], shown: str) -> None:
    # kappa's matrices and costliest confusions and items' majority showed Python's
    # repr, frozenset({'econ', 'pol'}); a set is shown as its sorted labels in braces
    path = "tests/data/annotations/doccano_collaborative.jsonl"
    out = run(args[0], path, *args[1:])
    assert out.exit_code == 0, out.output
    assert shown in out.stdout and "frozenset" not in out.stdout


def test_label_ids_that_are_numbers(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # review: "1|2" beside a single "1" was refused as numbers mixed with text, and the
    # advice (--labels) did not help; with --label-sets every cell is read as text
    ids = CSV
    for name, number in (("pol", "1"), ("econ", "2"), ("sport", "3"), ("health", "4")):
        ids = ids.replace(name, number)
    path = tmp_path / "ids.csv"
    path.write_text(ids)
    out = run("agree", str(path), "--label-sets", "--raters", "ann,bob,cy", "--format", "json")
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)
    assert record["coefficients"][0]["statistic"] == float(Fraction(1031, 2204))  # NLTK
    assert record["per_label"]["rows"][1]["label"] == "1"  # pol, the worst, as its id
    marker = tmp_path / "marker.csv"
    marker.write_text(ids.replace("3,3,3,3", "3,NA,3,3"))
    out = run("agree", str(marker), "--label-sets", "--raters", "ann,bob,cy")
    assert out.exit_code == 1 and "'NA', which looks like a missing-value marker" in out.output
