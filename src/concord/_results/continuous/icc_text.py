"""The intraclass correlation's explain(): the ANOVA table, the formula, the test."""

from __future__ import annotations

from typing import Any

from concord._common.text import number
from concord._results import interpret as _scales

_FORMULA = {
    ("oneway", "single"): "(MSR − MSW) / (MSR + (k − 1)·MSW)",
    ("oneway", "average"): "(MSR − MSW) / MSR",
    ("agreement", "single"): "(MSR − MSE) / (MSR + (k − 1)·MSE + k/n·(MSC − MSE))",
    ("agreement", "average"): "(MSR − MSE) / (MSR + (MSC − MSE)/n)",
    ("consistency", "single"): "(MSR − MSE) / (MSR + (k − 1)·MSE)",
    ("consistency", "average"): "(MSR − MSE) / MSR",
}
_WORDS = {
    "oneway": "one-way",
    "twoway": "two-way",
    "agreement": "absolute agreement",
    "consistency": "consistency",
    "single": "single rating",
    "average": "mean of k ratings",
}


def explain(r: Any) -> str:
    """Return the text of :meth:`IccResult.explain`."""
    from concord._results.continuous.icc_anova import key

    a = r._anova
    form = key(r.model, r.type, r.unit)
    kind = [_WORDS[r.model]] + ([_WORDS[r.type]] if r.model == "twoway" else [])
    lines = [
        f"{r.name} = {r.shrout_fleiss}, {', '.join([*kind, _WORDS[r.unit]])}: "
        f"n = {r.n_items} items, k = {r.n_raters} raters",
    ]
    if r.n_ratings != r.n_items * r.n_raters:
        lines.append(
            f"incomplete: N = {r.n_ratings} ratings; k₀ = {number(r.k0)} (Ebel 1951), "
            "the method of moments of R irrNA's iccNA (Brueckl 2011)"
        )
    lines += ["", f"{'source':<28}{'SS':>14}{'df':>10}{'MS':>14}"]
    ms = a.mean_squares()
    rows = [("between items (MSR)", a.ss_items, a.df_items, ms["items"])]
    if r.model == "oneway":
        rows.append(("within items (MSW)", a.ss_within, a.df_within, ms["within"]))
    else:
        rows = [
            ("between items (MSR)", a.ss_items_adjusted, a.df_items, ms["items_adjusted"]),
            ("between raters (MSC)", a.ss_raters, a.df_raters, ms["raters"]),
            ("residual (MSE)", a.ss_error, a.df_error, ms["error"]),
        ]
    rows.append(("total", a.ss_total, a.n_ratings - 1, None))
    for name, ss, df, m in rows:
        shown = "" if m is None else number(float(m))
        lines.append(f"{name:<28}{number(float(ss)):>14}{number(float(df)):>10}{shown:>14}")
    low, high = r.confidence_interval()
    level = f"{r.confidence_level:.0%}"
    lines += [
        "",
        f"ICC = {_FORMULA[form]} = {number(r.statistic)}",
        f"F = {number(r.f_statistic)} on ({number(r.df1)}, {number(r.df2)}) df, "
        f"H0: ICC = {number(r.r0)}, p = {number(r.pvalue)}",
        f"{level} CI [{number(low)}, {number(high)}] (McGraw & Wong 1996, F-based)",
        f"Interpretation ({_scales.SOURCES['koo-li']}): {r.interpret()}",
    ]
    return "\n".join(lines)
