"""The "Training for QWK" page runs concord.ml in scikit-learn, LightGBM, XGBoost and PyTorch.

The site build runs every example of docs/guide/training-for-qwk.md and fails when one prints
something else than the page shows (docs/hooks/execute.py, run by tests/test_docs.py). Here:
the page keeps an example for each tool and the kappas they reach; and where MkDocs is not
installed, so that tests/test_docs.py skips, the page's examples run here instead.
"""

from __future__ import annotations

import doctest
import importlib.util
import io
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "guide" / "training-for-qwk.md"


def _test() -> doctest.DocTest:
    text = PAGE.read_text(encoding="utf-8")
    return doctest.DocTestParser().get_doctest(text, {}, PAGE.name, str(PAGE), 0)


def test_the_page_has_an_example_for_each_tool() -> None:
    examples = _test().examples
    source = "".join(e.source for e in examples)
    for name in ("kappa_scorer", "lightgbm_metric", "xgboost_metric", "qwk_objective"):
        assert f"import {name}" in source or f", {name}" in source, name
    assert "kappa_loss(classes, torch.softmax(" in source
    # the kappas the README's training examples reached before the page held them (GridSearchCV,
    # LightGBM's early stopping, the PyTorch loop): shown as outputs, which the build checks
    wanted = {"0.869": "best_score_", "0.885": "best_score", "0.906": "quadratic_weighted_kappa"}
    for kappa, call in wanted.items():
        assert any(kappa in e.want and call in e.source for e in examples), kappa


def test_the_examples_run_without_the_site_build() -> None:
    if importlib.util.find_spec("mkdocs") is not None:
        pytest.skip("tests/test_docs.py builds the site, which runs this page's examples")
    pytest.importorskip("sklearn", reason="scikit-learn is not installed")
    pytest.importorskip("lightgbm", reason="LightGBM is not installed (pip install lightgbm)")
    pytest.importorskip("xgboost", reason="XGBoost is not installed (pip install xgboost)")
    torch = pytest.importorskip(
        "torch", reason="PyTorch is not installed (the Makefile's CPU build)"
    )
    pytest.importorskip("array_api_compat", reason="pip install 'concord-agreement[array]'")
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    report = io.StringIO()
    threads, here = torch.get_num_threads(), os.getcwd()
    os.chdir(ROOT)  # as the site build runs it
    try:
        result = runner.run(_test(), out=report.write, clear_globs=True)
    finally:
        os.chdir(here)
        torch.set_num_threads(threads)  # the page sets one thread for its tiny network
    assert result.failed == 0, report.getvalue()
