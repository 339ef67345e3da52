"""``import concord`` and ``concord --help`` are light (issue 30: cold start, ``--help``).

``import concord`` resolves its public names on first access (PEP 562), so it
loads neither numpy's heavy users nor pandas, scipy, numba or click; every
name in ``__all__`` still resolves, and ``concord --help`` lists the commands
without importing numpy or any command. Each check runs in a fresh process,
since this test process has imported everything already.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import concord


def run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )


def test_import_concord_loads_no_heavy_package() -> None:
    done = run(
        "import sys, concord\n"
        "heavy = ('pandas', 'scipy', 'numba', 'click', 'difflib', 'decimal', 'logging')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
        "print(sorted(m for m in sys.modules if m.startswith('concord')))\n"
    )
    assert done.returncode == 0, done.stderr
    heavy, ours = done.stdout.splitlines()
    assert heavy == "[]"
    assert ours == "['concord', 'concord._version']"


def test_every_public_name_resolves_in_a_fresh_process() -> None:
    done = run(
        "import concord\n"
        "for name in concord.__all__:\n"
        "    getattr(concord, name)\n"
        "from concord import cohen_kappa, quadratic_weighted_kappa, ThresholdClassifier\n"
        "print(cohen_kappa([1, 2, 3, 1], [1, 2, 2, 1]).statistic)\n"
    )
    assert done.returncode == 0, done.stderr
    # Cohen (1960): p_o = 3/4, p_e = (2*2 + 1*2 + 1*0)/16 = 3/8, kappa = (3/4-3/8)/(5/8) = 0.6
    assert float(done.stdout) == pytest.approx(0.6)


def test_dir_lists_every_public_name_and_unknown_names_fail() -> None:
    assert set(concord.__all__) <= set(dir(concord))
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        concord.no_such_name  # noqa: B018


def test_the_lazy_table_names_exactly_the_public_names() -> None:
    assert set(concord._WHERE) | {"__version__"} == set(concord.__all__)


@pytest.mark.parametrize("args", [["--help"], ["--version"]])
def test_concord_help_imports_neither_numpy_nor_a_command(args: list[str]) -> None:
    done = run(
        "import sys\n"
        "from concord._cli import main\n"
        f"try:\n    main({args!r})\n"
        "except SystemExit:\n    pass\n"
        "print('numpy' in sys.modules, 'pandas' in sys.modules,"
        " [m for m in sys.modules if m.startswith('concord._cli.') and m not in"
        " ('concord._cli.main', 'concord._cli.terminal')])\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "False False []"


def test_the_help_summaries_are_the_commands_own() -> None:
    import click

    from concord._cli.main import COMMANDS, main

    ctx = click.Context(main)
    for name, (_, summary) in COMMANDS.items():
        command = main.get_command(ctx, name)
        assert command is not None and command.name == name
        assert command.get_short_help_str(1000) == summary


@pytest.mark.parametrize("module", ["concord._common.extras", "concord._cli.main", "click"])
def test_ctrl_c_while_the_console_script_imports_is_one_line_and_130(module: str) -> None:
    # a finder that presses Ctrl-C when the module is first imported
    done = run(
        "import sys\n"
        "class CtrlC:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name == {module!r}:\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, CtrlC())\n"
        "from concord._cli import main\n"
        "print('not reached')\n"
    )
    assert done.returncode == 130
    assert done.stdout == ""
    assert done.stderr == "concord: interrupted while starting (Ctrl-C).\n"
