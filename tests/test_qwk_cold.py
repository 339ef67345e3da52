"""A fresh process's first quadratic weighted kappa imports only what it uses (issue 30).

Two plain numpy integer arrays take the five sums by numpy; the general
path (columns, labels, tables, weights, the inference modules) and the
thread pool's threading and logging stay unloaded. The value is Hamner's
Metrics' for seed 001's example.
"""

from __future__ import annotations

import subprocess
import sys


def test_the_first_qwk_of_plain_arrays_loads_few_modules() -> None:
    script = (
        "import sys, numpy as np, concord\n"
        "before = set(sys.modules)\n"
        "a = np.array([2, 2, 2, 3, 4, 5, 5, 5, 5, 5])\n"
        "b = np.array([2, 2, 2, 3, 2, 1, 1, 1, 1, 3])\n"
        "print(repr(concord.quadratic_weighted_kappa(a, b)))\n"
        "new = set(sys.modules) - before\n"
        "print(sorted(m for m in new if m.startswith('concord')))\n"
        "print(sorted(m for m in ('logging', 'threading', 'difflib', 'fractions') if m in new))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    value, ours, heavy = done.stdout.splitlines()
    assert value == "-0.13924050632911392"  # Hamner's Metrics / scikit-learn: -0.139240506329...
    loaded = {m.split("'")[1] for m in ours.strip("[]").split(", ")}
    general = {"concord._data.columns", "concord._tables.pairs", "concord._tables.weights"}
    assert not loaded & general, loaded
    assert not {m for m in loaded if m.startswith("concord._inference")}
    assert heavy == "[]"
