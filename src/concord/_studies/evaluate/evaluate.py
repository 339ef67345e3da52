"""``concord.evaluate``: an automated scorer against human scores, as RSMTool's ``rsmeval``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from concord._common.errors import check_bool, check_option, param_error
from concord._common.options import ROUNDINGS
from concord._results.studies.evaluation import EvaluationResult
from concord._results.studies.evaluation_parts import DEGRADATION_COLUMNS, Flag, Metrics, breaks
from concord._results.studies.evaluation_tables import disattenuated
from concord._studies.evaluate import evaluate_inputs as _in
from concord._studies.evaluate.evaluate_fairness import fairness_by
from concord._studies.evaluate.evaluate_groups import by_group, whole_data
from concord._studies.evaluate.evaluate_metrics import Human, pair_metrics, round_scores
from concord._studies.evaluate.evaluate_metrics import trim as _trim
from concord._studies.evaluate.evaluate_truescore import true_score

# Williamson, Xi & Breyer (2012), as RSMTool's report applies them
QWK_MIN = 0.70
CORR_MIN = 0.70
DEGRADATION_MIN = -0.10
SMD_MAX = 0.15
DSM_MAX = 0.10


def _score_types(
    human: np.ndarray,
    machine: np.ndarray,
    trim: tuple[float, float],
    tolerance: float,
    scale: bool,
    rounding: str,
) -> dict[str, np.ndarray]:
    """raw, raw_trim, raw_trim_round (and scale_*): RSMTool's ``process_predictions``."""
    bases = {"raw": machine}
    if scale:
        # machine z-scores mapped onto the human mean and SD (ddof=1, as pandas' std)
        if len(machine) < 2 or np.all(machine == machine[0]):
            fix = "Constant machine scores have no SD to rescale; pass scale=False."
            got = "machine scores with SD 0" if len(machine) > 1 else "one machine score"
            param_error(
                _in.FUNC, "scale", "False for constant machine scores", got, raw=True, fix=fix
            )
        z = (machine - np.mean(machine)) / np.std(machine, ddof=1)
        bases["scale"] = z * np.std(human, ddof=1) + np.mean(human)
    out = {}
    for prefix, base in bases.items():
        trimmed = _trim(base, trim[0], trim[1], tolerance)
        out[prefix] = base
        # nothing clipped: the same array, so that its metrics are computed once (by_group
        # and the eval table key their work on the array)
        out[f"{prefix}_trim"] = base if np.array_equal(trimmed, base) else trimmed
        out[f"{prefix}_trim_round"] = round_scores(trimmed, rounding)
    return out


def _once(scores: dict[str, np.ndarray], metrics: Callable[[np.ndarray], Any]) -> dict[str, Any]:
    """Return ``metrics`` of each score type, computed once per distinct array.

    raw_trim is raw (the same array) when nothing was clipped.
    """
    done: dict[int, Any] = {}
    out = {}
    for name, s in scores.items():
        if id(s) not in done:
            done[id(s)] = metrics(s)
        out[name] = done[id(s)]
    return out


def _degradation(hm: Metrics, hh: Metrics) -> dict[str, float]:
    return {c: hm.values[c] - hh.values[c] for c in DEGRADATION_COLUMNS}


def _flags(result: dict[str, Any]) -> tuple[Flag, ...]:
    """Every metric of the primary score type beyond a Williamson et al. (2012) threshold."""
    t = result["primary"]
    hm = result["eval"][t]
    checks: list[tuple[str, float, float, str, str | None]] = [
        ("wtkappa", hm["wtkappa"], QWK_MIN, "<", None),
        ("corr", hm["corr"], CORR_MIN, "<", None),
        ("SMD", hm["SMD"], SMD_MAX, "|>|", None),
    ]
    for metric in ("corr", "wtkappa"):
        if t in result["degradation"]:
            value = result["degradation"][t][metric]
            checks.append((f"degradation.{metric}", value, DEGRADATION_MIN, "<", None))
    for column, groups in result["by_group"].items():
        for key, rows in groups.items():
            if key != "All data":
                checks.append(("DSM", rows.eval[t]["DSM"], DSM_MAX, "|>|", f"{column}={key}"))
    words = {"<": "< {:.2f}", "|>|": "|x| > {:.2f}"}
    return tuple(
        Flag(metric, t, group, float(value), bound, words[rule].format(bound))
        for metric, value, bound, rule, group in checks
        if breaks(float(value), bound, rule)
    )


def _fair(coded: tuple[list[str], np.ndarray]) -> bool:
    """Whether the fairness models can be fitted: two groups or more.

    Labels that read alike are refused (``group_columns``), so the texts count the groups.
    """
    return len(coded[0]) > 1


def evaluate(
    human: Any,
    machine: Any,
    /,
    *,
    human2: Any = None,
    groups: Any = None,
    trim: Any = None,
    trim_tolerance: float = 0.4998,
    scale: bool = False,
    exclude_zero: bool = False,
    rounding: str = "half-even",
) -> EvaluationResult:
    r"""Evaluate continuous machine scores against human scores, as RSMTool's ``rsmeval``.

    Per score type (the raw machine score; trimmed to ``trim`` ± ``trim_tolerance``;
    trimmed and rounded to a score point) the metrics of Williamson, Xi & Breyer (2012)
    under RSMTool's names: N, means, SDs, minima and maxima, Pearson's r
    (``corr``), QWK for continuous scores (``wtkappa``; Haberman 2019:
    2 s_hm / (s_h² + s_m² + (h̄ − m̄)²), population moments, which is Lin's ρ_c),
    R², unweighted κ on the rounded scores, exact and adjacent agreement (%),
    SMD and RMSE. With ``human2``: the human-human row (pooled SMD), the
    degradation, the disattenuated correlation, and the true-score evaluation
    (PRMSE; Loukina et al. 2020). With ``groups``: every metric per subgroup,
    with the DSM. κ and QWK carry concord's standard errors and 95% intervals.

    Parameters
    ----------
    human : array-like, shape (n,)
        The first human score of each response: numeric, no NaN.
    machine : array-like, shape (n,)
        The machine score of each response: numeric (continuous), no NaN.
        Pandas Series (here, in ``human2`` and ``groups``) beside a Series
        ``human`` pair with it by index label, as two raters' Series do.
    human2 : array-like, shape (n,) or (n, k), optional
        Further human scores: one column, a 2-D array, a DataFrame or a list
        of columns. NaN marks a response that rater did not score (partially
        double-scored data). The human-human row pairs ``human`` with the
        first column; the true-score evaluation uses all columns.
    groups : array-like, mapping or DataFrame, optional
        Subgroup labels: one column (named by its Series name, else
        ``"group"``), a mapping from names to columns, or a DataFrame.
    trim : (min, max), optional
        The score scale. By default the human scores' range.
    trim_tolerance : float
        RSMTool's 0.4998 by default.
    scale : bool
        Also evaluate the machine scores rescaled to the human mean and SD
        (``scale``, ``scale_trim``, ``scale_trim_round``).
    exclude_zero : bool
        Leave out responses with a human score of 0 (RSMTool's
        ``exclude_zero_scores``).
    rounding : {"half-even", "half-up"}
        How a score becomes a score point, for ``*_trim_round`` and for the
        unweighted κ: ``"half-even"`` (default) as ``numpy.rint``, RSMTool's
        rule (2.5 → 2, 3.5 → 4); ``"half-up"`` rounds every half up (2.5 → 3).

    Returns
    -------
    EvaluationResult
        ``table(name)`` (pandas, RSMTool's columns), ``to_dict()``, ``explain()``, ``flags``.

    Notes
    -----
    Means, SDs, SMD, DSM, R², RMSE, agreements and the true-score table
    repeat RSMTool's arithmetic (rsmtool 12) and give its values bit for bit;
    κ, QWK and r are concord's correctly rounded values, within 2 units in the
    last place of RSMTool's. Rounding is RSMTool's by default: its
    ``process_predictions`` rounds the trimmed scores with ``numpy.rint`` and
    skll's ``kappa`` rounds both scores with ``numpy.round``, half to even;
    ``rounding="half-up"`` differs from it only for a score exactly halfway
    between two points. A NaN human or machine score is an error (RSMTool
    drops the response).

    References
    ----------
    Williamson, D. M., Xi, X. & Breyer, F. J. (2012). A framework for
    evaluation and use of automated scoring. Educational Measurement: Issues
    and Practice 31(1), 2-13.

    Haberman, S. J. (2019). Measures of agreement versus measures of
    prediction accuracy. ETS Research Report RR-19-20.

    Examples
    --------
    The first 8 responses of RSMTool's test fixture
    ``predictions_scaled_with_subgroups.csv`` (machine scores to 4 decimals):

    >>> import concord
    >>> h1 = [4, 4, 4, 3, 2, 2, 4, 2]
    >>> h2 = [4, 4, 3, 4, 3, 2, 4, 2]
    >>> machine = [4.1155, 4.3183, 2.9241, 3.903, 3.5025, 1.4596, 4.2182, 1.9446]
    >>> result = concord.evaluate(h1, machine, human2=h2, trim=(1, 6))
    >>> round(result.eval["raw_trim"]["wtkappa"], 4), result.consistency["exact_agr"]
    (0.6962, 62.5)
    >>> round(result.true_score["raw_trim"].prmse_true, 4)
    0.7806
    """
    scale = check_bool(_in.FUNC, "scale", scale)
    exclude_zero = check_bool(_in.FUNC, "exclude_zero", exclude_zero)
    rounding = check_option(_in.FUNC, "rounding", rounding, ROUNDINGS)
    h = _in.scores(human, "human")
    m = _in.scores(machine, "machine", len(h), like=human)
    h2 = None if human2 is None else _in.second_humans(human2, len(h), like=human)
    labels = _in.group_columns(groups, len(h), like=human)
    keep = h != 0 if exclude_zero else np.ones(len(h), dtype=bool)
    if not keep.any():
        fix = "Pass exclude_zero=False to evaluate the zero scores."
        param_error(_in.FUNC, "human", "a non-zero score (exclude_zero=True)", "only 0", fix=fix)
    h, m = h[keep], m[keep]
    h2 = None if h2 is None else h2[keep]
    coded = {k: _in.kept(v, keep) for k, v in labels.items()}
    low_high = _in.trim_range(trim, h, trim_tolerance)
    types = _score_types(h, m, low_high, trim_tolerance, scale, rounding)
    side = Human(h, rounding)  # the human scores against every score type
    parts: dict[str, Any] = {
        "primary": "scale_trim" if scale else "raw_trim",
        "eval": _once(types, lambda s: pair_metrics(h, s, rounding=rounding, side=side)),
        "consistency": None,
        "degradation": {},
        "disattenuated": {},
        "true_score": {},
    }
    if h2 is not None:
        double = ~np.isnan(h2[:, 0])
        if double.any():
            hh = pair_metrics(h[double], h2[double, 0], pooled=True, rounding=rounding)
            parts["consistency"] = hh
            for t, hm in parts["eval"].items():
                parts["degradation"][t] = _degradation(hm, hh)
                parts["disattenuated"][t] = disattenuated(hm["corr"], hh["corr"])
        humans = np.column_stack([h, h2])
        parts["true_score"] = {t: true_score(s, humans) for t, s in types.items()}
    first2 = None if h2 is None else h2[:, 0]
    whole = (parts["eval"], parts["consistency"])
    shared = whole_data(h, types, first2, whole) if coded else None
    parts["by_group"] = {
        k: by_group(h, types, first2, v, shared, rounding)
        for k, v in coded.items()
        if shared is not None
    }
    primary = types[parts["primary"]]
    parts["fairness"] = fairness_by(h, primary, {k: v for k, v in coded.items() if _fair(v)})
    return EvaluationResult(
        n=len(h),
        n_excluded=int(np.count_nonzero(~keep)),
        score_types=tuple(types),
        trim=low_high,
        trim_tolerance=float(trim_tolerance),
        flags=_flags(parts),
        rounding=rounding,
        **parts,
    )
