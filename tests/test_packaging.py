"""The distribution as users get it: the wheel built from this tree, installed into a fresh
virtual environment with the cli extra, runs ``concord`` and ``import concord``.

pip fetches hatchling (to build) and the cli extra's packages (to install) from the configured
index; the test takes about half a minute and leaves nothing in the repository.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "concord"
DISTRIBUTION = "concord-agreement"  # `concord` on PyPI is an unrelated project


def _run(*args, cwd, env):
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _clean_env():
    """The environment without what would let this checkout's concord win over the wheel's."""
    drop = {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP"}
    return {k: v for k, v in os.environ.items() if k not in drop}


def _check_wheel(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        (metadata,) = (n for n in names if n.endswith(".dist-info/METADATA"))
        headers = z.read(metadata).decode()
    assert f"\nName: {DISTRIBUTION}\n" in headers
    shipped = {
        "concord/" + p.relative_to(PACKAGE).as_posix()
        for p in PACKAGE.rglob("*")
        if p.is_file() and (p.suffix == ".py" or "templates" in p.parts)
    }
    assert shipped and any("/templates/" in n for n in shipped)
    assert shipped <= names, f"missing from the wheel: {sorted(shipped - names)}"


def test_the_wheel_installs_and_runs_in_a_fresh_venv(tmp_path):
    env = _clean_env()
    before = sorted(os.listdir(ROOT))
    wheels = tmp_path / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", wheels, ROOT,
         cwd=tmp_path, env=env)  # fmt: skip
    (wheel,) = wheels.glob("*.whl")
    assert wheel.name.startswith(DISTRIBUTION.replace("-", "_") + "-")
    _check_wheel(wheel)

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv, cwd=tmp_path, env=env)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python, concord = bin_dir / "python", bin_dir / "concord"
    _run(python, "-m", "pip", "install", "--quiet", f"{wheel}[cli]", cwd=tmp_path, env=env)

    assert "Usage: concord" in _run(concord, "--help", cwd=tmp_path, env=env)
    code = (
        "import concord; print(concord.__file__); "
        "print(concord.cohen_kappa([1, 2, 3], [1, 2, 2]).statistic)"
    )
    where, statistic = _run(python, "-c", code, cwd=tmp_path, env=env).split()
    assert Path(where).is_relative_to(venv)  # the wheel's concord, not this checkout's
    assert float(statistic) == pytest.approx(0.5)  # p_o = 2/3, p_e = (1·1 + 1·2)/9 = 1/3

    ratings = tmp_path / "ratings.csv"
    ratings.write_text("a,b\n1,1\n2,2\n3,2\n")
    args = ["kappa", ratings, "--rater1", "a", "--rater2", "b", "--format", "json"]
    record = json.loads(_run(concord, *args, cwd=tmp_path, env=env))
    assert record["statistic"] == pytest.approx(0.5) and record["n"] == 3
    version = wheel.name.split("-")[1]  # the distribution's version, as pip installed it
    assert _run(concord, "--version", cwd=tmp_path, env=env) == f"concord {version}\n"
    # the build wrote nothing into the checkout (build/ holds the browser tests' screenshots,
    # which a parallel run may write meanwhile)
    assert sorted(set(os.listdir(ROOT)) - {"build"}) == [p for p in before if p != "build"]


# --- the metadata, read from the files (no build) -----------------------------------------------
def _project():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _citation():
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def test_the_version_is_one_number_everywhere():
    import concord

    project, citation = _project(), _citation()
    assert "version" in project["dynamic"]  # hatch reads it from src/concord/_version.py
    assert citation["version"] == concord.__version__ == "0.2.0"
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    # Keep a Changelog: an "Unreleased" section may sit above the newest release
    heads = (x for x in changelog.splitlines() if x.startswith("## ["))
    released = (x for x in heads if "Unreleased" not in x)
    first = next(released)
    assert first == f"## [{concord.__version__}] - {citation['date-released']}"


def test_classifiers_and_urls():
    project = _project()
    classifiers = set(project["classifiers"])
    lowest = int(project["requires-python"].removeprefix(">=3."))
    for minor in range(lowest, 14):
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
    assert "Typing :: Typed" in classifiers and (PACKAGE / "py.typed").is_file()
    assert "Intended Audience :: Science/Research" in classifiers
    # PEP 639: the SPDX expression replaces license classifiers, which must not repeat it
    assert project["license"] == "MIT" and not any(c.startswith("License ::") for c in classifiers)
    urls = project["urls"]
    assert set(urls) == {"Homepage", "Documentation", "Changelog", "Issues"}
    assert all(u.startswith(urls["Homepage"]) for u in urls.values())
    assert urls["Changelog"].endswith("/CHANGELOG.md")


def test_the_citation_file():
    project, citation = _project(), _citation()
    assert citation["cff-version"] == "1.2.0"
    assert {"message", "title", "authors", "version", "date-released"} <= set(citation)
    assert citation["license"] == project["license"]
    assert citation["repository-code"] == project["urls"]["Homepage"]
    assert [a["name"] for a in citation["authors"]] == [a["name"] for a in project["authors"]]
