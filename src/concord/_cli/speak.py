"""The library's errors in the command line's words: options and columns, not Python parameters.

A library error carries its parts (:class:`concord._common.errors.Problem`):
the parameter it is about, what was expected, what was given, the fix, in
words for the command line where the library's are Python. Here each
parameter becomes what the running command calls it: its option
(``labels`` → ``--labels``, ``method`` → ``--ci-method``), or the column an
option named (``rater2`` → the column 'model' (--rater2)). An error without
parts, or about a parameter the command has no option for, keeps the
library's sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import click

from concord._common.errors import Problem, problem_of

# library parameters whose option has another name
ALIASES = {
    "method": "ci_method",
    "y_true": "truth",
    "y_score": "score",
    "rng": "seed",
    "groups": "group",
    "lengths": "text",  # concord spans: each item's length comes from its text column
}
# options that name a column of FILE (in long form, --rater1 and --rater2 name raters)
COLUMNS = ("rater1", "rater2", "truth", "score", "x", "y", "human", "machine", "human2", "group")
_PLACE = re.compile(r"\{(\w+)\}")


def flags(command: click.Command | None) -> dict[str, str]:
    """Return the command's options: the keyword each fills → its long flag."""
    params = command.params if command is not None else []
    found = {}
    for p in params:
        long = [s for s in p.opts if s.startswith("--")]
        if isinstance(p, click.Option) and p.name and long:
            found[p.name] = long[0]
    return found


def name_of(name: str, o: dict[str, Any], options: dict[str, str]) -> str | None:
    """Return what the command line calls the library's parameter ``name``; None if nothing."""
    if name == "ratings":
        return _ratings(o)
    keyword = ALIASES.get(name, name)
    flag = options.get(keyword)
    if flag is None or keyword not in COLUMNS:
        return flag
    value = o.get(keyword)
    if value is None:
        return f"the {flag} column"
    if o.get("rating") is not None:  # long form: --rater1 names a rater
        return f"the ratings of {value!r} ({flag})"
    return f"the column {value!r} ({flag})"


def _ratings(o: dict[str, Any]) -> str:
    """Name the multi-rater ``ratings`` (and two raters together, as cohen_kappa may)."""
    if o.get("rating") is not None:
        return f"the column {o['rating']!r} (--rating)"
    if o.get("rater1") is not None and o.get("rater2") is not None:
        return f"the columns {o['rater1']!r} and {o['rater2']!r} (--rater1, --rater2)"
    return "the rater columns"


def say(problem: Problem, name: Callable[[str], str | None]) -> str | None:
    """Return the problem's sentence with ``name``'s words; None where a name has none."""
    missing: list[str] = []

    def fill(text: str) -> str:
        def word(m: re.Match[str]) -> str:
            said = name(m[1])
            if said is None:
                missing.append(m[1])
            return said or m[0]

        return _PLACE.sub(word, text)

    if problem.sentence:
        text = fill(problem.sentence)
    else:
        subject = name(problem.name) or ""
        text = f"{subject} must be {fill(problem.expected)}. Got {fill(problem.got)} instead."
        text += f" {fill(problem.fix)}" if problem.fix else ""
        missing += [] if subject else [problem.name]
    return None if missing else text[0].upper() + text[1:]


def message(exc: BaseException, o: dict[str, Any]) -> str:
    """Return the first line of ``exc``, in the running command's words where it has them."""
    problem = problem_of(exc)
    if problem is not None:
        ctx = click.get_current_context(silent=True)
        options = flags(ctx.command if ctx is not None else None)
        said = say(problem, lambda name: name_of(name, o, options))
        if said is not None:
            return said
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
