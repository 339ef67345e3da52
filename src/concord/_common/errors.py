"""One error sentence for every bad parameter, and the warning for undefined values.

Every message names the function, the parameter, what was expected, what was
given, and how to fix it::

    The 'weights' parameter of cohen_kappa must be one of None, 'linear',
    'quadratic' or a k×k array. Got 'quadratc' instead. Did you mean 'quadratic'?

The command line says the same sentence in its own words (``--labels``, the
column 'gold'), so each error carries its parts as a :class:`Problem`
(:func:`problem_of`); where the library's words are Python (``labels=[...]``,
``np.rint``), :class:`ForCli` gives the command line's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np


class UndefinedKappaWarning(RuntimeWarning):
    """The coefficient is undefined for these data, so its value is nan.

    Raised (as a warning) when the chance disagreement is zero, for example
    when both raters use one and the same category. It is the only way
    concord returns nan: no other path produces nan silently.
    """


def describe(value: Any, limit: int = 60) -> str:
    """Return a short ``repr`` of a user-supplied value for an error message."""
    text = repr(value)
    if len(text) > limit:
        shape = getattr(value, "shape", None)
        kind = type(value).__name__
        text = f"<{kind} of shape {shape}>" if shape is not None else text[: limit - 3] + "..."
    return text


@dataclass(frozen=True)
class ForCli:
    """The command line's words for parts of an error sentence whose library words are Python.

    A part left None keeps the library's words. In them ``{name}`` stands for
    the parameter ``name`` (``{labels}``, ``{nan_policy}``, ``{rater1}``): the
    command line puts its option or its column there (``--labels``; the
    column 'gold' (--rater1)), so the library never spells an option.
    """

    expected: str | None = None
    got: str | None = None
    fix: str | None = None


@dataclass(frozen=True)
class Problem:
    """An error's parts in the command line's words, carried by the exception.

    ``name`` is the parameter the sentence is about; ``sentence`` is set
    instead for an error that is not one parameter's (and ``name`` is "").
    """

    name: str
    expected: str = ""
    got: str = ""
    fix: str = ""
    sentence: str = ""


def problem_of(exc: BaseException) -> Problem | None:
    """Return the :class:`Problem` that :func:`param_error` or :func:`fail` attached, if any."""
    problem = getattr(exc, "_concord_problem", None)
    return problem if isinstance(problem, Problem) else None


def _raise(exc: type[Exception], message: str, problem: Problem) -> NoReturn:
    # an attribute, not a subclass: the exception stays exactly the ValueError (or
    # TypeError) library users catch and see in tracebacks
    error: Any = exc(message)
    error._concord_problem = problem
    raise error from None


def _listed(value: Any) -> str | None:
    """Spell a list or tuple as the command line takes one (a,b,c); None for anything else."""
    if not isinstance(value, list | tuple):
        return None
    return ",".join(str(v) for v in value) if value else "an empty list"


def param_error(
    func: str,
    name: str,
    expected: str,
    got: Any,
    *,
    fix: str = "",
    exc: type[Exception] = ValueError,
    raw: bool = False,
    cli: ForCli | None = None,
) -> NoReturn:
    """Raise ``exc`` with concord's error sentence.

    ``got`` is shown with :func:`describe` unless ``raw`` is true, in which
    case it is inserted as already-formatted text. ``cli`` gives the command
    line's words where these are Python; a list given raw=False reads a,b,c there.
    """
    shown = got if raw else describe(got)
    where = f" of {func}" if func else ""  # "": a check deep inside, below the public function
    message = f"The {name!r} parameter{where} must be {expected}. Got {shown} instead."
    if fix:
        message += f" {fix}"
    words = cli or ForCli()
    listed = None if raw else _listed(got)
    problem = Problem(
        name,
        expected if words.expected is None else words.expected,
        words.got if words.got is not None else listed or shown,
        fix if words.fix is None else words.fix,
    )
    _raise(exc, message, problem)


def fail(message: str, *, cli: str, exc: type[Exception] = ValueError) -> NoReturn:
    """Raise ``exc(message)``, an error that is not one parameter's; ``cli``: the CLI's words.

    ``{name}`` in ``cli`` stands for the parameter ``name``, as in :class:`ForCli`.
    """
    _raise(exc, message, Problem("", sentence=cli))


def check_option(
    func: str, name: str, value: Any, choices: Iterable[str], *, expected: str = ""
) -> str:
    """Return ``value`` if it is one of ``choices``, else raise with a close-match hint."""
    options = list(choices)
    if isinstance(value, str) and value in options:
        return value
    listing = expected or "one of " + ", ".join(repr(c) for c in options)
    hint = ""
    if isinstance(value, str):
        import difflib  # the error path only

        match = difflib.get_close_matches(value.lower(), options, n=1)
        if match:
            hint = f"Did you mean {match[0]!r}?"
    exc: type[Exception] = ValueError if isinstance(value, str) else TypeError
    param_error(func, name, listing, value, fix=hint, exc=exc)


_POPULATION = "It is the size N of the finite population the items were drawn from."


def check_population(population_size: Any, func: str, n_items: int | None = None) -> float | None:
    """Validate irrCAC's N: None (infinite population) or a positive number of items.

    With ``n_items`` (known once the data are counted), N must also be at least that.
    """
    if population_size is None:
        return None
    try:
        value = float(population_size)
    except (TypeError, ValueError):
        param_error(
            func, "population_size", "None or a number of items", population_size, exc=TypeError
        )
    if not value > 0:
        param_error(
            func,
            "population_size",
            "positive",
            population_size,
            fix=_POPULATION,
        )
    if n_items is not None and value < n_items:
        param_error(
            func,
            "population_size",
            f"at least the number of items ({n_items})",
            f"{value:g}",
            fix=_POPULATION,
            raw=True,
        )
    return value


def check_bool(func: str, name: str, value: Any) -> bool:
    """Return ``value`` if it is True or False (numpy's too), else raise a TypeError.

    A string such as ``"False"`` is truthy: taken as a flag it would silently
    mean the opposite of what it says.
    """
    if isinstance(value, bool | np.bool_):
        return bool(value)
    fix = ""
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        fix = f"Pass {name}={value.strip().capitalize()} (no quotes)."
    param_error(func, name, "True or False", value, exc=TypeError, fix=fix)
