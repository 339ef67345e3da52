"""The README's "Training for QWK" examples run, and reach the kappas their comments show."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _blocks() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Training for QWK\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)


def test_the_section_has_its_three_examples() -> None:
    blocks = _blocks()
    assert len(blocks) == 3
    assert "kappa_scorer" in blocks[0]
    assert "lightgbm_metric" in blocks[1]
    assert "kappa_loss" in blocks[2]
    # "a ten-line PyTorch training loop": the block, imports aside
    body = [
        line for line in blocks[2].splitlines() if line and not line.startswith(("import", "from"))
    ]
    assert len(body) <= 11


def test_the_examples_run() -> None:
    pytest.importorskip("sklearn", reason="scikit-learn is not installed")
    pytest.importorskip("lightgbm", reason="LightGBM is not installed (pip install lightgbm)")
    torch = pytest.importorskip(
        "torch", reason="PyTorch is not installed (the Makefile's CPU build)"
    )
    pytest.importorskip("array_api_compat", reason="pip install 'concord-agreement[array]'")
    space: dict[str, object] = {"print": lambda *args: None}
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a tiny network: threads only contend (50 s instead of 3 on 2 cores)
    try:
        for block in _blocks():
            exec(compile(block, str(README), "exec"), space)
    finally:
        torch.set_num_threads(threads)
    # the kappas the README's comments show, to their printed digits (0.869, 0.885, 0.906),
    # with room for other library versions' numerics
    assert space["search"].best_score_ == pytest.approx(0.869, abs=0.02)  # type: ignore[attr-defined]
    booster = space["booster"]
    assert booster.best_score["valid_0"]["qwk"] == pytest.approx(0.885, abs=0.03)  # type: ignore[attr-defined]
    import concord

    kappa = concord.quadratic_weighted_kappa(space["y"], space["grades"])
    assert kappa == pytest.approx(0.906, abs=0.03)
