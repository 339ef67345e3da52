"""The differential test's helpers: comparisons that report every data set that fails."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from tests.differential.cases import Case


def same(got: float, want: Any) -> bool:
    """``got`` is ``float(want)`` exactly (both nan counts as the same)."""
    want = float(want)
    return (math.isnan(got) and math.isnan(want)) or got == want


def near(got: float, want: Any, rel: float, abs_: float = 0.0) -> bool:
    want = float(want)
    if math.isnan(got) or math.isnan(want):
        return math.isnan(got) and math.isnan(want)
    return math.isclose(got, want, rel_tol=rel, abs_tol=abs_)


def run_all(data: Iterable[Case], check: Callable[[Case], Iterable[str]]) -> None:
    """Run ``check`` on every data set; fail once, naming each data set that disagreed."""
    problems = []
    checked = 0
    for case in data:
        checked += 1
        problems += [f"{case.id}: {p}" for p in check(case)]
    if not checked:
        pytest.skip("no data set of this kind in this run")
    if problems:
        shown = "\n".join(problems[:12])
        pytest.fail(f"{len(problems)} disagreement(s) in {checked} data sets:\n{shown}")
