"""The command line is thin: it calls the public API, or the few internals documented for it.

Every ``concord`` module a ``concord._cli`` module imports is either public
or listed in :data:`ALLOWED` with the reason the CLI needs it, and no CLI
module reaches for a private attribute (``obj._name``) that the CLI does not
define itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CLI = Path(__file__).resolve().parents[1] / "src" / "concord" / "_cli"
ALLOWED = {
    "concord._version": "the version --version prints and the cut-point file records",
    "concord._common.options": "the option vocabulary the CLI's choices are made of",
    "concord._render.records": "the summary rows and JSON records, shared with the HTML report",
    "concord._render.continuous": "the rows of continuous results, shared with the HTML report",
    "concord._render.evaluation": "the tables of an evaluation, shared with the HTML report",
    "concord._inference.intervals": "quiet() and progress(): the library's progress bars",
    "concord._thresholds.cut_file": "the cut-point file format: reading, checking, grading",
    "concord._streaming.relevel": "alpha's δ² set once a stream's labels are known",
    "concord._coefficients.registry": "the coefficients concord agree reports",
    "concord._results.sentence": "summary()'s sentence with the interval the table printed",
    "concord._common.errors": "problem_of(): a library error's parts, said in the CLI's words",
    "concord._data.long": "first_repeat: the long form's repeated-pair rule, the library's",
    "concord._common.extras": "a missing optional package: the one line naming its extra",
    "concord._data.form": "long_roles: a long file read as wide, the library's rule",
    "concord._studies.judges.study": "judge_study: the judge study the command prints",
    "concord._common.text": "neutral_bidi: bidirectional controls shown as escapes",
    "concord._results.protocol": "named(): a streamed result takes its columns' names",
    "concord._readers.read": "detect() and module(): the export's format, said on stderr",
    "concord._data.wide": "Wide: concord agree hands the typed read's block on without pandas",
}


def private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split(".")[1:])


def is_module(name: str) -> bool:
    path = CLI.parents[1] / Path(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imported(tree: ast.AST) -> set[str]:
    """The concord modules a module imports, and any private name it imports from one."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "concord"}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "concord":
            assert node.level == 0, "the CLI imports absolutely"
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                if is_module(name):  # from concord._render import records
                    found.add(name)
                else:  # from concord._version import __version__; a _name is private
                    found.add(node.module)
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.add(name)
    return found


def defined(trees: list[ast.AST]) -> set[str]:
    """The names the CLI's modules define: functions, classes, methods, attributes, globals."""
    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return names


TREES = {p.name: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(CLI.rglob("*.py"))}


@pytest.mark.parametrize("name", sorted(TREES))
def test_the_cli_imports_only_public_or_documented_internals(name):
    wrong = {
        m
        for m in imported(TREES[name])
        if private(m) and not m.startswith("concord._cli") and m not in ALLOWED
    }
    assert not wrong, f"{name} imports {sorted(wrong)}: use the public API, or list it in ALLOWED"


@pytest.mark.parametrize("name", sorted(TREES))
def test_the_cli_reaches_for_no_private_attribute(name):
    own = defined(list(TREES.values()))
    reached = {
        node.attr
        for node in ast.walk(TREES[name])
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and node.attr not in own
    }
    assert not reached, f"{name} uses {sorted(reached)}, private to the library"


def test_every_allowed_internal_exists_or_is_to_come():
    # the registry lands with issue 12's coefficient families; the rest exist now
    for module in ALLOWED:
        assert is_module(module) or module == "concord._coefficients.registry", module
