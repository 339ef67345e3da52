"""The README's quick start runs: its Python by pytest's --doctest-glob, its commands here.

Each ``$ concord ...`` line of a console block is run through click's runner from the
repository root, and its output must be the lines the block shows under it.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def _commands() -> list[tuple[str, str]]:
    """(command line, shown output) of each ``$ concord`` line in the README's console blocks."""
    text = README.read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.DOTALL):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            line, _, shown = chunk.partition("\n")
            found.append((line, shown))
    return found


def test_the_quick_start_shows_a_command() -> None:
    assert any(line.startswith("concord kappa ") for line, _ in _commands())


@pytest.mark.parametrize(("line", "shown"), _commands())
def test_the_command_prints_what_the_readme_shows(line: str, shown: str) -> None:
    pytest.importorskip("click")
    from click.testing import CliRunner

    from concord._cli import main

    here = os.getcwd()
    os.chdir(ROOT)  # the commands read data/
    try:
        result = CliRunner().invoke(main, shlex.split(line)[1:])
    finally:
        os.chdir(here)
    assert result.exit_code == 0, result.output
    assert result.stdout == shown
