"""The raters' names, as the data gives them: a Series' or column's name, else rater1, rater2.

Every two-rater function names its raters from its inputs: a pandas or
polars Series (``df.ann_a``, ``df["gpt judge"]``) has a ``name``; plain
arrays and lists have none, and keep the defaults. The results carry the
names to every output (explain(), summary(), the frames, the plots, the
report).
"""

from __future__ import annotations

from typing import Any

import numpy as np

DEFAULT = ("rater1", "rater2")


def name_of(x: Any) -> str | None:
    """Return the name a Series or column carries, or None (arrays, lists, unnamed Series)."""
    if type(x) is np.ndarray:
        return None  # the common case: a plain array has no name
    if type(x).__module__.startswith("dask.array"):
        return None  # a dask array's name is its graph key, not a column's
    name = getattr(x, "name", None)
    if name is None or callable(name):
        return None
    text = str(name)
    return text if text else None


def rater_names(first: Any, second: Any, default: tuple[str, str] = DEFAULT) -> tuple[str, str]:
    """Return the two raters' names: each input's own, else the default of its side.

    Two inputs named alike (two Series both called "score") keep the
    defaults, so that the two sides stay told apart.

    Examples
    --------
    >>> import pandas as pd
    >>> rater_names(pd.Series([1], name="ann_a"), pd.Series([1], name="gpt_judge"))
    ('ann_a', 'gpt_judge')
    >>> rater_names([1, 2], [1, 2])
    ('rater1', 'rater2')
    """
    a, b = name_of(first), name_of(second)
    if a is not None and a == b:
        return default
    return (a or default[0], b or default[1])
