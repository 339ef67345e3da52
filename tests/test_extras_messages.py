"""A missing optional package is one line naming the extra to install (issue 24, item 11).

In this process, with the package hidden (``sys.modules[name] = None`` makes its import
fail as an absent package's does); tests/test_extras.py installs each extra alone for
real. Every lazy import of an optional package in the library goes through
``concord._common.extras.require``: the last test reads the source to hold it so.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import concord
from concord._cli.main import main
from concord._common.extras import MissingExtraError, require

SRC = Path(__file__).resolve().parents[1] / "src" / "concord"
SCIPY = ("scipy", "scipy.special", "scipy.stats")
R = [[1, 2, 3], [1, 2, 3], [2, 2, 3], [1, 3, 3], [2, 2, 2], [3, 3, 3], [1, 1, 2], [2, 3, 3]]


def _line(what: str, package: str, extra: str) -> str:
    return f'{what} needs {package}: pip install "concord-agreement[{extra}]"'


def test_require_imports_or_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    assert require("fractions", "stats", "x").Fraction(1, 2) == 0.5
    monkeypatch.setitem(sys.modules, "sklearn", None)
    monkeypatch.setitem(sys.modules, "sklearn.metrics", None)  # imported by an earlier test
    with pytest.raises(MissingExtraError) as caught:
        require("sklearn.metrics", "ml", "concord.ml.kappa_scorer")
    assert str(caught.value) == _line("concord.ml.kappa_scorer", "scikit-learn", "ml")
    assert isinstance(caught.value, ImportError) and caught.value.extra == "ml"
    assert caught.value.name == "sklearn"


def test_a_package_that_is_there_but_broken_is_not_called_missing(tmp_path, monkeypatch) -> None:
    # a package whose own import fails on something else keeps its error
    (tmp_path / "brokenpkg").mkdir()
    (tmp_path / "brokenpkg" / "__init__.py").write_text("import not_a_module_anywhere\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="not_a_module_anywhere") as caught:
        require("brokenpkg", "stats", "x")
    assert not isinstance(caught.value, MissingExtraError)


@pytest.mark.parametrize(
    ("hidden", "call", "what", "package", "extra"),
    [
        (SCIPY, lambda: concord.agree(R).summary(), None, "scipy", "stats"),
        (SCIPY, lambda: concord.rater_diagnostics(R), None, "scipy", "stats"),
        (SCIPY, lambda: concord.icc(R).confidence_interval(), None, "scipy", "stats"),
        (("pandas",), lambda: concord.agree(R).to_frame(), "AgreementTable.to_frame", "pandas",
         "pandas"),
        (("sklearn", "sklearn.metrics"), lambda: __import__("concord.ml").ml.kappa_scorer(),
         "concord.ml.kappa_scorer", "scikit-learn", "ml"),
    ],
)  # fmt: skip
def test_the_library_says_which_extra(monkeypatch, hidden, call, what, package, extra) -> None:
    for name in hidden:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError) as caught:
        call()
    text = str(caught.value)
    assert "\n" not in text and "No module named" not in text
    assert text.endswith(f'needs {package}: pip install "concord-agreement[{extra}]"')
    if what is not None:
        assert text == _line(what, package, extra)


def test_threshold_classifier_without_scikit_learn(monkeypatch) -> None:
    for name in [m for m in sys.modules if m == "sklearn" or m.startswith("sklearn.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delitem(sys.modules, "concord._thresholds.estimator", raising=False)
    monkeypatch.setitem(sys.modules, "sklearn", None)
    with pytest.raises(ImportError) as caught:
        concord.ThresholdClassifier  # noqa: B018
    assert str(caught.value) == _line("concord.ThresholdClassifier", "scikit-learn", "ml")


@pytest.mark.parametrize("plots", [[], ["--no-plots"]])
def test_concord_report_without_jinja2_is_one_line(tmp_path, monkeypatch, plots) -> None:
    # `pip install "concord-agreement[cli]"` has no jinja2: it said "internal error ... defect"
    path = tmp_path / "r.csv"
    path.write_text("a,b,c\n1,1,2\n2,2,2\n3,2,3\n1,1,1\n2,3,2\n3,3,3\n")
    monkeypatch.setitem(sys.modules, "jinja2", None)
    out = CliRunner().invoke(main, ["report", str(path), "-o", str(tmp_path / "r.html"), *plots])
    assert out.exit_code == 1
    line = _line("concord.report", "jinja2", "report")
    assert out.output == f"Error: {line}\n"
    assert not (tmp_path / "r.html").exists()


def test_the_console_script_without_click_is_one_line() -> None:
    import subprocess

    code = (
        "import sys; sys.modules['click'] = None; "
        "import importlib.util; real = importlib.util.find_spec; "
        "importlib.util.find_spec = lambda n, *a: None if n == 'click' else real(n, *a); "
        "from concord._cli import main; main()"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    line = _line("the concord command line", "click", "cli")
    assert (done.returncode, done.stdout, done.stderr) == (1, "", f"Error: {line}\n")


# --- every lazy import of an optional package goes through require() ---------------------------
OPTIONAL = {
    "scipy", "pandas", "sklearn", "jinja2", "markupsafe", "matplotlib", "pyarrow", "numba",
    "dask", "distributed", "array_api_compat", "tqdm", "click", "openpyxl", "tabulate",
}  # fmt: skip
# (module, optional package): imports allowed without require(), and why
ALLOWED = {
    # the command line checks the cli extra once, when concord._cli loads (find_spec)
    **{
        (p.relative_to(SRC).as_posix(), m): "the cli extra, checked when concord._cli loads"
        for p in (SRC / "_cli").rglob("*.py")
        for m in ("click", "pandas", "pyarrow", "tqdm")
    },
    # loaded only through engines._kernels(), which falls back to numpy without numba
    ("_tables/kernels.py", "numba"): "a fallback",
    ("_tables/rater_kernels.py", "numba"): "a fallback",
    ("_tables/dyadic_kernels.py", "numba"): "a fallback",
    ("_tables/block_kernels.py", "numba"): "a fallback",
    # a faster path where the package is already loaded, or an optional progress bar
    ("_data/convert.py", "pandas"): "only when pandas is in sys.modules",
    ("_data/convert.py", "pyarrow"): "only for Arrow-backed data, which brings pyarrow",
    ("_data/frames.py", "pyarrow"): "only for pyarrow arrays and batches, which bring pyarrow",
    ("_data/long.py", "pandas"): "only when pandas is in sys.modules or the data are pandas'",
    ("_studies/evaluate/evaluate_inputs.py", "pandas"): "a fallback (ImportError caught)",
    ("_streaming/long.py", "pandas"): "a fallback (ImportError caught)",
    ("_inference/intervals.py", "tqdm"): "a fallback (ImportError caught)",
    ("_data/arrays.py", "array_api_compat"): "a fallback (ImportError caught)",
    # require() runs first, at the top of the module
    ("dask.py", "dask"): "require() before the imports",
    ("_thresholds/estimator.py", "sklearn"): "require() before the imports",
}


def _imports(tree: ast.AST) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []  # annotations only
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name.partition(".")[0], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module.partition(".")[0], node.lineno))
    return found


def test_every_optional_import_goes_through_require() -> None:
    stray = []
    for path in sorted(SRC.rglob("*.py")):
        module = path.relative_to(SRC).as_posix()
        for name, line in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if name in OPTIONAL and (module, name) not in ALLOWED:
                stray.append(f"{module}:{line} imports {name}")
    assert not stray, "import these with concord._common.extras.require: " + "; ".join(stray)
