"""Reference chunk counts from conlleval itself, for tests/test_read_formats.py.

Run once (it needs perl and the CoNLL-2000 evaluation script, which is not
part of concord), with the path of ``conlleval.pl`` (version 2004-01-26, as
distributed with the CoNLL-2000/2003 shared tasks)::

    python tests/reference/conlleval/make_conlleval.py /path/to/conlleval.pl

It draws seeded random IOB tag sequences for a "gold" and a "guess" annotator
(mixing IOB1 and IOB2 habits: I- after O, B- after O, type changes inside a
run), feeds each case to conlleval as ``token gold guess`` lines, and writes
conlleval_counts.json: per case the sentences and conlleval's three counts,
the chunks in gold ("phrases"), in guess ("found") and in both ("correct").
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

TAGS = ["O", "O", "O", "B-A", "I-A", "B-B", "I-B", "I-A", "B-A"]
COUNTS = re.compile(r"with (\d+) phrases; found: (\d+) phrases; correct: (\d+)\.")


def case(rng: random.Random) -> list[list[list[str]]]:
    """Return sentences of [token, gold, guess] rows."""
    return [
        [[f"w{i}", rng.choice(TAGS), rng.choice(TAGS)] for i in range(rng.randint(1, 9))]
        for _ in range(rng.randint(1, 4))
    ]


def main(script: str) -> None:
    rng = random.Random(20261127)
    out = []
    for _ in range(300):
        sentences = case(rng)
        text = "\n\n".join("\n".join(" ".join(row) for row in s) for s in sentences) + "\n"
        run = subprocess.run(
            ["perl", script], input=text, capture_output=True, text=True, check=True
        )
        match = COUNTS.search(run.stdout)
        assert match, run.stdout
        gold, guess, both = (int(g) for g in match.groups())
        out.append({"sentences": sentences, "gold": gold, "guess": guess, "correct": both})
    target = Path(__file__).with_name("conlleval_counts.json")
    target.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
