"""One error sentence for every bad parameter, and the warning for undefined values.

Every message names the function, the parameter, what was expected, what was
given, and how to fix it::

    The 'weights' parameter of cohen_kappa must be one of None, 'linear',
    'quadratic' or a k×k array. Got 'quadratc' instead. Did you mean 'quadratic'?
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any, NoReturn


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


def param_error(
    func: str,
    name: str,
    expected: str,
    got: Any,
    *,
    fix: str = "",
    exc: type[Exception] = ValueError,
    raw: bool = False,
) -> NoReturn:
    """Raise ``exc`` with concord's error sentence.

    ``got`` is shown with :func:`describe` unless ``raw`` is true, in which
    case it is inserted as already-formatted text.
    """
    shown = got if raw else describe(got)
    where = f" of {func}" if func else ""  # "": a check deep inside, below the public function
    message = f"The {name!r} parameter{where} must be {expected}. Got {shown} instead."
    if fix:
        message += f" {fix}"
    raise exc(message) from None


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
