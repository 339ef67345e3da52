"""The option vocabularies, each written once: weight families, levels, nan policies, methods.

The library checks its parameters against these tuples, the accumulators
check the same parameters up front against the same tuples, and the command
line offers them as its choices (``none`` and ``auto`` added there), so a
new weight family or interval method is one edit here. Each tuple is the
``Literal`` type of the parameter, read back with :func:`typing.get_args`.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from concord._common.errors import check_option

WeightName = Literal["linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar"]
Level = Literal["nominal", "ordinal", "interval", "ratio", "masi", "jaccard"]
NanPolicy = Literal["raise", "omit"]
IntervalMethod = Literal["wald", "t", "fisher-z", "bootstrap-percentile", "bootstrap-bca"]
Rounding = Literal["half-even", "half-up"]

#: The named families of disagreement weights (``weights=None`` is unweighted).
WEIGHTS: tuple[str, ...] = get_args(WeightName)
#: Krippendorff's levels of measurement (the metric δ²).
LEVELS: tuple[str, ...] = get_args(Level)
#: What a two-rater coefficient does with a missing rating: fail, or drop the pair.
NAN_POLICIES: tuple[str, ...] = get_args(NanPolicy)
#: The confidence-interval methods of every result.
INTERVAL_METHODS: tuple[str, ...] = get_args(IntervalMethod)
#: How a continuous score becomes a score point: half to even (``numpy.rint``, RSMTool's and
#: skll's rule: 2.5 → 2) or half up (2.5 → 3).
ROUNDINGS: tuple[str, ...] = get_args(Rounding)
#: Krippendorff's alpha adds Hayes & Krippendorff's (2007) bootstrap of pairable values.
ALPHA_INTERVAL_METHODS: tuple[str, ...] = (*INTERVAL_METHODS, "kalpha")
#: Krippendorff's level that says what these weights say (Krippendorff 2011: nominal δ² is
#: 1 − identity, interval δ² is the squared difference, ratio δ² is the ratio weights');
#: other weights match no level, and α takes their matrix instead.
LEVEL_OF_WEIGHTS: dict[str | None, str] = {
    None: "nominal",
    "quadratic": "interval",
    "ratio": "ratio",
}


def check_nan_policy(value: Any, func: str) -> str:
    """Return ``nan_policy`` if it is one of :data:`NAN_POLICIES`, else raise naming ``func``."""
    return check_option(func, "nan_policy", value, NAN_POLICIES)


def check_level(value: str, func: str) -> str:
    """Return a named ``level`` if it is one of :data:`LEVELS`, else raise naming ``func``."""
    return check_option(func, "level", value, LEVELS)


def check_method(value: Any, func: str) -> str:
    """Return an interval ``method`` if it is one of :data:`INTERVAL_METHODS`, else raise."""
    return check_option(func, "method", value, INTERVAL_METHODS)
