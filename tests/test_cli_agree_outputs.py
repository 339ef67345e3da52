"""``concord agree`` prints what it printed before its speed-ups, byte for byte.

Expected outputs: tests/reference/agree_outputs.json, written by this module
(``python tests/test_cli_agree_outputs.py WRITE``) with the code of commit
04ec094 (before the one-pass route asked the engine once), on bundled data and
on seeded files: missing ratings, text labels, a missing marker that sends the
file to the text path, and a file large enough for the one-pass route (counted
by numpy and by the numba kernels: the same output).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

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
    target = path / f"{name}.csv"
    lines = ["a,b,c", *(",".join(row) for row in cells.tolist())]
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
    "large": ("large", []),
    "large_light": ("large", ["--coefficients", "light,gwet", "--weights", "quadratic"]),
}


def _run(tmp: Path, case: str, fmt: str) -> str:
    file, extra = CASES[case]
    path = ROOT / file if file.startswith("data/") else _seeded(tmp, file)
    got = CliRunner().invoke(main, ["agree", str(path), "--format", fmt, "--quiet", *extra])
    assert got.exit_code == 0, got.output
    return got.output.replace(str(path), file)


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


if __name__ == "__main__" and sys.argv[1:] == ["WRITE"]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        found = {f"{c}/{f}": _run(Path(tmp), c, f) for c in CASES for f in FORMATS}
    EXPECTED.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
