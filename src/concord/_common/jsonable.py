"""Values → JSON-ready values: the one conversion the CLI's JSON and ``to_dict()`` share."""

from __future__ import annotations

import math
from typing import Any


def jsonable(value: Any) -> Any:
    """Return ``value`` with numpy arrays as lists and non-finite floats as None.

    Examples
    --------
    >>> import numpy as np
    >>> jsonable({"kappa": np.float64("nan"), "table": np.array([[1, 2]]), 3: (0.5, np.inf)})
    {'kappa': None, 'table': [[1, 2]], '3': [0.5, None]}
    """
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if hasattr(value, "tolist"):
        return jsonable(value.tolist())
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    return value
