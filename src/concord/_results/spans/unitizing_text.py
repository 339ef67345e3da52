"""The explanation of the variants "u2016", "|u", "cu" and "(k)u" of a unitizing α result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from concord._common.text import number


def family_lines(result: Any, what: str, shown: Callable[[float], str]) -> list[str]:
    """Return the lines of ``result.explain()`` for a variant of Krippendorff et al. (2016)."""
    m, big, items = len(result.raters), result.length, result.n_items
    observed, expected = result.pooled
    lines = [
        f"Krippendorff's unitizing alpha, {what}, of m = {m} raters on a continuum of "
        f"L = {big} ({items} item{'s' if items != 1 else ''} laid end to end):",
        "  l_ck = Σ_(i ≠ j) Σ_(g, h) |g ∩ h| / (m − 1): the lengths where rater i's segment "
        "of value c meets rater j's of value k (gaps are the value φ); l.. = m L",
        "  e_ck = l.. (l_c. l_.k − [c = k] own_c) / (l..² − Σ own): own = l² of each unit, "
        "l of each gap (Krippendorff et al. 2016)",
    ]
    if result.variant == "u2016":
        lines.append(
            "  uα = 1 − (l.. − Σ l_cc) / (l.. − Σ e_cc), the gaps φ a value like the categories: "
            f"D_o = {number(observed)}, D_e = {number(expected)}"
        )
        lines.append(f"uα = 1 − D_o / D_e = {shown(result.statistic)}")
        return lines
    if result.variant == "|u":
        lines.append(
            "  |uα = 1 − l_φ¬φ / e_φ¬φ: units of any category against the gaps, "
            f"D_o = 2 l_φ¬φ / l.. = {number(observed)}, D_e = 2 e_φ¬φ / l.. = {number(expected)}"
        )
        lines.append(f"|uα = 1 − D_o / D_e = {shown(result.statistic)}")
        return lines
    lines += [
        "  cuα on l*_ck = l_ck of two categories (c, k ≠ φ), with e*_ck = (l*_c. l*_.k − "
        "[c = k] Σ met² / (m − 1)) / (l*.. − Σ met² / ((m − 1) l*..)), met the part of a "
        "unit that meets the other rater's units",
        f"  the intersections of units are {result.coverage:.2%} of l..",
    ]
    for c, o, e, a in zip(
        result.labels, result.observed, result.expected, result.alphas, strict=True
    ):
        lines.append(
            f"  {c!s}: D_o,k = (l*_k. − l*_kk) / l*_k. = {number(o)}, D_e,k = {number(e)}, "
            f"(k)uα = {shown(a)}"
        )
    lines.append(
        f"cuα = 1 − D_o / D_e = 1 − {number(observed)} / {number(expected)} = "
        f"{shown(result.statistic)}"
    )
    return lines
