"""Issue 30: ``concord kappa`` reads a small plain file without pandas or pyarrow, same answer.

The quick reader (:mod:`concord._cli.reading.small`) is a strict subset of the
usual one: each case below runs through both (``CONCORD_SMALL_READER=0`` turns
the quick one off) and must print the same thing, byte for byte, with the
same exit status; the cases marked quick must be read by the quick reader,
the others (errors, odd files) must be left to the usual one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from concord._cli.main import main
from concord._cli.reading import small

NUMBERS = "a,b\n1,1\n2,2\n3,2\n1,1\n2,3\n3,3\n1,2\n2,2\n3,3\n1,1\n"
TEXT = "x,y\npos,pos\nneg,neg\nneu,pos\npos,pos\nneg,neu\nneu,neu\npos,neg\nneg,neg\n"

# (name, file name, file bytes, arguments after the file, read by the quick reader)
CASES = [
    ("numbers, the only two columns", "n.csv", NUMBERS, [], True),
    (
        "numbers json",
        "n.csv",
        NUMBERS,
        ["--rater1", "b", "--rater2", "a", "--format", "json"],
        True,
    ),
    ("quadratic", "n.csv", NUMBERS, ["--weights", "quadratic", "--format", "markdown"], True),
    (
        "three columns",
        "t.csv",
        "id,a,b\n1,1,2\n2,2,2\n3,1,1\n4,2,1\n",
        ["--rater1", "a", "--rater2", "b"],
        True,
    ),
    ("text", "t.csv", TEXT, ["--format", "json"], True),
    ("text labels", "t.csv", TEXT, ["--labels", "neg,neu,pos", "--weights", "linear"], True),
    (
        "unicode text",
        "u.csv",
        "a,b\nnégatif,négatif\npositif,négatif\npositif,positif\n",
        [],
        True,
    ),
    ("case counts", "c.csv", "a,b\nYes,yes\nyes,yes\nNo,No\nno,No\n", ["--format", "json"], True),
    ("spaces trimmed", "s.csv", "a,b\n 1 ,1\n2,\t2\n 3,3 \n1,2\n", ["--format", "json"], True),
    (
        "float forms",
        "f.csv",
        "a,b\n1.5,1.5\n.5,0.5\n+2,2\n1e0,1\n2.,2\n",
        ["--format", "json"],
        True,
    ),
    ("crlf", "r.csv", "a,b\r\n1,1\r\n2,2\r\n1,2\r\n", [], True),
    ("tsv", "t.tsv", NUMBERS.replace(",", "\t"), ["--format", "json"], True),
    (
        "semicolon",
        "s.csv",
        NUMBERS.replace(",", ";"),
        ["--delimiter", ";", "--format", "csv"],
        True,
    ),
    ("txt", "t.txt", NUMBERS, [], True),
    ("no final newline", "n.csv", NUMBERS.rstrip("\n"), [], True),
    ("missing, omitted", "m.csv", "a,b\n1,1\n2,\n,3\n3,3\n1,2\n", ["--nan-policy", "omit"], True),
    ("missing, fail", "m.csv", "a,b\n1,1\n2,\n3,3\n1,2\n", [], True),
    (
        "na-values",
        "m.csv",
        "a,b\n1,1\n2,NA\n3,3\n1,2\n",
        ["--na-values", "NA", "--nan-policy", "omit"],
        True,
    ),
    ("numeric labels", "n.csv", NUMBERS, ["--labels", "1,2,3,4", "--format", "json"], True),
    ("text labels, numbers", "n.csv", NUMBERS, ["--labels", "1,2,3,x", "--format", "json"], True),
    ("a rating not in labels", "t.csv", TEXT, ["--labels", "neg,pos"], True),
    ("text missing, omitted", "m.csv", "a,b\nx,x\ny,\n,x\nx,y\n", ["--nan-policy", "omit"], True),
    ("text missing, fail", "m.csv", "a,b\nx,x\ny,\nx,y\n", ["--format", "json"], True),
    (
        "text na-values",
        "m.csv",
        "a,b\nx,x\ny,?\nx,y\n",
        ["--na-values", "?,NA", "--nan-policy", "omit"],
        True,
    ),
    ("minus zero", "z.csv", "a,b\n-0,0\n1,1\n0,1\n", ["--format", "json"], False),
    ("minus zero, decimals", "z.csv", "a,b\n-0.0,0.5\n1,1\n0,1\n", ["--format", "json"], False),
    ("a text marker", "t.csv", "a,b\nx,x\ny,NA\nx,y\n", [], False),
    ("a marker in numbers", "t.csv", "a,b\n1,1\n2,NA\n1,2\n", [], False),
    ("another marker", "t.csv", "a,b\nx,x\ny,n/a\nx,y\n", [], False),
    ("numbers among text", "t.csv", "a,b\nx,x\ny,3\nx,y\n", [], False),
    ("text column beside numbers", "t.csv", "a,b\nx,1\ny,2\nx,1\n", [], False),
    ("no such column", "n.csv", NUMBERS, ["--rater1", "aa", "--rater2", "b"], False),
    ("one rater option", "n.csv", NUMBERS, ["--rater1", "a"], False),
    ("the same rater twice", "n.csv", NUMBERS, ["--rater1", "a", "--rater2", "a"], False),
    ("three columns, no raters", "t.csv", "id,a,b\n1,1,2\n2,2,2\n", [], False),
    ("duplicate names", "d.csv", "a,a\n1,1\n2,2\n", [], False),
    ("one column", "o.csv", "a;b\n1;1\n2;2\n", [], False),
    ("empty", "e.csv", "", [], False),
    ("header only", "h.csv", "a,b\n", [], False),
    ("no ratings", "h.csv", "a,b\n,\n,\n", [], False),
    ("a column with no rating", "h.csv", "a,b\n1,\n2,\n", ["--nan-policy", "omit"], False),
    ("a short row", "w.csv", "a,b\n1,1\n2\n3,3\n", [], False),
    ("a long row", "w.csv", "a,b\n1,1\n2,2,2\n3,3\n", [], False),
    ("a blank line", "b.csv", "a,b\n1,1\n\n2,2\n1,2\n", [], False),
    ("quoted fields", "q.csv", 'a,b\n"1",1\n2,"2"\n"3","3"\n1,2\n', [], False),
    ("a quoted comma", "q.csv", 'a,b\n"x,y",x\nz,z\nz,"x,y"\n', [], False),
    ("a byte order mark", "bom.csv", "\ufeff" + NUMBERS, [], False),
    ("a long integer", "l.csv", "a,b\n12345678901234567,1\n2,2\n", [], False),
    ("nan as a number", "l.csv", "a,b\n1,1\n2,nan\n2,2\n", [], False),
    ("a huge exponent", "l.csv", "a,b\n1e400,1\n2,2\n1,1\n", [], False),
    ("a tiny exponent", "l.csv", "a,b\n1e-400,1\n2,2\n1,1\n", [], False),
    ("a control character", "l.csv", "a,b\nx\x01,x\ny,y\nx,y\n", [], False),
    ("inf", "l.csv", "a,b\n1,1\n2,inf\n2,2\n", [], False),
    ("a lone carriage return", "r.csv", "a,b\r1,1\r2,2\r1,2\r", [], False),
    ("no-break space", "s.csv", "a,b\n1\u00a0,1\n2,2\n1,2\n", [], False),
    ("latin-1 declared", "n.csv", NUMBERS, ["--encoding", "latin-1"], False),
    ("stream", "n.csv", NUMBERS, ["--chunk-rows", "3"], False),
]
BYTES = [
    ("not utf-8", "x.csv", b"a,b\nbl\xe9,bl\xe9\nx,x\nx,bl\xe9\n", [], False),
]


def invoke(path: Path, args: list[str], quick: bool, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CONCORD_SMALL_READER", "1" if quick else "0")
    out = CliRunner().invoke(main, ["kappa", str(path), *args, "--quiet"])
    return out.exit_code, out.output


@pytest.mark.parametrize(
    ("name", "file", "content", "args", "quick"), [*CASES, *BYTES], ids=lambda v: str(v)[:30]
)
def test_both_readers_print_the_same(tmp_path, monkeypatch, name, file, content, args, quick):
    path = tmp_path / file
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_bytes(content.encode("utf-8"))
    answers: list[object] = []
    real = small.two_raters

    def spy(*a, **k):
        answers.append(real(*a, **k))
        return answers[-1]

    monkeypatch.setattr(small, "two_raters", spy)
    usual = invoke(path, args, False, monkeypatch)
    quick_out = invoke(path, args, True, monkeypatch)
    assert quick_out == usual, name
    assert "Traceback" not in usual[1]
    # the quick reader answered (or stood aside) as the case says
    assert (answers[-1] is not None) is quick if answers else not quick, name


@pytest.mark.parametrize("content", [NUMBERS, TEXT])
def test_a_quick_read_agrees_with_a_streamed_one(tmp_path, monkeypatch, content):
    path = tmp_path / "r.csv"
    path.write_text(content)
    whole = invoke(path, ["--format", "json"], True, monkeypatch)
    chunked = invoke(path, ["--format", "json", "--chunk-rows", "3"], True, monkeypatch)
    assert whole[0] == chunked[0] == 0
    assert json.loads(whole[1]) == json.loads(chunked[1])


def test_a_small_file_starts_neither_pandas_nor_pyarrow(tmp_path):
    path = tmp_path / "small.csv"
    path.write_text(NUMBERS)
    code = (
        "import sys\n"
        "from concord._cli import main\n"
        f"sys.argv = ['concord', 'kappa', {str(path)!r}, '--rater1', 'a', '--rater2', 'b']\n"
        "try:\n    main()\nexcept SystemExit as exit:\n    assert not exit.code, exit.code\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('pandas', 'pyarrow'))\n"
        "print('LOADED', loaded)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CONCORD_SMALL_READER"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert "LOADED []" in done.stdout, done.stdout + done.stderr
    assert "κ = " in done.stdout  # and it computed kappa


def test_the_quick_reader_knows_the_same_markers():
    from concord._cli.reading.cells import MARKERS

    assert small.MARKERS == MARKERS


CELLS = ["1", "2", "3", " 2", "2.0", "+1", ".5", "1e2", "x", "y", "Y", " x ", "", "NA", "é"]
OPTIONS = [[], ["--nan-policy", "omit"], ["--na-values", "NA"], ["--labels", "x,y,Y,é"]]


@pytest.mark.parametrize("seed", range(30))
def test_random_small_files_print_the_same_both_ways(tmp_path, monkeypatch, seed):
    # numbers, text, blanks and markers drawn at random: whatever each reader makes of a file
    # (an answer or an error), the two make the same of it
    import random

    draw = random.Random(seed)
    numbers = draw.random() < 0.5  # mostly numbers, or mostly text
    pool = CELLS[:8] if numbers else CELLS[8:]
    rows = [
        [draw.choice(pool if draw.random() < 0.9 else CELLS) for _ in range(2)]
        for _ in range(draw.randint(1, 8))
    ]
    path = tmp_path / "random.csv"
    path.write_text("a,b\n" + "".join(",".join(r) + "\n" for r in rows), encoding="utf-8")
    args = [*draw.choice(OPTIONS), "--format", draw.choice(["text", "json"])]
    assert invoke(path, args, True, monkeypatch) == invoke(path, args, False, monkeypatch)
