"""The command line reads annotation tools' exports: `concord agree export.json`.

α of tests/data/annotations/label_studio.json is NLTK's
``AnnotationTask(data).alpha()`` on the same 17 ratings (nltk 3.10):
0.4893617021276595 = 23/47.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from concord._cli.main import main

DATA = Path(__file__).parent / "data" / "annotations"
NLTK_ALPHA = Fraction(23, 47)  # nltk.metrics.agreement.AnnotationTask(...).alpha()


def run(*args, input=None):
    return CliRunner().invoke(main, [*map(str, args)], input=input)


def one_line_error(out, status=1):
    assert out.exit_code == status, out.output
    assert out.exception is None or isinstance(out.exception, SystemExit)
    assert "Traceback" not in out.output
    errors = [line for line in out.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, out.stderr
    return errors[0]


def _alpha(out):
    record = json.loads(out.stdout)
    (alpha,) = (c for c in record["coefficients"] if "alpha" in c["coefficient"].lower())
    return alpha["statistic"]


def test_agree_export_json_detects_label_studio_and_says_the_skipped():
    out = run("agree", DATA / "label_studio.json", "--coefficients", "alpha", "--format", "json")
    assert out.exit_code == 0, out.output
    assert _alpha(out) == pytest.approx(float(NLTK_ALPHA), abs=1e-12)
    assert "note: reading" in out.stderr and "--input-format label-studio" in out.stderr
    assert "Label Studio export marks as no answer: 1 cancelled" in out.stderr


def test_declared_format_says_no_detection_and_reads_the_same():
    out = run(
        "agree", DATA / "label_studio.json", "--input-format", "label-studio",
        "--coefficients", "alpha", "--format", "json",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "note: reading" not in out.stderr
    assert _alpha(out) == pytest.approx(float(NLTK_ALPHA), abs=1e-12)


def test_stdin_with_input_format():
    text = (DATA / "label_studio.json").read_text(encoding="utf-8")
    out = run(
        "agree", "-", "--input-format", "label-studio", "--coefficients", "alpha",
        "--format", "json", input=text,
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert _alpha(out) == pytest.approx(float(NLTK_ALPHA), abs=1e-12)


def test_several_controls_need_control_in_the_cli_words():
    line = one_line_error(run("agree", DATA / "label_studio_topics.json"))
    assert "several controls" in line and "--control" in line and "from_name" not in line
    out = run("agree", DATA / "label_studio_topics.json", "--control", "sentiment")
    assert out.exit_code == 0, out.output
    line = one_line_error(run("agree", DATA / "prodigy_choice.jsonl", "--control", "x"), 2)
    assert "--control picks a Label Studio control or an Argilla question" in line


def test_kappa_and_raters_read_prodigy_and_argilla():
    out = run(
        "kappa", DATA / "prodigy_choice.jsonl",
        "--rater1", "sentiment-alice", "--rater2", "sentiment-bob", "--format", "json",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    # five accepted pairs: (pos,pos) (neg,neg) (neu,pos) (pos,pos) (neg,neu): p_o 3/5, p_e 9/25
    assert json.loads(out.stdout)["statistic"] == pytest.approx(0.375, abs=1e-12)
    assert "1 ignore, 1 reject" in out.stderr
    out = run("raters", DATA / "argilla.json", "--control", "sentiment")
    assert out.exit_code == 0, out.output
    assert "2 draft" in out.stderr


def test_raters_option_picks_annotators():
    out = run(
        "agree", DATA / "label_studio.json", "--raters", "alice@example.com,bob@example.com",
        "--coefficients", "percent", "--format", "json",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["data"]["raters"] == ["alice@example.com", "bob@example.com"]
    line = one_line_error(run("agree", DATA / "label_studio.json", "--raters", "alice,bob"))
    assert "no rater 'alice' for --raters" in line


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["agree", DATA / "label_studio_spans.json"], "holds spans (start, end), not one label "
         "per item: measure them with concord spans"),
        (["spans", DATA / "label_studio.json"], "not spans: measure its labels with concord"),
        (["icc", DATA / "label_studio.json"], "the label 'positive' is not a number"),
        (["compare", DATA / "label_studio.json", "--first", "a", "--second", "b"],
         "is an annotation tool's export: this command reads a table"),
    ],
)  # fmt: skip
def test_what_the_cli_cannot_do_with_an_export_is_one_line(args, words):
    assert words in one_line_error(run(*args))


def test_chunk_rows_and_long_options_are_refused_for_an_export():
    out = run("agree", DATA / "label_studio.json", "--chunk-rows", "10")
    assert out.exit_code == 2 and "label_studio.json is an annotation export" in out.output
    out = run("agree", DATA / "label_studio.json", "--item", "a", "--rater", "b", "--rating", "c")
    assert out.exit_code == 2 and "--item names a column of a table" in out.output
    out = run("agree", DATA / "label_studio.json", "--id", "a")
    assert out.exit_code == 2 and "Leave out --id" in out.output


def test_bad_exports_are_one_line_without_traceback(tmp_path):
    text = (DATA / "label_studio.json").read_text(encoding="utf-8")
    cut = tmp_path / "export.json"
    cut.write_text(text[:500], encoding="utf-8")
    assert "is not valid JSON: record 1 breaks" in one_line_error(run("agree", cut))
    odd = tmp_path / "odd.json"
    odd.write_text('[{"name": "a", "score": 1}]', encoding="utf-8")
    line = one_line_error(run("agree", odd))
    assert "first record's keys ('name', 'score')" in line and "--input-format" in line
    tasks = json.loads(text)
    del tasks[0]["annotations"][1]["completed_by"]
    noone = tmp_path / "noone.json"
    noone.write_text(json.dumps(tasks), encoding="utf-8")
    assert "record 1 (id 1), annotation 2 has no annotator" in one_line_error(run("agree", noone))


def test_a_table_suffix_unknown_names_the_export_formats(tmp_path):
    odd = tmp_path / "ratings.dat"
    odd.write_text("a,b\n1,2\n", encoding="utf-8")
    assert "label-studio|prodigy" in one_line_error(run("agree", odd))


@pytest.mark.parametrize(
    "args",
    [
        ["agree"], ["kappa"], ["raters"], ["items"], ["icc"], ["drift", "--time", "t"],
        ["judge", "--humans", "a,b", "--candidate", "c"], ["evaluate", "--human", "a",
        "--machine", "b"], ["thresholds", "--truth", "a", "--score", "b"],
        ["bland-altman", "--x", "a", "--y", "b"], ["compare", "--first", "a", "--second", "b"],
    ],
)  # fmt: skip
def test_every_command_reads_an_export_or_says_why_not_in_one_line(args):
    out = run(args[0], DATA / "prodigy_choice.jsonl", *args[1:])
    assert isinstance(out.exception, SystemExit | None), out.exception
    if out.exit_code:
        one_line_error(out, out.exit_code)


def test_report_reads_an_export(tmp_path):
    out = run("report", DATA / "prodigy_choice.jsonl", "-o", tmp_path / "r.html")
    assert out.exit_code == 0, out.output
    assert (tmp_path / "r.html").stat().st_size > 0


def test_spans_reads_span_exports_and_two_tools_agree_on_the_same_spans():
    """label_studio_spans.json and prodigy_ner.jsonl hold the same spans (README there)."""
    found = []
    for name in ("label_studio_spans.json", "prodigy_ner.jsonl"):
        out = run("spans", DATA / name, "--measure", "f1,token-alpha", "--format", "json")
        assert out.exit_code == 0, out.output
        found.append(json.loads(out.stdout))
        assert "note: reading" in out.stderr
    for measure in ("f1", "token-alpha"):
        values = [f["measures"][measure]["statistic"] for f in found]
        assert values[0] == pytest.approx(values[1], abs=1e-15), measure


@pytest.mark.parametrize(
    ("name", "tool"), [("doccano_per_user", "doccano"), ("brat_collection", "brat")]
)
def test_folders_are_detected_as_doccano_or_brat(name, tool):
    if not (DATA / name).exists():
        pytest.skip("the doccano and brat samples come with their readers")
    out = run("agree", DATA / name, "--coefficients", "alpha")
    assert f"--input-format {tool}" in out.stderr


def test_python_m_concord_runs_the_command_line():
    # `python -m concord agree export.json` failed: "No module named concord.__main__"
    import subprocess
    import sys

    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "concord",
            "agree",
            str(DATA / "label_studio.json"),
            "--coefficients",
            "alpha",
            "--format",
            "csv",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "Krippendorff's alpha,krippendorff_alpha,nominal,0.48936" in out.stdout


def test_conll_2003_columns_are_named_with_raters():
    # CoNLL-2003's layout has part of speech and chunk columns before the annotators' tags:
    # the reader's error said "raters=", an option the command line does not have, and
    # --raters (concord spans --raters) did not reach the reader
    from concord._cli.reading import exports

    path = DATA / "conll_two_annotators.conll"
    said = one_line_error(run("spans", path))
    assert "--raters" in said and "raters=" not in said
    spans = exports.spans(str(path), {"input_format": "conll", "raters": "ann,bob"})
    assert sorted(spans["rater"].unique()) == ["ann", "bob"]
    # ann's column (IOB1) has 8 chunks, bob's (IOB2) 7: "London Berlin" is one LOC for bob
    assert spans.groupby("rater").size().to_dict() == {"ann": 8, "bob": 7}


def test_export_errors_name_only_what_the_command_line_has(tmp_path):
    # errors of the readers named Python keywords (rater=, text_key=) on the command line
    said = one_line_error(run("spans", DATA / "doccano_spans_ann.jsonl"))
    assert "rater=" not in said and "USERNAME.jsonl" in said
    tasks = json.loads((DATA / "label_studio_spans.json").read_text(encoding="utf-8"))
    tasks[0]["annotations"][0]["result"][0]["value"]["end"] = 9999
    path = tmp_path / "past.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    said = one_line_error(run("spans", path))
    assert "[0, 9999)" in said and "text_key=" not in said
    table = tmp_path / "past.csv"
    table.write_text(
        "item,rater,start,end,label,text\n1,a,0,5,X,hello there\n1,b,3,40,X,hello there\n"
    )
    said = one_line_error(run("spans", table))
    assert "row 3" in said and "lengths=" not in said and "--text" in said


def test_a_folder_of_conll_files_is_one_file_per_annotator(tmp_path):
    # the reader takes one CoNLL file per annotator; the command line, given their folder,
    # said it held "no .jsonl or .ann file"
    folder = tmp_path / "ner"
    folder.mkdir()
    for name in ("alice", "bob"):
        text = (DATA / f"conll_{name}.conll").read_text(encoding="utf-8")
        (folder / f"{name}.conll").write_text(text, encoding="utf-8")
    out = run("spans", folder, "--format", "json")
    assert out.exit_code == 0, out.output
    assert "one per annotator" in out.stderr
    record = json.loads(out.stdout)
    assert record["data"]["raters"] == ["alice", "bob"]
    # by hand: 3 chunks each, only "Babbage" PER alike (Bob cuts Ada's PER short and calls
    # London ORG): F1 = 2 * 1 / (3 + 3)
    assert record["measures"]["f1"]["statistic"] == pytest.approx(1 / 3, abs=1e-15)
    (folder / "notes.txt").write_text("not a CoNLL file", encoding="utf-8")
    said = one_line_error(run("spans", folder))
    assert "no .jsonl or .ann file" in said


def test_a_truncated_doccano_line_says_its_column_once(tmp_path):
    # json's "Unterminated string starting at" was followed by " at column": "at at column"
    text = (DATA / "doccano_collaborative.jsonl").read_text(encoding="utf-8")
    path = tmp_path / "cut.jsonl"
    path.write_text(text[: text.index("\n", 200) - 10], encoding="utf-8")
    said = one_line_error(run("agree", path, "--input-format", "doccano"))
    assert "Unterminated string starting at, column" in said and "at at" not in said


@pytest.mark.parametrize("command", ["agree", "spans", "kappa"])
def test_help_says_how_exports_are_read(command):
    # --input-format's help named only .json and .jsonl as detected; agree's --raters only
    # the wide form, though it picks an export's annotators
    out = run(command, "--help")
    assert out.exit_code == 0
    text = " ".join(out.output.split())
    assert ".ann, .conll, a folder or .zip) is detected" in text
    assert "label-studio|prodigy|doccano|argilla|brat|conll" in text
    if command == "agree":
        assert "an annotation export: the annotators to keep" in text
        assert "concord agree export.json" in text


@pytest.mark.parametrize(
    ("command", "name"), [("agree", "label_studio.json"), ("spans", "prodigy_ner.jsonl")]
)
def test_an_export_on_stdin_without_input_format_is_named(command, name):
    # stdin was read as CSV: "-: line 3 has 2 fields where the header has 1"
    text = (DATA / name).read_text(encoding="utf-8")
    said = one_line_error(run(command, "-", input=text))
    assert "stdin holds JSON" in said and "--input-format" in said


def test_labels_declare_an_exports_choices_and_name_the_record():
    # --labels was checked only after reading, naming no record; the readers' choices=
    # names the task and annotation of a label outside them
    said = one_line_error(run("agree", DATA / "label_studio.json", "--labels", "positive,neutral"))
    assert "record 2 (id 2), annotation 1: the label 'negative' is not one of --labels" in said
    said = one_line_error(
        run("agree", DATA / "argilla.json", "--control", "topics", "--labels", "food,service")
    )
    assert "record 3 (id 'review-3'): the label 'price' is not one of --labels" in said
    out = run("agree", DATA / "label_studio.json", "--labels", "negative,neutral,positive",
              "--coefficients", "alpha", "--format", "json")  # fmt: skip
    assert out.exit_code == 0, out.output
    assert Fraction(_alpha(out)).limit_denominator(1000) == NLTK_ALPHA


def test_a_span_file_without_header_is_named_as_such(tmp_path):
    # pygamma-agreement's CSV (tests/data/gamma/) has no header: the first span was read as
    # the column names and the error said "no column 'item' for --item. Columns: Alex, 1, 2, 9"
    gamma = DATA.parent / "gamma" / "AlexPaulSuzan.csv"
    said = one_line_error(run("spans", gamma))
    assert "the first line (Alex, 1, 2, 9) is a span, not the names of the columns" in said
    fixed = tmp_path / "with_header.csv"
    rows = gamma.read_text(encoding="utf-8").splitlines()
    fixed.write_text("\n".join(["rater,label,start,end,item", *(r + ",1" for r in rows)]))
    assert run("spans", fixed).exit_code == 0
