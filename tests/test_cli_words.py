"""The command line speaks its own words: errors name options and columns, never Python
parameters; ``--version``; text a terminal in Latin-1, cp1252 or ASCII can carry."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import concord
from concord._cli import terminal
from concord._cli.main import main

ROOT = Path(__file__).resolve().parents[1]
ESSAYS = str(ROOT / "data" / "essays.csv")
DIAGNOSES = str(ROOT / "data" / "fleiss1971_diagnoses.csv")
PEFR = str(ROOT / "data" / "pefr.csv")

# Python in an error line: a keyword argument (labels=, nan_policy=), a list or its
# placeholder ([1, 2], [...]), numpy or pandas (np.rint, np.float64(1.5), pd.NA), a library
# parameter's sentence, a Python-only name
PYTHON = re.compile(
    r"\b[a-z_]+=|\[|\bnp\.|\bpd\.|parameter of|\bNone\b|nan_policy|sample_weight|"
    r"y_true|y_score|accumulate\(|Categorical"
)

FILES = {
    "na.csv": "a,b\n1,1\n2,\n3,3\n",
    "fraction.csv": "a,b\n1,1.5\n2,2\n",
    "three.csv": "a,b\n1,1\n2,3\n3,3\n1,2\n",
    "negative.csv": "a,b\n-1,1\n2,3\n3,3\n1,2\n",
    "words.csv": "a,b\nx,y\ny,y\nx,x\n",
    "empty_pairs.csv": "a,b\n,1\n2,\n",
    "wide.csv": "r1,r2,r3\n1,2,3\n2,2,2\n3,3,1\n1,1,1\n",
    "long.csv": "doc,ann,lab\nd1,a,1\nd1,b,2\nd2,a,2\nd2,b,2\n",
    "scores.csv": "truth,score\n1,0.1\n2,0.5\n3,0.9\n1,0.2\n2,0.4\n3,\n",
    "one_class.csv": "truth,score\n1,0.1\n1,0.5\n1,0.9\n1,0.2\n",
    "two_items.csv": "truth,score\n1,0.1\n2,0.5\n",
    "huge.csv": "a,b\n100000000000000000,1\n2,3\n3,3\n1,2\n",
}
PAIR = ["--rater1", "a", "--rater2", "b"]
LONG = ["--item", "doc", "--rater", "ann", "--rating", "lab"]
FIT = ["--truth", "truth", "--score", "score"]

# (arguments, what the line must say): every library error the commands reach
ERRORS = [
    (["kappa", "na.csv", *PAIR], "Pass --nan-policy omit to drop those pairs"),
    (["kappa", "na.csv"], "--nan-policy must be omit when ratings are missing"),
    (["kappa", "fraction.csv", *PAIR], "The column 'b' (--rater2) must be integral"),
    (["kappa", "fraction.csv"], "declare the categories with --labels"),
    (["kappa", "fraction.csv", *PAIR, "--weights", "quadratic"], "such as 1.5 instead"),
    (["kappa", "three.csv", *PAIR, "--labels", "1,2"], "Got ratings not in --labels: 3 (3×)"),
    (["kappa", "three.csv", *PAIR, "--labels", "1,1,2,3"], "Got 1,1,2,3 instead. Repeated: 1"),
    (["kappa", "three.csv", *PAIR, "--labels", "x,y"], "in the column 'a' (--rater1)"),
    (["kappa", "three.csv", "--labels", "1,2", "--chunk-rows", "1"], "Add those categories to"),
    (["kappa", "negative.csv", "--weights", "ratio"], "--weights must be 'ratio' only for"),
    (["kappa", "negative.csv", "--weights", "ratio"], "The categories -1, 1, 2, 3 include"),
    (["kappa", "words.csv", "--weights", "quadratic"], "highest with --labels"),
    (["kappa", "words.csv", *PAIR, "--labels", "1,2"], "Got ratings not in --labels: 'x' (2×)"),
    (["kappa", "empty_pairs.csv", *PAIR, "--nan-policy", "omit"], "so --nan-policy omit leaves"),
    (["kappa", "three.csv", "--labels", ""], "--labels must be a non-empty"),
    (["kappa", "huge.csv", "--weights", "ordinal"], "--weights must be linear or quadratic"),
    (["agree", "huge.csv", "--weights", "ordinal"], "beyond 2^53, spanning under 2^53"),
    (["agree", "wide.csv", "--labels", "1,2"], "every rating in the rater columns"),
    (["agree", "wide.csv", "--labels", "1,2", "--chunk-rows", "2"], "--labels must be a list"),
    (["agree", "wide.csv", "--weights", "ratio", "--labels", "-1,1,2,3"], "--weights must be"),
    (["agree", "wide.csv", "--level", "ratio", "--labels", "-1,1,2,3"], "--level must be 'ratio'"),
    (["agree", "long.csv", *LONG, "--labels", "1"], "every rating in the column 'lab' (--rating)"),
    (["agree", "words.csv", "--weights", "linear"], "--labels must be given to order"),
    (["thresholds", "scores.csv", *FIT], "The column 'score' (--score) must be finite"),
    (["thresholds", "scores.csv", "--truth", "score", "--score", "truth"], "'score' (--truth)"),
    (["thresholds", "one_class.csv", *FIT], "The column 'truth' (--truth) must be at least two"),
    (["thresholds", "two_items.csv", *FIT], "--cv must be a number of folds"),
    (["thresholds", "scores.csv", *FIT, "--labels", "1,2"], "in the column 'truth' (--truth)"),
    (
        ["bland-altman", "words.csv", "--x", "a", "--y", "b"],
        "of column 'a' holds 'x', not a number",
    ),
    (["bland-altman", "na.csv", "--x", "a", "--y", "b"], "Pass --nan-policy omit to drop them"),
    (["report", "three.csv", *PAIR, "--labels", "1,2", "--overwrite"], "(--rater1, --rater2)"),
    (["report", "wide.csv", "--labels", "1,2", "--overwrite"], "Add those categories to --labels"),
]


@pytest.fixture
def folder(tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    return tmp_path


@pytest.mark.parametrize(("args", "says"), ERRORS)
def test_library_errors_speak_the_command_line(folder, args, says):
    command, file, *rest = args
    if command == "report":
        rest += ["-o", str(folder / "report.html")]
    out = CliRunner().invoke(main, [command, str(folder / file), *rest])
    lines = out.output.strip().splitlines()
    assert out.exit_code == 1 and len(lines) == 1, out.output
    assert lines[0].startswith(f"Error: {folder / file}: ")
    assert says in lines[0]
    assert not PYTHON.search(lines[0]), lines[0]


def test_the_library_keeps_its_own_words():
    # the same error, for library users: unchanged (tests/test_errors.py asserts each text)
    with pytest.raises(ValueError) as caught:
        concord.cohen_kappa([1, 2, None], [1, 2, 3])
    assert type(caught.value) is ValueError
    assert str(caught.value) == (
        "The 'nan_policy' parameter of cohen_kappa must be 'omit' when ratings are missing. "
        "Got 'raise' and 1 pairs with a missing rating (NaN, None or pd.NA; the first at "
        "position 2 of 'rater1') instead. "
        "Pass nan_policy='omit' to drop those pairs."
    )


def test_the_python_pattern_catches_the_library_words(folder):
    # the check above can fail: the library's own sentence trips it
    with pytest.raises(ValueError) as caught:
        concord.cohen_kappa([1, 2], [1, 2.5])
    assert PYTHON.search(str(caught.value))


def test_version():
    out = CliRunner().invoke(main, ["--version"])
    assert out.exit_code == 0 and out.output == f"concord {concord.__version__}\n"
    assert concord.__version__ == "0.2.0"


# --- text a terminal that is not UTF-8 can carry ------------------------------------------------
COMMANDS = [
    (["kappa", ESSAYS, "--rater1", "truth", "--rater2", "model_grade", "--weights", "quadratic"],
     ("text", "json", "markdown", "csv")),
    (["agree", DIAGNOSES, "--raters", "rater1,rater2,rater3,rater4,rater5,rater6"],
     ("text", "json", "markdown", "csv")),
    (["thresholds", ESSAYS, "--truth", "truth", "--score", "model_score", "--seed", "0"],
     ("text", "json")),
    (["icc", str(ROOT / "data" / "shrout_fleiss1979.csv")], ("text", "json", "markdown", "csv")),
    (["bland-altman", PEFR, "--x", "wright", "--y", "mini_wright", "--proportional"],
     ("text", "json", "markdown", "csv")),
]  # fmt: skip
RUNS = [(args, fmt) for args, formats in COMMANDS for fmt in formats]


def _run_in(charset, args):
    out = CliRunner(charset=charset).invoke(main, args)
    assert out.exit_code == 0, out.output
    return out.stdout_bytes.decode(charset)


@pytest.mark.parametrize("charset", ["latin-1", "cp1252", "ascii"])
@pytest.mark.parametrize(("args", "fmt"), RUNS)
def test_output_fits_the_terminal(charset, args, fmt):
    text = _run_in(charset, [*args, "--format", fmt])
    utf8 = _run_in("utf-8", [*args, "--format", fmt])
    if fmt == "json":  # escaped where the charset lacks a character: the same values
        assert json.loads(text) == json.loads(utf8)
    elif charset == "ascii":
        assert text.isascii()
    if utf8.isascii() or charset == "utf-8":
        assert text == utf8  # nothing to fall back from: byte for byte as before


def test_the_kappa_explanation_in_ascii_spellings():
    args = COMMANDS[0][0]
    text = _run_in("latin-1", args)
    assert "(row totals x column totals) / n" in text  # ⊗, which Latin-1 lacks
    assert "kappa = 1 - sum W·O / sum W·E" in text  # κ, −, Σ; Latin-1 has ·
    assert "kappa = 1 - sum W*O / sum W*E" in _run_in("ascii", args)
    assert "κ = 1 − ΣW·O / ΣW·E" in _run_in("utf-8", args)


def test_help_is_ascii():
    for command in ([], ["kappa"], ["agree"], ["thresholds"], ["report"], ["bland-altman"]):
        out = CliRunner().invoke(main, [*command, "--help"])
        assert out.exit_code == 0 and out.output.isascii(), command


def test_an_output_that_cannot_be_encoded_is_not_blamed_on_the_file(monkeypatch):
    # were the fallback missing, the encoding error must not read as an error in FILE
    monkeypatch.setattr(terminal, "fitted", lambda text, encoding, as_json=False: text)
    out = CliRunner(charset="latin-1").invoke(main, COMMANDS[0][0])
    assert out.exit_code == 1
    assert f"{ESSAYS}:" not in out.output and "internal error (UnicodeEncodeError" in out.output


def test_errors_fit_the_terminal(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("a,b\n1,1\n2,2\n")
    args = ["kappa", str(path), "--rater1", "a", "--rater2", "κ"]
    out = CliRunner(charset="latin-1").invoke(main, args)
    assert out.exit_code == 1 and "no column 'kappa' for --rater2" in out.output


@pytest.mark.parametrize(
    "env", [{"PYTHONIOENCODING": "latin-1"}, {"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C"}]
)
def test_a_real_terminal_that_is_not_utf8(env):
    # the interpreter's own standard streams, as a shell gives them (not click's test runner)
    code = "from concord._cli import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", code, *COMMANDS[0][0]],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src"), **env},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    encoding = env.get("PYTHONIOENCODING", "utf-8")
    assert "Cohen's kappa, quadratic weights" in done.stdout.decode(encoding)
    if encoding == "ascii":
        assert done.stdout.isascii() and b"kappa = 1 - sum W*O / sum W*E" in done.stdout
