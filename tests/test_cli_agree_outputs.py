"""``concord agree`` prints what it printed before its speed-ups, byte for byte.

Expected outputs: tests/reference/agree_outputs.json, written by this module
(``python tests/test_cli_agree_outputs.py WRITE``) with the code of commit
04ec094 (before the one-pass route asked the engine once; the speed-ups printed
them byte for byte), and again when the standard errors' sums became exact
(their last digits changed, the same on every CPU), on bundled data and
on seeded files: missing ratings, text labels, a missing marker that sends the
file to the text path, and a file large enough for the one-pass route (counted
by numpy and by the numba kernels: the same output).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from concord._cli import output
from concord._cli.main import main
from concord._tables import engines as _count

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = Path(__file__).parent / "reference" / "agree_outputs.json"
FORMATS = ("text", "json", "csv", "markdown")


def _seeded(path: Path, name: str) -> Path:
    """Write the seeded file ``name`` (the same bytes on every run) and return its path."""
    rng = np.random.default_rng(sum(map(ord, name)))
    n = 50_000 if name == "large" else 300
    truth = rng.integers(0, 5, n)
    codes = np.clip(truth[:, None] + rng.integers(-1, 2, (n, 3)), 0, 4)
    cells = codes.astype(str).astype(object)
    if name == "words":
        cells = np.array(["zero", "low", "mid", "high", "top"], dtype=object)[codes]
    cells[rng.random((n, 3)) < 0.1] = "NA" if name == "marker" else ""
    if name == "marker":
        cells[0, 0] = "NA"
    if name == "halves":  # not whole numbers: the coefficients' validating path
        cells = np.where(cells == "", "", (codes / 2).astype(str).astype(object))
    if name == "empty_rater":
        cells[:, 2] = ""
    header, rows = "a,b,c", [",".join(row) for row in cells.tolist()]
    if name == "with_id":  # an id column, found and left out (a note on stderr)
        header, rows = "item," + header, [f"{i + 1},{row}" for i, row in enumerate(rows)]
    target = path / f"{name}.csv"
    lines = [header, *rows]
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


# name → (file: bundled path or seeded name, extra options)
CASES = {
    "fleiss1971": ("data/fleiss1971_diagnoses.csv", []),
    "essays_quadratic": (
        "data/essays.csv",
        ["--raters", "rater1,rater2,rater3", "--weights", "quadratic"],
    ),
    "krippendorff2011": ("data/krippendorff2011.csv", []),
    "missing": ("missing", []),
    "missing_linear": (
        "missing",
        ["--weights", "linear", "--coefficients", "fleiss,conger,alpha"],
    ),
    "words": ("words", []),
    "marker": ("marker", ["--na-values", "NA"]),
    "halves": ("halves", []),
    "empty_rater": ("empty_rater", ["--coefficients", "percent,fleiss,gwet,alpha"]),
    "with_id": ("with_id", []),
    "large": ("large", []),
    "large_light": ("large", ["--coefficients", "light,gwet", "--weights", "quadratic"]),
}


def _run(tmp: Path, case: str, fmt: str) -> str:
    file, extra = CASES[case]
    path = ROOT / file if file.startswith("data/") else _seeded(tmp, file)
    got = CliRunner().invoke(main, ["agree", str(path), "--format", fmt, "--quiet", *extra])
    assert got.exception is None or isinstance(got.exception, SystemExit), got.output
    status = f"exit {got.exit_code}\n" if got.exit_code else ""  # an error says the same
    return status + got.output.replace(str(path), file)


@pytest.fixture(scope="module")
def expected() -> dict[str, str]:
    return dict(json.loads(EXPECTED.read_text(encoding="utf-8")))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", CASES)
def test_agree_prints_what_it_printed_before(tmp_path, expected, case, fmt):
    assert _run(tmp_path, case, fmt) == expected[f"{case}/{fmt}"]


@pytest.mark.parametrize("engine", ["numpy", "numba"])
def test_the_large_file_prints_the_same_on_either_engine(tmp_path, monkeypatch, expected, engine):
    if engine == "numba":
        if _count._kernels() is None:
            pytest.skip("numba is not installed")
        monkeypatch.setattr(_count, "_LOAD_MIN", 0)
    else:
        monkeypatch.setattr(_count, "_NUMBA_MIN", 1 << 62)
    for fmt in ("text", "json"):
        assert _run(tmp_path, "large", fmt) == expected[f"large/{fmt}"]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_csv_of_numbers_is_counted_without_pandas_or_numba(tmp_path, expected, fmt):
    """The typed read's block goes to the coefficients and the table is laid out without pandas.

    A fresh process: pandas (0.4 s to import) and numba (0.5–1 s) stay unloaded.
    """
    path = _seeded(tmp_path, "large")
    script = (
        "import sys; from concord._cli import main\n"
        "try: main()\nexcept SystemExit: pass\n"
        "print(sorted(m for m in ('pandas', 'numba') if m in sys.modules))"
    )
    args = [sys.executable, "-c", script, "agree", str(path), "--format", fmt, "--quiet"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    got = subprocess.run(args, capture_output=True, text=True, check=True, env=env)
    *printed, loaded = got.stdout.rstrip("\n").split("\n")
    assert loaded == "[]"
    assert "\n".join(printed).replace(str(path), "large") + "\n" == expected[f"large/{fmt}"]


@pytest.mark.parametrize("seed", range(300))
def test_the_plain_text_table_is_pandas_to_string(seed):
    """output._plain_text lays a table out as DataFrame.to_string(index=False), or says None."""
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(seed)
    alphabet = [*"aB09 -.[]()<%,e+_:/", "\u2212", "\u00e9"]

    def word() -> str:
        return "".join(rng.choice(alphabet, size=int(rng.choice([0, 1, 2, 5, 12]))))

    keys = list(dict.fromkeys(word() for _ in range(int(rng.integers(1, 7)))))
    rows = [{k: word() for k in keys} for _ in range(int(rng.integers(1, 9)))]
    got = output._plain_text(rows)
    if got is not None:
        assert got == pd.DataFrame(rows).to_string(index=False)


if __name__ == "__main__" and sys.argv[1:] == ["WRITE"]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        found = {f"{c}/{f}": _run(Path(tmp), c, f) for c in CASES for f in FORMATS}
    EXPECTED.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
