"""``concord agree --coefficients kendall-w,cronbach-alpha,…``: the rank and score statistics.

They take numeric ratings (a matrix of items × raters), not the category counts the
kappa family shares, so ``concord agree`` reads the raters' columns as numbers for
them and lays their rows out beside (or instead of) the coefficients' table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# --coefficients: short name -> function name
SHORT = {
    "kendall": "kendall_w",
    "cronbach": "cronbach_alpha",
    "meancor": "mean_correlation",
    "occc": "overall_concordance",
}
NAMES = (*SHORT.values(),)


def _names(value: str | None) -> list[str]:
    if value is None:
        return []
    return [n.strip().lower().replace("-", "_") for n in value.split(",") if n.strip()]


def chosen(value: str | None) -> tuple[str, ...]:
    """Return the rank statistics --coefficients names, in :data:`NAMES`' order."""
    names = {SHORT.get(n, n) for n in _names(value)}
    return tuple(n for n in NAMES if n in names)


def rest(value: str | None) -> str | None:
    """Return --coefficients without the rank statistics: None (all) if not given, "" if none."""
    if value is None:
        return None
    return ",".join(n for n in _names(value) if SHORT.get(n, n) not in NAMES)


def functions() -> dict[str, Callable[..., Any]]:
    """Return the public functions by name."""
    import concord

    return {name: getattr(concord, name) for name in NAMES}


def results(frame: Any, names: tuple[str, ...], confidence_level: float) -> list[Any]:
    """Return each named statistic of the numeric ratings frame."""
    made = functions()
    levelled = {"cronbach_alpha", "overall_concordance"}
    return [
        made[n](frame, confidence_level=confidence_level) if n in levelled else made[n](frame)
        for n in names
    ]


def rows(results: list[Any], confidence_level: float) -> list[dict[str, Any]]:
    """Return each result's tidy record (``to_dict``'s keys)."""
    return [r.to_dict(confidence_level) for r in results]


def shown(rows: list[dict[str, Any]], confidence_level: float) -> list[dict[str, str]]:
    """Return the records as display strings: value, SE, interval, p and n."""
    from concord._render.records import number, pvalue

    level = f"{round(100 * confidence_level, 6):g}% CI"
    return [
        {
            "statistic": r["coefficient"],
            "value": number(r["statistic"]),
            "SE": number(r["standard_error"]),
            level: f"[{number(r['ci_low'])}, {number(r['ci_high'])}]",
            "p": pvalue(r["pvalue"]),
            "n": str(r["n"]),
        }
        for r in rows
    ]
