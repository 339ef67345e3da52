"""docs/quickstart.ipynb runs top to bottom in a Jupyter kernel (nbclient), as a reader would.

The kernel is ``python3`` started by this interpreter (jupyter_client replaces
the kernel spec's ``python`` with ``sys.executable``); the appended cell checks
that it is, and that it imports this checkout's concord.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import concord

nbclient = pytest.importorskip(
    "nbclient", reason="nbclient is in the dev extra: pip install -e '.[dev]' (make test does)"
)
nbformat = pytest.importorskip("nbformat", reason="nbformat is in the dev extra")

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_quickstart_notebook_executes(monkeypatch):
    notebook = nbformat.read(DOCS / "quickstart.ipynb", as_version=4)
    notebook.cells.append(
        nbformat.v4.new_code_cell(
            "import sys, concord\nprint(sys.executable)\nprint(concord.__file__)"
        )
    )
    # the kernel imports the concord under test, not an installed one
    monkeypatch.setenv("PYTHONPATH", str(Path(concord.__file__).parents[1]))
    client = nbclient.NotebookClient(
        notebook, kernel_name="python3", timeout=300, resources={"metadata": {"path": str(DOCS)}}
    )
    client.execute()  # raises CellExecutionError on the first cell that fails
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    executable, module = code[-1].outputs[0]["text"].split()
    assert Path(executable).resolve() == Path(sys.executable).resolve()
    assert Path(module).resolve() == Path(concord.__file__).resolve()
    # the QWK cell shows the result's HTML, with its statistic as computed here
    import pandas as pd

    essays = pd.read_csv(DOCS.parent / "data" / "essays.csv")
    qwk = concord.cohen_kappa(essays["truth"], essays["model_grade"], weights="quadratic")
    html = code[1].outputs[0]["data"]["text/html"]
    assert 'class="concord-result"' in html and f"{qwk.statistic:.4f}" in html
    assert code[2].outputs[0]["text"].strip() == qwk.summary()
