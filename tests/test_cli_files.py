"""Files the CLI writes (-o, --save): whole or not at all, never replaced unasked.

Each test names the fault it provokes; every error is one line with exit status 1
(a file problem) or 2 (options that do not go together).
"""

from __future__ import annotations

import json
import os
import stat

import pytest
from click.testing import CliRunner

from concord._cli import output as _cli_output
from concord._cli.main import main

SCORES = "truth,score\n1,0.1\n1,0.3\n1,0.9\n2,1.2\n2,1.4\n2,2.2\n3,2.6\n3,2.9\n3,3.5\n3,3.1\n"
OLD = "the old content\n"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(out, status=1):
    assert out.exit_code == status, out.output
    assert "Traceback" not in out.output
    message = out.output.strip().splitlines()[-1]
    assert message.startswith("Error: ")
    return message


@pytest.fixture
def scores(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text(SCORES)
    return path


@pytest.fixture
def cuts(tmp_path, scores):
    path = tmp_path / "cuts.json"
    out = run("thresholds", scores, "--truth", "truth", "--score", "score", "--cv", "2",
              "--save", path)  # fmt: skip
    assert out.exit_code == 0, out.output
    return path


def save(scores, path, *extra):
    return run("thresholds", scores, "--truth", "truth", "--score", "score", "--cv", "2",
               "--save", path, *extra)  # fmt: skip


def apply(scores, cuts, path, *extra):
    return run("thresholds", scores, "--score", "score", "--apply", cuts, "-o", path, *extra)


def report(scores, path, *extra):
    ratings = scores.with_name("ratings.csv")
    ratings.write_text("a,b\n1,1\n2,2\n1,2\n2,2\n1,1\n")
    return run("report", ratings, "--rater1", "a", "--rater2", "b", "--no-plots", "-o", path,
               *extra)  # fmt: skip


def writers(scores, cuts):
    """Each command that writes a file, with the option that names it."""
    return {
        "--save": lambda path, *extra: save(scores, path, *extra),
        "-o of --apply": lambda path, *extra: apply(scores, cuts, path, *extra),
        "-o of report": lambda path, *extra: report(scores, path, *extra),
    }


WRITERS = ["--save", "-o of --apply", "-o of report"]


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


@pytest.mark.parametrize("writer", WRITERS)
def test_an_existing_file_is_replaced_only_with_overwrite(writer, tmp_path, scores, cuts):
    write = writers(scores, cuts)[writer]
    target = tmp_path / "existing.out"
    target.write_text(OLD)
    message = one_line_error(write(target))
    option = writer.split(" ")[0]
    assert f"{target} exists. Pass --overwrite to replace it, or pick another {option}." in message
    assert target.read_text() == OLD
    out = write(target, "--overwrite")
    assert out.exit_code == 0, out.output
    assert target.read_text() != OLD and leftovers(tmp_path) == []


@pytest.mark.parametrize("writer", WRITERS)
def test_a_missing_folder_is_one_line(writer, tmp_path, scores, cuts):
    target = tmp_path / "no-such-folder" / "out"
    message = one_line_error(writers(scores, cuts)[writer](target))
    assert f"cannot write {target}: {target.parent} does not exist. Create the folder" in message


def test_a_folder_as_target_is_one_line(tmp_path, scores):
    message = one_line_error(save(scores, tmp_path))
    assert message == f"Error: {tmp_path} is a folder; give --save a file name."


def test_an_unwritable_folder_is_refused_before_the_work(tmp_path, scores, monkeypatch):
    # os.access stands in for a read-only folder: root, who runs CI, may write anywhere
    monkeypatch.setattr(_cli_output.os, "access", lambda path, mode: False)
    message = one_line_error(save(scores, tmp_path / "cuts.json"))
    assert f"no permission to write in {tmp_path}. Pick another --save." in message


def test_a_write_that_fails_is_one_line(tmp_path, scores, monkeypatch):
    def refuse(**kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(_cli_output.tempfile, "mkstemp", refuse)
    message = one_line_error(report(scores, tmp_path / "r.html"))
    assert message == f"Error: cannot write {tmp_path / 'r.html'} (Permission denied). " + (
        "Pick another -o."
    )


def test_an_interrupted_write_leaves_the_old_file(tmp_path, scores, cuts, monkeypatch):
    """Ctrl-C after part of the CSV is written: the old file stays, no temporary file is left."""
    import pandas as pd

    target = tmp_path / "graded.csv"
    target.write_text(OLD)

    def half_then_interrupt(frame, fh, **kwargs):
        fh.write("essay_id,grade\n1,")
        raise KeyboardInterrupt

    monkeypatch.setattr(pd.DataFrame, "to_csv", half_then_interrupt)
    out = apply(scores, cuts, target, "--overwrite")
    assert out.exit_code == 1 and "Aborted!" in out.output
    assert target.read_text() == OLD
    assert leftovers(tmp_path) == []


def test_a_full_disk_leaves_the_old_file(tmp_path, scores, monkeypatch):
    target = tmp_path / "cuts.json"
    target.write_text(OLD)

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_cli_output.os, "fsync", full)
    message = one_line_error(save(scores, target, "--overwrite"))
    assert f"cannot write {target} (No space left on device)" in message
    assert target.read_text() == OLD and leftovers(tmp_path) == []


def test_written_files_get_the_usual_permissions(tmp_path, scores):
    # mkstemp makes its file private (0600); the renamed file must not stay so
    target = tmp_path / "cuts.json"
    assert save(scores, target).exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    target.chmod(0o640)
    assert save(scores, target, "--overwrite").exit_code == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_symbolic_link_stays_a_link(tmp_path, scores):
    real = tmp_path / "real.json"
    real.write_text(OLD)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    assert save(scores, link, "--overwrite").exit_code == 0
    assert link.is_symlink() and json.loads(real.read_text())["format"] == "concord-thresholds/1"


def test_apply_refuses_to_replace_a_column(tmp_path, scores, cuts):
    import pandas as pd

    graded = tmp_path / "graded.csv"
    graded.write_text(SCORES.replace("truth", "grade"))
    message = one_line_error(run("thresholds", graded, "--score", "score", "--apply", cuts))
    assert message == (
        f"Error: {graded} already has a column 'grade'. Name the grades' column with "
        "--grade-column NAME, or pass --overwrite to replace it."
    )
    out = run("thresholds", graded, "--score", "score", "--apply", cuts, "--grade-column", "new")
    assert out.exit_code == 0, out.output
    assert out.stdout.splitlines()[0] == "grade,score,new"
    out = run("thresholds", graded, "--score", "score", "--apply", cuts, "--overwrite")
    assert out.exit_code == 0, out.output
    from io import StringIO

    result = pd.read_csv(StringIO(out.stdout))
    assert list(result.columns) == ["grade", "score"]  # replaced where it was
    assert result["grade"].is_monotonic_increasing  # the scores are sorted in SCORES


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--truth", "truth", "-o", "x.csv"], "-o writes the CSV of --apply; write fitted cut"),
        (["--apply", "CUTS", "--save", "x.json"], "--save writes fitted cut points; with --apply"),
    ],
)
def test_an_output_option_the_mode_ignores_is_a_usage_error(extra, fragment, scores, cuts):
    extra = [str(cuts) if e == "CUTS" else e for e in extra]
    message = one_line_error(run("thresholds", scores, "--score", "score", *extra), status=2)
    assert fragment in message
