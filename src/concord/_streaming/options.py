"""An accumulator's function and options, validated as the one-shot function validates them.

Options are checked when the accumulator is made, so that a typo fails
before any data are counted; what depends on the labels (a weight matrix's
size, the order non-numeric ratings need for weights) is checked then if
``labels`` are declared, else by the one-shot core when ``result()`` runs.
"""

from __future__ import annotations

import difflib
import inspect
from typing import Any

import numpy as np

from concord._coefficients.krippendorff.krippendorff import resolve_level
from concord._coefficients.registry import Coefficient
from concord._common.errors import check_population, describe, param_error
from concord._common.options import check_level, check_nan_policy
from concord._data.labels import Labels, check_labels
from concord._streaming.dispatch import check_engine
from concord._tables.weights import resolve


def checked(coef: Coefficient, given: dict[str, Any]) -> dict[str, Any]:
    """Validate the function's options as the one-shot function would, with defaults filled in."""
    name = coef.name
    params = inspect.signature(coef.function).parameters
    allowed = [p for p in coef.options if p != "sample_weight"]
    for key in given:
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1)
            fix = f"Did you mean {close[0]!r}?" if close else ""
            if key == "sample_weight":
                fix = "Pass sample_weight to update(), with each batch."
            param_error(
                "accumulate",
                "options",
                f"options of {name}: {', '.join(allowed)}",
                repr(key),
                raw=True,
                fix=fix,
                exc=TypeError,
            )
    options = {p: given.get(p, params[p].default) for p in allowed}
    declared = check_labels(options["labels"], name) if "labels" in options else None
    if "labels" in options:  # continuous scores have none
        options["labels"] = declared
    labels = Labels(declared, ordered=True) if declared is not None else None
    if "nan_policy" in options:
        check_nan_policy(options["nan_policy"], name)
    if "population_size" in options:
        options["population_size"] = check_population(options["population_size"], name)
    if "weights" in options:
        options["weights"] = _weights(options["weights"], labels, name)
    if "level" in options:
        options["level"] = _level(options["level"], labels, coef)
    if coef.check_options is not None:
        options = coef.check_options(options)
    return options


def _weights(weights: Any, labels: Labels | None, name: str) -> Any:
    """Check the weights now; a matrix's size only when the labels are declared."""
    if weights is None or (isinstance(weights, str) and labels is None):
        resolve(weights, Labels((0, 1), ordered=True), name)  # the name, close-match hint
        return weights
    if labels is not None:
        return resolve(weights, labels, name).matrix if not isinstance(weights, str) else weights
    try:
        return np.array(weights, dtype=np.float64)
    except (TypeError, ValueError):
        resolve(weights, Labels((0, 1), ordered=True), name)  # raises the one-shot error
        raise  # pragma: no cover


def _level(level: Any, labels: Labels | None, coef: Coefficient) -> Any:
    if isinstance(level, str):
        check_level(level, coef.name)
    if labels is None:
        return level if isinstance(level, str) else np.array(level, dtype=np.float64)
    check_engine(coef, {"level": level}, labels.k)
    return level if isinstance(level, str) else resolve_level(level, labels, coef.name)[1]


def replicates(coef: Coefficient, n_replicates: Any, rng: Any) -> int | None:
    if n_replicates is None:
        if rng is not None:
            param_error(
                "accumulate",
                "rng",
                "None without n_replicates",
                rng,
                fix="It draws the Poisson replicates of n_replicates=B; result().bootstrap() "
                "takes its own rng otherwise.",
            )
        return None
    if not coef.returns_result:
        param_error(
            "accumulate",
            "n_replicates",
            f"None for {coef.name}, which returns a float",
            n_replicates,
            fix="Accumulate cohen_kappa with weights='quadratic' for a result with a bootstrap.",
        )
    if coef.table == "sums":
        param_error(
            "accumulate",
            "n_replicates",
            f"None for {coef.name}, whose stream keeps sums, not pairs to resample",
            n_replicates,
            fix="Call the function on the data for a bootstrap of the pairs.",
        )
    if not isinstance(n_replicates, int | np.integer) or n_replicates < 2:
        param_error("accumulate", "n_replicates", "None or an integer of at least 2", n_replicates)
    return int(n_replicates)


def same_options(a: dict[str, Any], b: dict[str, Any]) -> bool:
    def same(x: Any, y: Any) -> bool:
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            return (
                isinstance(x, np.ndarray)
                and isinstance(y, np.ndarray)
                and x.shape == y.shape
                and bool(np.array_equal(x, y))
            )
        return bool(x == y)

    return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)


def shown(options: dict[str, Any], coef: Coefficient) -> str:
    """Return the options that differ from the function's defaults, as keyword arguments."""
    params = inspect.signature(coef.function).parameters
    return "".join(
        f", {k}={describe(v)}"
        for k, v in options.items()
        if not same_options({k: v}, {k: params[k].default})
    )
