"""Is a rater consistent with itself: :func:`intra_rater`.

Long-form ratings with a trial column (one row per item, rater, trial):
per rater, the coefficient across its trials (trials as the raters of the
coefficient); per trial, the coefficient across the raters. For continuous
scores (``function=concord.icc``) on a complete design, the inter- and
intra-rater reliabilities of Eliasziw et al. (1994), as R irr's
``relInterIntra``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from concord._coefficients.continuous.icc import icc
from concord._coefficients.kappa.cohen import cohen_kappa
from concord._coefficients.registry import entry
from concord._common.errors import param_error
from concord._common.exact import fmean
from concord._common.extras import require
from concord._inference.intervals import check_level
from concord._results.studies.intra_rater import IntraRaterResult, Reliability
from concord._studies.judges.eliasziw import reliability

_FUNC = "intra_rater"


def _frame(ratings: Any, names: dict[str, Any]) -> Any:
    """Return the four columns, checked: present, one rating per item, rater and trial."""
    pd = require("pandas", "pandas", "concord.intra_rater")

    frame = ratings if isinstance(ratings, pd.DataFrame) else pd.DataFrame(ratings)
    for param, name in names.items():
        if name is None or name not in frame.columns:
            param_error(
                _FUNC,
                param,
                f"a column of ratings ({', '.join(map(repr, frame.columns))})",
                name,
                fix=f"Name the column that holds the {param}.",
            )
    keys = [names["item"], names["rater"], names["trial"]]
    twice = frame.duplicated(keys)
    if twice.any():
        at = frame.index[np.flatnonzero(twice.to_numpy())[0]]
        param_error(
            _FUNC,
            "ratings",
            "one rating per item, rater and trial",
            f"a second rating at row {at!r}",
            raw=True,
            fix="Drop or aggregate the repeated rows.",
        )
    return frame[[*keys, names["rating"]]].dropna(subset=[names["rating"]])


def _compare(wide: Any, arity: int, function: Any, options: dict[str, Any], what: str) -> Any:
    """Return the coefficient across ``wide``'s columns; a string says why it is not computed."""
    columns = list(wide.columns)
    if len(columns) < 2:
        return f"one {what} only ({columns[0]!r})" if columns else "no ratings"
    if arity == 2 and len(columns) != 2:
        return (
            f"{function.__name__} compares two {what}s, and there are {len(columns)} "
            f"({', '.join(map(repr, columns))}); pass a many-rater function such as "
            "concord.fleiss_kappa"
        )
    both = wide.dropna()
    if both.empty:
        return "no item is rated in both" if arity == 2 else "no item is rated twice"
    if arity == 2:
        return function(both[columns[0]], both[columns[1]], **options)
    return function(wide.dropna(thresh=2), **options)


def _by(frame: Any, group: str, across: str, names: dict[str, Any]) -> dict[Any, Any]:
    """Return, for each value of column ``group``: the items × ``across`` table of ratings."""
    out = {}
    for key, part in frame.groupby(names[group], sort=False):
        wide = part.pivot(index=names["item"], columns=names[across], values=names["rating"])
        out[key] = wide[sorted(wide.columns, key=str)]
    return out


def _reliability(frame: Any, names: dict[str, Any], level: float) -> Reliability | str:
    """RelInterIntra on a complete numeric design, else why not."""
    item, rater, trial, rating = (names[k] for k in ("item", "rater", "trial", "rating"))
    values = frame[rating]
    if values.dtype.kind not in "iuf":
        return "the ratings are not numbers"
    raters = tuple(frame[rater].unique())
    trials, items = frame[trial].unique(), frame[item].unique()
    if len(raters) < 2 or len(trials) < 2 or len(items) < 2:
        return "it needs 2 or more items, raters and trials"
    if len(frame) != len(raters) * len(trials) * len(items):
        return "not every rater rated every item in every trial"
    cube = frame.set_index([item, rater, trial])[rating].unstack([rater, trial])
    cube = cube.reindex(columns=[(r, t) for r in raters for t in sorted(trials, key=str)])
    y = cube.to_numpy(float).reshape(len(items), len(raters), len(trials))
    return reliability(y, raters, confidence_level=level)


def intra_rater(
    ratings: Any,
    /,
    *,
    item: Any,
    rater: Any,
    trial: Any,
    rating: Any,
    function: Any = cohen_kappa,
    **options: Any,
) -> IntraRaterResult:
    """Each rater's agreement with itself across trials, and the raters' within each trial.

    Repeated runs of a stochastic judge, or test–retest of humans.

    Parameters
    ----------
    ratings : DataFrame or mapping of columns
        One row per rating: the item, the rater, the trial (run, session)
        and the rating.
    item, rater, trial, rating : column names
        The four columns.
    function : callable
        A coefficient of concord: a two-rater one (:func:`cohen_kappa`, the
        default; it needs exactly two trials per rater and two raters per
        trial) or a many-rater one (:func:`fleiss_kappa`,
        :func:`krippendorff_alpha`, :func:`gwet_ac`, :func:`icc`, ...) for
        more. With :func:`icc` the result also holds the Eliasziw et al.
        (1994) inter- and intra-rater reliabilities.
    **options
        Passed to ``function`` (``weights=``, ``labels=``, ...);
        ``confidence_level`` is the level of the intervals shown.

    Returns
    -------
    IntraRaterResult
        ``per_rater``, ``per_trial``, ``skipped`` (what was not computed,
        and why), ``reliability`` (with :func:`icc`), and ``statistic``, the
        mean of the raters' own agreement.

    Notes
    -----
    A two-rater function compares the items a rater rated in both trials;
    a many-rater function, the items rated at least twice. A rater with a
    single trial, a trial with a single rater, or a pair with no item in
    common is not computed and is listed in ``skipped`` with the reason;
    when no rater has two trials, ``statistic`` is nan, with no warning
    beyond the reason. The reliabilities need a complete design (every
    rater rates every item in every trial) of numbers; their lower bounds
    are one-sided, as in irr, at ``confidence_level`` (0.95 by default),
    with H0: ρ_inter = 0.6 and ρ_intra = 0.8.

    References
    ----------
    Eliasziw, M., Young, S. L., Woodbury, M. G. & Fryday-Field, K. (1994).
    Statistical methodology for the concurrent assessment of interrater and
    intrarater reliability: using goniometric measurements as an example.
    Phys Ther 74(8), 777-788.

    Examples
    --------
    A judge run twice on six items (hand-made): it changes its verdict on one.

    >>> import pandas as pd
    >>> import concord
    >>> runs = pd.DataFrame({
    ...     "item": [1, 2, 3, 4, 5, 6] * 2,
    ...     "rater": ["judge"] * 12,
    ...     "run": [1] * 6 + [2] * 6,
    ...     "label": ["ok", "bad", "ok", "ok", "bad", "bad",
    ...               "ok", "bad", "ok", "bad", "bad", "bad"],
    ... })
    >>> r = concord.intra_rater(runs, item="item", rater="rater", trial="run", rating="label")
    >>> round(r.per_rater["judge"].statistic, 4)  # Cohen's kappa: p_o 5/6, p_e 1/2
    0.6667
    >>> r.skipped
    {'trial 1': "one rater only ('judge')", 'trial 2': "one rater only ('judge')"}
    """
    names = {"item": item, "rater": rater, "trial": trial, "rating": rating}
    found_entry = entry(function, _FUNC)
    arity = found_entry.arity
    level = check_level(options.get("confidence_level", 0.95), _FUNC)
    if "confidence_level" not in found_entry.options:
        options.pop("confidence_level", None)
    frame = _frame(ratings, names)
    per: dict[str, dict[Any, Any]] = {"rater": {}, "trial": {}}
    skipped: dict[str, str] = {}
    for scope, across in (("rater", "trial"), ("trial", "rater")):
        for key, wide in _by(frame, scope, across, names).items():
            value = _compare(wide, arity, function, options, across)
            if isinstance(value, str):
                skipped[f"{scope} {key!s}"] = value
            else:
                per[scope][key] = value
    found: Reliability | str | None = None
    if function is icc:
        found = _reliability(frame, names, level)
        if isinstance(found, str):
            skipped["reliability"] = found
            found = None
    stats = [float(getattr(r, "statistic", r)) for r in per["rater"].values()]
    assert not isinstance(found, str)
    return IntraRaterResult(
        statistic=fmean(stats) if stats else math.nan,
        coefficient=function.__name__,
        per_rater=per["rater"],
        per_trial=per["trial"],
        skipped=skipped,
        reliability=found,
        confidence_level=level,
    )
