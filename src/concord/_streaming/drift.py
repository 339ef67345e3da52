"""``concord.drift``: the coefficient per time window; windows that differ from a reference."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from concord._coefficients.multirater.gwet import fleiss_kappa
from concord._coefficients.registry import by_name
from concord._common.errors import param_error
from concord._common.extras import require
from concord._streaming.accumulator import accumulate
from concord._streaming.drift_result import DriftResult, Window


def drift(
    ratings: Any,
    /,
    *,
    time: Any,
    window: Any,
    function: Callable[..., Any] = fleiss_kappa,
    reference: int = 0,
    confidence_level: float = 0.95,
    **options: Any,
) -> DriftResult:
    """Agreement over time: the coefficient per window, with intervals, drifting windows flagged.

    Parameters
    ----------
    ratings : pandas DataFrame
        One row per item: the ``time`` column and one column per rater (for a
        two-rater ``function``, exactly two).
    time : column name
        When each item was rated (numbers or datetimes).
    window : int, or a pandas frequency ("7D", "1h", a Timedelta)
        A whole number: consecutive windows of that many items in time order
        (the last may be shorter). A frequency: calendar periods of the time
        column (empty periods are skipped).
    function : callable
        A coefficient that :func:`accumulate` streams (default
        :func:`fleiss_kappa`); each window is one accumulator.
    reference : int
        The window the others are compared with (default the first).
    confidence_level : float
        Of each window's interval and of the flags.
    **options
        The coefficient's options (``weights=``, ``labels=``, ...). Declare
        ``labels=`` so that a category missing from a window is still counted.

    Returns
    -------
    DriftResult
        ``.windows``: per window its start and end, items, coefficient, SE,
        interval, the difference from the reference window, the two-sided
        p-value of that difference (z test, windows being disjoint sets of
        items: SE² add) and ``flagged`` (p below 1 − confidence_level).
        ``.statistic``: the latest window's coefficient.

    Examples
    --------
    >>> import pandas as pd, concord
    >>> df = pd.DataFrame({"t": range(8), "a": [1, 1, 2, 2, 1, 2, 1, 2],
    ...                    "b": [1, 1, 2, 2, 2, 1, 2, 1]})
    >>> r = concord.drift(df, time="t", window=4, function=concord.cohen_kappa)
    >>> [w.statistic for w in r.windows]
    [1.0, -1.0]
    """
    func = "drift"
    frame, raters = _checked(ratings, time, reference, confidence_level, func)
    pairs = by_name(function.__name__).table == "pairs"
    if pairs and len(raters) != 2:
        param_error(func, "ratings", f"two rater columns for {function.__name__}", raters)
    groups = _windows(frame, time, window, func)
    if not -len(groups) <= reference < len(groups):
        param_error(func, "reference", f"a window number below {len(groups)}", reference)
    z = _normal_quantile(confidence_level)
    found = []
    for part in groups:
        acc = accumulate(function, **options)
        acc.update(*(part[c] for c in raters)) if pairs else acc.update(part[raters])
        found.append((part, acc.result()))
    ref = found[reference][1]
    windows = [_window(part, time, res, ref, confidence_level, z) for part, res in found]
    return DriftResult(
        tuple(windows), reference % len(windows), confidence_level, function.__name__
    )


def _checked(
    ratings: Any, time: Any, reference: Any, confidence_level: Any, func: str
) -> tuple[Any, list[Any]]:
    if not (hasattr(ratings, "columns") and hasattr(ratings, "iloc")):
        param_error(func, "ratings", "a pandas DataFrame with the time column", ratings)
    if time not in ratings.columns:
        param_error(func, "time", f"a column of ratings ({list(ratings.columns)})", time)
    if not isinstance(reference, int | np.integer) or isinstance(reference, bool):
        param_error(func, "reference", "a window number (0: the first)", reference)
    if not isinstance(confidence_level, float) or not 0 < confidence_level < 1:
        param_error(func, "confidence_level", "a number between 0 and 1", confidence_level)
    if ratings[time].isna().any():
        row = int(np.flatnonzero(ratings[time].isna().to_numpy())[0])
        param_error(func, "time", "a time on every row", f"a missing time in row {row}", raw=True)
    return ratings.sort_values(time, kind="stable"), [c for c in ratings.columns if c != time]


def _windows(frame: Any, time: Any, window: Any, func: str) -> list[Any]:
    if isinstance(window, int | np.integer) and not isinstance(window, bool):
        if window < 1:
            param_error(func, "window", "a positive number of items or a frequency", window)
        return [frame.iloc[i : i + int(window)] for i in range(0, len(frame), int(window))]
    pd = require("pandas", "pandas", "concord.drift")

    try:
        grouped = frame.groupby(pd.Grouper(key=time, freq=window))
    except (TypeError, ValueError):
        param_error(
            func, "window", "a number of items, or a frequency such as '7D' on datetimes", window
        )
    return [part for _, part in grouped if len(part)]


def _normal_quantile(level: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf(0.5 + level / 2)


def _window(part: Any, time: Any, res: Any, ref: Any, level: float, z: float) -> Window:
    ci = res.confidence_interval(level)
    diff = float(res.statistic - ref.statistic)
    se = math.sqrt(float(res.standard_error) ** 2 + float(ref.standard_error) ** 2)
    if res is ref:
        pvalue = math.nan
    elif se > 0:
        pvalue = math.erfc(abs(diff) / se / math.sqrt(2))
    else:
        pvalue = 0.0 if diff != 0 else 1.0
    return Window(
        start=part[time].iloc[0],
        end=part[time].iloc[-1],
        n=len(part),
        statistic=float(res.statistic),
        standard_error=float(res.standard_error),
        ci_low=float(ci.low),
        ci_high=float(ci.high),
        difference=diff,
        pvalue=pvalue,
        flagged=bool(pvalue < 1 - level),
    )
