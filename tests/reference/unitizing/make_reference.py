"""Reference values of unitizing α from DKPro Statistics (Java), for tests/test_unitizing.py.

DKPro Statistics (https://github.com/dkpro/dkpro-statistics, Apache License 2.0),
commit f7f4f89136659c50f175ac8db7bfdfc3875b07db, class
``KrippendorffAlphaUnitizingAgreement``. Compile its agreement module without the
``aligning`` package and this folder's DkproUnitizing.java, then run this script::

    cd dkpro-statistics-agreement/src/main/java
    javac -cp slf4j-api.jar -d OUT $(find . -name '*.java' | grep -v aligning)
    javac -cp OUT -d OUT tests/reference/unitizing/DkproUnitizing.java
    python tests/reference/unitizing/make_reference.py OUT:slf4j-api.jar:slf4j-nop.jar

It writes dkpro_unitizing.json: each study's spans (one continuum [0, length),
raters 0 … m − 1) and DKPro's D_o, D_e and α per category and overall α; and
dkpro_unitizing_silent.json: studies whose last declared rater has no unit.
The tests need neither Java nor DKPro.
"""

from __future__ import annotations

import json
import pathlib
import random
import subprocess
import sys

HERE = pathlib.Path(__file__).parent

# Krippendorff (1995, p. 57) examples A-D, as DKPro's Krippendorff1995Test lays them out:
# (offset, length, rater, category)
K1995 = [
    (2, 8, 0, "A"), (14, 6, 0, "A"), (4, 4, 1, "A"), (15, 2, 1, "A"),
    (0, 18, 0, "B"), (0, 2, 1, "B"), (2, 1, 1, "B"), (3, 1, 1, "B"), (4, 1, 1, "B"),
    (5, 1, 1, "B"), (6, 3, 1, "B"), (9, 1, 1, "B"),
    (2, 6, 0, "C"), (10, 2, 0, "C"), (14, 4, 0, "C"), (20, 2, 0, "C"), (0, 2, 1, "C"),
    (4, 4, 1, "C"), (10, 4, 1, "C"), (16, 2, 1, "C"), (20, 2, 1, "C"),
    (0, 2, 0, "D"), (2, 8, 0, "D"), (10, 4, 0, "D"), (14, 6, 0, "D"), (20, 4, 0, "D"),
    (0, 4, 1, "D"), (4, 4, 1, "D"), (8, 7, 1, "D"), (15, 2, 1, "D"), (17, 7, 1, "D"),
]  # fmt: skip


def k1995(stretch: int) -> dict:
    units = [(o * stretch, n * stretch, r, c) for o, n, r, c in K1995]
    return {"name": f"krippendorff1995_x{stretch}", "raters": 2, "length": 24 * stretch,
            "units": units}  # fmt: skip


def randomised(seed: int) -> dict:
    """A random study: 2-4 raters, 1-3 categories, non-overlapping units per rater and category."""
    rng = random.Random(seed)
    raters, length = rng.randint(2, 4), rng.randint(20, 200)
    units = []
    for r in range(raters):
        for c in "xyz"[: rng.randint(1, 3)]:
            pos = rng.randint(0, 10)
            while pos < length - 1 and rng.random() < 0.85:
                size = rng.randint(1, max(1, min(30, length - pos)))
                units.append((pos, size, r, c))
                pos += size + rng.randint(0, 15)
    units = [u for u in units if u[0] + u[1] <= length]
    # a long table of spans cannot show a rater who marked nothing at all: give each one unit
    units += [(0, 1, r, "x") for r in range(raters) if all(u[2] != r for u in units)]
    return {"name": f"random_{seed}", "raters": raters, "length": length, "units": units}


def jittered(seed: int) -> dict:
    """A random study whose raters copy rater 0's units, each boundary moved by up to 3."""
    rng = random.Random(seed)
    base = randomised(seed)
    units = [u for u in base["units"] if u[2] == 0]
    out = list(units)
    for r in range(1, base["raters"]):
        for o, n, _, c in units:
            if rng.random() < 0.1:
                continue
            start, end = o + rng.randint(-3, 3), o + n + rng.randint(-3, 3)
            out.append((max(start, 0), min(end, base["length"]) - max(start, 0), r, c))
    out = [u for u in out if u[1] > 0]
    keep: list = []
    for u in sorted(out, key=lambda u: (u[2], u[3], u[0])):  # drop overlaps within rater+category
        if keep and keep[-1][2:] == u[2:] and keep[-1][0] + keep[-1][1] > u[0]:
            continue
        keep.append(u)
    return {**base, "name": f"jittered_{seed}", "units": keep}


def silent(seed: int) -> dict:
    """A random study with one more declared rater who marked nothing (raters= in concord)."""
    base = randomised(seed)
    return {**base, "name": f"silent_{seed}", "raters": base["raters"] + 1}


def dkpro(studies: list[dict], classpath: str) -> None:
    lines = []
    for s in studies:
        lines.append(f"study {s['raters']} 0 {s['length']}")
        lines += [f"{r} {o} {n} {c}" for o, n, r, c in s["units"]]
        lines.append("end")
    cmd = ["java", "-cp", classpath, "org.dkpro.statistics.agreement.unitizing.DkproUnitizing"]
    out = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout.split("\n")  # fmt: skip
    at = iter(out)
    for s in studies:
        s["dkpro"] = {}
        for line in at:
            f = line.split()
            if f[0] == "overall":
                s["dkpro_overall"] = float(f[1])
                break
            s["dkpro"][f[1]] = [float(f[2]), float(f[3]), float(f[4])]


if __name__ == "__main__":
    studies = (
        [k1995(1), k1995(100)]
        + [randomised(seed) for seed in range(12)]
        + [jittered(seed) for seed in range(12, 20)]
    )
    dkpro(studies, sys.argv[1])
    (HERE / "dkpro_unitizing.json").write_text(json.dumps(studies, indent=1) + "\n")
    # a declared rater who marked nothing on the continuum: DKPro's study counts its raters
    quiet = [silent(seed) for seed in range(20, 26)]
    dkpro(quiet, sys.argv[1])
    (HERE / "dkpro_unitizing_silent.json").write_text(json.dumps(quiet, indent=1) + "\n")
