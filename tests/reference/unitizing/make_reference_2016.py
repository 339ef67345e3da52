"""Values of uα (2016), |uα, cuα and (k)uα from a public port, for tests/test_unitizing_family.py.

The port: lindanna/unitized_alpha (https://github.com/lindanna/unitized_alpha),
``unitized_alpha.py`` at commit 11637e7a0ba20beda028df4379543da8c6cb9cfd
(2025-01-28), a Python port of Krippendorff, Mathet, Bouvry & Widlöcher (2016)
that names the paper's equations (1, 4, 5a, 6, 10, 11, 13b). It is not part
of concord and the tests do not need it: fetch that file into a folder and
run this script with the folder as its argument::

    python tests/reference/unitizing/make_reference_2016.py /path/to/folder

It writes lindanna_2016.json: each study's spans on one continuum [0, length)
(rater, label, start, end; end exclusive, as the port reads them) and the
port's uα (2016; the port's ``u_alpha``), |uα, cuα and (k)uα per label (None
where the port says 'NA').
"""

from __future__ import annotations

import contextlib
import io
import json
import pathlib
import random
import sys

HERE = pathlib.Path(__file__).parent

# the port's own README example (its printed values there are of an older version)
README = {
    "name": "lindanna_readme",
    "length": 60,
    "spans": [["Alex", "1", 2, 5], ["Paul", "1", 2, 5], ["Paul", "2", 10, 20],
              ["Susan", "2", 2, 5], ["Susan", "2", 15, 20]],
}  # fmt: skip


def randomised(seed: int) -> dict:
    """2-4 raters, 2-3 labels; one rater's spans never overlap (any labels); every rater marks."""
    rng = random.Random(seed)
    length = rng.randint(20, 90)
    labels = ["A", "B", "C"][: rng.randint(2, 3)]
    spans = []
    for r in range(rng.randint(2, 4)):
        pos, mine = rng.randint(0, 6), []
        while pos < length - 1:
            end = min(length, pos + rng.randint(1, 15))
            mine.append([f"r{r}", rng.choice(labels), pos, end])
            pos = end + rng.choice([0, 0, 1, 3, 8])
        spans += mine or [[f"r{r}", labels[0], 0, 1]]
    return {"name": f"random_{seed}", "length": length, "spans": spans}


def run(port, study: dict) -> dict:
    data = [[r, lab, str(s), str(e)] for r, lab, s, e in study["spans"]]
    with contextlib.redirect_stdout(io.StringIO()):
        binary, nominal, (cu, _), per = port.u_alpha(data, study["length"], port.nominal_metric)
    labels = sorted({lab for _, lab, _, _ in study["spans"]})
    names = {i + 1: lab for i, lab in enumerate(labels)}

    def value(x):
        return None if isinstance(x, str) else float(x)

    return {
        **study,
        "u2016": value(nominal),
        "binary": value(binary),
        "cu": value(cu),
        "k": {names[k]: value(a) for k, (a, _) in per.items()},
    }


def main(folder: str) -> None:
    sys.path.insert(0, folder)
    import unitized_alpha as port  # the port, from the folder named

    out, seed = [run(port, README)], 0
    while len(out) < 13:
        # the port fails (prints round('NA')) where a label's (k)uα is undefined: skip those
        with contextlib.suppress(TypeError):
            out.append(run(port, randomised(seed)))
        seed += 1
    (HERE / "lindanna_2016.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
