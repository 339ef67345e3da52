"""CPU of each phase of ``concord report FILE`` in one process (issue 30).

    python benchmarks/profile_report_phases.py /tmp/concord_1e7.csv [--runs 2]

Runs the ``report`` command in this process (as ``python -m concord report
FILE -o TMP``) with the phases wrapped: CPU seconds (``time.process_time``,
all threads) of the imports, reading the file, the coefficients, the one
encoding, the one pattern count, the raters' and categories' sections, the
raters' figures, and the rest of the page. Write the CSV with
``benchmarks/bench_cli_large.py`` first.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

CHILD = r"""
import sys, time, tempfile, os
t0 = time.process_time()
import click, numpy, pandas
import concord
from concord._cli import agree, inputs, main as cli
from concord._render import answers, questions
t_imports = time.process_time() - t0
spent = {}

def wrap(module, name, label):
    inner = getattr(module, name)
    def timed(*a, **k):
        start = time.process_time()
        try:
            return inner(*a, **k)
        finally:
            spent[label] = spent.get(label, 0.0) + time.process_time() - start
    setattr(module, name, timed)

wrap(inputs, "ratings", "read")
wrap(agree, "agreement_results", "coefficients")
wrap(questions, "encoded", "encoding (rating_matrix)")
wrap(questions, "counted", "pattern count")
wrap(questions, "raters", "raters: rater_diagnostics")
wrap(questions, "categories", "categories")
wrap(answers, "_rater_figures", "raters' figures (matplotlib)")
out = os.path.join(tempfile.mkdtemp(), "r.html")
start = time.process_time()
try:
    args = ["report", sys.argv[1], "-o", out, "--quiet"]
    cli.main(args, prog_name="concord", standalone_mode=False)
finally:
    total = time.process_time() - start
print(f"imports (click, pandas, concord's CLI)\t{t_imports:.2f}")
for label, s in spent.items():
    print(f"{label}\t{s:.2f}")
rest = total - sum(spent.values())
print(f"the rest (command's imports, page, plots of the coefficients)\t{rest:.2f}")
print(f"total\t{t_imports + total:.2f}")
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("csv")
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    for run in range(args.runs):
        print(f"run {run + 1}")
        subprocess.run([sys.executable, "-c", CHILD, args.csv], check=True)


if __name__ == "__main__":
    main()
