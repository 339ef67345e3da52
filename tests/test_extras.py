"""Each extra alone, in a fresh virtual environment: what it promises runs, and what it does
not install is one line naming the extra to install (issue 24, item 11).

The README's "Install" table says which extra each feature needs; this test holds it to
that. One wheelhouse is built per test process (``pip wheel`` of the checkout with every
extra: the only step that asks the package index), then every extra is installed from it
alone, offline (``--no-index``), into its own venv under pytest's tmp_path: parallel-safe,
nothing written into the checkout. The venvs have no pip of their own: this interpreter's
pip installs into them (``pip --python``).

Slow (about a minute and a half on two cores, most of it unpacking wheels); ``make test``
runs it, ``-m "not slow"`` leaves it out.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
DISTRIBUTION = "concord-agreement"

# Run in every venv first: a small panel, and `missing(thunk, extra)`, which asserts that
# the call raises an ImportError of one line that ends with the install command of `extra`.
PRELUDE = """
import concord
r = [[1, 2, 3], [1, 2, 3], [2, 2, 3], [1, 3, 3], [2, 2, 2], [3, 3, 3], [1, 1, 2], [2, 3, 3]]
x, y = [1, 2, 3, 1, 2, 3, 1, 2], [1, 2, 2, 1, 3, 3, 1, 2]
panel, llm = r * 4, [row[1] for row in r * 4]  # the Alt-Test needs 30 items

def missing(thunk, extra):
    try:
        thunk()
    except ImportError as exc:
        text = str(exc)
        assert "\\n" not in text, text
        assert text.endswith(f'pip install "concord-agreement[{extra}]"'), text
        return
    raise AssertionError(f"no ImportError; expected one naming [{extra}]")

def ml():
    import concord.ml
    return concord.ml.kappa_scorer()

def dask():
    import concord.dask

def report():
    import concord.report
    return concord.report.to_html([concord.fleiss_kappa(r)], plots=False)

def plot():
    import concord.plot
    return concord.plot.ObservedMatrixDisplay.from_result(concord.cohen_kappa(x, y)).plot()
"""

# What the numpy-only install does, and what it does not.
BASE = """
assert round(concord.cohen_kappa(x, y).statistic, 6) == 0.619048
assert "κ" in concord.cohen_kappa(x, y).summary()  # Fisher's z interval: no scipy
concord.cohen_kappa(x, y).confidence_interval(method="wald")
repr(concord.agree(r)), concord.fleiss_kappa(r).statistic, concord.icc(r).statistic
concord.krippendorff_alpha(r, level="interval").standard_error
concord.optimize_thresholds([1, 1, 2, 2, 3], [0.1, 0.3, 0.4, 0.6, 0.9]).thresholds
"""
NO_STATS = """
missing(lambda: concord.agree(r).summary(), "stats")
missing(lambda: concord.rater_diagnostics(r), "stats")
missing(lambda: concord.icc(r).confidence_interval(), "stats")
missing(lambda: concord.krippendorff_alpha(r).to_dict(), "stats")  # its p-value: Student's t
missing(lambda: concord.alt_test(panel, llm), "stats")
"""
NO_PANDAS = 'missing(lambda: concord.cohen_kappa(x, y).to_frame(), "pandas")\n'
NO_ML = 'missing(ml, "ml")\nmissing(lambda: concord.ThresholdClassifier, "ml")\n'
NO_DASK = 'missing(dask, "dask")\n'
NO_REPORT = 'missing(report, "report")\n'
NO_PLOT = 'missing(plot, "plot")\n'
STATS = """
concord.agree(r).summary(); concord.agree(r).to_dict(); concord.rater_diagnostics(r)
concord.icc(r).confidence_interval()
concord.alt_test(panel, llm)
concord.compare(concord.cohen_kappa, (x, y), (x, [1, 2, 3, 1, 2, 2, 1, 2])).explain()
"""
PANDAS = "concord.cohen_kappa(x, y).to_frame(); concord.fleiss_kappa(r).to_frame()\n"
ML = """
import numpy as np
from sklearn.linear_model import Ridge
from sklearn.model_selection import cross_val_score
from concord.ml import kappa_scorer, threshold_kappa_scorer
X = np.arange(60.0).reshape(-1, 1) % 7
target = np.clip(np.rint(X[:, 0] / 2), 0, 3).astype(int)
cross_val_score(concord.ThresholdClassifier(regressor=Ridge()), X, target, cv=3,
                scoring=threshold_kappa_scorer())
kappa_scorer()(concord.ThresholdClassifier().fit(X, target), X, target)
"""
PLOT = "import matplotlib; matplotlib.use('Agg'); plot()\n"
REPORT = """
import matplotlib; matplotlib.use('Agg')
import concord.report
assert "<html" in concord.report.to_html([concord.fleiss_kappa(r)], plots=True)
"""
FAST = """
from concord._tables import engines
assert engines._kernels() is not None  # the numba kernels load
import numpy as np
rng = np.random.default_rng(0)
a, b = rng.integers(0, 5, 300_000), rng.integers(0, 5, 300_000)
assert -0.01 < concord.cohen_kappa(a, b).statistic < 0.01
"""
ARRAY = "import array_api_compat; concord.cohen_kappa(x, y)\n"
DASK = """
import dask.array as da, numpy as np
import concord.dask
kappa = concord.dask.compute(concord.cohen_kappa, da.from_array(np.array([x, y]).T, chunks=4))
assert kappa.statistic == concord.cohen_kappa(x, y).statistic
"""

# extra: (what it promises, what it must refuse in one line)
EXTRAS = {
    "": (BASE, NO_STATS + NO_PANDAS + NO_ML + NO_DASK + NO_REPORT + NO_PLOT),
    "stats": (STATS, NO_PANDAS + NO_ML + NO_REPORT + NO_PLOT),
    "pandas": (PANDAS, NO_STATS + NO_ML + NO_DASK),
    "ml": (ML + STATS, NO_PANDAS + NO_REPORT),
    "plot": (PLOT, NO_STATS + NO_REPORT),
    "report": (REPORT + STATS, NO_PANDAS + NO_ML),
    "cli": (STATS + PANDAS, NO_ML + NO_REPORT + NO_PLOT),
    "fast": (FAST, NO_STATS + NO_PANDAS),
    "array": (ARRAY, NO_STATS + NO_PANDAS),
    "dask": (DASK + PANDAS, NO_STATS + NO_ML),
}


def _clean_env() -> dict[str, str]:
    """The environment without what would let this checkout's concord win over the venv's."""
    drop = {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    return {**env, "MPLBACKEND": "Agg", "PYTHONWARNINGS": "ignore"}


def _run(*args: object, cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=900,
    )
    if check:
        assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """concord's wheel and every extra's dependencies: the one step that asks the index."""
    folder = tmp_path_factory.mktemp("wheelhouse")
    every = ",".join(e for e in EXTRAS if e)
    _run(sys.executable, "-m", "pip", "wheel", "--quiet", "-w", folder, f"{ROOT}[{every}]",
         cwd=folder)  # fmt: skip
    return folder


def _venv(tmp_path: Path, wheelhouse: Path, extra: str) -> Path:
    """A fresh venv with concord and ``extra`` alone, installed offline from the wheelhouse."""
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    wanted = f"{DISTRIBUTION}[{extra}]" if extra else DISTRIBUTION
    # --no-compile: byte-compiling every module of scipy, pandas, ... is most of an install
    _run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-index",
         "--no-compile", "--find-links", wheelhouse, wanted, cwd=tmp_path)  # fmt: skip
    return venv


def _python(venv: Path, code: str, cwd: Path) -> None:
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    _run(python, "-c", textwrap.dedent(PRELUDE + code), cwd=cwd)


@pytest.mark.parametrize("extra", list(EXTRAS), ids=[e or "numpy-only" for e in EXTRAS])
def test_each_extra_alone(extra: str, wheelhouse: Path, tmp_path: Path) -> None:
    venv = _venv(tmp_path, wheelhouse, extra)
    promised, refused = EXTRAS[extra]
    _python(venv, promised + refused, tmp_path)  # one interpreter: imports compile once
    concord = venv / ("Scripts" if os.name == "nt" else "bin") / "concord"
    if extra == "cli":
        _cli_with_the_cli_extra(concord, tmp_path)
    elif extra == "":
        done = _run(concord, "--help", cwd=tmp_path, check=False)
        line = 'Error: the concord command line needs click: pip install "concord-agreement[cli]"'
        assert (done.returncode, done.stdout, done.stderr) == (1, "", line + "\n")


def _cli_with_the_cli_extra(concord: Path, tmp_path: Path) -> None:
    ratings = tmp_path / "ratings.csv"
    ratings.write_text("a,b,c\n1,1,2\n2,2,2\n3,2,3\n1,1,1\n2,3,2\n3,3,3\n")
    assert "Fleiss" in _run(concord, "agree", ratings, cwd=tmp_path).stdout
    # the report needs the report extra: one line that says so, not "internal error" (with
    # --no-plots too: tests/test_extras_messages.py)
    done = _run(concord, "report", ratings, "-o", tmp_path / "r.html", cwd=tmp_path, check=False)
    line = 'Error: concord.report needs jinja2: pip install "concord-agreement[report]"'
    assert (done.returncode, done.stderr) == (1, line + "\n"), done.stderr
    assert not (tmp_path / "r.html").exists()
