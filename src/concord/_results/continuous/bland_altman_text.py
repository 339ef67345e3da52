"""The lines ``BlandAltmanResult.explain()`` adds for the ratio and percent scales and subjects."""

from __future__ import annotations

from typing import Any

from concord._common.text import number

_HEADS = {
    "ratio": "d = ln x − ln y",
    "percent": "d = 100 (x − y) / ((x + y) / 2), % of the mean",
}


def extended(result: Any, lines: list[str]) -> list[str]:
    """Return ``lines`` with the scale's heading and back-transformed limits, and the subjects'."""
    out = list(lines)
    if result.scale in _HEADS:
        out[0] = out[0].replace("d = x − y", _HEADS[result.scale])
    if result.scale == "ratio":
        low, high = result.ratio_limits
        out.append(
            f"  as ratios x / y: geometric mean ratio {number(result.ratio_bias)}, "
            f"limits {number(low)} to {number(high)}"
        )
    if result.n_subjects:
        out[0] = out[0].rstrip(":") + f", {result.n_subjects} subjects (Bland & Altman 2007):"
        out[1] = out[1].replace("(t, n − 1 df)", "(t, subjects − 1 df)")
        if result.true_value == "constant":
            out[0] = out[0].replace(f"{result.n} pairs", f"{result.n} measurements")
            out[2] = (
                f"  SD of a difference s = √(s_d̄² + σ_w²) = {number(result.sd)}: of the "
                f"subjects' mean differences s_d̄ = {number(result.sd_between)}, within "
                f"σ_w = {number(result.sd_within)} (true value constant; replicates)"
            )
            pct = f"{100 * result.confidence_level:g}%"
            low, high = result.lower_interval, result.upper_interval
            out = [line for line in out if "CI of the" not in line]
            out.append(
                f"  {pct} CI of the lower limit [{number(low.low)}, {number(low.high)}], of the "
                f"upper [{number(high.low)}, {number(high.high)}] (Zou 2013, MOVER)"
            )
            return out
        out[2] = (
            f"  SD of a difference s = √(σ_b² + σ_w²) = {number(result.sd)}: between subjects "
            f"σ_b = {number(result.sd_between)}, within σ_w = {number(result.sd_within)} "
            "(true value varies)"
        )
        out = [line for line in out if "CI of the" not in line]
        out.append("  the limits' intervals are not computed with repeated measurements")
    return out
