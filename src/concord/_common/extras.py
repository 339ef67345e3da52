"""Optional dependencies: imported when first needed, and one line when one is missing.

``import concord`` needs numpy only. Everything else comes with an extra of the
``concord-agreement`` distribution (pyproject.toml's ``optional-dependencies``),
and every place that needs such a package imports it through :func:`require`,
which turns its absence into one line naming the extra to install::

    ImportError: concord.plan needs scipy: pip install "concord-agreement[stats]"

The command line prints that line as its error (exit status 1, no traceback).

>>> require("math", "stats", "this example").sqrt(4.0)
2.0
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: The distribution users install (``concord`` on PyPI is another project).
DISTRIBUTION = "concord-agreement"
#: The name pip installs a module under, where it is not the module's own.
_PIP_NAMES = {"sklearn": "scikit-learn", "yaml": "pyyaml"}


class MissingExtraError(ImportError):
    """An optional dependency is not installed; the message names the extra that installs it.

    ``name`` is the missing module, ``extra`` the extra that installs it.
    """

    def __init__(self, message: str, *, name: str, extra: str) -> None:
        super().__init__(message, name=name)
        self.extra = extra


def install_line(extra: str) -> str:
    """Return the command that installs ``extra``: ``pip install "concord-agreement[extra]"``."""
    return f'pip install "{DISTRIBUTION}[{extra}]"'


def missing(module: str, extra: str, what: str) -> MissingExtraError:
    """Return the error that says ``what`` needs ``module``, which ``extra`` installs."""
    top = module.partition(".")[0]
    package = _PIP_NAMES.get(top, top)
    message = f"{what} needs {package}: {install_line(extra)}"
    return MissingExtraError(message, name=top, extra=extra)


def require(module: str, extra: str, what: str) -> ModuleType:
    """Import and return ``module``; if it is not installed, raise one line naming ``extra``.

    Parameters
    ----------
    module : str
        The module to import, e.g. ``"scipy.stats"``.
    extra : str
        The extra of ``concord-agreement`` that installs it, e.g. ``"stats"``.
    what : str
        What needs it, in the user's words, the subject of "... needs scipy",
        e.g. ``"concord.ml.kappa_scorer"``.

    Raises
    ------
    MissingExtraError
        An ``ImportError`` when ``module`` (or the package it is part of) is
        not installed. Any other import failure (a package installed but
        broken, or too old for a name) propagates as it is.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = module.partition(".")[0]
        if exc.name is None or exc.name.partition(".")[0] != top:
            raise  # the package is there, but something it imports is not
        raise missing(module, extra, what) from None
