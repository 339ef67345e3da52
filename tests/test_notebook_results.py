"""docs/quickstart.ipynb shows every public result type (issue 25).

Static: each public result type is returned by a call the notebook makes
(the calls and their result types are the protocol test's registry,
tests/test_protocol.py); tests/test_notebook.py executes the notebook.
"""

from __future__ import annotations

import json
from pathlib import Path

import concord
from tests.test_protocol import BUILT, CALLS, _result_types

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "quickstart.ipynb"


def test_the_notebook_shows_every_result_type():
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    called = {name for name in CALLS if f"concord.{name}(" in code}
    shown = {type(BUILT[name]).__name__ for name in called}
    # AgreementResult is the base of the coefficients' kinds; gwet_ac returns one
    missing = [t for t in _result_types() if t not in shown]
    assert not missing, f"result types the notebook does not show: {missing}"
    assert isinstance(BUILT["gwet_ac"], concord.AgreementResult)
