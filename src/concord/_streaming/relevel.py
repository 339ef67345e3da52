"""Krippendorff's δ² chosen after the counting: the one option set once the labels are known.

An alpha accumulator counts coincidences, which do not depend on the level
of measurement, so a level can be changed after the data are counted. The
command line needs that: ``concord agree --weights ordinal`` streams a file
whose labels are known only at its end, and alpha's δ² is then the weights'
matrix on those labels. This is the documented way to do it; the public
:class:`~concord.Accumulator` keeps its options fixed.
"""

from __future__ import annotations

from typing import Any

from concord._coefficients.registry import entry
from concord._common.errors import param_error
from concord._streaming.accumulator import Accumulator


def with_level(accumulator: Accumulator, level: Any) -> Accumulator:
    """Return a copy of a ``krippendorff_alpha`` accumulator whose result uses ``level``.

    Parameters
    ----------
    accumulator : Accumulator
        An accumulator of :func:`concord.krippendorff_alpha`.
    level : str or array-like, shape (q, q)
        A level name or a δ² matrix on the accumulator's labels, checked as
        :func:`concord.krippendorff_alpha` checks it.

    Returns
    -------
    Accumulator
        The same counts; ``result()`` computes alpha at ``level``.
    """
    if "level" not in entry(accumulator.function).options:
        param_error(
            "with_level",
            "accumulator",
            "an accumulator of a coefficient that takes a level (krippendorff_alpha)",
            f"an accumulator of {entry(accumulator.function).name}",
            raw=True,
        )
    # the counts are the level's own business only at result(): a copy with the new option
    return accumulator._with_options(level=level)
